import test from 'ava';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { bindDiff, classifyPath } from '@adversary-gate/core';
import { loadJson } from '@adversary-gate/schemas';
import { importStryker, reportPath, StrykerReport, type StrykerReport as Report } from '../src/import-stryker.js';

const BENCH = fileURLToPath(new URL('./fixtures/stryker', import.meta.url));
const INPUT = { path: 'r.json', sha256: `sha256:${'3'.repeat(64)}` as const };

async function benchCase(name: string, report: string) {
  const diff = bindDiff('commit.diff', readFileSync(path.join(BENCH, name, 'commit.diff')));
  const { value } = await loadJson(path.join(BENCH, name, report), StrykerReport);
  return importStryker(value, diff, INPUT, classifyPath);
}

test("StrykerJS's perTest report on express-query-fresh says 14 killed / 1 survived; the fresh-process report 8 / 7", async (t) => {
  const perTest = await benchCase('express-query-fresh', 'stryker-report.json');
  t.deepEqual([perTest.counts.killed, perTest.counts.survived], [14, 1]);
  const fresh = await benchCase('express-query-fresh', 'stryker-report-command-runner.json');
  t.deepEqual([fresh.counts.killed, fresh.counts.survived], [8, 7]);
  t.is(fresh.mutants.length, 15);
  t.is(new Set(fresh.mutants.map((m) => m.id)).size, 15);
});

test('the TypeScript checker report imports its compile errors as stillborn', async (t) => {
  const m = await benchCase('ptr-optional', 'stryker-report-typescript-checker.json');
  t.is(m.counts.stillborn, 3);
  t.is(m.faults.length, 0);
});

const diffText = (file: string) =>
  `diff --git a/${file} b/${file}\n--- a/${file}\n+++ b/${file}\n@@ -1,1 +1,2 @@\n x\n+y = 1\n`;

function report(files: Report['files']): Report {
  return { schemaVersion: '2', files };
}

test('an ignored mutant on a changed line is a fault; a changed file missing from the report is unjudged', (t) => {
  const diff = bindDiff('d', Buffer.from(diffText('src/a.js') + diffText('src/b.js')));
  const m = importStryker(
    report({
      'src/a.js': {
        mutants: [
          {
            id: '1',
            mutatorName: 'X',
            location: { start: { line: 2, column: 1 }, end: { line: 2, column: 2 } },
            status: 'Ignored',
          },
        ],
      },
    }),
    diff,
    INPUT,
    classifyPath,
  );
  t.deepEqual(
    m.faults.map((f) => f.code),
    ['MUTANT_IGNORED'],
  );
  t.deepEqual(m.foreign_changed_files, ['src/b.js']);
  t.true(m.suite_strength_unverified);
  t.is(m.reason, 'no_mutants');
});

test('mutants outside the added lines are dropped', (t) => {
  const diff = bindDiff('d', Buffer.from(diffText('src/a.js')));
  const loc = (line: number) => ({ start: { line, column: 1 }, end: { line, column: 3 } });
  const m = importStryker(
    report({
      'src/a.js': {
        mutants: [
          { id: '1', mutatorName: 'X', location: loc(1), status: 'Survived' },
          { id: '2', mutatorName: 'X', location: loc(2), status: 'Killed' },
        ],
      },
    }),
    diff,
    INPUT,
    classifyPath,
  );
  t.is(m.mutants.length, 1);
  t.is(m.suite_strength, 1);
});

test('report paths are made relative to the project root', (t) => {
  t.is(reportPath('/repo/src/a.js', '/repo'), 'src/a.js');
  t.is(reportPath('./src/a.js', undefined), 'src/a.js');
  t.is(reportPath('C:\\x\\a.js', undefined), 'C:/x/a.js');
  t.is(reportPath('/elsewhere/a.js', '/repo'), null);
});
