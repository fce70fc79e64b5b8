/**
 * Which mocha tests execute a mutant, from the records of the root hook
 * (`runtime/mocha-hook.cjs`): per test, or per test file when the suite is large (a
 * coverage snapshot costs V8 about 7–11 ms, too much to take around each of a thousand
 * tests), plus the V8 coverage of every other Node process the tests started.
 * @module
 */
import type { Site } from '../engines/site.js';
import { MochaRecord } from '../records/hooks.js';
import { readJsonDir, realRoot, relative, unitFile, type TestMap, type TestUnit } from './test-map.js';
import { blockRan, readV8Processes } from './v8-coverage.js';

/** What the hook writes for one mocha process (its schema lives with the other internal records). */
export type { MochaRecord };

/**
 * Join the hook's records (`recordDir`) with the V8 coverage of the other processes
 * (`coverDir`). `lengths` holds the text length of each changed file: a file whose script
 * was not its own text (a loader transformed it) is unknown, as is a site that ran outside
 * every unit or in another process (a child the tests started).
 */
export function mochaMap(
  recordDir: string,
  coverDir: string,
  root: string,
  lengths: ReadonlyMap<string, number>,
): TestMap | null {
  const real = realRoot(root);
  const records = readJsonDir(recordDir, MochaRecord).map((r) => r.value);
  if (records.length === 0) return null;
  const pids = new Set(records.map((r) => r.pid));
  const others = readV8Processes(coverDir, root, new Set(lengths.keys()), lengths).filter(
    (p) => p.pid === null || !pids.has(p.pid),
  );
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
      if (others.some((p) => p.files.has(site.file) && blockRan(p.files.get(site.file)!, site.start)))
        return { kind: 'unknown' };
      const tests: TestUnit[] = [];
      for (const [unit, files] of units)
        if (files.get(site.file)?.has(site.start)) tests.push({ id: unit, ms: durations.get(unit) ?? 0 });
      return tests.length === 0 ? { kind: 'none' } : { kind: 'tests', tests };
    },
  };
}
