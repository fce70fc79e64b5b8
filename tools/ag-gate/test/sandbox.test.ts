// What a test can see of the gate, through the real pipeline as root: under `--sandbox bwrap`
// every run of the patch's code (ag-run's, the coverage command, ag-mutate's) has a pid
// namespace and /proc of its own and no view of the host's files, so no tool's command line
// (which names the evidence directory) and no part of the user's checkout is there to read.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gate, HONEST, repository } from './project.js';

const RANGE = ['--base', 'main~1', '--head', 'main'];
type Verdict = { verdict: string; reasons: { code: string; message: string }[] };

/** A test that fails when it finds a tool's command line in /proc, or a file of the checkout at `checkout` or of its evidence. */
const probe = (checkout: string) =>
  [
    "import { test } from 'node:test';",
    "import assert from 'node:assert/strict';",
    "import { existsSync, readdirSync, readFileSync } from 'node:fs';",
    "test('nothing of the gate or of the checkout is in reach', () => {",
    '  const seen = [];',
    "  for (const pid of readdirSync('/proc').filter((p) => /^\\d+$/.test(p))) {",
    "    let argv = '';",
    "    try { argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8'); } catch { continue; }",
    "    if (/changes\\.diff|\\/bin\\/ag-[a-z]+/.test(argv)) seen.push(argv.split('\\0').slice(0, 2).join(' '));",
    '  }',
    // Under bwrap ag-mutate binds the exported patch tree (the test's own code) read-only at its
    // path: the folders leading to it are there, empty; no file of the checkout or the evidence is.
    `  for (const f of ['.git', 'package.json', 'ev/changes.diff', 'ev/oracle.json', 'ev/baseline'])`,
    `    if (existsSync(${JSON.stringify(checkout)} + '/' + f)) seen.push(f);`,
    '  process.stdout.write(`probe saw: ${JSON.stringify(seen)}\\n`);',
    '  assert.deepEqual(seen, []);',
    '});',
    '',
  ].join('\n');

/** A repository whose patch adds the probe, which names the repository's own path, beside the honest change. */
function probed(): string {
  const repo = repository(HONEST);
  writeFileSync(path.join(repo, 'test', 'probe.test.js'), probe(repo));
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: repo });
  git('add', 'test/probe.test.js');
  git('commit', '-q', '--amend', '--no-edit');
  return repo;
}

const verdictOf = (out: string) => JSON.parse(readFileSync(path.join(out, 'verdict.json'), 'utf8')) as Verdict;

test('under --sandbox bwrap no run sees a tool’s command line or the checkout: ACCEPT', async (t) => {
  const repo = probed();
  const r = await gate(repo, [...RANGE, '--out', 'ev', '--mutate-max', '2', '--sandbox', 'bwrap']);
  const out = path.join(repo, 'ev');
  const v = verdictOf(out);
  t.is(v.verdict, 'ACCEPT', `${r.stderr}\n${JSON.stringify(v.reasons)}`);
  t.regex(readFileSync(path.join(out, 'coverage.log'), 'utf8'), /probe saw: \[\]/, 'the coverage run is sandboxed too');
});

test('without the sandbox the same probe finds the tools’ command lines and the checkout: the patch is not accepted', async (t) => {
  const repo = probed();
  const r = await gate(repo, [...RANGE, '--out', 'ev', '--mutate-max', '2']);
  const out = path.join(repo, 'ev');
  const v = verdictOf(out);
  t.not(v.verdict, 'ACCEPT', r.stderr);
  t.true(
    v.reasons.some((x) => x.code === 'COLLATERAL_REGRESSION'),
    `the probe fails on the patch: ${JSON.stringify(v.reasons)}`,
  );
  t.regex(readFileSync(path.join(out, 'coverage.log'), 'utf8'), /probe saw: \[".+/);
});
