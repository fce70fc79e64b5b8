// A hunk that only adds one `if` (a fast path): recognised, its mutants all judged, or no claim.
import test from 'ava';
import { addsOneGuard } from '../src/added-guard.js';
import type { Site } from '../src/engines/site.js';
import type { Hunk } from '../src/hunks.js';
import { guardsFullyJudged, type RevertPlan } from '../src/revert-plan.js';
import { GUARD_SITES, withGuardSites } from '../src/select.js';

const added = (newStart: number, newLines: number): Hunk => ({
  oldStart: newStart - 1,
  oldLines: 0,
  newStart,
  newLines,
  removed: [],
});

const PY = [
  'def parse(text):',
  '    # plain byte counts skip the regex',
  '    if text.endswith("B") and text[:-1].isdigit():',
  '        return int(text[:-1])',
  '    return slow(text)',
  '',
].join('\n');

test('Python: one added `if` with its body is a guard; with an `else` after it, at top level, or beside a statement it is not', (t) => {
  t.true(addsOneGuard(PY, added(2, 3), 'python'));
  t.false(addsOneGuard(PY, added(2, 4), 'python'), 'the return after it too');
  t.false(addsOneGuard(PY.replace('    return slow', '    else:\n        return slow'), added(2, 3), 'python'));
  t.false(addsOneGuard('if DEBUG:\n    print(1)\n', added(1, 2), 'python'), 'top level');
  t.false(addsOneGuard(PY, { ...added(2, 3), removed: ['    pass'] }, 'python'), 'lines removed too');
});

test('JavaScript: one added `if` (a block or a single line) is a guard; an `else` after it or a second statement is not', (t) => {
  const js =
    'function parse(text) {\n  if (/^\\d+B$/.test(text)) {\n    return Number(text.slice(0, -1));\n  }\n  return slow(text);\n}\n';
  t.true(addsOneGuard(js, added(2, 3), 'js'));
  t.true(addsOneGuard('function f(x) {\n  if (x === 0) return 1;\n  return g(x);\n}\n', added(2, 1), 'js'));
  t.false(addsOneGuard(js.replace('  }\n  return slow', '  } else {\n  return slow'), added(2, 3), 'js'));
  t.false(addsOneGuard('function f(x) {\n  if (x === 0) return 1;\n  x++;\n  return g(x);\n}\n', added(2, 2), 'js'));
});

const site = (line: number, extra: Partial<Site> = {}): Site =>
  ({
    file: 'm.py',
    line,
    column: 1,
    start: line * 10,
    end: line * 10 + 1,
    operator: 'X',
    rank: 1,
    original: 'a',
    replacement: 'b',
    parses: true,
    ...extra,
  }) as Site;
const guard = site(3, {
  operator: 'Revert',
  revert: { header: '@@ -2,0 +3,2 @@', oldStart: 2, oldLines: 0, newStart: 3, newLines: 2, text: '', addedGuard: true },
});

test("the budget's choice gains the added guard's sites left out, up to the bound; past it the choice stands", (t) => {
  const all = [site(1), site(3), site(4), site(9)];
  t.deepEqual(
    withGuardSites([all[0]!], all, [guard]).map((s) => s.line),
    [1, 3, 4],
  );
  const many = [site(1), ...Array.from({ length: GUARD_SITES + 1 }, () => site(3))];
  t.deepEqual(withGuardSites([many[0]!], many, [guard]), [many[0]!]);
});

test('a guard whose sites were not all judged is recorded without added_guard', (t) => {
  const record = {
    id: 'r',
    file: 'm.py',
    hunk: '@@ -2,0 +3,2 @@',
    old_start: 2,
    old_lines: 0,
    new_start: 3,
    new_lines: 2,
    original: '',
    replacement: '',
    status: 'survived' as const,
    killed_by: null,
    added_guard: true as const,
  };
  const plan: RevertPlan = { run: [guard], spots: [], noneNeeded: false, records: () => [record] };
  const all = [site(3), site(4)];
  t.is(guardsFullyJudged(plan, all, all).records(new Map())[0]!.added_guard, true);
  t.is(guardsFullyJudged(plan, all, [all[0]!]).records(new Map())[0]!.added_guard, undefined);
});
