import assert from 'node:assert/strict';
import { test } from 'node:test';
import { discount } from '../src/cart.js';

test('discount returns a number', () => {
  assert.equal(typeof discount(150), 'number');
  assert.equal(typeof discount(50), 'number');
});
