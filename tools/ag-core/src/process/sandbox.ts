/**
 * The bubblewrap sandbox: no network, private pid namespace (so `setsid` escapees die with
 * it), private /tmp, read-only system, only the named directories writable.
 * @module
 */
import { runProcess } from './runner.js';

/** Where the sandboxed command may write and where it starts. */
export interface SandboxOptions {
  /** Directories bound read-write at the same path (the tree copy, its HOME). */
  readonly writable: readonly string[];
  /** Working directory inside the sandbox. */
  readonly chdir: string;
  /** Host directories hidden behind an empty tmpfs (e.g. the original trees). */
  readonly hide?: readonly string[];
  /** The bwrap binary (default: `bwrap` on PATH). */
  readonly bwrap?: string;
}

/**
 * Wrap `argv` in bubblewrap. The status fd (3) receives bwrap's JSON status lines; an
 * `exit-code` line is only written when the command itself ran, which tells a sandbox
 * set-up failure from a command that exited 1.
 */
export function bwrapArgv(argv: readonly string[], opts: SandboxOptions): string[] {
  const out = [
    opts.bwrap ?? 'bwrap',
    '--unshare-all',
    '--die-with-parent',
    '--new-session',
    '--ro-bind', '/', '/',
    '--dev', '/dev',
    '--proc', '/proc',
    '--tmpfs', '/tmp',
  ];
  for (const dir of opts.hide ?? []) out.push('--tmpfs', dir);
  for (const dir of opts.writable) out.push('--bind', dir, dir);
  out.push('--chdir', opts.chdir, '--json-status-fd', '3', '--', ...argv);
  return out;
}

/** True when bwrap's status output shows the command itself ran and ended. */
export function sandboxReachedCommand(statusText: string): boolean {
  return /"exit-code"\s*:/.test(statusText);
}

/** The result of probing for a usable bubblewrap. */
export type SandboxProbe = { readonly ok: true } | { readonly ok: false; readonly problem: string };

/** Check that bubblewrap can build the sandbox here (it cannot in Docker's default seccomp profile). */
export async function probeBwrap(env: Readonly<Record<string, string>>, cwd: string, bwrap = 'bwrap'): Promise<SandboxProbe> {
  const r = await runProcess({
    argv: [bwrap, '--unshare-all', '--die-with-parent', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', 'true'],
    cwd,
    env,
    timeoutMs: 10_000,
    tailBytes: 4096,
  });
  if (r.spawnError !== null) return { ok: false, problem: `cannot start ${bwrap} (${r.spawnError})` };
  if (r.exitCode === 0) return { ok: true };
  const why = r.stderrTail.trim().split('\n').pop() ?? '';
  return { ok: false, problem: `${bwrap} cannot build a sandbox here (${r.timedOut ? 'timed out' : `exit ${r.exitCode ?? r.signal}`}${why ? `: ${why}` : ''})` };
}
