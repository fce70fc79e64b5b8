import test from 'ava';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { escapeFaults, readEscapeCount } from '../src/escapes.js';

const run = (side: 'baseline' | 'patch', escaped: number, command = 'node --test') => ({
  side,
  round: 1,
  command,
  escaped,
});

test('a patch execution whose processes escaped is a PROCESSES_ESCAPED fault naming it', (t) => {
  const faults = escapeFaults([run('baseline', 0), run('patch', 2)]);
  t.deepEqual(
    faults.map((f) => f.code),
    ['PROCESSES_ESCAPED'],
  );
  t.regex(faults[0]!.message, /^execution 2 \(patch round 1, node --test\): 2 processes left the run's session/);
});

test("no fault when nothing escaped, or when the baseline's runs of the command escaped too", (t) => {
  t.deepEqual(escapeFaults([run('baseline', 0), run('patch', 0)]), []);
  t.deepEqual(escapeFaults([run('baseline', 1), run('patch', 3)]), []);
  t.is(escapeFaults([run('baseline', 1, 'other'), run('patch', 3)]).length, 1);
});

test('the count file: a number, else 0 (missing, not a number, a link)', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ag-escapes-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const f = path.join(dir, 'n');
  t.is(await readEscapeCount(f), 0);
  writeFileSync(f, '3\n');
  t.is(await readEscapeCount(f), 3);
  writeFileSync(f, 'lots\n');
  t.is(await readEscapeCount(f), 0);
  writeFileSync(path.join(dir, 'real'), '5\n');
  symlinkSync(path.join(dir, 'real'), path.join(dir, 'link'));
  t.is(await readEscapeCount(path.join(dir, 'link')), 0);
});
