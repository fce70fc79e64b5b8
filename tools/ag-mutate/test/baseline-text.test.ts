// The baseline text of a changed file, rebuilt from the patched text and the diff's hunks
// reversed: what the footprint's baseline versions are compiled from.
import test from 'ava';
import { parseUnifiedDiff } from '@adversary-gate/core';
import { baselineText } from '../src/exec/baseline-text.js';
import { makeRepo } from './helpers/repo.js';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const OLD = 'a = 1\n\n\ndef f(x):\n    return x\n\n\ndef g(y):\n    y += 1\n    return y\n';
const NEW =
  'import sys\na = 1\n\n\ndef f(x):\n    if x == 100:\n        return 3\n    return x\n\n\ndef g(y):\n    return y\n';

test('the hunks reversed give the baseline back: lines added, removed and replaced', (t) => {
  const repo = makeRepo({ 'm.py': OLD }, { 'm.py': NEW });
  t.teardown(repo.cleanup);
  const file = parseUnifiedDiff(readFileSync(repo.diff, 'utf8')).files[0]!;
  t.is(baselineText(readFileSync(path.join(repo.tree, 'm.py'), 'utf8'), file), OLD);
});

test('an added file has no baseline; a diff that does not fit the text gives none', (t) => {
  const repo = makeRepo({ 'keep.py': 'x = 1\n' }, { 'm.py': NEW });
  t.teardown(repo.cleanup);
  const file = parseUnifiedDiff(readFileSync(repo.diff, 'utf8')).files.find((f) => f.path === 'm.py')!;
  t.is(baselineText(NEW, file), null);
  const changed = makeRepo({ 'm.py': OLD }, { 'm.py': NEW });
  t.teardown(changed.cleanup);
  const modified = parseUnifiedDiff(readFileSync(changed.diff, 'utf8')).files[0]!;
  t.is(baselineText('only one line', modified), null);
});
