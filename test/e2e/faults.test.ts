// Fault injection (AG_FAULT) through the whole pipeline: every tool × every stage ends
// without ACCEPT, and the evidence directory never holds a half-written artefact.
//
// One repository, one clean patch. A control run of gate.sh with every tool real must
// ACCEPT (so each faulted run below could fail). Each stage then gets one full gate.sh run
// with every tool real; the other cells run gate.sh with the faulted tool and ag-decide
// real and the other measuring tools replaced by stubs that copy the control's artefacts
// (same commits, same diff: the same evidence), which a stub-only control shows to ACCEPT.
// `npm test` runs those five full runs (each tool and each stage once); the whole matrix runs
// with AG_FAULTS=all (`npm run test:long`, which `.ci/run` runs after `npm test`).
import test, { type ExecutionContext } from 'ava';
import { spawn } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadArtefact } from '@adversary-gate/schemas';
import { buildDemoRepo } from '../../pipelines/demo/repo.mjs';
import { JS_ENV, ROOT, slots } from './helpers.js';

const TOOLS = ['ag-run', 'ag-diffcov', 'ag-mutate', 'ag-oracle', 'ag-decide'] as const;
const STAGES = ['before-read', 'mid-write', 'after-write', 'kill', 'term'] as const;
type Tool = (typeof TOOLS)[number];
type Stage = (typeof STAGES)[number];

/** What each tool writes into the evidence directory under gate.sh. */
const OUTPUTS: Readonly<Record<Tool, readonly string[]>> = {
  'ag-run': ['run.json'],
  'ag-diffcov': ['diffcov.json', 'diffcov.md'],
  'ag-mutate': ['mutation.json'],
  'ag-oracle': ['oracle.json'],
  'ag-decide': ['verdict.json', 'verdict.md'],
};

/** The stage whose full, all-real run faults this tool (each stage and each tool once). */
const FULL_RUN: Readonly<Record<Stage, Tool>> = {
  'before-read': 'ag-oracle',
  'mid-write': 'ag-run',
  'after-write': 'ag-decide',
  kill: 'ag-mutate',
  term: 'ag-diffcov',
};

const BIN = path.join(ROOT, 'node_modules/.bin');
const ENV = { ...JS_ENV, AG_ROUNDS: '1', AG_MUTATE_MAX: '6', AG_TIMEOUT: '60' };
const TEMP = /^\..+\.\d+\.[0-9a-f]{12}\.tmp$/;
/** Every tool × stage cell, or only the full-pipeline ones (`npm test`'s budget). */
const ALL_CELLS = process.env.AG_FAULTS === 'all';

interface Exit {
  readonly code: number | null;
  readonly stderr: string;
}

/** Run a command to its end without blocking the event loop; never rejects. */
function exec(cmd: string, args: readonly string[], cwd: string, env: Readonly<Record<string, string>>): Promise<Exit> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    child.on('error', (e) => resolve({ code: null, stderr: `${stderr}${e.message}` }));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

type Verdict = { verdict: string; reasons: { code: string }[] };

/** verdict.json as written, or null when it is missing or not JSON. */
function readVerdict(file: string): Verdict | null {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Verdict;
  } catch {
    return null;
  }
}

let repo = '';
let control = '';
/** The control's coverage report, where the coverage command (an unprivileged uid when run as root) can read it. */
let controlReport = '';
const binDirs = new Map<Tool | 'stubs-only', string>();

/** gate.sh on the shared repository with the evidence in `repo/<out>`. */
function gate(out: string, env: Readonly<Record<string, string>>): Promise<Exit> {
  return slots(() =>
    exec('sh', [path.join(ROOT, 'pipelines/gate.sh'), '--base', 'main~1', '--head', 'main', '--out', out], repo, {
      ...ENV,
      ...env,
    }),
  );
}

/** A sh script standing in for `tool`: copies the control run's artefact to its --out. */
function stubScript(tool: Tool): string {
  const artefact = path.join(control, OUTPUTS[tool][0]!);
  return [
    '#!/bin/sh',
    `# stands in for ${tool}: the control run's artefact, copied to --out`,
    'out=',
    'while [ $# -gt 0 ]; do',
    '  case "$1" in --out) out=$2; shift 2 ;; --out=*) out=${1#--out=}; shift ;; *) shift ;; esac',
    'done',
    `exec cp '${artefact}' "$out"`,
    '',
  ].join('\n');
}

/** A bin directory where `real` tools (and always ag-decide) are the real binaries and the rest stubs. */
function binDir(name: string, real: readonly Tool[]): string {
  const dir = path.join(repo, '.bins', name);
  mkdirSync(dir, { recursive: true });
  for (const tool of TOOLS) {
    const target = path.join(dir, tool);
    if (tool === 'ag-decide' || real.includes(tool)) {
      symlinkSync(path.join(BIN, tool), target);
    } else {
      writeFileSync(target, stubScript(tool));
      chmodSync(target, 0o755);
    }
  }
  return dir;
}

/** Top-level entries of an evidence directory, hidden ones included. */
const entries = (out: string) => readdirSync(out).sort();

/**
 * The evidence directory holds no half-written artefact: every JSON file in it loads
 * through the strict loader and no temporary file is left, except `allowTemp`'s own.
 */
async function assertWhole(t: ExecutionContext, out: string, allowTemp?: string): Promise<void> {
  for (const name of entries(out)) {
    if (TEMP.test(name)) {
      t.true(allowTemp !== undefined && name.startsWith(`.${allowTemp}.`), `temporary file left: ${name}`);
      continue;
    }
    if (!name.endsWith('.json')) continue;
    await t.notThrowsAsync(loadArtefact(path.join(out, name)), `${name} does not load`);
  }
}

/** The control run: a promise, so the full-pipeline cells need not wait for it. */
let controlDone: Promise<void> = Promise.resolve();

test.before(() => {
  repo = buildDemoRepo('js', 'clean');
  control = path.join(repo, 'control');
  const shared = mkdtempSync(path.join(os.tmpdir(), 'ag-faults-report-'));
  chmodSync(shared, 0o755);
  controlReport = path.join(shared, 'lcov.info');
  for (const tool of TOOLS) binDirs.set(tool, binDir(tool, [tool]));
  binDirs.set('stubs-only', binDir('stubs-only', []));
  controlDone = (async () => {
    const r = await gate('control', {});
    const verdict = readVerdict(path.join(control, 'verdict.json'));
    if (r.code !== 0 || verdict?.verdict !== 'ACCEPT') {
      throw new Error(
        `the control run did not ACCEPT (exit ${r.code}): ${JSON.stringify(verdict?.reasons)}\n${r.stderr}`,
      );
    }
    cpSync(path.join(control, 'coverage/lcov.info'), controlReport);
    chmodSync(controlReport, 0o644);
  })();
  controlDone.catch(() => {}); // each test that needs the control awaits it, and fails with its error
});

/** Settings of a cell where only `tool` (and ag-decide) is real: the control's coverage report, copied. */
async function stubbed(tool: Tool | 'stubs-only'): Promise<Record<string, string>> {
  await controlDone;
  return {
    AG_BIN_DIR: binDirs.get(tool)!,
    AG_COVERAGE_COMMAND: `mkdir -p coverage && cp '${controlReport}' coverage/lcov.info`,
  };
}

test.after.always(() => {
  if (repo !== '') rmSync(repo, { recursive: true, force: true });
  if (controlReport !== '') rmSync(path.dirname(controlReport), { recursive: true, force: true });
});

// The stubbed cells' own control: only where they run.
if (ALL_CELLS)
  test('without a fault, the stubbed pipeline accepts the control evidence (so every faulted cell could fail)', async (t) => {
    const r = await gate('cells/no-fault', await stubbed('stubs-only'));
    t.is(readVerdict(path.join(repo, 'cells/no-fault/verdict.json'))?.verdict, 'ACCEPT', r.stderr);
    t.is(r.code, 0);
  });

for (const stage of STAGES) {
  for (const tool of TOOLS) {
    const full = FULL_RUN[stage] === tool;
    if (!full && !ALL_CELLS) continue;
    test(`${tool}:${stage}${full ? ' (full pipeline)' : ''} ends without ACCEPT and leaves nothing half-written`, async (t) => {
      const name = `cells/${tool}-${stage}`;
      const out = path.join(repo, name);
      const env: Record<string, string> = { AG_FAULT: `${tool}:${stage}` };
      if (!full) Object.assign(env, await stubbed(tool));
      const r = await gate(name, env);
      const why = `exit ${r.code}\n${r.stderr}`;

      for (const output of OUTPUTS[tool])
        t.false(existsSync(path.join(out, output)), `${output} exists after the fault\n${why}`);
      const verdict = readVerdict(path.join(out, 'verdict.json'));
      t.not(r.code, 0, why);
      t.not(verdict?.verdict, 'ACCEPT', why);
      if (tool !== 'ag-decide') {
        const codes = verdict?.reasons.map((reason) => reason.code) ?? [];
        t.is(verdict?.verdict, 'HOLD', why);
        t.true(codes.includes('EVIDENCE_MISSING'), `${JSON.stringify(codes)}\n${why}`);
        t.is(r.code, 2, why);
      }
      // A writer killed mid-write cannot clean up: its hidden temporary file stays until the
      // next write into the directory sweeps it, and only ag-decide writes after ag-decide.
      await assertWhole(t, out, tool === 'ag-decide' && stage === 'mid-write' ? 'verdict.json' : undefined);
      if (tool === 'ag-decide' && stage === 'mid-write')
        t.true(
          entries(out).some((e) => TEMP.test(e)),
          'the killed write left its temporary file',
        );
    });
  }
}

test('the switch never reaches the commands under test: ag-run and ag-mutate children get an allowlisted environment', async (t) => {
  await controlDone;
  const out = path.join(repo, 'cells/env');
  cpSync(control, out, { recursive: true });
  const diff = path.join(out, 'changes.diff');
  const probe = 'test -z "${AG_FAULT+set}"';
  const env = { AG_FAULT: 'ag-oracle:kill' };
  const runArgs = [
    '--baseline',
    path.join(out, 'baseline'),
    '--patch',
    path.join(out, 'patch'),
    '--diff',
    diff,
    '--test-command',
    probe,
    '--runner',
    'generic',
    '--rounds',
    '1',
    '--quiet',
  ];
  const hidden = await slots(() =>
    exec(path.join(BIN, 'ag-run'), [...runArgs, '--out', path.join(out, 'hidden.json')], out, env),
  );
  const passed = await slots(() =>
    exec(
      path.join(BIN, 'ag-run'),
      [...runArgs, '--pass-env', 'AG_FAULT', '--out', path.join(out, 'passed.json')],
      out,
      env,
    ),
  );
  t.is(hidden.code, 0, hidden.stderr);
  t.is(passed.code, 0, passed.stderr);
  // The probe's own exit on every execution, both sides (how ag-run then classes a claim that
  // fails on the baseline too is its business, not this test's).
  const exits = async (file: string) =>
    (await loadArtefact(path.join(out, file), 'run')).value.claims.flatMap((c) =>
      [c.baseline, ...c.patch].map((e) => e?.exit_code),
    );
  const hiddenExits = await exits('hidden.json');
  const passedExits = await exits('passed.json');
  t.true(hiddenExits.length > 1 && hiddenExits.every((code) => code === 0), JSON.stringify(hiddenExits));
  t.true(
    passedExits.length > 1 && passedExits.every((code) => code === 1),
    `the probe sees the switch when it is passed on purpose: ${JSON.stringify(passedExits)}`,
  );

  const mutate = await slots(() =>
    exec(
      path.join(BIN, 'ag-mutate'),
      [
        '--diff',
        diff,
        '--tree',
        path.join(out, 'patch'),
        '--test-command',
        probe,
        '--max',
        '1',
        '--quiet',
        '--out',
        path.join(out, 'm.json'),
      ],
      out,
      env,
    ),
  );
  t.is(mutate.code, 0, mutate.stderr);
  const mutation = (await loadArtefact(path.join(out, 'm.json'), 'mutation')).value;
  t.deepEqual(mutation.counts.survived + mutation.counts.no_coverage, 1, JSON.stringify(mutation));
});
