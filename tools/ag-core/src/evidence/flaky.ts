/**
 * The flaky rule, in one place: ag-run applies it to every execution of a command, lists each
 * flaky test with the sightings that make it so, and ag-decide applies it again to what the
 * list shows. Pure.
 *
 * A test is flaky when it passed and failed on one side, or when it failed on the patch and
 * its file is flaky. A file is flaky when one of its tests passed and failed on one side or
 * failed on the baseline: a time-budgeted suite fails a different set of its tests from run to
 * run, so a sibling's failure on the patch is no evidence against the patch. Ids that carry no
 * file have no file to be flaky with. A test red in every run it was seen in, on both sides, is
 * never flaky, whatever its file: it is failing, a failure the baseline already had
 * (`alwaysRed`; ag-run reads it as already failing, which holds as BASELINE_RED, never passes).
 * @module
 */
import type { TestResult } from '@adversary-gate/schemas';

type Outcome = TestResult['outcome'];

/** One test's outcome in one execution the rule counts (one that ran to a verdict with a per-test report). */
export interface TestSighting {
  readonly id: string;
  readonly side: 'baseline' | 'patch';
  readonly round: number;
  readonly outcome: Outcome;
}

/** A flaky test and the sightings that show it. */
export interface FlakyFinding {
  readonly id: string;
  /** Every sighting of the test itself, in the order given. */
  readonly runs: readonly TestSighting[];
  /**
   * Empty when the test's own sightings show it flaky. Else it is flaky through its file: every
   * sighting of the test of that file that makes the file flaky (the first such by id).
   */
  readonly fileRuns: readonly TestSighting[];
}

/** A flaky-test listing as run.json holds it (`tests_flaky`): the test's own runs, and its file's. */
export interface FlakyListing {
  readonly id: string;
  readonly runs: readonly { readonly side: 'baseline' | 'patch'; readonly round: number; readonly outcome: Outcome }[];
  readonly file_runs?: readonly TestSighting[];
}

/** The file part of an id (`tests/test_a.py::test_x`, `src/a.spec.ts::group > name`), when it names a file. */
export function fileOfId(id: string): string | null {
  const cut = id.indexOf('::');
  if (cut <= 0) return null;
  const head = id.slice(0, cut);
  return /\.[A-Za-z0-9]+$/.test(head) ? head : null;
}

const isFail = (o: Outcome) => o === 'failed' || o === 'error';

/** What one test's sightings say. */
interface Reading {
  readonly runs: TestSighting[];
  /** Passed and failed on one side. */
  mixed: boolean;
  /** Makes its file flaky: mixed, or failed on the baseline. */
  witness: boolean;
  failedOnPatch: boolean;
  /** Seen on both sides and failed in every run it was seen in: failing, never flaky. */
  red: boolean;
}

function read(sightings: readonly TestSighting[]): Map<string, Reading> {
  const byId = new Map<string, TestSighting[]>();
  for (const s of sightings) {
    const list = byId.get(s.id);
    if (list === undefined) byId.set(s.id, [s]);
    else list.push(s);
  }
  const out = new Map<string, Reading>();
  for (const [id, runs] of byId) {
    const side = (name: TestSighting['side']) => runs.filter((r) => r.side === name).map((r) => r.outcome);
    const [before, after] = [side('baseline'), side('patch')];
    const mixedOn = (o: readonly Outcome[]) => o.includes('passed') && o.some(isFail);
    const mixed = mixedOn(before) || mixedOn(after);
    const red = before.length > 0 && after.length > 0 && runs.every((r) => isFail(r.outcome));
    out.set(id, { runs, mixed, witness: mixed || before.some(isFail), failedOnPatch: after.some(isFail), red });
  }
  return out;
}

/**
 * The files the rule calls flaky among these sightings: a test of theirs passed and failed on
 * one side, or failed on the baseline. Mapped to the first such test by id.
 */
function flakyFileWitnesses(readings: ReadonlyMap<string, Reading>): Map<string, string> {
  const out = new Map<string, string>();
  for (const id of [...readings.keys()].sort()) {
    const file = fileOfId(id);
    if (file !== null && readings.get(id)!.witness && !out.has(file)) out.set(file, id);
  }
  return out;
}

/** The flaky files among these sightings (see the module's rule). */
export function flakyFiles(sightings: readonly TestSighting[]): Set<string> {
  return new Set(flakyFileWitnesses(read(sightings)).keys());
}

/**
 * Every flaky test among these sightings (all of one command's counted executions, both
 * sides), sorted by id, each with its own sightings and, when only its file makes it flaky,
 * the sightings of the test that makes the file so.
 */
export function flakyFindings(sightings: readonly TestSighting[]): FlakyFinding[] {
  const readings = read(sightings);
  const witnesses = flakyFileWitnesses(readings);
  const out: FlakyFinding[] = [];
  for (const id of [...readings.keys()].sort()) {
    const r = readings.get(id)!;
    if (r.red) continue;
    if (r.mixed) {
      out.push({ id, runs: r.runs, fileRuns: [] });
      continue;
    }
    const file = fileOfId(id);
    const witness = file === null ? undefined : witnesses.get(file);
    if (witness === undefined || !r.failedOnPatch) continue;
    // A test that failed on the baseline makes its own file flaky: its own sightings show it.
    out.push({ id, runs: r.runs, fileRuns: r.witness ? [] : readings.get(witness)!.runs });
  }
  return out;
}

/**
 * The tests red in every run they were seen in on both sides (seen on each side at least once),
 * sorted by id: failures the baseline already had, never flaky.
 */
export function alwaysRed(sightings: readonly TestSighting[]): string[] {
  return [...read(sightings)]
    .filter(([, r]) => r.red)
    .map(([id]) => id)
    .sort();
}

/**
 * True when the rule, applied to what a listing shows (the test's runs and its file's), finds
 * the test flaky. ag-run lists only such tests; a listing that fails this was not written by it.
 */
export function listingShowsFlaky(f: FlakyListing): boolean {
  const own = f.runs.map((r) => ({ id: f.id, side: r.side, round: r.round, outcome: r.outcome }));
  return flakyFindings([...own, ...(f.file_runs ?? [])]).some((x) => x.id === f.id);
}
