// What an install gets from the caller: the npmrc and the variables it names, the registry,
// proxy and CA variables, and its package manager's cache folder; nothing else of the caller's.
import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { staleMetadata } from '../src/install.js';
import { cacheEnv, defaultInstallCache, installSettings } from '../src/install-settings.js';

test('the npmrc, the variables it names, and where packages come from; never the other secrets', (t) => {
  const home = mkdtempSync(path.join(os.tmpdir(), 'ag-gate-npmrc-'));
  t.teardown(() => rmSync(home, { recursive: true, force: true }));
  const npmrc = '//registry.example.test/:_authToken=${NPM_TOKEN}\n@acme:registry=https://registry.example.test/\n';
  writeFileSync(path.join(home, '.npmrc'), npmrc);
  const s = installSettings('/cache', {
    HOME: home,
    NPM_TOKEN: 'secret-for-npm',
    GITHUB_TOKEN: 'not-for-npm',
    AWS_SECRET_ACCESS_KEY: 'nope',
    npm_config_registry: 'https://mirror.example.test/',
    'npm_config_@acme:registry': 'https://acme.example.test/',
    HTTPS_PROXY: 'http://proxy.example.test:3128',
    no_proxy: 'localhost',
    NODE_EXTRA_CA_CERTS: '/etc/ssl/corp.pem',
    npm_config_local_prefix: '/work/elsewhere',
    npm_config_cache: '/root/.npm',
  });
  t.is(s.npmrc?.toString(), npmrc);
  t.deepEqual(s.env, {
    NPM_TOKEN: 'secret-for-npm',
    npm_config_registry: 'https://mirror.example.test/',
    'npm_config_@acme:registry': 'https://acme.example.test/',
    HTTPS_PROXY: 'http://proxy.example.test:3128',
    no_proxy: 'localhost',
    NODE_EXTRA_CA_CERTS: '/etc/ssl/corp.pem',
  });
  t.is(s.cache, '/cache');
});

test('no npmrc, or one that is a link or a folder, is none', (t) => {
  const home = mkdtempSync(path.join(os.tmpdir(), 'ag-gate-npmrc-'));
  t.teardown(() => rmSync(home, { recursive: true, force: true }));
  t.is(installSettings(null, { HOME: home }).npmrc, null);
  t.is(installSettings(null, { HOME: home, npm_config_userconfig: home }).npmrc, null);
});

test('each package manager gets its own cache folder, and only its own setting', (t) => {
  t.deepEqual(cacheEnv('/c', 'npm ci --ignore-scripts'), {
    npm_config_cache: '/c/npm',
    npm_config_prefer_offline: 'true',
  });
  t.deepEqual(cacheEnv('/c', 'pnpm install --frozen-lockfile'), {
    npm_config_store_dir: '/c/pnpm-store',
    npm_config_prefer_offline: 'true',
  });
  t.deepEqual(cacheEnv('/c', 'corepack yarn install --immutable'), { YARN_CACHE_FOLDER: '/c/yarn' });
  t.is(defaultInstallCache({ HOME: '/home/u' }, false), '/home/u/.cache/adversary-gate');
  t.is(defaultInstallCache({ HOME: '/home/u', XDG_CACHE_HOME: '/x' }, false), '/x/adversary-gate');
  t.is(
    defaultInstallCache({ HOME: '/root' }, true),
    '/var/cache/adversary-gate',
    'a folder the installs’ uids can enter',
  );
});

test('an install that met cached metadata older than its lock is told apart from other failures (npm, pnpm)', (t) => {
  // As npm 10 and pnpm print it when the cache's copy of a packument lacks the locked version.
  t.true(staleMetadata('npm error code ETARGET\nnpm error notarget No matching version found for tinyexec@1.5.0.\n'));
  t.true(staleMetadata(' ERR_PNPM_NO_MATCHING_VERSION  No matching version found for tinyexec@1.5.0\n'));
  t.false(staleMetadata('npm error code E404\nnpm error 404 Not Found - GET https://registry.example/nope\n'));
  t.false(staleMetadata('npm error code EINTEGRITY\n'));
  t.false(staleMetadata(''));
});
