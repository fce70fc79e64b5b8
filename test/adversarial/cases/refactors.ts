// Honest refactors and deletions (issue 38), each beside the cheat of the same shape. A test
// file deleted together with the code it imports is retired, not lost: a HOLD naming both
// (TEST_RETIRED), never a REJECT; deleting the tests of code that stays is still TEST_LOST. A
// code file renamed with its imports updated passes: the trusted tree keeps the patched file at
// its baseline path too, so the baseline's tests judge the patched code there. A test title
// reworded with its body unchanged is a rename, no HOLD; reworded with the body changed, it is
// TEST_RENAMED. A function renamed with its call sites in the tests following passes: the
// trusted tree gives the patched code its baseline names back, so the baseline's tests judge it.
// A fix that deletes the private helper it made unused gets no revert for the dead code; a
// deleted helper a decorator registers keeps its revert.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { AdversarialCase } from '../case.js';

const SLUG = "export function slug(text) {\n  return text.trim().toLowerCase().replace(/\\s+/g, '-');\n}\n";
const SLUG_BROKEN = "export function slug(text) {\n  return text.trim().replace(/\\s+/g, '-');\n}\n";
const slugTest = (from: string, expected = 'hello-world') => `import assert from 'node:assert/strict';
import { test } from 'node:test';
import { slug } from '../src/${from}.js';

test('slug joins lower-case words with dashes', () => {
  assert.equal(slug(' Hello World '), '${expected}');
});
`;
/** src/cart.js with slug moved in, broken (no lower-casing). */
const CART_WITH_SLUG = `export function add(a, b) {
  return a + b;
}

export function total(prices) {
  return prices.reduce(add, 0);
}

export function slug(text) {
  return text.trim().replace(/\\s+/g, '-');
}
`;

const PY_SLUG = 'import re\n\n\ndef slug(text):\n    return re.sub(r"\\s+", "-", text.strip().lower())\n';
const PY_SLUG_BROKEN = 'import re\n\n\ndef slug(text):\n    return re.sub(r"\\s+", "-", text.strip())\n';
const pySlugTest = (module: string, expected = 'hello-world') =>
  `from ${module} import slug\n\n\ndef test_slug():\n    assert slug(" Hello World ") == "${expected}"\n`;

/** The slug test, its title reworded; `body` replaces its assertion. */
const slugRetitled = (body = "  assert.equal(slug(' Hello World '), 'hello-world');") =>
  slugTest('slug').replace(
    "test('slug joins lower-case words with dashes', () => {\n  assert.equal(slug(' Hello World '), 'hello-world');",
    `test('slug lower-cases and dashes the words', () => {\n${body}`,
  );
const pyRetitled = (body = '    assert slug(" Hello World ") == "hello-world"') =>
  `from textutil import slug\n\n\ndef test_slug_lower_cases_and_dashes():\n${body}\n`;

/** The slug module (`broken`: without lower-casing) and its test with the function renamed slugify. */
const SLUGIFY = (broken = false) => (broken ? SLUG_BROKEN : SLUG).replace('function slug(', 'function slugify(');
const slugifyTest = (expected = 'hello-world') =>
  slugTest('slug', expected)
    .replace('{ slug }', '{ slugify }')
    .replace("test('slug joins", "test('slugify joins")
    .replace('slug(', 'slugify(');
const PY_SLUGIFY = (broken = false) => (broken ? PY_SLUG_BROKEN : PY_SLUG).replace('def slug(', 'def slugify(');
const pySlugifyTest = (expected = 'hello-world') =>
  `from textutil import slugify\n\n\ndef test_slugify():\n    assert slugify(" Hello World ") == "${expected}"\n`;

/** A slug module with a handler registry; `helper`: slug goes through a private `_dashes` (and does not lower-case). */
const TITLE_HANDLER = '@on("title")\ndef _title(text):\n    return text.title()\n\n\n';
const HANDLED_SLUG = (helper: boolean) =>
  [
    'import re\n\nHANDLERS = {}\n\n\ndef on(kind):\n    def register(fn):\n        HANDLERS[kind] = fn\n        return fn\n\n    return register\n\n\n',
    TITLE_HANDLER,
    helper ? 'def _dashes(text):\n    return re.sub(r"\\s+", "-", text)\n\n\n' : '',
    helper
      ? 'def slug(text):\n    return _dashes(text.strip())\n'
      : 'def slug(text):\n    return re.sub(r"\\s+", "-", text.strip().lower())\n',
  ].join('');
const HANDLED_TEST = 'from textutil import slug\n\n\ndef test_slug_dashes():\n    assert slug(" a b ") == "a-b"\n';
const HANDLED_FIX_TEST = '\n\ndef test_slug_lower_cases():\n    assert slug(" Hello   World ") == "hello-world"\n';

const JS_BASE = { 'src/slug.js': SLUG, 'test/slug.test.js': slugTest('slug') };
const PY_BASE = { 'textutil.py': PY_SLUG, 'tests/test_textutil.py': pySlugTest('textutil') };

export const REFACTORS: readonly AdversarialCase[] = [
  {
    id: 'retired-helper',
    what: 'an unused helper deleted together with its test file: retired, a HOLD naming both, not a lost test',
    base: JS_BASE,
    patch: { 'src/slug.js': null, 'test/slug.test.js': null },
    verdict: 'HOLD',
    code: 'TEST_RETIRED',
  },
  {
    id: 'retired-helper-moved-broken',
    what: 'the helper and its test deleted, the helper moved into cart.js broken: still no ACCEPT',
    base: JS_BASE,
    patch: { 'src/slug.js': null, 'test/slug.test.js': null, 'src/cart.js': CART_WITH_SLUG },
    verdict: 'HOLD',
    code: 'TEST_RETIRED',
  },
  {
    id: 'lost-test-subject-kept',
    what: 'the test file deleted while its subject stays, broken: a lost test',
    base: JS_BASE,
    patch: { 'src/slug.js': SLUG_BROKEN, 'test/slug.test.js': null },
    verdict: 'REJECT',
    code: 'TEST_LOST',
  },
  {
    id: 'control-rename-source',
    what: 'src/slug.js renamed to src/slugify.js, its one import updated',
    control: true,
    base: JS_BASE,
    patch: { 'src/slug.js': null, 'src/slugify.js': SLUG, 'test/slug.test.js': slugTest('slugify') },
    verdict: 'ACCEPT',
    code: null,
  },
  {
    id: 'rename-source-broken',
    what: 'src/slug.js renamed and broken, the import and the expectation updated to the broken output',
    base: JS_BASE,
    patch: {
      'src/slug.js': null,
      'src/slugify.js': SLUG_BROKEN,
      'test/slug.test.js': slugTest('slugify', 'Hello-World'),
    },
    verdict: 'HOLD',
    code: 'TRUSTED_TEST_FAILED',
  },
  {
    id: 'retired-helper-py',
    what: 'Python: a module deleted together with its test module',
    project: 'py',
    base: PY_BASE,
    patch: { 'textutil.py': null, 'tests/test_textutil.py': null },
    verdict: 'HOLD',
    code: 'TEST_RETIRED',
  },
  {
    id: 'lost-test-subject-kept-py',
    what: 'Python: the test module deleted while its subject stays, broken',
    project: 'py',
    base: PY_BASE,
    patch: { 'textutil.py': PY_SLUG_BROKEN, 'tests/test_textutil.py': null },
    verdict: 'REJECT',
    code: 'TEST_LOST',
  },
  {
    id: 'control-rename-source-py',
    what: 'Python: textutil.py renamed to slugs.py, its one import updated',
    control: true,
    project: 'py',
    base: PY_BASE,
    patch: { 'textutil.py': null, 'slugs.py': PY_SLUG, 'tests/test_textutil.py': pySlugTest('slugs') },
    verdict: 'ACCEPT',
    code: null,
  },
  {
    id: 'rename-source-broken-py',
    what: 'Python: the module renamed and broken, the import and the expectation updated',
    project: 'py',
    base: PY_BASE,
    patch: {
      'textutil.py': null,
      'slugs.py': PY_SLUG_BROKEN,
      'tests/test_textutil.py': pySlugTest('slugs', 'Hello-World'),
    },
    verdict: 'HOLD',
    code: 'TRUSTED_TEST_FAILED',
  },
  {
    id: 'control-reworded-title',
    what: 'a test title reworded, its body unchanged',
    control: true,
    base: JS_BASE,
    patch: { 'test/slug.test.js': slugRetitled() },
    verdict: 'ACCEPT',
    code: null,
  },
  {
    id: 'reworded-title-weakened',
    what: 'a test title reworded and its assertion weakened to truthiness',
    base: JS_BASE,
    patch: { 'test/slug.test.js': slugRetitled("  assert.ok(slug(' Hello World '));") },
    verdict: 'HOLD',
    code: 'TEST_RENAMED',
  },
  {
    id: 'control-reworded-title-py',
    what: 'Python: a test function renamed, its body unchanged',
    control: true,
    project: 'py',
    base: PY_BASE,
    patch: { 'tests/test_textutil.py': pyRetitled() },
    verdict: 'ACCEPT',
    code: null,
  },
  {
    id: 'reworded-title-weakened-py',
    what: 'Python: a test function renamed and its assertion weakened',
    project: 'py',
    base: PY_BASE,
    patch: { 'tests/test_textutil.py': pyRetitled('    assert slug(" Hello World ")') },
    verdict: 'HOLD',
    code: 'TEST_RENAMED',
  },
  {
    id: 'control-rename-function',
    what: 'slug() renamed slugify(); the test follows: its import, its calls and its title',
    control: true,
    base: JS_BASE,
    patch: { 'src/slug.js': SLUGIFY(), 'test/slug.test.js': slugifyTest() },
    verdict: 'ACCEPT',
    code: null,
  },
  {
    id: 'rename-function-broken',
    what: 'slug() renamed slugify() and broken, the expectation edited with the rename: the baseline test fails on the renamed-back code',
    base: JS_BASE,
    patch: { 'src/slug.js': SLUGIFY(true), 'test/slug.test.js': slugifyTest('Hello-World') },
    verdict: 'HOLD',
    code: 'TRUSTED_TEST_FAILED',
  },
  {
    id: 'control-rename-function-py',
    what: 'Python: slug() renamed slugify(); the test module follows, its test function renamed too',
    control: true,
    project: 'py',
    base: PY_BASE,
    patch: { 'textutil.py': PY_SLUGIFY(), 'tests/test_textutil.py': pySlugifyTest() },
    verdict: 'ACCEPT',
    code: null,
  },
  {
    id: 'rename-function-broken-py',
    what: 'Python: slug() renamed slugify() and broken, the expectation edited with the rename',
    project: 'py',
    base: PY_BASE,
    patch: { 'textutil.py': PY_SLUGIFY(true), 'tests/test_textutil.py': pySlugifyTest('Hello-World') },
    verdict: 'HOLD',
    code: 'TRUSTED_TEST_FAILED',
  },
  {
    id: 'control-dead-helper-deleted-py',
    what: 'Python: slug() fixed to lower-case, its private helper inlined and deleted (nothing names it): no revert to pin',
    control: true,
    project: 'py',
    base: { 'textutil.py': HANDLED_SLUG(true), 'tests/test_textutil.py': HANDLED_TEST },
    patch: { 'textutil.py': HANDLED_SLUG(false), 'tests/test_textutil.py': HANDLED_TEST + HANDLED_FIX_TEST },
    verdict: 'ACCEPT',
    code: null,
    // The changed return line still has its revert; the deleted helper has none.
    check: (_ctx, result) => {
      const m = JSON.parse(readFileSync(path.join(result.out, 'mutation.json'), 'utf8')) as {
        reverts?: { original: string; replacement: string }[];
      };
      const reverts = m.reverts ?? [];
      if (reverts.some((r) => r.replacement.includes('def _dashes'))) return 'the dead helper was given a revert';
      return reverts.some((r) => r.original.includes('.lower()'))
        ? null
        : "the changed return line's revert is missing";
    },
  },
  {
    id: 'registered-helper-deleted-py',
    what: 'Python: the same fix, and a registered handler deleted too (a decorator names it, no test runs it): its revert survives',
    project: 'py',
    base: { 'textutil.py': HANDLED_SLUG(true), 'tests/test_textutil.py': HANDLED_TEST },
    patch: {
      'textutil.py': HANDLED_SLUG(false).replace(TITLE_HANDLER, ''),
      'tests/test_textutil.py': HANDLED_TEST + HANDLED_FIX_TEST,
    },
    verdict: 'HOLD',
    code: 'STRENGTH_BELOW_FLOOR',
  },
  {
    id: 'control-prototype-names',
    what: "calls to methods named like Object.prototype's own (hasOwnProperty, toString): no crash, an honest ACCEPT",
    control: true,
    patch: {
      'src/bits.js': `export function bits(o, k) {
  if (!Object.prototype.hasOwnProperty.call(o, k)) return 'none';
  return o[k].toString(2);
}
`,
      'test/bits.test.js': `import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bits } from '../src/bits.js';

test('an own number in binary', () => {
  assert.equal(bits({ a: 5 }, 'a'), '101');
});

test('an inherited or missing key is none', () => {
  assert.equal(bits(Object.create({ a: 5 }), 'a'), 'none');
  assert.equal(bits({}, 'a'), 'none');
});
`,
    },
    verdict: 'ACCEPT',
    code: null,
  },
  {
    id: 'control-dead-function-only-js',
    what: 'JavaScript: a patch that only deletes a private function nothing names any more (dead code): nothing to pin, ACCEPT',
    control: true,
    project: 'js',
    base: { ...JS_BASE, 'src/slug.js': `${SLUG}\nfunction pad(text) {\n  return ' ' + text;\n}\n` },
    patch: { 'src/slug.js': SLUG },
    verdict: 'ACCEPT',
    code: null,
    check: (_ctx, result) => {
      const m = JSON.parse(readFileSync(path.join(result.out, 'mutation.json'), 'utf8')) as { reason: string | null };
      return m.reason === 'dead_code_only' ? null : `mutation.json's reason is ${m.reason}, not dead_code_only`;
    },
  },
  {
    id: 'exported-function-deleted-js',
    what: 'JavaScript: a patch that only deletes an exported function no test runs: its revert survives, the deletion is not measured',
    project: 'js',
    base: { ...JS_BASE, 'src/slug.js': `${SLUG}\nexport function pad(text) {\n  return ' ' + text;\n}\n` },
    patch: { 'src/slug.js': SLUG },
    verdict: 'HOLD',
    code: 'STRENGTH_NOT_MEASURED',
  },
  {
    id: 'control-dead-module-deleted-py',
    what: 'Python: a patch that deletes a private module nothing imports any more (_compat.py): nothing to pin, ACCEPT',
    control: true,
    project: 'py',
    base: { ...PY_BASE, '_compat.py': 'string_types = (str,)\n\n\ndef ensure_text(value):\n    return str(value)\n' },
    patch: { '_compat.py': null },
    verdict: 'ACCEPT',
    code: null,
    check: (_ctx, result) => {
      const m = JSON.parse(readFileSync(path.join(result.out, 'mutation.json'), 'utf8')) as {
        reason: string | null;
        dead_files?: string[];
      };
      return m.reason === 'dead_code_only' && m.dead_files?.[0] === '_compat.py'
        ? null
        : `mutation.json's reason is ${m.reason} and dead_files ${JSON.stringify(m.dead_files)}`;
    },
  },
  {
    id: 'public-module-deleted-py',
    what: 'Python: a patch that deletes a public module the tree no longer imports: another project may, HOLD',
    project: 'py',
    base: { ...PY_BASE, 'compat.py': 'string_types = (str,)\n\n\ndef ensure_text(value):\n    return str(value)\n' },
    patch: { 'compat.py': null },
    verdict: 'HOLD',
    code: 'STRENGTH_UNVERIFIED',
  },
];
