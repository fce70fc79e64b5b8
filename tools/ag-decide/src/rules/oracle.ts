/**
 * Rules over oracle.json: protected paths, fixtures, the freeze list, tampering.
 * @module
 */
import type { OracleArtefact, Reason } from '@adversary-gate/schemas';
import { listForMessage, reason } from '../reasons.js';

const where = (t: { path: string; line: number | null }) => (t.line === null ? t.path : `${t.path}:${t.line}`);

/** How a message names the findings of one kind, for the kinds a reviewer reads line by line. */
const LABELS: Readonly<Record<string, string>> = {
  expectation_changed: 'existing expectations edited with the source (review each)',
  placeholder_test: 'placeholder tests that cannot fail',
  runner_hook_added: 'test-runner plugins or hooks registered from test code',
  assertion_redefined: 'assertions redefined or stubbed',
};

/** The suspect findings: labelled groups with their lines (up to 10 each), then the other kinds one by one. */
function suspectMessage(suspect: OracleArtefact['tampering']): string {
  const parts: string[] = [];
  for (const [kind, label] of Object.entries(LABELS)) {
    const of = suspect.filter((t) => t.kind === kind);
    if (of.length > 0) parts.push(`${label}: ${listForMessage(of.map(where), 10)}`);
  }
  const rest = suspect.filter((t) => !Object.hasOwn(LABELS, t.kind));
  if (rest.length > 0) parts.push(listForMessage(rest.map((t) => `${t.kind} ${where(t)}`)));
  return parts.join('; ');
}

/** Every reason the oracle evidence gives. */
export function oracleReasons(o: OracleArtefact): Reason[] {
  const out: Reason[] = [];
  if (o.oracle_touched.length > 0) {
    out.push(
      reason(
        'ORACLE_TOUCHED',
        'oracle',
        `protected paths touched: ${listForMessage(o.oracle_touched.map((h) => `${h.path} (${h.pattern})`))}`,
      ),
    );
  }
  const drifted = o.fixtures.filter((f) => f.expected !== f.actual);
  if (drifted.length > 0) {
    const detail = drifted.map((f) => `${f.root} (+${f.added.length} -${f.removed.length} ~${f.changed.length})`);
    out.push(
      reason('FIXTURE_DRIFT', 'oracle', `fixture digest differs from the baseline's: ${listForMessage(detail)}`),
    );
  }
  const badFreeze = o.freeze.entries.filter((e) => e.status !== 'valid');
  if (badFreeze.length > 0) {
    const detail = badFreeze.map((e) => `#${e.index} ${e.nodeid ?? '(no nodeid)'}: ${e.status}`);
    out.push(reason('FREEZE_INVALID', 'oracle', `freeze list entries invalid: ${listForMessage(detail)}`));
  }
  if (o.freeze.frozen_only) {
    out.push(
      reason(
        'FROZEN_ONLY_COVERAGE',
        'oracle',
        `changed production files covered only by frozen tests: ${listForMessage(o.freeze.frozen_only_files)}`,
      ),
    );
  }
  const byKind = (kinds: readonly string[]) => o.tampering.filter((t) => kinds.includes(t.kind));
  const skips = byKind(['skip_added']);
  if (skips.length > 0)
    out.push(
      reason(
        'TEST_SKIPPED',
        'oracle',
        `skip/only/todo markers added to existing tests: ${listForMessage(skips.map(where))}`,
      ),
    );
  const deleted = byKind(['test_file_deleted']);
  if (deleted.length > 0)
    out.push(reason('TEST_LOST', 'oracle', `test files deleted: ${listForMessage(deleted.map(where))}`));
  const retired = byKind(['test_file_retired']);
  if (retired.length > 0)
    out.push(
      reason(
        'TEST_RETIRED',
        'oracle',
        `test files deleted with the code they test (a reviewer confirms that code is gone, not moved): ${listForMessage(retired.map((t) => `${t.path}: ${t.detail}`))}`,
      ),
    );
  // every other kind holds, including kinds added later: a finding is never dropped
  const handled = ['skip_added', 'test_file_deleted', 'test_file_retired'];
  const suspect = o.tampering.filter((t) => !handled.includes(t.kind));
  if (suspect.length > 0)
    out.push(reason('TAMPER_SUSPECTED', 'oracle', `test tampering suspected: ${suspectMessage(suspect)}`));
  return out;
}
