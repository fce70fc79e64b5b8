import test from 'ava';
import { skipMarker } from '../src/tamper/markers.js';
import { JS_MARKED_LINES, JS_UNMARKED_LINES, PY_MARKED_LINES } from './fixtures/markers.js';

const js = (line: string) => skipMarker(line, 'js');
const py = (line: string) => skipMarker(line, 'py');

test('node:test, jest, vitest, mocha and ava markers are found', (t) => {
  for (const [line, marker] of JS_MARKED_LINES) t.is(js(line), marker, line);
});

test('ordinary test code and comments carry no marker', (t) => {
  for (const line of JS_UNMARKED_LINES) {
    t.is(js(line), null, line);
  }
});

test('pytest and unittest markers are found', (t) => {
  for (const [line, marker] of PY_MARKED_LINES) t.is(py(line), marker, line);
});

test('ordinary Python and comments carry no marker', (t) => {
  for (const line of [
    'def test_skip_list():',
    '    assert skip(items) == []',
    '# @pytest.mark.skip',
    'rows = q.skip(3)',
  ])
    t.is(py(line), null, line);
});
