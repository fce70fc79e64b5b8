// The three pipelines (gate.sh, gate.mk, gate.mjs) on real git repositories, with the real
// binaries and real test runners, asserting on the verdict file and its reason codes.
import test, { type ExecutionContext } from 'ava';
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { demoRepo, JS_ENV, ROOT, run } from './helpers.js';
import { loggingBins } from './pipeline-kit.js';

type Verdict = { verdict: string; reasons: { code: string }[] };
const verdictAt = (dir: string): Verdict => JSON.parse(readFileSync(path.join(dir, 'verdict.json'), 'utf8'));
const codes = (v: Verdict) => [...new Set(v.reasons.map((r) => r.code))];

test('gate.sh accepts a clean, measured patch and the check exits 0', async (t) => {
  const repo = demoRepo(t, 'js', 'clean');
  const r = await run(
    'sh',
    [path.join(ROOT, 'pipelines/gate.sh'), '--base', 'main~1', '--head', 'main', '--out', 'ag'],
    repo,
    JS_ENV,
  );
  const v = verdictAt(path.join(repo, 'ag'));
  t.is(v.verdict, 'ACCEPT', `${r.stderr}\n${JSON.stringify(v.reasons)}`);
  t.is(r.code, 0);
  for (const f of ['changes.diff', 'run.json', 'diffcov.json', 'mutation.json', 'oracle.json', 'verdict.md'])
    t.true(existsSync(path.join(repo, 'ag', f)), f);
});

test('gate.mk rejects a patch that breaks a test, keeps every artefact, and make fails', async (t) => {
  const repo = demoRepo(t, 'js', 'break');
  const vars = Object.entries({
    BASE: 'main~1',
    HEAD: 'main',
    OUT: 'ag',
    TEST_COMMAND: JS_ENV.AG_TEST_COMMAND,
    COVERAGE_COMMAND: JS_ENV.AG_COVERAGE_COMMAND,
    COVERAGE_REPORT: JS_ENV.AG_COVERAGE_REPORT,
    MUTATE_MAX: '4',
  }).map(([k, v]) => `${k}=${v}`);
  const r = await run('make', ['-s', '-f', path.join(ROOT, 'pipelines/gate.mk'), ...vars], repo);
  t.not(r.code, 0);
  const v = verdictAt(path.join(repo, 'ag'));
  t.is(v.verdict, 'REJECT', JSON.stringify(v.reasons));
  t.true(codes(v).includes('CLAIM_FAILED'), JSON.stringify(v.reasons));
  for (const f of ['run.json', 'diffcov.json', 'mutation.json', 'oracle.json'])
    t.true(existsSync(path.join(repo, 'ag', f)), `${f} was not deleted`);
  t.regex(r.stderr, /REJECT/);
});

test('gate.mk is incremental: a second run with the same commits rebuilds nothing', async (t) => {
  const repo = demoRepo(t, 'js', 'clean');
  const vars = ['BASE=main~1', 'HEAD=main', 'OUT=ag', `TEST_COMMAND=${JS_ENV.AG_TEST_COMMAND}`, 'MUTATE_MAX=2'];
  await run('make', ['-s', '-f', path.join(ROOT, 'pipelines/gate.mk'), ...vars], repo);
  const stamp = (f: string) => statSync(path.join(repo, 'ag', f)).mtimeMs;
  const before = ['run.json', 'mutation.json', 'oracle.json', 'diffcov.json'].map(stamp);
  const second = await run('make', ['-f', path.join(ROOT, 'pipelines/gate.mk'), ...vars], repo);
  // (gate.mk echoes each tool as a quoted word: '…/ag-run' --baseline …)
  t.regex(second.stdout, /\/ag-decide' check /, 'the echo this test reads is there');
  t.notRegex(second.stdout, /\/ag-(run|mutate|diffcov|oracle)' /, second.stdout);
  t.deepEqual(['run.json', 'mutation.json', 'oracle.json', 'diffcov.json'].map(stamp), before);
});

test('gate.mjs (zx) holds a clean patch that comes with no coverage evidence', async (t) => {
  const repo = demoRepo(t, 'js', 'clean');
  const r = await run(
    process.execPath,
    [
      path.join(ROOT, 'pipelines/gate.mjs'),
      '--base',
      'main~1',
      '--head',
      'main',
      '--out',
      'ag',
      '--test-command',
      'node --test',
      '--mutate-max',
      '6',
    ],
    repo,
  );
  const v = verdictAt(path.join(repo, 'ag'));
  t.is(v.verdict, 'HOLD', JSON.stringify(v.reasons));
  t.deepEqual(codes(v), ['COVERAGE_NOT_MEASURED']);
  t.is(r.code, 2);
});

/** The demo on a branch `zoned`, with a baseline test that passes only in the zone the project's own CI sets. */
function zonedDemo(t: ExecutionContext): string {
  const repo = demoRepo(t, 'js', 'clean');
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, stdio: 'ignore' });
  git('checkout', '-q', '-b', 'zoned', 'main~1');
  writeFileSync(
    path.join(repo, 'test/zone.test.js'),
    "import assert from 'node:assert/strict';\nimport { test } from 'node:test';\n\ntest('runs in the zone of the project CI', () => {\n  assert.equal(process.env.TZ, 'America/New_York');\n});\n",
  );
  git('add', '.');
  git('commit', '-qm', 'A test that runs in the zone the CI sets');
  git('cherry-pick', 'main');
  return repo;
}

test("gate.mjs --pass-env TZ: a suite whose CI sets its time zone runs in that zone, not the gate's UTC", async (t) => {
  const repo = zonedDemo(t);
  const flags = ['--test-command', 'node --test', '--coverage-command', JS_ENV.AG_COVERAGE_COMMAND!];
  const r = await run(
    process.execPath,
    [
      path.join(ROOT, 'pipelines/gate.mjs'),
      ...['--base', 'zoned~1', '--head', 'zoned', '--out', 'ag', '--mutate-max', '4', '--rounds', '1'],
      ...[...flags, '--coverage-report', JS_ENV.AG_COVERAGE_REPORT!, '--pass-env', 'TZ'],
    ],
    repo,
    { TZ: 'America/New_York' },
  );
  const v = verdictAt(path.join(repo, 'ag'));
  t.is(v.verdict, 'ACCEPT', `${r.stderr}\n${JSON.stringify(v.reasons)}`);
  t.is(r.code, 0);
});

test('gate.mk AG_PASS_ENV=TZ: ag-run, ag-mutate and the coverage command get the caller’s zone; without it, UTC and a red baseline', async (t) => {
  const repo = zonedDemo(t);
  const bins = loggingBins(path.join(repo, '..', `${path.basename(repo)}-bins`));
  t.teardown(() => {
    rmSync(bins.dir, { recursive: true, force: true });
    rmSync(`${bins.dir}.log`, { force: true });
  });
  const make = (out: string, env: Record<string, string>, extra: string[] = []) =>
    run(
      'make',
      [
        ...['-s', '-f', path.join(ROOT, 'pipelines/gate.mk'), 'BASE=zoned~1', 'HEAD=zoned', `OUT=${out}`],
        ...[`BIN=${bins.dir}`, 'TEST_COMMAND=node --test', 'MUTATE_MAX=4', 'ROUNDS=1'],
        // The coverage command says which zone it ran in, in its copy of the patch tree ($$: make's `$`).
        `COVERAGE_COMMAND=printf %s "$$TZ" > .tz-seen && ${JS_ENV.AG_COVERAGE_COMMAND}`,
        `COVERAGE_REPORT=${JS_ENV.AG_COVERAGE_REPORT}`,
        ...extra,
      ],
      repo,
      { TZ: 'America/New_York', ...env },
    );
  const tzSeen = (out: string) => readFileSync(path.join(repo, `${out}.work`, 'coverage-tree', '.tz-seen'), 'utf8');
  const passed = (tool: string) =>
    bins
      .calls()
      .filter((c) => c.tool === tool)
      .map((c) => c.args.flatMap((a, i) => (c.args[i - 1] === '--pass-env' ? [a] : [])));

  const r = await make('ag', { AG_PASS_ENV: 'TZ' });
  const v = JSON.parse(readFileSync(path.join(repo, 'ag', 'verdict.json'), 'utf8')) as Verdict;
  t.is(v.verdict, 'ACCEPT', `${r.stderr}\n${JSON.stringify(v.reasons)}`);
  t.is(r.code, 0, r.stderr);
  t.deepEqual(passed('ag-run'), [['TZ']]);
  t.deepEqual(passed('ag-mutate'), [['TZ']]);
  t.is(tzSeen('ag'), 'America/New_York');

  // The control: the same commits without AG_PASS_ENV run in the tools' UTC, coverage too.
  const control = await make('ag-utc', { AG_PASS_ENV: '' });
  const c = JSON.parse(readFileSync(path.join(repo, 'ag-utc', 'verdict.json'), 'utf8')) as Verdict;
  t.not(control.code, 0);
  t.true(codes(c).includes('BASELINE_RED'), JSON.stringify(c.reasons));
  t.deepEqual(passed('ag-run'), [['TZ'], []]);
  t.is(tzSeen('ag-utc'), 'UTC');

  // A name that is not a variable name stops the pipeline before anything is written.
  const bad = await make('ag-bad', {}, ['AG_PASS_ENV=TZ,NO-SUCH;touch']);
  t.not(bad.code, 0);
  t.true(bad.stderr.includes('gate.mk: AG_PASS_ENV takes variable names, got "NO-SUCH;touch"'), bad.stderr);
  t.false(existsSync(path.join(repo, 'ag-bad')), 'nothing written');
});

test('gate.sh refuses an unknown base ref with exit 3', async (t) => {
  const repo = demoRepo(t, 'js', 'clean');
  const r = await run('sh', [path.join(ROOT, 'pipelines/gate.sh'), '--base', 'no-such-ref', '--out', 'ag'], repo);
  t.is(r.code, 3);
  t.regex(r.stderr, /unknown base ref/);
});

test('a second run on an evidence directory in use holds at once and writes nothing; after the first ends, a run proceeds (G69)', async (t) => {
  const repo = demoRepo(t, 'js', 'clean');
  mkdirSync(path.join(repo, 'ag'));
  writeFileSync(path.join(repo, 'ag', '.adversary-gate-evidence'), 'made by adversary-gate\n');
  writeFileSync(path.join(repo, 'ag', 'verdict.json'), "the first run's verdict\n");
  // The first run, as far as the lock goes: a holder of the directory's lock that says when it has it.
  const holder = spawn('flock', ['-n', 'ag', 'sh', '-c', 'echo locked; exec cat'], {
    cwd: repo,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const [first] = (await once(holder.stdout, 'data')) as [Buffer];
  t.is(first.toString().trim(), 'locked');
  const env = { ...JS_ENV, AG_COVERAGE_COMMAND: '', AG_MUTATE_MAX: '0', AG_ROUNDS: '1' };
  const sh = await run(
    'sh',
    [path.join(ROOT, 'pipelines/gate.sh'), '--base', 'main~1', '--head', 'main', '--out', 'ag'],
    repo,
    env,
  );
  const mjs = await run(
    process.execPath,
    [
      path.join(ROOT, 'pipelines/gate.mjs'),
      '--base',
      'main~1',
      '--head',
      'main',
      '--out',
      'ag',
      '--test-command',
      'node --test',
    ],
    repo,
  );
  for (const r of [sh, mjs]) {
    t.is(r.code, 2, r.stderr);
    t.regex(r.stderr, /another gate run is using .*ag: HOLD, nothing written/);
  }
  t.is(readFileSync(path.join(repo, 'ag', 'verdict.json'), 'utf8'), "the first run's verdict\n");
  holder.stdin.end();
  await once(holder, 'exit');
  const after = await run(
    'sh',
    [path.join(ROOT, 'pipelines/gate.sh'), '--base', 'main~1', '--head', 'main', '--out', 'ag'],
    repo,
    env,
  );
  t.is(after.code, 2, after.stderr);
  t.deepEqual(codes(verdictAt(path.join(repo, 'ag'))), ['COVERAGE_NOT_MEASURED']);
});
