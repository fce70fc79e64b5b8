// The demo on a fresh machine: its Python rows need pytest and coverage. As root with apt-get
// it installs Debian's packages (after apt-get update when the install fails); otherwise it
// prints one line naming the command and exits non-zero before any scenario runs.
import test from 'ava';
import path from 'node:path';
import { ensurePythonTools } from '../../pipelines/demo/python.mjs';
import { ROOT, run } from './helpers.js';

const INSTALL = [
  '-o',
  'DPkg::Lock::Timeout=300',
  'install',
  '-y',
  '-qq',
  '--no-install-recommends',
  'python3-pytest',
  'python3-coverage',
];

/** A machine where `installed` says whether the packages are in, and apt-get's answers are scripted. */
function host(answers: { install?: number[]; update?: number }) {
  const calls: string[][] = [];
  const lines: string[] = [];
  let installed = false;
  const installs = [...(answers.install ?? [])];
  const exec = (cmd: string, args: readonly string[]) => {
    calls.push([cmd, ...args]);
    if (args.includes('update')) return answers.update ?? 0;
    const status = installs.shift() ?? 1;
    if (status === 0) installed = true;
    return status;
  };
  return { calls, lines, exec, imports: () => installed, log: (line: string) => lines.push(line) };
}

test('an interpreter that has both: nothing to do, nothing run', (t) => {
  const h = host({});
  t.is(
    ensurePythonTools({
      python: '/usr/bin/python3',
      custom: false,
      isRoot: true,
      hasAptGet: true,
      exec: h.exec,
      imports: () => true,
    }),
    null,
  );
  t.deepEqual(h.calls, []);
});

test('as root with apt-get: installs python3-pytest and python3-coverage', (t) => {
  const h = host({ install: [0] });
  t.is(ensurePythonTools({ python: '/usr/bin/python3', custom: false, isRoot: true, hasAptGet: true, ...h }), null);
  t.deepEqual(h.calls, [['apt-get', ...INSTALL]]);
  t.regex(h.lines.join('\n'), /installing python3-pytest python3-coverage/);
});

test('as root with apt-get and no package lists: apt-get update, then the install again', (t) => {
  const h = host({ install: [100, 0] });
  t.is(ensurePythonTools({ python: '/usr/bin/python3', custom: false, isRoot: true, hasAptGet: true, ...h }), null);
  t.deepEqual(h.calls, [
    ['apt-get', ...INSTALL],
    ['apt-get', 'update', '-qq'],
    ['apt-get', ...INSTALL],
  ]);
});

test('as root when apt-get cannot install: one line naming the commands, no success claimed', (t) => {
  const h = host({ install: [100, 100] });
  const line = ensurePythonTools({ python: '/usr/bin/python3', custom: false, isRoot: true, hasAptGet: true, ...h });
  t.is(
    line,
    'demo: apt-get could not install python3-pytest and python3-coverage for /usr/bin/python3: run `apt-get update && apt-get install -y python3-pytest python3-coverage`, then run the demo again',
  );
  t.is(h.calls.length, 3);
});

test('not root: nothing installed, one line naming the sudo command', (t) => {
  const h = host({ install: [0] });
  const line = ensurePythonTools({ python: '/usr/bin/python3', custom: false, isRoot: false, hasAptGet: true, ...h });
  t.regex(
    line ?? '',
    /^demo: the Python scenarios need python3-pytest and python3-coverage for \/usr\/bin\/python3: run `sudo apt-get install -y python3-pytest python3-coverage`/,
  );
  t.false(line?.includes('\n'));
  t.deepEqual(h.calls, []);
});

test('root without apt-get: nothing run, the line names the command without sudo', (t) => {
  const h = host({ install: [0] });
  const line = ensurePythonTools({ python: '/usr/bin/python3', custom: false, isRoot: true, hasAptGet: false, ...h });
  t.regex(line ?? '', /run `apt-get install -y python3-pytest python3-coverage`/);
  t.deepEqual(h.calls, []);
});

test('an interpreter the caller chose (AG_DEMO_PYTHON) is never "fixed" with apt-get', (t) => {
  const h = host({ install: [0] });
  const line = ensurePythonTools({ python: '/opt/py/bin/python', custom: true, isRoot: true, hasAptGet: true, ...h });
  t.regex(line ?? '', /^demo: \/opt\/py\/bin\/python \(AG_DEMO_PYTHON\) cannot import pytest and coverage/);
  t.deepEqual(h.calls, []);
});

test('the demo itself: an interpreter without pytest is one line on stderr and exit 1, before any scenario', async (t) => {
  const r = await run(process.execPath, [path.join(ROOT, 'pipelines/demo/run-demo.mjs')], ROOT, {
    AG_DEMO_PYTHON: path.join(ROOT, 'no such python'),
  });
  t.is(r.code, 1, r.stderr);
  t.is(r.stdout, '', 'no table: nothing ran');
  t.deepEqual(r.stderr.trim().split('\n'), [
    `demo: ${path.join(ROOT, 'no such python')} (AG_DEMO_PYTHON) cannot import pytest and coverage: install both for it, or unset AG_DEMO_PYTHON to use /usr/bin/python3 with python3-pytest and python3-coverage`,
  ]);
});
