import { defineCommand } from 'citty';
import { main, packageVersion, sharedArgs, UsageError } from '@adversary-gate/core';

const version = packageVersion(import.meta.url);
const command = defineCommand({
  meta: { name: 'ag-decide', version, description: 'placeholder' },
  args: { ...sharedArgs },
  run() {
    throw new UsageError('not implemented yet');
  },
});
await main({ name: 'ag-decide', version, main: command });
