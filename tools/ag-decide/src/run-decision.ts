/**
 * One decision end to end: read inputs, decide, write the verdict (and markdown, log).
 * @module
 */
import { readDiff } from '@adversary-gate/core';
import { writeArtefact, writeAtomic, type VerdictArtefact } from '@adversary-gate/schemas';
import { decide } from './decide.js';
import { readEvidenceFiles } from './evidence.js';
import { renderAnnotations } from './annotations.js';
import { acceptedEvidence, findings } from './details.js';
import { appendLog, logRecord } from './log.js';
import { renderMarkdown } from './markdown.js';
import { loadPolicy } from './policy.js';

/** What the CLI passes in. */
export interface DecisionOptions {
  readonly diff: string;
  readonly evidence: readonly string[];
  readonly policy?: string;
  readonly out: string;
  readonly markdown?: string;
  /** Print GitHub workflow commands (`::error file=…::`) for each finding on stdout. */
  readonly annotations?: boolean;
  readonly log?: { readonly file: string; readonly model: string };
  readonly tool: { readonly name: string; readonly version: string };
  /** The trees the evidence must have measured (git tree ids), as the trusted side names them. */
  readonly trees?: { readonly baseline?: string | undefined; readonly patch?: string | undefined };
  /** Steps the pipeline could not do, one line each (`--pipeline-fault`). */
  readonly pipelineFaults?: readonly string[];
}

/** Exit code of a verdict: ACCEPT 0, REJECT 1, HOLD 2. */
export function exitCodeOf(verdict: VerdictArtefact['verdict']): 0 | 1 | 2 {
  return verdict === 'ACCEPT' ? 0 : verdict === 'REJECT' ? 1 : 2;
}

/** Decide and write; returns the verdict. A diff that cannot be read throws (exit 3). */
export async function runDecision(opts: DecisionOptions): Promise<VerdictArtefact> {
  const diff = await readDiff(opts.diff);
  const [evidence, policy] = await Promise.all([readEvidenceFiles(opts.evidence), loadPolicy(opts.policy)]);
  const trees = {
    ...(opts.trees?.baseline === undefined ? {} : { baseline: opts.trees.baseline }),
    ...(opts.trees?.patch === undefined ? {} : { patch: opts.trees.patch }),
  };
  const verdict = decide({ diff, evidence, policy, tool: opts.tool, trees, pipelineFaults: opts.pipelineFaults ?? [] });
  // Validated against the verdict schema before it is written: a verdict the contract refuses is a bug, never a verdict.
  const text = await writeArtefact(opts.out, verdict);
  const accepted = acceptedEvidence(verdict, evidence);
  if (opts.markdown !== undefined) await writeAtomic(opts.markdown, renderMarkdown(verdict, accepted));
  if (opts.annotations === true) process.stdout.write(renderAnnotations(verdict, findings(accepted)));
  if (opts.log !== undefined)
    await appendLog(opts.log.file, logRecord(verdict, text, opts.log.model, accepted.run ?? null));
  return verdict;
}
