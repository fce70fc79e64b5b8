import test from 'ava';
import { parseUnifiedDiff } from '@adversary-gate/core';
import {
  DEFAULT_PROTECTED,
  findProtectedTouches,
  protectedMatcher,
  protectedPatterns,
} from '../src/protect/protected.js';

const match = protectedMatcher(protectedPatterns(['tests/oracle/**', 'docs/café/**']));

test('the defaults protect the policy, verdicts, CI, code owners and git metadata', (t) => {
  for (const p of [
    'adversary-gate.json',
    'verdict.json',
    'out/verdict.json',
    '.github/workflows/ci.yml',
    '.github/actions/x/action.yml',
    'CODEOWNERS',
    '.github/CODEOWNERS',
    'docs/CODEOWNERS',
    '.gitattributes',
    'sub/.gitattributes',
    '.gitmodules',
    '.gitlab-ci.yml',
    'Jenkinsfile',
  ]) {
    t.not(match(p), null, p);
  }
});

test('ordinary source, tests and docs are not protected', (t) => {
  for (const p of ['src/a.js', 'test/a.test.js', 'README.md', 'docs/guide.md', 'sub/adversary-gate.json.bak'])
    t.is(match(p), null, p);
});

test('spelling tricks do not dodge a protected glob', (t) => {
  t.is(match('TESTS/Oracle/a.js'), 'tests/oracle/**');
  t.is(match('./tests\\oracle\\a.js'), 'tests/oracle/**');
  t.is(match('.GitHub/Workflows/ci.yml'), '.github/workflows/**');
  t.is(match('docs/cafe\u0301/x.md'), 'docs/café/**');
  t.is(match('Adversary-Gate.json'), 'adversary-gate.json');
});

test('the first matching pattern is named, the policy before the defaults', (t) => {
  const m = protectedMatcher(protectedPatterns(['**/*.json']));
  t.is(m('adversary-gate.json'), '**/*.json');
  t.true(DEFAULT_PROTECTED.includes('adversary-gate.json'));
});

test('old and new names of a rename are both matched, one hit per path, sorted', (t) => {
  const diff = parseUnifiedDiff(
    'diff --git a/tests/oracle/a.js b/src/a.js\nsimilarity index 100%\nrename from tests/oracle/a.js\nrename to src/a.js\n' +
      'diff --git a/verdict.json b/verdict.json\nnew file mode 100644\n--- /dev/null\n+++ b/verdict.json\n@@ -0,0 +1 @@\n+{}\n',
  );
  t.deepEqual(findProtectedTouches(diff.files, protectedPatterns(['tests/oracle/**'])), [
    { path: 'tests/oracle/a.js', pattern: 'tests/oracle/**' },
    { path: 'verdict.json', pattern: '**/verdict.json' },
  ]);
});
