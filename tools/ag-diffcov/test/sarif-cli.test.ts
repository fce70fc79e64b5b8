// Every SARIF log the binary writes is valid against the official SARIF 2.1.0 schema (OASIS
// errata01, vendored in test/fixtures/sarif): measured, not measured (no report, a caller's
// ratio, faults), paths with spaces and non-ASCII characters, to a file and to stdout.
import test, { type ExecutionContext } from 'ava';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { classifyPath, fromRanges, parseUnifiedDiff, sourceAddedLines } from '@adversary-gate/core';
import { parseArtefact } from '@adversary-gate/schemas';
import { sarifProblems } from './helpers/sarif-schema.js';
import { gitRepo, run, tempDir } from './helpers/repo.js';

const EDGE = fileURLToPath(new URL('./fixtures/corpus/edge-semantics/', import.meta.url));
const EDGE_DIFF = path.join(EDGE, 'patch.diff');

/** Run the binary with `--sarif FILE`; returns the parsed log. */
async function sarifOf(t: ExecutionContext, args: string[]): Promise<any> {
  const dir = tempDir();
  const file = path.join(dir, 'diffcov.sarif');
  const r = await run([...args, '--out', path.join(dir, 'diffcov.json'), '--sarif', file]);
  t.is(r.code, 0, r.stderr);
  const log = JSON.parse(readFileSync(file, 'utf8'));
  t.deepEqual(sarifProblems(log), [], 'valid against the SARIF 2.1.0 schema');
  log.artefact = parseArtefact(
    path.join(dir, 'diffcov.json'),
    readFileSync(path.join(dir, 'diffcov.json')),
    'diffcov',
  ).value;
  return log;
}

const uris = (log: any, rule: string) =>
  log.runs[0].results
    .filter((r: any) => r.ruleId === rule)
    .map((r: any) => r.locations[0].physicalLocation.artifactLocation.uri);

test('measured, with a space and a non-ASCII path and a file missing from the report (edge-semantics)', async (t) => {
  for (const report of ['lcov.info', 'coverage.xml']) {
    const log = await sarifOf(t, ['--diff', EDGE_DIFF, '--coverage', path.join(EDGE, report)]);
    t.deepEqual(
      uris(log, 'uncovered-changed-lines'),
      ['a.py', 'b.py', 'c.py', 'crlf.py', 'new_name.py', 'sp%20ace.py'],
      report,
    );
    t.deepEqual(log.runs[0].invocations[0].toolExecutionNotifications, [], report);
  }
});

test('no report: every changed source file warned at its first changed line, spaces and non-ASCII encoded', async (t) => {
  const log = await sarifOf(t, ['--diff', EDGE_DIFF]);
  t.deepEqual(uris(log, 'coverage-not-measured'), [
    'a.py',
    'b.py',
    'c.py',
    'crlf.py',
    'new_name.py',
    'sp%20ace.py',
    '%C3%BCn%C3%AF.py',
  ]);
  // the artefact's unmeasured_files are the changed source lines by ag-core's rule (what ag-decide checks)
  const expected = sourceAddedLines(parseUnifiedDiff(readFileSync(EDGE_DIFF, 'utf8')), classifyPath);
  t.deepEqual(
    Object.fromEntries(
      (log.artefact.unmeasured_files as { path: string; added: [number, number][] }[]).map((f) => [
        f.path,
        fromRanges(f.added),
      ]),
    ),
    Object.fromEntries([...expected].map(([p, lines]) => [p, [...lines]])),
  );
  t.is(log.runs[0].invocations[0].toolExecutionNotifications.length, 1);
});

test('a caller-asserted ratio: warned as not measured', async (t) => {
  const log = await sarifOf(t, ['--diff', EDGE_DIFF, '--coverage-ratio', '1', '--coverage-source', 'untrusted']);
  t.is(uris(log, 'coverage-not-measured').length, 7);
  t.regex(log.runs[0].results[0].message.text, /asserted by the caller/);
});

test('an empty report (fault): warned as not measured, the fault notified', async (t) => {
  const dir = tempDir();
  writeFileSync(path.join(dir, 'e.info'), 'TN:\n');
  const log = await sarifOf(t, ['--diff', EDGE_DIFF, '--coverage', path.join(dir, 'e.info')]);
  t.is(uris(log, 'coverage-not-measured').length, 7);
  t.regex(JSON.stringify(log.runs[0].invocations[0].toolExecutionNotifications), /EMPTY_REPORT/);
});

test('an empty diff (fault): no file to point at, so a notification', async (t) => {
  const dir = tempDir();
  writeFileSync(path.join(dir, 'empty.diff'), '');
  const log = await sarifOf(t, ['--diff', path.join(dir, 'empty.diff')]);
  t.deepEqual(log.runs[0].results, []);
  t.regex(JSON.stringify(log.runs[0].invocations[0].toolExecutionNotifications), /no coverage report/);
});

test('a coverage pragma in a file under a directory with a space and a non-ASCII name; SARIF on stdout', async (t) => {
  const repo = gitRepo(
    { 'src dir/ünï.js': 'export const a = 1;\n' },
    { 'src dir/ünï.js': 'export const a = 1;\n/* c8 ignore next */\nexport const b = 2;\n' },
  );
  const lcov = path.join(repo.dir, 'lcov.info');
  writeFileSync(lcov, 'TN:\nSF:src dir/ünï.js\nDA:1,1\nDA:3,0\nend_of_record\n');
  const r = await run([
    '--diff',
    repo.diff,
    '--coverage',
    lcov,
    '--out',
    path.join(repo.dir, 'd.json'),
    '--sarif',
    '-',
  ]);
  t.is(r.code, 0, r.stderr);
  const log = JSON.parse(r.stdout);
  t.deepEqual(sarifProblems(log), []);
  t.deepEqual(uris(log, 'coverage-pragma-added'), ['src%20dir/%C3%BCn%C3%AF.js']);
  t.deepEqual(uris(log, 'uncovered-changed-lines'), ['src%20dir/%C3%BCn%C3%AF.js']);
});
