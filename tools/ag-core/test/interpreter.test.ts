/** Naming the Python interpreter a test command runs: the word, the lookup, the version, the sentence. */
import test from 'ava';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findOnPath, interpreterSentence, pythonInterpreter, pythonOf } from '../src/index.js';

/** A folder with an executable `python3` that says `Python <version>`. */
function fakePython(t: import('ava').ExecutionContext, version: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ag-core-python-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(path.join(dir, 'bin'));
  const file = path.join(dir, 'bin', 'python3');
  writeFileSync(file, `#!/bin/sh\necho 'Python ${version}'\n`);
  chmodSync(file, 0o755);
  return path.join(dir, 'bin');
}

test('the first word that names a Python interpreter, wherever the command puts it', (t) => {
  t.is(pythonOf(`python3 -c 'import pytest; sys.exit(pytest.main())' -p no:cacheprovider`), 'python3');
  t.is(pythonOf('cd pkg && python3.12 -m pytest'), 'python3.12');
  t.is(pythonOf('PYTHONHASHSEED=0 /usr/bin/env python -m pytest'), 'python');
  t.is(pythonOf('/opt/py/bin/python3.12 -m pytest'), '/opt/py/bin/python3.12');
  t.is(pythonOf('pytest -q'), null);
  t.is(pythonOf('node --test'), null);
  t.is(pythonOf('python3-config --help'), null);
});

test('found on the PATH as the shell finds it; a relative or empty entry first leaves it unnamed', (t) => {
  const a = fakePython(t, '3.12.1');
  const b = fakePython(t, '3.11.2');
  t.is(findOnPath('python3', { path: `${a}:${b}` }), path.join(a, 'python3'));
  t.is(findOnPath('python3', { path: `/nonexistent:${b}:${a}` }), path.join(b, 'python3'));
  // The working directory of a run is a copy of a tree the patch controls: never looked into.
  t.is(findOnPath('python3', { path: `:${a}` }), null);
  t.is(findOnPath('python3', { path: `bin:${a}` }), null);
  t.is(findOnPath('python3', { path: `${a}:bin` }), path.join(a, 'python3'));
  // What the run cannot see is not what it runs.
  t.is(findOnPath('python3', { path: `${a}:${b}`, visible: (f) => !f.startsWith(a) }), path.join(b, 'python3'));
  t.is(findOnPath(path.join(a, 'python3'), { path: '' }), path.join(a, 'python3'));
  t.is(findOnPath('./python3', { path: a }), null);
  t.is(findOnPath('python3', { path: '/nonexistent' }), null);
});

test('the runs’ interpreter beside the caller’s, with versions, and one plain sentence', (t) => {
  const mine = fakePython(t, '3.12.1');
  const system = fakePython(t, '3.11.2');
  const f = pythonInterpreter('python3 -m pytest', { path: system }, { path: `${mine}:${system}` })!;
  t.deepEqual(f, {
    command: 'python3 -m pytest',
    name: 'python3',
    path: path.join(system, 'python3'),
    version: '3.11.2',
    caller_path: path.join(mine, 'python3'),
    caller_version: '3.12.1',
  });
  t.is(
    interpreterSentence(f, true),
    `python3 for the tests is ${system}/python3 (Python 3.11.2): NOT the python3 the caller's PATH gives; the caller's PATH gives ${mine}/python3 (Python 3.12.1) (each run is a fresh uid, given only the PATH entries it can search)`,
  );
  const same = pythonInterpreter('python3 -m pytest', { path: system }, { path: system })!;
  t.is(
    interpreterSentence(same, true),
    `python3 for the tests is ${system}/python3 (Python 3.11.2), the python3 the caller's PATH gives`,
  );
  const none = pythonInterpreter('python3 -m pytest', { path: '/nonexistent' }, { path: system })!;
  t.is(
    interpreterSentence(none, false),
    `which python3 runs the tests could not be told (none found, or a relative or empty PATH entry comes first); the caller's PATH gives ${system}/python3 (Python 3.11.2)`,
  );
  t.is(pythonInterpreter('node --test', { path: system }, { path: system }), null);
});
