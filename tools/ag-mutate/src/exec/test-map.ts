/**
 * Which tests execute a mutant, from the baseline's coverage: per test file for node:test
 * (V8 coverage is per process, and node --test runs each test file in a process of its
 * own), per test for pytest (a line tracer attributes each line to the running test).
 * @module
 */
import { readdirSync, realpathSync } from 'node:fs';
import path from 'node:path';
import type * as v from 'valibot';
import type { Site } from '../engines/site.js';
import { CounterRecord, EntryRecord, TraceRecord } from '../records/hooks.js';
import { readRecord } from '../records/read.js';
import { blockRan, readV8Processes } from './v8-coverage.js';

/** A test (pytest node id) or test file (tree-relative) and how long it took in the baseline. */
export interface TestUnit {
  readonly id: string;
  readonly ms: number;
}

/**
 * The tests that execute a mutant: `unknown` when the coverage cannot tell (the file was
 * never seen, or code ran outside any attributable test), `none` when no test executes it.
 */
export type Coverers =
  | { readonly kind: 'unknown' }
  | { readonly kind: 'none' }
  | { readonly kind: 'tests'; readonly tests: readonly TestUnit[] };

/** The baseline's answer to "which tests execute this site?". */
export interface TestMap {
  readonly mode: 'per-test' | 'per-test-file';
  coverers(site: Site): Coverers;
  /** mocha: every file that held a test in the baseline (relative to the tree); a selection need not load the others' tests. */
  readonly testFiles?: ReadonlySet<string>;
}

/**
 * `map` with a whole-file revert's covering tests taken from its parts (the hunk reverts it
 * puts back at once): every test that executes one of them, `unknown` when one cannot tell.
 */
export function withRevertParts(map: TestMap | null): TestMap | null {
  if (map === null) return null;
  return {
    ...map,
    coverers(site: Site): Coverers {
      const parts = site.revert?.parts;
      if (parts === undefined) return map.coverers(site);
      const tests = new Map<string, TestUnit>();
      for (const p of parts) {
        const c = map.coverers({
          ...site,
          start: p.start,
          ...(p.coverLines !== undefined ? { coverLines: p.coverLines } : {}),
        });
        if (c.kind === 'unknown') return c;
        if (c.kind === 'tests') for (const t of c.tests) if (!tests.has(t.id)) tests.set(t.id, t);
      }
      return tests.size === 0 ? { kind: 'none' } : { kind: 'tests', tests: [...tests.values()] };
    },
  };
}

/** The real path of the tree (the form V8 and the recorders report), or the path as given. */
export function realRoot(root: string): string {
  try {
    return realpathSync(root);
  } catch {
    return path.resolve(root);
  }
}

/**
 * Every `*.json` record in `dir`, by name, read through its schema; a record cut short (a
 * killed process) or of another shape is skipped, as if it had not been written.
 */
export function readJsonDir<const S extends v.GenericSchema>(
  dir: string,
  schema: S,
): { name: string; value: v.InferOutput<S> }[] {
  let names: string[];
  try {
    names = readdirSync(dir)
      .filter((n) => n.endsWith('.json'))
      .sort();
  } catch {
    return [];
  }
  const out: { name: string; value: v.InferOutput<S> }[] = [];
  for (const name of names) {
    // gone, unreadable, cut short (a killed process) or of another shape: skipped, its coverage stays unattributed
    const value = readRecord(schema, path.join(dir, name));
    if (value !== null) out.push({ name, value });
  }
  return out;
}

/** Tree-relative form of an absolute path, or null when it lies outside the tree. */
export function relative(real: string, file: string): string | null {
  let abs = file;
  try {
    abs = realpathSync(file);
  } catch {
    // keep
  }
  const rel = path.relative(real, abs);
  return rel === '' || rel.startsWith('..') || path.isAbsolute(rel) ? null : rel.split(path.sep).join('/');
}

/** What each process ran of the changed files: V8's coverage dumps, or the site counters' records. */
export type ProcessCounts = { readonly v8: string } | { readonly counters: string };

/** Per process (pid, null when unknown): for each changed file it loaded, whether a site offset ran. */
interface ProcessRan {
  readonly pid: number | null;
  readonly files: ReadonlyMap<string, (offset: number) => boolean>;
}

/** The processes' counts; null when some process's counts were lost (a mark without its record). */
export function processesRan(
  from: ProcessCounts,
  root: string,
  files: ReadonlySet<string>,
  lengths?: ReadonlyMap<string, number>,
): ProcessRan[] | null {
  if ('v8' in from)
    return readV8Processes(from.v8, root, files, lengths).map((p) => ({
      pid: p.pid,
      files: new Map([...p.files].map(([file, ranges]) => [file, (o: number) => blockRan(ranges, o)])),
    }));
  let names: string[];
  try {
    names = readdirSync(from.counters);
  } catch {
    names = [];
  }
  const records = readJsonDir(from.counters, CounterRecord);
  const written = new Set(records.map((r) => r.name.replace(/\.json$/, '')));
  if (names.some((n) => n.endsWith('.started') && !written.has(n.replace(/\.started$/, '')))) return null;
  const real = realRoot(root);
  return records.map(({ value }) => {
    const ran = new Map<string, (offset: number) => boolean>();
    for (const [file, length] of Object.entries(value.lengths)) {
      const rel = relative(real, file);
      if (rel === null || !files.has(rel) || (lengths !== undefined && lengths.get(rel) !== length)) continue;
      const counted = new Set(value.files[file] ?? []);
      ran.set(rel, (o) => counted.has(o));
    }
    return { pid: value.pid, files: ran };
  });
}

/**
 * node:test: what each process ran (`from`: V8 coverage files or site-counter records)
 * joined by pid with the unit records the preload wrote (`entryDir`). A process that ran the
 * site but belongs to no test file (the runner itself, or a record lost) makes the site
 * `unknown`, as does any process whose counts were lost.
 */
export function nodeTestMap(
  from: ProcessCounts,
  entryDir: string,
  root: string,
  files: ReadonlySet<string>,
  lengths?: ReadonlyMap<string, number>,
): TestMap {
  const real = realRoot(root);
  const units = new Map<number, string | null>();
  const durations = new Map<string, number>();
  for (const { name, value } of readJsonDir(entryDir, EntryRecord)) {
    const unit = value.unit === null ? null : relative(real, value.unit);
    units.set(Number(name.slice(0, -5)), unit);
    if (value.root && unit !== null) durations.set(unit, Math.max(durations.get(unit) ?? 0, value.ms));
  }
  const processes = processesRan(from, root, files, lengths);
  return {
    mode: 'per-test-file',
    coverers(site) {
      if (processes === null) return { kind: 'unknown' };
      const loaded = processes.filter((p) => p.files.has(site.file));
      if (loaded.length === 0) return { kind: 'unknown' };
      const ran = loaded.filter((p) => p.files.get(site.file)!(site.start));
      if (ran.length === 0) return { kind: 'none' };
      const ids = new Set<string>();
      for (const p of ran) {
        const unit = p.pid === null ? null : (units.get(p.pid) ?? null);
        if (unit === null) return { kind: 'unknown' };
        ids.add(unit);
      }
      return { kind: 'tests', tests: [...ids].map((id) => ({ id, ms: durations.get(id) ?? 0 })) };
    },
  };
}

/**
 * pytest: the plugin's per-process trace files. Lines run outside any test (imports at
 * collection) make a site `unknown`: every test may depend on them.
 */
export function pytestMap(traceDir: string, root: string): TestMap {
  const real = realRoot(root);
  const lines = new Map<string, Map<string, Set<number>>>(); // test → file → lines ('' = outside tests)
  const durations = new Map<string, number>();
  const seen = new Set<string>();
  for (const { value } of readJsonDir(traceDir, TraceRecord)) {
    for (const [test, files] of Object.entries(value.tests)) {
      const perTest = lines.get(test) ?? new Map<string, Set<number>>();
      for (const [file, hit] of Object.entries(files)) {
        const rel = relative(real, file);
        if (rel === null) continue;
        seen.add(rel);
        const set = perTest.get(rel) ?? new Set<number>();
        for (const n of hit) set.add(n);
        perTest.set(rel, set);
      }
      lines.set(test, perTest);
    }
    for (const [test, ms] of Object.entries(value.durations))
      durations.set(test, Math.max(durations.get(test) ?? 0, ms));
  }
  return {
    mode: 'per-test',
    coverers(site) {
      if (!seen.has(site.file)) return { kind: 'unknown' };
      const [first, last] = site.coverLines ?? [site.line, site.line];
      const hits = (set: Set<number> | undefined) => {
        if (set === undefined) return false;
        for (let n = first; n <= last; n++) if (set.has(n)) return true;
        return false;
      };
      if (hits(lines.get('')?.get(site.file))) return { kind: 'unknown' };
      const tests: TestUnit[] = [];
      for (const [test, files] of lines)
        if (test !== '' && hits(files.get(site.file))) tests.push({ id: test, ms: durations.get(test) ?? 0 });
      return tests.length === 0 ? { kind: 'none' } : { kind: 'tests', tests };
    },
  };
}

/**
 * Ordered tests split in two runs: those whose file is named for the mutated file, then the
 * rest (one run when either part is empty).
 */
export function likelyKillersFirst(ordered: readonly TestUnit[], mutatedFile: string): TestUnit[][] {
  const target = stem(mutatedFile);
  const isNear = (t: TestUnit) => kinship(unitFile(t.id), target) < 2;
  const near = ordered.filter(isNear);
  if (near.length === 0 || near.length === ordered.length) return [[...ordered]];
  return [near, ordered.filter((t) => !isNear(t))];
}

/**
 * The runs for a mutant, known killers first: the covering units that hold a test which killed
 * an earlier mutant of the same file make a run of their own (`known`), then every other
 * covering unit in one run (after a known killer failed to kill, what is left mostly proves a
 * survivor, and each run more is a process more). None known: the likely killers and the rest
 * as {@link likelyKillersFirst} splits them. Either way the runs hold every covering unit
 * once, so a mutant survives only when every covering test passed.
 */
export function killersFirst(
  ordered: readonly TestUnit[],
  mutatedFile: string,
  killers: ReadonlySet<string>,
): { units: TestUnit[]; known: boolean }[] {
  const holds = holdsKiller(killers);
  const known = ordered.filter(holds);
  if (known.length === 0) return likelyKillersFirst(ordered, mutatedFile).map((units) => ({ units, known: false }));
  const rest = ordered.filter((t) => !holds(t));
  return rest.length === 0
    ? [{ units: known, known: true }]
    : [
        { units: known, known: true },
        { units: rest, known: false },
      ];
}

/** Whether a unit holds one of `killers`: it is that test, its file (a per-file unit), or in a file named as the killer. */
export function holdsKiller(killers: ReadonlySet<string>): (t: TestUnit) => boolean {
  const files = new Set([...killers].map(unitFile));
  return (t) => killers.has(t.id) || files.has(t.id) || killers.has(unitFile(t.id));
}

/** The test file of a unit: a test id is `file::name` (pytest node ids, mocha titles), a per-file unit is the file. */
export function unitFile(unit: string): string {
  const at = unit.indexOf('::');
  return at < 0 ? unit : unit.slice(0, at);
}

/** The stem a test file and its source share: `src/price.js`, `test/price.test.js`, `tests/test_price.py` → `price`. */
export function stem(file: string): string {
  let name = file.slice(file.lastIndexOf('/') + 1).replace(/\.[cm]?[jt]sx?$|\.py$/, '');
  name = name
    .replace(/[._-](?:test|spec)$/, '')
    .replace(/^test[_-]/, '')
    .replace(/_test$/, '');
  return name.toLowerCase();
}

/**
 * How closely a test file is named for the mutated file's stem: 0 the same stem, 1 its first
 * word abbreviates it (`req.fresh.js`, `res-send.test.js` for `request.js`, `response.js`), 2 not.
 */
function kinship(testFile: string, target: string): number {
  const own = stem(testFile);
  if (own === target) return 0;
  const word = own.split(/[._-]/)[0]!;
  return word.length >= 3 && target.startsWith(word) ? 1 : 2;
}

/**
 * Likely killers first: tests whose file is named for the mutated file (then those whose
 * name abbreviates it), then the fastest, then by id (deterministic).
 */
export function orderTests(tests: readonly TestUnit[], mutatedFile: string): TestUnit[] {
  const target = stem(mutatedFile);
  const own = (t: TestUnit) => kinship(unitFile(t.id), target);
  return [...tests].sort((a, b) => own(a) - own(b) || a.ms - b.ms || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
