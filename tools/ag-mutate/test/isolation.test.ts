// As root, every test run ag-mutate starts gets a fresh unprivileged uid (as ag-run's do):
// a test cannot write the trusted policy or any file outside its own copy.
import test, { type ExecutionContext } from 'ava';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runningAsRoot } from '@adversary-gate/core';
import { makeRepo } from './helpers/repo.js';
import { measured } from './helpers/artefact.js';

const CODE = 'export const twice = (x) => x * 2;\n';

/** ag-mutate on a patch adding `twice` and the test file `spec`: every mutant killed, the baseline green. */
async function measuresTwice(t: ExecutionContext, spec: string, jobs: string): Promise<void> {
  const repo = makeRepo(
    { 'package.json': '{"type":"module"}\n' },
    { 'src/twice.js': CODE, 'test/twice.test.js': spec },
  );
  t.teardown(repo.cleanup);
  const m = await measured(
    t,
    ['--diff', repo.diff, '--tree', repo.tree, '--test-command', 'node test/twice.test.js', '--jobs', jobs],
    repo.file('m.json'),
  );
  t.is(m.reason, null, JSON.stringify(m.baseline_runs));
  t.is(m.suite_strength, 1);
}

test('a test cannot write a file outside its copy (the trusted policy); an honest test still runs green', async (t) => {
  const outside = mkdtempSync(path.join(os.tmpdir(), 'agm-policy-'));
  chmodSync(outside, 0o755);
  t.teardown(() => rmSync(outside, { recursive: true, force: true }));
  const policy = path.join(outside, 'adversary-gate.json');
  writeFileSync(policy, '{"floors":{"suite_strength":0.75}}\n');
  chmodSync(policy, 0o644);
  const spec = `import test from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { twice } from '../src/twice.js';
test('twice', () => {
  // The attack: lower the floor in the trusted policy (its path is known to the attacker).
  try { writeFileSync(${JSON.stringify(policy)}, '{"floors":{"suite_strength":0}}\\n'); } catch {}
  // The honest part: the test may write inside its own copy.
  writeFileSync(new URL('../scratch.txt', import.meta.url), 'ok');
  assert.equal(twice(2), 4);
});
`;
  await measuresTwice(t, spec, '2');
  if (runningAsRoot()) t.is(readFileSync(policy, 'utf8'), '{"floors":{"suite_strength":0.75}}\n');
  else t.log("not root: the runs keep the caller uid (nothing to isolate from); the policy is the caller's own file");
});

test('every run ag-mutate starts has ag-run’s limits: a file past 256 MiB is refused to the process writing it', async (t) => {
  // The test passes only when the write is stopped by the file-size limit (SIGXFSZ): without the
  // limit, 300 MiB lands in the copy, the assertion fails, and the baseline is red.
  const spec = `import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { twice } from '../src/twice.js';
test('twice, under a file-size limit', () => {
  const r = spawnSync('sh', ['-c', 'head -c 300M /dev/zero > big.bin'], { cwd: new URL('..', import.meta.url).pathname });
  assert.equal(r.signal ?? (r.status === 153 ? 'SIGXFSZ' : String(r.status)), 'SIGXFSZ');
  assert.equal(twice(2), 4);
});
`;
  await measuresTwice(t, spec, '1');
});

test('every run as a fresh uid has a TMPDIR of its own: two runs at once never share a private temporary folder', async (t) => {
  // pytest's tmp_path lives in TMPDIR/pytest-of-<user>, made 0700 by whichever uid comes first:
  // in a shared /tmp the other run at once could not use it, and a canary or mutant failed for nothing.
  const spec = `import test from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { twice } from '../src/twice.js';
test('twice, in a private temporary folder', () => {
  const tmp = process.env.TMPDIR;
  if (process.getuid() !== 0 && ${JSON.stringify(runningAsRoot())}) {
    assert.ok(tmp, 'TMPDIR is set');
    const st = statSync(tmp);
    assert.equal(st.uid, process.getuid());
    assert.equal(st.mode & 0o777, 0o700);
  }
  if (tmp) {
    const mine = path.join(tmp, 'pytest-of-unknown');
    mkdirSync(mine, { recursive: true, mode: 0o700 });
    writeFileSync(path.join(mine, 'x'), 'ok');
  }
  assert.equal(twice(2), 4);
});
`;
  await measuresTwice(t, spec, '2');
});
