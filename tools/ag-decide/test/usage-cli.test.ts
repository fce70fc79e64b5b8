// ag-decide's command line end to end, through the shared harness (ag-core's
// test/support/usage-harness.ts): every output flag at a device, a FIFO, a missing directory
// and a directory; its usage errors, each one line and exit 3 beside an honest control.
import test from 'ava';
import { lstatSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { usageHarness } from '../../ag-core/test/support/usage-harness.js';

const TOOL = 'ag-decide';
const bin = fileURLToPath(new URL(`../bin/${TOOL}.js`, import.meta.url));
const { tmp, runBin, outputTests, usageError, smallPatch, nullDevice } = usageHarness(TOOL, bin);

// ag-decide: --out, --markdown and --log. No evidence at all is a HOLD (exit 2) with a verdict written.
const decideArgs = (flags: { out: string; markdown: string; log: string }) => {
  const p = smallPatch();
  return [
    '--diff',
    p.diff,
    '--out',
    flags.out,
    '--markdown',
    flags.markdown,
    '--log',
    flags.log,
    '--model',
    'm',
    '--quiet',
  ];
};
outputTests([
  {
    flag: '--out',
    ok: 2,
    argv: (target, others) =>
      decideArgs({ out: target, markdown: path.join(others, 'v.md'), log: path.join(others, 'log.jsonl') }),
  },
  {
    flag: '--markdown',
    ok: 2,
    argv: (target, others) =>
      decideArgs({ out: path.join(others, 'v.json'), markdown: target, log: path.join(others, 'log.jsonl') }),
  },
  // The log is appended by ag-decide's own log.ts; a FIFO nobody reads is not tested there (see the report).
  {
    flag: '--log',
    ok: 2,
    argv: (target, others) =>
      decideArgs({ out: path.join(others, 'v.json'), markdown: path.join(others, 'v.md'), log: target }),
  },
]);

test('stray words, an unknown command and a second verdict are one line and exit 3; the stale --out is gone first', async (t) => {
  const p = smallPatch();
  const out = path.join(p.dir, 'v.json');
  writeFileSync(out, '{"stale":"ACCEPT"}\n');
  await usageError(
    t,
    ['--diff', p.diff, '--evidence', 'a.json', 'b.json', 'c.json', '--out', out],
    /^ag-decide: usage: unexpected argument "b\.json": it takes no positional argument: every value needs its flag, and a repeatable flag is repeated for each value \(see `ag-decide --help`\)$/m,
  );
  t.deepEqual(
    readdirSync(p.dir).sort(),
    ['in-base', 'in-patch', 'in.diff'],
    'the stale verdict was deleted first, and nothing written',
  );
  await usageError(
    t,
    ['chekc', out],
    /^ag-decide: usage: unknown command "chekc" \(the commands are check, stats; or give only flags\)/,
  );
  await usageError(
    t,
    ['check', out, 'other.json'],
    /^ag-decide: usage: unexpected argument "other\.json": it takes VERDICT only \(see `ag-decide check --help`\)$/m,
  );
  await usageError(
    t,
    ['stats', out, '--format', 'xml'],
    /^ag-decide: usage: --format must be table or json, got "xml" \(see `ag-decide stats --help`\)$/m,
  );
  const control = await runBin([
    '--diff',
    p.diff,
    '--evidence',
    path.join(p.dir, 'a.json'),
    '--evidence',
    path.join(p.dir, 'b.json'),
    '--out',
    out,
    '--quiet',
  ]);
  t.is(control.code, 2, control.stderr);
  const check = await runBin(['check', out]);
  t.is(check.code, 2);
  t.regex(check.stderr, /^ag-decide check: .*v\.json: HOLD \(EVIDENCE_MISSING\)\n$/);
});

test('--out that is a device or a link is never deleted first; a directory there is refused, one line, exit 3', async (t) => {
  const dir = tmp();
  const p = smallPatch();
  const dev = nullDevice(dir);
  const r = await runBin(['--diff', p.diff, '--out', dev, '--quiet']);
  t.is(r.code, 2, r.stderr);
  t.true(lstatSync(dev).isCharacterDevice());
  const d = await runBin(['--diff', p.diff, '--out', dir]);
  t.is(d.code, 3);
  t.regex(d.stderr, /^ag-decide: cannot write .*: is a directory; refused[^\n]*\n$/);
  t.deepEqual(readdirSync(dir), ['null']);
});
