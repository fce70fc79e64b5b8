import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { scratch } from './scratch.js';
import { fileURLToPath } from 'node:url';
import { canonicalJson } from '@adversary-gate/schemas';
import { DIFF_TEXT } from './golden.js';

export const BIN = fileURLToPath(new URL('../../bin/ag-decide.js', import.meta.url));

/** Run the real binary. */
export function agDecide(args: string[], cwd: string) {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A temp dir holding changes.diff and one file per given artefact; returns their names. */
export function workdir(artefacts: Record<string, unknown>): { dir: string; evidence: string[] } {
  const dir = mkdtempSync(path.join(scratch, 'ag-decide-cli-'));
  writeFileSync(path.join(dir, 'changes.diff'), DIFF_TEXT);
  const evidence: string[] = [];
  for (const [name, value] of Object.entries(artefacts)) {
    writeFileSync(path.join(dir, `${name}.json`), typeof value === 'string' ? value : canonicalJson(value));
    evidence.push('--evidence', `${name}.json`);
  }
  return { dir, evidence };
}
