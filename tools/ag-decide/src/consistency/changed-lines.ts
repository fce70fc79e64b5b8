/**
 * What ag-decide re-derives from the diff itself, to cross-check the evidence. Which changed
 * lines count, and the line-range helpers, are ag-core's (the rule ag-diffcov measures by).
 * @module
 */
export { sourceAddedLines } from '@adversary-gate/core';

/** Ratios are compared with a tolerance for float rounding. */
export function sameRatio(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-9;
}
