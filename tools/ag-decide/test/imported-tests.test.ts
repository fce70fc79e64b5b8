// A test-named file that source imports is source: when coverage and mutation (which classify
// by name) left such a changed file out, the verdict says it was not measured.
import test from 'ava';
import { codes, decideWith, golden } from './helpers/golden.js';

test('a changed test-named file that source imports, judged by neither coverage nor mutation, holds naming it', (t) => {
  const g = golden();
  g.oracle.imported_tests = [{ path: 'test/calc.test.js', imported_by: 'src/calc.js' }];
  const v = decideWith(g);
  t.is(v.verdict, 'HOLD');
  t.deepEqual(codes(v), ['COVERAGE_NOT_MEASURED', 'STRENGTH_UNVERIFIED']);
  t.regex(v.reasons[0]!.message, /test\/calc\.test\.js is named like a test but src\/calc\.js imports it/);
});

test('honest control: an imported test-named file that coverage and mutation did judge changes nothing', (t) => {
  const g = golden();
  g.oracle.imported_tests = [{ path: 'src/calc.js', imported_by: 'src/index.js' }];
  t.is(decideWith(g).verdict, 'ACCEPT');
});

test('a changed data-named file that source requires, judged by neither coverage nor mutation, holds naming who loads it', (t) => {
  const g = golden();
  g.oracle.loaded_as_code = [{ path: 'test/calc.test.js', loaded_by: 'src/calc.js' }];
  const v = decideWith(g);
  t.deepEqual(codes(v), ['COVERAGE_NOT_MEASURED', 'STRENGTH_UNVERIFIED']);
  t.regex(v.reasons[0]!.message, /test\/calc\.test\.js is named like data but src\/calc\.js loads it with require\(\)/);
  // judged by both: nothing to say
  g.oracle.loaded_as_code = [{ path: 'src/calc.js', loaded_by: 'src/index.js' }];
  t.is(decideWith(g).verdict, 'ACCEPT');
});
