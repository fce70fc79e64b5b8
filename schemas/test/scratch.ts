import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** One scratch folder per test file; every temporary folder of the file's tests lives in it, and it is removed when they are done. */
export const scratch = mkdtempSync(path.join(os.tmpdir(), 'ag-test-'));
test.after.always(() => rmSync(scratch, { recursive: true, force: true }));
