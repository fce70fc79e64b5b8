/**
 * The adversarial vitest projects of the equality check: each holds state where a warm host
 * could carry it from one mutant to the next, or reads what a stale host would get wrong.
 * Each must get the fresh-process verdict on every mutant; `warm` says whether the warm
 * hosts may judge it (`false`: the configuration must send every mutant to a fresh process).
 * @module
 */

const APP_HEAD = "import { test } from 'vitest';\nimport assert from 'node:assert/strict';\n";

// A plugin in vitest's main process that counts the runs it serves and lets the tests see the
// count: one fresh run sees 1, a second run in the same main process would see 2.
const COUNTING_PLUGIN = `import { defineConfig } from 'vitest/config';
let runs = 0;
export default defineConfig({
  plugins: [{
    name: 'count-runs',
    configureServer() {},
    transform(code, id) {
      if (id.endsWith('lib.test.js')) return code.replace('__RUNS__', String(++runs));
      return null;
    },
  }],
  test: {},
});
`;

// A globalSetup whose state lives in the main process: a fresh run provides 1.
const GLOBAL_SETUP = `let setups = 0;
export default function ({ provide }) {
  setups += 1;
  provide('setups', setups);
}
`;

// An express-style app: a store in module memory, filled by one test and read by the next,
// reached through a helper module (a transitive import of the mutated file).
const APP = `const users = new Map();
let nextId = 1;
export function register(name) {
  if (!name || name.length < 2) return { status: 400 };
  const id = nextId++;
  users.set(id, { id, name });
  return { status: 201, id };
}
export function count() {
  return users.size;
}
export function find(id) {
  const user = users.get(id);
  return user === undefined ? { status: 404 } : { status: 200, user };
}
`;
const CLIENT = "import * as app from '../src/app.js';\nexport const client = { ...app };\n";

/**
 * The projects: name, files, whether the warm hosts may judge them. `lib` is the generated
 * library's ESM text; `vitest` the generated vitest project's `head` (the imports of a test
 * file of the library) and `it` (one test), both from equality.mjs.
 */
export function adversarialProjects(lib, { head, it }) {
  const libTests = (extra) =>
    head +
    it('prices', 'assert.equal(lib.price(2, 3), 6); assert.equal(lib.price(10, 1), 9);') +
    it('labels', "assert.equal(lib.label(20), 'big'); assert.equal(lib.label(12), 'small');") +
    extra;
  return [
    {
      name: 'vitest: a plugin that counts runs',
      warm: false,
      files: {
        'src/lib.js': lib,
        'vitest.config.mjs': COUNTING_PLUGIN,
        'test/lib.test.js': libTests(it('first run', 'assert.equal(__RUNS__, 1);')),
      },
    },
    {
      name: 'vitest: a stateful globalSetup',
      warm: false,
      files: {
        'src/lib.js': lib,
        'test/setup.js': GLOBAL_SETUP,
        'vitest.config.mjs':
          "import { defineConfig } from 'vitest/config';\nexport default defineConfig({ test: { globalSetup: ['test/setup.js'] } });\n",
        'test/lib.test.js': libTests(
          "import { inject } from 'vitest';\n" + it('one setup', "assert.equal(inject('setups'), 1);"),
        ),
      },
    },
    {
      name: 'vitest: an app holding state in memory',
      warm: true,
      files: {
        'src/app.js': APP,
        'test/client.js': CLIENT,
        'test/app.test.js':
          APP_HEAD +
          "import { client } from './client.js';\n" +
          it(
            'registers',
            "assert.deepEqual(client.register('ann'), { status: 201, id: 1 }); assert.equal(client.register('a').status, 400);",
          ) +
          it('remembers', "assert.equal(client.count(), 1); assert.equal(client.find(1).user.name, 'ann');") +
          it('misses', 'assert.equal(client.find(9).status, 404);'),
      },
    },
    {
      name: 'vitest: a test that reads the source file',
      warm: true,
      files: {
        'src/lib.js': lib,
        'test/lib.test.js': libTests(
          "import { readFileSync } from 'node:fs';\n" +
            it(
              'the bulk rule is as written',
              "assert.ok(readFileSync(new URL('../src/lib.js', import.meta.url), 'utf8').includes('qty >= 10'));",
            ),
        ),
      },
    },
  ];
}
