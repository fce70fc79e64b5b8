import test from 'ava';
import { readFileSync } from 'node:fs';
import type { MutationArtefact } from '@adversary-gate/schemas';
import { makeRepo, runBin } from './helpers/repo.js';

/**
 * Long type declarations first, then the covered fee(), then audit(), which no test calls:
 * tsx strips the types, so in the code V8 runs fee()'s offsets fall inside audit().
 */
const FEE_TS = `export interface Order {
  readonly total: number;
  readonly rush: boolean;
  readonly customer: { readonly id: string; readonly name: string; readonly tier: 'gold' | 'silver' | 'bronze' };
  readonly lines: ReadonlyArray<{ readonly sku: string; readonly quantity: number; readonly price: number }>;
}
export type Money = number;
export function fee(order: Order): Money {
  return order.total * 0.1;
}
export function audit(order: Order): string[] {
  const notes: string[] = [];
  for (const line of order.lines) {
    if (line.quantity > 100) notes.push('bulk ' + line.sku);
    if (line.price < 0) notes.push('negative ' + line.sku);
    if (line.price === 0) notes.push('free ' + line.sku);
  }
  if (order.customer.tier === 'gold') notes.push('gold customer');
  return notes;
}
`;

const FEE_TEST = `import test from 'node:test';
import assert from 'node:assert/strict';
import { fee } from '../src/fee.ts';
test('fee', () => { assert.equal(fee({ total: 100 } as never), 10); });
`;

test('TypeScript run through a loader (tsx): coverage of the transformed code never makes a covered line no_coverage; such mutants run', async (t) => {
  const repo = makeRepo(
    { 'package.json': '{"type":"module"}\n' },
    { 'src/fee.ts': FEE_TS, 'test/fee.test.ts': FEE_TEST },
    { linkModules: true },
  );
  t.teardown(repo.cleanup);
  const r = await runBin([
    '--diff',
    repo.diff,
    '--tree',
    repo.tree,
    '--test-command',
    'node --import tsx --test test/fee.test.ts',
    '--jobs',
    '2',
    '--max',
    '4',
    '--out',
    repo.file('m.json'),
  ]);
  t.is(r.code, 0, r.stderr);
  const m = JSON.parse(readFileSync(repo.file('m.json'), 'utf8')) as MutationArtefact;
  t.is(m.mutants.find((x) => x.line === 9 && x.replacement === '/')?.status, 'killed');
  t.is(m.counts.no_coverage, 0);
  t.is(m.counts.killed + m.counts.survived, 4);
});
