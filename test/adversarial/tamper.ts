// Tampering with an evidence directory gate.sh left, and fake tools for fault injection.
import { chmodSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { BIN } from './gate.js';

/** Rewrite one JSON evidence file in place with `edit` (plain JSON, as an attacker would). */
export function editJson(file: string, edit: (value: Record<string, unknown>) => void): void {
  const value = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  edit(value);
  writeFileSync(file, `${JSON.stringify(value)}\n`);
}

const TOOLS = ['ag-run', 'ag-diffcov', 'ag-mutate', 'ag-oracle', 'ag-decide'] as const;

/**
 * A bin directory for gate.sh's AG_BIN_DIR: every tool the real binary, except those
 * `scripts` replaces with a shell script (`$REAL` in it is the real binary's path).
 */
export function fakeBinDir(dir: string, scripts: Partial<Record<(typeof TOOLS)[number], string>>): string {
  mkdirSync(dir, { recursive: true });
  for (const tool of TOOLS) {
    const real = path.join(BIN, tool);
    const script = scripts[tool];
    if (script === undefined) symlinkSync(real, path.join(dir, tool));
    else {
      writeFileSync(path.join(dir, tool), `#!/bin/sh\nREAL='${real}'\n${script}\n`);
      chmodSync(path.join(dir, tool), 0o755);
    }
  }
  return dir;
}

/** A directory holding one executable `name` that runs `script`, to put first on PATH. */
export function fakeCommand(dir: string, name: string, script: string): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, name), `#!/bin/sh\n${script}\n`);
  chmodSync(path.join(dir, name), 0o755);
  return dir;
}
