// What the demo's Python rows need: an interpreter that imports pytest and coverage (Debian's
// python3-pytest and python3-coverage under /usr/bin/python3, or AG_DEMO_PYTHON). On a fresh
// machine the demo installs them when it can (root with apt-get) and otherwise names, in one
// line, the command to run; it never starts a scenario it cannot finish.
import { spawnSync } from 'node:child_process';

export const PACKAGES = ['python3-pytest', 'python3-coverage'];
const INSTALL = `apt-get install -y ${PACKAGES.join(' ')}`;

/** Whether `python` imports pytest and coverage. */
export function importsPythonTools(python) {
  return spawnSync(python, ['-c', 'import pytest, coverage'], { stdio: 'ignore' }).status === 0;
}

/** Run a command with its output on our stderr (stdout is the demo's table); its exit status. */
function execToStderr(cmd, args) {
  const r = spawnSync(cmd, args, {
    stdio: ['ignore', 2, 2],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return r.status ?? 1;
}

/** The machine as ensurePythonTools sees it. */
export function probeHost() {
  return {
    isRoot: typeof process.getuid === 'function' && process.getuid() === 0,
    hasAptGet: spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0,
  };
}

/**
 * Make sure `python` can run the demo's Python rows. Returns null when it can (installing
 * Debian's packages first when root with apt-get, after `apt-get update` if the install
 * fails), or the one line to print when it cannot.
 */
export function ensurePythonTools({
  python,
  custom,
  isRoot,
  hasAptGet,
  imports = importsPythonTools,
  exec = execToStderr,
  log = (line) => console.error(line),
}) {
  if (imports(python)) return null;
  if (custom) {
    return `demo: ${python} (AG_DEMO_PYTHON) cannot import pytest and coverage: install both for it, or unset AG_DEMO_PYTHON to use /usr/bin/python3 with ${PACKAGES.join(' and ')}`;
  }
  if (!isRoot || !hasAptGet) {
    const sudo = isRoot ? '' : 'sudo ';
    return `demo: the Python scenarios need ${PACKAGES.join(' and ')} for ${python}: run \`${sudo}${INSTALL}\` (or set AG_DEMO_PYTHON to an interpreter that has pytest and coverage), then run the demo again`;
  }
  log(`demo: ${python} cannot import pytest and coverage: installing ${PACKAGES.join(' ')} with apt-get`);
  // Another apt-get at work holds dpkg's lock: wait for it rather than fail at once.
  const install = ['-o', 'DPkg::Lock::Timeout=300', 'install', '-y', '-qq', '--no-install-recommends', ...PACKAGES];
  if (exec('apt-get', install) !== 0) {
    log('demo: the install failed; apt-get update, then once more');
    if (exec('apt-get', ['update', '-qq']) === 0) exec('apt-get', install);
  }
  if (imports(python)) return null;
  return `demo: apt-get could not install ${PACKAGES.join(' and ')} for ${python}: run \`apt-get update && ${INSTALL}\`, then run the demo again`;
}
