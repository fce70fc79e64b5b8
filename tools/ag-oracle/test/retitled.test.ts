import test from 'ava';
import { retitledTests } from '../src/tamper/retitled.js';

const js = (title: string, body: string, group = 'slug') =>
  `describe('${group}', () => {\n  it('${title}', () => {\n    ${body}\n  });\n\n  it('keeps', () => {\n    assert.ok(true);\n  });\n});\n`;

test('a JS title reworded with its callback unchanged is a retitle; a changed body is not', (t) => {
  const before = js('joins words', "assert.equal(slug('a b'), 'a-b');");
  t.deepEqual(
    retitledTests('t.test.js', before, js('joins words with dashes', "assert.equal(slug('a b'), 'a-b');"), 'js'),
    [{ path: 't.test.js', from: 'joins words', to: 'joins words with dashes' }],
  );
  t.deepEqual(retitledTests('t.test.js', before, js('joins words with dashes', "assert.ok(slug('a b'));"), 'js'), []);
});

test('a describe group reworded with everything inside unchanged is a retitle of the group', (t) => {
  const body = "assert.equal(slug('a b'), 'a-b');";
  t.deepEqual(retitledTests('t.test.js', js('joins', body), js('joins', body, 'slugify'), 'js'), [
    { path: 't.test.js', from: 'slug', to: 'slugify' },
  ]);
});

test('two gone tests with the same body are no pair: a retitle is never a guess', (t) => {
  const two = (a: string, b: string) =>
    `test('${a}', () => {\n  check();\n});\ntest('${b}', () => {\n  check();\n});\n`;
  t.deepEqual(retitledTests('t.test.js', two('a', 'b'), two('c', 'd'), 'js'), []);
});

test('a Python test renamed with its parameters and body unchanged is a retitle; new parameters are not', (t) => {
  const py = (name: string, params = '', body = '    assert slug("a b") == "a-b"') =>
    `from m import slug\n\n\ndef ${name}(${params}):\n${body}\n\n\ndef test_other():\n    assert True\n`;
  t.deepEqual(retitledTests('tests/test_m.py', py('test_slug'), py('test_slug_dashes'), 'py'), [
    { path: 'tests/test_m.py', from: 'test_slug', to: 'test_slug_dashes' },
  ]);
  t.deepEqual(retitledTests('tests/test_m.py', py('test_slug'), py('test_slug_dashes', 'monkeypatch'), 'py'), []);
  t.deepEqual(
    retitledTests('tests/test_m.py', py('test_slug'), py('test_slug_dashes', '', '    assert slug("a b")'), 'py'),
    [],
  );
});

test('a title that follows a rename the code makes, with the body changed only by that rename, is a retitle; any other change is not', (t) => {
  const body = (fn: string, expected = "'a-b'") => `assert.equal(${fn}('a b'), ${expected});`;
  const renames = new Set(['slug\0slugify']);
  const before = js('slug joins words', body('slug'));
  t.deepEqual(retitledTests('t.test.js', before, js('slugify joins words', body('slugify')), 'js', renames), [
    { path: 't.test.js', from: 'slug joins words', to: 'slugify joins words' },
  ]);
  // the same edit without the code's rename, or with an expectation changed beside it
  t.deepEqual(retitledTests('t.test.js', before, js('slugify joins words', body('slugify')), 'js'), []);
  t.deepEqual(
    retitledTests('t.test.js', before, js('slugify joins words', body('slugify', "'a_b'")), 'js', renames),
    [],
  );
});

test('a moved test file: tests that kept title and body are listed from the old path, a changed body is not', (t) => {
  const before =
    'from shop.helpers import slug\n\n\ndef test_slug():\n    assert slug("a b") == "a-b"\n\n\ndef test_empty():\n    assert slug("") == ""\n';
  const after =
    'from shop.text.normalize import slug\n\n\ndef test_slug():\n    assert slug("a b") == "a-b"\n\n\ndef test_empty():\n    assert slug("") is not None\n';
  t.deepEqual(retitledTests('tests/test_normalize.py', before, after, 'py', new Set(), 'tests/test_helpers.py'), [
    { path: 'tests/test_normalize.py', from_path: 'tests/test_helpers.py', from: 'test_slug', to: 'test_slug' },
  ]);
  // In place (not moved), an unchanged test is no retitle.
  t.deepEqual(retitledTests('tests/test_helpers.py', before, after, 'py'), []);
});
