// ag-oracle's command line end to end, through the shared harness (ag-core's
// test/support/usage-harness.ts): every output flag at a device, a FIFO, a missing directory
// and a directory; its usage errors, each one line and exit 3 beside an honest control.
import test from 'ava';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { usageHarness } from '../../ag-core/test/support/usage-harness.js';

const TOOL = 'ag-oracle';
const bin = fileURLToPath(new URL(`../bin/${TOOL}.js`, import.meta.url));
const { runBin, outputTests, usageError, smallPatch } = usageHarness(TOOL, bin);

// ag-oracle: --out.
outputTests([
  {
    flag: '--out',
    ok: 0,
    argv: (target) => {
      const p = smallPatch();
      return ['--diff', p.diff, '--baseline', p.base, '--patch', p.patch, '--out', target];
    },
  },
]);

test('usage errors are one line and exit 3: a stray word, a tree that is no directory', async (t) => {
  const p = smallPatch();
  const out = path.join(p.dir, 'o.json');
  await usageError(
    t,
    ['--diff', p.diff, '--baseline', p.base, p.patch, '--patch', p.patch, '--out', out],
    /^ag-oracle: usage: unexpected argument ".*in-patch"/,
  );
  await usageError(
    t,
    ['--diff', p.diff, '--baseline', path.join(p.dir, 'gone'), '--patch', p.patch, '--out', out],
    /^ag-oracle: .*gone: --baseline is not a directory \(it does not exist\)$/m,
  );
  await usageError(
    t,
    ['--diff', p.diff, '--baseline', p.base, '--patch', p.diff, '--out', out],
    /^ag-oracle: .*in\.diff: --patch is not a directory$/m,
  );
  t.deepEqual(readdirSync(p.dir).sort(), ['in-base', 'in-patch', 'in.diff']);
  const control = await runBin(['--diff', p.diff, '--baseline', p.base, '--patch', p.patch, '--out', out]);
  t.is(control.code, 0, control.stderr);
});
