import test from 'ava';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT } from './kit.js';

const REPORTER = path.join(ROOT, 'pipelines', 'lib', 'node-test-junit.mjs');

test('the gate’s node:test reporter names each case’s file and suite path; a file that cannot load is one entry', (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ag-node-reporter-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(path.join(dir, 'test'));
  const same = "import { describe, test } from 'node:test';\ndescribe('sum', () => { test('adds', () => {}); });\n";
  writeFileSync(path.join(dir, 'test', 'a.test.mjs'), same);
  writeFileSync(path.join(dir, 'test', 'b.test.mjs'), same);
  writeFileSync(
    path.join(dir, 'test', 'c.test.mjs'),
    [
      "import { before, describe, test } from 'node:test';",
      "import assert from 'node:assert';",
      "describe('outer', () => { describe('inner', () => { test('fails', () => assert.equal(1, 2));",
      "  test.skip('skipped', () => {}); test.todo('later'); }); });",
      "describe('hooked', () => { before(() => { throw new Error('hook <boom> & \"more\"'); }); test('never', () => {}); });",
      '',
    ].join('\n'),
  );
  writeFileSync(path.join(dir, 'test', 'd.test.mjs'), 'this is not ( javascript\n');
  const r = spawnSync('node', ['--test', `--test-reporter=${REPORTER}`, '--test-reporter-destination=out.xml'], {
    cwd: dir,
    encoding: 'utf8',
  });
  t.is(r.status, 1, r.stderr);
  const xml = readFileSync(path.join(dir, 'out.xml'), 'utf8');
  const cases = [
    ...xml.matchAll(/<testcase name="([^"]*)" classname="[^"]*"(?: file="([^"]*)")?[^>]*?(\/>|><(\w+))/g),
  ].map((m) => `${m[2] === undefined ? '-' : path.relative(dir, m[2])} :: ${m[1]} :: ${m[4] ?? 'passed'}`);
  t.deepEqual(
    cases.sort(),
    [
      '- :: ' + path.join(dir, 'test', 'd.test.mjs') + ' :: failure',
      'test/a.test.mjs :: sum &gt; adds :: passed',
      'test/b.test.mjs :: sum &gt; adds :: passed',
      'test/c.test.mjs :: hooked :: failure',
      'test/c.test.mjs :: hooked &gt; never :: failure',
      'test/c.test.mjs :: outer &gt; inner &gt; fails :: failure',
      'test/c.test.mjs :: outer &gt; inner &gt; later :: skipped',
      'test/c.test.mjs :: outer &gt; inner &gt; skipped :: skipped',
    ].sort(),
  );
  t.regex(
    xml,
    /^<\?xml version="1\.0" encoding="utf-8"\?>\n<testsuites name="node:test" tests="8" failures="4" errors="0" skipped="2">/,
  );
  t.regex(xml, /message="hook &lt;boom&gt; &amp; &quot;more&quot;"/);
});
