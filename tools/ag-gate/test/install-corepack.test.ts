// Each install gets its own copy of the caller's corepack cache (only the manager it runs, only
// the version the tree pins), never read through a link, under a size cap; corepack's registry
// settings reach the installs when the caller set them; no cache, nothing lent.
import test from 'ava';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { removeTempDirs, tempDir } from '../../ag-core/test/support/git-repo.js';
import { logTail, PipelineFaults } from '../src/faults.js';
import {
  copyCorepackCache,
  corepackCouldNotFetch,
  corepackFault,
  lendCorepack,
  wantedManager,
} from '../src/install-corepack.js';
import { callerCorepackHome, installEnv, installSettings, throughCorepack } from '../src/install-settings.js';

function files(root: string, entries: Record<string, string>): string {
  for (const [name, body] of Object.entries(entries)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), body);
  }
  return root;
}

/** A corepack home as corepack leaves it, with a link to a folder outside it. */
function fakeCache(): { cache: string; outside: string } {
  const outside = files(tempDir('ag-gate-outside'), { 'secret.txt': 'not for the install' });
  const cache = files(tempDir('ag-gate-corepack'), {
    'lastKnownGood.json': '{"pnpm":"9.9.9"}\n',
    'v1/pnpm/9.9.9/.corepack': '{"locator":{"name":"pnpm","reference":"9.9.9"},"bin":{"pnpm":"./bin/pnpm.cjs"}}',
    'v1/pnpm/9.9.9/package.json': '{"name":"pnpm","version":"9.9.9"}',
    'v1/pnpm/9.9.9/bin/pnpm.cjs': '#!/usr/bin/env node\n',
    'v1/pnpm/9.9.9/dist/nested/deep/worker.js': 'module.exports = 1;\n',
    'v1/pnpm/8.0.0/.corepack': '{}',
    'v1/yarn/4.0.0/.corepack': '{}',
    'not-corepack.txt': 'elsewhere in the home',
  });
  chmodSync(path.join(cache, 'v1/pnpm/9.9.9/bin/pnpm.cjs'), 0o4775);
  symlinkSync(outside, path.join(cache, 'v1/pnpm/9.9.9/out'));
  symlinkSync(path.join(outside, 'secret.txt'), path.join(cache, 'v1/pnpm/9.9.9/dist/secret.txt'));
  return { cache, outside };
}

test.after.always(removeTempDirs);

const PINNED = { name: 'pnpm', version: '9.9.9' } as const;

test('the pinned manager is copied, files and folders anew, links as links, nothing else', (t) => {
  const { cache, outside } = fakeCache();
  const target = path.join(tempDir('ag-gate-home'), '.cache', 'node', 'corepack');
  const copy = copyCorepackCache(cache, target, PINNED);
  t.is(copy.home, target);
  t.false(copy.refused);
  t.is(copy.label, 'pnpm@9.9.9');
  const pm = path.join(target, 'v1/pnpm/9.9.9');
  t.is(readFileSync(path.join(pm, 'dist/nested/deep/worker.js'), 'utf8'), 'module.exports = 1;\n');
  t.is(readFileSync(path.join(pm, 'package.json'), 'utf8'), '{"name":"pnpm","version":"9.9.9"}');
  t.is(readFileSync(path.join(target, 'lastKnownGood.json'), 'utf8'), '{"pnpm":"9.9.9"}\n');
  const bin = lstatSync(path.join(pm, 'bin/pnpm.cjs'));
  t.true(bin.isFile());
  t.is(bin.mode & 0o7777, 0o755, 'executable kept, set-id and write for others dropped');
  // The links are links still, to where they pointed: nothing was read through them.
  for (const [at, to] of [
    ['out', outside],
    ['dist/secret.txt', path.join(outside, 'secret.txt')],
  ] as const) {
    t.true(lstatSync(path.join(pm, at)).isSymbolicLink(), at);
    t.is(readlinkSync(path.join(pm, at)), to);
  }
  t.false(existsSync(path.join(target, 'v1/pnpm/8.0.0')), 'only the pinned version');
  t.false(existsSync(path.join(target, 'v1/yarn')), 'only the install’s manager');
  t.false(existsSync(path.join(target, 'not-corepack.txt')));
  t.is(readFileSync(path.join(cache, 'v1/pnpm/9.9.9/bin/pnpm.cjs'), 'utf8'), '#!/usr/bin/env node\n');
});

test('no pinned version: the manager’s every version', (t) => {
  const { cache } = fakeCache();
  const target = path.join(tempDir('ag-gate-home'), 'corepack');
  const copy = copyCorepackCache(cache, target, { name: 'pnpm', version: null });
  t.is(copy.home, target);
  t.deepEqual(readdirSync(path.join(target, 'v1')), ['pnpm']);
  t.deepEqual(readdirSync(path.join(target, 'v1/pnpm')).sort(), ['8.0.0', '9.9.9']);
});

test('past the size cap nothing is copied, and the note says so', (t) => {
  const { cache } = fakeCache();
  const target = path.join(tempDir('ag-gate-home'), 'corepack');
  const copy = copyCorepackCache(cache, target, PINNED, 64);
  t.is(copy.home, null);
  t.true(copy.refused);
  t.is(copy.note, `the caller's corepack cache ${cache} holds over 64 bytes of pnpm@9.9.9: not copied`);
  t.false(existsSync(target));
  t.is(copyCorepackCache(cache, target, PINNED, 4096).home, target, 'under the cap it is');
});

test('a version the cache does not hold: nothing copied, not refused', (t) => {
  const { cache } = fakeCache();
  const target = path.join(tempDir('ag-gate-home'), 'corepack');
  const copy = copyCorepackCache(cache, target, { name: 'pnpm', version: '7.0.0' });
  t.deepEqual(copy, {
    home: null,
    label: 'pnpm@7.0.0',
    note: `the caller's corepack cache ${cache} holds no pnpm@7.0.0`,
    refused: false,
  });
  t.false(existsSync(target));
});

test('the manager is the install command’s; the version the tree’s packageManager pins for it', (t) => {
  const tree = (packageManager: unknown) =>
    files(tempDir('ag-gate-tree'), { 'package.json': JSON.stringify({ packageManager }) });
  t.deepEqual(wantedManager(tree('pnpm@10.33.0+sha512.abc'), 'pnpm install --frozen-lockfile'), {
    name: 'pnpm',
    version: '10.33.0',
  });
  t.deepEqual(wantedManager(tree('yarn@4.0.0'), 'corepack yarn install --immutable'), {
    name: 'yarn',
    version: '4.0.0',
  });
  t.deepEqual(wantedManager(tree('yarn@4.0.0'), 'pnpm install'), { name: 'pnpm', version: null }, 'another manager');
  for (const odd of ['pnpm@../../etc', 'pnpm@^10', 'pnpm@10.0.0/../x', 42, null])
    t.is(wantedManager(tree(odd), 'pnpm install').version, null, String(odd));
  t.deepEqual(wantedManager(tempDir('ag-gate-tree'), 'npm ci'), { name: 'npm', version: null }, 'no package.json');
  const linked = tempDir('ag-gate-tree');
  symlinkSync(path.join(tree('pnpm@9.9.9'), 'package.json'), path.join(linked, 'package.json'));
  t.is(wantedManager(linked, 'pnpm install').version, null, 'a package.json that is a link is not read');
});

test('each install gets a folder of its own in the work folder; no caller cache: nothing', (t) => {
  const { cache } = fakeCache();
  const work = tempDir('ag-gate-work');
  const dir = files(tempDir('ag-gate-tree'), { 'package.json': '{"packageManager":"pnpm@9.9.9"}' });
  const a = lendCorepack(cache, work, dir, 'pnpm install --frozen-lockfile');
  const b = lendCorepack(cache, work, dir, 'pnpm install --frozen-lockfile');
  t.not(a.home, null);
  t.not(a.home, b.home);
  t.is(path.dirname(a.home!), work);
  t.true(statSync(path.join(a.home!, 'v1/pnpm/9.9.9/.corepack')).isFile());
  const none = lendCorepack(null, work, dir, 'pnpm install');
  t.deepEqual(none, {
    home: null,
    label: 'pnpm@9.9.9',
    note: 'the caller has no corepack cache to copy',
    refused: false,
  });
  const lacking = lendCorepack(cache, work, dir, 'npm ci');
  t.is(lacking.home, null);
  t.is(readdirSync(work).length, 2, 'a folder only for a copy made');
});

test('the caller’s corepack home: COREPACK_HOME, else XDG_CACHE_HOME, else ~/.cache; none when absent', (t) => {
  const home = tempDir('ag-gate-callerhome');
  t.is(callerCorepackHome({ HOME: home }), null, 'no cache');
  mkdirSync(path.join(home, '.cache/node/corepack'), { recursive: true });
  t.is(callerCorepackHome({ HOME: home }), path.join(home, '.cache/node/corepack'));
  const xdg = tempDir('ag-gate-xdg');
  t.is(callerCorepackHome({ HOME: home, XDG_CACHE_HOME: xdg }), null, 'XDG_CACHE_HOME first');
  mkdirSync(path.join(xdg, 'node/corepack'), { recursive: true });
  t.is(callerCorepackHome({ HOME: home, XDG_CACHE_HOME: xdg }), path.join(xdg, 'node/corepack'));
  const own = tempDir('ag-gate-own');
  t.is(callerCorepackHome({ HOME: home, XDG_CACHE_HOME: xdg, COREPACK_HOME: own }), own);
  t.is(callerCorepackHome({ HOME: home, COREPACK_HOME: 'relative/corepack' }), null, 'a relative path is none');
  writeFileSync(path.join(own, 'file'), '');
  t.is(callerCorepackHome({ COREPACK_HOME: path.join(own, 'file') }), null, 'a file is none');
});

test('corepack’s registry, token and keys reach the install only when set; COREPACK_HOME only with a copy', (t) => {
  const home = tempDir('ag-gate-callerhome');
  const bare = installSettings(null, { HOME: home, PATH: '/usr/bin', COREPACK_ENABLE_STRICT: '0' });
  t.is(bare.corepackHome, null);
  t.deepEqual(
    installEnv(bare, null, 'pnpm install', null),
    { COREPACK_DEFAULT_TO_LATEST: '0', COREPACK_ENABLE_DOWNLOAD_PROMPT: '0' },
    'nothing of the caller’s corepack settings when unset: only the known-good version, no prompt',
  );
  t.deepEqual(installEnv(bare, null, 'npm ci', null), {}, 'npm is not corepack’s');
  const set = installSettings(null, {
    HOME: home,
    COREPACK_HOME: home,
    COREPACK_NPM_REGISTRY: 'https://mirror.example.test/',
    COREPACK_NPM_TOKEN: 'corepack-token',
    COREPACK_INTEGRITY_KEYS: '',
    COREPACK_ENABLE_STRICT: '0',
  });
  t.is(set.corepackHome, home);
  t.deepEqual(installEnv(set, '/c', 'pnpm install', '/work/corepack-1'), {
    COREPACK_DEFAULT_TO_LATEST: '0',
    COREPACK_ENABLE_DOWNLOAD_PROMPT: '0',
    COREPACK_NPM_REGISTRY: 'https://mirror.example.test/',
    COREPACK_NPM_TOKEN: 'corepack-token',
    COREPACK_INTEGRITY_KEYS: '',
    npm_config_store_dir: '/c/pnpm-store',
    npm_config_prefer_offline: 'true',
    COREPACK_HOME: '/work/corepack-1',
  });
  t.false('COREPACK_HOME' in installEnv(set, null, 'pnpm install', null), 'the caller’s own home is never passed');
  const latest = installSettings(null, { HOME: home, COREPACK_DEFAULT_TO_LATEST: '1' });
  t.is(
    installEnv(latest, null, 'corepack yarn install', null).COREPACK_DEFAULT_TO_LATEST,
    '1',
    'the caller’s choice of the latest wins',
  );
});

test('a detected pnpm or yarn the install cannot find runs through corepack; anything else as it is', (t) => {
  const has =
    (...names: string[]) =>
    (name: string) =>
      names.includes(name);
  t.is(throughCorepack('yarn install --frozen-lockfile', has('corepack')), 'corepack yarn install --frozen-lockfile');
  t.is(throughCorepack('pnpm install --frozen-lockfile', has('corepack')), 'corepack pnpm install --frozen-lockfile');
  t.is(throughCorepack('yarn install', has('yarn', 'corepack')), 'yarn install', 'the manager on the PATH runs');
  t.is(throughCorepack('yarn install', has()), 'yarn install', 'no corepack: the install names what is missing');
  t.is(throughCorepack('npm ci', has('corepack')), 'npm ci');
  t.is(throughCorepack('yarnish install', has('corepack')), 'yarnish install', 'a whole word only');
  t.is(throughCorepack('corepack pnpm install', has('corepack')), 'corepack pnpm install');
});

/** What `corepack pnpm install` prints when the registry's metadata has no signatures. */
const NO_SIGNATURE = `/usr/lib/node_modules/corepack/dist/lib/corepack.cjs:21999
  if (!Array.isArray(signatures) || !signatures.length) throw new Error(\`No compatible signature found in package metadata\`);
                                                              ^

Error: No compatible signature found in package metadata
    at verifySignature (/usr/lib/node_modules/corepack/dist/lib/corepack.cjs:21999:63)
    at fetchLatestStableVersion (/usr/lib/node_modules/corepack/dist/lib/corepack.cjs:22027:5)
    at async Engine.getDefaultVersion (/usr/lib/node_modules/corepack/dist/lib/corepack.cjs:22878:23)

Node.js v20.20.2
`;

test('an install corepack could not fetch for says so in its one fault line', (t) => {
  const dir = tempDir('ag-gate-log');
  const log = path.join(dir, 'deps-baseline.log');
  writeFileSync(log, NO_SIGNATURE);
  t.true(corepackCouldNotFetch(log));
  const copy = { home: null, label: 'pnpm@10.33.0', note: 'the caller has no corepack cache to copy', refused: false };
  const text = `the install of the baseline (pnpm install --frozen-lockfile) exited 1${corepackFault(log, copy)}, so no test ran`;
  const faults = new PipelineFaults(dir, 'ag-gate-test');
  faults.add(text, log);
  t.deepEqual(faults.lines(), [
    'the install of the baseline (pnpm install --frozen-lockfile) exited 1: corepack could not fetch pnpm@10.33.0 ' +
      '(the caller has no corepack cache to copy), so no test ran: ' +
      `Error: No compatible signature found in package metadata … ${logTail(log).split(' … ')[1]}`,
  ]);
  const other = path.join(dir, 'other.log');
  writeFileSync(other, 'ERR_PNPM_OUTDATED_LOCKFILE Cannot install with "frozen-lockfile"\n');
  t.false(corepackCouldNotFetch(other));
  t.is(corepackFault(other, copy), '', 'an install that failed otherwise says nothing of corepack');
  t.is(
    corepackFault(other, {
      ...copy,
      note: 'the caller’s corepack cache /c holds over 1 bytes of pnpm: not copied',
      refused: true,
    }),
    ' (the caller’s corepack cache /c holds over 1 bytes of pnpm: not copied)',
    'a copy refused is said whatever the install printed',
  );
  t.false(corepackCouldNotFetch(path.join(dir, 'absent.log')));
});
