/**
 * What the recording baseline run adds to its environment, and what is read back from it:
 * V8 coverage of every Node process (plus, for node --test, which test file each process
 * belongs to) and, for pytest, the plugin's per-test line trace.
 * @module
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ExecOptions } from './execute.js';
import { nodeTestMap, pytestMap, type TestMap } from './test-map.js';
import { readV8Coverage, type CoverageMap } from './v8-coverage.js';
import type { Workspace } from './workspace.js';

/** Preloaded into the baseline's Node processes to attribute each one to its test file. */
export const NODE_PRELOAD = fileURLToPath(new URL('../../runtime/record-entry.cjs', import.meta.url));
/** The folder holding the pytest plugin module `ag_mutate_pytest`. */
export const PYTEST_PLUGIN_DIR = fileURLToPath(new URL('../../python/pytest-plugin', import.meta.url));

/** What the recording run records and how to read it back. */
export interface Instrumented {
  /** Variables added to the recording run. */
  readonly env: Readonly<Record<string, string>>;
  /** Block coverage of the JavaScript files (empty when nothing was recorded). */
  v8(): CoverageMap;
  /** Which tests execute each site; null when the runner cannot select or nothing was recorded. */
  map(): TestMap | null;
  /** The same with nothing recorded (the recording run was not used). */
  discard(): Instrumented;
}

/** A caller variable passed through with `--pass-env`, if any. */
function passed(passEnv: readonly string[], name: string): string | undefined {
  return passEnv.includes(name) ? process.env[name] : undefined;
}

/** The variables that load the pytest plugin (on top of what the caller passes). */
export function pytestPluginEnv(passEnv: readonly string[]): Record<string, string> {
  const addopts = passed(passEnv, 'PYTEST_ADDOPTS');
  const pythonPath = passed(passEnv, 'PYTHONPATH');
  return {
    PYTEST_ADDOPTS: `${addopts ? `${addopts} ` : ''}-p ag_mutate_pytest`,
    PYTHONPATH: pythonPath ? `${PYTEST_PLUGIN_DIR}${path.delimiter}${pythonPath}` : PYTEST_PLUGIN_DIR,
  };
}

const NOTHING: Instrumented = { env: {}, v8: () => new Map(), map: () => null, discard: () => NOTHING };

/** The recording for copy 0 of `ws`, given the runner and the changed files. */
export function instrumentation(ws: Workspace, opts: ExecOptions): Instrumented {
  const root = ws.copies[0]!.root;
  const env: Record<string, string> = {};
  const js = opts.coverFiles ?? new Set<string>();
  const py = opts.pythonFiles ?? new Set<string>();
  const coverDir = path.join(ws.data, 'v8-coverage');
  const nodeTest = opts.runner?.nodeTestPrefix != null && js.size > 0;
  const pytest = opts.runner?.name === 'pytest' && py.size > 0;
  if (js.size > 0) env.NODE_V8_COVERAGE = coverDir;
  let entryDir = '';
  if (nodeTest) {
    entryDir = ws.scratch('entries');
    const prior = passed(opts.passEnv, 'NODE_OPTIONS');
    env.NODE_OPTIONS = `${prior ? `${prior} ` : ''}--require ${JSON.stringify(NODE_PRELOAD)}`;
    env.AG_MUTATE_ENTRY_DIR = entryDir;
  }
  let traceDir = '';
  if (pytest) {
    traceDir = ws.scratch('trace');
    Object.assign(env, pytestPluginEnv(opts.passEnv));
    env.AG_MUTATE_TRACE_DIR = traceDir;
    env.AG_MUTATE_TRACE_FILES = JSON.stringify([...py].map((f) => path.join(root, f)));
  }
  if (Object.keys(env).length === 0) return NOTHING;
  return {
    env,
    v8: () => (js.size > 0 ? readV8Coverage(coverDir, root, js) : new Map()),
    map: () => (nodeTest ? nodeTestMap(coverDir, entryDir, root, js) : pytest ? pytestMap(traceDir, root) : null),
    discard: () => NOTHING,
  };
}
