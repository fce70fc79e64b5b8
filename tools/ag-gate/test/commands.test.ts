// The commands of a run: what the baseline says, with every setting given over it; a test
// command given by hand brings its own reports, and the gate's own tools follow only the
// detected commands they wire.
import test from 'ava';
import type { ProjectPlan } from '@adversary-gate/core';
import { changedFile } from '../../ag-core/test/support/changed-file.js';
import { changedPaths, commandsFor } from '../src/commands.js';
import { readSettings } from '../src/settings.js';

const PLAN: ProjectPlan = {
  language: 'js',
  package_manager: 'npm',
  install_command: 'npm ci --ignore-scripts',
  runner: 'jest',
  wiring: {
    test_command: 'jest --ci',
    report: { kind: 'junit', path: '.ag-junit.xml' },
    coverage_command: 'jest --ci --coverage',
    coverage_report: '.ag-coverage/lcov.info',
    ids_carry_file: true,
    tools: [{ name: 'jest-junit', version: '16.0.0', purpose: 'per-test report', link: false }],
    sources: [],
    problems: [],
  },
  workspaces: [],
  workspace: null,
  found: ['runner jest: package.json devDependencies'],
  problems: [],
};

test('with no settings: everything as detected, the gate’s tools included, and the block says where from', (t) => {
  const c = commandsFor(PLAN, '/b', readSettings({}, {}));
  t.like(c, { test: 'jest --ci', fullSuite: 'jest --ci', coverage: 'jest --ci --coverage', junit: '.ag-junit.xml' });
  t.is(c.coverageReport, '.ag-coverage/lcov.info');
  t.is(c.install, 'npm ci --ignore-scripts');
  t.deepEqual(
    c.tools.map((x) => x.name),
    ['jest-junit'],
  );
  t.regex(c.block, /^adversary-gate detected in \/b:\n {2}runner jest: package\.json devDependencies\n/);
});

test('a detected yarn the install cannot find runs through corepack, and the block says so; a given install as it is', (t) => {
  const yarn: ProjectPlan = { ...PLAN, package_manager: 'yarn', install_command: 'yarn install --frozen-lockfile' };
  const onlyCorepack = (name: string) => name === 'corepack';
  const c = commandsFor(yarn, '/b', readSettings({}, {}), onlyCorepack);
  t.is(c.install, 'corepack yarn install --frozen-lockfile');
  t.regex(
    c.block,
    /\n {2}install: corepack yarn install --frozen-lockfile \(yarn is not on the PATH: corepack runs it\)\n/,
  );
  t.is(commandsFor(yarn, '/b', readSettings({}, {}), () => true).install, 'yarn install --frozen-lockfile');
  const given = commandsFor(yarn, '/b', readSettings({ 'install-command': 'yarn install' }, {}), onlyCorepack);
  t.is(given.install, 'yarn install', 'what the user gives runs as given');
});

test('a test command by hand: no detected coverage or report, no gate tools, the default report path', (t) => {
  const c = commandsFor(PLAN, '/b', readSettings({ 'test-command': 'npm test' }, {}));
  t.like(c, { test: 'npm test', coverage: '', junit: '', coverageReport: 'coverage/lcov.info' });
  t.deepEqual(c.tools, []);
  t.regex(c.block, /^adversary-gate settings over what was detected:\n {2}tests: npm test\n/);
});

test('the detected tests with no coverage (AG_COVERAGE_COMMAND empty) keep their report and tools', (t) => {
  const c = commandsFor(PLAN, '/b', readSettings({}, { AG_COVERAGE_COMMAND: '' }));
  t.like(c, { test: 'jest --ci', coverage: '', junit: '.ag-junit.xml' });
  t.deepEqual(
    c.tools.map((x) => x.name),
    ['jest-junit'],
  );
});

test('nothing detected: no test command, and the problems that say why', (t) => {
  const none: ProjectPlan = { ...PLAN, install_command: null, runner: null, wiring: null, problems: ['no runner'] };
  const c = commandsFor(none, '/b', readSettings({}, {}));
  t.like(c, { test: '', install: '', coverage: '' });
  t.deepEqual(c.problems, ['no runner']);
  t.regex(c.block, /problem: no runner/);
});

/** A workspace's node:test, run from the tree's root (as ag-core's detection wires it). */
const WORKSPACE: ProjectPlan = {
  ...PLAN,
  install_command: null,
  runner: 'node',
  workspaces: ['packages/a', 'packages/b'],
  workspace: 'packages/a',
  wiring: {
    test_command: 'cd packages/a && node --test',
    report: { kind: 'junit', path: 'packages/a/.ag-junit.xml' },
    coverage_command: 'cd packages/a && node --test --experimental-test-coverage',
    coverage_report: 'packages/a/.ag-coverage/lcov.info',
    ids_carry_file: true,
    tools: [],
    sources: [],
    problems: [],
  },
};

test('a workspace judged with its own runner: its commands, its reports under it, and its coverage rebased', (t) => {
  const c = commandsFor(WORKSPACE, '/b', readSettings({}, {}));
  t.like(c, {
    test: 'cd packages/a && node --test',
    junit: 'packages/a/.ag-junit.xml',
    coverageReport: 'packages/a/.ag-coverage/lcov.info',
    workspace: 'packages/a',
    coverageBase: 'packages/a',
  });
  t.deepEqual(c.workspaces, ['packages/a', 'packages/b']);
  // A coverage command by hand writes the report its own way: nothing is rebased.
  const byHand = commandsFor(WORKSPACE, '/b', readSettings({ 'coverage-command': 'c8 npm test' }, {}));
  t.is(byHand.coverageBase, null);
  t.is(commandsFor(WORKSPACE, '/b', readSettings({}, { AG_COVERAGE_COMMAND: '' })).coverageBase, null);
});

test('the changed paths are both sides of every change, renames included, once each', (t) => {
  t.deepEqual(
    changedPaths({
      files: [
        changedFile('modified', 'packages/a/src/x.js'),
        changedFile('renamed', 'packages/b/y.js', 'packages/a/y.js'),
        changedFile('added', 'README.md'),
      ],
    }),
    ['README.md', 'packages/a/src/x.js', 'packages/a/y.js', 'packages/b/y.js'],
  );
});
