/** searchablePath: the PATH a fresh uid gets holds only the entries that uid can search. */
import test from 'ava';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  bwrapArgv,
  childEnv,
  freshIdentity,
  probeBwrap,
  runningAsRoot,
  runProcess,
  searchablePath,
} from '../src/index.js';

// Not under the test scratch folder: that one is 0700, and a fresh uid must reach these.
const root = mkdtempSync(path.join(os.tmpdir(), 'ag-search-path-'));
test.after.always(() => rmSync(root, { recursive: true, force: true }));
chmodSync(root, 0o755);

/** Make `rel` under the root, each new directory with `mode`. */
function dir(rel: string, mode = 0o755): string {
  const full = path.join(root, rel);
  mkdirSync(full, { recursive: true });
  chmodSync(full, mode);
  return full;
}

const locked = dir('locked', 0o700); // as /root is
const lockedBin = dir('locked/bin');
const tool = dir('locked/tool'); // a toolchain inside it, such as /root/.pyenv
const toolBin = dir('locked/tool/bin');
dir('locked/tool/private', 0o750);
const toolPrivateBin = dir('locked/tool/private/bin');
const openBin = dir('open/bin');
dir('open/group', 0o750); // the fresh uid is in no group
const groupOnlyBin = dir('open/group/bin');
const linkToLocked = path.join(root, 'open/via-link');
symlinkSync(lockedBin, linkToLocked);
const linkToOpen = path.join(root, 'open/via-open-link');
symlinkSync(openBin, linkToOpen);
const missing = path.join(root, 'open/absent/bin');

test('only the entries every directory of whose lookup has o+x stay, in order; relative, empty and absent ones stay', (t) => {
  const value = [
    lockedBin,
    openBin,
    'node_modules/.bin',
    '',
    missing,
    linkToLocked,
    groupOnlyBin,
    `${openBin}/`,
    linkToOpen,
    path.join(locked, 'absent'),
    toolBin,
    '/usr/bin',
    '/bin',
  ].join(':');
  t.is(
    searchablePath(value),
    [openBin, 'node_modules/.bin', '', missing, `${openBin}/`, linkToOpen, '/usr/bin', '/bin'].join(':'),
  );
  t.is(searchablePath(''), '');
});

test('in the sandbox the directories above a bound one are traversable, and what is not bound is absent', (t) => {
  const box = { readOnly: [tool], writable: [path.join(root, 'run')] };
  // The toolchain under the locked folder is reachable in the sandbox (bwrap makes its parents
  // 0755), not on the host; a 0750 folder inside it is not; an unbound folder is simply not there.
  const value = [toolBin, toolPrivateBin, openBin, lockedBin, '/usr/bin'].join(':');
  t.is(searchablePath(value, box), [toolBin, openBin, lockedBin, '/usr/bin'].join(':'));
  t.is(searchablePath(value), [openBin, '/usr/bin'].join(':'));
});

test('as a fresh uid, a program on no entry is "not found" (ENOENT), as for the caller, never "permission denied"', async (t) => {
  if (!runningAsRoot()) {
    t.pass('only root can switch to a fresh uid');
    return;
  }
  const run = async (argv: string[], pathValue: string) => {
    const user = freshIdentity();
    const env = { ...childEnv({ home: root }), PATH: pathValue };
    return runProcess({ argv, cwd: root, env, timeoutMs: 20_000, user, ownUid: user.uid });
  };
  const rootPath = `${lockedBin}:/usr/local/bin:/usr/bin:/bin`;
  // What root's PATH gave before: the unreadable entry turns "missing" into "permission denied".
  const before = await run(['/bin/sh', '-c', 'ag-no-such-program'], rootPath);
  t.regex(before.stderrTail, /Permission denied/);
  const after = await run(['/bin/sh', '-c', 'ag-no-such-program'], searchablePath(rootPath));
  t.regex(after.stderrTail, /not found/);
  t.is(after.exitCode, 127);
  const spawned = await run(['ag-no-such-program'], searchablePath(rootPath));
  t.regex(spawned.spawnError ?? '', /^ENOENT/);
  // A program on a kept entry still runs.
  const found = await run(['/bin/sh', '-c', 'command -v sh'], searchablePath(rootPath));
  t.is(found.exitCode, 0);
});

test('sandboxed as a fresh uid: the PATH it can search is set inside, while bwrap is found on the caller’s', async (t) => {
  if (!runningAsRoot() || !(await probeBwrap(childEnv({ home: root }), root)).ok) {
    t.pass('needs root and a working bwrap');
    return;
  }
  // bwrap itself sits in a folder only root can search, first on the caller's PATH.
  const hostOnly = dir('locked/tool/private/host-bin', 0o700);
  const marker = path.join(root, 'bwrap-used');
  const { writeFileSync } = await import('node:fs');
  writeFileSync(path.join(hostOnly, 'bwrap'), `#!/bin/sh\ntouch ${marker}\nexec /usr/bin/bwrap "$@"\n`, {
    mode: 0o755,
  });
  const work = dir('work', 0o777);
  const callerPath = `${hostOnly}:${toolPrivateBin}:${toolBin}:/usr/local/bin:/usr/bin:/bin`;
  const run = async (setenv: boolean) => {
    const user = freshIdentity();
    const box = { writable: [work], chdir: work, readOnly: [tool], user };
    const argv = bwrapArgv(['/bin/sh', '-c', 'ag-no-such-program; echo "PATH=$PATH"'], {
      ...box,
      ...(setenv ? { setenv: { PATH: searchablePath(callerPath, box) } } : {}),
    });
    const env = { ...childEnv({ home: work }), PATH: callerPath };
    return runProcess({ argv, cwd: work, env, timeoutMs: 20_000, statusFd: true, ownUid: user.uid });
  };
  const before = await run(false);
  t.regex(before.stderrTail, /Permission denied/, before.stderrTail);
  const after = await run(true);
  t.regex(after.stderrTail, /not found/, after.stderrTail);
  t.is(/^PATH=(.*)$/m.exec(after.stdoutTail)?.[1], `${toolBin}:/usr/local/bin:/usr/bin:/bin`);
  const { existsSync } = await import('node:fs');
  t.true(existsSync(marker), 'the caller’s bwrap was used');
});
