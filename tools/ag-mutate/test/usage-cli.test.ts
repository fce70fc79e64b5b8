// ag-mutate's command line end to end, through the shared harness (ag-core's
// test/support/usage-harness.ts): every output flag at a device, a FIFO, a missing directory
// and a directory; its usage errors, each one line and exit 3 beside an honest control.
import test from 'ava';
import { lstatSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { usageHarness } from '../../ag-core/test/support/usage-harness.js';

const TOOL = 'ag-mutate';
const bin = fileURLToPath(new URL(`../bin/${TOOL}.js`, import.meta.url));
const { tmp, runBin, outputTests, usageError, smallPatch, nullDevice } = usageHarness(TOOL, bin);

// ag-mutate: --out of the default command (a zero budget measures nothing and exits 0), of merge and of import.
const mutateArgs = (out: string) => {
  const p = smallPatch();
  return ['--diff', p.diff, '--tree', p.patch, '--test-command', 'true', '--max', '0', '--out', out];
};
/** A shard file of a zero-budget run, for merge. */
async function shard(): Promise<string> {
  const file = path.join(tmp(), 'in-shard.json');
  const r = await runBin([...mutateArgs(file), '--shard', '1/1', '--quiet']);
  if (r.code !== 0) throw new Error(`the shard run failed: ${r.stderr}`);
  return file;
}
function strykerReport(): string {
  const file = path.join(tmp(), 'in-stryker.json');
  writeFileSync(file, '{"schemaVersion":"1","files":{}}\n');
  return file;
}
outputTests([{ flag: '--out', ok: 0, argv: (target) => mutateArgs(target) }]);

for (const sub of ['merge', 'import'] as const) {
  test(`${sub} --out at a character device, a missing directory or a directory: in place, or one line and exit 3`, async (t) => {
    const input = sub === 'merge' ? [await shard()] : ['--stryker', strykerReport(), '--diff', smallPatch().diff];
    const dir = tmp();
    const dev = nullDevice(dir);
    const ok = await runBin([sub, ...input, '--out', dev, '--quiet']);
    t.is(ok.code, 0, ok.stderr);
    t.true(lstatSync(dev).isCharacterDevice());
    t.deepEqual(readdirSync(dir), ['null']);
    const missing = path.join(dir, 'no', 'm.json');
    t.is(
      (await runBin([sub, ...input, '--out', missing])).stderr,
      `ag-mutate: cannot write ${missing}: directory ${path.join(dir, 'no')} does not exist\n`,
    );
    const atDir = await runBin([sub, ...input, '--out', dir]);
    t.is(atDir.code, 3);
    t.regex(atDir.stderr, /is a directory; refused/);
  });
}

test('sub-command help names the binary: USAGE ag-mutate merge, USAGE ag-mutate import', async (t) => {
  for (const sub of ['merge', 'import']) {
    const r = await runBin([sub, '--help']);
    t.is(r.code, 0);
    t.regex(
      r.stdout,
      new RegExp(`\\(ag-mutate ${sub} v\\d+\\.\\d+\\.\\d+\\)\\n\\nUSAGE ag-mutate ${sub} \\[OPTIONS\\]`),
    );
  }
});

test('usage errors are one line and exit 3: a negative timeout, a stray word, a mode that is no choice, a missing tree, a --run that is no run.json', async (t) => {
  const p = smallPatch();
  const out = path.join(p.dir, 'm.json');
  const base = ['--diff', p.diff, '--tree', p.patch, '--test-command', 'true', '--max', '0', '--out', out];
  await usageError(
    t,
    [...base, '--timeout', '-1'],
    /^ag-mutate: usage: --timeout must be between 1 and 86400, got -1 \(see `ag-mutate --help`\)$/m,
  );
  await usageError(t, [...base, 'stray'], /^ag-mutate: usage: unexpected argument "stray"/);
  await usageError(t, [...base, '--select', 'some'], /--select must be auto or whole, got "some"/);
  await usageError(t, [...base, '--sandbox', 'docker'], /--sandbox must be none or bwrap, got "docker"/);
  await usageError(
    t,
    ['--diff', p.diff, '--tree', path.join(p.dir, 'gone'), '--test-command', 'true', '--out', out],
    /gone: --tree is not a directory \(it does not exist\)$/m,
  );
  await usageError(
    t,
    ['mrege', '--out', out],
    /^ag-mutate: usage: unknown command "mrege" \(the commands are merge, import; or give only flags\)/,
  );
  // --run is read through run.json's schema before anything runs: a file that is not one names itself.
  await usageError(t, [...base, '--run', path.join(p.dir, 'no-run.json')], /no-run\.json: no such file$/m);
  await usageError(t, [...base, '--run', p.diff], /in\.diff: /);
  t.deepEqual(readdirSync(p.dir).sort(), ['in-base', 'in-patch', 'in.diff']);
  const control = await runBin([...base, '--timeout', '30', '--select', 'whole', '--sandbox', 'none', '--quiet']);
  t.is(control.code, 0, control.stderr);
});
