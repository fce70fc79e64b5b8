#!/usr/bin/env node
// The self-check's test command, run by the gate in a copy of a tree:
//
//   node run-tests.mjs --junit FILE [--fail-fast] TARGET...
//
// TARGET is a package folder (its whole ava suite) or `DIR:FILE` (one test file of it; a
// file the tree does not have is left out, so a renamed file runs on each side under its
// own name). Each package's ava runs with --tap; the results are written as one JUnit
// report at FILE (relative to the tree) so the gate can compare tests across the trees.
// Exit: 0 all passed, 1 a test failed, 5 nothing ran, another code when ava could not run.
import { spawnSync } from 'node:child_process';
import { existsSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  options: { junit: { type: 'string' }, 'fail-fast': { type: 'boolean', default: false } },
  allowPositionals: true,
});
if (values.junit === undefined || positionals.length === 0) {
  console.error('usage: run-tests.mjs --junit FILE TARGET...');
  process.exit(3);
}
const tree = process.cwd();

/** @type {Map<string, string[]>} package folder → files ([] = the whole suite) */
const groups = new Map();
for (const t of positionals) {
  const [dir, file] = t.includes(':') ? t.split(':', 2) : [t, undefined];
  if (!groups.has(dir)) groups.set(dir, []);
  if (file !== undefined) {
    if (existsSync(path.join(tree, dir, file))) groups.get(dir).push(file);
    else console.log(`# ${dir}/${file}: not in this tree, left out`);
  }
}
const wanted = new Set(positionals.filter((t) => !t.includes(':')));

const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const cases = [];
let worst = 0;
for (const [dir, files] of groups) {
  if (files.length === 0 && !wanted.has(dir)) continue;
  console.log(`# ${dir}: ava ${files.length === 0 ? '(whole suite)' : files.join(' ')}`);
  const r = spawnSync(
    process.execPath,
    [
      path.join(tree, 'node_modules/ava/entrypoints/cli.mjs'),
      '--tap',
      ...(values['fail-fast'] ? ['--fail-fast'] : []),
      ...files,
    ],
    {
      cwd: path.join(tree, dir),
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      // Under the gate's address-space limit, V8's WebAssembly guard regions cannot be
      // reserved and tsx (its lexer is Wasm) dies; without the trap handler Wasm needs none.
      env: { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --disable-wasm-trap-handler`.trim() },
      maxBuffer: 256 * 1024 * 1024,
    },
  );
  process.stdout.write(r.stdout ?? '');
  const code = r.status ?? 2;
  if (code !== 0) worst = worst === 0 || worst === 1 ? code : worst;
  if (code !== 0 && values['fail-fast']) break;
  const label = files.length === 1 ? `${files[0].replace(/^.*\//, '').replace(/\.test\.ts$/, '')} › ` : '';
  for (const line of (r.stdout ?? '').split('\n')) {
    const m = /^(not )?ok \d+ - (.*?)(?: # (SKIP|TODO)\b.*)?$/.exec(line);
    if (m === null) continue;
    const outcome = m[3] !== undefined ? 'skipped' : m[1] ? 'failed' : 'passed';
    cases.push({ classname: dir, name: `${label}${m[2]}`, outcome });
  }
}

const failed = cases.filter((c) => c.outcome === 'failed').length;
const skipped = cases.filter((c) => c.outcome === 'skipped').length;
const body = cases
  .map((c) => {
    const inner = c.outcome === 'failed' ? '<failure message="failed"/>' : c.outcome === 'skipped' ? '<skipped/>' : '';
    return `    <testcase classname="${esc(c.classname)}" name="${esc(c.name)}">${inner}</testcase>`;
  })
  .join('\n');
const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites tests="${cases.length}" failures="${failed}" skipped="${skipped}">\n  <testsuite name="self-check" tests="${cases.length}" failures="${failed}" skipped="${skipped}">\n${body}\n  </testsuite>\n</testsuites>\n`;
const junit = path.resolve(tree, values.junit);
writeFileSync(`${junit}.tmp`, xml);
renameSync(`${junit}.tmp`, junit);
console.log(`${cases.length - failed - skipped} passed, ${failed} failed, ${skipped} skipped`);
process.exit(cases.length === 0 ? (worst === 0 ? 5 : worst) : worst !== 0 ? worst : failed > 0 ? 1 : 0);
