import assert from 'node:assert/strict';
import { test } from 'node:test';
import { discount } from '../src/cart.js';

test('discount takes 10% off from 100 up', () => {
  assert.equal(discount(100), 90);
  assert.equal(discount(200), 180);
});

test('discount leaves smaller amounts alone', () => {
  assert.equal(discount(99), 99);
  assert.equal(discount(0), 0);
});
