import test from 'ava';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { judgeBoth } from './kit.js';
import { PYTEST } from './projects.js';

/** The first python3 with pytest and coverage: the one on PATH, else Debian's (python3-pytest, python3-coverage). */
function pythonWithPytest(): string | null {
  for (const python of ['python3', '/usr/bin/python3']) {
    const r = spawnSync(python, ['-c', 'import pytest, coverage, sys; print(sys.executable)'], { encoding: 'utf8' });
    if (r.status === 0) return r.stdout.trim();
  }
  return null;
}

test.serial('pytest: the honest patch is ACCEPTed with per-file ids, the bad one is not', async (t) => {
  const python = pythonWithPytest();
  if (python === null) {
    t.fail('no python3 with pytest and coverage (install python3-pytest and python3-coverage)');
    return;
  }
  // The machine's python3 is that one: the gate runs `python3` from PATH, as a user's shell would.
  const bin = mkdtempSync(path.join(tmpdir(), 'ag-runner-python-'));
  t.teardown(() => rmSync(bin, { recursive: true, force: true }));
  symlinkSync(python, path.join(bin, 'python3'));
  const { honest } = await judgeBoth(t, PYTEST, {
    ids: ['tests/test_a.py::test_adds', 'tests/test_b.py::test_adds'],
    fileOf: (id) => /^tests\/test_[ab]\.py::test_/.test(id),
    pathPrefix: bin,
  });
  t.regex(honest.detected, /runner pytest/);
});
