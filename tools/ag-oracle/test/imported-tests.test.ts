import test from 'ava';
import { readFileSync } from 'node:fs';
import * as v from 'valibot';
import { OracleArtefact } from '@adversary-gate/schemas';
import { makeRepos, oracleArgs, runOracle, type Tree } from './helpers/repo.js';
import { SKIPPED_PICK } from './fixtures/markers.js';
import { removeTempDirs } from './helpers/tmp.js';

test.after.always(removeTempDirs);

async function judge(base: Tree, changes: Tree) {
  const repos = await makeRepos(base, changes);
  const r = await runOracle(oracleArgs(repos));
  if (r.status !== 0) throw new Error(r.stderr);
  return v.parse(OracleArtefact, JSON.parse(readFileSync(repos.out, 'utf8')));
}
const kinds = (a: OracleArtefact) => a.tampering.map((f) => `${f.kind} ${f.path}:${f.line}`);

const AB: Record<string, string> = {
  'package.json': '{"name":"ab","type":"module","scripts":{"test":"node --test"}}\n',
  'src/index.js': "import { pick } from './ab-test.js';\nexport const choose = (u) => pick(u);\n",
  'src/ab-test.js': "export const pick = (u) => (u.id % 2 === 0 ? 'a' : 'b');\n",
  'test/index.test.js':
    "import test from 'node:test';\nimport assert from 'node:assert/strict';\nimport { choose } from '../src/index.js';\n\ntest('even ids get a', () => {\n  assert.equal(choose({ id: 2 }), 'a');\n});\n",
};
const edited = AB['test/index.test.js']!.replace("choose({ id: 2 }), 'a'", "choose({ id: 2 }), 'b'");

test('src/ab-test.js imported by source is source: changing it with an expectation holds, and it is recorded', async (t) => {
  const a = await judge(AB, {
    'src/ab-test.js': "export const pick = (u) => (u.id % 2 === 0 ? 'b' : 'a');\n",
    'test/index.test.js': edited,
  });
  t.deepEqual(kinds(a), ['expectation_changed test/index.test.js:6']);
  t.deepEqual(a.imported_tests, [{ path: 'src/ab-test.js', imported_by: 'src/index.js' }]);
});

test('control: a test-named file no source imports stays a test; editing it and an expectation is a test-only change', async (t) => {
  const base = { ...AB, 'src/index.js': "export const choose = (u) => (u.id % 2 === 0 ? 'a' : 'b');\n" };
  const a = await judge(base, { 'src/ab-test.js': "export const pick = () => 'b';\n", 'test/index.test.js': edited });
  t.deepEqual(kinds(a), []);
  t.is(a.imported_tests, undefined);
});

test("deleting a test-named file the baseline's source imported loses no test; deleting a real test still does", async (t) => {
  const inlined = {
    'src/index.js': "export const choose = (u) => (u.id % 2 === 0 ? 'a' : 'b');\n",
    'src/ab-test.js': null,
  };
  t.deepEqual(kinds(await judge(AB, inlined)), []);
  t.deepEqual(kinds(await judge(AB, { ...inlined, 'test/index.test.js': null })), [
    'test_file_deleted test/index.test.js:null',
  ]);
});

test('an import the patch adds does not take a test out of the marker scan', async (t) => {
  const base = {
    ...AB,
    'test/pick.test.js':
      "import test from 'node:test';\nimport assert from 'node:assert/strict';\nimport { pick } from '../src/ab-test.js';\n\ntest('pick', () => {\n  assert.equal(pick({ id: 1 }), 'b');\n});\n",
  };
  const a = await judge(base, {
    'src/index.js': `import '../test/pick.test.js';\n${AB['src/index.js']!}`,
    'test/pick.test.js': base['test/pick.test.js']!.replace("test('pick'", SKIPPED_PICK),
  });
  t.true(kinds(a).includes('skip_added test/pick.test.js:5'));
});

test('nor out of the expectation scan: an import added by the patch does not make an edited expectation code', async (t) => {
  const base = {
    ...AB,
    'test/pick.test.js':
      "import test from 'node:test';\nimport assert from 'node:assert/strict';\nimport { pick } from '../src/ab-test.js';\n\ntest('pick', () => {\n  assert.equal(pick({ id: 1 }), 'b');\n});\n",
  };
  const a = await judge(base, {
    'src/index.js': `import '../test/pick.test.js';\n${AB['src/index.js']!}`,
    'src/ab-test.js': "export const pick = () => 'a';\n",
    'test/pick.test.js': base['test/pick.test.js']!.replace("pick({ id: 1 }), 'b'", "pick({ id: 1 }), 'a'"),
  });
  t.true(kinds(a).includes('expectation_changed test/pick.test.js:6'), kinds(a).join(', '));
});

test("a cases table that a script and the tests both import stays the tests' expectations (path-to-regexp's scripts/redos.ts)", async (t) => {
  const base: Record<string, string> = {
    'package.json': '{"name":"ptr","type":"module","scripts":{"test":"vitest"}}\n',
    'scripts/redos.ts': "import { CASES } from '../src/cases.spec.js';\nfor (const c of CASES) console.log(c.input);\n",
    'src/cases.spec.ts': 'export const CASES = [\n  {\n    input: "/:a",\n    expected: "/\\\\:a",\n  },\n];\n',
    'src/index.spec.ts':
      'import { it, expect } from "vitest";\nimport { CASES } from "./cases.spec.js";\nimport { escape } from "./index.js";\n\nit.each(CASES)("%s", ({ input, expected }) => {\n  expect(escape(input)).toEqual(expected);\n});\n',
    'src/index.ts': 'export const escape = (s: string) => s.replace(/:/g, "\\\\:");\n',
  };
  const a = await judge(base, {
    'src/index.ts': 'export const escape = (s: string) => s;\n',
    'src/cases.spec.ts': base['src/cases.spec.ts']!.replace('expected: "/\\\\:a"', 'expected: "/:a"'),
  });
  t.deepEqual(kinds(a), ['expectation_changed src/cases.spec.ts:4']);
  t.deepEqual(a.imported_tests, [{ path: 'src/cases.spec.ts', imported_by: 'scripts/redos.ts' }]);
});
