#!/usr/bin/env node
// Writes each tool's --help output (and each sub-command's) into the `text` blocks under
// `## Usage` in its README, in order — the form test/e2e/usage-readme.test.ts checks.
// Run after `npm run build`: node scripts/sync-usage.mjs
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TOOLS = {
  'ag-run': [],
  'ag-diffcov': [],
  'ag-mutate': ['merge', 'import'],
  'ag-oracle': [],
  'ag-decide': ['check', 'stats'],
  'ag-gate': ['decide'],
};

for (const [tool, subs] of Object.entries(TOOLS)) {
  const helps = [undefined, ...subs].map((sub) => {
    const r = spawnSync(
      process.execPath,
      [path.join(ROOT, 'tools', tool, 'bin', `${tool}.js`), ...(sub ? [sub] : []), '--help'],
      {
        encoding: 'utf8',
        env: { ...process.env, NO_COLOR: '1' },
      },
    );
    if (r.status !== 0) throw new Error(`${tool} ${sub ?? ''} --help exited ${r.status}`);
    return r.stdout.replace(/\n+$/, '');
  });
  const file = path.join(ROOT, 'tools', tool, 'README.md');
  const lines = readFileSync(file, 'utf8').split('\n');
  const start = lines.indexOf('## Usage');
  if (start < 0) throw new Error(`${file}: no ## Usage section`);
  let n = 0;
  for (let i = start + 1; i < lines.length && !lines[i].startsWith('## '); i++) {
    if (lines[i] !== '```text') continue;
    const close = lines.findIndex((l, j) => j > i && l === '```');
    if (n >= helps.length) throw new Error(`${file}: more text blocks than help texts`);
    const body = helps[n++].split('\n');
    lines.splice(i + 1, close - i - 1, ...body);
    i += body.length + 1;
  }
  if (n !== helps.length) throw new Error(`${file}: ${n} text blocks under ## Usage, ${helps.length} help texts`);
  writeFileSync(file, lines.join('\n'));
  console.log(`${file}: ${n} usage block(s) written`);
}
