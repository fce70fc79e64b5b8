import test from 'ava';
import { countAssertions } from '../src/tamper/assertions.js';

test('JavaScript assertions of node:assert, chai, jest/vitest and ava are counted', (t) => {
  const cases: [string, number][] = [
    ['assert.equal(add(1, 2), 3);', 1],
    ['assert(ok);', 1],
    ['assert.strict.deepEqual(a, b);', 1],
    ['expect(add(1, 2)).toBe(3);', 1],
    ['expect.assertions(2);', 1],
    ['result.should.equal(3);', 1],
    ['t.is(add(1, 2), 3); t.true(ok);', 2],
    ['t.deepEqual(a, b);', 1],
    ['await t.throwsAsync(run());', 1],
    ['const x = add(1, 2);', 0],
    ['// assert.equal(1, 1);', 0],
    ['myassert(x);', 0],
  ];
  for (const [line, n] of cases) t.is(countAssertions(line, 'js'), n, line);
});

test('Python assertions of pytest and unittest are counted', (t) => {
  const cases: [string, number][] = [
    ['    assert add(1, 2) == 3', 1],
    ['        self.assertEqual(add(1, 2), 3)', 1],
    ['    with pytest.raises(ValueError):', 1],
    ['    np.testing.assert_allclose(a, b)', 1],
    ['    # assert add(1, 2) == 3', 0],
    ['    result = add(1, 2)', 0],
    ['    reassert = 1', 0],
  ];
  for (const [line, n] of cases) t.is(countAssertions(line, 'py'), n, line);
});
