import test from 'ava';
import { makeMatcher } from '../src/paths/match.js';
import { normaliseReportPath as p } from '../src/paths/normalise.js';

const diff = ['src/a.ts', 'packages/x/src/b.ts', 'packages/y/src/b.ts', 'pkg/util.go', 'lib.py'];

test('an exact relative path matches', (t) => {
  t.deepEqual(makeMatcher(diff, null).assign(p('src/a.ts')), { path: 'src/a.ts', rule: 'exact' });
});

test('an absolute path under --root matches exactly', (t) => {
  t.deepEqual(makeMatcher(diff, '/ci/repo').assign(p('/ci/repo/src/a.ts')), { path: 'src/a.ts', rule: 'exact' });
});

test('an absolute path from another checkout matches by whole-segment suffix', (t) => {
  const m = makeMatcher(diff, null);
  t.deepEqual(m.assign(p('/home/u/repo/src/a.ts')), { path: 'src/a.ts', rule: 'report_longer' });
  t.deepEqual(m.assign(p('C:\\build\\repo\\lib.py')), { path: 'lib.py', rule: 'report_longer' });
  t.is(m.assign(p('/home/u/repo/xsrc/a.ts')), null);
});

test('a Go import path matches the file by suffix', (t) => {
  t.deepEqual(makeMatcher(diff, null).assign(p('github.com/org/repo/pkg/util.go')), {
    path: 'pkg/util.go',
    rule: 'report_longer',
  });
});

test('a report relative to a sub-package matches when only one changed file ends with it', (t) => {
  const m = makeMatcher(['packages/x/src/c.ts'], null);
  t.deepEqual(m.assign(p('src/c.ts')), { path: 'packages/x/src/c.ts', rule: 'report_shorter' });
});

test('a short report path that fits several changed files is ambiguous', (t) => {
  t.deepEqual(makeMatcher(diff, null).assign(p('src/b.ts')), {
    ambiguous: ['packages/x/src/b.ts', 'packages/y/src/b.ts'],
  });
});

test('wants keeps only report files that can belong to a changed file', (t) => {
  const m = makeMatcher(diff, null);
  t.true(m.wants(p('./src/a.ts')));
  t.false(m.wants(p('src/other.ts')));
  t.false(m.wants(p('/abs/elsewhere.py')));
});
