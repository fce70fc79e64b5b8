/**
 * CPU time of a run, from /proc (Linux): the processes of its group and their descendants
 * (which reach a sandbox's own session), each counted as utime + stime plus what it reaped
 * (cutime + cstime). One scan of /proc every 100 ms serves every run being watched.
 * A run's figure only grows: a process that left (reaped by one outside the run) keeps the
 * time it was last seen with. Where /proc cannot be read nothing is measured.
 * @module
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** How often the CPU of watched runs is sampled (ms). */
const CPU_SAMPLE_MS = 100;

interface Proc {
  readonly ppid: number;
  readonly pgrp: number;
  /** utime + stime + cutime + cstime, in clock ticks. */
  readonly ticks: number;
}

let ticksPerSecond: number | null = null;

/** The kernel's clock tick (USER_HZ, the unit of /proc/<pid>/stat times): getconf's answer, else 100. */
function clockTicks(): number {
  if (ticksPerSecond === null) {
    try {
      const n = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
      ticksPerSecond = Number.isInteger(n) && n > 0 ? n : 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/** Every process of /proc with its parent, group and CPU ticks; null when /proc cannot be read. */
function scan(): Map<number, Proc> | null {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return null;
  }
  const table = new Map<number, Proc>();
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // ended while we looked
    }
    // After the command name: [0] state, [1] ppid, [2] pgrp, … [11] utime, [12] stime, [13] cutime, [14] cstime.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
    if (!Number.isFinite(ticks)) continue;
    table.set(Number(entry), { ppid: Number(f[1]), pgrp: Number(f[2]), ticks });
  }
  return table;
}

/** Each process's children, by parent pid. */
function childrenOf(table: ReadonlyMap<number, Proc>): Map<number, number[]> {
  const children = new Map<number, number[]>();
  for (const [pid, p] of table) {
    const list = children.get(p.ppid);
    if (list === undefined) children.set(p.ppid, [pid]);
    else list.push(pid);
  }
  return children;
}

/** The processes of the group `pgid` and every descendant of its members, with their CPU ms, in one scan. */
function runCpu(
  table: ReadonlyMap<number, Proc>,
  children: ReadonlyMap<number, number[]>,
  pgid: number,
): { pids: number[]; ms: number } {
  const members = [...table].filter(([, p]) => p.pgrp === pgid).map(([pid]) => pid);
  const seen = new Set<number>(members);
  for (let i = 0; i < members.length; i++) {
    for (const child of children.get(members[i]!) ?? []) {
      if (!seen.has(child)) {
        seen.add(child);
        members.push(child);
      }
    }
  }
  let ticks = 0;
  for (const pid of seen) ticks += table.get(pid)!.ticks;
  return { pids: members, ms: (ticks * 1000) / clockTicks() };
}

/**
 * The CPU ms of the group `pgid` and every descendant of its members now, in one scan; null
 * when /proc cannot be read or the group has no member. A long-lived process's children that
 * ended count through its reaped time.
 */
export function groupCpuMs(pgid: number): number | null {
  const table = scan();
  if (table === null || ![...table.values()].some((p) => p.pgrp === pgid)) return null;
  const children = childrenOf(table);
  return runCpu(table, children, pgid).ms;
}

/** One watched run. */
interface Watch {
  readonly pgid: number;
  readonly budgetMs: number;
  /** Called once, with the run's processes at that sample (group members and descendants). */
  readonly onOver: (pids: readonly number[]) => void;
  /** Highest CPU ms seen (null: never measured). */
  ms: number | null;
  over: boolean;
}

const watches = new Set<Watch>();
let timer: NodeJS.Timeout | null = null;

/** Sample every watch (or, at its end, one: then a run that already ended is not stopped for its last figure). */
function sampleAll(last?: Watch): void {
  const table = scan();
  if (table === null) return;
  const children = childrenOf(table);
  for (const w of last === undefined ? watches : [last]) {
    const now = runCpu(table, children, w.pgid);
    w.ms = Math.max(w.ms ?? 0, now.ms);
    if (last === undefined && !w.over && w.ms > w.budgetMs) {
      w.over = true;
      w.onOver(now.pids);
    }
  }
}

/** A run's CPU watch: `done` takes a last sample, stops watching and gives the CPU ms (null: not measurable here). */
export interface CpuWatch {
  done(): number | null;
}

/**
 * Watch the CPU of the run whose group is `pgid` (and their descendants): `onOver` is called
 * once when it passes `budgetMs` (Infinity: measure only), with the processes it counted.
 */
export function watchCpu(pgid: number, budgetMs: number, onOver: (pids: readonly number[]) => void): CpuWatch {
  const w: Watch = { pgid, budgetMs, onOver, ms: null, over: false };
  watches.add(w);
  if (timer === null) timer = setInterval(() => sampleAll(), CPU_SAMPLE_MS).unref();
  return {
    done() {
      if (watches.has(w)) {
        sampleAll(w);
        watches.delete(w);
        if (watches.size === 0 && timer !== null) {
          clearInterval(timer);
          timer = null;
        }
      }
      return w.ms === null ? null : Math.round(w.ms);
    },
  };
}
