'use strict';
// The call recorder's runtime, loaded by the changed JavaScript files of ag-mutate's recording
// run: each changed named function carries a wrapper (src/apart/js-texts.ts) that hands its
// argument list and a way to run its body to `call(dir, key, args, body)`. The arguments are
// encoded (runtime/js-values.cjs) before the body runs, the answer (value or thrown error)
// after it; repeats are kept in order, up to MAX_CALLS per function and process. A call whose
// arguments cannot be carried is run and counted, not recorded. Each instance of this module
// writes `<dir>/calls-<pid>-<thread>-<instance>.json`: {executable, functions: {key: {observed,
// unrecordable, calls: [{args, answer}]}}}, once after each turn of the event loop that
// called a function and again at exit: jest gives each test file its own instance and its own
// `process` (whose exit nobody emits), and vitest's pools end their workers without an exit.
const fs = require('node:fs');
const path = require('node:path');
const { randomBytes } = require('node:crypto');
// node:timers, not the global: a test's fake timers replace the global setImmediate only.
const timers = require('node:timers');
const { threadId } = require('node:worker_threads');
const { encode, answerText, attempt } = require('./js-values.cjs');

const MAX_CALLS = 200;
const functions = new Map();
let out = null;
let pending = false;

function flush() {
  pending = false;
  if (out === null) return;
  try {
    const record = { executable: process.execPath, functions: Object.fromEntries(functions) };
    fs.writeFileSync(`${out}.tmp`, JSON.stringify(record));
    fs.renameSync(`${out}.tmp`, out);
  } catch {
    // no record: the reader finds the function's calls missing, never invented
  }
}

/** One call of the function `key`: `body()`'s value (or its throw), the call recorded on the way. */
exports.call = (dir, key, args, body) => {
  if (out === null) {
    out = path.join(dir, `calls-${process.pid}-${threadId}-${randomBytes(4).toString('hex')}.json`);
    process.on('exit', flush);
  }
  if (!pending) {
    pending = true;
    timers.setImmediate(flush).unref();
  }
  let entry = functions.get(key);
  if (entry === undefined) functions.set(key, (entry = { observed: 0, unrecordable: 0, calls: [] }));
  entry.observed++;
  if (entry.calls.length >= MAX_CALLS) return body();
  let encoded;
  try {
    encoded = encode(Array.from(args));
  } catch {
    entry.unrecordable++;
    return body();
  }
  // In the order the calls began (a recursion's outer call first), answered when it ends.
  const call = { args: encoded, answer: null };
  entry.calls.push(call);
  const got = attempt(body);
  call.answer = answerText(got);
  if (!got.ok) throw got.error;
  return got.value;
};
