// Benchmark: the largest diff of the diffcov corpus (synth-monorepo-large, 58k lines) and a
// fixture tree of 10,000 files on both sides. Run after a build:
//   npx tsx bench/oracle-bench.ts [--runs N] [--files N] [--corpus DIR] [--no-record]
// Prints one JSON line per measurement and the medians, and appends the figures and the machine
// to bench/RESULTS.md (bench/lib/results.mjs at the repository root); --no-record only prints.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { parseArgs } from 'node:util';
import { parseUnifiedDiff } from '@adversary-gate/core';
import { benchRecorder, markdownTable } from '../../../bench/lib/results.mjs';

const recorder = benchRecorder(import.meta.url);
const here = path.dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '7' },
    files: { type: 'string', default: '10000' },
    corpus: { type: 'string', default: path.resolve(here, '../../../../shared/bench/diffcov/synth-monorepo-large') },
    'no-record': { type: 'boolean', default: false },
  },
});
const runs = Number(values.runs);
const fixtureFiles = Number(values.files);
const bin = path.resolve(here, '../bin/ag-oracle.js');

const dir = mkdtempSync(path.join(os.tmpdir(), 'ag-oracle-bench-'));
try {
  const diffText = gunzipSync(readFileSync(path.join(values.corpus, 'patch.diff.gz')));
  const diffFile = path.join(dir, 'patch.diff');
  writeFileSync(diffFile, diffText);
  const model = parseUnifiedDiff(diffText.toString('utf8'));
  const baseline = path.join(dir, 'baseline');
  const patch = path.join(dir, 'patch');

  // The baseline: every old path the diff names, a policy, a freeze list and the fixture tree.
  const put = (root: string, rel: string, body: string) => {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), body);
  };
  put(
    baseline,
    'adversary-gate.json',
    JSON.stringify({
      schema_version: 1,
      oracle: {
        protected: ['tests/oracle/**', 'pipelines/**'],
        fixtures: ['tests/fixtures'],
        freeze: 'tests/flake_freeze.json',
      },
    }),
  );
  put(
    baseline,
    'tests/flake_freeze.json',
    JSON.stringify([
      { nodeid: 'packages/p0000/tests/test_x.py::test_y', expires: '2099-01-01', covers: ['packages/p0000/src/**'] },
    ]),
  );
  for (let i = 0; i < fixtureFiles; i++) {
    put(
      baseline,
      `tests/fixtures/d${String(i % 100).padStart(3, '0')}/f${String(i).padStart(5, '0')}.json`,
      `${JSON.stringify({ id: i, payload: 'x'.repeat(200 + (i % 300)) })}\n`,
    );
  }
  for (const f of model.files) if (f.status !== 'added') put(baseline, f.oldPath ?? f.path, 'old\n');
  // The patch: the baseline with the diff's file set applied (contents do not matter here).
  cpSync(baseline, patch, { recursive: true });
  for (const f of model.files) {
    if (f.status === 'renamed' || f.status === 'deleted')
      rmSync(path.join(patch, f.oldPath ?? f.path), { force: true });
    if (f.status !== 'deleted') put(patch, f.path, 'new\n');
  }

  const out = path.join(dir, 'oracle.json');
  const timeFile = path.join(dir, 'time.txt');
  // GNU time gives the child's CPU seconds, which a busy shared machine distorts far less than wall time.
  const timed = spawnSync('/usr/bin/time', ['-V'], { encoding: 'utf8' }).status === 0;
  const times: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const argv = [
      process.execPath,
      bin,
      '--diff',
      diffFile,
      '--baseline',
      baseline,
      '--patch',
      patch,
      '--today',
      '2026-11-30',
      '--out',
      out,
    ];
    const t0 = process.hrtime.bigint();
    const r = timed
      ? spawnSync('/usr/bin/time', ['-f', '%U %S', '-o', timeFile, ...argv], { encoding: 'utf8' })
      : spawnSync(argv[0]!, argv.slice(1), { encoding: 'utf8' });
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    if (r.status !== 0) throw new Error(`ag-oracle exited ${r.status}: ${r.stderr}`);
    const cpuSeconds = timed
      ? readFileSync(timeFile, 'utf8')
          .trim()
          .split(/\s+/)
          .map(Number)
          .reduce((a, b) => a + b, 0)
      : NaN;
    times.push(seconds);
    cpu.push(cpuSeconds);
    console.log(
      JSON.stringify({
        run: i + 1,
        wall_seconds: Number(seconds.toFixed(3)),
        cpu_seconds: Number(cpuSeconds.toFixed(2)),
        load_average_1m: Number(os.loadavg()[0]!.toFixed(2)),
      }),
    );
  }
  // Calibration: an empty Node process in the same minutes (a few hundredths of a second when the machine is quiet).
  const empty: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = process.hrtime.bigint();
    spawnSync(process.execPath, ['-e', '0']);
    empty.push(Number(process.hrtime.bigint() - t0) / 1e9);
  }
  empty.sort((a, b) => a - b);
  const artefact = JSON.parse(readFileSync(out, 'utf8'));
  times.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  const summary = {
    diff_lines: diffText.toString('utf8').split('\n').length - 1,
    changed_files: model.files.length,
    fixture_files: fixtureFiles,
    runs,
    median_seconds: Number(times[Math.floor(times.length / 2)]!.toFixed(3)),
    median_cpu_seconds: Number(cpu[Math.floor(cpu.length / 2)]!.toFixed(2)),
    min_seconds: Number(times[0]!.toFixed(3)),
    max_seconds: Number(times[times.length - 1]!.toFixed(3)),
    findings: {
      oracle_touched: artefact.oracle_touched.length,
      tampering: artefact.tampering.length,
      faults: artefact.faults.length,
      drifted: artefact.fixtures.filter((f: { expected: string; actual: string }) => f.expected !== f.actual).length,
    },
    empty_node_median_seconds: Number(empty[2]!.toFixed(3)),
    node: process.version,
    cpus: os.cpus().length,
    load_average_1m: Number(os.loadavg()[0]!.toFixed(2)),
  };
  console.log(JSON.stringify(summary));
  const f = summary.findings;
  recorder.record(
    markdownTable(
      ['diff', 'fixture files a side', 'runs', 'empty `node -e 0`', 'median wall', 'median CPU (user+sys)', 'findings'],
      [
        [
          `${summary.diff_lines} lines, ${summary.changed_files} files`,
          fixtureFiles,
          runs,
          `${summary.empty_node_median_seconds.toFixed(2)} s`,
          `**${summary.median_seconds.toFixed(2)} s** (${summary.min_seconds.toFixed(2)}–${summary.max_seconds.toFixed(2)})`,
          timed ? `${summary.median_cpu_seconds.toFixed(2)} s` : '— (no /usr/bin/time)',
          `${f.oracle_touched} oracle touched, ${f.tampering} tampering, ${f.faults} faults, ${f.drifted} drifted`,
        ],
      ],
    ),
  );
} finally {
  if (process.env.AG_BENCH_KEEP === undefined) rmSync(dir, { recursive: true, force: true });
  else console.error(`kept ${dir}`);
}
