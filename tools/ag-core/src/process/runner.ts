/**
 * The process runner ag-run and ag-mutate share: own process group, timeout with
 * SIGTERM → grace → SIGKILL to the whole group, the group killed after *any* exit,
 * stdin closed, output capped per stream (tail kept), allowlisted environment.
 * @module
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { TailBuffer } from './tail-buffer.js';

/** What to run. */
export interface ProcessSpec {
  /** argv; `argv[0]` is looked up on the env's PATH. Use `['/bin/sh', '-c', cmd]` for a shell command. */
  readonly argv: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  /** Wall-clock limit in milliseconds. */
  readonly timeoutMs: number;
  /** Time between SIGTERM and SIGKILL at the timeout (default 1000 ms). */
  readonly graceMs?: number;
  /** Bytes of each stream's tail to keep (default 64 KiB). */
  readonly tailBytes?: number;
  /** Total bytes on either stream at which the group is killed (default 64 MiB). */
  readonly outputCapBytes?: number;
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
}

/** Pids whose process group is `pgid`, read from /proc (Linux). */
export function groupMembers(pgid: number): number[] {
  const out: number[] = [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return out;
  }
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // fields[0] = state, [1] = ppid, [2] = pgrp
      if (Number(fields[2]) === pgid && fields[0] !== 'Z') out.push(Number(name));
    } catch {
      // the process ended while we looked
    }
  }
  return out;
}

function killGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: nothing left
  }
}

/** Run one process to completion under the limits. Never throws for the child's behaviour. */
export function runProcess(spec: ProcessSpec): Promise<ProcessResult> {
  const started = process.hrtime.bigint();
  const tailBytes = spec.tailBytes ?? 64 * 1024;
  const cap = spec.outputCapBytes ?? 64 * 1024 * 1024;
  const grace = spec.graceMs ?? 1000;
  const out = new TailBuffer(tailBytes);
  const err = new TailBuffer(tailBytes);
  return new Promise((resolve) => {
    let timedOut = false;
    let capHit = false;
    let leftovers = 0;
    let settled = false;
    const [file, ...args] = spec.argv;
    const child = spawn(file!, args, {
      cwd: spec.cwd,
      env: { ...spec.env },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const pgid = child.pid;
    const timers: NodeJS.Timeout[] = [];
    const finish = (exitCode: number | null, signal: NodeJS.Signals | null, spawnError: string | null) => {
      if (settled) return;
      settled = true;
      for (const t of timers) clearTimeout(t);
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
      });
    };
    const stop = () => {
      if (pgid === undefined) return;
      killGroup(pgid, 'SIGTERM');
      timers.push(setTimeout(() => killGroup(pgid, 'SIGKILL'), grace).unref());
    };
    const onData = (buf: TailBuffer) => (chunk: Buffer) => {
      buf.push(chunk);
      if (!capHit && (out.total > cap || err.total > cap) && pgid !== undefined) {
        capHit = true;
        killGroup(pgid, 'SIGKILL');
      }
    };
    child.stdout.on('data', onData(out));
    child.stderr.on('data', onData(err));
    child.on('error', (e: NodeJS.ErrnoException) => finish(null, null, `${e.code ?? 'error'}: ${e.message}`));
    timers.push(
      setTimeout(() => {
        timedOut = true;
        stop();
      }, spec.timeoutMs),
    );
    child.on('exit', (code, signal) => {
      if (pgid !== undefined) {
        leftovers = groupMembers(pgid).length;
        killGroup(pgid, 'SIGKILL');
      }
      // Wait for the pipes to close, but not forever: an escapee may hold them open.
      let closed = false;
      child.on('close', () => {
        closed = true;
        finish(code, signal, null);
      });
      timers.push(
        setTimeout(() => {
          if (closed) return;
          child.stdout.destroy();
          child.stderr.destroy();
          finish(code, signal, null);
        }, 2000),
      );
    });
  });
}
