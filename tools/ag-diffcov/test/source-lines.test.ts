import test from 'ava';
import { codeLines } from '../src/measure/source-lines.js';

test('blank and comment-only lines are not code in Python', (t) => {
  t.deepEqual(codeLines('a.py', [1, 2, 3, 4], ['# c', '', 'x = 1  # c', '    ']), [false, false, true, false]);
});

test('block comments are followed across consecutive added lines in C-like files', (t) => {
  const texts = ['/**', ' * doc', ' */', 'export const a = 1; // c', '/* a */ f();', '// only'];
  t.deepEqual(codeLines('src/a.ts', [1, 2, 3, 4, 5, 6], texts), [false, false, false, true, true, false]);
});

test('a gap in the added lines ends a block comment (the context is unknown)', (t) => {
  t.deepEqual(codeLines('a.js', [1, 5], ['/* open', 'x();']), [false, true]);
});

test('an unknown language has only blank lines excused', (t) => {
  t.deepEqual(codeLines('script.unknown', [1, 2], ['# looks like a comment', '']), [true, false]);
  t.deepEqual(codeLines('Makefile', [1], ['# comment']), [false]);
});
