/**
 * The action's measure step run as GitHub's runner runs it: a non-root user with passwordless
 * sudo, in a throwaway repository whose patch's tests try to forge the evidence (run.json,
 * verdict.json, the policy), the gate's ag-* binaries and its node_modules, and to keep a
 * process running past their run (a detached child in a session of its own, forked twice).
 * Beside it the same repository's honest patch, measured by the same user, is ACCEPTed, and
 * that honest evidence with run.json measured on another tree (the baseline given as the
 * patch) is held by the decide step as stale.
 */
import test from 'ava';
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
  lstatSync,
  readlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT } from '../e2e/helpers.js';
import { runAction, type Runner } from './steps.js';

const NAME = `ag-runner-${process.pid}`;
const SUDOERS = `/etc/sudoers.d/${NAME}`;
const MARK = `AG-FORGE-${process.pid}`;
const FORGED = `forged by ${MARK}`;

const scratch = mkdtempSync(path.join(tmpdir(), 'ag-forge-'));
let user: { uid: number; gid: number; home: string };

test.before(() => {
  execFileSync('useradd', ['--create-home', '--shell', '/bin/sh', NAME]);
  writeFileSync(SUDOERS, `${NAME} ALL=(ALL) NOPASSWD: ALL\n`, { mode: 0o440 });
  const id = (flag: string) => Number(execFileSync('id', [flag, NAME], { encoding: 'utf8' }).trim());
  user = { uid: id('-u'), gid: id('-g'), home: `/home/${NAME}` };
  chownSync(scratch, user.uid, user.gid);
});
test.after.always(() => {
  rmSync(SUDOERS, { force: true });
  try {
    execFileSync('userdel', ['--remove', NAME], { stdio: 'ignore' });
  } catch {
    // already gone
  }
  rmSync(scratch, { recursive: true, force: true });
});

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'safe.directory=*', ...args], {
    cwd,
    encoding: 'utf8',
  }).trim();

const CALC = 'export function add(a, b) {\n  return a + b;\n}\n';
const CALC_SUB = `${CALC}\nexport function sub(a, b) {\n  return a - b;\n}\n`;
const head = (imports: string) =>
  `import test from 'node:test';\nimport assert from 'node:assert/strict';\nimport { ${imports} } from '../calc.js';\n`;
const TESTS_SUB = `${head('add, sub')}test('adds', () => assert.equal(add(2, 3), 5));\ntest('subtracts', () => {\n  assert.equal(sub(5, 3), 2);\n  assert.equal(sub(3, 5), -2);\n});\n`;

/**
 * A test that overwrites what it can reach of the gate, swallowing every error (a forger
 * wants its suite to pass), then starts a loop that keeps trying, in a session of its own
 * and forked twice, and waits until the loop runs.
 */
function forgingTest(targets: readonly string[]): string {
  const loop = `mark=${MARK}; : >.alive; while :; do for f in ${targets.join(' ')}; do echo '${FORGED}' >"$f"; done 2>/dev/null; sleep 0.1; done`;
  return `import test from 'node:test';
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';

test('keeps the gate honest', () => {
  for (const file of ${JSON.stringify(targets)}) {
    try { writeFileSync(file, ${JSON.stringify(FORGED)}); } catch {}
  }
  spawn('setsid', ['sh', '-c', ${JSON.stringify(`(${loop}) &`)}], { detached: true, stdio: 'ignore' }).unref();
  const end = Date.now() + 10000;
  while (!existsSync('.alive') && Date.now() < end) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
});
`;
}

/** The repository: a base with a policy, an honest patch, and a forging one on another branch. */
function repository(forgeTargets: readonly string[]): { dir: string; base: string; honest: string; forger: string } {
  const dir = path.join(scratch, 'repo');
  mkdirSync(path.join(dir, 'test'), { recursive: true });
  writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: 'calc', private: true, type: 'module', scripts: { test: 'node --test' } }),
  );
  writeFileSync(path.join(dir, 'adversary-gate.json'), '{ "schema_version": 1 }\n');
  writeFileSync(path.join(dir, 'calc.js'), CALC);
  writeFileSync(path.join(dir, 'test/calc.test.js'), `${head('add')}test('adds', () => assert.equal(add(2, 3), 5));\n`);
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'base');
  const base = git(dir, 'rev-parse', 'HEAD');
  writeFileSync(path.join(dir, 'calc.js'), CALC_SUB);
  writeFileSync(path.join(dir, 'test/calc.test.js'), TESTS_SUB);
  git(dir, 'commit', '-q', '-am', 'sub');
  const honest = git(dir, 'rev-parse', 'HEAD');
  writeFileSync(path.join(dir, 'test/gate.test.js'), forgingTest(forgeTargets));
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'sub, and a test that forges');
  const forger = git(dir, 'rev-parse', 'HEAD');
  git(dir, 'checkout', '-q', honest);
  execFileSync('chown', ['-R', `${user.uid}:${user.gid}`, dir]);
  return { dir, base, honest, forger };
}

/** Every file's bytes under `dir` (symlinks by their target), by path. */
function digestTree(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = path.join(d, name);
      const st = lstatSync(p);
      if (st.isSymbolicLink()) out.set(p, `-> ${readlinkSync(p)}`);
      else if (st.isDirectory()) walk(p);
      else out.set(p, createHash('sha256').update(readFileSync(p)).digest('hex'));
    }
  };
  walk(dir);
  return out;
}

/** Pids whose command line carries the forger's mark. */
function marked(): number[] {
  return readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        return readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(MARK);
      } catch {
        return false;
      }
    })
    .map(Number);
}

const temp = (name: string) => {
  const d = path.join(scratch, name);
  mkdirSync(d);
  chownSync(d, user.uid, user.gid);
  return d;
};
const verdictOf = (runnerTemp: string) =>
  JSON.parse(readFileSync(path.join(runnerTemp, 'adversary-gate-decide', 'verdict.json'), 'utf8')) as {
    verdict: string;
    reasons: { code: string; evidence: string; message: string }[];
  };
const statuses = (r: ReturnType<typeof runAction>) =>
  r.steps.map((s) => `${s.name}: exit ${s.status}\n${s.stdout.slice(-1500)}\n${s.stderr.slice(-3000)}`).join('\n');

test.serial(
  'a patch whose tests forge the evidence, the policy and the gate, and outlive their run, as a sudo-capable runner user: never ACCEPT, the attempt named, nothing changed, nothing left running; the honest patch is ACCEPTed; evidence of another tree holds as stale',
  (t) => {
    const forgeTemp = temp('forge-temp');
    const gate = path.join(forgeTemp, 'adversary-gate');
    const evidence = path.join(forgeTemp, 'adversary-gate-evidence');
    const targets = [
      ...['run.json', 'verdict.json', 'mutation.json', 'baseline/adversary-gate.json'].map((f) =>
        path.join(evidence, f),
      ),
      path.join(gate, 'node_modules/.bin/ag-decide'),
      path.join(gate, 'node_modules/.bin/ag-mutate'),
      path.join(gate, 'tools/ag-decide/dist/ag-decide.bundle.mjs'),
      path.join(gate, 'node_modules/valibot/package.json'),
    ];
    const repo = repository(targets);
    const on = (runnerTemp: string, sha: string, skip: readonly string[] = []): Runner => ({
      workspace: repo.dir,
      temp: runnerTemp,
      actionPath: ROOT,
      github: { 'event.pull_request.base.sha': repo.base, 'event.pull_request.head.sha': sha },
      user,
      skip,
      env: { AG_GATE: gate },
    });

    // The gate installed as the runner user installs it; its bytes before any test runs.
    git(repo.dir, 'checkout', '-q', repo.forger);
    const install = runAction(on(forgeTemp, repo.forger, ['decide']), { mode: 'decide' });
    t.deepEqual(
      install.steps.map((s) => s.status),
      [0, 0],
      statuses(install),
    );
    const gateBefore = digestTree(gate);

    const measure = runAction(on(forgeTemp, repo.forger, ['install']), { mode: 'measure' });
    t.deepEqual(
      measure.steps.map((s) => s.status),
      [0, 0, 0],
      statuses(measure),
    );
    t.deepEqual(marked(), [], 'no process of the forging tests outlives the measure step');
    const evidenceAfterMeasure = digestTree(evidence);

    const decide = runAction(on(forgeTemp, repo.forger, ['install']), { mode: 'decide' });
    t.not(decide.outputs['verdict'], 'ACCEPT');
    t.not(decide.steps.at(-1)?.status, 0);
    const verdict = verdictOf(forgeTemp);
    t.is(verdict.verdict, 'HOLD', JSON.stringify(verdict.reasons));
    t.true(
      verdict.reasons.some((r) => r.code === 'PIPELINE_FAULT' && /PROCESSES_ESCAPED/.test(r.message)),
      JSON.stringify(verdict.reasons),
    );
    t.regex(decide.summary, /PROCESSES_ESCAPED/);
    const run = JSON.parse(readFileSync(path.join(evidence, 'run.json'), 'utf8')) as { faults: { code: string }[] };
    t.true(run.faults.some((f) => f.code === 'PROCESSES_ESCAPED'));

    // Nothing the tests reached changed: the gate's bytes, the evidence since measure wrote it.
    t.deepEqual(digestTree(gate), gateBefore);
    t.deepEqual(digestTree(evidence), evidenceAfterMeasure);
    // The artefacts (not the diff or the exported trees, which hold the forging test's text).
    for (const name of readdirSync(evidence).filter((f) => /\.(json|md)$/.test(f)))
      t.false(readFileSync(path.join(evidence, name), 'utf8').includes(FORGED), name);
    t.deepEqual(marked(), []);

    // The control: the same repository's honest patch, the same user, the same gate.
    git(repo.dir, 'checkout', '-q', repo.honest);
    const honestTemp = temp('honest-temp');
    runAction(on(honestTemp, repo.honest, ['install']), { mode: 'measure' });
    const accepted = runAction(on(honestTemp, repo.honest, ['install']), { mode: 'decide' });
    t.is(accepted.outputs['verdict'], 'ACCEPT', JSON.stringify(verdictOf(honestTemp).reasons));
    t.is(accepted.steps.at(-1)?.status, 0);

    // The honest evidence with run.json measured on the baseline given as the patch: stale.
    const staleTemp = temp('stale-temp');
    const stale = path.join(staleTemp, 'adversary-gate-evidence');
    execFileSync('cp', ['-R', path.join(honestTemp, 'adversary-gate-evidence'), stale]);
    rmSync(path.join(stale, 'run.json'));
    spawnSync(path.join(gate, 'node_modules/.bin/ag-run'), [
      ...['--baseline', path.join(stale, 'baseline'), '--patch', path.join(stale, 'baseline')],
      ...['--diff', path.join(stale, 'changes.diff'), '--test-command', 'node --test', '--quiet'],
      ...['--out', path.join(stale, 'run.json')],
    ]);
    t.true(existsSync(path.join(stale, 'run.json')));
    execFileSync('chown', ['-R', `${user.uid}:${user.gid}`, stale]);
    const held = runAction(on(staleTemp, repo.honest, ['install']), { mode: 'decide' });
    t.is(held.outputs['verdict'], 'HOLD');
    t.is(held.steps.at(-1)?.status, 2);
    t.true(
      verdictOf(staleTemp).reasons.some((r) => r.code === 'EVIDENCE_STALE' && r.evidence === 'run'),
      JSON.stringify(verdictOf(staleTemp).reasons),
    );
  },
);
