/**
 * Mutations of valid inputs, as fast-check arbitraries: byte-wise (flip, set, insert,
 * delete, truncate, duplicate, BOM, invalid UTF-8, huge numbers, deep nesting), line-wise
 * for text formats, and structural for JSON (drop/add/rename keys, wrong types, arrays and
 * objects swapped, extra fields, out-of-range values, duplicated keys). Each mutation is a
 * plain object, so a counterexample prints as the list of edits that made it.
 * @module
 */
import fc from 'fast-check';

/** A valid input a mutation starts from. */
export interface Seed {
  readonly name: string;
  readonly bytes: Buffer;
}

/** One byte-level edit; `at` is taken modulo the input length, so every edit applies to every input. */
export type ByteEdit =
  | { readonly op: 'flip'; readonly at: number; readonly bit: number }
  | { readonly op: 'set'; readonly at: number; readonly byte: number }
  | { readonly op: 'insert'; readonly at: number; readonly bytes: string }
  | { readonly op: 'delete'; readonly at: number; readonly length: number }
  | { readonly op: 'truncate'; readonly at: number }
  | { readonly op: 'duplicate'; readonly at: number; readonly length: number; readonly to: number }
  | { readonly op: 'bom' }
  | { readonly op: 'badUtf8'; readonly at: number; readonly seq: string }
  | { readonly op: 'number'; readonly at: number; readonly value: string }
  | { readonly op: 'nest'; readonly at: number; readonly depth: number; readonly open: string }
  | { readonly op: 'dropLine'; readonly at: number }
  | { readonly op: 'dupLine'; readonly at: number }
  | { readonly op: 'swapLines'; readonly at: number; readonly with: number }
  | { readonly op: 'insertLine'; readonly at: number; readonly line: string };

/** Byte sequences that are not UTF-8 (as latin1 strings, one char per byte). */
const BAD_UTF8 = [
  '\xc3\x28',
  '\xa0\xa1',
  '\xe2\x28\xa1',
  '\xf0\x28\x8c\xbc',
  '\xc0\xaf',
  '\xed\xa0\x80',
  '\xf8\x88\x80\x80\x80',
  '\xff',
  '\xfe\xff',
  '\xef\xbb\xbf',
];

/** Numbers a reader must refuse or bound (as text). */
const NUMBERS = [
  '1e400',
  '-1e400',
  '9007199254740993',
  '-9007199254740993',
  '-0',
  '-1',
  '0.5',
  '1e-400',
  '1.0',
  '2',
  '00',
  '1e2',
  '99999999999999999999',
  '-2147483649',
  '4294967296',
  'NaN',
  'Infinity',
  '0x10',
];

const BYTES_OF_NOTE = [
  0x00, 0x09, 0x0a, 0x0d, 0x20, 0x22, 0x27, 0x2b, 0x2c, 0x2d, 0x2f, 0x3a, 0x3c, 0x3e, 0x40, 0x5b, 0x5c, 0x5d, 0x7b,
  0x7d, 0x7f, 0x80, 0xc0, 0xff,
];

const pos = fc.nat({ max: 1 << 20 });

/** Byte-level edits; `tokens` are format-specific fragments (`SF:`, `@@ -1 +1 @@`, `<class`…). */
export function byteEdit(tokens: readonly string[], lines: boolean): fc.Arbitrary<ByteEdit> {
  const token =
    tokens.length > 0 ? fc.oneof(fc.constantFrom(...tokens), fc.string({ maxLength: 8 })) : fc.string({ maxLength: 8 });
  const edits: fc.Arbitrary<ByteEdit>[] = [
    fc.record({ op: fc.constant('flip' as const), at: pos, bit: fc.integer({ min: 0, max: 7 }) }),
    fc.record({
      op: fc.constant('set' as const),
      at: pos,
      byte: fc.oneof(fc.constantFrom(...BYTES_OF_NOTE), fc.integer({ min: 0, max: 255 })),
    }),
    fc.record({ op: fc.constant('insert' as const), at: pos, bytes: token }),
    fc.record({ op: fc.constant('delete' as const), at: pos, length: fc.integer({ min: 1, max: 64 }) }),
    fc.record({ op: fc.constant('truncate' as const), at: pos }),
    fc.record({ op: fc.constant('duplicate' as const), at: pos, length: fc.integer({ min: 1, max: 400 }), to: pos }),
    fc.constant({ op: 'bom' as const }),
    fc.record({ op: fc.constant('badUtf8' as const), at: pos, seq: fc.constantFrom(...BAD_UTF8) }),
    fc.record({ op: fc.constant('number' as const), at: pos, value: fc.constantFrom(...NUMBERS) }),
    fc.record({
      op: fc.constant('nest' as const),
      at: pos,
      depth: fc.integer({ min: 60, max: 5000 }),
      open: fc.constantFrom('[', '{"a":', '<a>', '(', '+'),
    }),
  ];
  if (lines) {
    edits.push(
      fc.record({ op: fc.constant('dropLine' as const), at: pos }),
      fc.record({ op: fc.constant('dupLine' as const), at: pos }),
      fc.record({ op: fc.constant('swapLines' as const), at: pos, with: pos }),
      fc.record({ op: fc.constant('insertLine' as const), at: pos, line: token }),
    );
  }
  return fc.oneof(...edits);
}

const latin1 = (s: string) => Buffer.from(s, 'latin1');
const utf8 = (s: string) => Buffer.from(s, 'utf8');

function splice(b: Buffer, at: number, remove: number, insert: Buffer): Buffer {
  return Buffer.concat([b.subarray(0, at), insert, b.subarray(at + remove)]);
}

function editLines(b: Buffer, f: (lines: Buffer[]) => void): Buffer {
  const lines: Buffer[] = [];
  let start = 0;
  for (let i = b.indexOf(10); i !== -1; i = b.indexOf(10, start)) {
    lines.push(b.subarray(start, i + 1));
    start = i + 1;
  }
  if (start < b.length) lines.push(b.subarray(start));
  f(lines);
  return Buffer.concat(lines);
}

/** Apply one edit. */
export function applyByteEdit(b: Buffer, e: ByteEdit): Buffer {
  const n = b.length;
  const at = 'at' in e ? e.at % (n + 1) : 0;
  switch (e.op) {
    case 'flip':
      if (n === 0) return b;
      return splice(b, at % n, 1, Buffer.from([b[at % n]! ^ (1 << e.bit)]));
    case 'set':
      if (n === 0) return Buffer.from([e.byte]);
      return splice(b, at % n, 1, Buffer.from([e.byte]));
    case 'insert':
      return splice(b, at, 0, utf8(e.bytes));
    case 'delete':
      return splice(b, at, e.length, Buffer.alloc(0));
    case 'truncate':
      return b.subarray(0, at);
    case 'duplicate':
      return splice(b, e.to % (n + 1), 0, Buffer.from(b.subarray(at, at + e.length)));
    case 'bom':
      return Buffer.concat([latin1('\xef\xbb\xbf'), b]);
    case 'badUtf8':
      return splice(b, at, 0, latin1(e.seq));
    case 'number': {
      // Replace the next run of digits at or after `at` (wrapping round) with the value.
      const text = b.toString('latin1');
      const re = /-?\d+(\.\d+)?([eE][+-]?\d+)?/g;
      re.lastIndex = at;
      const m = re.exec(text) ?? ((re.lastIndex = 0), re.exec(text));
      if (m === null) return splice(b, at, 0, latin1(e.value));
      return splice(b, m.index, m[0].length, latin1(e.value));
    }
    case 'nest':
      return splice(b, at, 0, utf8(e.open.repeat(e.depth)));
    case 'dropLine':
      return editLines(b, (l) => l.length > 0 && l.splice(at % l.length, 1));
    case 'dupLine':
      return editLines(b, (l) => l.length > 0 && l.splice(at % l.length, 0, l[at % l.length]!));
    case 'swapLines':
      return editLines(b, (l) => {
        if (l.length < 2) return;
        const i = at % l.length;
        const j = e.with % l.length;
        [l[i], l[j]] = [l[j]!, l[i]!];
      });
    case 'insertLine':
      return editLines(b, (l) => l.splice(l.length === 0 ? 0 : at % (l.length + 1), 0, utf8(`${e.line}\n`)));
  }
}

/** Values of the wrong type, out of range, or dangerous, that a structural edit writes. */
const ODD_VALUES: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  2,
  1e308,
  -1e-9,
  9007199254740991,
  4294967296,
  '',
  '0',
  '1',
  'false',
  'true',
  'null',
  'ACCEPT',
  'REJECT',
  'HOLD',
  'PASS',
  'VERIFIED',
  'computed',
  'killed',
  `sha256:${'0'.repeat(64)}`,
  `sha256:${'A'.repeat(64)}`,
  '../etc/passwd',
  '/etc/passwd',
  'C:\\x',
  'a\\b',
  'a\0b',
  'a//b',
  '\ud800',
  '\u202e',
  'line1\nline2',
  'a\rb',
  '**',
  '[',
  '2099-12-31',
  '2020-02-30',
  [],
  {},
  [1],
  [null],
  ['ACCEPT'],
  { a: 1 },
  { verdict: 'ACCEPT' },
  [[1, 1]],
  'x'.repeat(5000),
];

const ODD_KEYS = [
  'a\nb',
  'override',
  'skip_checks',
  'verdict',
  '__proto__',
  'constructor',
  'prototype',
  'schema',
  'schema_version',
  '',
  ' ',
  'ACCEPT',
  'timing',
  'faults',
];

/** One structural edit of a parsed JSON document; `at` picks a node (modulo the node count). */
export type JsonEdit =
  | { readonly op: 'delete'; readonly at: number }
  | { readonly op: 'add'; readonly at: number; readonly key: string; readonly value: unknown }
  | { readonly op: 'rename'; readonly at: number; readonly key: string }
  | { readonly op: 'replace'; readonly at: number; readonly value: unknown }
  | { readonly op: 'swap'; readonly at: number }
  | { readonly op: 'dupKey'; readonly at: number; readonly value: unknown }
  | { readonly op: 'dupElement'; readonly at: number }
  | { readonly op: 'numberEdge'; readonly at: number; readonly delta: number };

const oddValue = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...ODD_VALUES) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
);
const oddKey = fc.oneof(fc.constantFrom(...ODD_KEYS), fc.string({ maxLength: 6 }));

/** Structural edits of JSON. */
export const jsonEdit: fc.Arbitrary<JsonEdit> = fc.oneof(
  fc.record({ op: fc.constant('delete' as const), at: pos }),
  fc.record({ op: fc.constant('add' as const), at: pos, key: oddKey, value: oddValue }),
  fc.record({ op: fc.constant('rename' as const), at: pos, key: oddKey }),
  fc.record({ op: fc.constant('replace' as const), at: pos, value: oddValue }),
  fc.record({ op: fc.constant('swap' as const), at: pos }),
  fc.record({ op: fc.constant('dupKey' as const), at: pos, value: oddValue }),
  fc.record({ op: fc.constant('dupElement' as const), at: pos }),
  fc.record({
    op: fc.constant('numberEdge' as const),
    at: pos,
    delta: fc.constantFrom(-1, 1, -1e-9, 1e-9, 0.5, -0.5, 1e6),
  }),
);

/** Extra members an object is serialised with after its own keys (duplicated keys). */
const DUPS = Symbol('duplicate members');
type Dups = Array<[string, unknown]>;
type Container = Record<string, unknown> | unknown[];

interface Slot {
  readonly parent: Container | null;
  readonly key: string | number;
  readonly value: unknown;
}

function slots(root: unknown): Slot[] {
  const out: Slot[] = [{ parent: null, key: '', value: root }];
  const walk = (v: unknown) => {
    if (Array.isArray(v)) {
      v.forEach((x, i) => {
        out.push({ parent: v, key: i, value: x });
        walk(x);
      });
    } else if (typeof v === 'object' && v !== null) {
      const obj = v as Record<string, unknown>;
      for (const k of Object.keys(obj)) {
        out.push({ parent: obj, key: k, value: obj[k] });
        walk(obj[k]);
      }
    }
  };
  walk(root);
  return out;
}

function setOwn(o: Record<string, unknown>, k: string, value: unknown): void {
  Object.defineProperty(o, k, { value, enumerable: true, writable: true, configurable: true });
}

/** Apply one structural edit to `root` (mutated in place); returns the new root. */
export function applyJsonEdit(root: unknown, e: JsonEdit): unknown {
  const all = slots(root);
  const s = all[e.at % all.length]!;
  const put = (value: unknown): unknown => {
    if (s.parent === null) return value;
    if (Array.isArray(s.parent)) s.parent[s.key as number] = value;
    else setOwn(s.parent, s.key as string, value);
    return root;
  };
  const containers = all.filter((x) => typeof x.value === 'object' && x.value !== null);
  switch (e.op) {
    case 'delete':
      if (s.parent === null) return root;
      if (Array.isArray(s.parent)) s.parent.splice(s.key as number, 1);
      else delete s.parent[s.key as string];
      return root;
    case 'add': {
      const c = containers[e.at % containers.length]?.value as Container | undefined;
      if (c === undefined) return root;
      if (Array.isArray(c)) c.push(structuredClone(e.value));
      else setOwn(c, e.key, structuredClone(e.value));
      return root;
    }
    case 'rename': {
      if (s.parent === null || Array.isArray(s.parent) || e.key === s.key) return root;
      const entries = Object.entries(s.parent);
      for (const k of Object.keys(s.parent)) delete s.parent[k];
      for (const [k, v] of entries) setOwn(s.parent, k === s.key ? e.key : k, v);
      return root;
    }
    case 'replace':
      return put(structuredClone(e.value));
    case 'swap':
      if (Array.isArray(s.value)) return put(Object.fromEntries(s.value.map((x, i) => [String(i), x])));
      if (typeof s.value === 'object' && s.value !== null) return put(Object.values(s.value));
      return put([s.value]);
    case 'dupKey': {
      const objects = containers.filter((x) => !Array.isArray(x.value));
      const o = objects[e.at % Math.max(1, objects.length)]?.value as
        (Record<string, unknown> & { [DUPS]?: Dups }) | undefined;
      if (o === undefined) return root;
      const keys = Object.keys(o);
      if (keys.length === 0) return root;
      const k = keys[e.at % keys.length]!;
      (o[DUPS] ??= []).push([k, structuredClone(e.value)]);
      return root;
    }
    case 'dupElement': {
      const arrays = containers.filter((x) => Array.isArray(x.value));
      const a = arrays[e.at % Math.max(1, arrays.length)]?.value as unknown[] | undefined;
      if (a === undefined || a.length === 0) return root;
      a.push(structuredClone(a[e.at % a.length]));
      return root;
    }
    case 'numberEdge': {
      const numbers = all.filter((x) => typeof x.value === 'number');
      const t = numbers[e.at % Math.max(1, numbers.length)];
      if (t === undefined || t.parent === null) return root;
      const value = (t.value as number) + e.delta;
      if (Array.isArray(t.parent)) t.parent[t.key as number] = value;
      else setOwn(t.parent, t.key as string, value);
      return root;
    }
  }
}

/** Serialise JSON, writing duplicated members where an edit asked for them. */
export function serialiseJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(serialiseJson).join(',')}]`;
  if (typeof v === 'object' && v !== null) {
    const members = Object.keys(v).map((k) => [k, (v as Record<string, unknown>)[k]] as [string, unknown]);
    members.push(...((v as { [DUPS]?: Dups })[DUPS] ?? []));
    return `{${members.map(([k, x]) => `${JSON.stringify(k)}:${serialiseJson(x)}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/** A mutated input and how it was made (shown with a counterexample). */
export interface Mutant {
  readonly seed: string;
  readonly how: 'bytes' | 'json';
  readonly edits: readonly (ByteEdit | JsonEdit)[];
  readonly bytes: Buffer;
}

/** Options of {@link mutants}. */
export interface MutantOptions {
  /** Parse the seeds as JSON and apply structural edits too. */
  readonly json?: boolean;
  /** Apply line edits (text formats). */
  readonly lines?: boolean;
  /** Format-specific fragments inserted by byte and line edits. */
  readonly tokens?: readonly string[];
  /** At most this many edits per input (default 3). */
  readonly maxEdits?: number;
}

/** Mutants of the seeds: byte-wise always, structurally when the seeds are JSON. */
export function mutants(seeds: readonly Seed[], options: MutantOptions = {}): fc.Arbitrary<Mutant> {
  const maxEdits = options.maxEdits ?? 3;
  const seed = fc.constantFrom(...seeds);
  const bytes = fc
    .record({
      seed,
      edits: fc.array(byteEdit(options.tokens ?? [], options.lines ?? false), { minLength: 1, maxLength: maxEdits }),
    })
    .map(({ seed, edits }) => ({
      seed: seed.name,
      how: 'bytes' as const,
      edits,
      bytes: edits.reduce((b, e) => applyByteEdit(b, e), seed.bytes),
    }));
  if (!options.json) return bytes;
  const structural = fc
    .record({ seed, edits: fc.array(jsonEdit, { minLength: 1, maxLength: maxEdits }) })
    .map(({ seed, edits }) => {
      const root = edits.reduce((r, e) => applyJsonEdit(r, e), JSON.parse(seed.bytes.toString('utf8')) as unknown);
      return { seed: seed.name, how: 'json' as const, edits, bytes: Buffer.from(serialiseJson(root), 'utf8') };
    });
  return fc.oneof(bytes, structural);
}

/** Describe a mutant in one line (for counterexamples and the long run's log). */
export function describeMutant(m: Mutant): string {
  return `${m.seed} ${m.how} ${JSON.stringify(m.edits)} → base64 ${m.bytes.length <= 4096 ? m.bytes.toString('base64') : `${m.bytes.subarray(0, 4096).toString('base64')}… (${m.bytes.length} bytes)`}`;
}
