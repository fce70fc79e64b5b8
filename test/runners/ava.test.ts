import test from 'ava';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { buildRepo, judge, judgeBoth, why } from './kit.js';
import { AVA } from './projects.js';

test.serial('ava: the honest patch is ACCEPTed with per-file ids, the bad one is not', async (t) => {
  const { honest } = await judgeBoth(t, AVA, {
    ids: ['a › adds', 'b › adds'],
    fileOf: (id) => /^[ab] › /.test(id),
  });
  t.regex(honest.detected, /coverage: c8 10\.1\.3, installed by the gate/);
});

test.serial(
  'ava: a tool the gate cannot install is a named HOLD before any test runs, never a test failure',
  async (t) => {
    // c8 needs @bcoe/v8-coverage; the project's .npmrc sends that scope to a registry nobody serves.
    const repo = buildRepo(t, {
      ...AVA,
      files: { ...AVA.files, '.npmrc': '@bcoe:registry=http://127.0.0.1:9/\nfetch-retries=0\n' },
    });
    const held = await judge(t, repo, repo.honest);
    t.is(held.verdict.verdict, 'HOLD', why(held));
    t.is(held.code, 2);
    t.regex(held.stderr, /the gate's tool install \(c8@10\.1\.3\) exited [1-9]/);
    const faults = held.verdict.reasons.filter((r) => r.code === 'PIPELINE_FAULT').map((r) => r.message);
    t.is(faults.length, 1, why(held));
    t.regex(
      faults[0] ?? '',
      /^the pipeline: the gate's tool install \(c8@10\.1\.3\) exited [1-9]\d*, so no test ran: /,
    );
    t.false(existsSync(path.join(held.out, 'run.json')), 'no test ran');
  },
);
