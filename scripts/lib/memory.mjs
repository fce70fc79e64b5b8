// The machine's memory in use (MemTotal − MemAvailable), sampled while a load runs.
import { readFileSync } from 'node:fs';

/** Memory in use now, in KiB. */
export function memoryInUseKb() {
  const info = readFileSync('/proc/meminfo', 'utf8');
  const field = (name) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(info)?.[1] ?? 0);
  return field('MemTotal') - field('MemAvailable');
}

/**
 * Sample every `ms` until stopped.
 * @param {number} ms
 * @returns {{ stop(): { startKb: number, peakKb: number } }}
 */
export function memorySampler(ms) {
  const startKb = memoryInUseKb();
  let peakKb = startKb;
  const timer = setInterval(() => {
    peakKb = Math.max(peakKb, memoryInUseKb());
  }, ms);
  return {
    stop() {
      clearInterval(timer);
      peakKb = Math.max(peakKb, memoryInUseKb());
      return { startKb, peakKb };
    },
  };
}
