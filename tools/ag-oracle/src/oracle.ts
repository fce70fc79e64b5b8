/**
 * ag-oracle's measurement: did the patch touch what it must not? Compares the patch with
 * the trusted baseline under the baseline's policy and returns the oracle artefact.
 * @module
 */
import { promises as fs } from 'node:fs';
import picomatch from 'picomatch';
import * as v from 'valibot';
import {
  gitTreeId,
  InputError,
  isWithin,
  normaliseRepoPath,
  readDiff,
  sourceRenames,
  UsageError,
} from '@adversary-gate/core';
import { oracleClasses } from './classes.js';
import { OracleArtefact, SCHEMA_VERSION, sha256 } from '@adversary-gate/schemas';
import type { Fault } from './faults.js';
import { measureFixtures } from './fixtures/measure.js';
import { loadFreeze, type LoadedFreeze } from './freeze/load-freeze.js';
import { frozenOnlyCoverage } from './freeze/frozen-only.js';
import { loadPolicy } from './policy/load-policy.js';
import { findProtectedTouches, protectedPatterns } from './protect/protected.js';
import { findRetitled } from './tamper/retitled.js';
import { findTampering } from './tamper/tampering.js';
import { isRunnableTest, isSnapshot } from './tamper/test-files.js';
import { isRealDate } from './today.js';
import { diffTreeMismatch } from './tree/diff-matches-trees.js';
import { existsInTree, readTreeFile } from './tree/tree-files.js';

/** What one measurement needs. */
export interface OracleOptions {
  /** The unified diff (`-` for stdin). */
  readonly diff: string;
  /** The trusted baseline tree. */
  readonly baseline: string;
  /** The patched tree (hostile). */
  readonly patch: string;
  /** A policy file outside the patch tree; default `adversary-gate.json` at the baseline root. */
  readonly policy?: string | undefined;
  /** The date freeze entries are judged against, `YYYY-MM-DD`. */
  readonly today: string;
  readonly tool: { readonly name: string; readonly version: string };
}

/** The digest of zero bytes: the only diff allowed to name no file. */
const EMPTY_SHA256 = sha256('');

async function requireDirectory(dir: string, flag: string): Promise<string> {
  try {
    const st = await fs.stat(dir);
    if (!st.isDirectory()) throw new InputError(dir, `--${flag} is not a directory`);
    return await fs.realpath(dir);
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(
      dir,
      `--${flag} directory cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
}

function repoPath(policyFile: string | null, field: string, raw: string): string {
  const result = normaliseRepoPath(raw);
  if ('error' in result) throw new InputError(policyFile ?? 'the default policy', `${field}: ${result.error}`);
  return result.path;
}

/**
 * Measure the patch against the baseline and return the oracle artefact.
 * @throws UsageError | InputError | LoadError for arguments and inputs it cannot read
 */
export async function measureOracle(options: OracleOptions): Promise<OracleArtefact> {
  const [baseReal, patchReal] = await Promise.all([
    requireDirectory(options.baseline, 'baseline'),
    requireDirectory(options.patch, 'patch'),
  ]);
  if (baseReal === patchReal) throw new UsageError('--baseline and --patch are the same directory');
  if (isWithin(patchReal, baseReal))
    throw new UsageError('--baseline lies inside the --patch tree; the trusted side must be outside it');
  if (!isRealDate(options.today))
    throw new UsageError(`--today must be a real date as YYYY-MM-DD, got "${options.today}"`);
  const diff = await readDiff(options.diff);
  if (diff.model.files.length === 0 && diff.sha256 !== EMPTY_SHA256) {
    throw new InputError(options.diff, 'names no changed file: not a unified diff (an empty file is the empty patch)');
  }
  const policy = await loadPolicy(options);
  const { oracle, files: classes } = policy.policy;
  const fixtureRoots = oracle.fixtures.map((r) => repoPath(policy.path, 'oracle.fixtures', r));
  const freezeRel = oracle.freeze === null ? null : repoPath(policy.path, 'oracle.freeze', oracle.freeze);
  const freeze: LoadedFreeze | null =
    freezeRel === null ? null : await loadFreeze(options.baseline, freezeRel, options.today);

  const files = diff.model.files;
  const tree = (side: 'baseline' | 'patch') => (side === 'baseline' ? options.baseline : options.patch);
  const cls = oracleClasses(files, classes, options);
  const classify = cls.byName;
  const oracleTouched = findProtectedTouches(
    files,
    protectedPatterns(oracle.protected, freezeRel === null ? [] : [freezeRel]),
  );
  const fixtures = await measureFixtures(options.baseline, options.patch, fixtureRoots);
  const frozen = frozenOnlyCoverage(files, classify, freeze?.entries ?? []);
  const isGolden = picomatch([...oracle.golden], { dot: true });
  const isTestFile = (p: string) => classify(p) === 'test' || isRunnableTest(p);
  // The code's identifier renames, read once for the expectation scan and the reworded titles.
  const renames = sourceRenames(files, isTestFile);
  const tampering = await findTampering(files, {
    sourceChanged: cls.sourceChanged,
    importedBySource: cls.importedByBaseline,
    isRecordedExpectation: (p) => (isGolden(p) ? 'golden' : isSnapshot(p) ? 'snapshot' : null),
    isTestFile,
    isRunnableTest: cls.isRunnableTest,
    existsOnBaseline: (p) => existsInTree(options.baseline, p),
    read: (side, p) => readTreeFile(tree(side), p),
    renames,
  });
  const retitled = await findRetitled(files, isTestFile, (side, p) => readTreeFile(tree(side), p), renames);
  const faults: Fault[] = [
    ...fixtures.faults,
    ...(await diffTreeMismatch(files, (side, p) => existsInTree(tree(side), p))),
  ];

  const inputs: { role: string; path: string; sha256: string }[] = [
    { role: 'diff', path: diff.file, sha256: diff.sha256 },
  ];
  if (policy.path !== null && policy.sha256 !== null)
    inputs.push({ role: 'policy', path: policy.path, sha256: policy.sha256 });
  if (freeze !== null) inputs.push({ role: 'freeze', path: freeze.file, sha256: freeze.sha256 });

  const artefact = {
    schema: 'adversary-gate/oracle',
    schema_version: SCHEMA_VERSION,
    tool: { ...options.tool },
    subject: {
      diff_sha256: diff.sha256,
      // The trees as exported (the link to the installed packages a pipeline adds left out).
      baseline_tree: await gitTreeId(options.baseline, ['node_modules']),
      patch_tree: await gitTreeId(options.patch, ['node_modules']),
    },
    inputs,
    faults: faults.map((f) => ({ ...f })),
    policy: { source: policy.source, path: policy.path, sha256: policy.sha256 },
    oracle_touched: oracleTouched.map((h) => ({ ...h })),
    fixtures: fixtures.fixtures.map((f) => ({ ...f })),
    freeze: {
      path: freezeRel,
      today: options.today,
      entries: (freeze?.entries ?? []).map((e) => ({ ...e })),
      frozen_only_files: frozen.files,
      frozen_only: frozen.all,
    },
    tampering: tampering.map((t) => ({ ...t })),
    ...(cls.importedOnPatch.length > 0 ? { imported_tests: cls.importedOnPatch.map((p) => ({ ...p })) } : {}),
    ...(retitled.length > 0 ? { retitled_tests: retitled.map((r) => ({ ...r })) } : {}),
    ...(cls.loadedOnPatch.length > 0 ? { loaded_as_code: cls.loadedOnPatch.map((l) => ({ ...l })) } : {}),
  };
  const checked = v.safeParse(OracleArtefact, artefact);
  if (!checked.success) {
    const issue = checked.issues[0];
    throw new Error(
      `internal: the oracle artefact does not match its schema at ${(issue.path ?? []).map((p) => String(p.key)).join('.')}: ${issue.message}`,
    );
  }
  return checked.output;
}
