/**
 * Invariants of oracle.json.
 * @module
 */
import type { OracleArtefact } from '@adversary-gate/schemas';

/** The first broken invariant, or null. */
export function oracleProblem(o: OracleArtefact): string | null {
  const fromFile = o.policy.path !== null && o.policy.sha256 !== null;
  const byDefault = o.policy.path === null && o.policy.sha256 === null;
  if ((o.policy.source ?? 'file') === 'file' ? !fromFile : !byDefault) {
    return `policy: source ${o.policy.source ?? '(unset: file)'} with ${o.policy.path === null ? 'no' : 'a'} path and ${o.policy.sha256 === null ? 'no' : 'a'} digest`;
  }
  for (const f of o.fixtures) {
    const listed = f.added.length + f.removed.length + f.changed.length > 0;
    if ((f.expected !== f.actual) !== listed) return `fixture ${f.root}: digests and listed differences disagree`;
  }
  for (const e of o.freeze.entries) {
    const complete = e.nodeid !== null && e.expires !== null && e.covers !== null;
    if (e.status === 'valid' && !complete) return `freeze entry #${e.index} is valid with a missing field`;
  }
  if (o.freeze.frozen_only && o.freeze.frozen_only_files.length === 0) return 'frozen_only is true with no file listed';
  return null;
}
