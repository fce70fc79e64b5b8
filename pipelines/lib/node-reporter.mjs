// The gate's node:test reporter, staged where every test uid can read it: the gate itself may
// be installed in a folder only its owner can enter (a runner's temporary folder, a 0700
// home), while the tests run as a fresh uid. The copy lives in a `reporter` folder beside the
// gate's tools folder (the gate's, mode 755; the tools folder itself is made by the tool
// install), never in the project.
import { chmodSync, copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SOURCE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'node-test-junit.mjs');

/** The reporter's path for the test command: a world-readable copy beside `toolsDir`, or the original without one. */
export function stageNodeReporter(toolsDir) {
  if (toolsDir === undefined) return SOURCE;
  const dir = path.join(path.dirname(toolsDir), 'reporter');
  mkdirSync(dir, { recursive: true });
  chmodSync(dir, 0o755);
  const staged = path.join(dir, 'node-test-junit.mjs');
  copyFileSync(SOURCE, staged);
  chmodSync(staged, 0o644);
  return staged;
}
