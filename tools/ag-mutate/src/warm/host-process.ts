/**
 * One warm vitest host process: started in its own process group (as the copy's uid when
 * ag-mutate runs as root), asked to run test files one request at a time, its group's CPU
 * watched during every run; past the budget or the wall limit the host is asked to kill that
 * run's forks, and is killed, group and uid alike, when it does not. Every line it writes is
 * read through a schema; a line that does not parse, a host that ends, or an answer that never
 * comes makes the host broken, never a verdict.
 * @module
 */
import { spawn, type ChildProcess } from 'node:child_process';
import readline from 'node:readline';
import type { Readable } from 'node:stream';
import {
  groupCpuMs,
  processesOfUser,
  TailBuffer,
  withLimits,
  type Identity,
  type ResourceLimits,
} from '@adversary-gate/core';
import { VITEST_HOST } from '../package-files.js';
import { HostLine, type HostReady, type HostResult } from '../records/vitest-host.js';
import { parseRecord } from '../records/read.js';

import type { HostPlan } from './vitest-eligible.js';

/** How often a run's CPU is sampled (ms). */
const SAMPLE_MS = 100;
/** How long a host may take to kill an aborted run's forks and say so (ms). */
const ABORT_MS = 5000;

/** What a run on the host gave. */
export type HostRun =
  | { readonly kind: 'result'; readonly result: HostResult; readonly ms: number; readonly cpuMs: number | null }
  | { readonly kind: 'timeout'; readonly ms: number; readonly cpuMs: number | null }
  | { readonly kind: 'broken'; readonly why: string; readonly ms: number; readonly cpuMs: number | null };

/** How to start a host. */
export interface HostStart {
  readonly cwd: string;
  readonly env: Record<string, string>;
  readonly plan: HostPlan;
  readonly user: Identity | null;
  /** Wall-clock limit of the start, up to the ready line (ms). */
  readonly startMs: number;
  /** The resource limits every run of the patch's code has (`prlimit`: the host and every fork it starts). */
  readonly limits: ResourceLimits;
  /** Removes what the host's uid left where every uid may write, once all its processes are killed. */
  readonly sweep?: (user: Identity) => Promise<void>;
}

type Waiter = (line: HostLine | { type: 'gone'; why: string }) => void;

/** A started host; `start` gives one or the reason it could not start. */
export class VitestHost {
  private waiter: Waiter | null = null;
  private gone: string | null = null;
  private nextId = 1;
  private readonly stderr = new TailBuffer(4000);
  private swept: Promise<void> | null = null;

  private constructor(
    private readonly child: ChildProcess,
    private readonly user: Identity | null,
    private readonly sweepUid: ((user: Identity) => Promise<void>) | null,
    /** The test files the command's filters select, as the host found them. */
    public ready: HostReady | null = null,
  ) {
    const lines = readline.createInterface({ input: child.stdio[3] as Readable });
    lines.on('line', (text) => {
      const line = parseRecord(HostLine, text);
      this.deliver(line ?? { type: 'gone', why: 'the host wrote a line that is not a record' });
    });
    child.stdout!.resume();
    child.stderr!.on('data', (c: Buffer) => this.stderr.push(c));
    child.on('exit', (code, signal) =>
      this.deliver({ type: 'gone', why: `the host ended (${signal ?? `exit ${code}`})` }),
    );
    child.on('error', (e) => this.deliver({ type: 'gone', why: `the host could not run: ${e.message}` }));
  }

  private deliver(line: HostLine | { type: 'gone'; why: string }): void {
    if (line.type === 'gone') {
      if (this.gone === null) this.gone = line.why;
      this.kill();
    }
    const w = this.waiter;
    this.waiter = null;
    w?.(line);
  }

  private next(limitMs: number): Promise<HostLine | { type: 'gone'; why: string }> {
    if (this.gone !== null) return Promise.resolve({ type: 'gone', why: this.gone });
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiter = null;
        resolve({ type: 'gone', why: 'no answer within the wall-clock limit' });
      }, limitMs);
      this.waiter = (line) => {
        clearTimeout(timer);
        resolve(line);
      };
    });
  }

  /** The group's pid (the host leads its own group). */
  get pgid(): number | undefined {
    return this.child.pid;
  }

  /** The uid the host runs as (null when ag-mutate is not root). */
  get identity(): Identity | null {
    return this.user;
  }

  /** Start a host; it is ready when its first line says so. */
  static async start(spec: HostStart): Promise<VitestHost | { readonly failed: string }> {
    const plan = JSON.stringify({
      filters: spec.plan.filters,
      bail: spec.plan.bail,
      config: spec.plan.config,
      reuse: true,
    });
    let child: ChildProcess;
    try {
      // Under the limits of every run of the patch's code; prlimit execs node, so the host
      // keeps the child's pid and leads its group.
      const [file, ...args] = withLimits(['node', VITEST_HOST, plan], spec.limits);
      child = spawn(file!, args, {
        cwd: spec.cwd,
        env: spec.env,
        detached: true,
        stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
        ...(spec.user !== null ? { uid: spec.user.uid, gid: spec.user.gid } : {}),
      });
    } catch (e) {
      return { failed: `the host could not be started: ${(e as Error).message}` };
    }
    const host = new VitestHost(child, spec.user, spec.sweep ?? null);
    const first = await host.next(spec.startMs);
    if (first.type === 'ready') {
      host.ready = first;
      return host;
    }
    host.kill();
    const why =
      first.type === 'error'
        ? first.message.split('\n')[0]!
        : first.type === 'gone'
          ? first.why
          : 'an answer before ready';
    return { failed: `the host did not start: ${why}${host.stderrText() ? ` (${host.stderrText()})` : ''}` };
  }

  private stderrText(): string {
    return this.stderr.text().trim().split('\n').slice(-1)[0] ?? '';
  }

  /**
   * Run `files` once. Past `cpuBudgetMs` of the group's CPU or `wallMs` the run is a timeout:
   * the host is asked to kill that run's forks and goes on; a host that does not say it did
   * within ABORT_MS is killed, group and all.
   */
  async run(files: readonly string[], cpuBudgetMs: number, wallMs: number): Promise<HostRun> {
    const t0 = performance.now();
    const pgid = this.pgid;
    const cpu0 = pgid === undefined ? null : groupCpuMs(pgid);
    const id = this.nextId++;
    let cpuMs: number | null = null;
    let aborting: ReturnType<typeof setTimeout> | null = null;
    const abort = () => {
      if (aborting !== null) return;
      aborting = setTimeout(() => this.kill(), ABORT_MS);
      this.write({ abort: id });
    };
    const sample = () => {
      const now = pgid === undefined ? null : groupCpuMs(pgid);
      if (now !== null && cpu0 !== null) cpuMs = Math.max(cpuMs ?? 0, now - cpu0);
      if (cpuMs !== null && cpuMs > cpuBudgetMs) abort();
    };
    const timer = setInterval(sample, SAMPLE_MS);
    const answer = this.next(wallMs);
    this.write({ id, files });
    let line = await answer;
    clearInterval(timer);
    if (aborting === null && line.type !== 'gone') sample();
    const lapsed = (l: typeof line) => l.type === 'gone' && this.gone === null;
    if (aborting === null && lapsed(line)) abort();
    if (aborting !== null) {
      // The run's own answer may come before the abort's; a lapse of the wall limit is not an answer.
      for (let n = 0; n < 2 && (lapsed(line) || (line.type === 'result' && line.id === id)); n++)
        line = await this.next(ABORT_MS);
      clearTimeout(aborting);
      if (line.type !== 'aborted' || line.id !== id) this.kill();
      return { kind: 'timeout', ms: performance.now() - t0, cpuMs };
    }
    const ms = performance.now() - t0;
    if (line.type === 'result' && line.id === id) return { kind: 'result', result: line, ms, cpuMs };
    this.kill();
    const why =
      line.type === 'gone' ? line.why : line.type === 'error' ? line.message.split('\n')[0]! : 'an answer out of turn';
    return { kind: 'broken', why, ms, cpuMs };
  }

  private write(request: object): void {
    try {
      this.child.stdin!.write(`${JSON.stringify(request)}\n`);
    } catch {
      // a host that is gone answers nothing; its exit says why
    }
  }

  /** True while the host can take a request. */
  get alive(): boolean {
    return this.gone === null && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Resolves once what the host's uid left is removed (at once while the host lives, or without a uid). */
  get sweptOut(): Promise<void> {
    return this.swept ?? Promise.resolve();
  }

  /** Kill the host's whole group and, as root, every process of its uid, then remove what that uid left. */
  kill(): void {
    if (this.gone === null) this.gone = 'the host was stopped';
    const pgid = this.pgid;
    if (pgid !== undefined) {
      try {
        process.kill(-pgid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    if (this.user !== null) {
      for (const pid of processesOfUser(this.user.uid)) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
      if (this.swept === null && this.sweepUid !== null) this.swept = this.sweepUid(this.user).catch(() => {});
    }
  }

  /** Ask the host to end, and kill what is left. */
  async close(): Promise<void> {
    if (this.alive) {
      const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
      this.child.stdin!.end();
      await Promise.race([exited, new Promise((r) => setTimeout(r, 2000).unref())]);
    }
    this.kill();
  }
}
