// ag-run's command line end to end, through the shared harness (ag-core's
// test/support/usage-harness.ts): every output flag at a device, a FIFO, a missing directory
// and a directory; its usage errors, each one line and exit 3 beside an honest control.
import test from 'ava';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { usageHarness } from '../../ag-core/test/support/usage-harness.js';

const TOOL = 'ag-run';
const bin = fileURLToPath(new URL(`../bin/${TOOL}.js`, import.meta.url));
const { runBin, outputTests, usageError, smallPatch } = usageHarness(TOOL, bin);

// ag-run: --out. One round of a command that passes.
const runArgs = (out: string) => {
  const p = smallPatch();
  return [
    '--baseline',
    p.base,
    '--patch',
    p.patch,
    '--diff',
    p.diff,
    '--test-command',
    'true',
    '--rounds',
    '1',
    '--jobs',
    '2',
    '--out',
    out,
  ];
};
outputTests([{ flag: '--out', ok: 0, argv: (target) => runArgs(target) }]);

test('usage errors are one line and exit 3: a negative timeout says the range, a stray word, a mode that is no choice', async (t) => {
  const p = smallPatch();
  const out = path.join(p.dir, 'run.json');
  const base = ['--baseline', p.base, '--patch', p.patch, '--diff', p.diff, '--out', out];
  await usageError(
    t,
    [...base, '--test-command', 'true', '--timeout', '-1'],
    /^ag-run: usage: --timeout must be between 0\.1 and 86400, got -1 \(see `ag-run --help`\)$/m,
  );
  await usageError(
    t,
    [...base, '--test-command', 'true', '--timeout', 'soon'],
    /--timeout must be a number between 0\.1 and 86400, got "soon"/,
  );
  await usageError(t, [...base, '--test-command', 'true', 'false'], /^ag-run: usage: unexpected argument "false"/);
  await usageError(
    t,
    [...base, '--test-command', 'true', '--sandbox', 'docker'],
    /--sandbox must be none or bwrap, got "docker"/,
  );
  await usageError(
    t,
    [...base, '--test-command', 'true', '--run-as', 'nobody'],
    /--run-as must be unprivileged or caller, got "nobody"/,
  );
  await usageError(
    t,
    [...base, '--test-command', 'true', '--runner', 'rspec'],
    /--runner must be one of generic, pytest, node, jest, vitest, mocha, ava, got "rspec"/,
  );
  await usageError(
    t,
    [
      '--baseline',
      path.join(p.dir, 'gone'),
      '--patch',
      p.patch,
      '--diff',
      p.diff,
      '--test-command',
      'true',
      '--out',
      out,
    ],
    /gone: --baseline is not a directory \(it does not exist\)$/m,
  );
  t.deepEqual(readdirSync(p.dir).sort(), ['in-base', 'in-patch', 'in.diff']);
  const control = await runBin([
    ...base,
    '--test-command',
    'true',
    '--rounds',
    '1',
    '--timeout',
    '30',
    '--sandbox',
    'none',
    '--runner',
    'generic',
  ]);
  t.is(control.code, 0, control.stderr);
});
