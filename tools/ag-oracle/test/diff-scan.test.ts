import test from 'ava';
import { parseUnifiedDiff, type ChangedFile } from '@adversary-gate/core';
import { assertionFinding, markerFindings, scanChangedFile } from '../src/tamper/diff-scan.js';
import { isRunnableTest } from '../src/tamper/test-files.js';
import { OPENS_A, OPENS_A_SKIPPED, SKIP_CALL } from './fixtures/markers.js';

const rules = { isTestFile: isRunnableTest, isRunnableTest };

function change(path: string, removed: string[], added: string[]): ChangedFile {
  const body = [...removed.map((l) => `-${l}`), ...added.map((l) => `+${l}`)].join('\n');
  return parseUnifiedDiff(
    `diff --git a/${path} b/${path}\n--- a/${path}\n+++ b/${path}\n@@ -10,${removed.length} +10,${added.length} @@\n${body}\n`,
  ).files[0]!;
}

test('a marker on an added line is reported at its new line', (t) => {
  const f = change('test/a.test.js', [OPENS_A], [OPENS_A_SKIPPED]);
  t.deepEqual(markerFindings(f, true), [
    { kind: 'skip_added', path: 'test/a.test.js', line: 10, detail: 'test.skip added' },
  ]);
  t.is(markerFindings(f, false)[0]!.kind, 'skip_added_new_file');
});

test('a marker line that only moved or was re-indented is not added', (t) => {
  const f = change('test/a.test.js', [`  ${OPENS_A_SKIPPED}`], [OPENS_A_SKIPPED]);
  t.deepEqual(markerFindings(f, true), []);
});

test('net assertions removed are reported with the first removed line on the baseline side', (t) => {
  const f = change(
    'test/a.test.js',
    ['  assert.equal(a, 1);', '  assert.equal(b, 2);', '  const c = 3;'],
    ['  assert.ok(a);'],
  );
  t.deepEqual(assertionFinding(f), {
    kind: 'assertion_removed',
    path: 'test/a.test.js',
    line: 10,
    detail: 'net 1 assertion removed (2 removed, 1 added); line 10 is on the baseline side',
  });
  t.is(assertionFinding(change('test/a.test.js', ['  assert.equal(a, 1);'], ['  expect(a).toBe(1);'])), null);
});

test('source files are not scanned for markers or assertions', (t) => {
  t.deepEqual(scanChangedFile(change('src/a.js', ['assert(x)'], [SKIP_CALL]), rules, true), []);
});

test('a deleted runnable test is lost; a deleted helper is not', (t) => {
  const del = (p: string) =>
    parseUnifiedDiff(
      `diff --git a/${p} b/${p}\ndeleted file mode 100644\n--- a/${p}\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n`,
    ).files[0]!;
  t.deepEqual(scanChangedFile(del('test/a.test.js'), rules, true), [
    { kind: 'test_file_deleted', path: 'test/a.test.js', line: null, detail: 'test file deleted' },
  ]);
  t.deepEqual(scanChangedFile(del('test/helpers/h.js'), rules, true), []);
});

test("a rename out of the runners' patterns is reported; between test names it is not", (t) => {
  const ren = (a: string, b: string) =>
    parseUnifiedDiff(`diff --git a/${a} b/${b}\nsimilarity index 100%\nrename from ${a}\nrename to ${b}\n`).files[0]!;
  t.deepEqual(
    scanChangedFile(ren('test/a.test.js', 'test/a.test.js.off'), rules, true).map((f) => f.kind),
    ['test_file_renamed'],
  );
  t.deepEqual(scanChangedFile(ren('test/a.test.js', 'test/b.test.js'), rules, true), []);
});
