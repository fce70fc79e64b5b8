import assert from 'node:assert/strict';
import { test } from 'node:test';
import { add, discount, total } from '../src/cart.js';

test('add sums two numbers', () => {
  assert.equal(add(2, 3), 5);
});

test('total sums a cart', () => {
  assert.equal(total([1, 2, 3]), 6);
});

test('discount takes 10% off from 100 up', () => {
  assert.equal(discount(100), 90);
  assert.equal(discount(200), 180);
});

test('discount leaves smaller amounts alone', () => {
  assert.equal(discount(99), 99);
  assert.equal(discount(0), 0);
});
