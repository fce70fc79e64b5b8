import test from 'ava';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { neverRan, readV8Coverage } from '../src/exec/v8-coverage.js';

const CODE = `export function used(a) {
  return a + 1;
}
export function unused(a) {
  return a * 2;
}
used(1);
`;

test("V8's own coverage tells run code from code that never ran, and knows nothing of other files", (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ag-mutate-v8-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const root = path.join(dir, 'tree');
  mkdirSync(root);
  writeFileSync(path.join(root, 'm.mjs'), CODE);
  const cov = path.join(dir, 'cov');
  const r = spawnSync(process.execPath, ['m.mjs'], { cwd: root, env: { ...process.env, NODE_V8_COVERAGE: cov } });
  t.is(r.status, 0);
  const map = readV8Coverage(cov, root, new Set(['m.mjs', 'other.js']));
  const text = readFileSync(path.join(root, 'm.mjs'), 'utf8');
  t.false(neverRan(map, 'm.mjs', text.indexOf('a + 1')));
  t.true(neverRan(map, 'm.mjs', text.indexOf('a * 2')));
  t.is(neverRan(map, 'other.js', 0), null);
});

test('a missing coverage folder means nothing is known', (t) => {
  t.is(readV8Coverage('/nonexistent/cov', '/x', new Set(['a.js'])).size, 0);
});
