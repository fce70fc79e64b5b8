// Honest commits the judgement must name, not punish (issue #18's cases, each through the
// whole pipeline): a flaky suite on a docs-only commit (in node:test, and in pytest with ids
// holding `/`, `%`, `*`, spaces and non-ASCII), a renamed test whose expectation was inverted
// by a deliberate fix. Each is a HOLD with its true reason, never a REJECT. Beside them honest
// controls that must ACCEPT: a test renamed with its body unchanged, a freeze list written as the
// verdict-file article writes it (`last_signature`), and a green suite that prints more than
// the output tail keeps.
import { chmodSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { AdversarialCase, CaseContext } from '../case.js';
import { ADD_TEST, DOUBLE_TEST, TOTAL_TEST, WITH_DOUBLE, cartTest, policy } from './snippets.js';

const CLEAN_FEATURE = { 'src/cart.js': WITH_DOUBLE, 'test/double.test.js': DOUBLE_TEST };

/**
 * A test file whose execution n (0, 1, 2… across every execution of the gate) fails `case n % 3`:
 * a counter of exclusive-create files in a host folder every uid may write, never timing.
 */
function flakyTest(ctx: CaseContext): string {
  const counter = path.join(ctx.hostDir, 'counter');
  chmodSync(ctx.hostDir, 0o755);
  mkdirSync(counter, { recursive: true });
  chmodSync(counter, 0o777);
  return `import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { test } from 'node:test';

let n = 0;
for (;; n++) {
  try {
    writeFileSync(${JSON.stringify(counter)} + '/' + n, '', { flag: 'wx', mode: 0o666 });
    break;
  } catch (e) {
    if (e.code !== 'EEXIST') throw e;
  }
}
for (const k of [0, 1, 2]) test('case ' + k, () => assert.notEqual(n % 3, k));
`;
}

const FREE = (rule: string) => `export function isFree(price) {\n  return ${rule};\n}\n`;
const freeTest = (title: string, negative: boolean) => `import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isFree } from '../src/free.js';

test('zero is free', () => {
  assert.equal(isFree(0), true);
  assert.equal(isFree(5), false);
});

test('${title}', () => {
  assert.equal(isFree(-1), ${negative});
});
`;

/** Printed by a passing test after its assertions: more than ag-run's and ag-mutate's output caps. */
const FLOOD = `test('prints a large report', () => {
  assert.equal(add(1, 1), 2);
  const line = 'x'.repeat(1023) + '\\n';
  for (let i = 0; i < 24 * 1024; i++) process.stdout.write(line);
});`;

/**
 * The same flaky suite in pytest, its test ids as runners write them: parameters with `/`,
 * `%`, `*`, spaces and non-ASCII, in a file whose name has a space and a `%`.
 */
function flakyOddIds(ctx: CaseContext): string {
  const counter = path.join(ctx.hostDir, 'counter');
  chmodSync(ctx.hostDir, 0o755);
  mkdirSync(counter, { recursive: true });
  chmodSync(counter, 0o777);
  return `import os

import pytest

n = 0
while True:
    try:
        os.close(os.open(os.path.join(${JSON.stringify(counter)}, str(n)), os.O_CREAT | os.O_EXCL, 0o666))
        break
    except FileExistsError:
        n += 1


@pytest.mark.parametrize("k, label", [(0, "a/b"), (1, "50% *off*"), (2, "ünï cödé ✓")])
def test_case(k, label):
    assert n % 3 != k, label
`;
}

export const JUDGED: readonly AdversarialCase[] = [
  {
    id: 'J1-flaky-docs',
    what: 'a README-only commit on a suite that fails a different test in every run: the flaky tests named, no regression',
    base: (ctx) => ({ 'test/flaky.test.js': flakyTest(ctx) }),
    patch: { 'README.md': '# The cart\n\nAdds prices.\n' },
    verdict: 'HOLD',
    code: 'TEST_FLAKY',
  },
  {
    id: 'J1-flaky-odd-ids-py',
    what: 'the flaky suite in pytest, its ids with /, %, *, spaces and non-ASCII: named flaky, never invalid evidence',
    project: 'py',
    base: (ctx) => ({ 'tests/odd ids 100%/test_odd.py': flakyOddIds(ctx) }),
    patch: { 'README.md': '# The shop\n\nAdds prices.\n' },
    verdict: 'HOLD',
    code: 'TEST_FLAKY',
    check: (_ctx, result) => {
      const reasons = result.verdict?.reasons ?? [];
      const flaky = reasons.find((r) => r.code === 'TEST_FLAKY')?.message ?? '';
      // which cases fail depends on how many executions ran; at least two of three do
      const named = (flaky.match(/tests\/odd ids 100%\/test_odd\.py::test_case\[\d-/g) ?? []).length;
      if (reasons.some((r) => r.code === 'EVIDENCE_INVALID')) return 'the odd ids made the evidence invalid';
      return named >= 2 ? null : `TEST_FLAKY names ${named} odd ids: ${flaky}`;
    },
  },
  {
    id: 'J2-renamed-test',
    what: 'a test renamed for clarity, its body unchanged: a rename, neither a lost test nor a HOLD (refactors.ts has its weakened twin)',
    control: true,
    patch: {
      'test/cart.test.js': cartTest(
        `${ADD_TEST.replace('add sums two numbers', 'add returns the sum')}\n\n${TOTAL_TEST}`,
      ),
    },
    verdict: 'ACCEPT',
    code: null,
  },
  {
    id: 'J3-renamed-inverted',
    what: 'a deliberate fix that renames a test and inverts its expectation (negative prices are no longer free)',
    base: { 'src/free.js': FREE('price <= 0'), 'test/free.test.js': freeTest('a negative price is free', true) },
    patch: { 'src/free.js': FREE('price === 0'), 'test/free.test.js': freeTest('a negative price is not free', false) },
    verdict: 'HOLD',
    code: 'TEST_RENAMED',
    also: ['TRUSTED_TEST_FAILED'],
  },
  {
    id: 'control-freeze-article',
    what: 'a freeze entry as the verdict-file article writes it (nodeid, expires, last_signature, covers) on a test the patch does not touch',
    control: true,
    base: {
      'adversary-gate.json': policy({ freeze: 'test/flake_freeze.json' }),
      'test/flake_freeze.json': `${JSON.stringify([
        {
          nodeid: 'test/cart.test.js::total sums a cart',
          expires: '2099-01-01',
          last_signature: 'AssertionError [ERR_ASSERTION]: Expected values to be strictly equal',
          covers: ['src/legacy/**'],
        },
      ])}\n`,
    },
    patch: CLEAN_FEATURE,
    verdict: 'ACCEPT',
    code: null,
  },
  {
    id: 'control-stdout-flood',
    what: 'a feature whose suite stays green while one test prints 24 MiB: the output is capped, never read as a failure',
    control: true,
    patch: { ...CLEAN_FEATURE, 'test/report.test.js': cartTest(FLOOD) },
    // The per-test report is a file, so the output is not the report: nothing may stop the run
    // for its size (a report read from stdout, TAP, is stopped at the cap: it could not be read whole).
    env: {
      AG_TEST_COMMAND:
        'node --test --test-reporter=spec --test-reporter-destination=stdout --test-reporter=junit --test-reporter-destination=.ag-junit.xml',
      AG_JUNIT: '.ag-junit.xml',
    },
    verdict: 'ACCEPT',
    code: null,
  },
];
