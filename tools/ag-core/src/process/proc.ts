/**
 * The one scan of /proc (Linux) the process runner and the identity checks share.
 * @module
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Pids in /proc for which `test` holds; a process that ends or cannot be read is skipped. */
export function pidsWhere(test: (pid: number) => boolean): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const out: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (test(Number(entry))) out.push(Number(entry));
    } catch {
      // the process ended while we looked, or is not ours to read
    }
  }
  return out;
}

/** A process's state letter and process group, from `/proc/<pid>/stat`; null once it is gone. */
export function processStat(pid: number): { readonly state: string; readonly pgrp: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[0] = state, [1] = ppid, [2] = pgrp
    return { state: fields[0]!, pgrp: Number(fields[2]) };
  } catch {
    return null;
  }
}

/** True while `pid` runs in a process group other than `pgid` (a zombie or a gone process does not). */
export function runsOutsideGroup(pid: number, pgid: number): boolean {
  const stat = processStat(pid);
  return stat !== null && stat.state !== 'Z' && stat.state !== 'X' && stat.pgrp !== pgid;
}
