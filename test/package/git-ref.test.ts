/**
 * The install from a git ref, as the README gives it: `npm i -D git+…/adversary-gate.git#<ref>`.
 * npm clones the ref, installs its development dependencies, runs the root's `prepare` (the
 * build) and installs what the root's `files` selects. Here the ref is a commit of this
 * checkout's files (tracked and new, as `git ls-files` lists them) in a throwaway repository,
 * reached by `git+file://`. The installed package must be the single tarball's files, and
 * `npx ag-gate` from it must judge the demo's clean patch ACCEPT.
 */
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { assertAccept, demoRepoAt, npm, RANGE, ROOT, run } from './kit.js';

const scratch = mkdtempSync(path.join(tmpdir(), 'ag-git-ref-'));
// The gate runs the patch's code as a fresh uid when it runs as root: the path must be enterable.
chmodSync(scratch, 0o755);
test.after.always(() => rmSync(scratch, { recursive: true, force: true }));

/** Every file below `dir`, relative to it, sorted. */
function filesUnder(dir: string, at = ''): string[] {
  return readdirSync(path.join(dir, at))
    .flatMap((name) => {
      const rel = path.join(at, name);
      return statSync(path.join(dir, rel)).isDirectory() ? filesUnder(dir, rel) : [rel];
    })
    .sort();
}

/** A repository whose one commit holds this checkout's files; returns its `git+file://` spec. */
function checkoutAsRef(): string {
  const repo = path.join(scratch, 'adversary-gate.git-src');
  mkdirSync(repo);
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
  })
    .split('\0')
    .filter((f) => f !== '');
  for (const file of listed) {
    const from = path.join(ROOT, file);
    try {
      if (!statSync(from).isFile()) continue;
    } catch {
      continue; // listed by the index, deleted in the work tree
    }
    mkdirSync(path.dirname(path.join(repo, file)), { recursive: true });
    cpSync(from, path.join(repo, file));
  }
  const git = (args: string[]) => execFileSync('git', args, { cwd: repo, encoding: 'utf8' });
  git(['init', '-q', '-b', 'main']);
  git(['add', '-A']);
  git(['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'the ref to install']);
  git(['tag', 'v0.0.0-test']);
  return `git+file://${repo}#v0.0.0-test`;
}

test('npm i -D git+…#<ref>: built by prepare, the single tarball’s files, and ag-gate from it ACCEPTs', (t) => {
  const spec = checkoutAsRef();
  const project = path.join(scratch, 'project');
  mkdirSync(project);
  writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'fresh-project', private: true }));
  npm(['install', '--prefer-offline', '--no-audit', '--no-fund', '-D', spec], project);
  const installed = path.join(project, 'node_modules', 'adversary-gate');

  const packed = run(process.execPath, [path.join(ROOT, 'scripts', 'pack-single.mjs'), '--out', scratch], ROOT);
  t.is(packed.status, 0, packed.said);
  const single = path.join(scratch, 'single');
  mkdirSync(single);
  execFileSync('tar', ['-xzf', packed.stdout.trim(), '-C', single]);
  // The same files, but a build's intermediate modules (a checkout may hold stale ones; the bundles are what runs).
  const shipped = (files: string[]) =>
    files.filter((f) => !f.endsWith('package.json') && (!f.includes('/dist/') || f.endsWith('.bundle.mjs')));
  const got = shipped(filesUnder(installed));
  t.deepEqual(got, shipped(filesUnder(path.join(single, 'package'))), 'the same files');
  t.true(got.includes('tools/ag-gate/dist/ag-gate.bundle.mjs') && got.includes('pipelines/gate.sh'), got.join(' '));

  const repo = path.join(scratch, 'repo-clean');
  demoRepoAt(repo, 'clean');
  const r = run(path.join(project, 'node_modules', '.bin', 'ag-gate'), [...RANGE, '--out', 'ev'], repo);
  assertAccept(t, repo, path.join(repo, 'ev'), r);
});
