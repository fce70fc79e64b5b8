/**
 * The files ag-mutate ships beside its code, found from the package folder (the same whether
 * the code runs from src/, from tsc's dist/ or from the bundle).
 * @module
 */
import path from 'node:path';
import { packageDir } from '@adversary-gate/core';

/** The package folder (readable inside the sandbox: the preload and the plugins live there). */
export const PACKAGE_ROOT = packageDir(import.meta.url);
/** Preloaded into the baseline's Node processes to attribute each one to its test file. */
export const NODE_PRELOAD = path.join(PACKAGE_ROOT, 'runtime/record-entry.cjs');
/** The mocha root hook plugin: records per-test coverage in the baseline, selects tests in a mutant run. */
export const MOCHA_HOOK = path.join(PACKAGE_ROOT, 'runtime/mocha-hook.cjs');
/** The site counters' runtime: the changed files of a recording run load it (src/exec/site-counters.ts). */
export const SITE_COUNTER = path.join(PACKAGE_ROOT, 'runtime/site-counter.cjs');
/** The folder holding the pytest plugin module `ag_mutate_pytest`. */
export const PYTEST_PLUGIN_DIR = path.join(PACKAGE_ROOT, 'python/pytest-plugin');
/** The helper that lists Python mutation sites with the interpreter's own `ast`. */
export const PYTHON_HELPER = path.join(PACKAGE_ROOT, 'python/sites.py');
/** The helper that finds Python equality hooks (`__eq__`) and writes their probes (src/equality/py-hooks.ts). */
export const EQ_PROBE_HELPER = path.join(PACKAGE_ROOT, 'python/eq_probes.py');
/** The warm vitest host: one Vitest instance answering run requests in a copy of the tree. */
export const VITEST_HOST = path.join(PACKAGE_ROOT, 'runtime/vitest-host.mjs');
/** The call recorder's runtime: the changed JavaScript functions of a recording run hand their calls to it. */
export const CALL_RECORDER = path.join(PACKAGE_ROOT, 'runtime/call-recorder.cjs');
/** The JavaScript judge: calls the recorded calls again in fresh Node processes that are no test runner. */
export const JS_JUDGE = path.join(PACKAGE_ROOT, 'runtime/js-judge.cjs');
