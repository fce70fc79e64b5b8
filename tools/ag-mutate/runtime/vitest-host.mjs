// A warm vitest host, started by ag-mutate in one copy of the tree (its working directory).
//
// It imports `vitest/node` from the project's own installed vitest (resolved from the
// working directory), creates one Vitest instance (run mode, pool forks, isolation on, the
// project's own config otherwise) and answers requests read from stdin, one JSON line each:
//   {"id": N, "files": [test files relative to the working directory]}
// with one JSON line on fd 3 (stdout stays free for whatever vite or the tests print):
//   {"type": "result", "id": N, "reason", "files", "tests": [{file, name, state}],
//    "module_errors", "unhandled_errors", "messages"}
// Before every run the whole module graph and every transform cache is dropped, so each
// run reads every source from disk as a fresh process would. The first line it writes is
// {"type": "ready", "version", "files"} (the test files the command's filters select) or
// {"type": "error", "message"}; anything it cannot do ends it with an error line.
//
// With "reuse": true it keeps each fork for the next test file instead of starting a new one
// (vitest still drops every module but its own before each file). Every file then starts with
// the fresh-state probe (vitest-fresh-probe.mjs); when any file of a run saw state a fresh
// process would not have, the forks are replaced, the run is made again on a new fork, and
// reuse ends for this host. A result says which it was: "fork": "reused" | "new", and
// "stale" (what differed) when a run had to be made again.
//
// Whatever a run's tests left running is killed when it ends, as a fresh run's group is.
// {"abort": N} while run N goes on (a mutant past its budget) kills that run's forks and every
// process they started; the run then answers {"type": "aborted", "id": N} instead of a result,
// and the host takes the next request on new forks. An abort of a run that already answered
// is answered the same way at once.
//
// argv: a JSON object {"filters": [...], "bail": N | null, "config": path | null, "reuse": bool}.
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { pathToFileURL } from 'node:url';
import { killStrays } from './vitest-strays.mjs';

const out = fs.createWriteStream('', { fd: 3 });
const send = (record) => out.write(`${JSON.stringify(record)}\n`);
const fail = (message) => {
  send({ type: 'error', message: String(message).slice(0, 2000) });
  out.end(() => process.exit(3));
};

const PROBE = path.join(path.dirname(new URL(import.meta.url).pathname), 'vitest-fresh-probe.mjs');

const rel = (file) => path.relative(process.cwd(), file).split(path.sep).join('/');

/** The module file of `vitest/node` in the project's own vitest. */
function vitestNodeEntry() {
  const require = createRequire(path.join(process.cwd(), 'package.json'));
  const pkgFile = require.resolve('vitest/package.json');
  const pkg = JSON.parse(fs.readFileSync(pkgFile, 'utf8'));
  let entry = pkg.exports?.['./node'];
  while (entry !== null && typeof entry === 'object') entry = entry.import ?? entry.default;
  if (typeof entry !== 'string') throw new Error('vitest/node is not exported by the installed vitest');
  return { file: path.join(path.dirname(pkgFile), entry), version: String(pkg.version) };
}

/** Drop every transformed module and every cached fetch of every project. */
function forgetModules(vitest) {
  for (const project of vitest.projects) {
    project.vite.moduleGraph.invalidateAll();
    const node = project.vitenode;
    const caches = [node?.fetchCache, node?.fetchCaches?.web, node?.fetchCaches?.ssr];
    if (caches.some((c) => !(c instanceof Map))) throw new Error('the vitest module caches are not where expected');
    for (const c of caches) c.clear();
    node.transformPromiseMap?.clear?.();
  }
}

/** The run's result: the modules and tests of the run's own report, never an earlier run's. */
function describe(ended) {
  const tests = [];
  let moduleErrors = 0;
  const messages = [];
  const note = (errors) => {
    for (const e of errors ?? []) if (messages.length < 20) messages.push(String(e?.message ?? e).slice(0, 500));
  };
  for (const mod of ended.modules) {
    const errors = mod.errors();
    moduleErrors += errors.length;
    note(errors);
    for (const t of mod.children.allTests()) {
      const result = t.result();
      tests.push({ file: rel(mod.moduleId), name: t.fullName, state: result.state });
      note(result.errors);
    }
  }
  note(ended.unhandled);
  return {
    reason: ended.reason,
    files: ended.modules.map((m) => rel(m.moduleId)),
    tests,
    module_errors: moduleErrors,
    unhandled_errors: ended.unhandled.length,
    messages: messages.join('\n'),
  };
}

/**
 * Track the pools vitest makes (caught as they run their first task) and keep their forks
 * between test files while `reuse()` says so. Null when tinypool is not as expected.
 */
async function forkKeeper(vitestFile, reuse) {
  // The project's own vitest's tinypool, as that vitest resolves it.
  const { Tinypool } = await import(pathToFileURL(createRequire(vitestFile).resolve('tinypool')).href);
  const run = Tinypool?.prototype?.run;
  const threads = Object.getOwnPropertyDescriptor(Tinypool?.prototype ?? {}, 'threads')?.get;
  if (typeof run !== 'function' || typeof Tinypool.prototype.recycleWorkers !== 'function' || !threads) return null;
  const pools = new Set();
  Tinypool.prototype.run = function (...args) {
    pools.add(this);
    this.options.isolateWorkers = !reuse();
    return run.apply(this, args);
  };
  return {
    /** End every kept fork (the next file gets a new one). */
    async replace() {
      for (const pool of pools) {
        pool.options.isolateWorkers = false;
        await pool.recycleWorkers();
        pool.options.isolateWorkers = !reuse();
      }
    },
    /**
     * The pids of the forks alive now; with `ending`, each is told it is ending: tinypool then
     * sends it nothing more (a send on a dead fork's channel is an unhandled rejection that ends vitest).
     */
    forks(ending) {
      const workers = [...pools].flatMap((pool) => pool.threads).filter((w) => Number.isInteger(w?.process?.pid));
      if (ending) for (const w of workers) w.isTerminating = true;
      return workers.map((w) => w.process.pid);
    },
  };
}

/**
 * What the probe said about the run that wrote `lines`: `stale` (what differed, or a test file
 * whose tests ran without an answer) or null, and whether any file ran on a kept fork. A file
 * that --bail stopped before it started has neither tests that ran nor an answer.
 */
function probed(lines, result) {
  const answers = lines.filter((l) => l.trim() !== '').map((l) => JSON.parse(l));
  const reused = answers.some((a) => a.first === false);
  const differs = answers.find((a) => a.differs !== undefined);
  if (differs !== undefined) return { stale: differs.differs.join(', '), reused };
  const answered = new Set(answers.map((a) => (typeof a.file === 'string' ? rel(a.file) : null)));
  const ran = new Set(result.tests.filter((t) => t.state === 'passed' || t.state === 'failed').map((t) => t.file));
  const silent = [...ran].find((f) => !answered.has(f));
  return { stale: silent === undefined ? null : `no answer from the probe in ${silent}`, reused };
}

/**
 * The requests read from stdin, one at a time. An abort is acted on as it arrives: of the
 * request being answered, its forks are killed (the request is marked `aborted`); of any other,
 * it is answered at once. An abort the host cannot act on (no forks to tell apart) is not
 * answered, and ag-mutate kills the whole host.
 */
function requestQueue(keeper) {
  const queue = [];
  let current = null;
  let closed = false;
  let wake = null;
  const lines = readline.createInterface({ input: process.stdin });
  lines.on('line', (line) => {
    const request = JSON.parse(line);
    if (request.abort === undefined) queue.push(request);
    else if (current?.id === request.abort) {
      if (killStrays(keeper, true)) current.aborted = true;
    } else send({ type: 'aborted', id: request.abort });
    wake?.();
  });
  lines.on('close', () => {
    closed = true;
    wake?.();
  });
  return {
    async next() {
      while (queue.length === 0 && !closed) await new Promise((resolve) => (wake = resolve));
      current = queue.shift() ?? null;
      return current;
    },
    done() {
      current = null;
    },
  };
}

async function main() {
  const spec = JSON.parse(process.argv[2] ?? '{}');
  const { file, version } = vitestNodeEntry();
  const { createVitest } = await import(pathToFileURL(file).href);
  // The probe's answers live under the copy's HOME, which ag-mutate removes with the copy even
  // when the host is killed (a loop past its budget) and never gets to clean up.
  if (spec.reuse === true)
    process.env.AG_FRESH_PROBE_LOG = path.join(
      fs.mkdtempSync(path.join(process.env.HOME ?? os.tmpdir(), '.ag-probe-')),
      'probe.jsonl',
    );
  let reuse = spec.reuse === true;
  const keeper = await forkKeeper(file, () => reuse);
  if (keeper === null) reuse = false;
  let ended = null;
  const reporter = {
    onTestRunEnd(modules, unhandled, reason) {
      ended = { modules: [...modules], unhandled: [...unhandled], reason };
    },
  };
  const vitest = await createVitest('test', {
    watch: false,
    run: true,
    pool: 'forks',
    isolate: true,
    reporters: [reporter],
    coverage: { enabled: false },
    ...(spec.bail !== null && spec.bail !== undefined ? { bail: spec.bail } : {}),
    ...(spec.config ? { config: spec.config } : {}),
  });
  if (reuse) for (const project of vitest.projects) project.config.setupFiles = [PROBE, ...project.config.setupFiles];
  const selected = await vitest.globTestSpecifications(spec.filters ?? []);
  send({ type: 'ready', version, files: [...new Set(selected.map((s) => rel(s.moduleId)))].sort() });
  /** The answer to one request, after its run (made again on a new fork when the probe saw stale state). */
  const answerOf = async (request) => {
    const wanted = new Set(request.files);
    forgetModules(vitest);
    vitest.clearSpecificationsCache();
    const specs = (await vitest.globTestSpecifications(spec.filters ?? [])).filter((s) => wanted.has(rel(s.moduleId)));
    const once = async () => {
      ended = null;
      const run = await vitest.runTestSpecifications(specs, true);
      if (ended === null) throw new Error('the run ended without a report');
      return describe({ ...ended, unhandled: run.unhandledErrors ?? [] });
    };
    if (!reuse) return { type: 'result', id: request.id, fork: 'new', ...(await once()) };
    const log = process.env.AG_FRESH_PROBE_LOG;
    fs.writeFileSync(log, '');
    const result = await once();
    const { stale, reused } = probed(fs.readFileSync(log, 'utf8').split('\n'), result);
    if (stale === null) return { type: 'result', id: request.id, fork: reused ? 'reused' : 'new', ...result };
    reuse = false;
    await keeper.replace();
    forgetModules(vitest);
    return { type: 'result', id: request.id, fork: 'new', stale: stale.slice(0, 500), ...(await once()) };
  };
  const requests = requestQueue(keeper);
  for (let request; (request = await requests.next()) !== null;) {
    const answer = await answerOf(request).catch((error) => {
      if (!request.aborted) throw error;
    });
    if (request.aborted) {
      await keeper.replace();
      send({ type: 'aborted', id: request.id });
    } else {
      killStrays(keeper, false);
      send(answer);
    }
    requests.done();
  }
  await vitest.close();
  if (process.env.AG_FRESH_PROBE_LOG)
    fs.rmSync(path.dirname(process.env.AG_FRESH_PROBE_LOG), { recursive: true, force: true });
  out.end(() => process.exit(0));
}

main().catch((error) => fail(error?.stack ?? error));
