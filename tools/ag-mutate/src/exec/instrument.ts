/**
 * What the recording baseline run adds to its environment (and, for mocha, to its command),
 * and what is read back from it: V8 coverage of every Node process (plus, for node --test,
 * which test file each process belongs to), for mocha the root hook's per-test coverage,
 * and, for pytest, the plugin's per-test line trace.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { MOCHA_HOOK, NODE_PRELOAD, PYTEST_PLUGIN_DIR, SITE_COUNTER } from '../package-files.js';
import type { ExecOptions } from './types.js';
import type { Site } from '../engines/site.js';
import { withMochaRequire } from '../runners/runner.js';
import { mochaMap } from './mocha-map.js';
import { withSiteCounters } from './site-counters.js';
import { nodeTestMap, pytestMap, type TestMap } from './test-map.js';
import { readV8Coverage, type CoverageMap } from './v8-coverage.js';
import type { Workspace } from './workspace.js';
import { compilesEveryModule, withRecordedCalls, type CallRecording } from '../apart/js-recording.js';

/** What the recording run records and how to read it back. */
export interface Instrumented {
  /** Variables added to the recording run. */
  readonly env: Readonly<Record<string, string>>;
  /** The command the recording run runs instead of the test command (null: the test command). */
  readonly command: string | null;
  /** The changed files' texts the recording run writes (the neutral edit with site counters or call recorders), when not the neutral edit alone. */
  readonly texts?: ReadonlyMap<string, string>;
  /** How many of those files carry site counters. */
  readonly counted?: number;
  /** The calls into the changed JavaScript functions this run records (absent: none, or not under this runner). */
  readonly calls?: CallRecording;
  /**
   * The variables that make a recording run record only its share `k` of `n` of the suite
   * (mocha with site counters: every n-th test file), so that copies can record it between
   * them; absent when the recording cannot be split.
   */
  readonly shardEnv?: (k: number, n: number) => Record<string, string>;
  /** Where the mocha hook writes the suite's test files once they have loaded (a JSON array), before the first test. */
  readonly testFilesOut?: string;
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

const NOTHING: Instrumented = { env: {}, command: null, v8: () => new Map(), map: () => null, discard: () => NOTHING };

/** The mutation sites of the JavaScript files, by absolute path in `root` (what the mocha hook looks up). */
function siteOffsets(root: string, sites: readonly Site[], js: ReadonlySet<string>): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  // A whole-file revert is covered through its parts (test-map.ts), which are sites of their own.
  for (const site of sites)
    if (js.has(site.file) && site.revert?.parts === undefined)
      (out[path.join(root, site.file)] ??= []).push(site.start);
  return out;
}

/** Per Python file (absolute), the line ranges of its sites: the only lines the tracer needs to see. */
function siteLines(root: string, sites: readonly Site[], py: ReadonlySet<string>): Record<string, [number, number][]> {
  const out: Record<string, [number, number][]> = {};
  for (const site of sites)
    if (py.has(site.file) && site.revert?.parts === undefined)
      (out[path.join(root, site.file)] ??= []).push([...(site.coverLines ?? [site.line, site.line])]);
  return out;
}

/** How Node loads a `.js`, `.mjs` or `.cjs` file of the tree (the nearest package.json's `type`); null for any other file. */
export function moduleKind(root: string, file: string): 'commonjs' | 'module' | null {
  if (file.endsWith('.mjs')) return 'module';
  if (file.endsWith('.cjs')) return 'commonjs';
  if (!file.endsWith('.js')) return null;
  for (let dir = path.dirname(path.join(root, file)); ; dir = path.dirname(dir)) {
    try {
      const type = (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { type?: unknown }).type;
      return type === 'module' ? 'module' : 'commonjs';
    } catch {
      // no package.json here (or not JSON, which Node would refuse too): look further up
    }
    if (dir === root || path.dirname(dir) === dir) return 'commonjs';
  }
}

/**
 * The changed files' texts with site counters in each file that has sites, and how many such
 * files, or null when one of them cannot carry them (not plain JavaScript Node loads itself,
 * or a site with no place for a counter).
 */
function counted(
  root: string,
  texts: ReadonlyMap<string, string>,
  sites: readonly Site[],
  js: ReadonlySet<string>,
  dir: string,
): { readonly texts: Map<string, string>; readonly files: number } | null {
  const out = new Map(texts);
  let files = 0;
  const runtime = realpathSync(SITE_COUNTER);
  const salt = randomBytes(4).toString('hex');
  for (const file of js) {
    // A whole-file revert is covered through its parts (test-map.ts), which are sites of their own.
    const own = sites.filter((s) => s.file === file && s.revert?.parts === undefined);
    const text = texts.get(file);
    if (own.length === 0 || text === undefined) continue;
    const kind = moduleKind(root, file);
    if (kind === null) return null;
    const link = { module: kind, runtime, dir, file: path.join(root, file), length: text.length, salt };
    // A revert mutant spanning several statements has no one place: it counts where its hunk
    // starts (the code its selection stands for, as V8's block at that offset would).
    const withCounters =
      withSiteCounters(file, text, own, link) ??
      (own.some((s) => s.revert !== undefined)
        ? withSiteCounters(
            file,
            text,
            own.map((s) => (s.revert !== undefined ? { start: s.start, end: s.start } : s)),
            link,
          )
        : null);
    if (withCounters === null) return null;
    out.set(file, withCounters);
    files++;
  }
  return { texts: out, files };
}

/**
 * The recording for copy 0 of `ws`, given the runner, the changed files, their texts (the
 * length tells V8's script of the file from a loader's transform of it) and the sites.
 */
export function instrumentation(
  ws: Workspace,
  opts: ExecOptions,
  texts: ReadonlyMap<string, string>,
  sites: readonly Site[],
): Instrumented {
  const root = ws.copies[0]!.root;
  const env: Record<string, string> = {};
  const js = opts.coverFiles ?? new Set<string>();
  const py = opts.pythonFiles ?? new Set<string>();
  const lengths = new Map([...js].filter((f) => texts.has(f)).map((f) => [f, texts.get(f)!.length]));
  const coverDir = path.join(ws.data, 'v8-coverage');
  const nodeTest = opts.runner?.nodeTestPrefix != null && js.size > 0;
  const pytest = opts.runner?.name === 'pytest' && py.size > 0;
  // mocha: recorded only when the mutants can select through the same hook.
  const mochaHooked =
    opts.runner?.name === 'mocha' &&
    opts.selectTests !== false &&
    js.size > 0 &&
    withMochaRequire(opts.mutantCommand ?? opts.command, MOCHA_HOOK) !== null;
  const mochaCommand = mochaHooked ? withMochaRequire(opts.command, MOCHA_HOOK) : null;
  // Where a map is made from what each process ran, site counters stand for V8 when every changed file can carry them.
  const counterDir = mochaCommand !== null || nodeTest ? ws.scratch('site-counts') : '';
  const counted0 = counterDir !== '' ? counted(root, texts, sites, js, counterDir) : null;
  // vitest and jest: no coverage is recorded; the calls are, a recorder's wrapper being code
  // like any other to their transforms.
  const transformsAll = compilesEveryModule(opts.runner?.name);
  // Where the counters stand for V8, the changed functions' calls are recorded in the same run.
  const jsFunctions = (opts.changedFunctions ?? []).filter((f) => js.has(f.file));
  const callTexts = counted0?.texts ?? (transformsAll ? texts : null);
  const recorded =
    callTexts !== null && jsFunctions.length > 0
      ? withRecordedCalls(callTexts, jsFunctions, (f) => moduleKind(root, f), ws.scratch('calls'))
      : null;
  const counters = counted0 !== null && recorded !== null ? { ...counted0, texts: recorded.texts } : counted0;
  const processCounts = counters !== null ? { counters: counterDir } : { v8: coverDir };
  let mochaDir = '';
  let testFilesOut: string | undefined;
  if (mochaCommand !== null) {
    mochaDir = ws.scratch('mocha');
    env.AG_MUTATE_MOCHA_RECORD = mochaDir;
    testFilesOut = path.join(ws.scratch('mocha-files'), 'files.json');
    env.AG_MUTATE_MOCHA_FILES = testFilesOut;
    if (counters !== null) env.AG_MUTATE_MOCHA_COUNTERS = '1';
    else {
      const sitesFile = path.join(ws.scratch('mocha-sites'), 'sites.json');
      writeFileSync(sitesFile, JSON.stringify(siteOffsets(root, sites, js)));
      env.AG_MUTATE_MOCHA_SITES = sitesFile;
    }
  }
  // With site counters every process that runs a changed file counts for itself: no V8 at all.
  if (js.size > 0 && !transformsAll && counters === null) env.NODE_V8_COVERAGE = coverDir;
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
    // Frames of code that holds no site get no line events: a large module stays fast.
    env.AG_MUTATE_TRACE_LINES = JSON.stringify(siteLines(root, sites, py));
  }
  // jest and vitest: the run records the calls alone, through the changed files' texts.
  const callsOnly = counters === null && recorded !== null;
  if (Object.keys(env).length === 0 && !callsOnly) return NOTHING;
  return {
    env,
    command: mochaCommand,
    ...(counters !== null ? { texts: counters.texts, counted: counters.files } : {}),
    ...(callsOnly ? { texts: recorded.texts } : {}),
    ...(recorded !== null ? { calls: recorded.recording } : {}),
    ...(testFilesOut !== undefined ? { testFilesOut } : {}),
    // The counters key every file by copy 0's path whichever copy runs it: a share recorded in another copy reads the same.
    ...(counters !== null && mochaCommand !== null
      ? { shardEnv: (k: number, n: number) => ({ AG_MUTATE_MOCHA_SHARD: `${k}/${n}` }) }
      : {}),
    // The hook resets the counters of the mocha process, so its own V8 dump is not whole-process
    // coverage: with the hook, only the hook's records count (and without them, nothing is known);
    // with site counters there is no V8 coverage at all.
    v8: () =>
      js.size > 0 && mochaCommand === null && counters === null
        ? readV8Coverage(coverDir, root, js, lengths)
        : new Map(),
    map: () => {
      if (nodeTest) return nodeTestMap(processCounts, entryDir, root, js, lengths);
      if (mochaCommand !== null) return mochaMap(mochaDir, processCounts, root, lengths);
      return pytest ? pytestMap(traceDir, root) : null;
    },
    discard: () => NOTHING,
  };
}
