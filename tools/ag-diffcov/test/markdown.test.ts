import test from 'ava';
import type { DiffcovArtefact } from '@adversary-gate/schemas';
import { headline, renderMarkdown } from '../src/render/markdown.js';

const base: DiffcovArtefact = {
  schema: 'adversary-gate/diffcov',
  schema_version: 1,
  tool: { name: 'ag-diffcov', version: '0' },
  subject: { diff_sha256: `sha256:${'0'.repeat(64)}` },
  inputs: [],
  faults: [],
  diff_coverage_source: 'computed',
  diff_coverage_ratio: 14 / 16,
  reason: null,
  totals: { measured: 16, covered: 14, uncovered: 2 },
  files: [
    {
      path: 'src/a|b.ts',
      in_report: true,
      covered: [[1, 14]],
      uncovered: [[20, 21]],
      non_executable: [],
      report_paths: [],
    },
  ],
  unmatched_files: [],
  excluded_files: [],
  pragmas: [{ path: 'src/a|b.ts', line: 3, text: '/* c8 ignore next */' }],
  formats: ['lcov'],
};

test('the headline reads like a pull-request comment', (t) => {
  t.is(headline(base), 'Patch coverage 87.5% (14/16 changed lines)');
});

test('percentages are truncated, never rounded up to 100%', (t) => {
  t.is(
    headline({ ...base, diff_coverage_ratio: 1999 / 2000, totals: { measured: 2000, covered: 1999, uncovered: 1 } }),
    'Patch coverage 99.9% (1999/2000 changed lines)',
  );
});

test('none, untrusted and nothing-to-cover say so instead of a number', (t) => {
  t.regex(
    headline({ ...base, diff_coverage_source: 'none', diff_coverage_ratio: null, reason: 'no_coverage_report' }),
    /not measured/,
  );
  t.regex(
    headline({ ...base, diff_coverage_source: 'untrusted', diff_coverage_ratio: 0.9 }),
    /90\.0% \*\*asserted by the caller\*\*/,
  );
  t.regex(headline({ ...base, diff_coverage_ratio: null, reason: 'no_executable_changed_lines' }), /nothing to cover/);
});

test('the table lists uncovered ranges, pragmas and escapes table syntax', (t) => {
  const md = renderMarkdown(base);
  t.true(md.includes('| `src/a\\|b.ts` | 14 | 2 | 0 | 20-21 |'));
  t.true(md.includes('`src/a\\|b.ts:3` — `/* c8 ignore next */`'));
});

test('no report: the changed source files whose lines were not measured are listed', (t) => {
  const md = renderMarkdown({
    ...base,
    diff_coverage_source: 'none',
    diff_coverage_ratio: null,
    reason: 'no_coverage_report',
    files: [],
    pragmas: [],
    unmeasured_files: [
      {
        path: 'src/a.ts',
        added: [
          [2, 4],
          [9, 9],
        ],
      },
    ],
  });
  t.regex(md, /not measured\*\* \(no coverage report\)/);
  t.regex(md, /\*\*1 changed source file\(s\) whose lines were not measured:\*\*\n\n- `src\/a\.ts` — lines 2-4, 9/);
  t.false(renderMarkdown(base).includes('were not measured'), 'honest control: a measured run lists none');
});

test('lines under a pragma and lines run in part are listed, and a check on added lines only says so', (t) => {
  const md = renderMarkdown({
    ...base,
    pragma_scope: 'added_lines',
    ignored_by_pragma: [
      { path: 'src/a|b.ts', pragma_line: 19, pragma: '/* c8 ignore next 2 */', lines: [[20, 21]] },
      { path: 'x.py', pragma: "excluded by the report (coverage.py's excluded_lines)", lines: [[4, 4]] },
    ],
    branch_unrun: [{ path: 'src/a|b.ts', lines: [[7, 7]] }],
  });
  t.true(md.includes('- `src/a\\|b.ts:19` `/* c8 ignore next 2 */` — lines 20-21'));
  t.true(md.includes("- `x.py` `excluded by the report (coverage.py's excluded_lines)` — lines 4"));
  t.true(md.includes('- `src/a\\|b.ts` — lines 7'));
  t.regex(md, /looked for on the added lines only/);
  t.notRegex(renderMarkdown({ ...base, pragma_scope: 'patch_tree' }), /added lines only/);
});
