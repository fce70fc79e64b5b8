/**
 * The packages as a user gets them: each publishable workspace packed with `npm pack`, the
 * tarballs installed into a fresh project (dependencies from npm's cache, which `npm ci`
 * filled; the registry only for what is missing there), every bin run through
 * `npx --no-install` from that project, and every shipped entry point of the pipeline run from
 * that install, with no settings, on a real git repository (the demo's node:test project)
 * inside it, to a verdict: `ag-gate` (and `ag-gate decide`), gate.sh, gate.mjs, gate.mk.
 *
 * Nothing here may reach this repository's own tools: every child runs with a user's
 * environment (no npm_* variables from the npx that started ava, no AG_* setting, no
 * node_modules/.bin of this checkout on PATH, no registry look-up from npx), and the project
 * lives under the OS's temporary folder, where node's resolution never climbs into this checkout.
 */
import test from 'ava';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { assertAccept, demoRepoAt, MK_SETTINGS, npm, RANGE, ROOT, run, subjectOf, verdictIn } from './kit.js';

/** Every publishable workspace (checked against the root package.json's `workspaces` below). */
const WORKSPACES = [
  'schemas',
  'tools/ag-core',
  'tools/ag-run',
  'tools/ag-diffcov',
  'tools/ag-mutate',
  'tools/ag-oracle',
  'tools/ag-decide',
  'tools/ag-gate',
  'pipelines',
];
/** Every bin the packages declare (checked against the installed package.json files). */
const BINS = ['ag-decide', 'ag-diffcov', 'ag-gate', 'ag-mutate', 'ag-oracle', 'ag-run'];
const TOOLS = ['ag-oracle', 'ag-run', 'ag-diffcov', 'ag-mutate', 'ag-decide'];
/** What @adversary-gate/gate ships; each entry point is run below (a new file must be too). */
const GATE_FILES = [
  'LICENSE',
  'gate.mjs',
  'gate.mk',
  'gate.sh',
  'github/decide.sh',
  'github/measure.sh',
  'github/mutate.sh',
  'package.json',
];

const scratch = mkdtempSync(path.join(tmpdir(), 'ag-pack-'));
// The gate runs the patch's code as a fresh uid when it runs as root: the path must be enterable.
chmodSync(scratch, 0o755);
test.after.always(() => rmSync(scratch, { recursive: true, force: true }));

const tarballs = path.join(scratch, 'tarballs');
const project = path.join(scratch, 'project');
const modules = path.join(project, 'node_modules');
const gatePkg = path.join(modules, '@adversary-gate', 'gate');
const agGateJs = path.join(modules, '@adversary-gate', 'ag-gate', 'bin', 'ag-gate.js');
/** The projects under test, inside the fresh project: the demo's clean patch and its breaking one. */
const clean = path.join(project, 'repo-clean');
const broken = path.join(project, 'repo-break');

/** The workspaces the root package.json names that are not private. */
function publishableWorkspaces(): string[] {
  const globs = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { workspaces: string[] })
    .workspaces;
  const dirs = globs.flatMap((g) =>
    g.endsWith('/*')
      ? readdirSync(path.join(ROOT, g.slice(0, -2)), { withFileTypes: true })
          .filter((e) => e.isDirectory())
          .map((e) => `${g.slice(0, -2)}/${e.name}`)
      : [g],
  );
  return dirs.filter((d) => {
    const manifest = path.join(ROOT, d, 'package.json');
    return (
      existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { private?: boolean }).private !== true
    );
  });
}

function filesUnder(dir: string, rel = ''): string[] {
  return readdirSync(path.join(dir, rel), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(dir, path.join(rel, e.name)) : [path.join(rel, e.name)],
  );
}

test.before(() => {
  mkdirSync(tarballs);
  npm(['pack', ...WORKSPACES.flatMap((w) => ['-w', w]), '--pack-destination', tarballs, '--silent'], ROOT);
  mkdirSync(project);
  writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'fresh-project', private: true }));
  const packed = readdirSync(tarballs).filter((f) => f.endsWith('.tgz'));
  npm(
    [
      'install',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
      ...packed.map((f) => path.join(tarballs, f)),
    ],
    project,
  );
  demoRepoAt(clean, 'clean');
  demoRepoAt(broken, 'break');
});

test.serial('every publishable workspace packs and installs; every bin runs via npx --no-install', (t) => {
  t.deepEqual(publishableWorkspaces().sort(), [...WORKSPACES].sort(), 'WORKSPACES is every publishable workspace');
  const names = WORKSPACES.map(
    (w) => (JSON.parse(readFileSync(path.join(ROOT, w, 'package.json'), 'utf8')) as { name: string }).name,
  );
  const packed = readdirSync(tarballs).filter((f) => f.endsWith('.tgz'));
  t.is(packed.length, WORKSPACES.length, `one tarball per workspace: ${packed.join(', ')}`);
  for (const name of names) {
    const dir = path.join(modules, ...name.split('/'));
    t.true(existsSync(path.join(dir, 'package.json')), `${name} is installed`);
    t.false(lstatSync(dir).isSymbolicLink(), `${name} is a copy from its tarball, not a link into the checkout`);
  }

  const declared = names.flatMap((name) =>
    Object.keys(
      (JSON.parse(readFileSync(path.join(modules, ...name.split('/'), 'package.json'), 'utf8')) as { bin?: object })
        .bin ?? {},
    ),
  );
  t.deepEqual(declared.sort(), BINS, 'the bins the installed packages declare');
  for (const bin of BINS) {
    const r = run('npx', ['--offline', '--no-install', bin, '--help'], project);
    t.is(r.status, 0, r.said);
    t.regex(r.stdout, new RegExp(`USAGE ${bin} `), `${bin} prints its usage`);
  }
  t.is(realpathSync(path.join(modules, '.bin', 'ag-gate')), agGateJs, 'node_modules/.bin/ag-gate is the installed one');

  // The control: outside the project, nothing (not this checkout, not a global install) answers.
  const none = run('npx', ['--offline', '--no-install', 'ag-gate', '--help'], scratch);
  t.not(none.status, 0, `no ag-gate outside the fresh project: ${none.said}`);
  t.notRegex(none.stdout, /USAGE ag-gate/);

  t.deepEqual(filesUnder(gatePkg).sort(), GATE_FILES, '@adversary-gate/gate ships exactly the files run here');
});

test.serial('npx ag-gate from the package, no settings: ACCEPT on the clean patch', (t) => {
  const r = run(
    'npx',
    ['--prefix', project, '--offline', '--no-install', 'ag-gate', ...RANGE, '--out', 'ev-ag'],
    clean,
  );
  assertAccept(t, clean, path.join(clean, 'ev-ag'), r);
  t.regex(r.stderr, /^ag-gate: verdict: ACCEPT$/m, r.said);
});

test.serial("the package's gate.sh, no settings: the same ACCEPT, through ag-gate", (t) => {
  const r = run('sh', [path.join(gatePkg, 'gate.sh'), ...RANGE, '--out', 'ev-sh'], clean);
  assertAccept(t, clean, path.join(clean, 'ev-sh'), r);
  t.regex(r.stderr, /^gate\.sh: verdict: ACCEPT$/m, r.said);
});

test.serial("the package's gate.mjs, no settings: the same ACCEPT, through ag-gate", (t) => {
  const r = run(process.execPath, [path.join(gatePkg, 'gate.mjs'), ...RANGE, '--out', 'ev-mjs'], clean);
  assertAccept(t, clean, path.join(clean, 'ev-mjs'), r);
  t.regex(r.stderr, /^gate\.mjs: verdict: ACCEPT$/m, r.said);
});

test.serial("the package's gate.mk, with the project's tools: the same ACCEPT", (t) => {
  const r = run(
    'make',
    ['-f', path.join(gatePkg, 'gate.mk'), 'BASE=main~1', 'HEAD=main', 'OUT=ev-mk', ...MK_SETTINGS],
    clean,
  );
  assertAccept(t, clean, path.join(clean, 'ev-mk'), r);
  // BIN defaults to the project's node_modules/.bin, seen from the installed gate.mk.
  for (const tool of TOOLS)
    t.true(r.stdout.includes(`'${gatePkg}/../../.bin/${tool}'`), `${tool} from the install: ${r.said}`);
});

test.serial('ag-gate from the package, no settings: REJECT on the patch that breaks a test', (t) => {
  const r = run(process.execPath, [agGateJs, ...RANGE, '--out', 'ev-ag', '--quiet'], broken);
  const v = verdictIn(path.join(broken, 'ev-ag'), r);
  t.is(v.verdict, 'REJECT', r.said);
  t.is(r.status, 1, r.said);
  t.true(
    v.reasons.some((x) => x.code === 'CLAIM_FAILED'),
    `the broken test is named: ${v.reasons.map((x) => x.code).join(' ')}`,
  );
  t.deepEqual(v.subject, subjectOf(broken));
});

test.serial("ag-gate decide from the package: ACCEPT on ag-gate's evidence", (t) => {
  const evidence = path.join(clean, 'ev-ag');
  t.true(existsSync(path.join(evidence, 'verdict.json')), 'the ag-gate run above left its evidence');
  const output = path.join(scratch, 'decide-output');
  writeFileSync(output, '');
  const r = run(
    'npx',
    ['--prefix', project, '--offline', '--no-install', 'ag-gate', 'decide', ...RANGE, '--evidence', evidence],
    clean,
    { GITHUB_OUTPUT: output },
  );
  t.is(r.status, 0, r.said);
  t.is(readFileSync(output, 'utf8'), 'verdict=ACCEPT\n', r.said);
});

// The GitHub scripts the package ships find the pipeline beside themselves, as a package user
// runs them: measure.sh (and so mutate.sh) its gate.sh, decide.sh its sibling ag-gate.
test.serial("the package's github/*.sh, sharded, as a package user runs them: ACCEPT", (t) => {
  const evidence = path.join(scratch, 'evidence-github');
  const output = path.join(scratch, 'github-output');
  writeFileSync(output, '');
  const env = { AG_GATE: gatePkg, AG_BASE: 'main~1', AG_HEAD: 'main', AG_EVIDENCE: evidence };
  const measure = run('sh', [path.join(gatePkg, 'github/measure.sh')], clean, { ...env, AG_SHARDS: '1' });
  t.is(measure.status, 0, measure.said);
  t.true(existsSync(path.join(evidence, 'run.json')), `measure.sh measured: ${measure.said}`);
  // A shard is a job of its own with its own evidence directory; decide gets every job's artefacts in one.
  const shard = path.join(scratch, 'evidence-github-shard');
  const mutate = run('sh', [path.join(gatePkg, 'github/mutate.sh')], clean, {
    ...env,
    AG_EVIDENCE: shard,
    AG_SHARD: '1/1',
  });
  t.is(mutate.status, 0, mutate.said);
  t.true(existsSync(path.join(shard, 'mutation-1.json')), `mutate.sh mutated: ${mutate.said}`);
  copyFileSync(path.join(shard, 'mutation-1.json'), path.join(evidence, 'mutation-1.json'));
  const decide = run('sh', [path.join(gatePkg, 'github/decide.sh')], clean, {
    ...env,
    AG_SHARDS: '1',
    GITHUB_OUTPUT: output,
  });
  t.is(readFileSync(output, 'utf8'), 'verdict=ACCEPT\n', decide.said);
  t.is(decide.status, 0, decide.said);
});
