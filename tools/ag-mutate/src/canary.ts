/**
 * Canaries: behaviour-neutral edits of the changed functions' bodies, judged exactly as the
 * mutants are (same copies, command, environment and test selection), that must survive. The
 * neutral edit only appends a comment to each changed file, which `String(fn)`,
 * `inspect.getsource(fn)` or a hash of the lines above it never see: a test that pins those
 * kills every mutant for nothing. A canary is a no-op inside the function (`void "ag_1f3a9c04";`
 * before the first statement, `(void "ag_…", body)` around an arrow's expression, `; b"ag_…"`
 * after a Python function's first simple statement), with a token drawn per run, so no test can
 * know it in advance. In Python, where the function assigns a local that can be renamed without
 * changing what it does (sites.py checks the parse), the canary renames it throughout the
 * function instead (`root` → `root_ag_1f3a9c04`), so a test that pins a line's text, not only
 * the whole function's, sees it too. A failing canary means the tests read the source text or recognise the
 * run: the strength is not measured (`canary_killed`). One canary per function that holds a
 * judged mutant, at most {@link CANARY_LIMIT}, chosen by the run's seed and slipped into the
 * judging list at places the seed draws; they never count toward the strength.
 * @module
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Canary } from '@adversary-gate/schemas';
import type { MutantVerdict } from './exec/mutant-run.js';
import { lineStarts, position, shorten, type CanarySpot, type Site } from './engines/site.js';
import { failedOnIt, judgedFields } from './judged-record.js';
import { generator } from './select.js';

/** The most canaries one run judges: each is one more mutant's runs. */
const CANARY_LIMIT = 3;

/** A fresh seed (32 random bits) for a run that was given none. */
export function freshCanarySeed(): number {
  return randomBytes(4).readUInt32BE(0);
}

const key = (s: CanarySpot) => `${s.file}\0${String(s.fnStart).padStart(12, '0')}\0${s.fnEnd}`;

/** The innermost function spot of `site`'s file whose span holds the site, or undefined at module level. */
function enclosing(spots: readonly CanarySpot[], site: Site): CanarySpot | undefined {
  let best: CanarySpot | undefined;
  for (const spot of spots) {
    if (spot.file !== site.file || spot.fnStart > site.start || site.end > spot.fnEnd) continue;
    if (best === undefined || spot.fnEnd - spot.fnStart < best.fnEnd - best.fnStart) best = spot;
  }
  return best;
}

/** The functions a canary may go in: the innermost of each runnable mutant that has one (and whose edit parses), in file order. */
function canaryFunctions(spots: readonly CanarySpot[], sites: readonly Site[]): CanarySpot[] {
  const chosen = new Map<string, CanarySpot>();
  for (const site of sites) {
    if (!site.parses || site.canary === true) continue;
    const spot = enclosing(spots, site);
    if (spot !== undefined && spot.parses) chosen.set(key(spot), spot);
  }
  return [...chosen.keys()].sort().map((k) => chosen.get(k)!);
}

/** A canary's stable id: file, place and replacement (its token included). */
function canaryId(site: Site): string {
  const h = createHash('sha256')
    .update(`canary\0${site.file}\0${site.start}\0${site.end}\0${site.replacement}`)
    .digest('hex');
  return `c${h.slice(0, 16)}`;
}

/** The run's canaries, and the judging list with them slipped in. */
export interface CanaryPlan {
  /** The canaries, as sites (`canary: true`). */
  readonly canaries: readonly Site[];
  /** `sites` with the canaries at the places the seed drew. */
  readonly judged: readonly Site[];
}

/**
 * Draw the run's canaries from `seed`: up to `limit` of the functions holding `sites`, each with
 * a token of its own, each slipped into the judging list at a drawn place.
 */
export function planCanaries(
  spots: readonly CanarySpot[],
  sites: readonly Site[],
  texts: ReadonlyMap<string, string>,
  seed: number,
  limit = CANARY_LIMIT,
): CanaryPlan {
  const next = generator(seed);
  const candidates = canaryFunctions(spots, sites);
  for (let i = candidates.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [candidates[i], candidates[j]] = [candidates[j]!, candidates[i]!];
  }
  const canaries = candidates.slice(0, limit).map((spot): Site => {
    const hex = Math.floor(next() * 0x100000000)
      .toString(16)
      .padStart(8, '0');
    const text = texts.get(spot.file)!;
    const { line, column } = position(lineStarts(text), spot.start);
    const rename = spot.rename;
    const renamedTo = rename !== undefined ? `${rename.local}_ag_${hex}` : undefined;
    return {
      file: spot.file,
      line,
      column,
      start: spot.start,
      end: spot.end,
      operator: rename !== undefined ? 'CanaryRename' : 'Canary',
      rank: 0,
      original: rename !== undefined ? rename.local : shorten(text.slice(spot.start, spot.end)),
      replacement:
        rename !== undefined ? rename.template.split('\0').join(renamedTo!) : `${spot.prefix}"ag_${hex}"${spot.suffix}`,
      ...(renamedTo !== undefined ? { renamedTo } : {}),
      parses: true,
      ...(spot.coverLines !== undefined ? { coverLines: spot.coverLines } : {}),
      function: spot.function,
      canary: true,
    };
  });
  const judged = [...sites];
  for (const canary of canaries) judged.splice(Math.floor(next() * (judged.length + 1)), 0, canary);
  return { canaries, judged };
}

/** A canary as mutation.json records it. */
export function canaryRecord(site: Site, verdict: MutantVerdict): Canary {
  return {
    id: canaryId(site),
    file: site.file,
    line: site.line,
    column: site.column,
    function: site.function ?? null,
    original: site.original,
    // A renamed local is recorded as the new name, not the whole function it rewrites.
    replacement: site.renamedTo ?? shorten(site.replacement),
    ...judgedFields(verdict),
  };
}

/** How a canary is named in a message: where, in which function, and what was inserted. */
function canaryName(c: Canary): string {
  const what =
    c.original === ''
      ? `inserted ${JSON.stringify(c.replacement.trim())}`
      : c.replacement.startsWith(`${c.original}_ag_`)
        ? `local ${c.original} renamed ${c.replacement}`
        : `wrapped as ${c.replacement}`;
  return `${c.file}:${c.line}:${c.column}${c.function ? ` in ${c.function}()` : ''} (${what})`;
}

/**
 * What the canaries say: `killed` when one was killed or timed out (the reason is then
 * `canary_killed`; the canary records name it and its killer, as `baseline_runs` do for a red
 * baseline: no fault, the tools did their work); a CANARY_UNJUDGED fault for each one that
 * did not compile or load here (no evidence either way: the strength is unverified).
 */
export function judgeCanaries(records: readonly Canary[]): {
  killed: boolean;
  faults: { code: string; message: string }[];
} {
  const faults = records
    .filter((c) => c.status === 'stillborn')
    .map((c) => ({
      code: 'CANARY_UNJUDGED',
      message: `canary ${c.id} ${canaryName(c)} did not compile or load here, so it could not tell whether the tests read the source text; the strength is unverified`,
    }));
  return { killed: records.some((c) => c.status === 'killed' || c.status === 'timeout'), faults };
}

/** One line per canary that did not survive: which, how, and the test that failed on it. */
export function canaryKilledLine(c: Canary): string {
  const { verb, by } = failedOnIt(c);
  return `canary ${canaryName(c)} was ${verb}: ${by}; a behaviour-neutral edit, so the tests read the source text (String(fn), inspect.getsource, the file's bytes) or recognise a mutant run, and their kills prove nothing`;
}
