import test from 'ava';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT } from './kit.js';

const REPORTER = path.join(ROOT, 'tools', 'ag-gate', 'runtime', 'node-test-junit.mjs');
const FIXTURES = path.join(ROOT, 'test', 'runners', 'fixtures', 'node-reporter');

test('the gate’s node:test reporter names each case’s file and suite path; a file that cannot load is one entry', (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ag-node-reporter-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  // The test files the reporter runs on (fixtures: two files with an equal title, nested suites
  // with a failure, a skip, a todo and a failing hook, and a file that does not parse).
  cpSync(FIXTURES, path.join(dir, 'test'), { recursive: true });
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
