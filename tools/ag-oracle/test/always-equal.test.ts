import test from 'ava';
import { parseUnifiedDiff, type ChangedFile } from '@adversary-gate/core';
import { alwaysEqualFindings } from '../src/tamper/always-equal.js';
import { scanChangedFile } from '../src/tamper/diff-scan.js';
import { isRunnableTest } from '../src/tamper/test-files.js';

function added(path: string, lines: string[]): ChangedFile {
  const body = lines.map((l) => `+${l}`).join('\n');
  return parseUnifiedDiff(
    `diff --git a/${path} b/${path}\n--- a/${path}\n+++ b/${path}\n@@ -9,0 +10,${lines.length} @@\n${body}\n`,
  ).files[0]!;
}
const lines = (f: ChangedFile) => alwaysEqualFindings(f).map((x) => x.line);

const JS_HOOKS = [
  'return { value: x + 2, equals: () => true };',
  'const r = { equals(other) { return true; } };',
  'result.equals = function (o) { return true };',
  'isEqual: _ => true,',
  'expect.extend({ anything: () => ({ asymmetricMatch: () => !0 }) });',
  'return new Proxy({}, { get: () => () => true });',
];

for (const line of JS_HOOKS) {
  test(`JS: an always-true comparison hook is found (${line})`, (t) => {
    t.deepEqual(alwaysEqualFindings(added('src/a.js', ['const a = 1;', line])), [
      {
        kind: 'always_equal',
        path: 'src/a.js',
        line: 11,
        detail: 'a comparison that holds whatever is compared was added',
      },
    ]);
  });
}

test('JS: a hook whose body returns true on the next line is found; one that compares is not', (t) => {
  t.deepEqual(lines(added('src/a.ts', ['  equals(other: Money): boolean {', '    return true;', '  }'])), [10]);
  t.deepEqual(
    lines(added('src/a.ts', ['  equals(other: Money): boolean {', '    return this.cents === other.cents;', '  }'])),
    [],
  );
});

test('JS: comparisons that compare, other true-returning functions and comments are not hooks', (t) => {
  const clean = [
    'equals: (o) => o.value === this.value,',
    'const ok = () => true;',
    'filter: () => true,',
    'if (a.equals(b)) return true;',
    '// equals: () => true would hide everything',
    ' * equals() { return true }',
    'const equalsTrue = (x) => x === true;',
  ];
  t.deepEqual(lines(added('src/a.js', clean)), []);
});

test('Python: __eq__ returning True and __ne__ returning False are found, on one line or two', (t) => {
  const f = added('shop.py', [
    'class Money:',
    '    def __eq__(self, other): return True',
    '    def __ne__(self, other) -> bool:',
    '        return False',
    '    __eq__ = lambda *a: True',
  ]);
  t.deepEqual(lines(f), [11, 12, 14]);
});

test('Python: an __eq__ that compares is not a finding, nor one whose True is on a line that was not added next', (t) => {
  t.deepEqual(
    lines(added('shop.py', ['    def __eq__(self, other):', '        return self.cents == other.cents'])),
    [],
  );
  t.deepEqual(lines(added('shop.py', ['    def __eq__(self, other):', '', '        return True'])), []);
});

test('files in neither language and deleted files give nothing', (t) => {
  t.deepEqual(lines(added('README.md', ['equals: () => true'])), []);
  const del = parseUnifiedDiff(
    'diff --git a/src/a.js b/src/a.js\ndeleted file mode 100644\n--- a/src/a.js\n+++ /dev/null\n@@ -1 +0,0 @@\n-equals: () => true\n',
  ).files[0]!;
  t.deepEqual(alwaysEqualFindings(del), []);
});

test('the diff scan reports always-equal hooks in source files as well as tests', (t) => {
  const rules = { isTestFile: isRunnableTest, isRunnableTest };
  t.deepEqual(
    scanChangedFile(added('src/cart.js', ['  return { value: x + 2, equals: () => true };']), rules, true).map(
      (f) => f.kind,
    ),
    ['always_equal'],
  );
  t.deepEqual(
    scanChangedFile(added('test/util.test.js', ['const any = { asymmetricMatch: () => true };']), rules, true).map(
      (f) => f.kind,
    ),
    ['always_equal'],
  );
});

test('long hostile lines are scanned in linear time', (t) => {
  const pad = (n: number, c: string) => c.repeat(n);
  const hostile = [
    `equals: a =>${pad(100_000, ' ')}x`,
    `equals = function${pad(100_000, ' ')}x`,
    `equals = function ${pad(100_000, 'a')}`,
    `equals(): ${pad(100_000, ' ')}x`,
    `get: ${pad(100_000, 'a')}`,
    `    return true${pad(100_000, ' ')};x`,
    `    def __eq__(self, other) ${pad(100_000, ' ')}x`,
    `equals(${pad(100_000, ' ')}`,
  ];
  const started = process.hrtime.bigint();
  t.deepEqual(lines(added('src/a.js', hostile)), []);
  t.deepEqual(lines(added('a.py', hostile)), []);
  t.true(Number(process.hrtime.bigint() - started) / 1e9 < 5, 'scan took over 5 s (a quadratic pattern takes minutes)');
});
