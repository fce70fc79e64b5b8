// The package cache kept between runs: the first run fills it, a second run installs from it
// alone (npm ci --offline), and the same offline install from an empty cache fails, named.
import test from 'ava';
import { chmodSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildRepo, judge, why } from './kit.js';
import { AVA } from './projects.js';

const OFFLINE = 'npm ci --offline --ignore-scripts --no-audit --no-fund';

test.serial('a second run installs from the cache the first one filled, offline; an empty cache cannot', async (t) => {
  const repo = buildRepo(t, AVA);
  const cache = mkdtempSync(path.join(tmpdir(), 'ag-runner-install-cache-'));
  const empty = mkdtempSync(path.join(tmpdir(), 'ag-runner-install-cache-'));
  // As root the installs run as fresh uids: the cache folders must be theirs to enter.
  chmodSync(cache, 0o755);
  chmodSync(empty, 0o755);
  t.teardown(() => {
    rmSync(cache, { recursive: true, force: true });
    rmSync(empty, { recursive: true, force: true });
  });
  const first = await judge(t, repo, repo.honest, '', { AG_INSTALL_CACHE: cache });
  t.is(first.verdict.verdict, 'ACCEPT', why(first));
  t.true(existsSync(path.join(cache, 'npm', '_cacache')), 'the install wrote the cache');
  if (process.getuid?.() === 0)
    t.is(statSync(path.join(cache, 'npm')).uid, 0, 'the cache is root’s again after the install');

  const second = await judge(t, repo, repo.honest, '', { AG_INSTALL_CACHE: cache, AG_INSTALL_COMMAND: OFFLINE });
  t.is(second.verdict.verdict, 'ACCEPT', why(second));

  const cold = await judge(t, repo, repo.honest, '', { AG_INSTALL_CACHE: empty, AG_INSTALL_COMMAND: OFFLINE });
  t.is(cold.verdict.verdict, 'HOLD', why(cold));
  t.true(
    cold.verdict.reasons.some((r) => r.code === 'PIPELINE_FAULT' && /the install of the baseline/.test(r.message)),
    why(cold),
  );
});
