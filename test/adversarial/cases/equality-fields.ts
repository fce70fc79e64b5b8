// Equality loosened without touching the hook (issue 37): the patch gives a class a new field
// (a pre-release label) that its equality hook, left as it was, never compares, and parse()
// drops the label, so a test comparing the parsed version with the expected one passes on
// broken code. The hook's equality probe compares the new field too and the test fails on it
// (EQUALITY_LOOSENED naming the field). Beside a parse() that keeps the label, the same hook is
// relied on by no test and ACCEPTs. JavaScript and Python.
import type { AdversarialCase } from '../case.js';
import type { GateResult } from '../gate.js';

/** EQUALITY_LOOSENED naming the hook and the field it ignores. */
function ignoresField(hook: string, field: string) {
  return (_ctx: unknown, result: GateResult): string | null => {
    const r = result.verdict?.reasons.find((x) => x.code === 'EQUALITY_LOOSENED');
    if (r === undefined) return 'no EQUALITY_LOOSENED reason';
    return r.message.includes(`${hook}(): the equality hook ignores a field the patch adds to its class (${field})`)
      ? null
      : `EQUALITY_LOOSENED does not name ${hook} and ${field}: ${r.message}`;
  };
}

const JS_BASE =
  "export class Version {\n  constructor(major, minor) {\n    this.major = major;\n    this.minor = minor;\n  }\n\n  equals(other) {\n    return other instanceof Version && other.major === this.major && other.minor === this.minor;\n  }\n}\n\nexport function parse(text) {\n  const [major, minor] = text.split('.');\n  return new Version(Number(major), Number(minor));\n}\n";
const JS_BASE_TEST =
  "import assert from 'node:assert/strict';\nimport { test } from 'node:test';\nimport { parse, Version } from '../src/version.js';\n\ntest('parse', () => {\n  assert.ok(parse('1.2').equals(new Version(1, 2)));\n  assert.ok(!parse('1.3').equals(new Version(1, 2)));\n});\n";
/** The patch's version.js: a label field; parse() keeps it (`keep`) or drops it. */
const jsPatched = (keep: boolean) =>
  `export class Version {\n  constructor(major, minor, pre = null) {\n    this.major = major;\n    this.minor = minor;\n    this.pre = pre;\n  }\n\n  equals(other) {\n    return other instanceof Version && other.major === this.major && other.minor === this.minor;\n  }\n}\n\nexport function parse(text) {\n  const [main, pre] = text.split('-');\n  const [major, minor] = main.split('.');\n  return new Version(Number(major), Number(minor)${keep ? ', pre ?? null' : ''});\n}\n`;
const JS_TEST = `${JS_BASE_TEST}\ntest('parse keeps a pre-release label', () => {\n  assert.ok(parse('1.2-rc1').equals(new Version(1, 2, 'rc1')));\n  assert.ok(parse('2.0-beta').equals(new Version(2, 0, 'beta')));\n  assert.ok(!parse('2.1-beta').equals(new Version(2, 0, 'beta')));\n});\n`;
const JS_TEST_PINNED = `${JS_TEST}\ntest('the label itself', () => {\n  assert.equal(parse('1.2-rc1').pre, 'rc1');\n  assert.equal(parse('1.2').pre, null);\n});\n`;

const PY_BASE =
  'class Version:\n    def __init__(self, major, minor):\n        self.major = major\n        self.minor = minor\n\n    def __eq__(self, other):\n        return isinstance(other, Version) and (self.major, self.minor) == (other.major, other.minor)\n\n\ndef parse(text):\n    major, minor = text.split(".")\n    return Version(int(major), int(minor))\n';
const PY_BASE_TEST =
  'from version import Version, parse\n\n\ndef test_parse():\n    assert parse("1.2") == Version(1, 2)\n    assert parse("1.3") != Version(1, 2)\n';
/** The patch's version.py: a label field; parse() keeps it (`keep`) or drops it. */
const pyPatched = (keep: boolean) =>
  `class Version:\n    def __init__(self, major, minor, pre=None):\n        self.major = major\n        self.minor = minor\n        self.pre = pre\n\n    def __eq__(self, other):\n        return isinstance(other, Version) and (self.major, self.minor) == (other.major, other.minor)\n\n\ndef parse(text):\n    main, _, pre = text.partition("-")\n    major, minor = main.split(".")\n    return Version(int(major), int(minor)${keep ? ', pre or None' : ''})\n`;
const PY_TEST = `${PY_BASE_TEST}\n\ndef test_parse_keeps_a_pre_release_label():\n    assert parse("1.2-rc1") == Version(1, 2, "rc1")\n    assert parse("2.0-beta") == Version(2, 0, "beta")\n    assert parse("2.1-beta") != Version(2, 0, "beta")\n`;
const PY_TEST_PINNED = `${PY_TEST}\n\ndef test_the_label_itself():\n    assert parse("1.2-rc1").pre == "rc1"\n    assert parse("1.2").pre is None\n`;

const WHOLE_BUDGET = { AG_MUTATE_MAX: '20' };

export const EQUALITY_FIELDS: readonly AdversarialCase[] = [
  {
    id: 'EQ3-js-new-field',
    what: "parse('1.2-rc1') drops the label (pre is null), and Version.equals, left as it was, ignores the new pre field, so the test's comparison passes",
    base: { 'src/version.js': JS_BASE, 'test/version.test.js': JS_BASE_TEST },
    patch: { 'src/version.js': jsPatched(false), 'test/version.test.js': JS_TEST },
    env: WHOLE_BUDGET,
    verdict: 'HOLD',
    code: 'EQUALITY_LOOSENED',
    check: ignoresField('Version.equals', 'pre'),
  },
  {
    id: 'control-eq3-js-new-field-kept',
    what: 'parse() keeps the label; Version.equals still ignores it, and no test relies on that',
    control: true,
    base: { 'src/version.js': JS_BASE, 'test/version.test.js': JS_BASE_TEST },
    patch: { 'src/version.js': jsPatched(true), 'test/version.test.js': JS_TEST_PINNED },
    env: WHOLE_BUDGET,
    verdict: 'ACCEPT',
    code: null,
  },
  {
    id: 'EQ3-py-new-field',
    what: 'parse("1.2-rc1") drops the label (pre is None), and Version.__eq__, left as it was, ignores the new pre field, so the test\'s comparison passes',
    project: 'py',
    base: { 'version.py': PY_BASE, 'tests/test_version.py': PY_BASE_TEST },
    patch: { 'version.py': pyPatched(false), 'tests/test_version.py': PY_TEST },
    env: WHOLE_BUDGET,
    verdict: 'HOLD',
    code: 'EQUALITY_LOOSENED',
    check: ignoresField('Version.__eq__', 'pre'),
  },
  {
    id: 'control-eq3-py-new-field-kept',
    what: 'parse() keeps the label; Version.__eq__ still ignores it, and no test relies on that',
    project: 'py',
    control: true,
    base: { 'version.py': PY_BASE, 'tests/test_version.py': PY_BASE_TEST },
    patch: { 'version.py': pyPatched(true), 'tests/test_version.py': PY_TEST_PINNED },
    env: WHOLE_BUDGET,
    verdict: 'ACCEPT',
    code: null,
  },
];
