import test from 'ava';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { withSiteCounters } from '../src/exec/site-counters.js';

/** The spans of every occurrence of `needle` in `text`, by the mark `«…»` around it: returns the text without marks and the spans. */
function marked(source: string): { text: string; spans: { start: number; end: number }[] } {
  const spans: { start: number; end: number }[] = [];
  let text = '';
  const open: number[] = [];
  for (const ch of source) {
    if (ch === '«') open.push(text.length);
    else if (ch === '»') spans.push({ start: open.pop()!, end: text.length });
    else text += ch;
  }
  return { text, spans };
}

/** Run the instrumented CommonJS text with a counter runtime that collects offsets; returns what `run(exports)` counted. */
function counts(instrumented: string, run: (exports: Record<string, (...a: unknown[]) => unknown>) => void): number[] {
  const counted = new Set<number>();
  const runtime = { file: () => (o?: number) => o !== undefined && counted.add(o) };
  const module = { exports: {} as Record<string, (...a: unknown[]) => unknown> };
  const req = (id: string) => (id === '/runtime.cjs' ? runtime : createRequire(import.meta.url)(id));
  vm.runInNewContext(`(function (module, exports, require) {${instrumented}\n})`, {})(module, module.exports, req);
  counted.clear();
  run(module.exports);
  return [...counted].sort((a, b) => a - b);
}

const link = { module: 'commonjs' as const, runtime: '/runtime.cjs', dir: '/d', file: '/f.js', length: 0, salt: 't' };

function instrument(source: string) {
  const { text, spans } = marked(source);
  const out = withSiteCounters('f.js', text, spans, { ...link, length: text.length });
  return { text, spans, out };
}

test('site counters: each site is counted exactly when its code runs (short-circuits, branches, callees, chains)', (t) => {
  const { spans, out } = instrument(
    [
      'function f(a, b, o) {',
      '  if (a «>» 1 && «b»)',
      '    return «o.m»(a);',
      '  const x = o?.«p».q ?? «typeof nope»;',
      '  switch (a) { case «3»: return «-a»; }',
      '  return x «+» 1;',
      '}',
      'module.exports = { f };',
    ].join('\n'),
  );
  t.truthy(out);
  const [gt, b, call, chain, typeOf, three, neg, plus] = spans.map((s) => s.start) as number[] as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const obj = {
    m(this: unknown, v: number) {
      return this === obj ? v : -1;
    },
    p: { q: 5 },
  };
  t.deepEqual(
    counts(out!, (e) => t.is(e.f!(2, true, obj), 2)),
    [gt, b, call].sort((x, y) => x - y),
  );
  t.deepEqual(
    counts(out!, (e) => t.is(e.f!(0, true, obj), 6)),
    [gt, chain, three, plus].sort((x, y) => x - y),
  );
  t.deepEqual(
    counts(out!, (e) => t.is(e.f!(0, true, null), 'undefined1')),
    [gt, chain, typeOf, three, plus].sort((x, y) => x - y),
  );
  t.deepEqual(
    counts(out!, (e) => t.is(e.f!(3, false, obj), -3)),
    [gt, b, chain, three, neg].sort((x, y) => x - y),
  );
});

test('site counters: statements, blocks after a directive, assignment targets and a line that starts with a parenthesis keep their meaning', (t) => {
  const { spans, out } = instrument(
    [
      'function g(a) «{',
      "  'use strict';",
      '  {',
      '    let y = a',
      '    «y»++',
      '    ;«y = y * 2»',
      '    if (a) «return y;»',
      '  }',
      '  return this;',
      '}»',
      'let z = 1',
      '«z»',
      'module.exports = { g, z: () => z };',
    ].join('\n'),
  );
  t.truthy(out);
  t.regex(out!, /'use strict';;__agmCount_t\(\d+\);/);
  const [y, assign, ret, body] = spans.map((s) => s.start) as [number, number, number, number];
  t.is(spans.length, 5);
  t.deepEqual(
    counts(out!, (e) => t.is(e.g!(1), 4)),
    [body, y, assign, ret],
  );
  // Strict mode held: `this` of a plain call is undefined.
  t.deepEqual(
    counts(out!, (e) => {
      const g = e.g!;
      t.is(g(0), undefined);
    }),
    [body, y, assign],
  );
  t.is(counts(out!, (e) => t.is(e.z!(), 1)).length, 0);
});

test('site counters: destructuring targets, tagged templates and labelled loops keep their meaning', (t) => {
  const { spans, out } = instrument(
    [
      'function k(o, tag) {',
      '  const { a: «b» } = o;',
      '  outer: for (const x of «[1, 2]») { if (x «>» b) continue outer; }',
      '  return tag`v${«b»}`;',
      '}',
      'module.exports = { k };',
    ].join('\n'),
  );
  t.truthy(out);
  const tag = (strings: readonly string[], ...values: unknown[]) => `${strings.length}:${values.join()}`;
  t.deepEqual(
    counts(out!, (e) => t.is(e.k!({ a: 1 }, tag), '2:1')),
    spans.map((s) => s.start),
  );
});

test('site counters: a span of top-level statements that opens on a comment is counted before its first statement (a revert of a hunk that adds a commented function)', (t) => {
  const { spans, out } = instrument(
    [
      'function a(x) {',
      '  return x;',
      '}',
      '',
      '«// "$3.50": two decimals.',
      'function f(x) {',
      '  return x.toFixed(2);',
      '}',
      '',
      'module.exports = { a, f };»',
      '',
    ].join('\n'),
  );
  t.truthy(out, 'the file carries its counters');
  t.notThrows(() => counts(out!, (e) => t.is(e.f!(3.5), '3.50')));
  // The span is module code: it runs when the module loads, which every test that loads it does.
  t.regex(out!, new RegExp(`;__agmCount_t\\(${spans[0]!.start}\\);function f`));
  t.is(instrument('let a = 1;\n«// only a comment»\n').out, null, 'a span with no statement has no place');
});

test('site counters: a span over a method header (a revert of its parameters) is counted at the top of its body, when it runs', (t) => {
  const { spans, out } = instrument(
    [
      'class V {',
      '«  constructor(a, b = 0) {',
      '»    this.a = a;',
      '    this.b = b;',
      '  }',
      '}',
      'module.exports = { make: (a) => new V(a) };',
      '',
    ].join('\n'),
  );
  t.truthy(out, 'the file carries its counters');
  t.deepEqual(
    counts(out!, () => undefined),
    [],
    'not counted at load',
  );
  t.deepEqual(
    counts(out!, (e) => e.make!(1)),
    [spans[0]!.start],
    'counted when the constructor runs',
  );
});

test('site counters: a site with no place for a counter leaves the file as it is (null), as does a file that does not parse', (t) => {
  t.is(instrument('class A { «x»() {} }\n').out, null);
  // Inside a function, a counter never goes outside it (it would count the function's creation).
  t.is(instrument('const f = function () { return { «a»() {} }; };\n').out, null);
  t.is(withSiteCounters('f.js', 'let = ;', [{ start: 0, end: 1 }], link), null);
});

test('site counters: an ES module imports the runtime and counts in it; a process without the mocha hook writes its record at exit', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ag-mutate-counters-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const { text, spans } = marked('export function h(a) {\n  return a «===» 2 ? «"two"» : "other";\n}\n');
  const runtime = path.resolve('runtime/site-counter.cjs');
  const file = path.join(dir, 'h.mjs');
  const out = withSiteCounters('h.mjs', text, spans, { module: 'module', runtime, dir, file, length: 7, salt: 'e' });
  t.truthy(out);
  writeFileSync(file, out!);
  const { spawnSync } = await import('node:child_process');
  const r = spawnSync(process.execPath, [
    '--input-type=module',
    '-e',
    `import { h } from ${JSON.stringify(file)}; h(3);`,
  ]);
  t.is(r.status, 0, r.stderr.toString());
  const names = readdirSync(dir).filter((n) => n.endsWith('.json') || n.endsWith('.started'));
  t.is(names.length, 2);
  const record = JSON.parse(
    readFileSync(
      path.join(
        dir,
        names.find((n) => n.endsWith('.json'))!,
      ),
      'utf8',
    ),
  );
  t.deepEqual(record.files, { [file]: [spans[0]!.start] });
  t.deepEqual(record.lengths, { [file]: 7 });
});
