/**
 * The one package a user installs today: `node scripts/pack-single.mjs` packs `adversary-gate`
 * (the five tools, ag-gate, the pipelines, no dependency to fetch), a fresh project installs
 * that one tarball, and every shipped entry point runs from it to the verdict it must give:
 * `npx ag-gate` and the bins, gate.sh, gate.mjs and gate.mk.
 */
import test from 'ava';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { assertAccept, demoRepoAt, MK_SETTINGS, npm, RANGE, ROOT, run, verdictIn } from './kit.js';

const scratch = mkdtempSync(path.join(tmpdir(), 'ag-single-'));
// The gate runs the patch's code as a fresh uid when it runs as root: the path must be enterable.
chmodSync(scratch, 0o755);
test.after.always(() => rmSync(scratch, { recursive: true, force: true }));

const project = path.join(scratch, 'project');
const pkg = path.join(project, 'node_modules', 'adversary-gate');
const clean = path.join(project, 'repo-clean');
const broken = path.join(project, 'repo-break');
let tarball = '';

test.before(() => {
  const packed = run(process.execPath, [path.join(ROOT, 'scripts', 'pack-single.mjs'), '--out', scratch], ROOT);
  if (packed.status !== 0) throw new Error(packed.said);
  tarball = packed.stdout.trim();
  mkdirSync(project);
  writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'fresh-project', private: true }));
  // The README's install command: one tarball, nothing else fetched.
  npm(['install', '--offline', '--no-audit', '--no-fund', '-D', tarball], project);
  demoRepoAt(clean, 'clean');
  demoRepoAt(broken, 'break');
});

test.serial('one tarball, no dependency: every bin runs from it', (t) => {
  t.regex(path.basename(tarball), /^adversary-gate-\d+\.\d+\.\d+\.tgz$/);
  const manifest = JSON.parse(readFileSync(path.join(pkg, 'package.json'), 'utf8')) as {
    bin: Record<string, string>;
    dependencies?: object;
  };
  t.is(manifest.dependencies, undefined, 'nothing to fetch beside it');
  t.deepEqual(Object.keys(manifest.bin).sort(), [
    'ag-decide',
    'ag-diffcov',
    'ag-gate',
    'ag-mutate',
    'ag-oracle',
    'ag-run',
  ]);
  t.false(existsSync(path.join(project, 'node_modules', '@adversary-gate')), 'no scoped package installed');
  for (const bin of Object.keys(manifest.bin)) {
    const r = run('npx', ['--offline', '--no-install', bin, '--help'], project);
    t.is(r.status, 0, r.said);
    t.regex(r.stdout, new RegExp(`USAGE ${bin} `), r.said);
  }
});

test.serial('npx ag-gate, gate.sh and gate.mjs from it, no settings: ACCEPT; gate.mk by hand: ACCEPT', (t) => {
  const runs = {
    'ev-npx': run(
      'npx',
      ['--prefix', project, '--offline', '--no-install', 'ag-gate', ...RANGE, '--out', 'ev-npx'],
      clean,
    ),
    'ev-sh': run('sh', [path.join(pkg, 'pipelines', 'gate.sh'), ...RANGE, '--out', 'ev-sh'], clean),
    'ev-mjs': run(process.execPath, [path.join(pkg, 'pipelines', 'gate.mjs'), ...RANGE, '--out', 'ev-mjs'], clean),
    'ev-mk': run(
      'make',
      ['-s', '-f', path.join(pkg, 'pipelines', 'gate.mk'), 'BASE=main~1', 'HEAD=main', 'OUT=ev-mk', ...MK_SETTINGS],
      clean,
    ),
  };
  for (const [out, r] of Object.entries(runs)) assertAccept(t, clean, path.join(clean, out), r);
});

test.serial('ag-gate from it on a patch that breaks a test: REJECT', (t) => {
  const r = run(path.join(project, 'node_modules', '.bin', 'ag-gate'), [...RANGE, '--out', 'ev'], broken);
  const v = verdictIn(path.join(broken, 'ev'), r);
  t.is(v.verdict, 'REJECT', r.said);
  t.is(r.status, 1, r.said);
  t.true(
    v.reasons.some((x) => x.code === 'CLAIM_FAILED'),
    r.said,
  );
});
