// Running the real pipeline and the real binaries without blocking the event loop, so
// that several cases can run at once under a small concurrency cap.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { exec, ROOT, type Exit } from '../e2e/helpers.js';
import { PROJECTS } from '../../pipelines/demo/scenarios.mjs';

export { exec, limiter } from '../e2e/helpers.js';

/** The part of verdict.json the cases read. */
export interface VerdictFile {
  readonly verdict: 'ACCEPT' | 'REJECT' | 'HOLD';
  readonly reasons: readonly { readonly code: string; readonly message: string }[];
}

/** A pipeline's result: the process exit and the verdict it left (null: none, or unreadable). */
export interface GateResult extends Exit {
  readonly out: string;
  readonly verdict: VerdictFile | null;
}

export const BIN = path.join(ROOT, 'node_modules/.bin');

/** Pipeline settings per demo project: the demo's own, made fast (one round, a small mutant budget). */
const FAST = { AG_ROUNDS: '1', AG_MUTATE_MAX: '4', AG_TIMEOUT: '60' };
export const PROJECT_ENV: Readonly<Record<'js' | 'py', Readonly<Record<string, string>>>> = {
  js: { ...PROJECTS.js.env, ...FAST },
  py: { ...PROJECTS.py.env, ...FAST },
};

/** verdict.json as written, or null when it is missing or not JSON. */
export function readVerdict(file: string): VerdictFile | null {
  if (!existsSync(file)) return null;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as VerdictFile;
  } catch {
    return null;
  }
}

/** pipelines/gate.sh on `repo` (base main~1, head main), evidence in `repo/ag`. */
export async function runGate(repo: string, env: Readonly<Record<string, string>>): Promise<GateResult> {
  const r = await exec(
    'sh',
    [path.join(ROOT, 'pipelines/gate.sh'), '--base', 'main~1', '--head', 'main', '--out', 'ag'],
    repo,
    env,
  );
  const out = path.join(repo, 'ag');
  return { ...r, out, verdict: readVerdict(path.join(out, 'verdict.json')) };
}

const KINDS = ['run', 'diffcov', 'mutation', 'oracle'] as const;

/**
 * ag-decide and `ag-decide check` again on an evidence directory gate.sh left (after a
 * case tampered with it), exactly as gate.sh calls them; `diff` defaults to its changes.diff.
 */
export async function decideAgain(out: string, diff = path.join(out, 'changes.diff')): Promise<GateResult> {
  const policy = path.join(out, 'baseline/adversary-gate.json');
  const evidence = KINDS.flatMap((k) => ['--evidence', path.join(out, `${k}.json`)]);
  await exec(
    path.join(BIN, 'ag-decide'),
    ['--diff', diff, ...evidence, '--policy', policy, '--out', path.join(out, 'verdict.json')],
    out,
  );
  const r = await exec(path.join(BIN, 'ag-decide'), ['check', path.join(out, 'verdict.json'), '--diff', diff], out);
  return { ...r, out, verdict: readVerdict(path.join(out, 'verdict.json')) };
}

/** Whether bubblewrap can build a sandbox here (probed once): null when it can, else why not. */
export function probeBwrap(): string | null {
  const r = spawnSync(
    'bwrap',
    ['--unshare-all', '--die-with-parent', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', 'true'],
    { encoding: 'utf8', timeout: 10_000 },
  );
  if (r.error) return `no bwrap (${(r.error as NodeJS.ErrnoException).code ?? r.error.message})`;
  if (r.status !== 0) return `bwrap cannot build a sandbox: ${(r.stderr || `exit ${r.status}`).trim().split('\n')[0]}`;
  return null;
}

/** Processes (other than this one) whose command line carries `text`. */
export function pidsWithCmdline(text: string): number[] {
  const found: number[] = [];
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    if (Number(pid) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(text)) found.push(Number(pid));
    } catch {
      // gone already, or not ours to read
    }
  }
  return found;
}

/** Kill every process whose command line carries `nonce` (what a case's attack left running); returns how many. */
export function killByNonce(nonce: string): number {
  let killed = 0;
  for (const pid of pidsWithCmdline(nonce)) {
    try {
      process.kill(pid, 'SIGKILL');
      killed += 1;
    } catch {
      // gone already
    }
  }
  return killed;
}
