/**
 * The perturbed pair: code that behaves right only under the gate, or only now. Wherever the
 * trusted run is made on the baseline tree (the patch changes a file that is not a test), the
 * full suite runs twice more, once on a copy of the baseline tree and once on the trusted tree,
 * both under one environment that differs from every other execution's:
 *
 * - the clock moved forward by 100–200 days (libfaketime through `LD_PRELOAD` and `FAKETIME`;
 *   the month always differs, the year often), the number taken from the diff's digest: one
 *   patch always gets the same shift (the evidence stays byte-identical), and no one shift is
 *   the gate's that a table could be written for;
 * - another time zone with an unusual offset (`TZ=Pacific/Chatham`, UTC+12:45/+13:45);
 * - another UTF-8 locale (`LANG`, `LC_ALL`) where one is installed;
 * - `CI` flipped (removed where the other executions get a true value, `true` elsewhere);
 * - the gate's own variable `AG_SEED` removed (when `--seed` set it).
 *
 * What cannot be perturbed is said in the evidence (`note`), never silently left as it is. A
 * baseline test that passes in the perturbed baseline execution, passed in the trusted
 * execution and on every baseline execution, and does not pass in the perturbed trusted
 * execution, is named. When the perturbed baseline execution does not run to a verdict, the
 * suite cannot run under that environment at all: nothing is concluded, and the evidence says
 * the pair was not measured.
 * @module
 */
import { existsSync } from 'node:fs';
import type { Execution, PerturbedPair, TrustedTests } from '@adversary-gate/schemas';
import type { ExecutionPlan } from './execute.js';
import { CLOCK_VARIABLE, FAKETIME_LIBRARIES, faketimeVars, output, probeFaketime } from './faketime.js';
import { measured } from './per-test.js';
import { trustedFailures } from './trusted.js';

/** One variable changed over the other executions' environment: set to `value`, or removed (null). */
export type PerturbedVar = PerturbedPair['env'][number];

/** The perturbed environment, as planned. */
export interface Perturbation {
  /** Sorted by name. */
  readonly env: readonly PerturbedVar[];
  /** Days the clock is moved forward, or null when it is not. */
  readonly clockShiftDays: number | null;
  /** What could not be perturbed, and why. */
  readonly notes: readonly string[];
}

/** What the host offers the perturbation. */
export interface HostFacts {
  /** libfaketime's path when it is installed and moved the clock of a probe, else why not. */
  readonly faketime: { readonly path: string } | { readonly problem: string };
  /** True when the system's tzdata has {@link ZONE} (libc reads it; ICU has its own copy). */
  readonly zone: boolean;
  /** An installed UTF-8 locale other than C's, or null. */
  readonly locale: string | null;
}

/** A zone with an offset no developer's machine and no runner has by accident (UTC+12:45, +13:45 in its summer). */
export const ZONE = 'Pacific/Chatham';

/** The same offset as a POSIX rule, which libc reads without tzdata (no daylight saving). */
const ZONE_RULE = '<+1245>-12:45';

/** Locales preferred when installed: their case mapping, decimal comma and date order differ most from C's. */
const PREFERRED_LOCALES = ['tr_TR', 'de_DE', 'fr_FR', 'ja_JP', 'ar_EG'];

/** Days the clock moves: 100–200, from the diff's digest. Any shift of 100–200 days changes the month. */
export function shiftDays(diffSha256: string): number {
  const hex = diffSha256.replace(/^sha256:/, '').slice(0, 8);
  const n = Number.parseInt(hex, 16);
  return 100 + (Number.isFinite(n) ? n % 101 : 0);
}

/** A UTF-8 locale of `locale -a`'s output other than C's and POSIX, the preferred ones first; null when none. */
export function pickLocale(listing: string): string | null {
  const utf8 = listing
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => /\.utf-?8$/i.test(l) && !/^(C|POSIX)\./i.test(l))
    .sort();
  for (const want of PREFERRED_LOCALES) {
    const found = utf8.find((l) => l.startsWith(`${want}.`));
    if (found !== undefined) return found;
  }
  return utf8[0] ?? null;
}

/**
 * Look at what the host offers: libfaketime (and whether it moves the clock of `date` by
 * `days`), the zone in tzdata, an installed UTF-8 locale.
 */
export async function probeHost(days: number, libraries: readonly string[] = FAKETIME_LIBRARIES): Promise<HostFacts> {
  const [faketime, listing] = await Promise.all([
    probeFaketime(days, libraries),
    output('locale', ['-a'], { PATH: process.env.PATH }),
  ]);
  return {
    faketime,
    zone: existsSync(`/usr/share/zoneinfo/${ZONE}`),
    locale: listing === null ? null : pickLocale(listing),
  };
}

/** True for a CI value a runner reads as "under CI". */
function truthy(value: string | undefined): boolean {
  return value !== undefined && value !== '' && !/^(0|false|no|off)$/i.test(value);
}

/**
 * The perturbed environment for `days` of clock shift, given what the host offers, the CI value
 * the other executions get (`callerCI`), whether `AG_SEED` is set for them and whether they run
 * as fresh uids (the pair's executions are then uids of ag-core's other range: execute.ts).
 */
export function planPerturbation(
  host: HostFacts,
  opts: {
    readonly days: number;
    readonly callerCI: string | undefined;
    readonly seeded: boolean;
    readonly freshUids: boolean;
  },
): Perturbation {
  const set: Record<string, string | null> = {};
  const notes: string[] = [];
  let clockShiftDays: number | null = null;
  if ('path' in host.faketime) {
    Object.assign(set, faketimeVars(host.faketime.path, opts.days));
    clockShiftDays = opts.days;
  } else notes.push(`the clock was not moved: ${host.faketime.problem}`);
  if (host.zone) set.TZ = ZONE;
  else {
    set.TZ = ZONE_RULE;
    notes.push(`tzdata has no ${ZONE}: TZ is its offset as a POSIX rule, without daylight saving`);
  }
  if (host.locale !== null) {
    set.LANG = host.locale;
    set.LC_ALL = host.locale;
  } else notes.push('the locale was not changed: no UTF-8 locale other than C.UTF-8 is installed');
  set.CI = truthy(opts.callerCI) ? null : 'true';
  if (opts.seeded) set.AG_SEED = null;
  if (!opts.freshUids) notes.push('the uid was not changed: the executions run as the caller, not as fresh uids');
  const env = Object.entries(set)
    .map(([name, value]) => ({ name, value }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { env, clockShiftDays, notes };
}

/** `env` (every other execution's environment) with the perturbation applied, the clock's variables aside. */
export function perturbEnv(env: Readonly<Record<string, string>>, p: Perturbation): Record<string, string> {
  const out = { ...env };
  for (const v of p.env) {
    if (CLOCK_VARIABLE.test(v.name)) continue;
    if (v.value === null) delete out[v.name];
    else out[v.name] = v.value;
  }
  return out;
}

/** The executions the pair is judged against. */
export interface PerturbedRuns {
  /** The perturbed execution on the baseline tree, or null when it was not made. */
  readonly baseline: Execution | null;
  /** The perturbed execution on the trusted tree, or null when it was not made. */
  readonly execution: Execution | null;
  /** The (unperturbed) trusted execution, or null. */
  readonly trusted: Execution | null;
  /** Every (unperturbed) baseline execution of the full-suite command. */
  readonly baselineRuns: readonly Execution[];
  /** Tests left to other reasons: regressions, flaky tests, retired tests. */
  readonly leave: ReadonlySet<string>;
}

/**
 * The tests the pair names, and why nothing could be concluded (null when it could): a test
 * that passed in the perturbed baseline execution, the trusted execution and every baseline
 * execution, and does not pass in the perturbed trusted execution. A perturbed trusted
 * execution that did not run to a verdict where the perturbed baseline did names no test:
 * ag-decide reads that from the executions.
 */
export function judgePerturbed(r: PerturbedRuns): { failed: TrustedTests['failed']; notMeasured: string | null } {
  const none = (why: string) => ({
    failed: [],
    notMeasured: `not measured: ${why}; nothing is concluded from the pair`,
  });
  if (r.baseline === null || r.execution === null) return none('the perturbed executions were not made');
  if (!measured(r.baseline))
    return none(
      `the baseline's own suite did not run to a verdict under the perturbed environment (${r.baseline.outcome}, ${r.baseline.kind})`,
    );
  if (r.trusted === null || !measured(r.trusted))
    return none('the trusted execution did not run to a verdict, so no test passed there to compare with');
  if (!measured(r.execution)) return { failed: [], notMeasured: null };
  return {
    failed: trustedFailures([...r.baselineRuns, r.baseline, r.trusted], r.execution, r.leave),
    notMeasured: null,
  };
}

/** run.json's `trusted_tests.perturbed`. */
export function perturbedEvidence(p: Perturbation, r: PerturbedRuns): PerturbedPair {
  const judged = judgePerturbed(r);
  const notes = [...p.notes, ...(judged.notMeasured === null ? [] : [judged.notMeasured])];
  return {
    env: p.env.map((v) => ({ ...v })),
    clock_shift_days: p.clockShiftDays,
    baseline: r.baseline,
    execution: r.execution,
    failed: judged.failed,
    ...(notes.length > 0 ? { note: notes.join('; ') } : {}),
  };
}

/** The pair's plans: the full suite on the baseline tree, and as the trusted execution was planned, both perturbed. */
export function pairPlans(trusted: ExecutionPlan, baseline: string, p: Perturbation): ExecutionPlan[] {
  return [
    { command: trusted.command, runner: trusted.runner, side: 'baseline', round: 1, tree: baseline, perturbation: p },
    { ...trusted, perturbation: p },
  ];
}
