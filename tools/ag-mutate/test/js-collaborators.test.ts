// A changed function's collaborators (the project modules it calls into) read from syntax, and
// the shapes the recorder and the judge give JavaScript values (runtime/js-values.cjs).
import test from 'ava';
import { createRequire } from 'node:module';
import path from 'node:path';
import { collaboratorsOf, relativeBindings } from '../src/apart/js-collaborators.js';
import { readModule } from '../src/apart/js-functions.js';

const collaborators = (text: string, fn: string) => {
  const mod = readModule('m.js', text)!;
  return collaboratorsOf(mod.functions.get(fn)!.node, relativeBindings(mod.program)).map((c) => [
    c.name,
    c.source,
    c.path.join('.'),
  ]);
};

test('names bound from relative requires and imports, and the members read of them, are collaborators', (t) => {
  const cjs = `const { getTaxRate, round: r2 } = require('./rates');
const fx = require('../fx');
const pick = require('./util').pick;
const lodash = require('lodash');
function total(x) { return r2(x * getTaxRate('UK')) + fx.getRate(1) + pick(x) + lodash.sum([x]); }
`;
  t.deepEqual(collaborators(cjs, 'total'), [
    ['fx.getRate', '../fx', 'getRate'],
    ['getTaxRate', './rates', 'getTaxRate'],
    ['pick', './util', 'pick'],
    ['r2', './rates', 'round'],
  ]);
  const esm = `import rates, { get as g } from './rates.js';
import * as geo from './geo.js';
import type { T } from './types.js';
export const near = (a) => geo.lookup(a).lat + g(a) + rates.scale;
`;
  t.deepEqual(collaborators(esm, 'near'), [
    ['g', './rates.js', 'get'],
    ['geo.lookup', './geo.js', 'lookup'],
    ['rates.scale', './rates.js', 'default.scale'],
  ]);
});

test('a property or key that only shares the name is no use of the collaborator', (t) => {
  const text = `const { rate } = require('./rates');
function f(o) { return { rate: o.rate }; }
`;
  t.deepEqual(collaborators(text, 'f'), []);
});

const values = createRequire(import.meta.url)(path.resolve('runtime/js-values.cjs')) as {
  shape(v: unknown, depth?: number, real?: boolean): unknown;
};

test('shapes: integral numbers are ints, records keep their keys, promises and mocks make no claim', (t) => {
  t.deepEqual(values.shape(20), { t: 'int' });
  t.deepEqual(values.shape(0.2), { t: 'float' });
  t.deepEqual(values.shape(0), { t: 'int' });
  t.deepEqual(values.shape(0, 0, true), { t: 'float' }, "a real answer's 0 claims no integer");
  t.deepEqual(values.shape([1, 20], 0, true), { t: 'seq', items: [{ t: 'float' }, { t: 'int' }] });
  t.deepEqual(values.shape(undefined), { t: 'none' });
  t.deepEqual(values.shape({ lat: 1.5, tags: ['a'] }), {
    t: 'map',
    keys: { lat: { t: 'float' }, tags: { t: 'seq', items: [{ t: 'str' }] } },
    items: [],
  });
  t.deepEqual(values.shape(Promise.resolve(1)), { t: 'iter' });
  t.deepEqual(values.shape(new Date(0)), { t: 'object', type: 'Date' });
  const mock = Object.assign(() => 1, { _isMockFunction: true, mock: { calls: [] } });
  t.deepEqual(values.shape(mock), { t: 'mock' });
  const accessor = Object.defineProperty({}, 'x', { get: () => 1, enumerable: true });
  t.deepEqual(values.shape(accessor), { t: 'map', keys: { x: { t: 'iter' } }, items: [] });
});
