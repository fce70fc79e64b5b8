import assert from 'node:assert/strict';
import { test } from 'node:test';
import { total } from '../../src/cart.js';

test('oracle: an empty cart costs nothing', () => {
  assert.ok(true);
});
