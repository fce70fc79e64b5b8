// What a warm vitest host's tests left running, found in /proc and killed (vitest-host.mjs).
import fs from 'node:fs';

/**
 * What the tests left running, from /proc: every process descended from the forks `forks`
 * and every other process of the group the host leads that is not its own child (one a test started
 * and left to be adopted); with `withForks`, the forks too. A fresh run's group is killed when
 * it ends; so is this.
 */
function strays(forks, withForks) {
  const procs = new Map();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      const [state, ppid, pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      procs.set(Number(name), { state, ppid: Number(ppid), pgrp: Number(pgrp) });
    } catch {
      // ended meanwhile
    }
  }
  // The group is the host's own only when it leads it (ag-mutate starts it so).
  const group = procs.get(process.pid)?.pgrp === process.pid ? process.pid : null;
  const from = new Set(forks);
  for (const [pid, p] of procs) if (pid !== process.pid && p.pgrp === group && p.ppid !== process.pid) from.add(pid);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, p] of procs)
      if (from.has(p.ppid) && !from.has(pid)) {
        from.add(pid);
        grew = true;
      }
  }
  if (!withForks) for (const pid of forks) from.delete(pid);
  // A zombie is already dead (its parent, or the reaper, collects it).
  return [...from].filter((pid) => procs.has(pid) && procs.get(pid).state !== 'Z');
}

/** The most sweeps of /proc one kill makes (each finds what the last one's victims started meanwhile). */
const MAX_SWEEPS = 200;

/**
 * Kill what the tests left running and, with `withForks`, the forks themselves; false when
 * there is nothing to tell them apart by (no tinypool as expected, no /proc). `keeper.forks(ending)` gives the forks' pids.
 */
export function killStrays(keeper, withForks) {
  if (keeper === null || !fs.existsSync('/proc/self/stat')) return false;
  // One look at /proc misses a process started after it (a shell that forks its background
  // child while the sweep reads): sweep again until a sweep finds nothing alive.
  for (let sweep = 0; sweep < MAX_SWEEPS; sweep++) {
    const found = strays(keeper.forks(withForks), withForks);
    if (found.length === 0) break;
    for (const pid of found) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
  return true;
}
