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
// A function that uses the project's modules also hands a thunk of those collaborators
// (src/apart/js-collaborators.ts): each that is a jest, vitest or node:test mock when the call
// begins has the calls it answered during it noted under `mocks: {name: {unrecordable, calls:
// [{args, shape}]}}`, up to MAX_MOCK_CALLS per name, read from the mock's own record of its
// calls (a thrown answer's shape is {t: 'raise', type}).
const fs = require('node:fs');
const path = require('node:path');
const { randomBytes } = require('node:crypto');
// node:timers, not the global: a test's fake timers replace the global setImmediate only.
const timers = require('node:timers');
const { threadId } = require('node:worker_threads');
const { encode, answerText, attempt, shape, mockKind, errorName } = require('./js-values.cjs');

const MAX_CALLS = 200;
const MAX_MOCK_CALLS = 20;
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

/** The mocks among the collaborators `watch()` answers, each with its kind and how many calls it had answered. */
function mocksNow(watch) {
  if (typeof watch !== 'function') return [];
  try {
    return Object.entries(watch()).flatMap(([name, mock]) => {
      const kind = mockKind(mock);
      return kind === null ? [] : [{ name, mock, kind, from: mock.mock.calls.length }];
    });
  } catch {
    return [];
  }
}

/** The i-th call a mock answered: its arguments and its outcome (null: not answered yet). */
function mockCall(mock, kind, i) {
  const call = mock.mock.calls[i];
  if (kind === 'node')
    return call.error !== undefined
      ? { args: call.arguments, threw: true, value: call.error }
      : { args: call.arguments, threw: false, value: call.result };
  const result = mock.mock.results[i];
  if (result === undefined || (result.type !== 'return' && result.type !== 'throw')) return null;
  return { args: call, threw: result.type === 'throw', value: result.value };
}

/** Note, in `entry`, the calls each of `mocks` answered since it was seen. */
function noteMocks(entry, mocks) {
  for (const { name, mock, kind, from } of mocks) {
    try {
      const count = mock.mock.calls.length;
      const into = (entry.mocks ??= {})[name] ?? (entry.mocks[name] = { unrecordable: 0, calls: [] });
      for (let i = Math.min(from, count); i < count && into.calls.length < MAX_MOCK_CALLS; i++) {
        const call = mockCall(mock, kind, i);
        if (call === null) continue;
        let args;
        try {
          args = encode(Array.from(call.args));
        } catch {
          into.unrecordable++;
          continue;
        }
        into.calls.push({ args, shape: call.threw ? { t: 'raise', type: errorName(call.value) } : shape(call.value) });
      }
    } catch {
      // a mock whose record cannot be read: its calls are simply not noted
    }
  }
}

/**
 * One call of the function `key`: `body()`'s value (or its throw), the call recorded on the way,
 * and what the mocks among `watch()`'s collaborators answered during it.
 */
exports.call = (dir, key, args, body, watch) => {
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
  const mocks = mocksNow(watch);
  // In the order the calls began (a recursion's outer call first), answered when it ends.
  let call = null;
  if (entry.calls.length < MAX_CALLS)
    try {
      call = { args: encode(Array.from(args)), answer: null };
      entry.calls.push(call);
    } catch {
      entry.unrecordable++;
    }
  const got = attempt(body);
  if (call !== null) call.answer = answerText(got);
  noteMocks(entry, mocks);
  if (!got.ok) throw got.error;
  return got.value;
};
