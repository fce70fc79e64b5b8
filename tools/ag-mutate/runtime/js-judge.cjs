'use strict';
// ag-mutate's JavaScript judge: `<the tests' node> js-judge.cjs <spec.json>`, run in the tree
// copy as the tests are (same uid, environment and limits), after the recording run. The spec:
// {out, jobs: [{module, kind, name, inputs, times, full, marks}]}. Each job is one version of
// one function answered in a fresh Node process of its own (runtime/js-judge-version.cjs),
// never a test runner: loading may take LOAD_MS, each input CALL_MS per call; an input past it
// is answered `timeout` and the rest go on in a new process, until MAX_TIMEOUTS inputs timed
// out (then the rest are `timeout` unasked). With `marks`, the process carries the test
// runners' variables (and the version file defines their globals). A process that ends
// otherwise (a crash, `process.exit` in the code) leaves the job unanswered (`outcomes: null`
// and the error). Writes {jobs: [{outcomes, error}]} to `out`, decides nothing.
const { fork } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const VERSION = path.join(__dirname, 'js-judge-version.cjs');
const LOAD_MS = 10_000;
const CALL_MS = 1_000;
const MAX_TIMEOUTS = 2;
const MARKS = {
  NODE_TEST_CONTEXT: 'child-v8',
  JEST_WORKER_ID: '1',
  VITEST: 'true',
  VITEST_WORKER_ID: '1',
  VITEST_POOL_ID: '1',
};
const RUNNER_VARS = [...Object.keys(MARKS), 'MOCHA_COLORS', 'VITEST_MODE'];

/** One process of the job from input `start`: the outcomes it sent and how it ended. */
function attempt(job, start) {
  return new Promise((resolve) => {
    const env = { ...process.env };
    for (const name of RUNNER_VARS) delete env[name];
    if (job.marks) Object.assign(env, MARKS);
    const child = fork(VERSION, [], { env, stdio: ['ignore', 'ignore', 'ignore', 'ipc'], serialization: 'json' });
    const got = new Map();
    let at = start;
    let loaded = false;
    let ended = null;
    let timer = null;
    const arm = (ms) => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        ended = loaded ? 'timeout' : 'the module did not load in time';
        child.kill('SIGKILL');
      }, ms);
    };
    arm(LOAD_MS);
    child.on('message', (m) => {
      if (m && m.loaded === true) {
        loaded = true;
        arm(CALL_MS * job.times);
      } else if (m && Array.isArray(m.outcomes) && m.i === at) {
        got.set(at, m.outcomes.map(String));
        at++;
        arm(CALL_MS * job.times);
      } else if (m && m.done === true) ended = 'done';
      else if (m && typeof m.error === 'string') ended = `error: ${m.error}`;
    });
    child.on('error', (e) => {
      ended ??= `error: ${e.message}`;
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      ended ??= `the process ended (${signal ?? `exit ${code}`}) before it answered every input`;
      resolve({ got, at, ended });
    });
    child.send({ ...job, start });
  });
}

async function answer(job) {
  const outcomes = [];
  let start = 0;
  let timeouts = 0;
  while (start < job.inputs.length) {
    const r = await attempt(job, start);
    for (let i = start; i < r.at; i++) outcomes.push(r.got.get(i));
    if (r.ended === 'done') return { outcomes, error: null };
    if (r.ended !== 'timeout') return { outcomes: null, error: r.ended };
    outcomes.push(new Array(job.times).fill('timeout'));
    start = r.at + 1;
    if (++timeouts >= MAX_TIMEOUTS) {
      while (outcomes.length < job.inputs.length) outcomes.push(new Array(job.times).fill('timeout'));
      break;
    }
  }
  return { outcomes, error: null };
}

async function main(specPath) {
  const spec = JSON.parse(fs.readFileSync(specPath, 'utf8'));
  const jobs = [];
  for (const job of spec.jobs) jobs.push(await answer(job));
  fs.writeFileSync(`${spec.out}.tmp`, JSON.stringify({ jobs }));
  fs.renameSync(`${spec.out}.tmp`, spec.out);
}

main(process.argv[2]).catch((e) => {
  process.stderr.write(`ag-mutate js judge: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(2);
});
