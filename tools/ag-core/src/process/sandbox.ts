/**
 * The bubblewrap sandbox: no network, private pid namespace (so `setsid` escapees die with
 * it), private /tmp, only the system directories a test run needs (read-only), only the
 * named directories writable. The host root is not bound: the caller's HOME, other checkouts
 * and the gate's evidence are not there to read.
 * @module
 */
import { lstatSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import type { Identity } from './identity.js';
import { runProcess } from './runner.js';
import { isWithin } from '../files/containment.js';

/** Where the sandboxed command may write and where it starts. */
export interface SandboxOptions {
  /** Directories bound read-write at the same path (the tree copy, its HOME). */
  readonly writable: readonly string[];
  /** Working directory inside the sandbox. */
  readonly chdir: string;
  /** Host directories hidden behind an empty tmpfs (e.g. the original trees), where they lie under a bound directory. */
  readonly hide?: readonly string[];
  /** Host directories bound read-only at the same path besides the system (a toolchain's install prefix: see `toolchainDirs`). */
  readonly readOnly?: readonly string[];
  /**
   * Run the command as this unprivileged uid/gid (bwrap itself runs as root then, binds as
   * root, and `setpriv` drops to the identity inside: root ignores RLIMIT_NPROC, this uid
   * does not). Without it the command keeps the caller's uid.
   */
  readonly user?: Identity;
  /** The bwrap binary (default: `bwrap` on PATH). */
  readonly bwrap?: string;
  /**
   * Variables set inside the sandbox over the environment bwrap itself is given (`--setenv`):
   * for a run as `user`, the PATH that uid can search (`searchablePath`), while bwrap and the
   * wrappers around it are still found, as root, on the caller's.
   */
  readonly setenv?: Readonly<Record<string, string>>;
}

/** The system directories bound read-only (a symlink, as merged-/usr systems have, is recreated as one). */
export const SYSTEM_DIRS: readonly string[] = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];

/** What of /etc a test run needs: users, name resolution, the dynamic linker, time zone, certificates, alternatives. */
export const ETC_ENTRIES: readonly string[] = [
  'passwd',
  'group',
  'nsswitch.conf',
  'hosts',
  'host.conf',
  'resolv.conf',
  'localtime',
  'timezone',
  'ld.so.cache',
  'ld.so.conf',
  'ld.so.conf.d',
  'alternatives',
  'ssl',
  'ca-certificates',
  'mime.types',
  'os-release',
  'debian_version',
  'protocols',
  'services',
];

/**
 * Wrap `argv` in bubblewrap. The status fd (3) receives bwrap's JSON status lines; an
 * `exit-code` line is only written when the command itself ran, which tells a sandbox
 * set-up failure from a command that exited 1.
 */
export function bwrapArgv(argv: readonly string[], opts: SandboxOptions): string[] {
  const user = opts.user;
  // As root, a user namespace would map the test uid back to root; the other namespaces suffice.
  const unshare =
    user === undefined
      ? ['--unshare-all']
      : ['--unshare-ipc', '--unshare-pid', '--unshare-net', '--unshare-uts', '--unshare-cgroup-try'];
  const out = [opts.bwrap ?? 'bwrap', ...unshare, '--die-with-parent', '--new-session', ...systemBinds()];
  out.push('--dev', '/dev', '--proc', '/proc', '--perms', '1777', '--tmpfs', '/tmp');
  const made = new Set<string>(['/', '/etc', '/tmp', '/dev', '/proc', ...SYSTEM_DIRS]);
  // bwrap creates missing parents as 0700 root: make them traversable for an unprivileged uid.
  const parents = (dir: string) => {
    const chain: string[] = [];
    for (let p = path.dirname(dir); !made.has(p); p = path.dirname(p)) chain.unshift(p);
    for (const p of chain) {
      out.push('--perms', '0755', '--dir', p);
      made.add(p);
    }
  };
  const bound = [...SYSTEM_DIRS, ...(opts.readOnly ?? [])];
  for (const dir of opts.readOnly ?? []) {
    parents(dir);
    out.push('--ro-bind', dir, dir);
    made.add(dir);
  }
  for (const dir of opts.hide ?? []) if (bound.some((b) => isWithin(b, dir))) out.push('--tmpfs', dir);
  for (const dir of opts.writable) {
    parents(dir);
    out.push('--bind', dir, dir);
    made.add(dir);
  }
  for (const [name, value] of Object.entries(opts.setenv ?? {})) out.push('--setenv', name, value);
  out.push('--chdir', opts.chdir, '--json-status-fd', '3');
  if (user === undefined) out.push('--', ...argv);
  else {
    out.push('--cap-add', 'CAP_SETUID', '--cap-add', 'CAP_SETGID', '--');
    out.push(
      'setpriv',
      `--reuid=${user.uid}`,
      `--regid=${user.gid}`,
      '--clear-groups',
      '--inh-caps=-all',
      '--',
      ...argv,
    );
  }
  return out;
}

/** bwrap arguments binding the system directories and the /etc essentials that exist here. */
function systemBinds(): string[] {
  const out: string[] = [];
  for (const dir of SYSTEM_DIRS) {
    try {
      const st = lstatSync(dir);
      if (st.isSymbolicLink()) out.push('--symlink', readlinkSync(dir), dir);
      else if (st.isDirectory()) out.push('--ro-bind', dir, dir);
    } catch {
      // absent on this system
    }
  }
  out.push('--perms', '0755', '--dir', '/etc');
  for (const entry of ETC_ENTRIES) out.push('--ro-bind-try', `/etc/${entry}`, `/etc/${entry}`);
  return out;
}

/** True when bwrap's status output shows the command itself ran and ended. */
export function sandboxReachedCommand(statusText: string): boolean {
  return /"exit-code"\s*:/.test(statusText);
}

/** The result of probing for a usable bubblewrap. */
export type SandboxProbe = { readonly ok: true } | { readonly ok: false; readonly problem: string };

/** Check that bubblewrap can build the sandbox here (it cannot in Docker's default seccomp profile). */
export async function probeBwrap(
  env: Readonly<Record<string, string>>,
  cwd: string,
  bwrap = 'bwrap',
): Promise<SandboxProbe> {
  const r = await runProcess({
    argv: [bwrap, '--unshare-all', '--die-with-parent', ...systemBinds(), '--dev', '/dev', '--proc', '/proc', 'true'],
    cwd,
    env,
    timeoutMs: 10_000,
    tailBytes: 4096,
  });
  if (r.spawnError !== null) return { ok: false, problem: `cannot start ${bwrap} (${r.spawnError})` };
  if (r.exitCode === 0) return { ok: true };
  const why = r.stderrTail.trim().split('\n').pop() ?? '';
  return {
    ok: false,
    problem: `${bwrap} cannot build a sandbox here (${r.timedOut ? 'timed out' : `exit ${r.exitCode ?? r.signal}`}${why ? `: ${why}` : ''})`,
  };
}
