/**
 * The CLI properties: fuzzed inputs through the real binaries. ag-decide given one fuzzed
 * evidence file or policy must never ACCEPT what the evidence does not show, never print a
 * stack trace, and leave either a whole verdict.json or none. ag-diffcov given a fuzzed
 * coverage report or diff must exit 3 with one stderr line and no artefact, or exit 0 with
 * a valid one.
 * @module
 */
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DiffcovArtefact, VerdictArtefact } from '@adversary-gate/schemas';
import { plainJson, schemaProblem } from './checks.js';
import { acceptUnwarranted } from './decision.js';
import type { ReaderSpec } from './harness.js';
import { EVIDENCE, seed, seeds, TOKENS } from './seeds.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const bin = (tool: string) => path.join(ROOT, 'tools', tool, 'bin', `${tool}.js`);

/** A bound on one binary run; a run that outlives it is a hang. */
const RUN_MS = 30_000;

/** What a binary did. */
export interface BinaryRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
}

/** Run a tool's binary with `node`, killed after {@link RUN_MS}. */
export function runBinary(tool: string, args: readonly string[], cwd: string): Promise<BinaryRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin(tool), ...args], {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1' },
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, RUN_MS);
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, timedOut });
    });
  });
}

/** Problems every run shares: a hang, a stack trace, more than one stderr line. */
function runProblem(tool: string, r: BinaryRun): string | null {
  if (r.timedOut) return `${tool} ran over ${RUN_MS} ms (a hang)`;
  if (r.signal !== null) return `${tool} died by ${r.signal}`;
  if (/^\s+at /m.test(r.stderr)) return `${tool} printed a stack trace: ${r.stderr.slice(0, 300)}`;
  const lines = r.stderr.split('\n').filter((l) => l !== '');
  if (lines.length > 1) return `${tool} printed ${lines.length} stderr lines: ${r.stderr.slice(0, 300)}`;
  if (lines.length === 1 && !lines[0]!.startsWith(`${tool}: `))
    return `${tool}'s stderr line does not say who speaks: ${lines[0]}`;
  return null;
}

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}

/** The evidence kind whose file a seed name is (`accept/run.json` → run). */
const kindOf = (name: string) => path.basename(name, '.json');

/** ag-decide over a fuzzed evidence file or policy, as a binary. */
export const decideBinary: ReaderSpec = {
  name: 'ag-decide binary on a fuzzed evidence file or policy',
  seeds: seeds(...EVIDENCE.map((k) => `accept/${k}.json`), 'accept/adversary-gate.json'),
  mutation: { json: true, tokens: TOKENS.json, maxEdits: 2 },
  runs: 12,
  caseMs: RUN_MS + 5000,
  fileName: 'fuzzed.json',
  read: async (f, bytes, from) => {
    const dir = path.dirname(f);
    const kind = from.endsWith('adversary-gate.json') ? 'policy' : kindOf(from);
    const files = new Map<string, Buffer>([
      ...EVIDENCE.map((k) => [`${k}.json`, seed(`accept/${k}.json`).bytes] as const),
      ['adversary-gate.json', seed('accept/adversary-gate.json').bytes],
    ]);
    files.set(kind === 'policy' ? 'adversary-gate.json' : `${kind}.json`, bytes);
    for (const [name, b] of files) await fs.writeFile(path.join(dir, name), b);
    await fs.writeFile(path.join(dir, 'changes.diff'), seed('accept/changes.diff').bytes);
    // A stale ACCEPT where the verdict goes: it must be gone or replaced whatever happens.
    await fs.writeFile(path.join(dir, 'verdict.json'), seed('accept/verdict.json').bytes);
    const args = [
      '--diff',
      'changes.diff',
      ...EVIDENCE.flatMap((k) => ['--evidence', `${k}.json`]),
      '--policy',
      'adversary-gate.json',
      '--out',
      'verdict.json',
    ];
    const run = await runBinary('ag-decide', args, dir);
    const out = path.join(dir, 'verdict.json');
    const verdict = (await exists(out)) ? await fs.readFile(out) : null;
    return { run, verdict, kind };
  },
  refusal: (error) => `the harness failed: ${String(error)}`,
  result: (value, _f, bytes) => {
    const { run, verdict, kind } = value as { run: BinaryRun; verdict: Buffer | null; kind: string };
    const p = runProblem('ag-decide', run);
    if (p !== null) return p;
    if (run.code === 3) return verdict === null ? null : 'exit 3 left a verdict.json behind';
    if (run.code !== 0 && run.code !== 1 && run.code !== 2) return `exit ${run.code}`;
    if (verdict === null) return `exit ${run.code} without a verdict.json`;
    const doc = plainJson(verdict) as { verdict?: string } | undefined;
    const bad = schemaProblem(VerdictArtefact, doc, 'verdict.json');
    if (bad !== null) return bad;
    if (doc!.verdict !== ['ACCEPT', 'REJECT', 'HOLD'][run.code!])
      return `exit ${run.code} but the verdict says ${doc!.verdict}`;
    if (run.code !== 0) return null;
    if (kind === 'policy')
      return plainJson(bytes) === undefined ? 'ACCEPT under a policy plain JSON cannot read' : null;
    const why = acceptUnwarranted(kind, plainJson(bytes));
    return why === null ? null : `ACCEPT, but ${why}`;
  },
};

/** One report per parser family (line text, XML, JSON, Go); the in-process properties cover every format. */
const COVERAGE = [
  'coverage/cart.lcov',
  'coverage/cart.cobertura.xml',
  'coverage/cart.istanbul.json',
  'coverage/cart.go.out',
];

/** ag-diffcov over a fuzzed coverage report or diff, as a binary. */
export const diffcovBinary: ReaderSpec = {
  name: 'ag-diffcov binary on a fuzzed coverage report or diff',
  seeds: seeds(...COVERAGE, 'accept/changes.diff'),
  mutation: { lines: true, tokens: [...TOKENS.lcov, ...TOKENS.xml, ...TOKENS.go, ...TOKENS.diff], maxEdits: 3 },
  runs: 12,
  caseMs: RUN_MS + 5000,
  fileName: 'fuzzed.input',
  read: async (f, _bytes, from) => {
    const dir = path.dirname(f);
    const isDiff = from.endsWith('.diff');
    const diff = isDiff ? f : path.join(dir, 'changes.diff');
    const report = isDiff ? path.join(dir, 'coverage.lcov') : f;
    if (isDiff) await fs.writeFile(report, seed('coverage/cart.lcov').bytes);
    else await fs.writeFile(diff, seed('accept/changes.diff').bytes);
    const out = path.join(dir, 'diffcov.json');
    await fs.rm(out, { force: true });
    const run = await runBinary(
      'ag-diffcov',
      ['--diff', diff, '--coverage', report, '--root', '/repo', '--out', out],
      dir,
    );
    const artefact = (await exists(out)) ? await fs.readFile(out) : null;
    return { run, artefact, named: [diff, report] };
  },
  refusal: (error) => `the harness failed: ${String(error)}`,
  result: (value) => {
    const { run, artefact, named } = value as { run: BinaryRun; artefact: Buffer | null; named: string[] };
    const p = runProblem('ag-diffcov', run);
    if (p !== null) return p;
    if (run.code === 3) {
      if (artefact !== null) return 'exit 3 left a diffcov.json behind';
      return named.some((n) => run.stderr.startsWith(`ag-diffcov: ${n}: `))
        ? null
        : `exit 3 without naming the file: ${run.stderr}`;
    }
    if (run.code !== 0) return `exit ${run.code}: ${run.stderr.trim()}`;
    if (artefact === null) return 'exit 0 without a diffcov.json';
    const doc = plainJson(artefact) as DiffcovArtefact | undefined;
    return schemaProblem(DiffcovArtefact, doc, 'diffcov.json');
  },
};
