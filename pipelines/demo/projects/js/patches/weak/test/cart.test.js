import assert from 'node:assert/strict';
import { test } from 'node:test';
import { add, discount, total } from '../src/cart.js';

test('add sums two numbers', () => {
  assert.equal(add(2, 3), 5);
});

test('total sums a cart', () => {
  assert.equal(total([1, 2, 3]), 6);
});

test('discount returns a number', () => {
  assert.equal(typeof discount(150), 'number');
  assert.equal(typeof discount(50), 'number');
});
