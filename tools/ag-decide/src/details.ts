/**
 * What a reviewer needs beyond the verdict: the accepted evidence's findings, gathered
 * from the artefacts ag-decide read (only those it accepted: fresh, valid, consistent).
 * @module
 */
import type {
  DiffcovArtefact,
  MutationArtefact,
  OracleArtefact,
  RunArtefact,
  VerdictArtefact,
} from '@adversary-gate/schemas';
import type { EvidenceFile } from './evidence.js';

/** The accepted artefacts of one decision, by kind. */
export interface AcceptedEvidence {
  readonly run?: RunArtefact;
  readonly diffcov?: DiffcovArtefact;
  readonly mutation?: MutationArtefact;
  readonly oracle?: OracleArtefact;
}

/** Pick the artefacts the verdict lists as read (never a stale, invalid or duplicate one). */
export function acceptedEvidence(verdict: VerdictArtefact, files: readonly EvidenceFile[]): AcceptedEvidence {
  const out: Record<string, unknown> = {};
  for (const ref of verdict.evidence) {
    if (ref.status !== 'read' || ref.kind === null) continue;
    const file = files.find((f) => f.path === ref.path && f.sha256 === ref.sha256);
    if (file?.loaded) out[ref.kind] = file.loaded.value;
  }
  return out as AcceptedEvidence;
}

/** One place in the code a reviewer should look at. */
export interface Finding {
  readonly level: 'error' | 'warning';
  readonly file: string;
  readonly line: number | null;
  readonly endLine: number | null;
  readonly title: string;
  readonly message: string;
}

/** Every located finding: uncovered ranges, surviving mutants, tampering, protected paths. */
export function findings(e: AcceptedEvidence): Finding[] {
  const out: Finding[] = [];
  for (const f of e.diffcov?.files ?? []) {
    for (const [a, b] of f.uncovered) {
      out.push({
        level: 'warning',
        file: f.path,
        line: a,
        endLine: b,
        title: 'Changed lines not executed',
        message: `lines ${a === b ? a : `${a}-${b}`} were added by the patch and no test executed them`,
      });
    }
  }
  for (const p of e.diffcov?.pragmas ?? []) {
    out.push({
      level: 'error',
      file: p.path,
      line: p.line,
      endLine: p.line,
      title: 'Coverage pragma added',
      message: `the patch adds a coverage-suppression pragma: ${p.text.trim()}`,
    });
  }
  for (const m of e.mutation?.mutants ?? []) {
    if (m.status === 'equivalent') {
      out.push({
        level: 'warning',
        file: m.file,
        line: m.line,
        endLine: m.line,
        title: 'Mutant probably equivalent',
        message: `${m.operator}: \`${m.original}\` → \`${m.replacement}\` left every test passing and is not counted: ${m.equivalence?.note ?? ''}`,
      });
      continue;
    }
    if (m.status !== 'survived' && m.status !== 'no_coverage') continue;
    const why = m.status === 'survived' ? 'no test failed' : 'no test executed it';
    out.push({
      level: 'warning',
      file: m.file,
      line: m.line,
      endLine: m.line,
      title: 'Mutant survived',
      message: `${m.operator}: \`${m.original}\` → \`${m.replacement}\` and ${why}`,
    });
  }
  for (const h of e.oracle?.oracle_touched ?? []) {
    out.push({
      level: 'error',
      file: h.path,
      line: null,
      endLine: null,
      title: 'Protected path touched',
      message: `matches the protected pattern ${h.pattern}`,
    });
  }
  for (const t of e.oracle?.tampering ?? []) {
    out.push({
      level: t.kind === 'skip_added' || t.kind === 'test_file_deleted' ? 'error' : 'warning',
      file: t.path,
      line: t.line,
      endLine: t.line,
      title: `Test tampering: ${t.kind}`,
      message: t.detail,
    });
  }
  return out;
}
