'use strict';
// A mocha root hook plugin (`--require` of this file), loaded by ag-mutate only.
//
// Recording (AG_MUTATE_MOCHA_RECORD set, the baseline): the site counters the changed files
// carry (AG_MUTATE_MOCHA_COUNTERS set; runtime/site-counter.cjs), else V8 precise block
// coverage through an inspector session in the test process. The counts are taken (and so
// reset) whenever the unit changes: the unit is the test, or the test file when the suite has
// more than PER_TEST_MAX tests (each V8 snapshot costs about 7-11 ms however little ran).
// With AG_MUTATE_MOCHA_FILES set, the test files that hold tests are written there (a JSON
// array) once every file has loaded, before the first test runs.
// With AG_MUTATE_MOCHA_SHARD=k/n the process runs only the tests of every n-th test file from
// the k-th: n processes, each in its own copy, record the suite between them. What ran
// since the previous snapshot is credited to the unit that just ended (its tests and their
// hooks) and, when a suite boundary lay in between (before/after hooks ran), also to the
// unit that starts; what ran before the first test (loading the files, root and first
// before hooks) to no unit. Only the mutation sites listed in AG_MUTATE_MOCHA_SITES
// ({absolute file: [offsets]}) are looked up; at exit one JSON record per process is written.
//
// Selecting (AG_MUTATE_SELECT set, a mutant run): the root suite is pruned to the tests listed
// there (JSON array of ids, likely killers first), suites are ordered by their first listed
// test, every suite bails at the first failure, and the failing test's id is written to
// AG_MUTATE_FAILED; the id of every test that ran is appended to AG_MUTATE_RAN (JSON lines),
// so that a kill can be confirmed with the same tests up to the failing one. A listed id
// that no test has keeps the whole suite (never a narrower run).
//
// AG_MUTATE_MOCHA_SKIP (a JSON array of files relative to the working directory), with a
// selection: mocha does not load those files at all (the mocha that runs is found among the
// loaded modules; none found, or nothing left to load, and every file loads).
//
// A test's id is `<file relative to the working directory>::<full title>`.
const fs = require('node:fs');
const path = require('node:path');

const fileOf = (test) => (test.file ? path.relative(process.cwd(), test.file).split(path.sep).join('/') : '');
const idOf = (test) => `${fileOf(test)}::${test.fullTitle()}`;

const PER_TEST_MAX = 200;

/** The root suite, from a hook's context. */
function rootOf(ctx) {
  let suite = ctx.test && ctx.test.parent;
  while (suite && suite.parent) suite = suite.parent;
  return suite || null;
}

function countTests(suite) {
  return suite.tests.length + suite.suites.reduce((n, s) => n + countTests(s), 0);
}

/** What ran since the previous look, from V8's precise coverage of this process: file → site offsets. */
function v8Counts(record) {
  const { Session } = require('node:inspector');
  const { pathToFileURL } = require('node:url');
  const wanted = JSON.parse(fs.readFileSync(process.env.AG_MUTATE_MOCHA_SITES, 'utf8'));
  const byUrl = new Map(Object.entries(wanted).map(([file, offsets]) => [pathToFileURL(file).href, { file, offsets }]));
  const session = new Session();
  session.connect();
  const post = (method, params) => {
    let out;
    let failure;
    session.post(method, params, (error, result) => {
      failure = error;
      out = result;
    });
    if (failure) throw failure;
    return out;
  };
  // NODE_V8_COVERAGE is set for the processes the tests start; this process's own dump at exit
  // would be of counters the snapshots keep resetting, never read, and costly to write (V8
  // gathers every script's functions): stopped here (a no-op when it never started), the
  // session below keeps the counting on.
  require('node:v8').stopCoverage();
  post('Profiler.enable');
  post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
  const innermostRan = (ranges, offset) => {
    let best = null;
    for (const r of ranges)
      if (
        r.startOffset <= offset &&
        offset < r.endOffset &&
        (best === null || r.endOffset - r.startOffset <= best.endOffset - best.startOffset)
      )
        best = r;
    return best !== null && best.count > 0;
  };
  return () => {
    const ran = {};
    for (const script of post('Profiler.takePreciseCoverage').result) {
      const site = byUrl.get(script.url);
      if (site === undefined) continue;
      const ranges = script.functions.flatMap((f) => f.ranges);
      let extent = 0;
      for (const r of ranges) if (r.endOffset > extent) extent = r.endOffset;
      record.extents[site.file] = Math.max(record.extents[site.file] ?? 0, extent);
      const hit = site.offsets.filter((o) => innermostRan(ranges, o));
      if (hit.length > 0) ran[site.file] = hit;
    }
    return ran;
  };
}

/**
 * What ran since the previous look, from the site counters the changed files carry
 * (AG_MUTATE_MOCHA_COUNTERS set): the first look also holds what they counted before this
 * hook loaded, which ran outside every unit.
 */
function siteCounts(record) {
  const counter = require('./site-counter.cjs');
  counter.attach();
  return () => {
    for (const [file, length] of Object.entries(counter.lengths())) record.extents[file] = length;
    return counter.take();
  };
}

/** The files that hold the suite's tests, sorted. */
function testFiles(root) {
  const files = new Set();
  const collect = (suite) => {
    for (const t of suite.tests) files.add(fileOf(t));
    suite.suites.forEach(collect);
  };
  collect(root);
  return [...files].sort();
}

/**
 * Keep the tests of every n-th test file, from the k-th (files in sorted order); suites left
 * with no test go. Every file is still loaded, so what runs while they load stays the same.
 */
function keepShard(root, k, n) {
  const mine = new Set(testFiles(root).filter((_, i) => i % n === k));
  const prune = (suite) => {
    suite.tests = suite.tests.filter((t) => mine.has(fileOf(t)));
    suite.suites = suite.suites.filter((s) => prune(s) > 0);
    return countTests(suite);
  };
  prune(root);
}

/** Write the test files that hold tests whole (the reader may look before the run ends). */
function writeTestFiles(root, out) {
  try {
    fs.writeFileSync(`${out}.tmp`, JSON.stringify(testFiles(root)));
    fs.renameSync(`${out}.tmp`, out);
  } catch {
    // no list: nothing is judged before the recording ends
  }
}

function recorder(recordDir) {
  const record = { pid: process.pid, granularity: 'test', units: {}, outside: {}, extents: {}, durations: {} };
  const take = process.env.AG_MUTATE_MOCHA_COUNTERS ? siteCounts(record) : v8Counts(record);
  const credit = (into, ran) => {
    for (const [file, offsets] of Object.entries(ran)) into[file] = [...new Set([...(into[file] ?? []), ...offsets])];
  };
  let unit = null;
  let parent = null;
  let since = 0;
  const close = (next, boundary) => {
    const ran = take();
    const now = performance.now();
    if (unit === null) credit(record.outside, ran);
    else {
      credit((record.units[unit] ??= {}), ran);
      record.durations[unit] = (record.durations[unit] ?? 0) + (now - since);
      if (next !== null && boundary) credit((record.units[next] ??= {}), ran);
    }
    unit = next;
    since = now;
  };
  process.on('exit', () => {
    try {
      close(null, false);
      fs.writeFileSync(path.join(recordDir, `${process.pid}.json`), JSON.stringify(record));
    } catch {
      // a process that cannot record leaves its files unseen (their mutants run the whole command)
    }
  });
  const shard = /^(\d+)\/(\d+)$/.exec(process.env.AG_MUTATE_MOCHA_SHARD || '');
  const [k, n] = shard ? [Number(shard[1]), Number(shard[2])] : [0, 1];
  return {
    beforeAll() {
      const root = rootOf(this);
      if (!root) return;
      if (process.env.AG_MUTATE_MOCHA_FILES) writeTestFiles(root, process.env.AG_MUTATE_MOCHA_FILES);
      if (n > 1) keepShard(root, k, n);
      // A shard holds about 1/n of the suite: the granularity is the whole suite's.
      if (countTests(root) * n > PER_TEST_MAX) record.granularity = 'file';
    },
    beforeEach() {
      const test = this.currentTest;
      if (!test) return;
      const next = record.granularity === 'test' ? idOf(test) : fileOf(test);
      if (next !== unit) close(next, test.parent !== parent);
      parent = test.parent;
    },
  };
}

function selector(selectFile, failedFile, ranFile) {
  const order = JSON.parse(fs.readFileSync(selectFile, 'utf8'));
  const listed = new Map(order.map((id, i) => [id, i]));
  // A test is listed by its id, or by its file (a per-file record).
  const rank = {
    has: (id) => listed.has(id) || listed.has(id.slice(0, id.indexOf('::'))),
    get: (id) => listed.get(id) ?? listed.get(id.slice(0, id.indexOf('::'))),
  };
  const NONE = Number.MAX_SAFE_INTEGER;
  // Keep the listed tests, order each level by its first listed test; returns the suite's best rank.
  const prune = (suite) => {
    suite.tests = suite.tests.filter((t) => rank.has(idOf(t))).sort((a, b) => rank.get(idOf(a)) - rank.get(idOf(b)));
    const best = new Map(suite.suites.map((s) => [s, prune(s)]));
    suite.suites = suite.suites.filter((s) => best.get(s) !== NONE).sort((a, b) => best.get(a) - best.get(b));
    suite._bail = true;
    return Math.min(NONE, ...suite.tests.map((t) => rank.get(idOf(t))), ...best.values());
  };
  const found = (suite, seen) => {
    for (const t of suite.tests) seen.add(idOf(t));
    for (const s of suite.suites) found(s, seen);
    return seen;
  };
  return {
    beforeAll() {
      const root = rootOf(this);
      if (!root) return;
      const seen = found(root, new Set());
      const setBail = (s) => {
        s._bail = true;
        s.suites.forEach(setBail);
      };
      const files = new Set([...seen].map((id) => id.slice(0, id.indexOf('::'))));
      if (order.every((id) => seen.has(id) || files.has(id))) prune(root);
      else setBail(root);
    },
    beforeEach() {
      if (this.currentTest && ranFile) fs.appendFileSync(ranFile, `${JSON.stringify(idOf(this.currentTest))}\n`);
    },
    afterEach() {
      const test = this.currentTest;
      if (test && test.state === 'failed' && failedFile && !fs.existsSync(failedFile))
        fs.writeFileSync(failedFile, idOf(test));
    },
  };
}

/** Keep the running mocha from loading the listed test files. */
function skipFiles(skipFile) {
  const skip = new Set(JSON.parse(fs.readFileSync(skipFile, 'utf8')));
  const suffix = path.join('mocha', 'lib', 'mocha.js');
  const loaded = Object.keys(require.cache).filter((key) => key.endsWith(suffix));
  if (loaded.length !== 1) return;
  const Mocha = require.cache[loaded[0]].exports;
  if (typeof Mocha !== 'function' || !Mocha.prototype) return;
  const prune = (mocha) => {
    if (!Array.isArray(mocha.files)) return;
    const kept = mocha.files.filter(
      (file) => !skip.has(path.relative(process.cwd(), path.resolve(file)).split(path.sep).join('/')),
    );
    if (kept.length > 0) mocha.files = kept;
  };
  for (const name of ['loadFiles', 'loadFilesAsync']) {
    const original = Mocha.prototype[name];
    if (typeof original !== 'function') continue;
    Mocha.prototype[name] = function (...args) {
      prune(this);
      return original.apply(this, args);
    };
  }
}

const hooks = {};
if (process.env.AG_MUTATE_MOCHA_RECORD) Object.assign(hooks, recorder(process.env.AG_MUTATE_MOCHA_RECORD));
else if (process.env.AG_MUTATE_SELECT) {
  if (process.env.AG_MUTATE_MOCHA_SKIP) skipFiles(process.env.AG_MUTATE_MOCHA_SKIP);
  Object.assign(hooks, selector(process.env.AG_MUTATE_SELECT, process.env.AG_MUTATE_FAILED, process.env.AG_MUTATE_RAN));
}
exports.mochaHooks = hooks;
