/**
 * The one scan of /proc (Linux) the process runner and the identity checks share.
 * @module
 */
import { readdirSync } from 'node:fs';

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
