/**
 * The trusted end of a split pipeline (the GitHub Action's `decide` job): reads git objects
 * and JSON, never runs the patch's code. It recomputes the diff and the two trees' git ids
 * from the commits itself, reads the policy from the BASE commit, merges the mutation shards
 * when told there are N (every one of them, else the mutation evidence is missing and the
 * missing shards are named), gives ag-decide the steps the measuring job could not do
 * (pipeline-faults.txt), and answers with `ag-decide check`.
 * @module
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PipelineFaults } from './faults.js';
import { writeDiff } from './git.js';
import { claimOutDir } from './out-dir.js';
import { summaryLines } from './summary.js';
import { runTool, toolPath } from './tools.js';

/** What the decide job is given. */
export interface DecideSettings {
  readonly base: string;
  readonly head: string;
  /** The evidence directory the measuring job wrote (downloaded). */
  readonly evidence: string;
  /** Where the verdict (and the merged shards, the diff, the policy) are written: the gate's own directory. */
  readonly out: string;
  /** The number of mutation shards, when mutation ran in shards. */
  readonly shards?: number;
  readonly binDir?: string;
  readonly quiet: boolean;
  /** Where the job's summary is appended (GITHUB_STEP_SUMMARY), and where `verdict=` goes (GITHUB_OUTPUT). */
  readonly stepSummary?: string;
  readonly output?: string;
}

const git = (cwd: string, args: string[]) => spawnSync('git', args, { cwd, encoding: 'utf8' });

/** Decide from the evidence in the repository at `cwd`; resolves to the exit code. */
export async function decideFromEvidence(d: DecideSettings, cwd: string): Promise<number> {
  for (const c of [d.base, d.head])
    if (git(cwd, ['cat-file', '-e', `${c}^{commit}`]).status !== 0) {
      process.stderr.write(
        `ag-gate decide: the checkout has no commit ${c} (check out the pull request with fetch-depth: 0): HOLD\n`,
      );
      return 2;
    }
  const claim = claimOutDir(d.out, { cwd, protectedRoots: [cwd] });
  const work = claim.dir;
  try {
    const diff = path.join(work, 'changes.diff');
    await writeDiff(cwd, d.base, d.head, diff);
    const tree = (c: string) => git(cwd, ['rev-parse', `${c}^{tree}`]).stdout.trim();
    const args = ['--diff', diff, '--baseline-tree', tree(d.base), '--patch-tree', tree(d.head)];
    const policy = git(cwd, ['show', `${d.base}:adversary-gate.json`]);
    if (policy.status === 0) {
      writeFileSync(path.join(work, 'policy.json'), policy.stdout);
      args.push('--policy', path.join(work, 'policy.json'));
    }
    for (const kind of ['run', 'diffcov', 'oracle']) args.push('--evidence', path.join(d.evidence, `${kind}.json`));
    const notes: string[] = [];
    if (d.shards !== undefined) {
      const merged = path.join(work, 'mutation.json');
      const note = await mergeShards(d, merged);
      if (note !== null) {
        notes.push(note);
        process.stderr.write(`ag-gate decide: ${note}: HOLD\n`);
        args.push('--pipeline-fault', note);
      }
      args.push('--evidence', merged);
    } else args.push('--evidence', path.join(d.evidence, 'mutation.json'));
    // Only a HOLD can come of these lines, so the file needs no more trust than the evidence beside it.
    for (const fault of new PipelineFaults(d.evidence, 'ag-gate').lines()) args.push('--pipeline-fault', fault);
    const verdict = path.join(work, 'verdict.json');
    const markdown = path.join(work, 'verdict.md');
    await runTool(toolPath('ag-decide', d.binDir), [
      ...args,
      '--out',
      verdict,
      '--markdown',
      markdown,
      '--annotations',
    ]);
    if (d.stepSummary !== undefined) {
      for (const note of notes) appendFileSync(d.stepSummary, `${note}\n\n`);
      if (existsSync(markdown)) appendFileSync(d.stepSummary, readFileSync(markdown));
    }
    if (d.output !== undefined) appendFileSync(d.output, `verdict=${verdictOf(verdict)}\n`);
    if (!d.quiet) for (const line of summaryLines(verdict, markdown)) process.stderr.write(`ag-gate: ${line}\n`);
    const checked = await runTool(toolPath('ag-decide', d.binDir), ['check', verdict, '--diff', diff]);
    return checked.status === 0 || checked.status === 1 ? checked.status : 2;
  } finally {
    claim.release();
  }
}

function verdictOf(file: string): string {
  try {
    const v = (JSON.parse(readFileSync(file, 'utf8')) as { verdict?: unknown }).verdict;
    return typeof v === 'string' ? v : 'HOLD';
  } catch {
    return 'HOLD';
  }
}

/**
 * Every shard 1..N merged into `merged` (exactly N files to `ag-mutate merge`, which refuses
 * duplicated, missing and foreign shards); null when merged, else what is missing or wrong.
 */
async function mergeShards(d: DecideSettings, merged: string): Promise<string | null> {
  const n = d.shards!;
  const files: string[] = [];
  const missing: string[] = [];
  for (let k = 1; k <= n; k++) {
    const f = path.join(d.evidence, `mutation-${k}.json`);
    if (existsSync(f)) files.push(f);
    else missing.push(`${k}/${n}`);
  }
  if (missing.length > 0)
    return `mutation shard(s) ${missing.join(' ')} missing from the evidence (no mutation-K.json)`;
  const r = await runTool(toolPath('ag-mutate', d.binDir), ['merge', ...files, '--quiet', '--out', merged]);
  return r.status === 0 ? null : 'the mutation shards do not merge';
}
