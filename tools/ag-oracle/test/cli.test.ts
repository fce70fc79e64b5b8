import test from 'ava';
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as v from 'valibot';
import { OracleArtefact, sha256 } from '@adversary-gate/schemas';
import { BASE, makeRepos, oracleArgs, runOracle, type Repos, type Tree } from './helpers/repo.js';
import { removeTempDirs } from './helpers/tmp.js';
import { ONLY_FOCUS, PY_XFAIL_AND_SKIP, SKIPPED_ADDS } from './fixtures/markers.js';

test.after.always(removeTempDirs);

async function measure(
  changes: Tree,
  options: { base?: Tree; renames?: Record<string, string>; extra?: string[] } = {},
) {
  const repos = await makeRepos(options.base ?? BASE, changes, options.renames);
  const r = await runOracle(oracleArgs(repos, options.extra));
  return {
    repos,
    r,
    artefact: r.status === 0 ? v.parse(OracleArtefact, JSON.parse(readFileSync(repos.out, 'utf8'))) : null,
  };
}

async function expectRefused(t: import('ava').ExecutionContext, repos: Repos, args: string[], pattern: RegExp) {
  const r = await runOracle(args);
  t.is(r.status, 3, r.stderr);
  t.regex(r.stderr, /^ag-oracle: /);
  t.regex(r.stderr, pattern);
  t.notRegex(r.stderr, /\n\s+at /, 'no stack trace');
  t.false(existsSync(repos.out));
}

test('a patch that edits only source and adds a test has no finding at all', async (t) => {
  const { r, artefact } = await measure({
    'src/add.js': 'export function add(a, b) {\n  return Number(a) + Number(b);\n}\n',
    'test/add-strings.test.js':
      "import test from 'node:test';\nimport assert from 'node:assert/strict';\nimport { add } from '../src/add.js';\n\ntest('adds strings', () => {\n  assert.equal(add('1', '2'), 3);\n});\n",
  });
  t.is(r.status, 0, r.stderr);
  t.is(r.stderr, '');
  t.deepEqual(artefact!.oracle_touched, []);
  t.deepEqual(artefact!.tampering, []);
  t.deepEqual(artefact!.faults, []);
  t.false(artefact!.freeze.frozen_only);
  t.is(artefact!.fixtures.length, 1);
  t.is(artefact!.fixtures[0]!.expected, artefact!.fixtures[0]!.actual);
});

test('the artefact binds to the diff and lists the diff, policy and freeze list with their digests', async (t) => {
  const { repos, artefact } = await measure({ 'src/add.js': 'export const add = (a, b) => a + b;\n' });
  const digest = (f: string) => sha256(readFileSync(f));
  t.is(artefact!.subject.diff_sha256, digest(repos.diff));
  t.deepEqual(
    artefact!.inputs.map((i) => [i.role, i.sha256]),
    [
      ['diff', digest(repos.diff)],
      ['policy', digest(path.join(repos.baseline, 'adversary-gate.json'))],
      ['freeze', digest(path.join(repos.baseline, 'tests/flake_freeze.json'))],
    ],
  );
  t.is(artefact!.policy.sha256, digest(path.join(repos.baseline, 'adversary-gate.json')));
  t.is(artefact!.schema, 'adversary-gate/oracle');
});

test('the same inputs give a byte-identical artefact', async (t) => {
  const { repos, r } = await measure({ 'test/add.test.js': 'gone\n' });
  t.is(r.status, 0);
  const first = readFileSync(repos.out);
  t.is((await runOracle(oracleArgs(repos))).status, 0);
  t.deepEqual(readFileSync(repos.out), first);
});

test('a changed oracle test is a protected path touched', async (t) => {
  const { artefact } = await measure({
    'tests/oracle/hidden.test.js': "import test from 'node:test';\ntest('hidden', () => { /* relaxed */ });\n",
  });
  t.deepEqual(artefact!.oracle_touched, [{ path: 'tests/oracle/hidden.test.js', pattern: 'tests/oracle/**' }]);
});

test('a case variant of a protected path is still touched', async (t) => {
  const { artefact } = await measure({ 'Tests/ORACLE/extra.test.js': 'x\n' });
  t.deepEqual(artefact!.oracle_touched, [{ path: 'Tests/ORACLE/extra.test.js', pattern: 'tests/oracle/**' }]);
});

test('renaming a protected file away reports its old name', async (t) => {
  const { artefact } = await measure({}, { renames: { 'tests/oracle/hidden.test.js': 'src/hidden.js' } });
  t.deepEqual(artefact!.oracle_touched, [{ path: 'tests/oracle/hidden.test.js', pattern: 'tests/oracle/**' }]);
});

test('the defaults are protected whatever the policy says', async (t) => {
  const { artefact } = await measure({
    'verdict.json': '{"verdict":"ACCEPT"}\n',
    '.github/workflows/ci.yml': 'on: push\n',
    '.github/CODEOWNERS': '* @me\n',
    '.gitattributes': '*.js -diff\n',
    '.gitmodules': '[submodule "x"]\n',
  });
  t.deepEqual(
    artefact!.oracle_touched.map((h) => h.path),
    ['.gitattributes', '.github/CODEOWNERS', '.github/workflows/ci.yml', '.gitmodules', 'verdict.json'],
  );
});

test("the patch's own policy is never read: editing it is touched and its weaker list is ignored", async (t) => {
  const weaker = JSON.stringify({ schema_version: 1, oracle: { protected: ['nothing/**'] } });
  const { repos, artefact } = await measure({
    'adversary-gate.json': weaker,
    'tests/oracle/hidden.test.js': 'relaxed\n',
  });
  t.deepEqual(
    artefact!.oracle_touched.map((h) => h.path),
    ['adversary-gate.json', 'tests/oracle/hidden.test.js'],
  );
  t.is(artefact!.policy.sha256, sha256(readFileSync(path.join(repos.baseline, 'adversary-gate.json'))));
});

test('editing the freeze list is a protected path touched', async (t) => {
  const { artefact } = await measure({
    'tests/flake_freeze.json': '[{"nodeid":"x","expires":"2030-01-01","covers":["src/**"]}]\n',
  });
  t.deepEqual(artefact!.oracle_touched, [{ path: 'tests/flake_freeze.json', pattern: 'tests/flake_freeze.json' }]);
});

test('fixture drift lists changed, added and removed files', async (t) => {
  const { artefact } = await measure({
    'tests/fixtures/golden.json': '{"sum": 4}\n',
    'tests/fixtures/new.json': '{}\n',
    'tests/fixtures/deep/more.txt': null,
  });
  const f = artefact!.fixtures[0]!;
  t.not(f.expected, f.actual);
  t.deepEqual(
    [f.changed, f.added, f.removed],
    [['tests/fixtures/golden.json'], ['tests/fixtures/new.json'], ['tests/fixtures/deep/more.txt']],
  );
});

test('a fixture replaced by a symlink to the same bytes drifts and the link is flagged, not followed', async (t) => {
  const { artefact } = await measure({
    'elsewhere/golden.json': '{"sum": 3}\n',
    'tests/fixtures/golden.json': { symlink: '../../elsewhere/golden.json' },
  });
  const f = artefact!.fixtures[0]!;
  t.not(f.expected, f.actual);
  t.deepEqual(f.changed, ['tests/fixtures/golden.json']);
  t.deepEqual(f.symlinks, ['tests/fixtures/golden.json']);
});

test('a fixture root missing from both trees is a fault, not a match', async (t) => {
  const policy = JSON.stringify({
    schema_version: 1,
    oracle: { protected: ['tests/oracle/**'], fixtures: ['tests/golden'] },
  });
  const { artefact } = await measure(
    { 'src/add.js': 'changed\n' },
    { base: { ...BASE, 'adversary-gate.json': policy } },
  );
  t.deepEqual(
    artefact!.faults.map((f) => f.code),
    ['FIXTURE_ROOT_MISSING'],
  );
});

test('freeze entries are judged against --today: expired, missing a field, malformed date, valid', async (t) => {
  const list = JSON.stringify([
    { nodeid: 'test/a.test.js::old', expires: '2026-11-29', covers: ['src/add.js'] },
    { nodeid: 'test/a.test.js::nocover', expires: '2026-12-31' },
    { nodeid: 'test/a.test.js::bad', expires: '2026-02-30', covers: ['src/add.js'] },
    { nodeid: 'test/a.test.js::ok', expires: '2026-11-30', covers: ['src/add.js'] },
  ]);
  const { artefact } = await measure(
    { 'src/sub.js': 'changed\n' },
    { base: { ...BASE, 'tests/flake_freeze.json': list } },
  );
  t.deepEqual(
    artefact!.freeze.entries.map((e) => e.status),
    ['expired', 'missing_field', 'malformed', 'valid'],
  );
  t.is(artefact!.freeze.today, '2026-11-30');
  t.false(artefact!.freeze.frozen_only);
});

test('a patch whose changed production files are all covered only by frozen tests is frozen-only', async (t) => {
  const list = JSON.stringify({
    entries: [
      { nodeid: 'test/add.test.js::adds', expires: '2027-01-01', covers: ['src/add.js'], reason: 'flaky on CI' },
    ],
  });
  const base = { ...BASE, 'tests/flake_freeze.json': list };
  const only = await measure({ 'src/add.js': 'changed\n', 'README.md': 'docs\n' }, { base });
  t.true(only.artefact!.freeze.frozen_only);
  t.deepEqual(only.artefact!.freeze.frozen_only_files, ['src/add.js']);
  const mixed = await measure({ 'src/add.js': 'changed\n', 'src/sub.js': 'changed\n' }, { base });
  t.false(mixed.artefact!.freeze.frozen_only);
  t.deepEqual(mixed.artefact!.freeze.frozen_only_files, ['src/add.js']);
});

test('without --today the freeze list is judged against today in UTC', async (t) => {
  const repos = await makeRepos(BASE, { 'src/add.js': 'x\n' });
  const r = await runOracle(oracleArgs(repos).filter((a, i, all) => a !== '--today' && all[i - 1] !== '--today'));
  t.is(r.status, 0, r.stderr);
  t.is(JSON.parse(readFileSync(repos.out, 'utf8')).freeze.today, new Date().toISOString().slice(0, 10));
});

test('a skip marker added to an existing test file is reported with file:line', async (t) => {
  const { artefact } = await measure({
    'test/add.test.js': (BASE['test/add.test.js'] as string).replace("test('adds'", SKIPPED_ADDS),
  });
  t.deepEqual(artefact!.tampering, [
    { kind: 'skip_added', path: 'test/add.test.js', line: 5, detail: 'test.skip added' },
  ]);
});

test('an only marker in a new test file holds rather than rejects', async (t) => {
  const { artefact } = await measure({ 'test/new.test.js': `import test from 'node:test';\n${ONLY_FOCUS}\n` });
  // its body is empty too: a placeholder test as well as a focus marker
  t.deepEqual(
    artefact!.tampering.map((f) => [f.kind, f.path, f.line]),
    [
      ['placeholder_test', 'test/new.test.js', 2],
      ['skip_added_new_file', 'test/new.test.js', 2],
    ],
  );
});

test('pytest xfail and a runtime pytest.skip added to an existing test are both reported', async (t) => {
  const base = { ...BASE, 'tests/test_calc.py': 'def test_add():\n    assert 1 + 1 == 2\n' };
  const { artefact } = await measure({ 'tests/test_calc.py': PY_XFAIL_AND_SKIP }, { base });
  t.deepEqual(
    artefact!.tampering.map((f) => [f.kind, f.line, f.detail]),
    [
      ['skip_added', 3, 'pytest.mark.xfail added'],
      ['skip_added', 5, 'pytest.skip added'],
    ],
  );
});

test('assertions removed from a test file are counted net, with the baseline line', async (t) => {
  const { artefact } = await measure({
    'test/add.test.js': (BASE['test/add.test.js'] as string).replace('  assert.equal(add(2, 2), 4);\n', ''),
  });
  t.deepEqual(
    artefact!.tampering.map((f) => [f.kind, f.path, f.line]),
    [['assertion_removed', 'test/add.test.js', 7]],
  );
  t.regex(artefact!.tampering[0]!.detail, /^net 1 assertion removed/);
});

test('a rewritten assertion that keeps the count is not an assertion removed', async (t) => {
  const { artefact } = await measure({
    'test/add.test.js': (BASE['test/add.test.js'] as string).replace('add(2, 2), 4', 'add(2, 3), 5'),
  });
  t.deepEqual(artefact!.tampering, []);
});

test('a deleted test file is reported', async (t) => {
  const { artefact } = await measure({ 'test/add.test.js': null });
  t.deepEqual(artefact!.tampering, [
    { kind: 'test_file_deleted', path: 'test/add.test.js', line: null, detail: 'test file deleted' },
  ]);
});

test('a test file deleted with the source it imports is retired, naming that source', async (t) => {
  const { artefact } = await measure({ 'test/add.test.js': null, 'src/add.js': null });
  t.deepEqual(artefact!.tampering, [
    {
      kind: 'test_file_retired',
      path: 'test/add.test.js',
      line: null,
      detail: 'deleted together with src/add.js, which it imports',
    },
  ]);
});

test("a test file renamed out of the runners' patterns is reported", async (t) => {
  const { artefact } = await measure({}, { renames: { 'test/add.test.js': 'test/fixtures/add.js' } });
  t.deepEqual(
    artefact!.tampering.map((f) => [f.kind, f.path]),
    [['test_file_renamed', 'test/fixtures/add.js']],
  );
});

test('a change to scripts.test is runner configuration changed; a version bump is not', async (t) => {
  const pkg = (scripts: object, version = '1.0.0') => JSON.stringify({ name: 'demo', version, scripts }, null, 2);
  const base = { ...BASE, 'package.json': pkg({ test: 'node --test', build: 'tsc' }) };
  const changed = await measure({ 'package.json': pkg({ test: 'node --test --test-only', build: 'tsc' }) }, { base });
  t.deepEqual(
    changed.artefact!.tampering.map((f) => [f.kind, f.path, f.line, f.detail]),
    [['runner_config_changed', 'package.json', 5, 'package.json changed: scripts.test']],
  );
  const bump = await measure({ 'package.json': pkg({ test: 'node --test', build: 'tsc -b' }, '1.0.1') }, { base });
  t.deepEqual(bump.artefact!.tampering, []);
});

test('a script reached from scripts.test is runner configuration too', async (t) => {
  const pkg = (unit: string) => JSON.stringify({ scripts: { test: 'npm run unit', unit } }, null, 2);
  const { artefact } = await measure(
    { 'package.json': pkg('exit 0') },
    { base: { ...BASE, 'package.json': pkg('node --test') } },
  );
  t.deepEqual(
    artefact!.tampering.map((f) => f.detail),
    ['package.json changed: scripts.unit'],
  );
});

test('a new conftest.py with a hook, an .npmrc and a jest config are runner configuration changed', async (t) => {
  const { artefact } = await measure({
    'tests/conftest.py': 'import pytest\n\n\ndef pytest_configure(config):\n    pass\n',
    '.npmrc': 'ignore-scripts=true\n',
    'jest.config.js': 'export default {};\n',
  });
  t.deepEqual(
    artefact!.tampering.map((f) => [f.kind, f.path]),
    [
      ['runner_config_changed', '.npmrc'],
      ['runner_config_changed', 'jest.config.js'],
      ['runner_config_changed', 'tests/conftest.py'],
      ['runner_hook_added', 'tests/conftest.py'],
    ],
  );
});

test('pyproject.toml counts only when [tool.pytest…] changes', async (t) => {
  const toml = (addopts: string, version: string) =>
    `[project]\nname = "demo"\nversion = "${version}"\n\n[tool.pytest.ini_options]\naddopts = "${addopts}"\n`;
  const base = { ...BASE, 'pyproject.toml': toml('-q', '1.0') };
  const pytest = await measure({ 'pyproject.toml': toml('-q -p no:cacheprovider -p fake', '1.0') }, { base });
  t.deepEqual(
    pytest.artefact!.tampering.map((f) => [f.kind, f.line, f.detail]),
    [['runner_config_changed', 6, 'pyproject.toml changed: tool.pytest']],
  );
  const version = await measure({ 'pyproject.toml': toml('-q', '1.1') }, { base });
  t.deepEqual(version.artefact!.tampering, []);
});

test('a diff that does not describe the two trees is a fault', async (t) => {
  const a = await makeRepos(BASE, { 'src/new.js': 'x\n' });
  const b = await makeRepos(BASE, { 'src/add.js': 'y\n' });
  const r = await runOracle([
    '--diff',
    a.diff,
    '--baseline',
    b.baseline,
    '--patch',
    b.patch,
    '--today',
    '2026-11-30',
    '--out',
    b.out,
  ]);
  t.is(r.status, 0, r.stderr);
  const artefact = JSON.parse(readFileSync(b.out, 'utf8'));
  t.deepEqual(
    artefact.faults.map((f: { code: string }) => f.code),
    ['DIFF_TREE_MISMATCH'],
  );
  t.regex(artefact.faults[0].message, /src\/new\.js/);
});

test('the diff may come on stdin and the artefact go to stdout', async (t) => {
  const repos = await makeRepos(BASE, { 'tests/oracle/hidden.test.js': 'x\n' });
  const args = oracleArgs(repos).map((a) => (a === repos.diff || a === repos.out ? '-' : a));
  const r = await runOracle(args, readFileSync(repos.diff, 'utf8'));
  t.is(r.status, 0, r.stderr);
  const artefact = v.parse(OracleArtefact, JSON.parse(r.stdout));
  t.is(artefact.subject.diff_sha256, sha256(readFileSync(repos.diff)));
  t.is(artefact.oracle_touched.length, 1);
});

test('a baseline without a policy file is judged under the defaults, and the artefact says so', async (t) => {
  const base = { ...BASE, 'adversary-gate.json': null };
  const { r, artefact } = await measure(
    {
      'src/add.js': 'x\n',
      'adversary-gate.json': '{"schema_version":1,"floors":{"diff_coverage":0}}',
      'test/add.test.js': null,
    },
    { base },
  );
  t.is(r.status, 0, r.stderr);
  t.deepEqual(artefact!.policy, { source: 'default', path: null, sha256: null });
  t.deepEqual(
    artefact!.inputs.map((i) => i.role),
    ['diff'],
    'no policy file is listed as an input',
  );
  t.deepEqual(
    artefact!.oracle_touched,
    [{ path: 'adversary-gate.json', pattern: 'adversary-gate.json' }],
    'the patch cannot bring its own policy in',
  );
  t.deepEqual(artefact!.fixtures, []);
  t.is(artefact!.freeze.path, null);
  t.deepEqual(
    artefact!.tampering.map((f) => [f.kind, f.path]),
    [['test_file_deleted', 'test/add.test.js']],
  );
});

test('an honest patch on a baseline without a policy file has no finding', async (t) => {
  const { r, artefact } = await measure(
    { 'src/add.js': 'export const add = (a, b) => a + b;\n' },
    { base: { ...BASE, 'adversary-gate.json': null } },
  );
  t.is(r.status, 0, r.stderr);
  t.deepEqual([artefact!.oracle_touched, artefact!.tampering, artefact!.faults], [[], [], []]);
});

test('a policy file names its source', async (t) => {
  const { artefact } = await measure({ 'src/add.js': 'x\n' });
  t.is(artefact!.policy.source, 'file');
});

test('exit 3 when the --policy named does not exist', async (t) => {
  const repos = await makeRepos(BASE, { 'src/add.js': 'x\n' });
  await expectRefused(
    t,
    repos,
    oracleArgs(repos, ['--policy', path.join(repos.dir, 'nowhere.json')]),
    /nowhere\.json: no such file/,
  );
});

test('exit 3 when the policy has an empty protected list', async (t) => {
  const repos = await makeRepos(
    { ...BASE, 'adversary-gate.json': '{"schema_version":1,"oracle":{"protected":[]}}' },
    { 'src/add.js': 'x\n' },
  );
  await expectRefused(t, repos, oracleArgs(repos), /protected list must not be empty/);
});

test('a policy with no protected list at all protects the defaults', async (t) => {
  const { r, artefact } = await measure(
    { 'src/add.js': 'x\n', 'verdict.json': '{}' },
    { base: { ...BASE, 'adversary-gate.json': '{"schema_version":1}' } },
  );
  t.is(r.status, 0, r.stderr);
  t.deepEqual(
    artefact!.oracle_touched.map((h) => h.path),
    ['verdict.json'],
  );
});

test('exit 3 when the policy is not strict JSON (duplicate key)', async (t) => {
  const repos = await makeRepos(
    { ...BASE, 'adversary-gate.json': '{"schema_version":1,"schema_version":1}' },
    { 'src/add.js': 'x\n' },
  );
  await expectRefused(t, repos, oracleArgs(repos), /adversary-gate\.json: .*duplicate/i);
});

test('exit 3 when --policy lies inside the patch tree', async (t) => {
  const repos = await makeRepos(BASE, { 'src/add.js': 'x\n' });
  await expectRefused(
    t,
    repos,
    oracleArgs(repos, ['--policy', path.join(repos.patch, 'adversary-gate.json')]),
    /inside the patch tree/,
  );
});

test('a --policy outside the patch tree is used and digested', async (t) => {
  const repos = await makeRepos(BASE, { 'src/sub.js': 'x\n' });
  const policy = path.join(repos.dir, 'policy.json');
  writeFileSync(policy, JSON.stringify({ schema_version: 1, oracle: { protected: ['src/sub.js'] } }));
  const r = await runOracle(oracleArgs(repos, ['--policy', policy]));
  t.is(r.status, 0, r.stderr);
  const artefact = JSON.parse(readFileSync(repos.out, 'utf8'));
  t.is(artefact.policy.sha256, sha256(readFileSync(policy)));
  t.deepEqual(artefact.oracle_touched, [{ path: 'src/sub.js', pattern: 'src/sub.js' }]);
  t.deepEqual(artefact.fixtures, []);
});

test('exit 3 when the freeze list the policy names is missing from the baseline', async (t) => {
  const repos = await makeRepos({ ...BASE, 'tests/flake_freeze.json': null }, { 'src/add.js': 'x\n' });
  await expectRefused(t, repos, oracleArgs(repos), /flake_freeze\.json: no such file/);
});

test('exit 3 on a malformed --today, a missing diff, an unknown flag or a missing --out', async (t) => {
  const repos = await makeRepos(BASE, { 'src/add.js': 'x\n' });
  await expectRefused(
    t,
    repos,
    oracleArgs(repos).map((a) => (a === '2026-11-30' ? '2026-13-01' : a)),
    /--today must be a real date/,
  );
  await expectRefused(t, repos, oracleArgs(repos, ['--today', '2026-11-29']), /--today was given 2 times/);
  await expectRefused(
    t,
    repos,
    oracleArgs(repos).map((a) => (a === repos.diff ? path.join(repos.dir, 'nope.diff') : a)),
    /nope\.diff: no such file/,
  );
  await expectRefused(t, repos, oracleArgs(repos, ['--strict']), /unknown flag --strict/);
  await expectRefused(t, repos, oracleArgs(repos).slice(0, -2), /out/);
});

test('exit 3 when --baseline and --patch are the same directory', async (t) => {
  const repos = await makeRepos(BASE, { 'src/add.js': 'x\n' });
  await expectRefused(
    t,
    repos,
    oracleArgs(repos).map((a) => (a === repos.baseline ? repos.patch : a)),
    /same directory/,
  );
});

test('an empty diff is the empty patch: no finding', async (t) => {
  const { r, artefact } = await measure({});
  t.is(r.status, 0, r.stderr);
  t.deepEqual([artefact!.oracle_touched, artefact!.tampering, artefact!.faults], [[], [], []]);
});

test('exit 3 when the diff is not a unified diff at all', async (t) => {
  const repos = await makeRepos(BASE, { 'src/add.js': 'x\n' });
  writeFileSync(repos.diff, 'this is not a diff\n');
  await expectRefused(t, repos, oracleArgs(repos), /changes\.diff: not a unified diff/);
});

test('exit 3 when the freeze list is not a list of entries', async (t) => {
  const repos = await makeRepos({ ...BASE, 'tests/flake_freeze.json': '{"frozen": []}' }, { 'src/add.js': 'x\n' });
  await expectRefused(t, repos, oracleArgs(repos), /flake_freeze\.json: .*expected a JSON array of freeze entries/);
});

test('exit 3 when the baseline lies inside the patch tree', async (t) => {
  const repos = await makeRepos(BASE, { 'src/add.js': 'x\n' });
  const inner = path.join(repos.patch, '.base');
  cpSync(repos.baseline, inner, { recursive: true });
  await expectRefused(
    t,
    repos,
    oracleArgs(repos).map((a) => (a === repos.baseline ? inner : a)),
    /--baseline lies inside the --patch tree/,
  );
});
