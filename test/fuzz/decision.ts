/**
 * The decision over fuzzed evidence: one evidence file (or the policy) of an ACCEPT set is
 * mutated, the rest stay as they were. ag-decide must never throw, and may ACCEPT only when
 * the mutated file, as plain JSON reads it, still shows everything an ACCEPT needs.
 * @module
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bindDiff } from '@adversary-gate/core';
import { decide, loadPolicy, readEvidenceFiles } from '@adversary-gate/ag-decide';
import { VerdictArtefact } from '@adversary-gate/schemas';
import { firstProblem, neverThrows, plainJson, schemaProblem } from './checks.js';
import type { ReaderSpec } from './harness.js';
import { EVIDENCE, seed, TOKENS } from './seeds.js';

type Json = Record<string, any>;

/** The diff the ACCEPT set is bound to. */
export const ACCEPT_DIFF = seed('accept/changes.diff');
const diff = bindDiff('changes.diff', ACCEPT_DIFF.bytes);

const empty = (x: unknown) => Array.isArray(x) && x.length === 0;

/**
 * Why an ACCEPT would claim more than this evidence shows (null when the evidence, read as
 * plain JSON, meets every requirement of its kind under the seed policy).
 */
export function acceptUnwarranted(
  kind: string,
  doc: unknown,
  floors = { diff_coverage: 0.8, suite_strength: 0.75 },
): string | null {
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return `${kind}: not a JSON object`;
  const a = doc as Json;
  if (a.schema !== `adversary-gate/${kind}` || a.schema_version !== 1)
    return `${kind}: schema ${JSON.stringify(a.schema)} version ${JSON.stringify(a.schema_version)}`;
  if (a.subject?.diff_sha256 !== diff.sha256) return `${kind}: bound to another diff`;
  if (!empty(a.faults)) return `${kind}: faults recorded`;
  switch (kind) {
    case 'run': {
      const claims = a.claims as Json[];
      if (!Array.isArray(claims) || claims.length === 0) return 'run: no claim';
      const bad = claims.find(
        (c) =>
          c.status !== 'VERIFIED' ||
          !Array.isArray(c.patch) ||
          c.patch.length !== a.rounds ||
          !c.patch.every((e: Json) => e.outcome === 'PASS'),
      );
      if (bad) return `run: claim ${bad.id} is not VERIFIED in every round`;
      if (a.full_suite?.patch !== null && a.full_suite?.patch?.outcome !== 'PASS')
        return 'run: the full suite did not pass on the patch';
      if (a.full_suite?.baseline !== null && a.full_suite?.baseline?.outcome !== 'PASS')
        return 'run: the full suite was red on the baseline';
      const d = a.test_deltas as Json | null;
      if (d === null || !empty(d.tests_lost) || !empty(d.tests_newly_skipped) || !empty(d.tests_pass_to_fail))
        return 'run: test deltas missing or not empty';
      if (!Array.isArray(a.criteria) || a.criteria.some((c: Json) => c.proven !== true))
        return 'run: a criterion not proven';
      return null;
    }
    case 'diffcov': {
      if (a.diff_coverage_source !== 'computed') return `diffcov: source ${a.diff_coverage_source}`;
      if (!empty(a.pragmas)) return 'diffcov: coverage pragmas added';
      const { measured, covered } = a.totals ?? {};
      if (a.diff_coverage_ratio === null)
        return a.reason === 'no_executable_changed_lines' && measured === 0 ? null : 'diffcov: ratio null';
      if (!(a.diff_coverage_ratio >= floors.diff_coverage))
        return `diffcov: ratio ${a.diff_coverage_ratio} below the floor`;
      if (measured === 0 || a.diff_coverage_ratio !== covered / measured)
        return 'diffcov: ratio does not follow from the totals';
      return null;
    }
    case 'mutation': {
      if (a.suite_strength_unverified !== false) return 'mutation: strength unverified';
      if (a.shard !== null) return 'mutation: an unmerged shard';
      if (a.suite_strength === null)
        return ['no_source_changed', 'budget_zero'].includes(a.reason) ? null : `mutation: strength null (${a.reason})`;
      if (!(a.suite_strength >= floors.suite_strength)) return `mutation: strength ${a.suite_strength} below the floor`;
      const c = a.counts ?? {};
      const judged = c.killed + c.timeout + c.survived + c.no_coverage;
      if (judged === 0 || a.suite_strength !== (c.killed + c.timeout) / judged)
        return 'mutation: strength does not follow from the counts';
      return null;
    }
    case 'oracle': {
      if (!empty(a.oracle_touched) || !empty(a.tampering)) return 'oracle: protected paths touched or tampering seen';
      if (!Array.isArray(a.fixtures) || a.fixtures.some((f: Json) => f.expected !== f.actual))
        return 'oracle: fixture drift';
      if (a.freeze?.frozen_only !== false || (a.freeze?.entries ?? []).some((e: Json) => e.status !== 'valid'))
        return 'oracle: freeze list problems';
      return null;
    }
    default:
      return `${kind}: not evidence`;
  }
}

let intactDir: Promise<string> | null = null;

/** A directory holding the unmutated ACCEPT set (written once per process). */
function intact(): Promise<string> {
  intactDir ??= (async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ag-fuzz-accept-'));
    for (const f of [...EVIDENCE.map((k) => `${k}.json`), 'adversary-gate.json'])
      await fs.writeFile(path.join(dir, f), seed(`accept/${f}`).bytes);
    return dir;
  })();
  return intactDir;
}

/** Remove the unmutated ACCEPT set (call once, at the end). */
export async function removeIntact(): Promise<void> {
  if (intactDir !== null) await fs.rm(await intactDir, { recursive: true, force: true });
  intactDir = null;
}

function decisionReader(kind: (typeof EVIDENCE)[number] | 'policy', runs: number): ReaderSpec {
  const fileName = kind === 'policy' ? 'adversary-gate.json' : `${kind}.json`;
  return {
    name: `ag-decide on a fuzzed ${fileName}`,
    seeds: [seed(`accept/${fileName}`)],
    mutation: { json: true, tokens: TOKENS.json },
    runs,
    fileName,
    read: async (f) => {
      const dir = await intact();
      const evidence = EVIDENCE.map((k) => (k === kind ? f : path.join(dir, `${k}.json`)));
      const [files, policy] = await Promise.all([
        readEvidenceFiles(evidence),
        loadPolicy(kind === 'policy' ? f : path.join(dir, 'adversary-gate.json')),
      ]);
      return decide({ diff, evidence: files, policy, tool: { name: 'ag-decide', version: '0.0.0' } });
    },
    refusal: neverThrows,
    result: (value, _f, bytes) => {
      const verdict = value as VerdictArtefact;
      const p = schemaProblem(VerdictArtefact, verdict, 'verdict');
      if (p !== null || verdict.verdict !== 'ACCEPT') return p;
      const doc = plainJson(bytes);
      if (kind !== 'policy')
        return firstProblem(acceptUnwarranted(kind, doc) && `ACCEPT, but ${acceptUnwarranted(kind, doc)}`);
      const floors = (doc as Json | undefined)?.floors ?? {};
      const resolved = { diff_coverage: floors.diff_coverage ?? 0.8, suite_strength: floors.suite_strength ?? 0.75 };
      if (verdict.policy.sha256 === null) return 'ACCEPT under a policy it could not read';
      if (
        verdict.floors.diff_coverage !== resolved.diff_coverage ||
        verdict.floors.suite_strength !== resolved.suite_strength
      )
        return 'ACCEPT with floors other than the policy states';
      return null;
    },
  };
}

/** ag-decide over each fuzzed evidence kind and the policy. */
export const decisionReaders: ReaderSpec[] = [
  decisionReader('run', 120),
  decisionReader('diffcov', 120),
  decisionReader('mutation', 120),
  decisionReader('oracle', 120),
  decisionReader('policy', 120),
];
