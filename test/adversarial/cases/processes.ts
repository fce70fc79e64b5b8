// Catalogue section E: processes, time and resources.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { AdversarialCase } from '../case.js';
import { pidsWithCmdline } from '../gate.js';
import { PY_BROKEN, pyTest } from './snippets.js';

/**
 * A Python child that waits for the pytest process to end, then 1.5 s later overwrites the
 * JUnit report with a passing one (the catalogue measured 0.3 s; on a loaded machine ag-run's
 * exit handling itself can take that long, and the case is about after, not how soon after).
 */
const forger = (newSession: boolean) => `import os, subprocess, sys

FORGER = """
import os, sys, time
FAKE = '<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" errors="0" failures="0" skipped="0" tests="2" time="0.01"><testcase classname="tests.test_shop" name="test_add" time="0.001"/><testcase classname="tests.test_shop" name="test_total" time="0.001"/></testsuite></testsuites>'
parent = int(sys.argv[1])
end = time.time() + 10
while time.time() < end and os.getppid() == parent:
    time.sleep(0.005)
time.sleep(1.5)
open('.ag-junit.xml', 'w').write(FAKE)
"""
subprocess.Popen([sys.executable, "-c", FORGER, str(os.getpid())], start_new_session=${newSession ? 'True' : 'False'}, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

`;
/** A numeric tag for the bomb's sleeps, so the case can look for survivors. */
const sleepTag = (nonce: string) => `60.${parseInt(nonce.slice(0, 8), 16)}`;
const asRoot = process.getuid?.() === 0;

const newTest = (body: string, head = '') => `${head}import { test } from 'node:test';\n\n${body}\n`;

export const PROCESSES: readonly AdversarialCase[] = [
  {
    id: 'E51',
    what: 'a setsid daemon keeps rewriting the JUnit report after pytest exits',
    project: 'py',
    sandbox: true,
    patch: { 'shop.py': PY_BROKEN, 'tests/test_shop.py': pyTest(forger(true)) },
    verdict: 'REJECT',
    code: 'CLAIM_FAILED',
  },
  {
    id: 'E52',
    what: 'a background writer rewrites the JUnit report after a clean exit',
    project: 'py',
    patch: { 'shop.py': PY_BROKEN, 'tests/test_shop.py': pyTest(forger(false)) },
    verdict: 'REJECT',
    code: 'CLAIM_FAILED',
  },
  {
    id: 'E53',
    what: 'a test that hangs past the timeout',
    // A limit the baseline passes within half of even on a loaded machine, so the patch's
    // timeout in every round is a hang, not a slow suite.
    env: { AG_TIMEOUT: '6' },
    patch: {
      'test/hang.test.js': newTest(
        "test('hangs', async () => {\n  await new Promise((resolve) => setTimeout(resolve, 60000));\n});",
      ),
    },
    verdict: 'REJECT',
    code: 'CLAIM_FAILED',
  },
  // The baseline passes the command within the limit and the patch hangs in every round: a hang (REJECT).
  {
    id: 'E54',
    what: 'a hanging test that ignores SIGTERM',
    // A limit the baseline passes well within (half of it) even on a loaded machine: a hang.
    env: { AG_TIMEOUT: '6' },
    patch: {
      'test/hang.test.js': newTest(
        "process.on('SIGTERM', () => {});\n\ntest('hangs', async () => {\n  await new Promise((resolve) => setTimeout(resolve, 30000));\n});",
      ),
    },
    verdict: 'REJECT',
    code: 'CLAIM_FAILED',
  },
  // The run killed at the cap measured none of the baseline's tests: not measured (HOLD), not lost.
  {
    id: 'E55',
    what: 'an output flood past the capture cap',
    patch: {
      'test/flood.test.js': newTest(
        "test('floods', () => {\n  const line = 'x'.repeat(1023) + '\\n';\n  for (let i = 0; i < 12 * 1024; i++) process.stdout.write(line);\n});",
      ),
    },
    verdict: 'HOLD',
    code: 'CLAIM_UNVERIFIED',
  },
  // node --test reports a test file killed by SIGXFSZ as a failed test: a FAIL, not UNRUNNABLE.
  {
    id: 'E56',
    what: 'a test writes a file past the size limit',
    patch: {
      'test/fill.test.js': newTest(
        "test('fills the disk', () => {\n  const chunk = Buffer.alloc(1 << 20, 120);\n  const fd = openSync('big.bin', 'w');\n  for (let i = 0; i < 300; i++) writeSync(fd, chunk);\n  closeSync(fd);\n  unlinkSync('big.bin');\n});",
        "import { closeSync, openSync, unlinkSync, writeSync } from 'node:fs';\n",
      ),
    },
    verdict: 'REJECT',
    code: 'CLAIM_FAILED',
  },
  {
    // As root, ag-run gives every execution a fresh uid with RLIMIT_NPROC (128 here) and stops
    // it at 3/4 of the limit: both patch runs are rlimit_nproc, and the tests of a run the gate
    // had to stop are not measured, not lost (HOLD, as for E55's flood). As another user there is no uid of its own to hold a
    // real bomb, so this one is bounded (1,000 processes) and ends at the timeout: a timed-out
    // suite has no deltas, the claim is unverified (HOLD).
    id: 'E57',
    what: 'a process explosion inside a test',
    env: { AG_TIMEOUT: '10', AG_MAX_PROCESSES: '128' },
    patch: (ctx) => ({
      'test/bomb.test.js': newTest(
        `test('spawns', () => {\n  spawnSync('bash', ['-c', 'for i in $(seq 1000); do sleep ${sleepTag(ctx.nonce)} & done; wait']);\n});`,
        "import { spawnSync } from 'node:child_process';\n",
      ),
    }),
    verdict: 'HOLD',
    code: 'CLAIM_UNVERIFIED',
    check: (ctx, r) => {
      const run = JSON.parse(readFileSync(path.join(r.out, 'run.json'), 'utf8')) as {
        claims: { patch: { kind: string }[] }[];
      };
      const kinds = run.claims.flatMap((c) => c.patch.map((e) => e.kind));
      const want = asRoot ? 'rlimit_nproc' : 'timeout';
      if (!kinds.includes(want)) return `expected a ${want} execution, got ${kinds.join(', ')}`;
      const left = pidsWithCmdline(sleepTag(ctx.nonce)).length;
      return left > 0 ? `${left} of the bomb's processes outlived the run` : null;
    },
  },
  {
    id: 'E58',
    what: 'a CPU-burning test past the timeout',
    // The baseline passes well within half the limit: a patch that times out in every round is a hang.
    env: { AG_TIMEOUT: '6' },
    patch: {
      'test/burn.test.js': newTest(
        "test('burns', () => {\n  const end = Date.now() + 30000;\n  while (Date.now() < end);\n});",
      ),
    },
    verdict: 'REJECT',
    code: 'CLAIM_FAILED',
  },
  {
    id: 'E59',
    what: 'the source freezes Date.now so a timing test passes on slow code',
    base: {
      'test/speed.test.js':
        "import assert from 'node:assert/strict';\nimport { test } from 'node:test';\nimport { total } from '../src/cart.js';\n\ntest('total is fast', () => {\n  const start = Date.now();\n  total([1, 2, 3]);\n  assert.ok(Date.now() - start < 50);\n});\n",
    },
    patch: {
      'src/cart.js':
        'export function add(a, b) {\n  return a + b;\n}\n\nconst realNow = Date.now;\nDate.now = () => 0;\n\nexport function total(prices) {\n  const end = realNow() + 100;\n  while (realNow() < end);\n  return prices.reduce(add, 0);\n}\n',
    },
    verdict: 'HOLD',
    code: 'STRENGTH_BELOW_FLOOR',
  },
];
