import test from 'ava';
import type { VerdictArtefact } from '@adversary-gate/schemas';
import { MAX_ANNOTATIONS, renderAnnotations, type Finding } from '../src/index.js';
import { decideWith, golden } from './helpers/golden.js';

/** A REJECT verdict (a skipped test) and an ACCEPT one, as ag-decide gives them. */
function rejected(): VerdictArtefact {
  const g = golden();
  g.run.test_deltas.tests_newly_skipped = ['test/calc.test.js::adds'];
  return decideWith(g);
}

const finding = (level: Finding['level'], i: number): Finding => ({
  level,
  file: `src/f${i}.js`,
  line: i,
  endLine: i,
  title: level === 'error' ? 'Coverage pragma added' : 'Mutant survived',
  message: `finding ${i}`,
});
const many = (errors: number, warnings: number): Finding[] => [
  // Warnings first, as findings() may give them: the errors must still come first.
  ...Array.from({ length: warnings }, (_, i) => finding('warning', 100 + i)),
  ...Array.from({ length: errors }, (_, i) => finding('error', i + 1)),
];
const lines = (v: VerdictArtefact, f: readonly Finding[]) => renderAnnotations(v, f).trimEnd().split('\n');
/** The lines GitHub counts against its 10 a step: `::error` and `::warning`. */
const counted = (ls: readonly string[]) => ls.filter((l) => /^::(error|warning)[ :]/.test(l));

test('GitHub shows 10 annotations a step: the cap is 10', (t) => {
  t.is(MAX_ANNOTATIONS, 10);
});

test('up to the cap, every finding is annotated and nothing says more', (t) => {
  const verdict = rejected();
  t.is(verdict.verdict, 'REJECT');
  const ls = lines(verdict, many(3, 6));
  t.is(counted(ls).length, 10);
  t.is(ls.length, 10);
  t.regex(ls[0] ?? '', /^::error title=adversary-gate%3A REJECT::TEST_SKIPPED$/);
  t.false(ls.some((l) => /more finding/.test(l)));
  // Errors before warnings.
  t.deepEqual(
    ls.slice(1).map((l) => l.slice(0, l.indexOf(' '))),
    [...Array<string>(3).fill('::error'), ...Array<string>(6).fill('::warning')],
  );
});

test('over the cap: 10 lines, the verdict first, the 10th saying how many more and where they all are', (t) => {
  const verdict = rejected();
  const ls = lines(verdict, many(4, 20));
  t.is(ls.length, MAX_ANNOTATIONS);
  t.is(counted(ls).length, MAX_ANNOTATIONS);
  t.regex(ls[0] ?? '', /^::error title=adversary-gate%3A REJECT::/);
  // 8 findings shown (every error first), 24 - 8 = 16 left out and counted.
  t.is(ls.filter((l) => l.includes('file=')).length, 8);
  t.is(ls.filter((l) => l.startsWith('::error file=')).length, 4);
  t.is(
    ls[9],
    '::warning title=adversary-gate%3A 16 more findings::16 more findings not annotated here (GitHub shows 10 annotations a step): every finding is in the job summary and verdict.md',
  );
});

test('over the cap with errors left out, the last line is an error; one finding over the cap leaves 2 out', (t) => {
  const ls = lines(rejected(), many(12, 0));
  t.is(ls.length, MAX_ANNOTATIONS);
  t.regex(ls[9] ?? '', /^::error title=adversary-gate%3A 4 more findings::4 more findings not annotated here/);
  const over = lines(rejected(), many(10, 0));
  t.is(over.length, MAX_ANNOTATIONS);
  t.regex(over[9] ?? '', /^::error title=adversary-gate%3A 2 more findings::/);
  const warnings = lines(rejected(), many(0, 10));
  t.is(warnings.length, MAX_ANNOTATIONS);
  t.regex(warnings[9] ?? '', /^::warning title=adversary-gate%3A 2 more findings::/);
  const exact = lines(rejected(), many(0, 9));
  t.is(exact.length, MAX_ANNOTATIONS);
  t.false(exact.some((l) => /more finding/.test(l)));
});

test('an ACCEPT verdict is a notice, outside the cap: 10 warnings then the notice; 11 make the 10th say 2 more', (t) => {
  const accept = decideWith(golden());
  t.is(accept.verdict, 'ACCEPT');
  const ten = lines(accept, many(0, 10));
  t.regex(ten[0] ?? '', /^::notice title=adversary-gate%3A ACCEPT::/);
  t.is(counted(ten).length, 10);
  t.false(ten.some((l) => /more finding/.test(l)));
  const eleven = counted(lines(accept, many(0, 11)));
  t.is(eleven.length, 10);
  t.regex(eleven[9] ?? '', /^::warning title=adversary-gate%3A 2 more findings::/);
  const twelve = counted(lines(accept, many(0, 12)));
  t.regex(twelve[9] ?? '', /3 more findings/);
});
