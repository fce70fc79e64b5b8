/**
 * The Python interpreter that ran the tests is named where the user looks: detected.txt, the
 * run evidence, the verdict's notes (verdict.json, verdict.md, the closing lines), and said
 * plainly when it is not the `python3` the caller's PATH gives. The caller's PATH starts with a
 * stub `python3` (a script that execs /usr/bin/python3): in a folder other users cannot enter,
 * a fresh uid (ag-gate as root) cannot run it and runs the next `python3` on the PATH instead.
 */
import test from 'ava';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { commitPair, removeTempDirs, tempDir } from '../../ag-core/test/support/git-repo.js';
import { gate } from './project.js';

const BASE = {
  'src/calc.py': 'def add(a, b):\n    return a + b\n',
  'tests/test_calc.py': 'from src.calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n',
};
const PATCH = {
  'src/calc.py': 'def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n',
  'tests/test_mul.py':
    'from src.calc import mul\n\n\ndef test_mul():\n    assert mul(2, 3) == 6\n    assert mul(-2, 3) == -6\n    assert mul(0, 5) == 0\n    assert mul(1, 7) == 7\n',
};

const root = process.getuid?.() === 0;

test.after.always(() => removeTempDirs());

/** A repository others may enter, and a stub python3 in `bin` under a folder of mode `mode`. */
function setup(mode: number): { repo: string; stub: string } {
  const dir = tempDir('ag-gate-python');
  chmodSync(dir, 0o755);
  const repo = path.join(dir, 'repo');
  commitPair(repo, BASE, PATCH);
  const folder = path.join(dir, 'tools');
  mkdirSync(path.join(folder, 'bin'), { recursive: true });
  const stub = path.join(folder, 'bin', 'python3');
  writeFileSync(stub, '#!/bin/sh\nexec /usr/bin/python3 "$@"\n');
  chmodSync(stub, 0o755);
  chmodSync(path.join(folder, 'bin'), 0o755);
  chmodSync(folder, mode);
  return { repo, stub };
}

type Verdict = { verdict: string; reasons: { code: string; message: string }[]; notes?: string[] };
type Run = {
  interpreters?: {
    name: string;
    path: string | null;
    version: string | null;
    caller_path: string | null;
    caller_version: string | null;
  }[];
};

async function judged(mode: number) {
  const { repo, stub } = setup(mode);
  const PATH = `${path.dirname(stub)}:${process.env.PATH ?? '/usr/bin:/bin'}`;
  const r = await gate(repo, ['--base', 'main~1', '--out', 'ag', '--rounds', '1', '--mutate-max', '4'], { PATH });
  const read = (f: string) => readFileSync(path.join(repo, 'ag', f), 'utf8');
  return {
    r,
    stub,
    detected: read('detected.txt'),
    run: JSON.parse(read('run.json')) as Run,
    verdict: JSON.parse(read('verdict.json')) as Verdict,
    markdown: read('verdict.md'),
  };
}

const VERSION = /^3\.\d+\.\d+/;

test('a python3 the runs cannot reach is named: the one that ran, and that it is not the caller’s', async (t) => {
  const { r, stub, detected, run, verdict, markdown } = await judged(0o700);
  const [i] = run.interpreters ?? [];
  t.is(run.interpreters?.length, 1, JSON.stringify(run.interpreters));
  t.is(i!.name, 'python3');
  t.is(i!.caller_path, stub, 'the caller’s PATH gives the stub');
  t.regex(i!.version ?? '', VERSION);
  if (root) {
    // A fresh uid cannot enter the stub's folder: another python3 ran, named with its version.
    t.not(i!.path, stub);
    t.true(path.isAbsolute(i!.path ?? ''), String(i!.path));
  } else t.is(i!.path, stub, 'as the caller, the runs find what the caller finds');
  const sentence = root
    ? `python3 for the tests is ${i!.path} (Python ${i!.version}): NOT the python3 the caller's PATH gives; the caller's PATH gives ${stub} (Python ${i!.caller_version}) (each run is a fresh uid, given only the PATH entries it can search)`
    : `python3 for the tests is ${stub} (Python ${i!.version}), the python3 the caller's PATH gives`;
  t.true(detected.includes(`  interpreter: ${sentence}\n`), detected);
  t.deepEqual(verdict.notes, [`run: ${sentence}`]);
  t.true(markdown.includes(`**Notes:**\n\n- run: ${sentence}`), markdown);
  t.true(r.stderr.includes(`note: run: ${sentence}`), r.stderr);
  // A note, never a reason: the verdict is the patch's.
  t.is(verdict.verdict, 'ACCEPT', JSON.stringify(verdict.reasons));
  t.is(r.code, 0);
});

test('a python3 the runs reach is the one that ran, and the caller’s: said so', async (t) => {
  const { stub, detected, run, verdict } = await judged(0o755);
  const [i] = run.interpreters ?? [];
  t.is(i!.path, stub);
  t.is(i!.caller_path, stub);
  const sentence = `python3 for the tests is ${stub} (Python ${i!.version}), the python3 the caller's PATH gives`;
  t.regex(i!.version ?? '', VERSION);
  t.true(detected.includes(`  interpreter: ${sentence}\n`), detected);
  t.deepEqual(verdict.notes, [`run: ${sentence}`]);
});
