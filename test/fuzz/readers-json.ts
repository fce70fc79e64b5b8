/**
 * The JSON readers: every artefact through the strict loader, the policy, the freeze list
 * (ag-oracle), the claims and commands files (ag-run), the evidence log and `check`
 * (ag-decide), the Stryker import and the shard merge (ag-mutate).
 * @module
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { bindDiff, classifyPath } from '@adversary-gate/core';
import { checkVerdict, readLog } from '@adversary-gate/ag-decide';
import { importStryker, loadShards, mergeShards, StrykerReport } from '@adversary-gate/ag-mutate';
import { loadFreeze } from '@adversary-gate/ag-oracle';
import { ClaimsFile, parseDeclaredCommands } from '@adversary-gate/ag-run';
import {
  ARTEFACT_SCHEMAS,
  loadArtefact,
  loadJson,
  LogRecord,
  MutationArtefact,
  PolicyFile,
  sha256,
  type ArtefactKind,
} from '@adversary-gate/schemas';
import {
  acceptedJson,
  firstProblem,
  inputRefusal,
  neverThrows,
  plainJson,
  sameAsInput,
  schemaProblem,
} from './checks.js';
import type { ReaderSpec } from './harness.js';
import { seed, seeds, TOKENS } from './seeds.js';

const JSON_MUTATION = { json: true, tokens: TOKENS.json } as const;

function artefactReader(kind: ArtefactKind, file: string, runs: number): ReaderSpec {
  return {
    name: `${kind} artefact (loadArtefact)`,
    seeds:
      kind === 'log'
        ? [{ name: 'inputs/log.jsonl', bytes: seed('inputs/log.jsonl').bytes.subarray(0, -1) }]
        : seeds(file),
    mutation: JSON_MUTATION,
    runs,
    fileName: `${kind}.json`,
    read: (f) => loadArtefact(f, kind),
    refusal: inputRefusal,
    result: (value, _f, bytes) => {
      const loaded = value as { kind: string; value: unknown; bytes: Buffer };
      return firstProblem(
        loaded.kind === kind ? null : `loaded as ${loaded.kind}`,
        loaded.bytes.equals(bytes) ? null : 'the bytes kept are not the bytes read',
        schemaProblem(ARTEFACT_SCHEMAS[kind], loaded.value, kind),
        sameAsInput(loaded.value, bytes),
      );
    },
  };
}

/** Every artefact kind through `loadArtefact`. */
export const artefactReaders: ReaderSpec[] = [
  artefactReader('run', 'accept/run.json', 150),
  artefactReader('diffcov', 'accept/diffcov.json', 150),
  artefactReader('mutation', 'accept/mutation.json', 150),
  artefactReader('oracle', 'accept/oracle.json', 150),
  artefactReader('verdict', 'accept/verdict.json', 150),
  artefactReader('log', 'inputs/log.jsonl', 100),
];

const TODAY = '2026-11-30';

const isRealDate = (s: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(s) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s);

/** The policy, the freeze list, the claims and commands files, the log, `check`. */
export const inputReaders: ReaderSpec[] = [
  {
    name: 'policy (adversary-gate.json)',
    seeds: seeds('accept/adversary-gate.json'),
    mutation: JSON_MUTATION,
    runs: 200,
    fileName: 'adversary-gate.json',
    read: (f) => loadJson(f, PolicyFile),
    refusal: inputRefusal,
    result: (value, _f, bytes) => sameAsInput((value as { value: unknown }).value, bytes),
  },
  {
    name: 'freeze list (ag-oracle loadFreeze)',
    seeds: seeds('inputs/freeze.json'),
    mutation: JSON_MUTATION,
    runs: 200,
    fileName: 'freeze.json',
    read: (f) => loadFreeze(path.dirname(f), path.basename(f), TODAY),
    refusal: inputRefusal,
    result: (value, _f, bytes) => {
      const entries = (value as { entries: { index: number; status: string }[] }).entries;
      const plain = acceptedJson(bytes) as unknown[] | { entries: unknown[] };
      const raw = Array.isArray(plain) ? plain : plain.entries;
      if (entries.length !== raw.length) return `${entries.length} entries judged, the file has ${raw.length}`;
      for (const e of entries) {
        if (e.status !== 'valid') continue;
        const r = raw[e.index] as Record<string, unknown>;
        const ok =
          typeof r.nodeid === 'string' &&
          r.nodeid.trim() !== '' &&
          typeof r.expires === 'string' &&
          isRealDate(r.expires) &&
          r.expires >= TODAY &&
          Array.isArray(r.covers) &&
          r.covers.length > 0 &&
          r.covers.every((c) => typeof c === 'string' && c.trim() !== '');
        if (!ok) return `entry ${e.index} judged valid: ${JSON.stringify(r).slice(0, 200)}`;
      }
      return null;
    },
  },
  {
    name: 'claims file (ag-run --claims)',
    seeds: seeds('inputs/claims.json'),
    mutation: JSON_MUTATION,
    runs: 150,
    fileName: 'claims.json',
    read: (f) => loadJson(f, ClaimsFile),
    refusal: inputRefusal,
    result: (value, _f, bytes) => sameAsInput((value as { value: unknown }).value, bytes),
  },
  {
    name: 'commands file (ag-run --commands-json)',
    seeds: seeds('inputs/commands.json'),
    mutation: JSON_MUTATION,
    runs: 150,
    fileName: 'commands.json',
    read: async (f, bytes) => parseDeclaredCommands(f, bytes),
    refusal: neverThrows,
    result: (value, _f, bytes) => {
      const r = value as { commands?: string[]; fault?: string };
      if (r.fault !== undefined)
        return r.fault.trim() === '' || r.fault.includes('\n')
          ? `fault is not one line: ${JSON.stringify(r.fault)}`
          : null;
      if (r.commands!.some((c) => typeof c !== 'string' || c.trim() === ''))
        return 'an empty or non-string command was accepted';
      return sameAsInput(r.commands, bytes);
    },
  },
  {
    name: 'evidence log (ag-decide stats readLog)',
    seeds: seeds('inputs/log.jsonl'),
    mutation: { lines: true, tokens: TOKENS.json },
    runs: 150,
    fileName: 'log.jsonl',
    read: (f) => readLog(f),
    refusal: inputRefusal,
    result: (value, _f, bytes) => {
      const records = value as unknown[];
      const lines = bytes
        .toString('utf8')
        .split('\n')
        .filter((l) => l.trim() !== '');
      if (records.length !== lines.length) return `${records.length} records from ${lines.length} non-blank lines`;
      return firstProblem(
        ...records.map(
          (r, i) => schemaProblem(LogRecord, r, `record ${i + 1}`) ?? sameAsInput(r, Buffer.from(lines[i]!)),
        ),
      );
    },
  },
  {
    name: 'verdict check (ag-decide check)',
    seeds: seeds('accept/verdict.json'),
    mutation: JSON_MUTATION,
    runs: 200,
    fileName: 'verdict.json',
    read: async (f) => ({
      check: await checkVerdict(f),
      strict: await loadArtefact(f, 'verdict').then(
        () => true,
        () => false,
      ),
    }),
    refusal: neverThrows,
    result: (value, _f, bytes) => {
      const { check, strict } = value as { check: { code: number; line: string }; strict: boolean };
      if (check.line.includes('\n')) return 'the check line spans several lines';
      if (check.code !== 0) return null;
      const plain = plainJson(bytes) as { verdict?: unknown; reasons?: unknown[] } | undefined;
      if (!strict) return 'check passed a file the strict loader refuses';
      return plain?.verdict === 'ACCEPT' && plain.reasons?.length === 0
        ? null
        : 'check passed a verdict that is not a clean ACCEPT';
    },
  },
];

const strykerDiff = bindDiff('changes.diff', seed('accept/changes.diff').bytes);
const addedLines = new Map(strykerDiff.model.files.map((f) => [f.path, new Set(f.addedLines)]));

/** ag-mutate's Stryker import and shard merge. */
export const mutateReaders: ReaderSpec[] = [
  {
    name: 'Stryker report (ag-mutate import)',
    seeds: seeds('inputs/stryker.json'),
    mutation: JSON_MUTATION,
    runs: 200,
    fileName: 'mutation-report.json',
    read: async (f) => {
      const { bytes, value } = await loadJson(f, StrykerReport);
      return importStryker(value, strykerDiff, { path: f, sha256: sha256(bytes) }, classifyPath);
    },
    refusal: inputRefusal,
    result: (value, _f, bytes) => {
      const a = value as MutationArtefact;
      const plain = acceptedJson(bytes) as { files: Record<string, { mutants: unknown[] }> };
      const reported = Object.values(plain.files).reduce((n, f) => n + f.mutants.length, 0);
      return firstProblem(
        schemaProblem(MutationArtefact, a, 'the imported artefact'),
        a.mutants.length <= reported ? null : `${a.mutants.length} mutants from a report of ${reported}`,
        ...a.mutants.map((m) =>
          addedLines.get(m.file)?.has(m.line)
            ? null
            : `mutant ${m.id} on ${m.file}:${m.line}, a line the diff did not add`,
        ),
      );
    },
  },
  {
    name: 'mutation shards (ag-mutate merge)',
    seeds: seeds('inputs/shard1.json'),
    mutation: JSON_MUTATION,
    runs: 150,
    fileName: 'shard1.json',
    read: async (f) => {
      const other = path.join(path.dirname(f), 'shard2.json');
      await fs.writeFile(other, seed('inputs/shard2.json').bytes);
      return mergeShards(await loadShards([f, other]));
    },
    // A refusal may name either shard, or `merge` for the set as a whole.
    refusal: (error, f) =>
      [path.join(path.dirname(f), 'shard2.json'), 'merge'].some((name) => inputRefusal(error, name) === null)
        ? null
        : inputRefusal(error, f),
    result: (value, _f, bytes) => {
      const a = value as MutationArtefact;
      const total = [bytes, seed('inputs/shard2.json').bytes].reduce(
        (n, b) => n + (acceptedJson(b) as { mutants: unknown[] }).mutants.length,
        0,
      );
      return firstProblem(
        schemaProblem(MutationArtefact, a, 'the merged artefact'),
        a.shard === null ? null : 'the merge is still a shard',
        a.mutants.length <= total ? null : `${a.mutants.length} mutants from shards that hold ${total}`,
      );
    },
  },
];
