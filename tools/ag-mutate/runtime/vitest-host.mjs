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
// argv: a JSON object {"filters": [...], "bail": N | null, "config": path | null}.
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { pathToFileURL } from 'node:url';

const out = fs.createWriteStream('', { fd: 3 });
const send = (record) => out.write(`${JSON.stringify(record)}\n`);
const fail = (message) => {
  send({ type: 'error', message: String(message).slice(0, 2000) });
  out.end(() => process.exit(3));
};

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

async function main() {
  const spec = JSON.parse(process.argv[2] ?? '{}');
  const { file, version } = vitestNodeEntry();
  const { createVitest } = await import(pathToFileURL(file).href);
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
  const selected = await vitest.globTestSpecifications(spec.filters ?? []);
  send({ type: 'ready', version, files: [...new Set(selected.map((s) => rel(s.moduleId)))].sort() });
  const lines = readline.createInterface({ input: process.stdin });
  for await (const line of lines) {
    const request = JSON.parse(line);
    const wanted = new Set(request.files);
    forgetModules(vitest);
    vitest.clearSpecificationsCache();
    const specs = (await vitest.globTestSpecifications(spec.filters ?? [])).filter((s) => wanted.has(rel(s.moduleId)));
    ended = null;
    const run = await vitest.runTestSpecifications(specs, true);
    if (ended === null) throw new Error('the run ended without a report');
    send({ type: 'result', id: request.id, ...describe({ ...ended, unhandled: run.unhandledErrors ?? [] }) });
  }
  await vitest.close();
  out.end(() => process.exit(0));
}

main().catch((error) => fail(error?.stack ?? error));
