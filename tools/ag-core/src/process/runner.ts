/**
 * The process runner ag-run and ag-mutate share: own process group, timeout with
 * SIGTERM → grace → SIGKILL to the whole group, the group killed after *any* exit,
 * stdin closed, output capped per stream (tail kept), allowlisted environment.
 * @module
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { watchCpu, type CpuWatch } from './cpu.js';
import { processesOfUser, tasksOfUser, tasksOfUserAsync } from './identity.js';
import { pidsWhere, processStat, runsOutsideGroup } from './proc.js';
import { TailBuffer } from './tail-buffer.js';

/** What to run. */
export interface ProcessSpec {
  /** argv; `argv[0]` is looked up on the env's PATH. Use `['/bin/sh', '-c', cmd]` for a shell command. */
  readonly argv: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  /** Wall-clock limit in milliseconds. */
  readonly timeoutMs: number;
  /** Ends the run as the wall-clock limit does (`timedOut`) when aborted. */
  readonly signal?: AbortSignal;
  /** Time between SIGTERM and SIGKILL at the timeout (default 1000 ms). */
  readonly graceMs?: number;
  /** Bytes of each stream's tail to keep (default 64 KiB). */
  readonly tailBytes?: number;
  /** Total bytes on either stream at which the group is killed (default 64 MiB). */
  readonly outputCapBytes?: number;
  /** Open a fourth pipe as the child's fd 3 and collect what is written there (bwrap's `--json-status-fd 3`). */
  readonly statusFd?: boolean;
  /**
   * Tag the child's environment with a random token and, after the exit, kill every process
   * that still carries it outside the group (`setsid` and double-fork escapees that kept the
   * environment). Counted in `escapedProcesses`. A pid namespace (bwrap) is the stronger cure.
   */
  readonly sweep?: boolean;
  /** Spawn as this uid/gid (only root can; see `freshIdentity`). */
  readonly user?: { readonly uid: number; readonly gid: number };
  /**
   * A uid only this run's processes use (default: `user`'s; give it when a wrapper such as
   * the sandbox switches to it). After the exit every process of that uid is killed, and
   * those outside the group are counted in `escapedProcesses`: an escapee cannot shed its uid
   * as it can its environment.
   */
  readonly ownUid?: number;
  /**
   * With an own uid: the task count of that uid (threads included, as RLIMIT_NPROC counts them)
   * at which the run is stopped, checked every 500 ms (a scan of /proc off the event loop). Set it well under the RLIMIT_NPROC given
   * to `prlimit` (a fork bomb held by the limit hovers below it, as failed forks exit), so the
   * bomb is stopped and named instead of starving the machine until the timeout.
   */
  readonly processCap?: number;
  /**
   * CPU-time budget of the run (ms): the CPU of its group and their descendants (user +
   * system, with what they reaped), sampled from /proc every 100 ms. Past it the run is
   * stopped as at the timeout (SIGTERM, grace, SIGKILL) and `cpuBudgetHit` is set; with
   * Infinity it is only measured. Either way `cpuMs` reports it.
   */
  readonly cpuBudgetMs?: number;
}

/** How it ended. Exit code, signal and timeout are separate fields, never a sentinel. */
export interface ProcessResult {
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly timedOut: boolean;
  /** The group was killed because output exceeded the cap. */
  readonly outputCapHit: boolean;
  /** The process could not be started (ENOENT, EACCES…); exitCode is null then. */
  readonly spawnError: string | null;
  readonly stdoutTail: string;
  readonly stderrTail: string;
  readonly stdoutBytes: number;
  readonly stderrBytes: number;
  readonly truncated: boolean;
  /** Processes still in the group when the leader exited (then killed). */
  readonly leftoverProcesses: number;
  readonly durationMs: number;
  /** What the child wrote on fd 3 (at most 64 KiB), when `statusFd` was asked for. */
  readonly statusText?: string;
  /** Processes outside the group that carried the sweep token or the run's uid after the exit (then killed). */
  readonly escapedProcesses?: number;
  /** With `processCap`: the run was stopped because its uid reached the cap. */
  readonly processCapHit?: boolean;
  /** With `cpuBudgetMs`: the CPU the run used (ms, to the last sample; absent where /proc cannot be read). */
  readonly cpuMs?: number;
  /** With `cpuBudgetMs`: the run was stopped because its CPU passed the budget. */
  readonly cpuBudgetHit?: boolean;
}

/** Pids whose process group is `pgid` (zombies excluded). */
export function groupMembers(pgid: number): number[] {
  return pidsWhere((pid) => {
    const stat = processStat(pid);
    return stat !== null && stat.pgrp === pgid && stat.state !== 'Z';
  });
}

/** Pids (other than this process) whose environment holds the line `name=value`. */
export function processesWithEnv(name: string, value: string): number[] {
  const needle = Buffer.from(`\0${name}=${value}\0`);
  return pidsWhere((pid) => {
    if (pid === process.pid) return false;
    const env = Buffer.concat([Buffer.from([0]), readFileSync(`/proc/${pid}/environ`), Buffer.from([0])]);
    return env.includes(needle);
  });
}

/** The environment variable that carries the sweep token. */
export const SWEEP_VARIABLE = 'AG_PROCESS_TOKEN';

function killPid(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

function killGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: nothing left
  }
}

/** How to kill each run still in progress (its group, its token, its uid). */
const liveRuns = new Set<() => void>();

/** After the exit, how long quiet pipes are waited for before they are closed from this side. */
const PIPE_GRACE_MS = 2000;
/** And how long at most, however long output keeps arriving (a writer that escaped the kill). */
const PIPE_GRACE_MAX_MS = 10_000;

/**
 * Kill every process of every run still in progress: for a tool that is itself being
 * stopped (a cancelled CI job sends SIGTERM), so the tests it started do not outlive it.
 */
export function killLiveProcesses(): void {
  for (const kill of liveRuns) kill();
}

/** Run one process to completion under the limits. Never throws for the child's behaviour. */
export function runProcess(spec: ProcessSpec): Promise<ProcessResult> {
  const started = process.hrtime.bigint();
  const tailBytes = spec.tailBytes ?? 64 * 1024;
  const cap = spec.outputCapBytes ?? 64 * 1024 * 1024;
  const grace = spec.graceMs ?? 1000;
  const out = new TailBuffer(tailBytes);
  const err = new TailBuffer(tailBytes);
  const status = new TailBuffer(64 * 1024);
  return new Promise((resolve) => {
    let timedOut = false;
    let capHit = false;
    let leftovers = 0;
    let escaped = 0;
    let nprocHit = false;
    const ownUid = spec.ownUid ?? spec.user?.uid;
    const token = spec.sweep === true ? randomBytes(12).toString('hex') : null;
    let settled = false;
    const [file, ...args] = spec.argv;
    const child = spawn(file!, args, {
      cwd: spec.cwd,
      env: token === null ? { ...spec.env } : { ...spec.env, [SWEEP_VARIABLE]: token },
      detached: true,
      stdio: spec.statusFd === true ? ['ignore', 'pipe', 'pipe', 'pipe'] : ['ignore', 'pipe', 'pipe'],
      ...(spec.user !== undefined ? { uid: spec.user.uid, gid: spec.user.gid } : {}),
    });
    const pgid = child.pid;
    const timers: NodeJS.Timeout[] = [];
    let cpuHit = false;
    let cpuMs: number | null = null;
    let cpu: CpuWatch | null = null;
    const endCpuWatch = () => {
      if (cpu !== null) cpuMs = cpu.done();
      cpu = null;
    };
    // Kill every process that carries the token or the uid (a group member may have called
    // setsid between the group scan and the group kill); count as escaped those that still run
    // in another group. A zombie is not one: a test process that ended while its runner was
    // being stopped has not left anything running.
    const swept = new Set<number>();
    const sweepOnce = () => {
      const found = new Set<number>();
      if (token !== null) for (const pid of processesWithEnv(SWEEP_VARIABLE, token)) found.add(pid);
      if (ownUid !== undefined) for (const pid of processesOfUser(ownUid)) found.add(pid);
      for (const pid of found) {
        if (!swept.has(pid) && pgid !== undefined && runsOutsideGroup(pid, pgid)) escaped++;
        swept.add(pid);
        killPid(pid);
      }
    };
    const killAll = () => {
      if (pgid === undefined) return;
      killGroup(pgid, 'SIGKILL');
      sweepOnce();
    };
    liveRuns.add(killAll);
    const finish = (exitCode: number | null, signal: NodeJS.Signals | null, spawnError: string | null) => {
      if (settled) return;
      settled = true;
      spec.signal?.removeEventListener('abort', timeOut);
      liveRuns.delete(killAll);
      endCpuWatch();
      if (pgid !== undefined && spawnError === null) sweepOnce();
      for (const t of timers) clearTimeout(t); // clears intervals too
      resolve({
        exitCode,
        signal,
        timedOut,
        outputCapHit: capHit,
        spawnError,
        stdoutTail: out.text(),
        stderrTail: err.text(),
        stdoutBytes: out.total,
        stderrBytes: err.total,
        truncated: out.truncated || err.truncated,
        leftoverProcesses: leftovers,
        durationMs: Number(process.hrtime.bigint() - started) / 1e6,
        ...(spec.statusFd === true ? { statusText: status.text() } : {}),
        ...(token !== null || ownUid !== undefined ? { escapedProcesses: escaped } : {}),
        ...(spec.processCap !== undefined ? { processCapHit: nprocHit } : {}),
        ...(spec.cpuBudgetMs !== undefined ? { ...(cpuMs !== null ? { cpuMs } : {}), cpuBudgetHit: cpuHit } : {}),
      });
    };
    function timeOut() {
      if (settled || timedOut) return;
      timedOut = true;
      stop();
    }
    const stop = () => {
      if (pgid === undefined) return;
      killGroup(pgid, 'SIGTERM');
      timers.push(setTimeout(() => killGroup(pgid, 'SIGKILL'), grace).unref());
    };
    let lastOutputAt = 0;
    const onData = (buf: TailBuffer) => (chunk: Buffer) => {
      lastOutputAt = Date.now();
      buf.push(chunk);
      if (!capHit && (out.total > cap || err.total > cap) && pgid !== undefined) {
        capHit = true;
        killGroup(pgid, 'SIGKILL');
      }
    };
    child.stdout!.on('data', onData(out));
    child.stderr!.on('data', onData(err));
    const statusPipe = spec.statusFd === true ? (child.stdio[3] as NodeJS.ReadableStream | null) : null;
    statusPipe?.on('data', (chunk: Buffer) => status.push(chunk));
    child.on('error', (e: NodeJS.ErrnoException) => finish(null, null, `${e.code ?? 'error'}: ${e.message}`));
    timers.push(setTimeout(timeOut, spec.timeoutMs));
    if (spec.signal?.aborted === true) timeOut();
    else spec.signal?.addEventListener('abort', timeOut, { once: true });
    if (spec.cpuBudgetMs !== undefined && pgid !== undefined) {
      cpu = watchCpu(pgid, spec.cpuBudgetMs, (pids) => {
        if (settled || timedOut) return;
        cpuHit = true;
        stop();
        // Descendants in a session of their own (a sandbox's, a setsid) are not in the group.
        for (const pid of pids) {
          try {
            process.kill(pid, 'SIGTERM');
          } catch {
            // already gone
          }
        }
        timers.push(setTimeout(() => pids.forEach(killPid), grace).unref());
      });
    }
    if (ownUid !== undefined && spec.processCap !== undefined) {
      const uid = ownUid;
      const cap = spec.processCap;
      let polling = false;
      const poll = setInterval(() => {
        if (polling || settled || nprocHit || timedOut || pgid === undefined) return;
        polling = true;
        void tasksOfUserAsync(uid).then((n) => {
          polling = false;
          if (n < cap || settled || nprocHit) return;
          nprocHit = true;
          killGroup(pgid, 'SIGKILL');
          for (const pid of processesOfUser(uid)) killPid(pid);
        });
      }, 500).unref();
      timers.push(poll);
    }
    child.on('exit', (code, signal) => {
      // A shell whose fork failed at the limit exits at once, often between two samples: the
      // processes it left behind still hold the uid's count, so look once more before the kill.
      if (!nprocHit && !timedOut && ownUid !== undefined && spec.processCap !== undefined && code !== 0) {
        if (tasksOfUser(ownUid) >= spec.processCap) nprocHit = true;
      }
      // The last CPU figure, while what is left of the group still runs (the leader's own is to its last sample).
      endCpuWatch();
      if (pgid !== undefined) {
        const members = groupMembers(pgid);
        leftovers = members.length;
        killGroup(pgid, 'SIGKILL');
        sweepOnce();
      }
      // Wait for the pipes to close, but not forever: an escapee may hold them open.
      let closed = false;
      child.on('close', () => {
        closed = true;
        finish(code, signal, null);
      });
      // The wait counts only time the pipes were quiet with this process scheduled: on a
      // machine so loaded that the timer fires before the output already in the pipe was read,
      // two loop turns (their poll phases read it) come first, and output still arriving
      // extends the wait, up to 10 s after the exit.
      const exitedAt = Date.now();
      const giveUp = () => {
        if (closed) return;
        if (Date.now() - lastOutputAt < PIPE_GRACE_MS && Date.now() - exitedAt < PIPE_GRACE_MAX_MS) {
          timers.push(setTimeout(waitForClose, PIPE_GRACE_MS));
          return;
        }
        child.stdout!.destroy();
        child.stderr!.destroy();
        (statusPipe as { destroy?: () => void } | null)?.destroy?.();
        finish(code, signal, null);
      };
      const waitForClose = () => setImmediate(() => setImmediate(giveUp));
      timers.push(setTimeout(waitForClose, PIPE_GRACE_MS));
    });
  });
}
