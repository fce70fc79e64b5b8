/**
 * Rules over oracle.json: protected paths, fixtures, the freeze list, tampering.
 * @module
 */
import type { OracleArtefact, Reason } from '@adversary-gate/schemas';
import { listForMessage, reason } from '../reasons.js';

const where = (t: { path: string; line: number | null }) => (t.line === null ? t.path : `${t.path}:${t.line}`);

/** Every reason the oracle evidence gives. */
export function oracleReasons(o: OracleArtefact): Reason[] {
  const out: Reason[] = [];
  if (o.oracle_touched.length > 0) {
    out.push(reason('ORACLE_TOUCHED', 'oracle', `protected paths touched: ${listForMessage(o.oracle_touched.map((h) => `${h.path} (${h.pattern})`))}`));
  }
  const drifted = o.fixtures.filter((f) => f.expected !== f.actual);
  if (drifted.length > 0) {
    const detail = drifted.map((f) => `${f.root} (+${f.added.length} -${f.removed.length} ~${f.changed.length})`);
    out.push(reason('FIXTURE_DRIFT', 'oracle', `fixture digest differs from the baseline's: ${listForMessage(detail)}`));
  }
  const badFreeze = o.freeze.entries.filter((e) => e.status !== 'valid');
  if (badFreeze.length > 0) {
    const detail = badFreeze.map((e) => `#${e.index} ${e.nodeid ?? '(no nodeid)'}: ${e.status}`);
    out.push(reason('FREEZE_INVALID', 'oracle', `freeze list entries invalid: ${listForMessage(detail)}`));
  }
  if (o.freeze.frozen_only) {
    out.push(reason('FROZEN_ONLY_COVERAGE', 'oracle', `changed production files covered only by frozen tests: ${listForMessage(o.freeze.frozen_only_files)}`));
  }
  const byKind = (kinds: readonly string[]) => o.tampering.filter((t) => kinds.includes(t.kind));
  const skips = byKind(['skip_added']);
  if (skips.length > 0) out.push(reason('TEST_SKIPPED', 'oracle', `skip/only/todo markers added to existing tests: ${listForMessage(skips.map(where))}`));
  const deleted = byKind(['test_file_deleted']);
  if (deleted.length > 0) out.push(reason('TEST_LOST', 'oracle', `test files deleted: ${listForMessage(deleted.map(where))}`));
  const suspect = byKind(['skip_added_new_file', 'assertion_removed', 'test_file_renamed', 'runner_config_changed', 'always_equal']);
  if (suspect.length > 0) {
    out.push(reason('TAMPER_SUSPECTED', 'oracle', `test tampering suspected: ${listForMessage(suspect.map((t) => `${t.kind} ${where(t)}`))}`));
  }
  return out;
}
