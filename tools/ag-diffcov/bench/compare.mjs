#!/usr/bin/env node
/**
 * Side-by-side benchmark: ag-diffcov and diff-cover 7.4.0 on every case of the corpus.
 *
 *   node bench/compare.mjs [--runs N] [--corpus DIR] [--case NAME…] [--no-extra-ca-certs] [--no-record]
 *
 * Needs a built package (`npx tsc -p tsconfig.build.json`), /usr/bin/diff-cover and
 * /usr/bin/time. diff-cover 7.4.0 has no --diff-file: it runs `git diff BASE...HEAD` itself,
 * so each case gets a scratch git repository whose base commit is rebuilt from the diff
 * (old-side lines from the hunks, unseen lines filled with unique filler text) and whose
 * head commit is that base with the diff applied. Gzipped inputs are unpacked to a scratch
 * directory first. Prints wall time (median), peak RSS (max) and the ratio of each tool, the
 * load average at the start and the end, and a bare `node -e 0` under the same conditions.
 *
 * --no-extra-ca-certs: run both tools without NODE_EXTRA_CA_CERTS in their environment.
 * Node 20 parses that file (and its own root certificates) at every start, before any
 * JavaScript runs: with the system bundle named there, that is most of a small run's time.
 *
 * The table and the machine are appended to bench/RESULTS.md (bench/lib/results.mjs at the
 * repository root); --no-record only prints them.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { unquoteGitPath } from '@adversary-gate/core';
import { benchRecorder, markdownTable } from '../../../bench/lib/results.mjs';

const recorder = benchRecorder(import.meta.url);

const here = path.dirname(fileURLToPath(import.meta.url));
const BIN = path.join(here, '..', 'bin', 'ag-diffcov.js');
const args = process.argv.slice(2);
const flag = (name, def) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? def : args[i + 1];
};
const RUNS = Number(flag('runs', '3'));
const CORPUS = path.resolve(flag('corpus', path.join(here, '..', '..', '..', '..', 'shared', 'bench', 'diffcov')));
const only = args.flatMap((a, i) => (args[i - 1] === '--case' ? [a] : []));
const ENV = { ...process.env };
if (args.includes('--no-extra-ca-certs')) delete ENV.NODE_EXTRA_CA_CERTS;
const loadAtStart = os.loadavg();
const scratch = mkdtempSync(path.join(os.tmpdir(), 'ag-diffcov-bench-'));

/** Unpack `name` (or `name.gz`) of a case into the scratch dir; returns its path. */
function input(caseDir, name) {
  const plain = path.join(caseDir, name);
  if (existsSync(plain)) return plain;
  const out = path.join(scratch, path.basename(caseDir), name);
  if (!existsSync(out)) {
    mkdirSync(path.dirname(out), { recursive: true });
    writeFileSync(out, gunzipSync(readFileSync(`${plain}.gz`)));
  }
  return out;
}

/** Median wall and CPU (user+sys) seconds and max peak RSS (MB) of a command, with its last result. */
function timed(cmd, argv, cwd) {
  const walls = [];
  const cpus = [];
  let rss = 0;
  let last = null;
  for (let i = 0; i < RUNS; i++) {
    const r = spawnSync('/usr/bin/time', ['-f', '%e %U %S %M', cmd, ...argv], {
      cwd,
      env: ENV,
      encoding: 'utf8',
      maxBuffer: 1 << 28,
    });
    const m = /(\d+\.\d+) (\d+\.\d+) (\d+\.\d+) (\d+)\s*$/.exec(r.stderr);
    if (r.status !== 0 || m === null)
      throw new Error(`${cmd} ${argv.join(' ')} failed (${r.status}): ${r.stderr.slice(-400)}`);
    walls.push(Number(m[1]));
    cpus.push(Number(m[2]) + Number(m[3]));
    rss = Math.max(rss, Number(m[4]) / 1024);
    last = r;
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return { wall: median(walls), cpu: median(cpus), rss, last };
}

/** Split a git diff into sections and rebuild each file's old side. */
function rebuildBase(diffText) {
  const files = new Map();
  const applicable = [];
  for (const section of diffText.split(/^(?=diff --git )/m)) {
    if (!section.startsWith('diff --git ')) continue;
    if (/^(Binary files |GIT binary patch)/m.test(section)) continue;
    applicable.push(section);
    if (/^new file mode /m.test(section)) continue;
    const from =
      /^--- (.+)$/m.exec(section)?.[1] ??
      /^rename from (.+)$/m.exec(section)?.[1] ??
      /^diff --git (.+) (?:"?b\/)/m.exec(section)?.[1];
    if (from === undefined || from === '/dev/null') continue;
    const oldPath = unquoteGitPath(from.replace(/\t.*$/, '')).replace(/^a\//, '');
    const lines = [];
    let noNewline = false;
    let oldLine = 0;
    let lastOld = false;
    for (const line of section.split('\n')) {
      const h = /^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@/.exec(line);
      if (h) {
        oldLine = Number(h[1]) === 0 ? 1 : Number(h[1]);
        const end = Number(h[1]) + (h[2] === undefined ? 1 : Number(h[2])) - 1;
        while (lines.length < end) lines.push(undefined);
        continue;
      }
      if (oldLine === 0) continue;
      if (line.startsWith(' ') || line.startsWith('-')) {
        lines[oldLine - 1] = line.slice(1);
        oldLine++;
        lastOld = true;
      } else if (line.startsWith('+')) lastOld = false;
      else if (line.startsWith('\\') && lastOld) noNewline = true;
    }
    const text = lines.map((l, i) => l ?? `filler ${i + 1} of ${oldPath}`).join('\n');
    const mode = /^old mode (\d+)$/m.exec(section)?.[1] ?? /^index \S+ (\d+)$/m.exec(section)?.[1] ?? '100644';
    files.set(oldPath, { text: text + (noNewline || lines.length === 0 ? '' : '\n'), executable: mode === '100755' });
  }
  return { files, patch: applicable.join('') };
}

/** A scratch repository with commits `base` and HEAD for diff-cover 7.4.0. */
function makeRepo(name, diffFile) {
  const dir = path.join(scratch, name, 'repo');
  if (existsSync(dir)) return dir;
  mkdirSync(dir, { recursive: true });
  const git = (...a) =>
    execFileSync('git', ['-c', 'user.name=b', '-c', 'user.email=b@example.com', '-c', 'commit.gpgsign=false', ...a], {
      cwd: dir,
      maxBuffer: 1 << 28,
    });
  const { files, patch } = rebuildBase(readFileSync(diffFile, 'latin1'));
  git('init', '-q');
  for (const [p, { text, executable }] of files) {
    mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
    writeFileSync(path.join(dir, p), Buffer.from(text, 'latin1'), { mode: executable ? 0o755 : 0o644 });
  }
  writeFileSync(path.join(dir, '.bench-keep'), '');
  git('add', '-A');
  git('commit', '-q', '-m', 'base');
  git('branch', 'base');
  writeFileSync(path.join(scratch, name, 'apply.diff'), Buffer.from(patch, 'latin1'));
  git('apply', '--index', '--whitespace=nowarn', path.join(scratch, name, 'apply.diff'));
  git('commit', '-q', '-m', 'head');
  return dir;
}

/** Per-file parity with diff-cover 7.4.0's recorded answer, over the files the report knows. */
function parity(d, expectedFile) {
  if (!existsSync(expectedFile)) return '';
  const e = JSON.parse(readFileSync(expectedFile, 'utf8'));
  const expand = (rs) => rs.flatMap(([a, b]) => Array.from({ length: b - a + 1 }, (_, i) => a + i));
  // README deviations 5 and 6: lines under a pragma, or run only in part, are uncovered for us whatever the
  // report says; such files are compared outside those lines, and left out of the totals.
  const apart = new Map();
  for (const x of [...(d.ignored_by_pragma ?? []), ...(d.branch_unrun ?? [])])
    apart.set(x.path, new Set([...(apart.get(x.path) ?? []), ...expand(x.lines)]));
  const differing = [];
  let measured = 0;
  let uncovered = 0;
  let dcMeasured = e.total_num_lines;
  let dcUncovered = e.total_num_violations;
  for (const f of d.files) {
    const cov = expand(f.covered);
    const unc = expand(f.uncovered);
    if (!f.in_report || cov.length + unc.length === 0) continue;
    const s = e.src_stats[f.path];
    const lines = apart.get(f.path);
    if (lines !== undefined) {
      const outside = (xs) => JSON.stringify(xs.filter((n) => !lines.has(n)));
      if (s !== undefined) {
        dcUncovered -= s.violation_lines.length;
        dcMeasured -= Math.round(s.violation_lines.length / (1 - s.percent_covered / 100)) || 0;
      }
      if (outside(s?.violation_lines ?? []) !== outside(unc)) differing.push(f.path);
      continue;
    }
    measured += cov.length + unc.length;
    uncovered += unc.length;
    if (
      s === undefined ||
      JSON.stringify(s.violation_lines) !== JSON.stringify(unc) ||
      Math.abs(100 - (unc.length / (cov.length + unc.length)) * 100 - s.percent_covered) > 1e-9
    )
      differing.push(f.path);
  }
  const note = apart.size > 0 ? ` (${apart.size} file(s) compared outside pragma lines)` : '';
  const same = measured === dcMeasured && uncovered === dcUncovered && differing.length === 0;
  return same
    ? `parity ok${note}`
    : `parity: ${measured}/${uncovered} vs ${dcMeasured}/${dcUncovered}, differing: ${differing.join(' ')}${note}`;
}

const REPORTS = ['coverage.xml', 'coverage.lcov', 'lcov.info', 'coverage-final.json', 'coverage.json'];
const rows = [];
for (const name of readdirSync(CORPUS).sort()) {
  const caseDir = path.join(CORPUS, name);
  if (!existsSync(path.join(caseDir, 'README.md')) || (only.length > 0 && !only.includes(name))) continue;
  const diff = input(caseDir, 'patch.diff');
  let repo = null;
  for (const report of REPORTS) {
    if (!existsSync(path.join(caseDir, report)) && !existsSync(path.join(caseDir, `${report}.gz`))) continue;
    const file = input(caseDir, report);
    const out = path.join(scratch, name, `${report}.diffcov.json`);
    mkdirSync(path.dirname(out), { recursive: true });
    const ours = timed(process.execPath, [BIN, '--diff', diff, '--coverage', file, '--out', out]);
    const d = JSON.parse(readFileSync(out, 'utf8'));
    const row = {
      case: name,
      report,
      ours: {
        wall: ours.wall,
        cpu: ours.cpu,
        rss: ours.rss,
        measured: d.totals.measured,
        uncovered: d.totals.uncovered,
        ratio: d.diff_coverage_ratio,
      },
    };
    if (report.endsWith('.xml') || report.endsWith('.lcov') || report.endsWith('.info')) {
      repo ??= makeRepo(name, diff);
      const json = path.join(scratch, name, `${report}.diff-cover.json`);
      const dc = timed(
        '/usr/bin/diff-cover',
        [file, '--compare-branch=base', '--ignore-staged', '--ignore-unstaged', '--json-report', json],
        repo,
      );
      const r = JSON.parse(readFileSync(json, 'utf8'));
      row.dc = {
        wall: dc.wall,
        cpu: dc.cpu,
        rss: dc.rss,
        measured: r.total_num_lines,
        uncovered: r.total_num_violations,
        ratio: r.total_percent_covered / 100,
      };
    }
    rows.push(row);
    const fmt = (x) =>
      x === undefined
        ? '—'
        : `${x.wall.toFixed(2)} s (cpu ${x.cpu.toFixed(2)}) ${x.rss.toFixed(0)} MB ${x.measured}/${x.uncovered} ${x.ratio === null ? 'null' : x.ratio.toFixed(4)}`;
    const speed = row.dc
      ? `${(row.dc.wall / row.ours.wall).toFixed(1)}x/${(row.dc.cpu / row.ours.cpu).toFixed(1)}x`
      : '';
    row.parity = parity(d, path.join(caseDir, 'expected', `diff-cover-7.4.0.${report}.json`));
    console.log(
      `${name.padEnd(24)} ${report.padEnd(20)} ag-diffcov ${fmt(row.ours).padEnd(46)} diff-cover ${fmt(row.dc).padEnd(46)} ${speed.padEnd(12)} ${row.parity}`,
    );
  }
}
writeFileSync(path.join(scratch, 'results.json'), `${JSON.stringify(rows, null, 2)}\n`);
const bare = timed(process.execPath, ['-e', '0']);
const loads = (l) => l.map((n) => n.toFixed(1)).join(' ');
console.log(`\nbare \`node -e 0\`: ${bare.wall.toFixed(2)} s (cpu ${bare.cpu.toFixed(2)}) ${bare.rss.toFixed(0)} MB`);
console.log(
  `NODE_EXTRA_CA_CERTS: ${ENV.NODE_EXTRA_CA_CERTS === undefined ? 'not set' : `set (${ENV.NODE_EXTRA_CA_CERTS})`}`,
);
console.log(
  `machine: ${os.cpus().length} vCPU ${os.cpus()[0]?.model ?? ''}, Node ${process.version}, load ${loads(loadAtStart)} at the start, ${loads(os.loadavg())} at the end; runs per cell: ${RUNS}; results: ${path.join(scratch, 'results.json')}`,
);
const cell = (x) => (x === undefined ? '—' : `${x.wall.toFixed(2)} s / ${x.cpu.toFixed(2)} s / ${x.rss.toFixed(0)} MB`);
const counts = (x) =>
  x === undefined ? '—' : `${x.measured}/${x.uncovered}, ${x.ratio === null ? 'null' : x.ratio.toFixed(4)}`;
if (rows.length === 0) console.log('no case measured: nothing recorded');
else
  recorder.record(
    [
      `Runs per cell: ${RUNS} (median wall and CPU, max peak RSS); both tools ${ENV.NODE_EXTRA_CA_CERTS === undefined ? 'without' : 'with'} \`NODE_EXTRA_CA_CERTS\`${args.includes('--no-extra-ca-certs') ? ' (`--no-extra-ca-certs`)' : ''}; a bare \`node -e 0\` ${bare.wall.toFixed(2)} s (cpu ${bare.cpu.toFixed(2)}) ${bare.rss.toFixed(0)} MB.`,
      '',
      markdownTable(
        [
          'case',
          'report',
          'ag-diffcov wall / CPU / RSS',
          'diff-cover 7.4.0 wall / CPU / RSS',
          'ours measured/uncovered, ratio',
          'diff-cover measured/uncovered, ratio',
          'per-file parity',
        ],
        rows.map((r) => [r.case, r.report, cell(r.ours), cell(r.dc), counts(r.ours), counts(r.dc), r.parity || '—']),
      ),
    ].join('\n'),
  );
if (!args.includes('--keep')) rmSync(scratch, { recursive: true, force: true, maxRetries: 2 });
