import { defineCommand } from 'citty';
import { main, packageVersion, sharedArgs, UsageError } from '@adversary-gate/core';

const version = packageVersion(import.meta.url);

/** Not built yet: refuses to run, so nothing can mistake it for a measurement. */
const command = defineCommand({
  meta: { name: 'ag-diffcov', version, description: 'ag-diffcov is not implemented yet; it refuses to run and writes nothing.' },
  args: { ...sharedArgs },
  run() {
    throw new UsageError('ag-diffcov is not implemented yet; it writes no evidence');
  },
});

await main({ name: 'ag-diffcov', version, main: command });
