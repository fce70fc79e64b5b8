// ag-diffcov's command line end to end, through the shared harness (ag-core's
// test/support/usage-harness.ts): every output flag at a device, a FIFO, a missing directory
// and a directory; its usage errors, each one line and exit 3 beside an honest control.
import test from 'ava';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { usageHarness } from '../../ag-core/test/support/usage-harness.js';

const TOOL = 'ag-diffcov';
const bin = fileURLToPath(new URL(`../bin/${TOOL}.js`, import.meta.url));
const { runBin, outputTests, usageError, smallPatch } = usageHarness(TOOL, bin);

// ag-diffcov: --out, --markdown, --sarif. Without a report it measures nothing (ratio null) and exits 0.
outputTests([
  {
    flag: '--out',
    ok: 0,
    argv: (target, others) => [
      '--diff',
      smallPatch().diff,
      '--out',
      target,
      '--markdown',
      path.join(others, 'd.md'),
      '--sarif',
      path.join(others, 'd.sarif'),
    ],
  },
  {
    flag: '--markdown',
    ok: 0,
    argv: (target, others) => [
      '--diff',
      smallPatch().diff,
      '--out',
      path.join(others, 'd.json'),
      '--markdown',
      target,
      '--sarif',
      path.join(others, 'd.sarif'),
    ],
  },
  {
    flag: '--sarif',
    ok: 0,
    argv: (target, others) => [
      '--diff',
      smallPatch().diff,
      '--out',
      path.join(others, 'd.json'),
      '--markdown',
      path.join(others, 'd.md'),
      '--sarif',
      target,
    ],
  },
]);

test('usage errors are one line and exit 3: a stray word, a format that is none of the choices', async (t) => {
  const { diff, dir } = smallPatch();
  const out = path.join(dir, 'd.json');
  await usageError(
    t,
    ['--diff', diff, 'extra', '--out', out],
    /^ag-diffcov: usage: unexpected argument "extra": it takes no positional argument/,
  );
  await usageError(
    t,
    ['--diff', diff, '--coverage', diff, '--coverage', diff, 'third', '--out', out],
    /unexpected argument "third"/,
  );
  await usageError(
    t,
    ['--diff', diff, '--coverage', diff, '--format', 'xml', '--out', out],
    /^ag-diffcov: usage: --format must be one of auto, lcov, istanbul, coveragepy, cobertura, jacoco, go, llvm, got "xml" \(see `ag-diffcov --help`\)$/m,
  );
  await usageError(
    t,
    ['--diff', diff, '--coverage-source', 'guessed', '--out', out],
    /--coverage-source must be one of computed, untrusted, none, got "guessed"/,
  );
  t.deepEqual(readdirSync(dir).sort(), ['in-base', 'in-patch', 'in.diff']);
  const control = await runBin(['--diff', diff, '--coverage-source', 'none', '--out', out]);
  t.is(control.code, 0, control.stderr);
});
