// The install step with a stand-in for corepack's pnpm on the PATH: each side's install finds a
// copy of the caller's corepack cache of its own at COREPACK_HOME (as root: owned by the
// install's uid, the caller's cache itself out of its reach), with corepack's registry setting;
// what one install writes into its copy is not in the next one's; the copy is gone after; a
// failed fetch is named in the fault text. Its own file: the test process's PATH is changed.
import test from 'ava';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { removeTempDirs, tempDir } from '../../ag-core/test/support/git-repo.js';
import { installSettings } from '../src/install-settings.js';
import { installSide, type InstallPlaces } from '../src/install.js';

test.after.always(removeTempDirs);

/** Prints what the install was lent, plants a file in its copy, and fails as corepack does when asked. */
const FAKE_PNPM = `#!/bin/sh
pm="\${COREPACK_HOME:-none}/v1/pnpm/9.9.9"
if [ "$1" = fetch-fails ]; then
  echo 'Error: No compatible signature found in package metadata' >&2
  echo '    at verifySignature (/usr/lib/node_modules/corepack/dist/lib/corepack.cjs:21999:63)' >&2
  exit 1
fi
{
  echo "home=\${COREPACK_HOME:-unset}"
  echo "registry=\${COREPACK_NPM_REGISTRY:-unset}"
  echo "uid=$(id -u)"
  [ -d "\${COREPACK_HOME:-/nonexistent}" ] && echo "owner=$(stat -c %u "$COREPACK_HOME") $(stat -c %u "$pm/.corepack")"
  [ -f "$pm/.corepack" ] && echo "manager=$(cat "$pm/.corepack")"
  [ -L "$pm/out" ] && echo "link=$(readlink "$pm/out")"
  [ -f "$pm/planted" ] && echo "planted=yes"
  cat "$probe" >/dev/null 2>&1 && echo "caller=readable" || echo "caller=unreadable"
} > lent.txt
touch "$pm/planted" 2>/dev/null
mkdir -p node_modules
`;

interface SetUp {
  readonly places: (corepack: boolean) => InstallPlaces;
  readonly cache: string;
  readonly outside: string;
  readonly tree: string;
}

function setUp(): SetUp {
  const bin = tempDir('ag-gate-bin');
  chmodSync(bin, 0o755);
  const cache = tempDir('ag-gate-corepack');
  // A file of the caller's cache the install tries to read (the caller's environment does not reach it).
  const probe = path.join(cache, 'v1/pnpm/probe');
  writeFileSync(path.join(bin, 'pnpm'), FAKE_PNPM.replace('#!/bin/sh\n', `#!/bin/sh\nprobe='${probe}'\n`), {
    mode: 0o755,
  });
  process.env.PATH = `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`;
  const pm = path.join(cache, 'v1/pnpm/9.9.9');
  mkdirSync(pm, { recursive: true });
  writeFileSync(path.join(pm, '.corepack'), 'pnpm 9.9.9 from the caller');
  writeFileSync(probe, 'the caller’s own');
  // A link out of the cache: copied as a link, never read through.
  const outside = tempDir('ag-gate-outside');
  symlinkSync(outside, path.join(pm, 'out'));
  const tree = tempDir('ag-gate-tree');
  writeFileSync(path.join(tree, 'package.json'), '{"packageManager":"pnpm@9.9.9+sha512.abc"}');
  const home = tempDir('ag-gate-callerhome');
  const places = (corepack: boolean): InstallPlaces => {
    const work = tempDir('ag-gate-work');
    chmodSync(work, 0o755);
    return {
      work,
      toolsDir: path.join(work, 'tools'),
      settings: installSettings(null, {
        HOME: home,
        ...(corepack ? { COREPACK_HOME: cache, COREPACK_NPM_REGISTRY: 'https://mirror.example.test/' } : {}),
      }),
    };
  };
  return { places, cache, outside, tree };
}

function lent(work: string, side: string): Record<string, string> {
  const text = readFileSync(path.join(work, `deps-${side}`, 'lent.txt'), 'utf8');
  return Object.fromEntries(
    text
      .trim()
      .split('\n')
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
}

test.serial('each side’s install gets its own copy of the caller’s corepack cache, and it is gone after', async (t) => {
  const { places: make, cache, outside, tree } = setUp();
  const places = make(true);
  t.is(await installSide('baseline', tree, 'pnpm install --frozen-lockfile', 60, places), null);
  const patchTree = tempDir('ag-gate-tree');
  writeFileSync(path.join(patchTree, 'package.json'), readFileSync(path.join(tree, 'package.json')));
  t.is(await installSide('patch', patchTree, 'pnpm install --frozen-lockfile', 60, places), null);
  const [a, b] = [lent(places.work, 'baseline'), lent(places.work, 'patch')];
  for (const got of [a, b]) {
    t.is(got.manager, 'pnpm 9.9.9 from the caller');
    t.is(got.registry, 'https://mirror.example.test/');
    t.is(got.link, outside, 'the link copied as a link');
    t.is(got.owner, `${got.uid} ${got.uid}`, 'the copy is the install’s uid’s');
    t.is(got.planted, undefined, 'what the other install wrote into its copy is not in this one');
    t.regex(got.home!, new RegExp(`^${places.work}/corepack-`));
  }
  t.not(a.home, b.home);
  if (process.getuid?.() === 0)
    t.is(a.caller, 'unreadable', 'as root, the install’s uid cannot read the caller’s cache');
  t.deepEqual(
    readdirSync(places.work).filter((f) => f.startsWith('corepack-')),
    [],
    'each copy removed after its install',
  );
  t.false(existsSync(path.join(cache, 'v1/pnpm/9.9.9/planted')), 'the caller’s cache untouched');
});

test.serial('no caller cache: no COREPACK_HOME, nothing lent', async (t) => {
  const { places: make, tree } = setUp();
  const places = make(false);
  t.is(await installSide('baseline', tree, 'pnpm install --frozen-lockfile', 60, places), null);
  const got = lent(places.work, 'baseline');
  t.is(got.home, 'unset');
  t.is(got.registry, 'unset');
  t.is(got.manager, undefined);
});

test.serial('an install whose corepack could not fetch the manager says so', async (t) => {
  const { places: make, tree } = setUp();
  const places = make(false);
  const failed = await installSide('baseline', tree, 'pnpm fetch-fails', 60, places);
  t.is(
    failed?.text,
    'the install of the baseline (pnpm fetch-fails) exited 1: corepack could not fetch pnpm@9.9.9 ' +
      '(the caller has no corepack cache to copy), so no test ran',
  );
});
