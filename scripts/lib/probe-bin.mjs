// A folder of ag-* wrappers (for gate.sh's AG_BIN_DIR) that run the checkout's tools with
// the resource probe preloaded, and the reader of what the probe logged.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const TOOLS = ['ag-run', 'ag-diffcov', 'ag-mutate', 'ag-oracle', 'ag-decide'];

/**
 * Write the wrappers into `dir`.
 * @param {string} root the checkout (its tools/<tool>/bin/<tool>.js are run)
 * @param {string} dir
 * @returns {string} dir
 */
export function writeProbeBin(root, dir) {
  mkdirSync(dir, { recursive: true });
  const probe = path.join(root, 'scripts/lib/rss-probe.mjs');
  for (const t of TOOLS) {
    const file = path.join(dir, t);
    writeFileSync(
      file,
      `#!/bin/sh\nexec "${process.execPath}" --import="${probe}" "${path.join(root, 'tools', t, 'bin', `${t}.js`)}" "$@"\n`,
    );
    chmodSync(file, 0o755);
  }
  return dir;
}

/**
 * The probe records of one log: `{tool, ms, max_rss_kb, exit}` per tool process.
 * @param {string} log
 * @returns {{tool: string, ms: number, max_rss_kb: number, exit: number}[]}
 */
export function readProbeLog(log) {
  if (!existsSync(log)) return [];
  return readFileSync(log, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}
