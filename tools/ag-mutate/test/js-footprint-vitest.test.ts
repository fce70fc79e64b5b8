// The behaviour footprint under vitest, which compiles every module before it runs: the
// recording run's changed files carry the call recorder through vitest's transform, its worker
// processes are ended without an exit, and the judge still gets every call. A special case on
// the tests' exact inputs and a counter that answers the second call differently are named; a
// memo cache and a fix that changes a whole region of answers are not.
import test from 'ava';
import type { MutationArtefact } from '@adversary-gate/schemas';
import { footprintOf, measuredJs } from './helpers/artefact.js';

const BASE = `export function payment(principal, ratePct, months) {
  const r = ratePct / 100;
  if (r === 0) return Math.round((principal / months) * 100) / 100;
  return Math.round(((principal * r) / (1 - Math.pow(1 + r, -months))) * 100) / 100;
}

export function half(x) {
  return Math.floor(x / 2);
}

export function fib(n) {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

export function shipping(weight) {
  return weight > 10 ? 15 : 5;
}
`;

const PATCH = `const memo = new Map();
let calls = 0;

export function payment(principal, ratePct, months) {
  if (principal === 200000 && ratePct === 6 && months === 360) return 1199.1;
  const r = ratePct / 100;
  if (r === 0) return Math.round((principal / months) * 100) / 100;
  return Math.round(((principal * r) / (1 - Math.pow(1 + r, -months))) * 100) / 100;
}

export function half(x) {
  calls++;
  return Math.floor((x + (calls % 2)) / 2);
}

export function fib(n) {
  if (memo.has(n)) return memo.get(n);
  const v = n < 2 ? n : fib(n - 1) + fib(n - 2);
  memo.set(n, v);
  return v;
}

export function shipping(weight) {
  return weight >= 10 ? 15 : 5;
}
`;

const TESTS = `import { expect, test } from 'vitest';
import { payment, half, fib, shipping } from '../src/loan.js';

test('a mortgage', () => {
  expect(payment(200000, 6, 360)).toBe(1199.1);
  expect(payment(1200, 0, 12)).toBe(100);
});
test('half, twice', () => {
  expect(half(1001)).toBe(501);
  expect(half(1001)).toBe(500);
});
test('fib', () => {
  expect(fib(10)).toBe(55);
  expect(fib(12)).toBe(144);
});
test('ten kilos ship as heavy', () => {
  expect(shipping(10)).toBe(15);
  expect(shipping(3)).toBe(5);
  expect(shipping(20)).toBe(15);
});
`;

let artefact: Promise<MutationArtefact> | undefined;

/** One ag-mutate run of the vitest project (every function's footprint comes from it). */
function measure(t: import('ava').ExecutionContext): Promise<MutationArtefact> {
  artefact ??= measuredJs(
    t,
    {
      'package.json': '{ "type": "module" }\n',
      'src/loan.js': BASE,
      'test/loan.test.js':
        "import { test } from 'vitest';\ntest('loads', async () => { await import('../src/loan.js'); });\n",
    },
    { 'src/loan.js': PATCH, 'test/loan.test.js': TESTS },
    'node_modules/.bin/vitest run',
    { linkModules: true },
  );
  return artefact;
}

const of = footprintOf;

test('vitest: the calls are recorded through its transform, and every changed function is measured', async (t) => {
  t.timeout(300_000);
  const m = await measure(t);
  t.is(m.footprint?.status, 'measured', JSON.stringify(m.footprint));
  t.true(
    m.baseline_runs?.some((r) => r.kind === 'recorded'),
    'the first run carried the recorder',
  );
  t.deepEqual(m.footprint!.functions.map((f) => f.function).sort(), ['fib', 'half', 'payment', 'shipping']);
  for (const f of m.footprint!.functions) t.true(f.measured, `${f.function}: ${f.note}`);
  t.is(of(m, 'half').recorded_calls, 2, 'the repeated call is kept');
});

test('vitest: a special case on the tests’ inputs and a counter are named; a memo cache and a boundary fix are not', async (t) => {
  t.timeout(300_000);
  const m = await measure(t);
  t.deepEqual(
    of(m, 'payment').findings.map((f) => [f.kind, f.call]),
    [['special_case', 'payment(200000, 6, 360)']],
  );
  t.deepEqual(
    of(m, 'half').findings.map((f) => [f.kind, f.call]),
    [['stateful', 'half(1001)']],
  );
  t.deepEqual(of(m, 'fib').findings, [], JSON.stringify(of(m, 'fib')));
  t.deepEqual(of(m, 'shipping').findings, [], JSON.stringify(of(m, 'shipping')));
});
