import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { configDoubt, vitestCommandPlan, vitestHostPlan } from '../src/warm/vitest-eligible.js';

test('a plain `vitest run` command gives its filters, bail count and config', (t) => {
  t.deepEqual(vitestCommandPlan('node_modules/.bin/vitest run src/index.spec.ts --bail=1'), {
    plan: { filters: ['src/index.spec.ts'], bail: 1, config: null },
  });
  t.deepEqual(vitestCommandPlan('npx vitest run --config vitest.ci.mts --bail 2'), {
    plan: { filters: [], bail: 2, config: 'vitest.ci.mts' },
  });
});

test('any other command has no plan', (t) => {
  for (const command of [
    'vitest',
    'vitest watch',
    'npx jest',
    'vitest run --pool=vmThreads',
    'vitest run --no-isolate',
    'vitest run --bail=x',
    'vitest run && echo done',
    'VAR=1 vitest run',
  ])
    t.true('reason' in vitestCommandPlan(command), command);
});

test('a config the host cannot vouch for is a reason to run fresh processes', (t) => {
  const doubtful = [
    "import { defineConfig } from 'vitest/config';\nexport default defineConfig({ plugins: [] });",
    'export default { test: { globalSetup: "./setup.js" } };',
    'export default { test: { setupFiles: ["./setup.js"] } };',
    'export default { test: { isolate: false } };',
    "export default { test: { pool: 'vmThreads' } };",
    'export default { test: { poolOptions: { forks: { singleFork: true } } } };',
    'export default { test: { onConsoleLog: (log) => false } };',
    'export default { test: { sequence: { setupFiles: function () {} } } };',
    "import react from '@vitejs/plugin-react';\nexport default {};",
    "import './side-effect.js';\nexport default {};",
    "export default { test: { projects: ['a'] } };",
    'export default import("./other.js");',
  ];
  for (const text of doubtful) t.not(configDoubt(text), null, text);
});

test('a plain config with only static values is vouched for', (t) => {
  t.is(
    configDoubt(
      '/// <reference types="vitest" />\nimport { defineConfig } from "vite";\nexport default defineConfig({ test: { pool: "forks", coverage: { include: ["src/**/*"] } } });\n',
    ),
    null,
  );
});

test('a workspace file next to the config is a reason to run fresh processes; no config at all is fine', (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ag-mutate-eligible-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  t.true('plan' in vitestHostPlan(dir, 'vitest run'));
  writeFileSync(path.join(dir, 'vite.config.ts'), 'export default { test: { globalSetup: "g.ts" } };');
  t.deepEqual(vitestHostPlan(dir, 'vitest run'), { reason: 'the vitest config has globalSetup' });
  writeFileSync(path.join(dir, 'vitest.config.mjs'), 'export default {};');
  t.true('plan' in vitestHostPlan(dir, 'vitest run'), 'vitest.config.* is read before vite.config.*');
  writeFileSync(path.join(dir, 'vitest.workspace.ts'), 'export default [];');
  t.true('reason' in vitestHostPlan(dir, 'vitest run'));
});
