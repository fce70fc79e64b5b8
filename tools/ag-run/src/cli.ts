import { defineCommand } from 'citty';
import { main, packageVersion, sharedArgs, UsageError } from '@adversary-gate/core';

const version = packageVersion(import.meta.url);

/** Not built yet: refuses to run, so nothing can mistake it for a measurement. */
const command = defineCommand({
  meta: { name: 'ag-run', version, description: 'ag-run is not implemented yet; it refuses to run and writes nothing.' },
  args: { ...sharedArgs },
  run() {
    throw new UsageError('ag-run is not implemented yet; it writes no evidence');
  },
});

await main({ name: 'ag-run', version, main: command });
