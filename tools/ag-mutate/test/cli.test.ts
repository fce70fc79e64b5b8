import test from 'ava';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../bin/ag-mutate.js', import.meta.url));

test('exit 3 and no artefact while the tool is not built', (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ag-mutate-'));
  const out = path.join(dir, 'out.json');
  const r = spawnSync(process.execPath, [bin, '--out', out], { encoding: 'utf8' });
  t.is(r.status, 3);
  t.false(existsSync(out));
  t.regex(r.stderr, /^ag-mutate: /);
});
