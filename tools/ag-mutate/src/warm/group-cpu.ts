/**
 * The CPU time of one process group and its descendants, read from /proc (Linux): each
 * process's utime + stime plus what it reaped (cutime + cstime). A warm host's test
 * processes are its children, so their time lands in the host's reaped time when they end.
 * @module
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

let ticksPerSecond: number | null = null;

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

/** CPU ms of the group `pgid` and every descendant of its members; null when /proc cannot be read. */
export function groupCpuMs(pgid: number): number | null {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return null;
  }
  const procs = new Map<number, { ppid: number; pgrp: number; ticks: number }>();
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // ended while we looked
    }
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
    if (Number.isFinite(ticks)) procs.set(Number(entry), { ppid: Number(f[1]), pgrp: Number(f[2]), ticks });
  }
  const members = [...procs].filter(([, p]) => p.pgrp === pgid).map(([pid]) => pid);
  if (members.length === 0) return null;
  const seen = new Set(members);
  for (let i = 0; i < members.length; i++)
    for (const [pid, p] of procs)
      if (p.ppid === members[i] && !seen.has(pid)) {
        seen.add(pid);
        members.push(pid);
      }
  let ticks = 0;
  for (const pid of seen) ticks += procs.get(pid)!.ticks;
  return (ticks * 1000) / clockTicks();
}
