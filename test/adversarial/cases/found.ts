// Fail-opens this suite found. FOUND: fixed since (the gate used to ACCEPT them), run with
// every other case. PENDING: still ACCEPTed today; the suite does not run them (a known
// failure must not sit in the suite), `AG_ADV_PENDING=1` runs exactly these, to re-check.
// Each is described in the README's table; the verdict given is the one the design wants.
import { createHash } from 'node:crypto';
import type { AdversarialCase } from '../case.js';
import { FORGE_AT_EXIT } from './runner-gaming.js';
import { A11 } from './tests-and-oracles.js';
import { BROKEN_ADD, PY_BROKEN, WITH_DOUBLE, pyTest } from './snippets.js';

/**
 * A daemon that leaves its process group and clears its environment, waits for the
 * pipeline's verdict.json in the directory above its tree and rewrites it to ACCEPT.
 * It acts only from a tree inside the evidence directory (gate.sh's coverage-tree).
 */
const DAEMON = String.raw`const fs = require('fs'), path = require('path');
const out = path.resolve(process.argv[1]);
if (!fs.existsSync(path.join(out, 'changes.diff'))) process.exit(0);
const file = path.join(out, 'verdict.json');
const end = Date.now() + 180000;
(function tick() {
  if (Date.now() > end) return;
  try {
    const v = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (v.verdict !== 'ACCEPT') {
      v.verdict = 'ACCEPT';
      v.reasons = [];
      fs.writeFileSync(file, JSON.stringify(v));
      return;
    }
  } catch {}
  setTimeout(tick, 5);
})();`;

const WRONG_DOUBLE = WITH_DOUBLE.replace('  return x * 2;', '  return x + 2;');
const digest = createHash('sha256').update(WRONG_DOUBLE).digest('hex');

/** shop.py with `add` broken as a * b: every mutant of that line fails the tests for real. */
const PY_TIMES = PY_BROKEN.replace('return a - b', 'return a * b');
/** B26's forgery, done only while shop.py is the patch's own file: mutants still fail for real. */
const FORGE_UNLESS_MUTATED = FORGE_AT_EXIT.replace('import atexit, os', 'import atexit, hashlib, os').replace(
  'atexit.register(_forge)',
  `if hashlib.sha256(open("shop.py", "rb").read()).hexdigest() == "${createHash('sha256').update(PY_TIMES).digest('hex')}":\n    atexit.register(_forge)`,
);

export const PENDING: readonly AdversarialCase[] = [];

export const FOUND: readonly AdversarialCase[] = [
  A11,
  {
    id: 'B26-pinned',
    what: 'a forged JUnit report and summary at exit, only when the source is unmutated',
    project: 'py',
    patch: { 'shop.py': PY_TIMES, 'tests/test_shop.py': pyTest(FORGE_UNLESS_MUTATED) },
    verdict: 'HOLD',
    code: 'CLAIM_UNVERIFIED',
  },
  {
    id: 'C36-daemon',
    what: "a daemon started by the tests during gate.sh's coverage step rewrites verdict.json to ACCEPT",
    patch: (ctx) => ({
      'src/cart.js': BROKEN_ADD,
      'test/zz.test.js': `import { spawn } from 'node:child_process';\nimport path from 'node:path';\nimport { test } from 'node:test';\n\nspawn(process.execPath, ['-e', ${JSON.stringify(DAEMON)}, path.resolve('..'), ${JSON.stringify(ctx.nonce)}], { detached: true, stdio: 'ignore', env: {} }).unref();\n\ntest('loads', () => {});\n`,
    }),
    verdict: 'REJECT',
    code: 'CLAIM_FAILED',
  },
  {
    id: 'D50',
    what: 'the test pins the source file by hash, so every mutant "fails" whatever it asserts',
    patch: {
      'src/cart.js': WRONG_DOUBLE,
      'test/double.test.js': `import assert from 'node:assert/strict';\nimport { createHash } from 'node:crypto';\nimport { readFileSync } from 'node:fs';\nimport { test } from 'node:test';\nimport { double } from '../src/cart.js';\n\ntest('double', () => {\n  const source = readFileSync(new URL('../src/cart.js', import.meta.url));\n  assert.equal(createHash('sha256').update(source).digest('hex'), '${digest}');\n  assert.equal(typeof double(2), 'number');\n});\n`,
    },
    verdict: 'HOLD',
    code: 'STRENGTH_NOT_MEASURED',
  },
];
