import test from 'ava';
import { findPragmas, PRAGMA_PATTERNS } from '../src/measure/pragmas.js';

test('coverage pragmas of every common tool are found on added lines', (t) => {
  const texts = [
    '/* c8 ignore next */',
    '/* istanbul ignore else */',
    '/* v8 ignore start */',
    'if x:  # pragma: no cover',
    '// node:coverage ignore next',
    'foo(); // LCOV_EXCL_LINE',
    'plain code',
  ];
  const found = findPragmas('src/a.ts', [1, 2, 3, 4, 5, 6, 7], texts);
  t.deepEqual(
    found.map((p) => p.line),
    [1, 2, 3, 4, 5, 6],
  );
  t.is(found[3]?.text, 'if x:  # pragma: no cover');
});

test('ordinary code mentioning coverage is not a pragma', (t) => {
  t.deepEqual(findPragmas('a.js', [1, 2], ['const ignore = c8Options;', 'coverage.ignore = []']), []);
});

test('each recognised pragma is found, whatever its case where the tool ignores case', (t) => {
  const samples = [
    '/* C8 IGNORE next */',
    '/* v8 ignore next */',
    '/* Istanbul Ignore if */',
    '// node:coverage disable',
    'x = 1  # pragma: no branch',
    'GCOVR_EXCL_START',
    '/** @codeCoverageIgnore */',
    '#[coverage(off)]',
    '// coverage:ignore-file',
    'pragma: no cover',
  ];
  for (const re of PRAGMA_PATTERNS)
    t.true(
      samples.some((s) => re.test(s)),
      `no sample for ${re}`,
    );
  t.is(
    findPragmas(
      'a.rs',
      samples.map((_, k) => k + 1),
      samples,
    ).length,
    samples.length,
  );
});
