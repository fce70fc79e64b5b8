import test from 'ava';
import { skipMarker } from '../src/tamper/markers.js';

const js = (line: string) => skipMarker(line, 'js');
const py = (line: string) => skipMarker(line, 'py');

test('node:test, jest, vitest, mocha and ava markers are found', (t) => {
  const cases: [string, string][] = [
    ["test.skip('a', () => {})", 'test.skip'],
    ["it.only('a', () => {})", 'it.only'],
    ["describe.skip('group', () => {})", 'describe.skip'],
    ["test.todo('later')", 'test.todo'],
    ["test.concurrent.skip('a', async () => {})", 'test.concurrent.skip'],
    ["test.skipIf(process.env.CI)('a', () => {})", 'test.skipIf'],
    ["test.serial.failing('a', t => {})", 'test.serial.failing'],
    ["it.fails('a', () => {})", 'it.fails'],
    ["  t.skip('not today');", 't.skip'],
    ['  this.skip();', 'this.skip'],
    ['  ctx.skip();', 'ctx.skip'],
    ['  t.runOnly(true);', 't.runOnly'],
    ["xit('a', () => {})", 'xit'],
    ["fdescribe('a', () => {})", 'fdescribe'],
    ["test('a', { skip: true }, () => {})", '{ skip }'],
    ["test('a', { todo: 'later' }, () => {})", '{ todo }'],
    ["it('a', { only: true }, () => {})", '{ only }'],
    ["test('a', { skip: process.platform === 'win32' }, () => {})", '{ skip }'],
  ];
  for (const [line, marker] of cases) t.is(js(line), marker, line);
});

test('ordinary test code and comments carry no marker', (t) => {
  for (const line of ["test('skips nothing', () => {})", 'const rows = query({ skip: 10 });', "const item = { todo: 'buy milk', only: true };", 'items.only = 1', "// test.skip('a')", ' * it.only is banned here', "test('a', { skip: false }, () => {})", 'mySkip()']) {
    t.is(js(line), null, line);
  }
});

test('pytest and unittest markers are found', (t) => {
  const cases: [string, string][] = [
    ['@pytest.mark.skip(reason="x")', 'pytest.mark.skip'],
    ['@pytest.mark.skipif(sys.platform == "win32", reason="x")', 'pytest.mark.skipif'],
    ['@pytest.mark.xfail', 'pytest.mark.xfail'],
    ['pytestmark = pytest.mark.skip', 'pytest.mark.skip'],
    ['    pytest.skip("later")', 'pytest.skip'],
    ['    pytest.xfail("known")', 'pytest.xfail'],
    ['np = pytest.importorskip("numpy")', 'pytest.importorskip'],
    ['@unittest.skip("x")', '@unittest.skip'],
    ['@unittest.expectedFailure', '@unittest.expectedFailure'],
    ['@skipIf(True, "x")', '@skipIf'],
    ['        self.skipTest("x")', '.skipTest'],
    ['    raise unittest.SkipTest("x")', 'raise SkipTest'],
  ];
  for (const [line, marker] of cases) t.is(py(line), marker, line);
});

test('ordinary Python and comments carry no marker', (t) => {
  for (const line of ['def test_skip_list():', '    assert skip(items) == []', '# @pytest.mark.skip', 'rows = q.skip(3)']) t.is(py(line), null, line);
});
