/**
 * The decision: evidence in, verdict out. Pure: no I/O, no clock.
 * @module
 */
import { makeClassifier, type DiffModel } from '@adversary-gate/core';
import {
  EVIDENCE_KINDS,
  type EvidenceKind,
  type MutationArtefact,
  type Reason,
  type RunArtefact,
  type DiffcovArtefact,
  type OracleArtefact,
  type VerdictArtefact,
} from '@adversary-gate/schemas';
import { sourceAddedLines } from './consistency/changed-lines.js';
import { diffcovProblem } from './consistency/diffcov.js';
import { mutationProblem } from './consistency/mutation.js';
import { oracleProblem } from './consistency/oracle.js';
import { runProblem } from './consistency/run.js';
import { treeProblem, type ExpectedTrees } from './consistency/trees.js';
import type { EvidenceFile } from './evidence.js';
import type { LoadedPolicy } from './policy.js';
import { reason, sortReasons, verdictOf } from './reasons.js';
import { diffcovReasons } from './rules/diffcov.js';
import { mutationReasons } from './rules/mutation.js';
import { footprintReasons } from './rules/footprint.js';
import { equalityReasons } from './rules/equality.js';
import { oracleReasons } from './rules/oracle.js';
import { interpreterNotes, perturbedNote, runReasons } from './rules/run.js';
import { revertReasons } from './rules/reverts.js';
import { importedTestReasons } from './rules/imported-tests.js';

/** Everything a decision needs. */
export interface DecideInput {
  readonly diff: { readonly file: string; readonly sha256: string; readonly model: DiffModel };
  readonly evidence: readonly EvidenceFile[];
  readonly policy: LoadedPolicy;
  readonly tool: { readonly name: string; readonly version: string };
  /** The trees the evidence must have measured, as the trusted side names them. */
  readonly trees?: ExpectedTrees;
  /** Steps the pipeline could not do (an install, finding the runner), as it names them: each holds. */
  readonly pipelineFaults?: readonly string[];
}

type Accepted = { run?: RunArtefact; diffcov?: DiffcovArtefact; mutation?: MutationArtefact; oracle?: OracleArtefact };

const isEvidenceKind = (k: string): k is EvidenceKind => (EVIDENCE_KINDS as readonly string[]).includes(k);

/** Decide. Every reason that applies is listed; the verdict is the strongest. */
export function decide(input: DecideInput): VerdictArtefact {
  const { diff, policy } = input;
  const reasons: Reason[] = [];
  const disabled: string[] = [];
  const notes: string[] = [];
  const refs: VerdictArtefact['evidence'] = [];
  const accepted: Accepted = {};
  const classify = makeClassifier(policy.policy.files);
  const sourceLines = sourceAddedLines(diff.model, classify);
  const addedLines = new Map<string, ReadonlySet<number>>();
  for (const f of diff.model.files)
    addedLines.set(f.path, new Set([...(addedLines.get(f.path) ?? []), ...f.addedLines]));
  const seenKinds = new Set<EvidenceKind>();

  for (const fault of input.pipelineFaults ?? [])
    reasons.push(reason('PIPELINE_FAULT', 'input', `the pipeline: ${fault}`));
  if (policy.problem !== null)
    reasons.push(reason('EVIDENCE_INVALID', 'policy', `policy unreadable, defaults applied: ${policy.problem}`));

  for (const file of input.evidence) {
    const ref = (kind: EvidenceKind | null, status: VerdictArtefact['evidence'][number]['status']) =>
      refs.push({
        kind,
        path: file.path,
        sha256: file.sha256 as VerdictArtefact['evidence'][number]['sha256'],
        status,
      });
    if (file.loaded === null) {
      const missing = file.error?.code === 'E_EVIDENCE_MISSING';
      reasons.push(
        reason(
          missing ? 'EVIDENCE_MISSING' : 'EVIDENCE_INVALID',
          'input',
          file.error?.message ?? `${file.path}: unreadable`,
        ),
      );
      ref(null, missing ? 'missing' : 'invalid');
      continue;
    }
    const { kind, value } = file.loaded;
    if (!isEvidenceKind(kind)) {
      reasons.push(reason('EVIDENCE_INVALID', 'input', `${file.path}: a ${kind} artefact is not evidence`));
      ref(null, 'invalid');
      continue;
    }
    seenKinds.add(kind);
    if (value.subject.diff_sha256 !== diff.sha256) {
      reasons.push(
        reason('EVIDENCE_STALE', kind, `${file.path}: bound to diff ${value.subject.diff_sha256}, not ${diff.sha256}`),
      );
      ref(kind, 'stale');
      continue;
    }
    const wrongTree = treeProblem(kind, value.subject, input.trees ?? {});
    if (wrongTree !== null) {
      reasons.push(reason('EVIDENCE_STALE', kind, `${file.path}: ${wrongTree}`));
      ref(kind, 'stale');
      continue;
    }
    if (accepted[kind] !== undefined) {
      reasons.push(reason('EVIDENCE_INVALID', kind, `${file.path}: a second ${kind} artefact; give exactly one`));
      ref(kind, 'invalid');
      continue;
    }
    const diffInput = value.inputs.some((i) => i.role === 'diff' && i.sha256 === value.subject.diff_sha256);
    const problem = !diffInput
      ? 'inputs do not list the diff with the subject digest'
      : kind === 'run'
        ? runProblem(value as RunArtefact)
        : kind === 'diffcov'
          ? diffcovProblem(value as DiffcovArtefact, sourceLines)
          : kind === 'mutation'
            ? mutationProblem(value as MutationArtefact, sourceLines, addedLines)
            : oracleProblem(value as OracleArtefact);
    if (problem !== null) {
      reasons.push(reason('EVIDENCE_INVALID', kind, `${file.path}: inconsistent: ${problem}`));
      ref(kind, 'invalid');
      continue;
    }
    (accepted as Record<string, unknown>)[kind] = value;
    ref(kind, 'read');
    for (const fault of value.faults)
      reasons.push(reason('PIPELINE_FAULT', kind, `${value.tool.name}: ${fault.code}: ${fault.message}`));
  }

  for (const kind of EVIDENCE_KINDS) {
    const required = policy.policy.require.includes(kind);
    if (!required) disabled.push(`${kind}: not required by the policy`);
    if (required && accepted[kind] === undefined && !seenKinds.has(kind)) {
      reasons.push(reason('EVIDENCE_MISSING', kind, `no ${kind} evidence was given`));
    } else if (required && accepted[kind] === undefined && !reasons.some((r) => r.evidence === kind)) {
      reasons.push(reason('EVIDENCE_MISSING', kind, `no readable ${kind} evidence`));
    }
  }

  let coverage = { value: null as number | null, source: 'missing' };
  let strength = { value: null as number | null, source: 'missing' };
  if (accepted.run) {
    reasons.push(...runReasons(accepted.run, accepted.oracle?.retitled_tests ?? []));
    const perturbed = perturbedNote(accepted.run);
    if (perturbed !== null) disabled.push(perturbed);
    notes.push(...interpreterNotes(accepted.run));
  }
  if (accepted.diffcov) {
    const r = diffcovReasons(accepted.diffcov, policy.policy);
    reasons.push(...r.reasons);
    disabled.push(...r.disabled);
    coverage = r.measurement;
  }
  if (accepted.mutation) {
    const r = mutationReasons(accepted.mutation, policy.policy, accepted.diffcov);
    reasons.push(...r.reasons);
    disabled.push(...r.disabled);
    strength = r.measurement;
    reasons.push(...footprintReasons(accepted.mutation));
    reasons.push(...equalityReasons(accepted.mutation));
    // The test files the patch added lines to: it claims to pin a behaviour.
    const testsChanged = diff.model.files
      .filter((f) => f.status !== 'deleted' && f.addedLines.length > 0 && classify(f.path) === 'test')
      .map((f) => f.path)
      .sort();
    reasons.push(...revertReasons(accepted.mutation, policy.policy, testsChanged));
  }
  if (accepted.oracle) {
    reasons.push(...oracleReasons(accepted.oracle));
    reasons.push(...importedTestReasons(diff.model, accepted.oracle, accepted.diffcov, accepted.mutation));
    if (policy.ref.sha256 !== null && accepted.oracle.policy.sha256 !== policy.ref.sha256) {
      reasons.push(
        reason(
          'EVIDENCE_STALE',
          'oracle',
          `the oracle applied policy ${accepted.oracle.policy.sha256}, not ${policy.ref.sha256}`,
        ),
      );
    }
  }

  const sorted = sortReasons(reasons);
  const inputs: VerdictArtefact['inputs'] = [
    { role: 'diff', path: diff.file, sha256: diff.sha256 as `sha256:${string}` },
  ];
  if (policy.ref.sha256 !== null && policy.ref.path !== null)
    inputs.push({ role: 'policy', path: policy.ref.path, sha256: policy.ref.sha256 });
  for (const r of refs) if (r.sha256 !== null) inputs.push({ role: 'evidence', path: r.path, sha256: r.sha256 });
  return {
    schema: 'adversary-gate/verdict',
    schema_version: 1,
    tool: { name: input.tool.name, version: input.tool.version },
    subject: {
      diff_sha256: diff.sha256 as `sha256:${string}`,
      ...(input.trees?.baseline === undefined ? {} : { baseline_tree: input.trees.baseline }),
      ...(input.trees?.patch === undefined ? {} : { patch_tree: input.trees.patch }),
    },
    inputs,
    faults: [],
    verdict: verdictOf(sorted),
    reasons: sorted,
    floors: { diff_coverage: policy.policy.floors.diff_coverage, suite_strength: policy.policy.floors.suite_strength },
    measurements: { diff_coverage: coverage, suite_strength: strength },
    evidence: refs,
    disabled: [...new Set(disabled)].sort(),
    ...(notes.length > 0 ? { notes } : {}),
    policy: policy.ref,
  };
}
