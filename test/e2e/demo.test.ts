// The bundled demo runs in CI: every scenario must reach its expected decision.
import test from 'ava';
import path from 'node:path';
import { ROOT, run } from './helpers.js';

test('the demo reaches all eight expected decisions (A–F on node:test, A and C on pytest)', async (t) => {
  const r = await run(process.execPath, [path.join(ROOT, 'pipelines/demo/run-demo.mjs')], ROOT);
  t.is(r.code, 0, `${r.stdout}\n${r.stderr}`);
  t.regex(r.stdout, /8\/8 decisions as expected/);
  for (const id of ['A', 'B', 'C', 'D', 'E', 'F', 'A-py', 'C-py']) t.regex(r.stdout, new RegExp(`^${id}\\s`, 'm'));
});
