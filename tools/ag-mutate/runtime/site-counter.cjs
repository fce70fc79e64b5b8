'use strict';
// The site counters' runtime, loaded by the changed files of ag-mutate's recording run (they
// carry a counter call before each mutation site: src/exec/site-counters.ts).
//
// In the mocha process the root hook attaches (`attach()`) and takes the counts since its
// previous look whenever the test unit changes (`take()`); its first take holds what ran
// before it attached, which it credits to no unit. Any other process or thread (a child the tests
// started, a worker) writes its own record when it exits, `<dir>/<pid>-<thread>.json`, and,
// the moment it first loads a changed file, a `<pid>-<thread>.started` mark: a mark without
// its record (a process that was killed) tells the reader that counts were lost.
const fs = require('node:fs');
const path = require('node:path');
const { threadId } = require('node:worker_threads');

const state = {
  attached: false,
  /** file → offsets counted since the last take */
  pending: new Map(),
  /** file → the length its records report */
  lengths: new Map(),
  own: null,
};

function add(into, file, offset) {
  let set = into.get(file);
  if (set === undefined) into.set(file, (set = new Set()));
  set.add(offset);
}

function plain(map) {
  const out = {};
  for (const [file, set] of map) out[file] = [...set].sort((a, b) => a - b);
  return out;
}

/** A process without the hook: mark it now, write its counts at exit. */
function ownRecord(dir) {
  const name = path.join(dir, `${process.pid}-${threadId}`);
  try {
    fs.writeFileSync(`${name}.started`, '');
  } catch {
    return; // nowhere to write: no mark, no record, as for a process that never loaded the file
  }
  state.own = name;
  process.on('exit', () => {
    if (state.own === null) return;
    try {
      const record = {
        pid: process.pid,
        thread: threadId,
        files: plain(state.pending),
        lengths: Object.fromEntries(state.lengths),
      };
      fs.writeFileSync(`${name}.json.tmp`, JSON.stringify(record));
      fs.renameSync(`${name}.json.tmp`, `${name}.json`);
    } catch {
      // the mark stays without its record: the reader knows counts were lost
    }
  });
}

/** Bind a changed file: the returned function counts one offset of it. */
exports.file = (dir, file, length) => {
  state.lengths.set(file, length);
  if (!state.attached && state.own === null) ownRecord(dir);
  return (offset) => {
    if (offset !== undefined) add(state.pending, file, offset);
  };
};

/** The mocha hook takes the counts over (its first take holds what was counted before it attached). */
exports.attach = () => {
  state.attached = true;
  if (state.own !== null) {
    try {
      fs.rmSync(`${state.own}.started`, { force: true });
    } catch {
      // a mark left behind only makes the reader more careful
    }
    state.own = null;
  }
};

/** The counts since the previous take: file → offsets. */
exports.take = () => {
  const ran = plain(state.pending);
  state.pending.clear();
  return ran;
};

/** The changed files loaded so far, with the length their records report. */
exports.lengths = () => Object.fromEntries(state.lengths);
