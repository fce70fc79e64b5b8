'use strict';
// Preloaded (NODE_OPTIONS=--require) into every Node process of ag-mutate's baseline run.
// A `node --test` runner marks its environment; each test-file process it starts takes its
// own script as the test unit and passes it on to every process it starts in turn. At exit
// each process records its unit and lifetime under its pid, so that the V8 coverage file of
// the same pid can be attributed to a test file. Writes nothing else.
const fs = require('node:fs');
const path = require('node:path');
const dir = process.env.AG_MUTATE_ENTRY_DIR;
if (dir) {
  const started = process.hrtime.bigint();
  let root = false;
  if (process.execArgv.includes('--test')) {
    process.env.AG_MUTATE_UNDER_RUNNER = '1';
    delete process.env.AG_MUTATE_UNIT;
  } else if (
    process.env.AG_MUTATE_UNDER_RUNNER === '1' &&
    !process.env.AG_MUTATE_UNIT &&
    process.argv[1] !== undefined
  ) {
    process.env.AG_MUTATE_UNIT = path.resolve(process.argv[1]);
    root = true;
  }
  process.on('exit', () => {
    try {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      fs.writeFileSync(
        path.join(dir, `${process.pid}.json`),
        JSON.stringify({ unit: process.env.AG_MUTATE_UNIT ?? null, root, ms }),
      );
    } catch {
      // a process that cannot record is simply unattributed
    }
  });
}
