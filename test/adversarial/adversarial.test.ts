// The adversarial suite: each catalogue case is a tiny git repository (the demo project's
// baseline and an agent commit) run through the whole pipeline (gate.sh: all five tools),
// asserting the verdict and its reason code. The negative control must ACCEPT, so the suite
// also measures false alarms. Cases run one at a time: they are whole pipelines on 2 cores.
import test from 'ava';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { buildDemoRepo } from '../../pipelines/demo/repo.mjs';
import { CASES } from './cases.js';
import { JS_ENV, ROOT, run } from '../e2e/helpers.js';

for (const c of CASES) {
  test.serial(`${c.id}: ${c.what} → ${c.verdict}${c.code ? ` ${c.code}` : ''}`, (t) => {
    const repo = buildDemoRepo('js', null, { baseFiles: c.base ?? {}, patchFiles: c.patch, message: `agent: ${c.what}` });
    t.teardown(() => rmSync(repo, { recursive: true, force: true }));
    const env = { ...JS_ENV, AG_MUTATE_MAX: '4', ...(c.env ?? {}) };
    const r = run('sh', [path.join(ROOT, 'pipelines/gate.sh'), '--base', 'main~1', '--head', 'main', '--out', 'ag'], repo, env);
    const verdict = JSON.parse(readFileSync(path.join(repo, 'ag', 'verdict.json'), 'utf8')) as { verdict: string; reasons: { code: string }[] };
    const codes = verdict.reasons.map((x) => x.code);
    t.is(verdict.verdict, c.verdict, `${r.stderr}\n${JSON.stringify(verdict.reasons)}`);
    if (c.code === null && c.verdict === 'ACCEPT') t.deepEqual(codes, []);
    if (c.code !== null) t.true(codes.includes(c.code), JSON.stringify(verdict.reasons));
    t.is(r.code, { ACCEPT: 0, REJECT: 1, HOLD: 2 }[c.verdict]);
  });
}
