import test from 'ava';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PYTEST_PLUGIN_DIR } from '../src/package-files.js';

/** Import `mod.py` through the probing finder with `ranges`, call `script`, print what the probes recorded. */
function probe(source: string, ranges: [number, number][], script: string) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ag-mutate-probes-'));
  try {
    writeFileSync(path.join(dir, 'mod.py'), source);
    const driver = [
      'import json, os, sys',
      `sys.path[:0] = [${JSON.stringify(PYTEST_PLUGIN_DIR)}, ${JSON.stringify(dir)}]`,
      'from ag_mutate_probes import Finder',
      'seen = {}',
      'def hit(real, lines): seen.setdefault(os.path.basename(real), set()).update(lines)',
      `Finder({${JSON.stringify(path.join(dir, 'mod.py'))}: ${JSON.stringify(ranges)}}, hit).install()`,
      'import mod',
      script,
      'print(json.dumps({k: sorted(v) for k, v in seen.items()}))',
    ].join('\n');
    const r = spawnSync('python3', ['-c', driver], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(r.stderr);
    return JSON.parse(r.stdout.trim().split('\n').pop()!) as Record<string, number[]>;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const SOURCE = [
  'from __future__ import annotations', // 1
  '', // 2
  'def last(xs, default=None):', // 3
  '    """The last item."""', // 4
  '    if getattr(xs, "__reversed__", None):', // 5
  '        return next(reversed(xs))', // 6
  '    total = sum(', // 7
  '        x for x in xs', // 8
  '    )', // 9
  '    return total', // 10
  '', // 11
  'def never():', // 12
  '    return 1', // 13
  '',
].join('\n');

test('probes record the site lines a statement ran: a header, a line inside a multi-line statement; docstrings stay', (t) => {
  const seen = probe(
    SOURCE,
    [
      [5, 5],
      [8, 8],
      [13, 13],
    ],
    'assert mod.last.__doc__ == "The last item."\nmod.last(iter([1, 2]))',
  );
  // Line 5 (the if's header) and 8 (inside the sum over lines 7–9) ran; `never` did not.
  t.deepEqual(seen['mod.py'], [5, 8]);
});

test('probes: a site in code that never ran records nothing, and the file is still known to be probed', (t) => {
  const seen = probe(SOURCE, [[13, 13]], 'mod.last([1])');
  t.deepEqual(seen['mod.py'], []);
});
