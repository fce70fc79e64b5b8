/**
 * A small node:test project in a real git repository, baseline then patch, and the ag-gate
 * binary run in it as a user runs it.
 */
import { spawn } from 'node:child_process';
import { chmodSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { commitPair, tempDir, type Files } from '../../ag-core/test/support/git-repo.js';

export const BIN = fileURLToPath(new URL('../bin/ag-gate.js', import.meta.url));

const BASE: Files = {
  'package.json': JSON.stringify({ name: 'shop', private: true, type: 'module', scripts: { test: 'node --test' } }),
  'src/add.js': 'export const add = (a, b) => a + b;\n',
  'test/add.test.js':
    "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { add } from '../src/add.js';\ntest('add', () => assert.equal(add(2, 3), 5));\n",
};

/** The honest patch: a new function and the tests that pin it. */
export const HONEST: Files = {
  'src/mul.js': 'export const mul = (a, b) => a * b;\n',
  'test/mul.test.js':
    "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { mul } from '../src/mul.js';\ntest('mul', () => {\n  assert.equal(mul(2, 3), 6);\n  assert.equal(mul(-2, 3), -6);\n  assert.equal(mul(0, 5), 0);\n});\n",
};

/** A repository (others may enter it: the tests run as a fresh uid when root) with `patch` on top of the base. */
export function repository(patch: Files = HONEST, base: Files = {}): string {
  const dir = path.join(tempDir('ag-gate'), 'repo');
  commitPair(dir, { ...BASE, ...base }, patch);
  chmodSync(path.dirname(dir), 0o755);
  return dir;
}

/** How one run of the binary ended. */
export interface Ran {
  readonly code: number | null;
  readonly stderr: string;
  readonly stdout: string;
}

/** Run ag-gate with `args` in `cwd`. */
export function gate(cwd: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('close', (code) => resolve({ code, stderr, stdout }));
  });
}
