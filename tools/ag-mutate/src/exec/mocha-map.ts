/**
 * Which mocha tests execute a mutant, from the records of the root hook
 * (`runtime/mocha-hook.cjs`): per test, or per test file when the suite is large (a
 * coverage snapshot costs V8 about 7–11 ms, too much to take around each of a thousand
 * tests), plus what every other process the tests started ran: its V8 coverage, or the
 * records of the site counters when the changed files carried them.
 * @module
 */
import type { Site } from '../engines/site.js';
import { MochaRecord } from '../records/hooks.js';
import {
  processesRan,
  readJsonDir,
  realRoot,
  relative,
  unitFile,
  type ProcessCounts,
  type TestMap,
  type TestUnit,
} from './test-map.js';

/** What the hook writes for one mocha process (its schema lives with the other internal records). */
export type { MochaRecord };

/** Does a site run in some process other than mocha's; null when some process's counts were lost (then nothing is known). */
function ranElsewhere(
  others: ProcessCounts,
  root: string,
  lengths: ReadonlyMap<string, number>,
  mochaPids: ReadonlySet<number>,
): ((file: string, offset: number) => boolean) | null {
  const all = processesRan(others, root, new Set(lengths.keys()), lengths);
  if (all === null) return null;
  // V8 dumps the mocha process too; the counters of the hooked mocha thread never write a record of their own.
  const elsewhere = 'v8' in others ? all.filter((p) => p.pid === null || !mochaPids.has(p.pid)) : all;
  return (file, offset) => elsewhere.some((p) => p.files.get(file)?.(offset) === true);
}

/**
 * Join the hook's records (`recordDir`) with what the other processes ran (`others`).
 * `lengths` holds the text length of each changed file: a file whose script was not its own
 * text (a loader transformed it) is unknown, as is a site that ran outside every unit or in
 * another process (a child the tests started), and every site when another process's counts
 * were lost.
 */
export function mochaMap(
  recordDir: string,
  others: ProcessCounts,
  root: string,
  lengths: ReadonlyMap<string, number>,
): TestMap | null {
  const real = realRoot(root);
  const records = readJsonDir(recordDir, MochaRecord).map((r) => r.value);
  if (records.length === 0) return null;
  const elsewhere = ranElsewhere(others, root, lengths, new Set(records.map((r) => r.pid)));
  if (elsewhere === null) return null;
  const seen = new Set<string>();
  const outside = new Map<string, Set<number>>();
  const units = new Map<string, Map<string, Set<number>>>();
  const durations = new Map<string, number>();
  const add = (into: Map<string, Set<number>>, files: Record<string, number[]>) => {
    for (const [file, offsets] of Object.entries(files)) {
      const rel = relative(real, file);
      if (rel === null) continue;
      const set = into.get(rel) ?? new Set<number>();
      for (const o of offsets) set.add(o);
      into.set(rel, set);
    }
  };
  for (const record of records) {
    for (const [file, extent] of Object.entries(record.extents)) {
      const rel = relative(real, file);
      if (rel !== null && lengths.get(rel) === extent) seen.add(rel);
    }
    add(outside, record.outside);
    for (const [unit, files] of Object.entries(record.units)) {
      const map = units.get(unit) ?? new Map<string, Set<number>>();
      add(map, files);
      units.set(unit, map);
    }
    for (const [unit, ms] of Object.entries(record.durations)) durations.set(unit, (durations.get(unit) ?? 0) + ms);
  }
  const perTest = records.every((r) => r.granularity === 'test');
  return {
    mode: perTest ? 'per-test' : 'per-test-file',
    testFiles: new Set([...units.keys()].map(unitFile)),
    coverers(site: Site) {
      if (!seen.has(site.file)) return { kind: 'unknown' };
      if (outside.get(site.file)?.has(site.start)) return { kind: 'unknown' };
      if (elsewhere(site.file, site.start)) return { kind: 'unknown' };
      const tests: TestUnit[] = [];
      for (const [unit, files] of units)
        if (files.get(site.file)?.has(site.start)) tests.push({ id: unit, ms: durations.get(unit) ?? 0 });
      return tests.length === 0 ? { kind: 'none' } : { kind: 'tests', tests };
    },
  };
}
