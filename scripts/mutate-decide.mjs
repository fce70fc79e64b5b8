#!/usr/bin/env node
// Mutation-test ag-decide's decision rules with ag-mutate.
//
//   node scripts/mutate-decide.mjs [--jobs N] [--max N] [--with-decide] [--keep DIR]
//
// Builds a diff that adds every line of the decision rules (src/rules/*.ts and the
// precedence in src/reasons.ts; with --with-decide also src/decide.ts, the evidence
// intake) to an empty tree, stages ag-decide's sources and unit tests in a
// temporary tree laid out like this repository (node_modules linked read-only), and runs
// the built ag-mutate on it. The test command is ag-decide's in-process unit tests (they
// import src/ through tsx, so every mutant is really what runs); the CLI tests are left
// out because they run the bundled dist/, which a mutant of src/ does not change.
// Prints the suite strength and every surviving mutant; exits 0 when it measured, 2 when not.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { addedFileDiff } from './lib/diff.mjs';
import { copyBuiltPackage, linkNodeModules } from './lib/node-modules.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const PKG = 'tools/ag-decide';
/** The unit tests of the decision (bad-input.test.ts joins them with --with-decide: it tests the intake). */
const RULE_TESTS = ['test/decide.test.ts', 'test/monotonic.test.ts', 'test/rules-mutants.test.ts'];
const INTAKE_TESTS = ['test/bad-input.test.ts'];

const { values: opts } = parseArgs({
  options: {
    jobs: { type: 'string', default: String(os.availableParallelism()) },
    max: { type: 'string' },
    keep: { type: 'string' },
    'with-decide': { type: 'boolean', default: false },
  },
});

/** The rule modules whose every line is mutated (repository-relative). */
function ruleFiles() {
  const rules = readdirSync(path.join(ROOT, PKG, 'src/rules'))
    .filter((f) => f.endsWith('.ts'))
    .sort()
    .map((f) => `src/rules/${f}`);
  const extra = opts['with-decide'] ? ['src/decide.ts'] : [];
  return [...rules, 'src/reasons.ts', ...extra].map((f) => `${PKG}/${f}`);
}

/**
 * A tree laid out like the repository holding ag-decide's sources and tests, and private
 * copies of the built packages it imports (so a rebuild in the checkout cannot kill a mutant).
 */
function stageTree(dir) {
  mkdirSync(path.join(dir, PKG), { recursive: true });
  for (const part of ['src', 'test', 'package.json', 'tsconfig.json']) {
    cpSync(path.join(ROOT, PKG, part), path.join(dir, PKG, part), { recursive: true });
  }
  cpSync(path.join(ROOT, 'tsconfig.base.json'), path.join(dir, 'tsconfig.base.json'));
  for (const dep of ['schemas', 'tools/ag-core']) copyBuiltPackage(ROOT, dir, dep);
  linkNodeModules(ROOT, dir);
}

const work = opts.keep ?? mkdtempSync(path.join(os.tmpdir(), 'ag-mutate-decide-'));
mkdirSync(work, { recursive: true });
const tree = path.join(work, 'tree');
rmSync(tree, { recursive: true, force: true });
stageTree(tree);
const files = ruleFiles();
const tests = [...RULE_TESTS, ...(opts['with-decide'] ? INTAKE_TESTS : [])].filter((t) =>
  existsSync(path.join(tree, PKG, t)),
);
const diff = files.map((f) => addedFileDiff(f, readFileSync(path.join(ROOT, f), 'utf8'))).join('');
writeFileSync(path.join(work, 'rules.diff'), diff);

const ava = 'node ../../node_modules/ava/entrypoints/cli.mjs';
const testCommand = `cd ${PKG} && ${ava} ${tests.join(' ')}`;
const mutantCommand = `cd ${PKG} && ${ava} --fail-fast ${tests.join(' ')}`;
const out = path.join(work, 'mutation.json');
const args = [
  path.join(ROOT, 'tools/ag-mutate/bin/ag-mutate.js'),
  '--diff',
  path.join(work, 'rules.diff'),
  '--tree',
  tree,
  '--test-command',
  testCommand,
  '--mutant-command',
  mutantCommand,
  '--jobs',
  opts.jobs,
  '--progress',
  '--out',
  out,
];
if (opts.max !== undefined) args.push('--max', opts.max);

console.log(`files:   ${files.join(' ')}`);
console.log(`tests:   ${testCommand}`);
console.log(`mutants: ${mutantCommand}`);
const started = Date.now();
const r = spawnSync(process.execPath, args, { stdio: ['ignore', 'inherit', 'inherit'] });
const seconds = ((Date.now() - started) / 1000).toFixed(0);
if (r.status !== 0) {
  console.error(`mutate-decide: ag-mutate exited ${r.status ?? r.signal}; nothing measured (work dir ${work})`);
  process.exit(2);
}
const m = JSON.parse(readFileSync(out, 'utf8'));
const c = m.counts;
console.log(
  `\nsuite strength ${m.suite_strength === null ? `not measured (${m.reason})` : m.suite_strength.toFixed(4)}` +
    ` — killed ${c.killed}, timeout ${c.timeout}, survived ${c.survived}, no_coverage ${c.no_coverage}, stillborn ${c.stillborn}; ${seconds} s, --jobs ${opts.jobs}`,
);
const survivors = m.mutants.filter((x) => x.status === 'survived' || x.status === 'no_coverage');
for (const s of survivors) {
  console.log(
    `  ${s.status.padEnd(11)} ${s.file}:${s.line}:${s.column} ${s.operator}: ${JSON.stringify(s.original)} → ${JSON.stringify(s.replacement)}`,
  );
}
console.log(`mutation.json: ${out}`);
if (opts.keep === undefined) rmSync(tree, { recursive: true, force: true });
process.exit(m.suite_strength === null ? 2 : 0);
