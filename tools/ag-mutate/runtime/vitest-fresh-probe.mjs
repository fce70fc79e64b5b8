// The fresh-state probe of a warm vitest host's reused fork: the first setup file of every
// test file, run after vitest's own runtime is in place and before any of the project's code.
//
// In a fork's first test file the state it sees is a fresh process's, by definition; it keeps
// a picture of it. In every later test file of that fork it takes the picture again and
// compares: the values of globalThis's properties, of every global constructor's and its
// prototype's properties, of every loaded built-in module's exports; process.env, the working
// directory, the exit code, process's listeners and the active handles but timers; and the modules
// loaded natively (require's cache, and node_modules packages vite-node left to Node), whose
// state no module reset can drop. Values are compared by identity. The answer is one JSON
// line appended to the file named by AG_FRESH_PROBE_LOG: {"pid", "file", "first"} or
// {"pid", "file", "differs": [what]}; the host reads it and judges a run on a reused fork only when
// every test file of the run saw a fresh process's state.
import fs from 'node:fs';
import { builtinModules, createRequire } from 'node:module';

const KEY = Symbol.for('adversary-gate.fresh-probe');
// vitest's runtime sets these anew for every test file: its worker state and mocker
// (`__vitest_worker__`, `__vitest_mocker__`, ...), expect's state and its per-file RPC
// listener on process; only their presence is compared.
const HARNESS = /^__vi|^Symbol\((?:\$\$jest-matchers-object|expect-global)\)$/;
const HARNESS_EVENTS = new Set(['message']);
// vitest numbers every test file's worker anew, fresh process or not.
const HARNESS_ENV = new Set(['VITEST_WORKER_ID', 'VITEST_POOL_ID']);
// vitest's own modules, kept warm by vitest itself in every fork.
const VITEST_OWN = [/\/vitest\/dist\//, /\/vite-node\/dist\//, /vitest-virtual-\w+\/dist/, /@vitest\//];

function own(picture, name, obj) {
  if (obj === null || (typeof obj !== 'object' && typeof obj !== 'function')) return;
  for (const k of Reflect.ownKeys(obj)) {
    if (k === KEY) continue;
    const at = `${name}.${String(k)}`;
    const d = Reflect.getOwnPropertyDescriptor(obj, k);
    if (d === undefined) continue;
    if ('value' in d) picture.set(at, d.value);
    else {
      picture.set(`${at}:get`, d.get);
      picture.set(`${at}:set`, d.set);
    }
  }
}

function take() {
  const picture = new Map();
  // Node defines many globals as getters that turn into plain values (and may define more
  // globals) when first read: read them all first, so that a global some code happened to
  // read does not look like a change.
  for (const k of Reflect.ownKeys(globalThis))
    try {
      void globalThis[k];
    } catch {
      // an unreadable global is pictured as such below
    }
  for (const k of Reflect.ownKeys(globalThis)) {
    if (HARNESS.test(String(k))) {
      picture.set(`globalThis.${String(k)}`, 'present');
      continue;
    }
    let value;
    try {
      value = globalThis[k];
    } catch {
      value = 'unreadable';
    }
    picture.set(`globalThis.${String(k)}`, value);
    if (typeof value === 'function') {
      own(picture, String(k), value);
      own(picture, `${String(k)}.prototype`, value.prototype);
    } else if (k === 'Math' || k === 'JSON' || k === 'Reflect' || k === 'Atomics' || k === 'Intl') {
      own(picture, String(k), value);
    }
  }
  own(
    picture,
    'Object.getPrototypeOf(function*(){})',
    Object.getPrototypeOf(function* () {}),
  );
  own(
    picture,
    'Object.getPrototypeOf(async function(){})',
    Object.getPrototypeOf(async function () {}),
  );
  const loaded = new Set(
    (process.moduleLoadList ?? []).filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13)),
  );
  for (const name of builtinModules)
    if (loaded.has(name) && typeof process.getBuiltinModule === 'function')
      own(picture, `node:${name}`, process.getBuiltinModule(name));
  for (const [k, v] of Object.entries(process.env)) picture.set(`process.env.${k}`, HARNESS_ENV.has(k) ? 'present' : v);
  picture.set('process.cwd()', process.cwd());
  picture.set('process.exitCode', process.exitCode);
  for (const event of process.eventNames())
    if (HARNESS_EVENTS.has(event)) picture.set(`process.listenerCount(${event})`, process.listenerCount(event));
    else process.listeners(event).forEach((f, i) => picture.set(`process.listeners(${String(event)})[${i}]`, f));
  // Timers are left out: vitest's own calls to its main process keep one pending at times.
  const handles = process.getActiveResourcesInfo().filter((r) => r !== 'Timeout' && r !== 'Immediate');
  picture.set('active handles', JSON.stringify(handles.sort()));
  const require = createRequire(import.meta.url);
  for (const file of Object.keys(require.cache))
    if (!VITEST_OWN.some((re) => re.test(file))) picture.set(`require.cache ${file}`, 'loaded');
  const cache = globalThis.__vitest_worker__?.moduleCache;
  if (cache === undefined) picture.set('vitest module cache', 'missing');
  else
    for (const id of cache.keys())
      if (id.includes('/node_modules/') && !VITEST_OWN.some((re) => re.test(id)))
        picture.set(`native module ${id}`, 'loaded');
  return picture;
}

function differences(before, now) {
  const out = [];
  for (const [k, v] of now) if (!before.has(k) || !Object.is(before.get(k), v)) out.push(k);
  for (const k of before.keys()) if (!now.has(k)) out.push(k);
  return out;
}

const log = process.env.AG_FRESH_PROBE_LOG;
const file = globalThis.__vitest_worker__?.filepath ?? null;
let answer;
try {
  const now = take();
  const before = process[KEY];
  if (before === undefined) {
    Object.defineProperty(process, KEY, { value: now, enumerable: false });
    answer = { pid: process.pid, file, first: true };
  } else {
    const differs = differences(before, now);
    answer =
      differs.length === 0
        ? { pid: process.pid, file, first: false }
        : { pid: process.pid, file, differs: differs.slice(0, 5) };
  }
} catch (error) {
  answer = { pid: process.pid, file, differs: [`the probe failed: ${String(error?.message ?? error).slice(0, 200)}`] };
}
if (log) fs.appendFileSync(log, `${JSON.stringify(answer)}\n`);
