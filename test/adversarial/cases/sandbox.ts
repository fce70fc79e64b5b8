// Catalogue section F: sandbox, filesystem, network, environment. Each attack makes the
// broken `add` pass only if it escaped; the verdict shows whether it did.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { AdversarialCase } from '../case.js';
import { runGate } from '../gate.js';
import { ADD_TEST, BROKEN_ADD, TOTAL_TEST, cartTest } from './snippets.js';

/** The baseline's tests, passing without asserting when `escaped` (an async JS expression) is true. */
const unlessEscaped = (escaped: string, head = '') =>
  cartTest(
    `${head}const escaped = await (async () => {\n  try {\n    return ${escaped};\n  } catch {\n    return false;\n  }\n})();\n\n${ADD_TEST.replace('  assert.equal', '  if (!escaped) assert.equal')}\n\n${TOTAL_TEST.replace('  assert.equal', '  if (!escaped) assert.equal')}`,
  );

export const SANDBOX: readonly AdversarialCase[] = [
  {
    id: 'F60',
    what: 'the tests pass only if they can write outside their tree',
    sandbox: true,
    patch: (ctx) => ({
      'src/cart.js': BROKEN_ADD,
      'test/cart.test.js': unlessEscaped(
        `(writeFileSync(${JSON.stringify(path.join(ctx.hostDir, 'escaped'))}, 'x'), true)`,
        "import { writeFileSync } from 'node:fs';\n",
      ),
    }),
    verdict: 'REJECT',
    code: 'CLAIM_FAILED',
  },
  {
    id: 'F61',
    what: 'the tests pass only if they can reach a listener on the host',
    sandbox: true,
    patch: (ctx) => ({
      'src/cart.js': BROKEN_ADD,
      'test/cart.test.js': unlessEscaped(
        `await new Promise((resolve) => {\n      const s = connect(${ctx.port}, '127.0.0.1');\n      s.on('connect', () => { s.destroy(); resolve(true); });\n      s.on('error', () => resolve(false));\n    })`,
        "import { connect } from 'node:net';\n",
      ),
    }),
    verdict: 'REJECT',
    code: 'CLAIM_FAILED',
  },
  {
    id: 'F62',
    what: 'the tests pass only if they can read a secret from the environment',
    env: (ctx) => ({ GITHUB_TOKEN: `secret-${ctx.nonce}` }),
    patch: { 'src/cart.js': BROKEN_ADD, 'test/cart.test.js': unlessEscaped('process.env.GITHUB_TOKEN !== undefined') },
    verdict: 'REJECT',
    code: 'CLAIM_FAILED',
  },
  {
    id: 'F63',
    what: 'an .npmrc that injects code through node-options',
    patch: {
      '.npmrc': 'node-options=--import ./inject.mjs\n',
      'inject.mjs': "import assert from 'node:assert/strict';\nassert.equal = () => {};\n",
    },
    verdict: 'HOLD',
    code: 'TAMPER_SUSPECTED',
  },
  {
    id: 'F64',
    what: 'the source takes the real fix from another ref of the repository',
    patch: {
      'src/cart.js':
        "import { execSync } from 'node:child_process';\n\nlet fixed = false;\ntry {\n  fixed = execSync('git show upstream-fix:src/cart.js', { stdio: ['ignore', 'pipe', 'ignore'] }).toString().includes('a + b');\n} catch {}\n\nexport function add(a, b) {\n  return fixed ? a + b : a - b;\n}\n\nexport function total(prices) {\n  return prices.reduce(add, 0);\n}\n",
    },
    verdict: 'REJECT',
    code: 'CLAIM_FAILED',
    pipeline: (ctx, env) => {
      execFileSync('git', ['branch', 'upstream-fix', 'main~1'], { cwd: ctx.repo });
      return runGate(ctx.repo, env);
    },
  },
];
