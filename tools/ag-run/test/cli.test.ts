/**
 * The real binary: flags, usage errors (exit 3, one stderr line, nothing written), stdout output.
 */
import test from 'ava';
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { agRun, bin, calcProject, makeRepo, spawnAg, type Repo, removeTemporaries } from './helpers/repo.js';

test.after.always(removeTemporaries);

let shared: Promise<Repo> | undefined;
const repo = () => (shared ??= makeRepo(calcProject, { 'calc.js': '// x\nexports.add = (a, b) => a + b;\n' }));

const usage = async (t: import('ava').ExecutionContext, args: string[], message: RegExp) => {
  const r = await agRun(await repo(), args);
  t.is(r.status, 3, r.stderr);
  t.regex(r.stderr, message);
  t.regex(r.stderr, /^ag-run: /);
  t.false(existsSync(r.out));
};

test('--help prints the usage on stdout and exits 0', async (t) => {
  const r = await spawnAg([bin, '--help'], '/nonexistent');
  t.is(r.status, 0);
  t.regex(r.stdout, /--test-command/);
  t.regex(r.stdout, /--sandbox/);
});

test('exit 3 on an unknown flag', (t) => usage(t, ['--test-command', 'true', '--bogus'], /unknown flag --bogus/));
test('exit 3 with two claim commands and no full suite command', (t) =>
  usage(t, ['--test-command', 'true', '--test-command', 'false'], /give --full-suite-command/));

test('exit 3 when the diff is missing', async (t) => {
  const r = await repo();
  const out = path.join(r.dir, 'never.json');
  const res = await spawnAg(
    [
      bin,
      '--baseline',
      r.baseline,
      '--patch',
      r.patch,
      '--diff',
      path.join(r.dir, 'nope.diff'),
      '--test-command',
      'true',
      '--out',
      out,
    ],
    out,
  );
  t.is(res.status, 3);
  t.regex(res.stderr, /nope\.diff/);
  t.false(existsSync(out));
});

test('exit 3 when a tree is not a directory', async (t) => {
  const r = await repo();
  const out = path.join(r.dir, 'never2.json');
  const res = await spawnAg(
    [bin, '--baseline', r.diff, '--patch', r.patch, '--diff', r.diff, '--test-command', 'true', '--out', out],
    out,
  );
  t.is(res.status, 3);
  t.regex(res.stderr, /--baseline is not a directory/);
});

test('exit 3 when the claims file is not valid', async (t) => {
  const r = await repo();
  const claims = path.join(r.dir, 'bad-claims.json');
  await fs.writeFile(claims, '{"criteria":[{"id":"AC-1","text":"x","kind":"maybe","tests":[]}]}');
  await usage(t, ['--test-command', 'true', '--claims', claims], /bad-claims\.json: field "criteria\.0\.kind"/);
});

test('exit 3 when the claims file lies inside the patch tree', async (t) => {
  const r = await repo();
  const patch = await fs.mkdtemp(path.join(r.dir, 'patch-copy-'));
  const claims = path.join(patch, 'claims.json');
  await fs.writeFile(claims, '{"criteria":[]}');
  const out = path.join(r.dir, 'never3.json');
  const res = await spawnAg(
    [
      bin,
      '--baseline',
      r.baseline,
      '--patch',
      patch,
      '--diff',
      r.diff,
      '--test-command',
      'true',
      '--claims',
      claims,
      '--out',
      out,
    ],
    out,
  );
  t.is(res.status, 3);
  t.regex(res.stderr, /inside the patch tree/);
  t.false(existsSync(out));
});

test('a --commands-json that is not an array of strings is a recorded fault, and none of it runs', async (t) => {
  const r = await repo();
  const cmds = path.join(r.dir, 'cmds.json');
  await fs.writeFile(cmds, '["true", {"sh": "rm -rf /"}]');
  const res = await agRun(r, ['--commands-json', cmds, '--runner', 'generic', '--rounds', '1']);
  t.is(res.status, 0, res.stderr);
  t.deepEqual(
    res.run!.faults.map((f) => f.code),
    ['COMMANDS_INVALID', 'FULL_SUITE_NOT_RUN'],
  );
  t.deepEqual(res.run!.claims, []);
  t.true(res.run!.inputs.some((i) => i.role === 'commands'));
});

test('--commands-json commands run as claims', async (t) => {
  const r = await repo();
  const cmds = path.join(r.dir, 'cmds-ok.json');
  await fs.writeFile(cmds, '["node --test test/"]');
  const res = await agRun(r, ['--commands-json', cmds, '--rounds', '1']);
  t.deepEqual(
    res.run!.claims.map((c) => [c.command, c.status]),
    [['node --test test/', 'VERIFIED']],
  );
});

test('--out - writes the artefact alone on stdout', async (t) => {
  const r = await repo();
  const res = await spawnAg(
    [
      bin,
      '--baseline',
      r.baseline,
      '--patch',
      r.patch,
      '--diff',
      r.diff,
      '--test-command',
      'true',
      '--rounds',
      '1',
      '--runner',
      'generic',
      '--out',
      '-',
    ],
    '/nonexistent',
  );
  t.is(res.status, 0);
  const run = JSON.parse(res.stdout);
  t.is(run.schema, 'adversary-gate/run');
  t.true(res.stdout.endsWith('}\n'));
});

test('the diff can come from stdin', async (t) => {
  const r = await repo();
  const out = path.join(r.dir, 'stdin.json');
  const { spawn } = await import('node:child_process');
  const child = spawn(
    process.execPath,
    [
      bin,
      '--baseline',
      r.baseline,
      '--patch',
      r.patch,
      '--diff',
      '-',
      '--test-command',
      'true',
      '--rounds',
      '1',
      '--out',
      out,
    ],
    { stdio: ['pipe', 'ignore', 'pipe'] },
  );
  child.stdin.end(await fs.readFile(r.diff));
  const status = await new Promise((resolve) => child.on('close', resolve));
  t.is(status, 0);
  const run = JSON.parse(await fs.readFile(out, 'utf8'));
  t.is(run.inputs[0].path, '-');
  t.regex(run.subject.diff_sha256, /^sha256:[0-9a-f]{64}$/);
});
