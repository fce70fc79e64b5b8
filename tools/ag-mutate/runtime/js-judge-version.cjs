'use strict';
// One version of a changed JavaScript function, called in a fresh Node process that is no test
// runner (started by runtime/js-judge.cjs over IPC). The job: {module, kind, name, inputs,
// start, times, full, marks, own}. It loads `module` (a copy of the file that hands its top-level
// functions and data to `globalThis[Symbol.for('ag-mutate.judge')]`, src/apart/variants.ts),
// then calls `name` with each input from `start` (a fresh decoding of the arguments each time),
// `times` times in a row, and sends {i, outcomes} per input, then {done}. An outcome is what the
// caller gets back (`value …` or `raise …`) and, with `full`, ` | args …` (the arguments after
// the call) ` | module …` (the module's data after it, but for the data only `name` names)
// ` | printed …` (what it wrote). A job with `real` (a path of properties) asks a real
// collaborator instead: `module` is the project's own file, loaded as it is, and each outcome
// is {answer, shape} as JSON (shape null: it threw), for the contract rules.
const { pathToFileURL } = require('node:url');
const { decode, show, answerText, attempt, shape } = require('./js-values.cjs');

const KEY = Symbol.for('ag-mutate.judge');

function send(message) {
  return new Promise((resolve) => process.send(message, () => resolve()));
}

function printedDuring(fn) {
  const chunks = [];
  const writes = [process.stdout.write, process.stderr.write];
  const capture = (chunk) => {
    chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    return true;
  };
  process.stdout.write = capture;
  process.stderr.write = capture;
  try {
    return { got: attempt(fn), printed: chunks.join('').slice(0, 2000) };
  } finally {
    [process.stdout.write, process.stderr.write] = writes;
  }
}

/** The real collaborator at `path` in what loading `job.module` gives, and the object it is a property of. */
async function realCollaborator(job) {
  let holder = undefined;
  let value = job.kind === 'module' ? await import(pathToFileURL(job.module).href) : require(job.module);
  for (const key of job.real) {
    // A CommonJS module imported as a default is its exports object.
    if (key === 'default' && job.kind === 'commonjs' && !Object.hasOwn(Object(value), 'default')) continue;
    holder = value;
    value = value?.[key];
  }
  if (typeof value !== 'function') throw new Error(`${job.name} is not a function of ${job.module}`);
  return { fn: value, holder };
}

async function runReal(job) {
  const { fn, holder } = await realCollaborator(job);
  await send({ loaded: true });
  for (let i = job.start; i < job.inputs.length; i++) {
    const outcomes = [];
    for (let k = 0; k < job.times; k++) {
      const args = decode(job.inputs[i]);
      const { got } = printedDuring(() => fn.apply(holder, args));
      outcomes.push(JSON.stringify({ answer: answerText(got), shape: got.ok ? shape(got.value, 0, true) : null }));
    }
    await send({ i, outcomes });
  }
  await send({ done: true });
}

async function run(job) {
  if (Array.isArray(job.real)) return runReal(job);
  if (job.marks) {
    // What a test file sees: the runners' globals (mocha, jest, vitest with globals).
    for (const name of [
      'describe',
      'it',
      'test',
      'before',
      'after',
      'beforeEach',
      'afterEach',
      'beforeAll',
      'afterAll',
    ])
      globalThis[name] = () => {};
  }
  if (job.kind === 'module') await import(pathToFileURL(job.module).href);
  else require(job.module);
  const handed = globalThis[KEY];
  const fn = handed?.fns?.[job.name];
  if (typeof fn !== 'function') throw new Error(`${job.name} is not a function of the loaded module`);
  await send({ loaded: true });
  for (let i = job.start; i < job.inputs.length; i++) {
    const outcomes = [];
    for (let k = 0; k < job.times; k++) {
      const args = decode(job.inputs[i]);
      const { got, printed } = printedDuring(() => fn(...args));
      let outcome = answerText(got);
      if (job.full) {
        let state = '?';
        try {
          const data = handed.state();
          // The data only this function names shows in its answers: it is not compared apart.
          for (const name of job.own ?? []) delete data[name];
          state = show(data);
        } catch {
          // a module whose data cannot be read: the same '?' on every side
        }
        outcome += ` | args ${show(args)} | module ${state} | printed ${printed}`;
      }
      outcomes.push(outcome);
    }
    await send({ i, outcomes });
  }
  await send({ done: true });
}

process.once('message', (job) => {
  run(job).then(
    () => process.exit(0),
    (error) => {
      const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      process.send({ error: text.slice(0, 500) }, () => process.exit(0));
    },
  );
});
