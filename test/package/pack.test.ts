/**
 * The packages as a user gets them: each publishable workspace packed with `npm pack`, the
 * tarballs installed into a fresh project (dependencies from npm's cache, which `npm ci`
 * filled; the registry only for what is missing there), and every bin run through
 * `npx --no-install` from that project.
 */
import test from 'ava';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const WORKSPACES = [
  'schemas',
  'tools/ag-core',
  'tools/ag-run',
  'tools/ag-diffcov',
  'tools/ag-mutate',
  'tools/ag-oracle',
  'tools/ag-decide',
  'pipelines',
];
const BINS = ['ag-run', 'ag-diffcov', 'ag-mutate', 'ag-oracle', 'ag-decide'];

const scratch = mkdtempSync(path.join(tmpdir(), 'ag-pack-'));
test.after.always(() => rmSync(scratch, { recursive: true, force: true }));

function npm(args: string[], cwd: string): string {
  return execFileSync('npm', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });
}

test.serial('every package packs, installs into a fresh project, and its bin runs via npx --no-install', (t) => {
  const tarballs = path.join(scratch, 'tarballs');
  mkdirSync(tarballs);
  for (const w of WORKSPACES) npm(['pack', '-w', w, '--pack-destination', tarballs, '--silent'], ROOT);
  const packed = readdirSync(tarballs).filter((f) => f.endsWith('.tgz'));
  t.is(packed.length, WORKSPACES.length, `one tarball per workspace: ${packed.join(', ')}`);

  const project = path.join(scratch, 'project');
  mkdirSync(project);
  writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'fresh-project', private: true }));
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

  for (const bin of BINS) {
    const r = spawnSync('npx', ['--no-install', bin, '--help'], { cwd: project, encoding: 'utf8' });
    t.is(r.status, 0, `${bin} --help exits 0: ${r.stderr}`);
    t.regex(r.stdout, new RegExp(`USAGE ${bin} `), `${bin} prints its usage`);
  }
  const gate = spawnSync('npx', ['--no-install', 'ag-gate', '--help'], { cwd: project, encoding: 'utf8' });
  t.is(gate.status, 0, `ag-gate --help exits 0: ${gate.stderr}`);
  t.regex(gate.stdout, /gate\.sh/, 'the installed pipeline prints its usage');
});
