#!/usr/bin/env node
// The bundled demo: builds small real git repositories from the files in projects/, runs
// the whole gate (pipelines/gate.sh: all five tools, real test runners, real coverage) on
// each scenario, prints one table, and exits non-zero if any decision differs from the
// expected one. Artefacts of each scenario land in demo-out/<scenario>/. The Python rows'
// interpreter is made ready first (python.mjs): installed as root with apt-get, or one line
// naming the command to run and exit 1 before any scenario starts.
import { fileURLToPath } from 'node:url';
import { $, fs, path } from 'zx';
import { ensurePythonTools, probeHost } from './python.mjs';
import { buildDemoRepo } from './repo.mjs';
import { PROJECTS, PYTHON, SCENARIOS } from './scenarios.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const outRoot = path.join(root, 'demo-out');
const only = process.argv.slice(2);
$.quiet = true;

async function runScenario(s) {
  const started = Date.now();
  const repo = buildDemoRepo(s.project, s.patch, { message: `agent patch: ${s.what}` });
  const out = path.join(outRoot, s.id);
  const env = { ...process.env, ...PROJECTS[s.project].env, AG_MUTATE_MAX: '6', AG_ROUNDS: '3', AG_TIMEOUT: '60' };
  if (!s.coverage) env.AG_COVERAGE_COMMAND = '';
  const gate = await $({
    cwd: repo,
    env,
    nothrow: true,
  })`sh ${path.join(root, 'pipelines', 'gate.sh')} --base main~1 --head main --out ${out}`;
  let verdict = null;
  try {
    verdict = JSON.parse(await fs.readFile(path.join(out, 'verdict.json'), 'utf8'));
  } catch {
    // no verdict: reported as such below
  }
  await fs.remove(repo);
  const codes = verdict ? [...new Set(verdict.reasons.map((r) => r.code))] : [];
  const ok =
    verdict !== null && verdict.verdict === s.expect && (s.code === null ? codes.length === 0 : codes.includes(s.code));
  return { s, verdict, codes, exit: gate.exitCode, ok, seconds: (Date.now() - started) / 1000, log: gate.stderr };
}

const pct = (m) => (m === undefined || m.value === null ? 'n/a' : `${(m.value * 100).toFixed(0)}%`);
const chosen = SCENARIOS.filter((s) => only.length === 0 || only.includes(s.id));
if (chosen.some((s) => s.project === 'py')) {
  const missing = ensurePythonTools({ python: PYTHON.path, custom: PYTHON.custom, ...probeHost() });
  if (missing !== null) {
    console.error(missing);
    process.exit(1);
  }
}
await fs.mkdirp(outRoot);
const started = Date.now();
const results = [];
const queue = [...chosen];
await Promise.all(
  [0, 1].map(async () => {
    for (let s = queue.shift(); s; s = queue.shift()) results.push(await runScenario(s));
  }),
);
results.sort((a, b) => chosen.indexOf(a.s) - chosen.indexOf(b.s));

const rows = [['scenario', 'patch', 'expected', 'verdict', 'exit', 'reason codes', 'coverage', 'strength', '']];
for (const r of results) {
  rows.push([
    r.s.id,
    r.s.what,
    r.s.expect,
    r.verdict?.verdict ?? 'NONE',
    String(r.exit),
    r.codes.join(' ') || '-',
    pct(r.verdict?.measurements.diff_coverage),
    pct(r.verdict?.measurements.suite_strength),
    r.ok ? 'ok' : 'UNEXPECTED',
  ]);
}
const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
for (const row of rows)
  console.log(
    row
      .map((c, i) => c.padEnd(widths[i]))
      .join('  ')
      .trimEnd(),
  );
const failed = results.filter((r) => !r.ok);
console.log(
  `\n${results.length - failed.length}/${results.length} decisions as expected in ${((Date.now() - started) / 1000).toFixed(1)} s; artefacts in demo-out/<scenario>/ (verdict.md is the summary).`,
);
for (const r of failed)
  console.error(
    `\n${r.s.id}: expected ${r.s.expect}${r.s.code ? ` with ${r.s.code}` : ''}; gate said:\n${r.log.trim()}`,
  );
process.exitCode = failed.length === 0 ? 0 : 1;
