import test from 'ava';
import { acceptedEvidence, findings, renderAnnotations, renderMarkdown } from '../src/index.js';
import { decideWith, evidenceFile, golden, mutant } from './helpers/golden.js';

function weakSet() {
  const g = golden();
  Object.assign(g.diffcov, { diff_coverage_ratio: 0.5, totals: { measured: 2, covered: 1, uncovered: 1 } });
  g.diffcov.files[0].covered = [[2, 2]];
  g.diffcov.files[0].uncovered = [[3, 3]];
  Object.assign(g.mutation, {
    suite_strength: 0.5,
    counts: { killed: 1, survived: 1, timeout: 0, stillborn: 0, no_coverage: 0 },
    mutants: [mutant('m1', 2, 'killed'), mutant('m2', 3, 'survived')],
  });
  g.run.test_deltas.tests_newly_skipped = ['test/calc.test.js::adds'];
  g.oracle.tampering = [{ kind: 'skip_added', path: 'test/calc.test.js', line: 2, detail: 'test.skip added' }];
  return g;
}

const render = (g: ReturnType<typeof golden>) => {
  const verdict = decideWith(g);
  const files = Object.entries(g).map(([kind, content]) => evidenceFile(`${kind}.json`, content));
  return { verdict, accepted: acceptedEvidence(verdict, files) };
};

test('the reviewer page puts the verdict first, then every section with findings', (t) => {
  const { verdict, accepted } = render(weakSet());
  const md = renderMarkdown(verdict, accepted);
  t.regex(md, /^## ⛔ adversary-gate: REJECT\n/);
  t.regex(md, /\| REJECT \| `TEST_SKIPPED` \| run \|/);
  t.regex(md, /Patch coverage 50\.0% \(1\/2 changed lines\)/);
  t.regex(md, /\| `src\/calc\.js` \| 1 \| 1 \| 3 \|/);
  t.regex(md, /### Surviving mutants[\s\S]*`src\/calc\.js:3`[\s\S]*```diff\n- \+\n\+ -\n```/);
  t.regex(md, /### Test deltas[\s\S]*newly skipped[\s\S]*`test\/calc\.test\.js::adds`/);
  t.regex(md, /### Oracle findings\n\n- skip_added at `test\/calc\.test\.js:2`/);
  t.true(md.indexOf('## ') < md.indexOf('### Coverage'), 'verdict before details');
});

test('a clean ACCEPT page has no finding sections', (t) => {
  const { verdict, accepted } = render(golden());
  const md = renderMarkdown(verdict, accepted);
  t.regex(md, /ACCEPT/);
  t.notRegex(md, /### (Surviving mutants|Test deltas|Oracle findings)/);
});

test('stale evidence is never rendered as a finding', (t) => {
  const g = weakSet();
  g.mutation.subject.diff_sha256 = `sha256:${'3'.repeat(64)}`;
  const { verdict, accepted } = render(g);
  t.is(accepted.mutation, undefined);
  t.notRegex(renderMarkdown(verdict, accepted), /Surviving mutants/);
});

test('annotations: one workflow command for the verdict, first, then one per finding, escaped', (t) => {
  const { verdict, accepted } = render(weakSet());
  const lines = renderAnnotations(verdict, findings(accepted)).trimEnd().split('\n');
  t.is(lines.length, 1 + findings(accepted).length);
  t.true(
    lines.includes(
      '::warning file=src/calc.js,line=3,title=Changed lines not executed::lines 3 were added by the patch and no test executed them',
    ),
  );
  t.true(lines.some((l) => l.startsWith('::warning file=src/calc.js,line=3,title=Mutant survived::')));
  t.true(lines.some((l) => l.startsWith('::error file=test/calc.test.js,line=2,title=Test tampering%3A skip_added::')));
  t.is(lines[0], '::error title=adversary-gate%3A REJECT::TEST_SKIPPED, COVERAGE_BELOW_FLOOR, STRENGTH_BELOW_FLOOR');
});
