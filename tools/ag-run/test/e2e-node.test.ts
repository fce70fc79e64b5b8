/**
 * End to end on node:test projects in real git repositories: the real binary, real runs.
 */
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, promises as fs, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  agRun,
  calcProject,
  makeRepo,
  nodeTest,
  type AgResult,
  type Repo,
  removeTemporaries,
  sharedCounter,
} from './helpers/repo.js';

test.after.always(removeTemporaries);

const NODE = ['--test-command', 'node --test test/', '--rounds', '1', '--jobs', '2', '--timeout', '30'];
const NODE2 = ['--test-command', 'node --test test/', '--rounds', '2', '--jobs', '2', '--timeout', '30'];

const harmlessFiles = {
  ...calcProject,
  'test/writes.test.js': nodeTest(`test('litter', () => require('node:fs').writeFileSync('litter.txt', 'x'));`),
};
let harmless: Promise<{ repo: Repo; result: AgResult }> | undefined;
const harmlessRun = () =>
  (harmless ??= (async () => {
    const repo = await makeRepo(harmlessFiles, { 'calc.js': '// adds two numbers\nexports.add = (a, b) => a + b;\n' });
    return { repo, result: await agRun(repo, NODE2) };
  })());

test('a harmless patch: claim VERIFIED in every round, full suite green on both sides, no deltas, bound to the diff', async (t) => {
  const { repo, result: r } = await harmlessRun();
  t.is(r.status, 0, r.stderr);
  const run = r.run!;
  t.is(run.schema, 'adversary-gate/run');
  t.is(run.subject.diff_sha256, `sha256:${createHash('sha256').update(readFileSync(repo.diff)).digest('hex')}`);
  t.deepEqual(
    run.claims.map((c) => [c.status, c.class, c.patch.length]),
    [['VERIFIED', 'still_passing', 2]],
  );
  t.is(run.full_suite.baseline?.outcome, 'PASS');
  t.is(run.full_suite.patch?.outcome, 'PASS');
  t.false(run.full_suite.collateral_regression);
  t.deepEqual(run.test_deltas, {
    tests_lost: [],
    tests_newly_skipped: [],
    tests_pass_to_fail: [],
    tests_renamed: [],
    tests_not_collected: [],
  });
  t.deepEqual(run.tests_flaky, []);
  t.is(run.claims[0]!.reruns, undefined, 'a green run is not run again');
  t.deepEqual(run.claims[0]!.patch[0]!.tests, [
    { id: 'adds', outcome: 'passed' },
    { id: 'adds zero', outcome: 'passed' },
    { id: 'litter', outcome: 'passed' },
  ]);
  t.deepEqual(run.faults, []);
  t.is(run.sandbox, 'none');
});

test('runs never touch the original trees', async (t) => {
  const { repo, result } = await harmlessRun();
  t.is(result.run!.claims[0]!.status, 'VERIFIED');
  t.false(existsSync(path.join(repo.patch, 'litter.txt')));
  t.false(existsSync(path.join(repo.baseline, 'litter.txt')));
});

test('identical inputs give identical evidence apart from timing and raw byte counts', async (t) => {
  const { repo, result: a } = await harmlessRun();
  const b = await agRun(repo, NODE2);
  const strip = (file: string) => {
    const v = JSON.parse(readFileSync(file, 'utf8'));
    delete v.timing;
    return JSON.stringify(v, (k, x) => (/^std(out|err)_bytes$/.test(k) ? 0 : x));
  };
  t.is(strip(a.out), strip(b.out));
});

test('a patch that breaks the function: REFUTED regression, collateral regression, pass→fail listed', async (t) => {
  const repo = await makeRepo(calcProject, { 'calc.js': 'exports.add = (a, b) => a - b;\n' });
  const run = (await agRun(repo, NODE)).run!;
  t.deepEqual(
    run.claims.map((c) => [c.status, c.class]),
    [['REFUTED', 'regression']],
  );
  t.true(
    run.claims[0]!.patch.every((e) => e.outcome === 'FAIL' && e.exit_code === 1 && e.signal === null && !e.timed_out),
  );
  t.true(run.full_suite.collateral_regression);
  t.deepEqual(run.test_deltas?.tests_pass_to_fail, ['adds']);
});

test('a claim that still fails after the patch, failing only what the baseline failed, is UNVERIFIED (still_failing), and the red baseline is recorded', async (t) => {
  const broken = { ...calcProject, 'calc.js': 'exports.add = (a, b) => a * b;\n' };
  const repo = await makeRepo(broken, { 'calc.js': 'exports.add = (a, b) => a * b; // no fix\n' });
  const run = (await agRun(repo, NODE)).run!;
  t.deepEqual(
    run.claims.map((c) => [c.status, c.class]),
    [['UNVERIFIED', 'still_failing']],
  );
  t.true(run.full_suite.baseline_red);
});

test('a red baseline fixed by the patch: VERIFIED fixed, baseline_red set', async (t) => {
  const broken = { ...calcProject, 'calc.js': 'exports.add = (a, b) => a * b;\n' };
  const repo = await makeRepo(broken, { 'calc.js': 'exports.add = (a, b) => a + b;\n' });
  const run = (await agRun(repo, NODE)).run!;
  t.deepEqual(
    run.claims.map((c) => [c.status, c.class]),
    [['VERIFIED', 'fixed']],
  );
  t.true(run.full_suite.baseline_red);
  t.is(run.full_suite.baseline?.outcome, 'FAIL');
});

test('process.exit(0) mid-file is UNRUNNABLE (file_ended_early) and the unreported tests are lost', async (t) => {
  const repo = await makeRepo(calcProject, {
    'test/calc.test.js': nodeTest(
      `const { add } = require('../calc.js');\ntest('adds', () => { process.exit(0); });\ntest('adds zero', () => assert.equal(add(0, 0), 1));`,
    ),
  });
  const run = (await agRun(repo, NODE)).run!;
  const round = run.claims[0]!.patch[0]!;
  t.is(round.outcome, 'UNRUNNABLE');
  t.is(round.kind, 'file_ended_early');
  t.is(round.exit_code, 0);
  t.deepEqual(
    run.claims.map((c) => c.status),
    ['UNVERIFIED'],
  );
  t.deepEqual(run.test_deltas?.tests_lost, ['adds', 'adds zero']);
});

test('a helper module under test/ (node runs it, it holds no test) is not a file that ended early; one that calls test() and exits is', async (t) => {
  const helper = 'exports.CASES = [[1, 2, 3]];\n';
  const uses = nodeTest(
    `const { add } = require('../calc.js');\nconst { CASES } = require('./helpers/cases.js');\ntest('adds cases', () => { for (const [a, b, s] of CASES) assert.equal(add(a, b), s); });`,
  );
  const honest = await makeRepo(calcProject, { 'test/helpers/cases.js': helper, 'test/cases.test.js': uses });
  const ok = (await agRun(honest, NODE)).run!;
  t.is(ok.full_suite.patch?.outcome, 'PASS', JSON.stringify(ok.full_suite.patch));
  t.deepEqual(ok.test_deltas?.tests_lost, []);
  // the next cheat of the kind: a "helper" that registers a test and ends the process early
  const cheat = await makeRepo(calcProject, {
    'test/helpers/cases.js': `${helper}const { test } = require('node:test');\ntest('hidden', () => process.exit(0));\n`,
    'test/cases.test.js': uses,
  });
  const bad = (await agRun(cheat, NODE)).run!;
  t.is(bad.full_suite.patch?.kind, 'file_ended_early');
});

test('a test newly marked skip or todo is listed as newly skipped', async (t) => {
  const repo = await makeRepo(calcProject, {
    'test/calc.test.js': nodeTest(
      `const { add } = require('../calc.js');\ntest('adds', { skip: 'later' }, () => assert.equal(add(1, 2), 3));\ntest('adds zero', { todo: true }, () => assert.equal(add(0, 0), 0));`,
    ),
  });
  const run = (await agRun(repo, NODE)).run!;
  t.deepEqual(run.test_deltas?.tests_newly_skipped, ['adds', 'adds zero']);
  t.deepEqual(run.test_deltas?.tests_lost, []);
});

test('a deleted test file: its tests are lost', async (t) => {
  const files = { ...calcProject, 'test/more.test.js': nodeTest(`test('more', () => assert.ok(true));`) };
  const repo = await makeRepo(files, { 'test/more.test.js': null });
  const run = (await agRun(repo, NODE)).run!;
  t.deepEqual(run.test_deltas?.tests_lost, ['more']);
  t.is(run.claims[0]!.status, 'VERIFIED');
});

test('a flaky test (rounds disagree) is UNVERIFIED flaky', async (t) => {
  // Writable for the tests' own uid too (ag-run gives them one when it runs as root).
  const counter = await sharedCounter();
  const repo = await makeRepo(calcProject, {
    'test/calc.test.js': nodeTest(`const fs = require('node:fs');
let n = 1; while (true) { try { fs.mkdirSync(process.env.FLAKY_DIR + '/' + n); break; } catch { n++; } }
test('adds', () => assert.equal(n % 2, 1, 'even rounds fail'));`),
  });
  const r = await agRun(
    repo,
    [
      '--test-command',
      'node --test test/',
      '--rounds',
      '3',
      '--jobs',
      '2',
      '--full-suite-command',
      'true',
      '--pass-env',
      'FLAKY_DIR',
    ],
    { ...process.env, FLAKY_DIR: counter },
  );
  t.deepEqual(
    r.run?.claims.map((c) => [c.status, c.class]),
    [['UNVERIFIED', 'flaky']],
    r.stderr,
  );
});

/**
 * Process control: one repository, one ag-run, one claim per misbehaviour (the full suite is
 * `true`), so the binary starts once for five behaviours.
 */
const marker = `4${Math.floor(Math.random() * 1e6)}.5`;
const PROCESS_CLAIMS = {
  sigterm: 'exec node stubborn.js',
  setsid: 'sh spawn.sh',
  flood: 'node flood.js',
  missing: 'no-such-command-ag-run',
  signal: 'exec node crash.js',
  hang: 'node --test hang/',
} as const;
let processRun: Promise<AgResult> | undefined;
const processClaims = () =>
  (processRun ??= (async () => {
    const repo = await makeRepo(calcProject, {
      'stubborn.js': `process.on('SIGTERM', () => {}); setInterval(() => {}, 1000);\n`,
      'spawn.sh': `sleep ${marker} &\nsetsid sleep ${marker} &\nexit 0\n`,
      'flood.js': `const s = 'x'.repeat(1 << 20) + '\\n'; (function w() { while (process.stdout.write(s)); process.stdout.once('drain', w); })();\n`,
      'crash.js': `process.kill(process.pid, 'SIGSEGV');\n`,
      'hang/hang.test.js': nodeTest(`test('hangs', () => new Promise(() => setInterval(() => {}, 1000)));`),
    });
    const claims = Object.values(PROCESS_CLAIMS).flatMap((c) => ['--test-command', c]);
    return agRun(repo, [
      ...claims,
      '--full-suite-command',
      'true',
      '--rounds',
      '1',
      '--jobs',
      '2',
      // Long enough for the flood to pass the 256 MiB limit on a loaded machine before the timeout.
      '--timeout',
      '20',
      '--runner',
      'generic',
    ]);
  })());
const patchRound = async (command: string) =>
  (await processClaims()).run!.claims.find((c) => c.command === command)!.patch[0]!;

test('a runner that ignores SIGTERM is SIGKILLed after the grace: TIMED_OUT, no exit code', async (t) => {
  const round = await patchRound(PROCESS_CLAIMS.sigterm);
  t.is(round.outcome, 'TIMED_OUT');
  t.true(round.timed_out);
  t.is(round.exit_code, null);
  t.is(round.signal, 'SIGKILL');
  t.false(execFileSync('ps', ['-eo', 'args']).toString().includes('node stubborn.js'));
});

test('background and setsid grandchildren are killed after the exit and recorded when not sandboxed', async (t) => {
  const round = await patchRound(PROCESS_CLAIMS.setsid);
  t.is(round.outcome, 'PASS');
  t.true(round.leftover_processes >= 2, `leftover ${round.leftover_processes}`);
  t.false(execFileSync('ps', ['-eo', 'args']).toString().includes(`sleep ${marker}`));
});

test('an output flood is cut at the cap: UNRUNNABLE output_cap, a small artefact, byte totals recorded', async (t) => {
  const round = await patchRound(PROCESS_CLAIMS.flood);
  t.is(round.outcome, 'UNRUNNABLE');
  t.is(round.kind, 'output_cap');
  t.true(round.truncated);
  t.true(round.stdout_bytes > 256 * 1024 * 1024);
  t.true(round.stdout_tail.length <= 4000);
  t.true((await fs.stat((await processClaims()).out)).size < 200_000);
});

test('a command that does not exist is UNRUNNABLE command_not_found, never FAIL', async (t) => {
  const run = (await processClaims()).run!;
  const claim = run.claims.find((c) => c.command === PROCESS_CLAIMS.missing)!;
  t.deepEqual(
    [claim.patch[0]!.outcome, claim.patch[0]!.kind, claim.status],
    ['UNRUNNABLE', 'command_not_found', 'UNVERIFIED'],
  );
});

test('a hanging test is TIMED_OUT with no exit code, and the claim is UNVERIFIED hang', async (t) => {
  const claim = (await processClaims()).run!.claims.find((c) => c.command === PROCESS_CLAIMS.hang)!;
  t.deepEqual(
    [claim.patch[0]!.outcome, claim.patch[0]!.timed_out, claim.patch[0]!.exit_code],
    ['TIMED_OUT', true, null],
  );
  t.deepEqual([claim.status, claim.class], ['UNVERIFIED', 'hang']);
});

test('a runner killed by a signal is UNRUNNABLE with the signal recorded', async (t) => {
  const round = await patchRound(PROCESS_CLAIMS.signal);
  t.is(round.outcome, 'UNRUNNABLE');
  t.is(round.kind, 'signal');
  t.is(round.signal, 'SIGSEGV');
  t.is(round.exit_code, null);
});

test('the caller secrets never reach the tests; --pass-env and --seed do', async (t) => {
  const repo = await makeRepo(calcProject, {
    'test/env.test.js': nodeTest(`test('env', () => {
  assert.equal(process.env.AG_E2E_SECRET, undefined);
  assert.equal(process.env.AG_E2E_PASSED, 'yes');
  assert.equal(process.env.AG_SEED, '42');
  assert.equal(process.env.TZ, 'UTC');
  assert.deepEqual(require('node:fs').readdirSync(process.env.HOME), []);
});`),
  });
  const env = { ...process.env, AG_E2E_SECRET: 'hunter2', AG_E2E_PASSED: 'yes' };
  const r = await agRun(repo, [...NODE, '--pass-env', 'AG_E2E_PASSED', '--seed', '42'], env);
  t.is(r.run!.claims[0]!.status, 'VERIFIED', JSON.stringify(r.run!.claims[0]!.patch[0]!.stdout_tail));
  t.is(r.run!.seed, 42);
  t.false(readFileSync(r.out, 'utf8').includes('hunter2'));
});
