import test from 'ava';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Site } from '../src/engines/site.js';
import { pythonSites } from '../src/engines/python.js';
import { nodeTestMap, pytestMap } from '../src/exec/test-map.js';
import { readV8Coverage } from '../src/exec/v8-coverage.js';

function scratch(t: { teardown(fn: () => void): void }) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ag-mutate-records-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const root = path.join(dir, 'tree');
  mkdirSync(path.join(root, 'src'), { recursive: true });
  return { dir, root };
}

const site = (over: Partial<Site>): Site => ({
  file: 'src/a.js',
  line: 1,
  column: 1,
  start: 15,
  end: 16,
  operator: 'op',
  rank: 1,
  original: 'a',
  replacement: 'b',
  parses: true,
  ...over,
});

const v8 = (url: string, count: unknown) => ({
  result: [{ url, functions: [{ ranges: [{ startOffset: 0, endOffset: 100, count }] }] }],
});

test('a V8 coverage file of another shape counts as missing: nothing is known from it', (t) => {
  const { dir, root } = scratch(t);
  const cov = path.join(dir, 'cov');
  mkdirSync(cov);
  const url = `file://${path.join(root, 'src', 'a.js')}`;
  writeFileSync(path.join(cov, 'coverage-1-1-0.json'), JSON.stringify(v8(url, 0)));
  t.is(readV8Coverage(cov, root, new Set(['src/a.js'])).get('src/a.js')?.length, 1);
  // The same file with a count V8 never writes, a file cut short, a file without `result`.
  writeFileSync(path.join(cov, 'coverage-1-1-0.json'), JSON.stringify(v8(url, 'many')));
  writeFileSync(path.join(cov, 'coverage-2-1-0.json'), '{"result": [');
  writeFileSync(path.join(cov, 'coverage-3-1-0.json'), '{"scripts": []}');
  t.is(readV8Coverage(cov, root, new Set(['src/a.js'])).size, 0);
});

test('a preload or plugin record of another shape is skipped as a missing one: the site is unknown, never uncovered', (t) => {
  const { dir, root } = scratch(t);
  const cover = path.join(dir, 'cover');
  const entries = path.join(dir, 'entries');
  mkdirSync(cover);
  mkdirSync(entries);
  const url = `file://${path.join(root, 'src', 'a.js')}`;
  writeFileSync(path.join(cover, 'coverage-11-1-0.json'), JSON.stringify(v8(url, 1)));
  const entry = (unit: unknown) =>
    writeFileSync(path.join(entries, '11.json'), JSON.stringify({ unit, root: true, ms: 5 }));
  entry(path.join(root, 'test', 'a.test.js'));
  const at = () => nodeTestMap({ v8: cover }, entries, root, new Set(['src/a.js'])).coverers(site({}));
  t.deepEqual(at(), { kind: 'tests', tests: [{ id: 'test/a.test.js', ms: 5 }] });
  entry(42);
  t.deepEqual(at(), { kind: 'unknown' });

  const trace = path.join(dir, 'trace');
  mkdirSync(trace);
  const file = path.join(root, 'src', 'm.py');
  writeFileSync(path.join(trace, '1.json'), JSON.stringify({ tests: { 't.py::a': { [file]: ['3'] } }, durations: {} }));
  t.deepEqual(pytestMap(trace, root).coverers(site({ file: 'src/m.py', line: 3, coverLines: [3, 3] })), {
    kind: 'unknown',
  });
});

test('a Python engine answer of another shape is an engine failure, as no answer is', async (t) => {
  const { dir } = scratch(t);
  const fake = path.join(dir, 'python3');
  writeFileSync(
    fake,
    `#!/bin/sh\ncat > /dev/null\necho '{"files": [{"path": "a.py", "error": null, "sites": [{"start": "0"}]}]}'\n`,
  );
  chmodSync(fake, 0o755);
  await t.throwsAsync(pythonSites(fake, [{ path: 'a.py', text: 'x = 1\n', lines: new Set([1]) }]), {
    message: /python engine .* wrote no JSON of the expected shape/,
  });
});
