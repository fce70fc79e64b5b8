import test from 'ava';
import { symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sha256 } from '@adversary-gate/schemas';
import { prefetchLcov } from '../src/reports/lcov-prefetch.js';
import { createLcovScanner, lcovCandidate } from '../src/reports/lcov-scan.js';
import { tempDir } from './helpers/repo.js';

const TEXT = 'TN:\nSF:other/a.ts\nDA:1,1\nend_of_record\nSF:/ci/repo/src/a.ts\nDA:4,2\nend_of_record\n';

test('a worker thread scans the report as the scanner does, with the digest of the bytes it read', async (t) => {
  const file = path.join(tempDir(), 'cov.info');
  writeFileSync(file, TEXT);
  const prefetch = await prefetchLcov(file, null);
  prefetch.scan(new Set(['src/a.ts']));
  const got = await prefetch.result;
  const scanner = createLcovScanner(lcovCandidate(['src/a.ts'], null), 1 << 20);
  scanner.write(Buffer.from(TEXT));
  t.deepEqual(got?.scan, scanner.end());
  t.is(got?.sha256, sha256(Buffer.from(TEXT)));
  t.true(Buffer.isBuffer(got?.scan.records[1]?.bytes));
});

test('a missing file or a symbolic link gives no scan (the ordinary reader then reports it)', async (t) => {
  const dir = tempDir();
  const file = path.join(dir, 'cov.info');
  writeFileSync(file, TEXT);
  symlinkSync(file, path.join(dir, 'link.info'));
  for (const name of ['none.info', 'link.info']) {
    const prefetch = await prefetchLcov(path.join(dir, name), null);
    prefetch.scan(new Set(['src/a.ts']));
    t.is(await prefetch.result, null, name);
  }
});

test('a cancelled scan settles with no result', async (t) => {
  const file = path.join(tempDir(), 'cov.info');
  writeFileSync(file, TEXT);
  const p = await prefetchLcov(file, null);
  p.cancel();
  t.is(await p.result, null);
});
