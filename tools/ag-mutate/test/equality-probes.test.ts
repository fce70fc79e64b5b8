// Equality probes: every equality hook the patch adds or changes is made strict (the baseline's
// hook where there is one, else every field) without moving a line; the probed hook answers
// "not equal" wherever the strict comparison tells the values apart, the patch's answer elsewhere.
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { parseJs } from '../src/engines/js.js';
import { applySite, type Site } from '../src/engines/site.js';
import { jsProbes } from '../src/equality/js-hooks.js';
import { bodyOnOneLine } from '../src/equality/js-text.js';
import { probeFaults, probeRecord } from '../src/equality/probes.js';
import { pyProbes } from '../src/equality/py-hooks.js';
import type { MutantVerdict } from '../src/exec/mutant-run.js';

const every = (text: string) => new Set(text.split('\n').map((_, i) => i + 1));

const money = (equals: string) =>
  `export class Money {\n  constructor(cents, currency) {\n    this.cents = cents;\n    this.currency = currency;\n  }\n\n  equals(other) {\n    return ${equals};\n  }\n}\n`;
const LAX = money(
  'other instanceof Money && other.currency === this.currency && Math.abs(other.cents - this.cents) <= 1',
);
const EXACT = money('other instanceof Money && other.currency === this.currency && other.cents === this.cents');

/** The class `Money` of `text` (an ES module with one class) with `site` applied. */
function probedClass(
  text: string,
  site: Site,
): new (cents: number, currency: string) => { equals(o: unknown): boolean } {
  const probed = applySite(text, site);
  return new Function(probed.replace('export class', 'return class'))() as never;
}

test('JS: a lax equals the patch adds gets a field-by-field probe, inserted on the body line, that tells a cent apart', (t) => {
  const [site, ...rest] = jsProbes('src/money.js', LAX, null, every(LAX));
  t.is(rest.length, 0);
  t.truthy(site);
  t.true(site!.parses);
  t.deepEqual(site!.probe, { hook: 'Money.equals', line: 7, column: 3, comparison: 'fields' });
  t.is(site!.start, site!.end, 'an insertion');
  t.is(site!.line, 8, 'before the body’s first statement');
  t.false(site!.replacement.includes('\n'), 'on one line: no line moves');
  t.notRegex(site!.replacement, /\b(?:import|require)\b/);
  const Money = probedClass(LAX, site!);
  t.false(new Money(33, 'EUR').equals(new Money(34, 'EUR')), 'the tolerated cent is told apart');
  t.true(new Money(33, 'EUR').equals(new Money(33, 'EUR')), 'equal values stay equal');
  t.false(new Money(5, 'EUR').equals({ cents: 5, currency: 'EUR' }), 'another prototype is not equal');
  const Lax = probedClass(LAX, { ...site!, replacement: '' });
  t.true(new Lax(33, 'EUR').equals(new Lax(34, 'EUR')), 'the patch’s own hook tolerates it');
});

test('JS: the strict comparison is deep: nested objects, arrays, dates, maps', (t) => {
  const text = `export class Box {\n  constructor(v) {\n    this.v = v;\n  }\n  equals(o) {\n    return o instanceof Box;\n  }\n}\n`;
  const [site] = jsProbes('box.js', text, null, every(text));
  const Box = new Function(applySite(text, site!).replace('export class', 'return class'))() as new (v: unknown) => {
    equals(o: unknown): boolean;
  };
  t.true(new Box({ a: [1, 2], d: new Date(5) }).equals(new Box({ a: [1, 2], d: new Date(5) })));
  t.false(new Box({ a: [1, 2] }).equals(new Box({ a: [1, 3] })));
  t.false(new Box({ d: new Date(5) }).equals(new Box({ d: new Date(6) })));
  t.false(new Box(new Map([['k', 1]])).equals(new Box(new Map([['k', 2]]))));
  t.true(new Box(new Map([['k', { n: 1 }]])).equals(new Box(new Map([['k', { n: 1 }]]))));
  t.false(new Box({ a: 1 }).equals(new Box({ a: 1, b: 2 })));
});

test('JS: where the baseline has the same hook, the probe judges through the baseline’s body (one line, comments dropped)', (t) => {
  const baseline = money(
    'other instanceof Money && // same class\n      other.currency === this.currency &&\n      other.cents === this.cents',
  );
  const [site] = jsProbes('src/money.js', LAX, baseline, new Set([8]));
  t.is(site!.probe!.comparison, 'baseline');
  t.true(site!.parses);
  t.false(site!.replacement.includes('same class'), 'the comment is dropped');
  t.regex(site!.replacement, /^if \(!\(\(\) => \{ return other instanceof Money && +other\.currency/);
  const Money = probedClass(LAX, site!);
  t.false(new Money(33, 'EUR').equals(new Money(34, 'EUR')));
  t.true(new Money(34, 'EUR').equals(new Money(34, 'EUR')));
});

test('JS: a hook whose code is the baseline’s (a comment changed) gets no probe; nor does a class without one', (t) => {
  const commented = EXACT.replace('  equals(other) {', '  // compares exactly\n  equals(other) {');
  t.deepEqual(jsProbes('src/money.js', commented.replace('// compares exactly\n', ''), EXACT, new Set([8])), []);
  const plain =
    'export class Money {\n  constructor(c) {\n    this.c = c;\n  }\n  total() {\n    return this.c;\n  }\n}\n';
  t.deepEqual(jsProbes('src/money.js', plain, null, every(plain)), []);
  t.deepEqual(jsProbes('src/money.js', LAX, null, new Set([2])), [], 'a hook with no added line');
});

/** The one-line body of the first method of the first class of `text`. */
function firstBody(text: string): string | null {
  const program = parseJs('a.js', text) as unknown as { body: { body: { body: { body: never }[] } }[] };
  return bodyOnOneLine(text, program.body[0]!.body.body[0]!.body, []);
}

test('JS: automatic semicolons are written out when a body goes on one line (`return` before a line break)', (t) => {
  const line = firstBody(
    'class A {\n  equals(o) {\n    const x = o\n    if (!x) return\n    false\n    return x.v === this.v\n  }\n}\n',
  );
  t.is(line, 'const x = o;     if (!x) return;     false;     return x.v === this.v;');
  t.is(
    firstBody('class A {\n  equals(o) {\n    return `a\nb` === o;\n  }\n}\n'),
    null,
    'a literal holding a line break',
  );
});

test('TS: a static equal(a, b) is compared argument to argument, typed so tsc finds nothing new', (t) => {
  const text =
    'export class P {\n  constructor(public x: number) {}\n  static equal(a: P, b: P): boolean {\n    return Math.abs(a.x - b.x) < 2;\n  }\n}\n';
  const [site] = jsProbes('src/p.ts', text, null, new Set([4]));
  t.true(site!.parses);
  t.deepEqual(site!.probe, { hook: 'P.equal', line: 3, column: 10, comparison: 'fields' });
  t.regex(site!.replacement, /\(ag\$a: any, ag\$b: any\): boolean =>/);
  t.regex(site!.replacement, /\(arguments\[0\], arguments\[1\]\)\) return false; $/);
});

test('JS: a hook no strict comparison can be built for is a probe that does not parse (stillborn: not measured)', (t) => {
  const text = 'export class P {\n  static equals(a) {\n    return true;\n  }\n}\n';
  const [site] = jsProbes('p.js', text, null, every(text));
  t.false(site!.parses);
  t.is(site!.replacement, '');
});

const PY_MONEY = (eq: string) =>
  `class Money:\n    def __init__(self, cents, currency):\n        self.cents = cents\n        self.currency = currency\n\n    def __eq__(self, other):\n        ${eq}\n\n\ndef split(m, n):\n    return [Money(m.cents // n, m.currency) for _ in range(n)]\n`;
const PY_LAX = PY_MONEY('return abs(self.cents - other.cents) <= 1');

/** Run `text` with the probe appended and print what `script` evaluates to (as JSON). */
function pyEval(text: string, site: Site, script: string): unknown {
  const r = spawnSync('python3', ['-c', `${applySite(text, site)}\nimport json\nprint(json.dumps(${script}))`], {
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout.trim().split('\n').pop()!);
}

test('Python: a lax __eq__ the patch adds gets a probe appended at the end: type and every field compared', async (t) => {
  const [site, ...rest] = await pyProbes('python3', [
    { path: 'money.py', text: PY_LAX, baseline: null, lines: every(PY_LAX) },
  ]);
  t.is(rest.length, 0);
  t.true(site!.parses);
  t.deepEqual(site!.probe, { hook: 'Money.__eq__', line: 6, column: 5, comparison: 'fields' });
  t.is(site!.start, PY_LAX.length, 'appended: no line moves');
  t.deepEqual(site!.coverLines, [7, 7], 'covered by the hook’s body');
  t.deepEqual(
    pyEval(
      PY_LAX,
      site!,
      '[Money(33, "EUR") == Money(34, "EUR"), Money(33, "EUR") == Money(33, "EUR"), Money(1, "EUR") == 1]',
    ),
    [false, true, false],
  );
});

test('Python: the baseline’s __eq__ is the strict comparison where it exists; an unchanged hook gets no probe', async (t) => {
  const base = PY_MONEY(
    'return isinstance(other, Money) and (self.cents, self.currency) == (other.cents, other.currency)',
  );
  const [site] = await pyProbes('python3', [{ path: 'money.py', text: PY_LAX, baseline: base, lines: new Set([7]) }]);
  t.is(site!.probe!.comparison, 'baseline');
  t.deepEqual(pyEval(PY_LAX, site!, '[Money(33, "EUR") == Money(34, "EUR"), Money(34, "EUR") == Money(34, "EUR")]'), [
    false,
    true,
  ]);
  t.deepEqual(await pyProbes('python3', [{ path: 'money.py', text: base, baseline: base, lines: new Set([7]) }]), []);
});

test('Python: __slots__ are compared; a dataclass’s generated __eq__ is no hook the patch wrote', async (t) => {
  const slotted =
    'class P:\n    __slots__ = ("x", "__y")\n\n    def __init__(self, x, y):\n        self.x = x\n        self.__y = y\n\n    def __eq__(self, other):\n        return self.x == other.x\n';
  const [site] = await pyProbes('python3', [{ path: 'p.py', text: slotted, baseline: null, lines: every(slotted) }]);
  t.deepEqual(pyEval(slotted, site!, '[P(1, 2) == P(1, 3), P(1, 2) == P(1, 2)]'), [false, true]);
  const dc = 'from dataclasses import dataclass\n\n\n@dataclass\nclass R:\n    total: int\n';
  t.deepEqual(await pyProbes('python3', [{ path: 'r.py', text: dc, baseline: null, lines: every(dc) }]), []);
});

test('Python: a hook inside a function cannot be reached at the module’s end: a stillborn probe', async (t) => {
  const text = 'def make():\n    class A:\n        def __eq__(self, other):\n            return True\n    return A\n';
  const [site] = await pyProbes('python3', [{ path: 'a.py', text, baseline: null, lines: every(text) }]);
  t.false(site!.parses);
});

test('records: a killed probe names its killer; stillborn, not run and unstartable ones are faults', (t) => {
  const [site] = jsProbes('src/money.js', LAX, null, every(LAX));
  const verdict = (v: Partial<MutantVerdict>): MutantVerdict => ({ status: 'killed', killedBy: null, ...v });
  const killed = probeRecord(site!, verdict({ killedBy: 'test/money.test.js' }));
  t.like(killed, {
    file: 'src/money.js',
    line: 7,
    hook: 'Money.equals',
    status: 'killed',
    killed_by: 'test/money.test.js',
  });
  const stillborn = probeRecord(site!, verdict({ status: 'stillborn' }));
  const notRun = probeRecord(site!, undefined);
  t.is(notRun.status, 'not_run');
  t.deepEqual(
    probeFaults([killed, stillborn, notRun], new Set()).map((f) => f.code),
    ['EQUALITY_PROBE_UNJUDGED', 'EQUALITY_PROBE_UNJUDGED'],
  );
  t.is(probeFaults([{ ...killed, status: 'survived' }], new Set([killed.id])).length, 1, 'a run that could not start');
});

const PY_EXACT_EQ = 'return isinstance(other, Money) and (self.cents, self.currency) == (other.cents, other.currency)';
/** PY_MONEY with one more field, `note` (or `_note`), set in __init__ (line 5), the hook left as it was. */
const pyWithField = (field: string, eq = PY_EXACT_EQ) =>
  PY_MONEY(eq).replace(
    '        self.currency = currency\n',
    `        self.currency = currency\n        self.${field} = None\n`,
  );

test('Python: a hook left as it was in a class the patch gives a public field it does not read: probed with that field equal too', async (t) => {
  const base = PY_MONEY(PY_EXACT_EQ);
  const text = pyWithField('note');
  const [site, ...rest] = await pyProbes('python3', [{ path: 'money.py', text, baseline: base, lines: new Set([5]) }]);
  t.is(rest.length, 0);
  t.true(site!.parses);
  t.deepEqual(site!.probe, { hook: 'Money.__eq__', line: 7, column: 5, comparison: 'new_fields', fields: ['note'] });
  const script =
    '[(lambda a, b: (setattr(b, "note", "x"), a == b)[1])(Money(1, "EUR"), Money(1, "EUR")), Money(1, "EUR") == Money(1, "EUR"), Money(1, "EUR") == Money(2, "EUR")]';
  t.deepEqual(
    pyEval(text, site!, script),
    [false, true, false],
    'a differing note tells them apart; the rest is the hook’s',
  );
  // Honest look-alikes: a private field (a cache), a hook that reads the new field, a field the baseline had.
  for (const [name, patched] of [
    ['a private field', pyWithField('_note')],
    ['a hook that reads it', pyWithField('note', `${PY_EXACT_EQ} and self.note == other.note`)],
  ] as const)
    t.deepEqual(
      await pyProbes('python3', [{ path: 'money.py', text: patched, baseline: base, lines: new Set([5]) }]),
      [],
      name,
    );
  t.deepEqual(
    await pyProbes('python3', [{ path: 'money.py', text, baseline: text, lines: new Set([11]) }]),
    [],
    'the class had the field: nothing new',
  );
  t.deepEqual(
    await pyProbes('python3', [{ path: 'money.py', text, baseline: base, lines: new Set([11]) }]),
    [],
    'no added line in the class: not the patch’s class change',
  );
});

/** EXACT's class with one more field set in the constructor (line 5), the hook left as it was. */
const jsWithField = (field: string, equals = EXACT) =>
  equals.replace('    this.currency = currency;\n', `    this.currency = currency;\n    this.${field} = null;\n`);

test('JS: an equals left as it was in a class the patch gives a public field it does not read: probed with that field equal too', (t) => {
  const text = jsWithField('note');
  const [site, ...rest] = jsProbes('src/money.js', text, EXACT, new Set([5]));
  t.is(rest.length, 0);
  t.true(site!.parses);
  t.deepEqual(site!.probe, { hook: 'Money.equals', line: 8, column: 3, comparison: 'new_fields', fields: ['note'] });
  const Money = probedClass(text, site!);
  const a = new Money(1, 'EUR');
  const b = new Money(1, 'EUR');
  t.true(a.equals(b));
  (b as unknown as { note: string }).note = 'x';
  t.false(a.equals(b), 'a differing note tells them apart');
  t.false(a.equals(new Money(2, 'EUR')), 'the rest is the hook’s own answer');
  t.deepEqual(jsProbes('src/money.js', jsWithField('_note'), EXACT, new Set([5])), [], 'a private field');
  const reads = jsWithField(
    'note',
    money('other instanceof Money && other.cents === this.cents && other.note === this.note'),
  );
  t.deepEqual(jsProbes('src/money.js', reads, EXACT, new Set([5])), [], 'a hook that reads it');
  const ts = jsProbes('src/money.ts', text, EXACT, new Set([5]))[0]!;
  t.true(ts.parses, 'typed for TypeScript too');
});
