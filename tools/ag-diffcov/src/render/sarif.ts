/**
 * The diffcov artefact as SARIF 2.1.0 for code scanning: one result per uncovered range of
 * changed lines, one per coverage pragma added, and, where coverage was not measured (no
 * report, a caller's ratio, a fault), one warning per changed source file and a notification,
 * so that an unmeasured patch never looks clean. URIs are percent-encoded, every result has a
 * partial fingerprint, every rule its help.
 * @module
 */
import { createHash } from 'node:crypto';
import { formatRange, rangeCount, type InclusiveRange } from '@adversary-gate/core';
import type { DiffcovArtefact } from '@adversary-gate/schemas';
import { NOT_MEASURED, PRAGMA, RULES, UNCOVERED, type RuleId } from './sarif-rules.js';

/** The key of our own partial fingerprint (code scanning adds its own line hash beside it). */
export const FINGERPRINT_KEY = 'adversaryGate/v1';

type Json = Record<string, unknown>;

/** A repository path as a relative URI reference: each segment percent-encoded (spaces, non-ASCII, `#`, `?`, `:`…). */
export function pathToUri(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

function result(
  ruleId: RuleId,
  path: string,
  [startLine, endLine]: readonly [number, number],
  text: string,
  identity: string,
): Json {
  return {
    ruleId,
    ruleIndex: RULES.findIndex((r) => r.id === ruleId),
    level: 'warning',
    message: { text },
    locations: [
      {
        physicalLocation: {
          artifactLocation: { uri: pathToUri(path), uriBaseId: '%SRCROOT%' },
          region: { startLine, endLine },
        },
      },
    ],
    partialFingerprints: {
      [FINGERPRINT_KEY]: createHash('sha256').update(`${ruleId}\0${path}\0${identity}`).digest('hex'),
    },
  };
}

const where = (r: readonly [number, number]) => (r[0] === r[1] ? `line ${r[0]}` : `lines ${formatRange(r)}`);

/** Why coverage was not measured, or null when it was (a computed figure with no fault). */
function notMeasuredWhy(d: DiffcovArtefact): string | null {
  if (d.diff_coverage_source === 'none') return 'no coverage report was read';
  if (d.diff_coverage_source === 'untrusted')
    return 'the coverage ratio was asserted by the caller, not measured from a report';
  if (d.faults.length > 0)
    return `the measurement has faults (${[...new Set(d.faults.map((f) => f.code))].join(', ')})`;
  return null;
}

/** The first changed line of a measured file (its ranges cover its added lines). */
function firstRange(ranges: readonly (readonly InclusiveRange[])[]): InclusiveRange | null {
  let first: InclusiveRange | null = null;
  for (const list of ranges) for (const r of list) if (first === null || r[0] < first[0]) first = r;
  return first;
}

/** One warning per changed source file whose coverage is unknown, at its first changed range. */
function notMeasuredResults(d: DiffcovArtefact, why: string): Json[] {
  const files: { path: string; first: InclusiveRange | null; count: number }[] =
    d.diff_coverage_source === 'computed'
      ? d.files.map((f) => ({
          path: f.path,
          first: firstRange([f.covered, f.uncovered, f.non_executable]),
          count: rangeCount([...f.covered, ...f.uncovered, ...f.non_executable]),
        }))
      : (d.unmeasured_files ?? []).map((f) => ({
          path: f.path,
          first: f.added[0] ?? null,
          count: rangeCount(f.added),
        }));
  return files.flatMap((f) =>
    f.first === null
      ? []
      : [
          result(
            NOT_MEASURED,
            f.path,
            f.first,
            `Coverage of this file's ${f.count} changed line(s) was not measured: ${why}. The gate holds; this is not a clean result.`,
            'file',
          ),
        ],
  );
}

/** Build the SARIF log (a plain object, ready for JSON). */
export function renderSarif(d: DiffcovArtefact, tool: { name: string; version: string }): Json {
  const results: Json[] = [];
  for (const f of d.files) {
    const why = f.in_report ? 'the tests did not execute it' : 'the file is absent from every coverage report';
    for (const r of f.uncovered)
      results.push(result(UNCOVERED, f.path, r, `Changed ${where(r)} not covered: ${why}.`, formatRange(r)));
  }
  const seen = new Map<string, number>();
  for (const p of d.pragmas) {
    // the same pragma text twice in a file: told apart by its occurrence, not by its line (which moves)
    const key = `${p.path}\0${p.text}`;
    const k = seen.get(key) ?? 0;
    seen.set(key, k + 1);
    results.push(
      result(PRAGMA, p.path, [p.line, p.line], `Coverage pragma added on a changed line: ${p.text}`, `${p.text}\0${k}`),
    );
  }
  const why = notMeasuredWhy(d);
  const notifications: Json[] = [];
  if (why !== null) {
    results.push(...notMeasuredResults(d, why));
    const id = RULES.findIndex((r) => r.id === NOT_MEASURED);
    notifications.push({
      level: 'warning',
      message: { text: `Diff coverage was not measured: ${why}.` },
      associatedRule: { id: NOT_MEASURED, index: id },
    });
    for (const f of d.faults)
      notifications.push({
        level: 'warning',
        message: { text: `${f.code}: ${f.message}` },
        associatedRule: { id: NOT_MEASURED, index: id },
      });
  }
  return {
    $schema: 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: tool.name,
            version: tool.version,
            informationUri: 'https://adversary-gate.dev',
            rules: RULES,
          },
        },
        invocations: [{ executionSuccessful: true, toolExecutionNotifications: notifications }],
        results,
      },
    ],
  };
}
