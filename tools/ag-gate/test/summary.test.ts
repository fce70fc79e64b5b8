// The lines a run ends with, and the stage lines: read from verdict.json as written.
import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PipelineFaults, logTail } from '../src/faults.js';
import { Progress, stagesTable } from '../src/progress.js';
import { summaryLines } from '../src/summary.js';

function dir(t: import('ava').ExecutionContext): string {
  const d = mkdtempSync(path.join(os.tmpdir(), 'ag-gate-summary-'));
  t.teardown(() => rmSync(d, { recursive: true, force: true }));
  return d;
}

test('the verdict, each reason in words, and the page to read', (t) => {
  const d = dir(t);
  const file = path.join(d, 'verdict.json');
  const reasons = Array.from({ length: 14 }, (_, i) => ({
    code: `R${i}`,
    message: i === 0 ? 'x'.repeat(300) : `m${i}`,
  }));
  writeFileSync(file, JSON.stringify({ verdict: 'HOLD', reasons }));
  const lines = summaryLines(file, path.join(d, 'verdict.md'));
  t.is(lines[0], 'verdict: HOLD');
  t.is(lines[1]!.length, 2 + 2 + 2 + 200, 'a long message is cut');
  t.is(lines[2], '  R1: m1');
  t.is(lines.at(-2), '  … and 2 more');
  t.is(lines.at(-1), `details: ${path.join(d, 'verdict.md')}`);
  t.deepEqual(summaryLines(path.join(d, 'none.json'), 'x'), [
    `verdict: none could be read from ${path.join(d, 'none.json')} (HOLD)`,
  ]);
});

test('a stage line as it starts and as it ends; nothing when quiet', (t) => {
  const said: string[] = [];
  let now = 0;
  const p = new Progress(
    'ag-gate',
    false,
    (l) => said.push(l),
    () => now,
  );
  const end = p.start('run', 'the tests');
  now = 2500;
  end();
  t.deepEqual(said, ['ag-gate: [5/9] run: the tests\n', 'ag-gate: [5/9] run: done (2.5 s)\n']);
  t.is(stagesTable(p.times), 'stage\tseconds\tresult\nrun\t2.500\tdone\n', 'and its time is kept');
  const quiet: string[] = [];
  new Progress('ag-gate', true, (l) => quiet.push(l)).start('run', 'x')();
  t.deepEqual(quiet, []);
});

test('a fault is one line in pipeline-faults.txt, with the last lines of its log', (t) => {
  const d = dir(t);
  const log = path.join(d, 'install.log');
  writeFileSync(log, 'a\nb\nnpm ERR! 404\r\n\tnot found\n\n');
  t.is(logTail(log), 'b npm ERR! 404 not found');
  // a stack trace at the end: the line that said what went wrong comes first
  const traced = path.join(d, 'traced.log');
  writeFileSync(
    traced,
    [
      'Preparing pnpm@10.33.0 for immediate activation...',
      'Error: No compatible signature found in package metadata',
      '    at verifySignature (corepack.cjs:22021:11)',
      '    at async Object.runMain (corepack.cjs:23710:7)',
      '',
      'Node.js v20.20.2',
      '',
    ].join('\n'),
  );
  t.is(
    logTail(traced),
    'Error: No compatible signature found in package metadata … at async Object.runMain (corepack.cjs:23710:7) Node.js v20.20.2',
  );
  const faults = new PipelineFaults(d, 'ag-gate');
  const write = process.stderr.write;
  process.stderr.write = () => true;
  try {
    faults.add('the install exited 7', log);
    faults.add('no test command');
  } finally {
    process.stderr.write = write;
  }
  t.deepEqual(faults.lines(), ['the install exited 7: b npm ERR! 404 not found', 'no test command']);
});
