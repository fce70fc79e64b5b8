'use strict';
// The call recorder's runtime, loaded by the changed JavaScript files of ag-mutate's recording
// run: each changed named function carries a wrapper (src/apart/record-calls.ts) that hands its
// argument list and a way to run its body to `call(dir, key, args, body)`. The arguments are
// encoded (runtime/js-values.cjs) before the body runs, the answer (value or thrown error)
// after it; repeats are kept in order, up to MAX_CALLS per function and process. A call whose
// arguments cannot be carried is run and counted, not recorded. At exit the process writes
// `<dir>/calls-<pid>-<thread>.json`: {executable, functions: {key: {observed, unrecordable,
// calls: [{args, answer}]}}}.
const fs = require('node:fs');
const path = require('node:path');
const { threadId } = require('node:worker_threads');
const { encode, answerText, attempt } = require('./js-values.cjs');

const MAX_CALLS = 200;
const functions = new Map();
let out = null;

function flush() {
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
    out = path.join(dir, `calls-${process.pid}-${threadId}.json`);
    process.on('exit', flush);
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
