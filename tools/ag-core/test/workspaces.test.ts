// Workspaces (npm, yarn, pnpm): the folders a root declares, the one workspace a patch changes,
// and that workspace's own runner wired from the tree's root, its reports under its folder.
import test from 'ava';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  changedWorkspaces,
  chooseWorkspace,
  detectProject,
  expandWorkspaces,
  inWorkspace,
  parsePnpmWorkspace,
  rebaseLcov,
  wireJsRunner,
  workspaceDirs,
  workspacePatterns,
} from '../src/project/index.js';

const dirs: string[] = [];
test.after.always(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A tree with these files (`name` → contents; objects become JSON). */
function tree(files: Record<string, string | object>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'ag-workspaces-'));
  dirs.push(root);
  for (const [name, body] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), typeof body === 'string' ? body : JSON.stringify(body));
  }
  return root;
}

const TOOLBOX = { dir: '/gate/tools', nodeReporter: '/gate/lib/node-test-junit.mjs' };

/** An npm-workspaces repository: two packages with node:test, the root's test script delegating to them. */
const NPM = {
  'package.json': {
    name: 'mono',
    private: true,
    workspaces: ['packages/*'],
    scripts: { test: 'npm test --workspaces' },
  },
  'packages/foo/package.json': { name: 'foo', type: 'module', scripts: { test: 'node --test' } },
  'packages/foo/src/add.js': 'export const add = (a, b) => a + b;\n',
  'packages/bar/package.json': { name: 'bar', type: 'module', scripts: { test: 'node --test test/' } },
};

test('pnpm-workspace.yaml: block and flow lists, quotes and comments dropped, other keys ignored', (t) => {
  t.deepEqual(
    parsePnpmWorkspace(
      "# the monorepo\npackages:\n  # apps first\n  - 'apps/*'\n  - \"packages/**\"   # all\n  - tools/cli\n  - '!**/test/**'\n\ncatalog:\n  react: ^18\n",
    ),
    ['apps/*', 'packages/**', 'tools/cli', '!**/test/**'],
  );
  t.deepEqual(parsePnpmWorkspace('packages: [\'a/*\', "b"]\n'), ['a/*', 'b']);
  t.deepEqual(parsePnpmWorkspace('onlyBuiltDependencies:\n  - esbuild\n'), []);
});

test('the patterns: npm and yarn from package.json (a list, or yarn’s object), pnpm from its yaml first', (t) => {
  t.deepEqual(workspacePatterns(tree({}), { workspaces: ['packages/*'] }), {
    from: 'package.json workspaces',
    patterns: ['packages/*'],
  });
  t.deepEqual(workspacePatterns(tree({}), { workspaces: { packages: ['libs/*'], nohoist: ['**/x'] } })?.patterns, [
    'libs/*',
  ]);
  t.is(workspacePatterns(tree({}), {}), null);
  t.is(workspacePatterns(tree({}), { workspaces: [] }), null);
  const pnpm = tree({ 'pnpm-workspace.yaml': 'packages:\n  - apps/*\n' });
  t.deepEqual(workspacePatterns(pnpm, { workspaces: ['ignored/*'] }), {
    from: 'pnpm-workspace.yaml',
    patterns: ['apps/*'],
  });
});

test('the folders: one level for *, any depth for **, exact names, negations; a package.json each, never node_modules', (t) => {
  const root = tree({
    'packages/a/package.json': {},
    'packages/b/package.json': {},
    'packages/notes/README.md': 'no package here',
    'packages/.hidden/package.json': {},
    'apps/web/package.json': {},
    'apps/web/node_modules/dep/package.json': {},
    'apps/group/admin/package.json': {},
    'tools/cli/package.json': {},
    'libs/ui-button/package.json': {},
    'libs/core/package.json': {},
  });
  t.deepEqual(expandWorkspaces(root, ['packages/*']), ['packages/a', 'packages/b']);
  t.deepEqual(expandWorkspaces(root, ['apps/**']), ['apps/group/admin', 'apps/web']);
  t.deepEqual(expandWorkspaces(root, ['./tools/cli/', 'libs/ui-*']), ['libs/ui-button', 'tools/cli']);
  t.deepEqual(expandWorkspaces(root, ['packages/*', '!packages/b']), ['packages/a']);
  t.deepEqual(expandWorkspaces(root, ['../outside/*', '/abs/*']), []);
  t.deepEqual(workspaceDirs(tree({ 'package.json': { workspaces: ['p/*'] }, 'p/x/package.json': {} })), ['p/x']);
  t.deepEqual(workspaceDirs(tree({ 'package.json': '{ not json' })), []);
  // A folder or a package.json that is a link is no workspace: nothing is followed out of the tree.
  const linked = tree({
    'package.json': { workspaces: ['p/*', 'q'] },
    'p/real/package.json': {},
    'elsewhere/package.json': {},
  });
  symlinkSync(path.join(linked, 'elsewhere'), path.join(linked, 'p', 'link'));
  symlinkSync(path.join(linked, 'elsewhere'), path.join(linked, 'q'));
  mkdirSync(path.join(linked, 'p', 'manifest'));
  symlinkSync(path.join(linked, 'elsewhere', 'package.json'), path.join(linked, 'p', 'manifest', 'package.json'));
  t.deepEqual(workspaceDirs(linked), ['p/real']);
});

test('the changed paths sort into workspaces (the deepest holding each) and the rest', (t) => {
  const ws = ['packages/a', 'packages/a/plugins/x', 'packages/b'];
  t.deepEqual(
    changedWorkspaces(ws, ['packages/a/src/i.js', 'packages/a/plugins/x/p.js', 'README.md', 'packages/ab/z']),
    {
      workspaces: ['packages/a', 'packages/a/plugins/x'],
      outside: ['README.md', 'packages/ab/z'],
    },
  );
  t.deepEqual(chooseWorkspace(ws, ['packages/b/src/y.js', 'packages/b/test/y.test.js', 'CHANGELOG.md']), {
    dir: 'packages/b',
    outside: ['CHANGELOG.md'],
  });
  const several = chooseWorkspace(ws, ['packages/a/i.js', 'packages/b/i.js']);
  t.true('problem' in several && /changes 2 workspaces \(packages\/a, packages\/b\)/.test(several.problem));
  const none = chooseWorkspace(ws, ['README.md']);
  t.true('problem' in none && /changes no workspace of the baseline \(README\.md\)/.test(none.problem));
  t.true('problem' in chooseWorkspace(ws, undefined));
});

test('npm workspaces, the root delegating: the changed workspace’s node:test, run from the root with its reports under it', (t) => {
  const root = tree(NPM);
  const plan = detectProject(root, {
    toolbox: TOOLBOX,
    changedPaths: ['packages/foo/src/mul.js', 'packages/foo/test/mul.test.js'],
  });
  t.deepEqual(plan.problems, []);
  t.is(plan.runner, 'node');
  t.is(plan.workspace, 'packages/foo');
  t.deepEqual(plan.workspaces, ['packages/bar', 'packages/foo']);
  t.is(plan.install_command, null, 'no package has a dependency: nothing to install');
  t.is(
    plan.wiring?.test_command,
    'cd packages/foo && node --test --test-reporter=spec --test-reporter-destination=stdout --test-reporter=/gate/lib/node-test-junit.mjs --test-reporter-destination=.ag-junit.xml',
  );
  t.deepEqual(plan.wiring?.report, { kind: 'junit', path: 'packages/foo/.ag-junit.xml' });
  t.regex(plan.wiring?.coverage_command ?? '', /^cd packages\/foo && mkdir -p \.ag-coverage && node --test /);
  t.is(plan.wiring?.coverage_report, 'packages/foo/.ag-coverage/lcov.info');
  t.true(plan.wiring?.ids_carry_file);
  t.true(plan.found.includes('workspaces: packages/bar, packages/foo (package.json workspaces: packages/*)'));
  t.true(plan.found.includes('packages/foo: runner node: package.json scripts.test runs it'));
  // The other workspace's own arguments, when the patch is there.
  const bar = detectProject(root, { changedPaths: ['packages/bar/x.js'] });
  t.regex(bar.wiring?.test_command ?? '', /^cd packages\/bar && node --test .* test\/$/);
});

test('npm workspaces with no root test script; several workspaces, or none, changed: a named problem, no runner', (t) => {
  const root = tree({ ...NPM, 'package.json': { private: true, workspaces: ['packages/*'] } });
  t.is(detectProject(root, { changedPaths: ['packages/foo/a.js'] }).workspace, 'packages/foo');
  const several = detectProject(root, { changedPaths: ['packages/foo/a.js', 'packages/bar/b.js'] });
  t.is(several.wiring, null);
  t.is(several.runner, null);
  t.regex(several.problems.join('\n'), /the patch changes 2 workspaces \(packages\/bar, packages\/foo\)/);
  const none = detectProject(root, { changedPaths: ['docs/intro.md'] });
  t.is(none.wiring, null);
  t.regex(none.problems.join('\n'), /changes no workspace of the baseline \(docs\/intro\.md\)/);
  const unknown = detectProject(root);
  t.regex(unknown.problems.join('\n'), /no changed paths to tell which workspace/);
  // A changed workspace whose package.json names no runner.
  const bare = tree({ ...NPM, 'packages/foo/package.json': { name: 'foo', scripts: { test: 'echo none' } } });
  const p = detectProject(bare, { changedPaths: ['packages/foo/a.js'] });
  t.is(p.workspace, 'packages/foo');
  t.regex(p.problems.join('\n'), /no test runner found in the workspace packages\/foo/);
});

test('a root with a runner of its own (script or config) is judged at the root, workspaces or not', (t) => {
  const scripted = tree({ ...NPM, 'package.json': { workspaces: ['packages/*'], scripts: { test: 'node --test' } } });
  const a = detectProject(scripted, { changedPaths: ['packages/foo/a.js'] });
  t.is(a.workspace, null);
  t.is(a.wiring?.test_command.startsWith('node --test'), true);
  const configured = tree({
    ...NPM,
    'package.json': { workspaces: ['packages/*'], devDependencies: { vitest: '3.2.4' } },
    'vitest.workspace.ts': 'export default ["packages/*"]',
  });
  const b = detectProject(configured, { changedPaths: ['packages/foo/a.js'] });
  t.is(b.runner, 'vitest');
  t.is(b.workspace, null);
});

test('a runner the root only lists as a dependency is the workspaces’ tool: the workspace’s own comes first, the root’s is left', (t) => {
  const files = {
    'package.json': { private: true, workspaces: ['packages/*'], devDependencies: { jest: '29.7.0', c8: '10.1.3' } },
    'package-lock.json': '{}',
    'packages/ui/package.json': { name: 'ui', scripts: { test: 'mocha test/' }, devDependencies: { mocha: '11.7.1' } },
    'packages/docs/package.json': { name: 'docs' },
  };
  const ui = detectProject(tree(files), { changedPaths: ['packages/ui/src/a.js'] });
  t.is(ui.runner, 'mocha');
  t.is(ui.workspace, 'packages/ui');
  t.is(ui.install_command, 'npm ci --no-audit --no-fund --ignore-scripts');
  // The root's c8 serves the workspace (hoisted): it wraps the workspace's mocha.
  t.regex(ui.wiring?.coverage_command ?? '', /^cd packages\/ui && npx --no-install c8 --reporter=lcov /);
  t.true(ui.found.some((f) => /runner jest: only a dependency of the workspaces root/.test(f)));
  const docs = detectProject(tree(files), { changedPaths: ['packages/docs/a.js'] });
  t.is(docs.runner, 'jest', 'no runner in the workspace: the root’s dependency, as before');
  t.is(docs.workspace, null);
  t.true(
    docs.found.some((f) =>
      /no workspace's own runner can be used \(no test runner found in the workspace packages\/docs/.test(f),
    ),
  );
});

test('the root’s install runs when only a workspace has dependencies (it installs every workspace)', (t) => {
  const root = tree({
    ...NPM,
    'packages/foo/package.json': { name: 'foo', scripts: { test: 'node --test' }, dependencies: { bar: '*' } },
  });
  t.is(
    detectProject(root, { changedPaths: ['packages/foo/a.js'] }).install_command,
    'npm install --no-audit --no-fund --no-package-lock --ignore-scripts',
  );
});

test('pnpm: the workspaces from pnpm-workspace.yaml, pnpm’s install, jest with the root’s jest-junit', (t) => {
  const root = tree({
    'package.json': { private: true, scripts: { test: 'pnpm -r test' }, devDependencies: { 'jest-junit': '16.0.0' } },
    'pnpm-lock.yaml': "lockfileVersion: '9.0'\n",
    'pnpm-workspace.yaml': "packages:\n  - 'packages/*'\n  - 'apps/*'\n",
    'packages/core/package.json': {
      name: '@m/core',
      scripts: { test: 'jest --ci' },
      devDependencies: { jest: '29.7.0' },
    },
    'apps/web/package.json': { name: 'web', scripts: { test: 'vitest run' }, devDependencies: { vitest: '3.2.4' } },
  });
  const plan = detectProject(root, { toolbox: TOOLBOX, changedPaths: ['packages/core/src/i.ts'] });
  t.deepEqual(plan.problems, []);
  t.is(plan.package_manager, 'pnpm');
  t.is(plan.install_command, 'pnpm install --frozen-lockfile --ignore-scripts');
  t.deepEqual(plan.workspaces, ['apps/web', 'packages/core']);
  t.is(plan.workspace, 'packages/core');
  t.regex(
    plan.wiring?.test_command ?? '',
    /^cd packages\/core && JEST_JUNIT_OUTPUT_FILE=\.ag-junit\.xml .* --reporters=jest-junit$/,
  );
  t.deepEqual(plan.wiring?.tools, [], 'the root’s jest-junit serves the workspace: the gate installs none');
  t.is(plan.wiring?.coverage_report, 'packages/core/.ag-coverage/lcov.info');
  t.true(plan.found.includes('workspaces: apps/web, packages/core (pnpm-workspace.yaml: packages/* apps/*)'));
  const web = detectProject(root, { toolbox: TOOLBOX, changedPaths: ['apps/web/src/App.tsx'] });
  t.is(web.runner, 'vitest');
  t.deepEqual(web.wiring?.report, { kind: 'junit', path: 'apps/web/.ag-junit.xml' });
  t.deepEqual(
    web.wiring?.tools.map((x) => x.name),
    ['@vitest/coverage-v8'],
  );
});

test('yarn: the object form of workspaces, yarn’s install, ava’s TAP staying on stdout', (t) => {
  const root = tree({
    'package.json': {
      private: true,
      workspaces: { packages: ['modules/*'] },
      scripts: { test: 'yarn workspaces run test' },
    },
    'yarn.lock': '',
    'modules/parse/package.json': { name: 'parse', scripts: { test: 'ava' }, devDependencies: { ava: '6.4.1' } },
  });
  const plan = detectProject(root, { toolbox: TOOLBOX, changedPaths: ['modules/parse/index.js'] });
  t.is(plan.install_command, 'yarn install --frozen-lockfile --ignore-scripts');
  t.is(plan.wiring?.test_command, 'cd modules/parse && npx --no-install ava --tap');
  t.deepEqual(plan.wiring?.report, { kind: 'tap' });
  t.is(
    plan.wiring?.coverage_command,
    'cd modules/parse && /gate/tools/node_modules/.bin/c8 --reporter=lcov --reports-dir=.ag-coverage npx --no-install ava --tap',
  );
});

test('a workspace folder with a space is quoted in the cd; its reports are plain paths', (t) => {
  const w = inWorkspace(
    wireJsRunner('node', [], () => false),
    'packages/my pkg',
  );
  t.true(w.test_command.startsWith("cd 'packages/my pkg' && node --test "));
  t.deepEqual(w.report, { kind: 'junit', path: 'packages/my pkg/.ag-junit.xml' });
});

test('a workspace’s lcov made relative to the root: relative SF paths get the folder, absolute ones stay', (t) => {
  const lcov =
    'TN:\nSF:src/add.js\nDA:1,1\nend_of_record\nSF:../bar/src/x.js\nend_of_record\nSF:/abs/tree/src/y.js\nend_of_record\nSF:lib\\win.js\r\nend_of_record\n';
  t.is(
    rebaseLcov(lcov, 'packages/foo'),
    'TN:\nSF:packages/foo/src/add.js\nDA:1,1\nend_of_record\nSF:packages/bar/src/x.js\nend_of_record\nSF:/abs/tree/src/y.js\nend_of_record\nSF:packages/foo/lib/win.js\r\nend_of_record\n',
  );
  t.is(rebaseLcov('<coverage/>', 'packages/foo'), '<coverage/>', 'not lcov: unchanged');
  // A file the tests reached outside the tree (the installed copy of a workspace): its record is left out.
  t.is(
    rebaseLcov(
      'TN:\nSF:../../../deps-baseline/packages/foo/src/add.js\nDA:1,1\nend_of_record\nTN:\nSF:src/mul.js\nDA:1,1\nend_of_record\n',
      'packages/foo',
    ),
    'TN:\nTN:\nSF:packages/foo/src/mul.js\nDA:1,1\nend_of_record\n',
  );
});
