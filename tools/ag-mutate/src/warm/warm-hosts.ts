/**
 * The warm vitest hosts of one execution, one per tree copy, and the checks that keep every
 * verdict they give equal to a fresh process's: each host answers for exactly the files
 * asked, starts with a clean run that must pass with the same tests as the first host's,
 * and runs the clean tree again every few mutants and after a timeout. A failed check, a
 * host that breaks or cannot start, turns the hosts off for the rest of the execution (fresh
 * processes judge every later mutant, and the caller re-judges those since the last good check).
 * @module
 */
import { searchablePath, type Identity } from '@adversary-gate/core';
import type { HostResult } from '../records/vitest-host.js';
import type { RunStatus } from '../exec/outcome.js';
import type { Workspace } from '../exec/workspace.js';
import { mutantCpuBudget } from '../exec/limits.js';
import { VitestHost } from './host-process.js';
import type { HostPlan } from './vitest-eligible.js';

/** A clean run on every host after this many mutants it judged. */
export const CLEAN_CHECK_EVERY = 8;
/** The vitest major version the host speaks to. */
const VITEST_MAJOR = '3';

/** The limits a fresh run of a mutant has. */
export interface HostLimits {
  /** The wall-clock backstop of one run (ms). */
  readonly timeoutMs: number;
  /** The CPU budget of one fresh run (ms); null: the wall limit alone. */
  readonly cpuBudgetMs: number | null;
  /** The CPU of the fresh baseline run the budget came from (ms), null when unmeasured. */
  readonly baselineCpuMs: number | null;
}

/** A verdict the host gave, with what it cost and the messages of the failures. */
export interface HostVerdict {
  readonly status: Extract<RunStatus, 'killed' | 'survived' | 'timeout'>;
  readonly output: string;
  readonly ms: number;
  readonly cpuMs: number | null;
  /** The host that gave it (its generation; a later host is another generation). */
  readonly generation: number;
}

/** What the caller does with the mutants judged on a host since its last good check. */
export type Settled = 'keep' | 'confirmed' | 'rejudge';

interface Slot {
  host: VitestHost | null;
  generation: number;
  sinceCheck: number;
  /** The host keeps forks between runs (until the fresh-state probe finds a difference). */
  reusing: boolean;
}

/** The tests and states of a clean run as one comparable text, null when the run was not clean. */
function cleanSignature(r: HostResult): string | null {
  if (r.reason !== 'passed' || r.module_errors > 0 || r.unhandled_errors > 0 || r.tests.length === 0) return null;
  if (r.tests.some((t) => t.state !== 'passed' && t.state !== 'skipped')) return null;
  return JSON.stringify(r.tests.map((t) => [t.file, t.name, t.state]).sort());
}

/** A mutant run's status, or null when the host cannot vouch for it (then a fresh process judges). */
function statusOf(r: HostResult): 'killed' | 'survived' | null {
  if (r.module_errors > 0 || r.unhandled_errors > 0 || r.tests.length === 0) return null;
  const failed = r.tests.some((t) => t.state === 'failed');
  if (r.reason === 'passed' && !failed && r.tests.every((t) => t.state === 'passed' || t.state === 'skipped'))
    return 'survived';
  // `interrupted`: the command's --bail stopped the run at a failure.
  if ((r.reason === 'failed' || r.reason === 'interrupted') && failed) return 'killed';
  return null;
}

const sameFiles = (a: readonly string[], b: readonly string[]) =>
  JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());

/** The hosts of one execution. */
export class WarmHosts {
  /** Why fresh processes judge the rest of the execution (null while the hosts serve). */
  off: string | null = null;
  /**
   * Mutants judged on a host, hosts started, clean checks run, mutants judged again; runs on a
   * kept fork, and runs made again on a new fork after the fresh-state probe found a difference.
   */
  readonly stats = { mutants: 0, starts: 0, checks: 0, rejudged: 0, reusedForks: 0, staleForks: 0 };
  private readonly slots: Slot[];
  private files: readonly string[] | null = null;
  private reference: string | null = null;
  /** The CPU of the latest clean run on a kept fork and on a new one (ms). */
  private readonly cleanCpu: { reused: number | null; new: number | null } = { reused: null, new: null };
  private generations = 0;
  /** Every host started, so that closing waits for what each uid left to be removed. */
  private readonly started: VitestHost[] = [];

  constructor(
    private readonly ws: Workspace,
    private readonly plan: HostPlan,
    private readonly limits: HostLimits,
  ) {
    this.slots = ws.copies.map(() => ({ host: null, generation: 0, sinceCheck: 0, reusing: true }));
  }

  private turnOff(why: string): void {
    if (this.off === null) this.off = why;
    for (const s of this.slots) {
      s.host?.kill();
      s.host = null;
    }
  }

  /** The host of copy `w`, started (and checked clean) when there is none; null once off. */
  private async hostFor(w: number): Promise<Slot | null> {
    const slot = this.slots[w]!;
    if (this.off !== null) return null;
    if (slot.host !== null && slot.host.alive) return slot;
    slot.host = null;
    const user = this.ws.identity(w);
    this.stats.starts++;
    const env = this.ws.env(w);
    // A fresh uid gets only the PATH entries it can search.
    if (user !== null && env.PATH !== undefined) env.PATH = searchablePath(env.PATH);
    const started = await VitestHost.start({
      cwd: this.ws.copies[w]!.root,
      env,
      plan: this.plan,
      user,
      startMs: this.limits.timeoutMs,
      // The limits of a fresh run: the host and its forks are runs of the patch's code too.
      limits: this.ws.limits(this.limits.timeoutMs, user),
      sweep: (u) => this.ws.sweep(u),
    });
    if (started instanceof VitestHost) this.started.push(started);
    if (this.off !== null) {
      if (started instanceof VitestHost) started.kill();
      return null;
    }
    if (!(started instanceof VitestHost)) return this.fail(started.failed);
    const ready = started.ready!;
    slot.host = started;
    if (ready.version.split('.')[0] !== VITEST_MAJOR)
      return this.fail(`the project's vitest is ${ready.version}, the host speaks to vitest ${VITEST_MAJOR}`);
    if (ready.files.length === 0) return this.fail('the command selects no test file');
    if (this.files !== null && !sameFiles(this.files, ready.files))
      return this.fail('a host found other test files than the first');
    this.files ??= ready.files;
    slot.generation = ++this.generations;
    slot.sinceCheck = 0;
    slot.reusing = true;
    if (!(await this.clean(slot, user))) return null;
    // A host's first run starts a fork and transforms every module cold; until a clean run on
    // a kept fork has been measured once, the budget would come from that dearer run.
    if (this.cleanCpu.reused === null && slot.reusing && !(await this.clean(slot, user))) return null;
    return slot;
  }

  private fail(why: string): null {
    this.turnOff(why);
    return null;
  }

  /** One clean run on the slot's host: it must pass with the reference's tests (the first clean run is the reference). */
  private async clean(slot: Slot, user: Identity | null): Promise<boolean> {
    const host = slot.host!;
    if (user !== null) this.ws.giveCopy(this.slots.indexOf(slot), user);
    this.stats.checks++;
    const r = await host.run(this.files!, this.limits.cpuBudgetMs ?? Number.POSITIVE_INFINITY, this.limits.timeoutMs);
    if (r.kind !== 'result')
      return this.fail(`a clean run on the host ${r.kind === 'timeout' ? 'timed out' : `broke: ${r.why}`}`) ?? false;
    this.countFork(slot, r.result);
    if (!sameFiles(r.result.files, this.files!))
      return this.fail('a clean run on the host ran other files than asked') ?? false;
    const signature = cleanSignature(r.result);
    if (signature === null) return this.fail('a clean run on the host did not pass') ?? false;
    if (this.reference === null) this.reference = signature;
    else if (signature !== this.reference)
      return this.fail('a clean run on the host ran other tests than the first') ?? false;
    // The latest clean run of each kind: on a kept fork it costs what a mutant's run there
    // costs, without the new fork and the cold transforms of a host's first run.
    if (r.cpuMs !== null) this.cleanCpu[r.result.fork] = r.cpuMs;
    slot.sinceCheck = 0;
    return true;
  }

  private countFork(slot: Slot, r: HostResult): void {
    if (r.fork === 'reused') this.stats.reusedForks++;
    if (r.stale !== undefined) {
      this.stats.staleForks++;
      slot.reusing = false;
    }
  }

  /**
   * The CPU of the latest clean run like the runs a host makes (ms), null until one ran: on a
   * kept fork while the host keeps forks, else on a new fork. The host's budget comes from it.
   */
  cleanCpuMs(w = 0): number | null {
    const reusing = this.slots[w]?.reusing ?? true;
    return reusing ? (this.cleanCpu.reused ?? this.cleanCpu.new) : this.cleanCpu.new;
  }

  /**
   * The CPU budget of a mutant run on copy `w`'s host: the fresh run's rule (twice the clean
   * run's CPU plus the slack) applied to the clean run like that host's runs, never more than the fresh run's
   * budget less what a fresh run spends starting vitest (the fresh baseline's CPU beyond the
   * host's clean run).
   */
  budget(w = 0): number {
    const { cpuBudgetMs, baselineCpuMs } = this.limits;
    const reference = this.cleanCpuMs(w);
    if (cpuBudgetMs === null) return Number.POSITIVE_INFINITY;
    if (reference === null) return cpuBudgetMs;
    const start = baselineCpuMs !== null ? Math.max(0, baselineCpuMs - reference) : 0;
    return Math.max(1, Math.min(cpuBudgetMs - start, mutantCpuBudget(reference)));
  }

  /**
   * Judge one mutant on copy `w`'s host: `write` puts it into the copy, `undo` restores the
   * copy. Null: the host cannot vouch for this outcome (or is off), a fresh process judges.
   */
  async judge(w: number, write: () => void, undo: () => void): Promise<HostVerdict | null> {
    const slot = await this.hostFor(w);
    if (slot === null) return null;
    const host = slot.host!;
    if (host.identity !== null) this.ws.giveCopy(w, host.identity);
    write();
    let r;
    try {
      r = await host.run(this.files!, this.budget(w), this.limits.timeoutMs);
    } finally {
      undo();
    }
    const cost = { ms: r.ms, cpuMs: r.cpuMs, generation: slot.generation };
    if (r.kind === 'timeout') {
      // The run's forks were killed and the host goes on, checked clean before it vouches for
      // anything more; a host that could not abort was killed, and the next mutant starts one.
      if (host.alive) slot.sinceCheck = CLEAN_CHECK_EVERY;
      else slot.host = null;
      this.stats.mutants++;
      return { status: 'timeout', output: '', ...cost };
    }
    // A host its resource limits ended (SIGXCPU: its CPU limit, per process, is a fresh run's) broke too.
    if (r.kind === 'broken') return this.fail(`the host broke: ${r.why}`);
    this.countFork(slot, r.result);
    if (!sameFiles(r.result.files, this.files!)) return this.fail('the host ran other files than asked');
    const status = statusOf(r.result);
    if (status === null) return null;
    slot.sinceCheck++;
    this.stats.mutants++;
    return { status, output: r.result.messages, ...cost };
  }

  /**
   * What becomes of the mutants copy `w` judged on host `generation` since its last good
   * check: kept while no check is due, confirmed by a clean run when one is due (or `last`),
   * re-judged when the hosts are off, that host is gone, or the clean run fails.
   */
  async settle(w: number, generation: number, last: boolean): Promise<Settled> {
    const slot = this.slots[w]!;
    if (this.off !== null || slot.host === null || !slot.host.alive || slot.generation !== generation) return 'rejudge';
    if (!last && slot.sinceCheck < CLEAN_CHECK_EVERY) return 'keep';
    return (await this.clean(slot, slot.host.identity)) ? 'confirmed' : 'rejudge';
  }

  /** Stop every host. */
  async close(): Promise<void> {
    await Promise.all(this.slots.map((s) => s.host?.close() ?? Promise.resolve()));
    for (const s of this.slots) s.host = null;
    await Promise.all(this.started.map((h) => h.sweptOut));
  }
}
