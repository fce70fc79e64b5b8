// Mocks are not the code, in JavaScript: a vitest mock of a project module that a changed
// function calls is judged against the real module on the same calls. A mock answering a
// fraction where the real one answers whole percents, or a record with a key the real one never
// has, is named; a mock that merely chose other values of the same kind, answered a share where
// the real one answers 0, or raised an error the real one's own source raises, is not.
import test from 'ava';
import type { MutationArtefact } from '@adversary-gate/schemas';
import { footprintOf, measuredJs } from './helpers/artefact.js';

const BASE = {
  'package.json': '{ "type": "module" }\n',
  'src/rates.js': `const RATES = { UK: 20, DE: 19, 'US-CA': 7.25 };
export function getTaxRate(region) {
  if (!Object.hasOwn(RATES, region)) throw new RangeError('unknown region ' + region);
  return RATES[region];
}
export function getDiscount(customer) {
  return customer === 'vip' ? 0.1 : 0;
}
`,
  'src/fx.js': `export function getRate(from, to) {
  return from === to ? 10000 : 9200;
}
`,
  'src/geo.js': `export function lookup(code) {
  return { latitude: code.length, longitude: 1 };
}
`,
  'test/real.test.js': `import { expect, test } from 'vitest';
import { getTaxRate, getDiscount } from '../src/rates.js';
import { getRate } from '../src/fx.js';
import { lookup } from '../src/geo.js';
test('the real modules', () => {
  expect(getTaxRate('UK')).toBe(20);
  expect(getRate('USD', 'EUR')).toBe(9200);
  expect(lookup('abc').latitude).toBe(3);
});
`,
};

const PATCH = {
  'src/invoice.js': `import { getTaxRate, getDiscount } from './rates.js';
export function tax(net, region) {
  return Math.round(net * getTaxRate(region) * 100) / 100;
}
export function discounted(net, customer) {
  return net - net * getDiscount(customer);
}
`,
  'src/convert.js': `import * as fx from './fx.js';
export function convert(cents, from, to) {
  return Math.round((cents * fx.getRate(from, to)) / 10000);
}
`,
  'src/near.js': `import { lookup } from './geo.js';
export function north(a, b) {
  return lookup(a).lat > lookup(b).lat;
}
`,
  'test/mocked.test.js': `import { expect, test, vi } from 'vitest';
vi.mock('../src/rates.js', () => ({ getTaxRate: vi.fn(), getDiscount: vi.fn() }));
vi.mock('../src/fx.js', () => ({ getRate: vi.fn() }));
vi.mock('../src/geo.js', () => ({ lookup: vi.fn() }));
import { getTaxRate, getDiscount } from '../src/rates.js';
import { getRate } from '../src/fx.js';
import { lookup } from '../src/geo.js';
import { tax, discounted } from '../src/invoice.js';
import { convert } from '../src/convert.js';
import { north } from '../src/near.js';

test('tax', () => {
  getTaxRate.mockReturnValue(0.2);
  expect(tax(100, 'UK')).toBe(20);
  getTaxRate.mockImplementation(() => { throw new RangeError('no'); });
  expect(() => tax(100, 'DE')).toThrow(RangeError);
});
test('discounted', () => {
  getDiscount.mockReturnValue(0.25);
  expect(discounted(100, 'ada')).toBe(75);
});
test('convert', () => {
  getRate.mockReturnValue(9000);
  expect(convert(1000, 'USD', 'EUR')).toBe(900);
  expect(convert(1, 'USD', 'EUR')).toBe(1);
});
test('north', () => {
  lookup.mockImplementation((code) => ({ lat: code === 'oslo' ? 60 : 48 }));
  expect(north('oslo', 'paris')).toBe(true);
  expect(north('paris', 'oslo')).toBe(false);
});
`,
};

let artefact: Promise<MutationArtefact> | undefined;

function measure(t: import('ava').ExecutionContext): Promise<MutationArtefact> {
  artefact ??= measuredJs(t, BASE, PATCH, 'node_modules/.bin/vitest run', { linkModules: true });
  return artefact;
}

test('vitest: a mock answering a fraction where the real module answers whole percents is named', async (t) => {
  t.timeout(300_000);
  const m = await measure(t);
  t.is(m.footprint?.status, 'measured', JSON.stringify(m.footprint));
  const f = footprintOf(m, 'tax');
  t.deepEqual(
    f.findings.map((x) => [x.kind, x.call]),
    [['mock_contradicted', "getTaxRate('UK')"]],
    JSON.stringify(f),
  );
  t.regex(f.findings[0]!.detail, /a float where the real one answers an int \(real: value 20\)/);
});

test('vitest: a mock record with a key the real one never has is named', async (t) => {
  t.timeout(300_000);
  const f = footprintOf(await measure(t), 'north');
  t.deepEqual(
    f.findings.map((x) => x.kind),
    ['mock_contradicted', 'mock_contradicted'],
    JSON.stringify(f),
  );
  t.regex(f.findings[0]!.detail, /"lat", which the real one's \{latitude, longitude\} lacks/);
});

test('vitest: a mock of a module namespace that chose other values of the same kind is no finding', async (t) => {
  t.timeout(300_000);
  const f = footprintOf(await measure(t), 'convert');
  t.true(f.measured, JSON.stringify(f));
  t.deepEqual(f.findings, [], JSON.stringify(f));
});

test('vitest: a mock answering a share where the real one answers 0 is no finding (0 claims no integer)', async (t) => {
  t.timeout(300_000);
  const f = footprintOf(await measure(t), 'discounted');
  t.true(f.measured, JSON.stringify(f));
  t.deepEqual(f.findings, [], JSON.stringify(f));
});
