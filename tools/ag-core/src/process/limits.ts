/**
 * Resource limits (through util-linux `prlimit`) and the deaths they cause, named.
 * @module
 */
import type { ProcessResult } from './runner.js';

/** Per-process resource limits; an absent field is not limited. */
export interface ResourceLimits {
  /** RLIMIT_CPU soft limit in seconds (SIGXCPU, exit 152); the hard limit is 2 s above. */
  readonly cpuSeconds?: number;
  /** RLIMIT_FSIZE in bytes (SIGXFSZ, exit 153). */
  readonly fileSizeBytes?: number;
  /**
   * RLIMIT_DATA in bytes: writable private memory (heap, anonymous maps; allocation failures,
   * often an abort). Not RLIMIT_AS: Node reserves 10 GiB of inaccessible address space per
   * WebAssembly memory (undici's fetch, esbuild, tsx), which an address-space limit refuses.
   */
  readonly dataBytes?: number;
  /** RLIMIT_NOFILE; keep it at 1024 or more, node crashes at start-up below that. */
  readonly openFiles?: number;
  /** RLIMIT_NPROC (tasks of the uid, threads included); only enforced for a non-root uid. */
  readonly processes?: number;
}

/** RLIMIT_NPROC for a run under its own uid: room for a parallel test runner's threads, not for a fork bomb. */
export const DEFAULT_PROCESS_LIMIT = 1024;

/** Default limits for one test run: generous enough for real suites, small enough to name a runaway. */
export function defaultLimits(timeoutSeconds: number): Required<Omit<ResourceLimits, 'processes'>> {
  return {
    cpuSeconds: Math.max(1, Math.ceil(timeoutSeconds * 2)),
    fileSizeBytes: 256 * 1024 * 1024,
    dataBytes: 8 * 1024 * 1024 * 1024,
    openFiles: 4096,
  };
}

/** Prefix `argv` with `prlimit` so the limits hold for the command and everything it starts. */
export function withLimits(argv: readonly string[], limits: ResourceLimits, prlimit = 'prlimit'): string[] {
  const flags: string[] = ['--core=0'];
  if (limits.cpuSeconds !== undefined) flags.push(`--cpu=${limits.cpuSeconds}:${limits.cpuSeconds + 2}`);
  if (limits.fileSizeBytes !== undefined) flags.push(`--fsize=${limits.fileSizeBytes}`);
  if (limits.dataBytes !== undefined) flags.push(`--data=${limits.dataBytes}`);
  if (limits.openFiles !== undefined) flags.push(`--nofile=${limits.openFiles}`);
  if (limits.processes !== undefined) flags.push(`--nproc=${limits.processes}`);
  return [prlimit, ...flags, '--', ...argv];
}

/** How a process died when it did not simply exit 0 or 1 on its own. */
export type DeathKind =
  'spawn_error' | 'timeout' | 'output_cap' | 'rlimit_nproc' | 'rlimit_cpu' | 'rlimit_fsize' | 'killed' | 'signal';

const SIGNAL_NUMBERS: Readonly<Record<string, number>> = {
  SIGHUP: 1,
  SIGINT: 2,
  SIGQUIT: 3,
  SIGILL: 4,
  SIGTRAP: 5,
  SIGABRT: 6,
  SIGBUS: 7,
  SIGFPE: 8,
  SIGKILL: 9,
  SIGUSR1: 10,
  SIGSEGV: 11,
  SIGUSR2: 12,
  SIGPIPE: 13,
  SIGALRM: 14,
  SIGTERM: 15,
  SIGXCPU: 24,
  SIGXFSZ: 25,
};

/**
 * Name the death of a process, whether the signal arrived as a signal or folded by a shell or
 * by bubblewrap into `128 + n` (152 = SIGXCPU, 153 = SIGXFSZ, 137 = SIGKILL). Null for an
 * ordinary exit code below 129.
 */
export function deathKind(
  result: Pick<ProcessResult, 'exitCode' | 'signal' | 'timedOut' | 'outputCapHit' | 'spawnError'> &
    Partial<Pick<ProcessResult, 'processCapHit'>>,
): DeathKind | null {
  if (result.spawnError !== null) return 'spawn_error';
  if (result.timedOut) return 'timeout';
  if (result.outputCapHit) return 'output_cap';
  if (result.processCapHit === true) return 'rlimit_nproc';
  const n =
    result.signal !== null
      ? (SIGNAL_NUMBERS[result.signal] ?? -1)
      : result.exitCode !== null && result.exitCode > 128
        ? result.exitCode - 128
        : null;
  if (n === null) return null;
  if (n === 24) return 'rlimit_cpu';
  if (n === 25) return 'rlimit_fsize';
  if (n === 9) return 'killed';
  return 'signal';
}
