#!/usr/bin/env node
// Load: many whole pipelines at once, and one very large repository.
//
//   node scripts/load.mjs pipelines [--count 200] [--concurrency N] [--rounds 3] [--mutate-max 4] [--keep DIR]
//   node scripts/load.mjs bigrepo [--files 50000] [--fixtures 5000] [--drift] [--rounds 3] [--mutate-max 4] [--keep DIR]
//
// `pipelines` builds --count demo repositories (pipelines/demo/repo.mjs), each with a patch
// from a rotation whose verdicts differ and a file of its own so every diff is unique, and
// runs pipelines/gate.sh on each with its own evidence folder, --concurrency at a time
// (default: 2 × cores). Afterwards it checks every pipeline: the verdict exists, every
// evidence file is bound to the digest of its own repository's diff and names only its
// own folder, and the verdict and reason are the ones its patch must get.
// `bigrepo` generates a repository of --files files (small source modules, --fixtures
// fixture files protected by the policy), a patch touching a few modules, and runs the
// whole pipeline once, timing each tool (--drift: the patch also edits one fixture).
// Each tool runs with a probe that records its own peak RSS (scripts/lib/rss-probe.mjs).
// Exits 0 when every check held, 1 when one failed.
import { execFile, execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { PROJECTS } from '../pipelines/demo/scenarios.mjs';
import { generateBigRepo } from './lib/big-repo.mjs';
import { memorySampler } from './lib/memory.mjs';
import { readProbeLog, TOOLS, writeProbeBin } from './lib/probe-bin.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const GATE = path.join(ROOT, 'pipelines/gate.sh');
const REPO_BUILDER = path.join(ROOT, 'pipelines/demo/repo.mjs');
const KINDS = ['run', 'diffcov', 'mutation', 'oracle', 'verdict'];

/** The rotation of patches: what each must be judged. */
const VARIANTS = [
  { patch: 'clean', coverage: true, verdict: 'ACCEPT', code: null },
  { patch: 'break', coverage: true, verdict: 'REJECT', code: 'CLAIM_FAILED' },
  { patch: 'skip', coverage: true, verdict: 'REJECT', code: 'TEST_SKIPPED' },
  { patch: 'oracle', coverage: true, verdict: 'REJECT', code: 'ORACLE_TOUCHED' },
  { patch: 'weak', coverage: true, verdict: 'HOLD', code: 'STRENGTH_BELOW_FLOOR' },
  { patch: 'clean', coverage: false, verdict: 'HOLD', code: 'COVERAGE_NOT_MEASURED' },
];
const EXIT = { ACCEPT: 0, REJECT: 1, HOLD: 2 };

const { values: opts, positionals } = parseArgs({
  options: {
    count: { type: 'string', default: '200' },
    concurrency: { type: 'string', default: String(2 * os.availableParallelism()) },
    'mutate-max': { type: 'string', default: '4' },
    rounds: { type: 'string', default: '3' },
    files: { type: 'string', default: '50000' },
    fixtures: { type: 'string', default: '5000' },
    drift: { type: 'boolean', default: false },
    keep: { type: 'string' },
  },
  allowPositionals: true,
});
const mode = positionals[0];
if (mode !== 'pipelines' && mode !== 'bigrepo') {
  console.error('usage: load.mjs pipelines|bigrepo [options] (see the head of the file)');
  process.exit(3);
}

const work = opts.keep ?? mkdtempSync(path.join(os.tmpdir(), 'ag-load-'));
mkdirSync(work, { recursive: true });
const bin = writeProbeBin(ROOT, path.join(work, 'bin'));
const sha256 = (text) => `sha256:${createHash('sha256').update(text).digest('hex')}`;
const mb = (kb) => `${(kb / 1024).toFixed(0)} MB`;
const s = (ms) => `${(ms / 1000).toFixed(1)} s`;
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** Run gate.sh in `repo`; resolves with its exit code and wall time. */
function runGate(repo, out, env) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn('sh', [GATE, '--base', 'main~1', '--head', 'main', '--out', out], {
      cwd: repo,
      env,
      stdio: 'ignore',
    });
    child.on('close', (code) => resolve({ code: code ?? 2, ms: Date.now() - started }));
  });
}

/** pipelines/demo/repo.mjs's buildDemoRepo in a child process; resolves with the repository's folder. */
function buildRepoAsync(patch, patchFiles, message) {
  const code = `import { buildDemoRepo } from ${JSON.stringify(REPO_BUILDER)}; process.stdout.write(buildDemoRepo('js', ${JSON.stringify(patch)}, { patchFiles: ${JSON.stringify(patchFiles)}, message: ${JSON.stringify(message)} }));`;
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--input-type=module', '-e', code], (error, stdout) =>
      error ? reject(error) : resolve(stdout),
    );
  });
}

/** Every problem with one pipeline's evidence (empty: none lost, none mixed, verdict right). */
function checkPipeline(p) {
  const problems = [];
  const diff = execFileSync('git', ['diff', '--no-color', '--no-ext-diff', '--find-renames', 'main~1', 'main'], {
    cwd: p.repo,
    encoding: 'utf8',
  });
  const digest = sha256(diff);
  if (!diff.includes(p.marker)) problems.push('its own diff lacks its marker');
  for (const kind of KINDS) {
    const file = path.join(p.out, `${kind}.json`);
    if (!existsSync(file)) {
      problems.push(`${kind}.json lost`);
      continue;
    }
    const a = JSON.parse(readFileSync(file, 'utf8'));
    if (a.subject?.diff_sha256 !== digest)
      problems.push(`${kind}.json bound to ${a.subject?.diff_sha256}, not its repository's diff ${digest}`);
    for (const i of a.inputs ?? []) {
      if (i.role === 'diff' && !i.path.startsWith(p.out))
        problems.push(`${kind}.json names a diff outside its folder: ${i.path}`);
    }
    if (kind === 'verdict') {
      if (a.verdict !== p.variant.verdict) problems.push(`verdict ${a.verdict}, expected ${p.variant.verdict}`);
      const codes = a.reasons.map((r) => r.code);
      if (p.variant.code === null ? codes.length > 0 : !codes.includes(p.variant.code))
        problems.push(`reasons ${codes.join(',') || '(none)'}, expected ${p.variant.code ?? 'none'}`);
      for (const e of a.evidence)
        if (!e.path.startsWith(p.out)) problems.push(`verdict read evidence outside its folder: ${e.path}`);
    }
  }
  if (p.result.code !== EXIT[p.variant.verdict])
    problems.push(`gate.sh exit ${p.result.code}, expected ${EXIT[p.variant.verdict]}`);
  return problems;
}

/** Peak RSS and time per tool over probe records. */
function toolTable(records) {
  const rows = [];
  for (const t of TOOLS) {
    const rs = records.filter((r) => r.tool === t);
    if (rs.length === 0) continue;
    const rss = rs.map((r) => r.max_rss_kb);
    const ms = rs.map((r) => r.ms).sort((a, b) => a - b);
    rows.push({
      tool: t,
      runs: rs.length,
      peak: Math.max(...rss),
      median: ms[Math.floor(ms.length / 2)],
      max: ms[ms.length - 1],
    });
  }
  return rows;
}

async function pipelines() {
  const count = Number(opts.count);
  const concurrency = Number(opts.concurrency);
  console.log(
    `load: ${count} pipelines, ${concurrency} at a time, on ${os.availableParallelism()} cores, ${opts.rounds} claim rounds, mutant budget ${opts['mutate-max']}; load average before: ${load()}`,
  );
  const list = [];
  for (let i = 0; i < count; i++) {
    const variant = VARIANTS[i % VARIANTS.length];
    list.push({
      i,
      variant,
      marker: `notes/load-${i}.md`,
      out: path.join(work, 'evidence', `p${i}`),
      probe: path.join(work, 'probe', `p${i}.jsonl`),
    });
  }
  mkdirSync(path.join(work, 'probe'), { recursive: true });

  const mem = memorySampler(500);
  const started = Date.now();
  let next = 0;
  let running = 0;
  let peakRunning = 0;
  const worker = async () => {
    for (let k = next++; k < list.length; k = next++) {
      const p = list[k];
      const env = {
        ...process.env,
        ...PROJECTS.js.env,
        AG_ROUNDS: opts.rounds,
        AG_TIMEOUT: '300',
        AG_MUTATE_MAX: opts['mutate-max'],
        AG_BIN_DIR: bin,
        AG_LOAD_PROBE_LOG: p.probe,
      };
      if (!p.variant.coverage) env.AG_COVERAGE_COMMAND = '';
      running++;
      peakRunning = Math.max(peakRunning, running);
      // Each repository is built by the worker that runs it (in a child process, so builds
      // run side by side and overlap the load).
      p.repo = await buildRepoAsync(p.variant.patch, { [p.marker]: `pipeline ${p.i}\n` }, `load ${p.i}`);
      p.result = await runGate(p.repo, p.out, env);
      running--;
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, list.length) }, worker));
  const wall = Date.now() - started;
  const memory = mem.stop();

  let failed = 0;
  for (const p of list) {
    p.problems = checkPipeline(p);
    if (p.problems.length > 0) {
      failed++;
      console.log(
        `  p${p.i} (${p.variant.patch}${p.variant.coverage ? '' : ', no coverage'}): ${p.problems.join('; ')}`,
      );
    }
  }
  const records = list.flatMap((p) => readProbeLog(p.probe));
  const times = list.map((p) => p.result.ms).sort((a, b) => a - b);
  console.log(
    `\n| pipelines | at a time | wall | per pipeline (median / max) | verdicts right | evidence lost or mixed |`,
  );
  console.log(`|---|---|---|---|---|---|`);
  console.log(
    `| ${count} | ${peakRunning} | ${s(wall)} | ${s(times[Math.floor(times.length / 2)])} / ${s(times[times.length - 1])} | ${count - failed}/${count} | ${failed === 0 ? 0 : 'see above'} |`,
  );
  printTools(records);
  const byVerdict = {};
  for (const p of list) byVerdict[p.variant.verdict] = (byVerdict[p.variant.verdict] ?? 0) + 1;
  console.log(
    `\nexpected verdicts: ${Object.entries(byVerdict)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
  );
  console.log(
    `machine memory in use: ${mb(memory.startKb)} before, peak ${mb(memory.peakKb)} (+${mb(memory.peakKb - memory.startKb)}; other users of the machine included)`,
  );
  console.log(`load average after: ${load()}; work folder ${work}`);
  if (opts.keep === undefined) for (const p of list) rmSync(p.repo, { recursive: true, force: true });
  return failed === 0;
}

function printTools(records) {
  console.log(`\n| tool | processes | peak RSS (largest) | wall (median / max) |`);
  console.log(`|---|---|---|---|`);
  for (const r of toolTable(records))
    console.log(`| ${r.tool} | ${r.runs} | ${mb(r.peak)} | ${s(r.median)} / ${s(r.max)} |`);
}

async function bigrepo() {
  const files = Number(opts.files);
  const fixtures = Number(opts.fixtures);
  console.log(
    `load: a ${files}-file repository (${fixtures} protected fixtures), patch ${opts.drift ? 'with' : 'without'} fixture drift; load average before: ${load()}`,
  );
  const genStarted = Date.now();
  const big = generateBigRepo(path.join(work, 'bigrepo'), { files, fixtures, drift: opts.drift });
  console.log(
    `load: generated and committed in ${s(Date.now() - genStarted)} (${big.tracked} tracked files, diff touches ${big.changed.length}: ${big.changed.join(', ')})`,
  );
  const out = path.join(work, 'bigrepo-evidence');
  const probe = path.join(work, 'bigrepo-probe.jsonl');
  rmSync(probe, { force: true });
  const env = {
    ...process.env,
    ...big.env,
    AG_ROUNDS: opts.rounds,
    AG_TIMEOUT: '300',
    AG_MUTATE_MAX: opts['mutate-max'],
    AG_BIN_DIR: bin,
    AG_LOAD_PROBE_LOG: probe,
  };
  const mem = memorySampler(500);
  const result = await runGate(big.dir, out, env);
  const memory = mem.stop();
  const verdict = existsSync(path.join(out, 'verdict.json'))
    ? JSON.parse(readFileSync(path.join(out, 'verdict.json'), 'utf8'))
    : null;
  const codes = verdict?.reasons.map((r) => r.code) ?? [];
  const right =
    verdict !== null &&
    verdict.verdict === big.expect.verdict &&
    big.expect.codes.every((c) => codes.includes(c)) &&
    (big.expect.codes.length > 0 || codes.length === 0);
  const records = readProbeLog(probe);
  const toolMs = records.filter((r) => TOOLS.includes(r.tool)).reduce((a, r) => a + r.ms, 0);
  console.log(`\n| files | gate.sh wall | in the tools | export, diff and coverage | verdict | expected |`);
  console.log(`|---|---|---|---|---|---|`);
  console.log(
    `| ${big.tracked} | ${s(result.ms)} | ${s(toolMs)} | ${s(result.ms - toolMs)} | ${verdict?.verdict ?? 'none'} ${codes.join(',')} | ${big.expect.verdict} ${big.expect.codes.join(',')} |`,
  );
  printTools(records);
  console.log(
    `\nmachine memory in use: ${mb(memory.startKb)} before, peak ${mb(memory.peakKb)} (+${mb(memory.peakKb - memory.startKb)}; other users of the machine included)`,
  );
  console.log(`load average after: ${load()}; work folder ${work}`);
  if (opts.keep === undefined) rmSync(big.dir, { recursive: true, force: true });
  return right;
}

const ok = mode === 'pipelines' ? await pipelines() : await bigrepo();
if (opts.keep === undefined) rmSync(work, { recursive: true, force: true });
console.log(ok ? 'load: every check held' : 'load: a check failed');
process.exit(ok ? 0 : 1);
