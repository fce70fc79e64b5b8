#!/usr/bin/env node
/**
 * The single package a user installs: `adversary-gate`, one tarball carrying the five tools,
 * ag-gate, the pipelines and their runtime files, with no dependency to fetch (each tool's CLI
 * is one esbuild bundle; its runtime hooks use node's built-ins only).
 *
 *   npm run build && node scripts/pack-single.mjs [--out DIR]    (prints the tarball's path)
 *
 * Laid out as the repository is: tools/<tool>/{package.json,bin,dist,runtime,python} and
 * pipelines/, so every path a tool or pipeline finds beside itself is where it looks. Then
 * `npm i -D ./adversary-gate-<version>.tgz` and `npx ag-gate --base origin/main`.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TOOLS = ['ag-run', 'ag-diffcov', 'ag-mutate', 'ag-oracle', 'ag-decide', 'ag-gate'];
/** What each tool needs at run time beside its package.json. */
const TOOL_PARTS = ['bin', 'dist', 'runtime', 'python', 'LICENSE'];
const PIPELINE_FILES = ['gate.sh', 'gate.mjs', 'gate.mk', 'github/measure.sh', 'github/mutate.sh', 'github/decide.sh'];

const args = process.argv.slice(2);
const outAt = args.indexOf('--out');
if (args.some((a, i) => a !== '--out' && i !== outAt + 1) || (outAt >= 0 && args[outAt + 1] === undefined)) {
  console.error('usage: node scripts/pack-single.mjs [--out DIR]');
  process.exit(3);
}
const out = path.resolve(outAt >= 0 ? args[outAt + 1] : ROOT);
/** What a copied folder keeps: no bytecode caches, type declarations or source maps. */
const shipped = (file) => !/(^|\/)__pycache__(\/|$)|\.d\.ts$|\.map$/.test(file);
const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

const stage = mkdtempSync(path.join(os.tmpdir(), 'adversary-gate-pack-'));
try {
  const version = readJson(path.join(ROOT, 'tools', 'ag-gate', 'package.json')).version;
  const bin = {};
  for (const tool of TOOLS) {
    const from = path.join(ROOT, 'tools', tool);
    const manifest = readJson(path.join(from, 'package.json'));
    if (!existsSync(path.join(from, 'dist', `${tool}.bundle.mjs`))) {
      console.error(`pack-single.mjs: ${tool} is not built: run npm run build`);
      process.exit(3);
    }
    const to = path.join(stage, 'tools', tool);
    mkdirSync(to, { recursive: true });
    for (const part of TOOL_PARTS)
      if (existsSync(path.join(from, part)))
        cpSync(path.join(from, part), path.join(to, part), { recursive: true, filter: shipped });
    // Its name and version (the tool reports them) and its bin (ag-gate finds each tool by it).
    const { name, type, engines } = manifest;
    writeFileSync(
      path.join(to, 'package.json'),
      `${JSON.stringify({ name, version: manifest.version, type, engines, bin: manifest.bin, private: true }, null, 2)}\n`,
    );
    bin[tool] = `tools/${tool}/${manifest.bin[tool].replace(/^\.\//, '')}`;
  }
  for (const file of PIPELINE_FILES) {
    mkdirSync(path.dirname(path.join(stage, 'pipelines', file)), { recursive: true });
    cpSync(path.join(ROOT, 'pipelines', file), path.join(stage, 'pipelines', file));
  }
  cpSync(path.join(ROOT, 'LICENSE'), path.join(stage, 'LICENSE'));
  cpSync(path.join(ROOT, 'README.md'), path.join(stage, 'README.md'));
  const manifest = {
    name: 'adversary-gate',
    version,
    description:
      'A fail-closed verification gate for patches written by AI coding agents: ag-gate judges a patch against its base (ACCEPT / REJECT / HOLD) with five tools, no settings.',
    license: 'MIT',
    type: 'module',
    engines: { node: '>=20' },
    os: ['linux'],
    bin,
    files: ['tools', 'pipelines', 'LICENSE', 'README.md'],
  };
  writeFileSync(path.join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  mkdirSync(out, { recursive: true });
  const packed = execFileSync('npm', ['pack', '--silent', '--pack-destination', out], {
    cwd: stage,
    encoding: 'utf8',
    env: { ...process.env, npm_config_update_notifier: 'false' },
  })
    .trim()
    .split('\n')
    .pop();
  process.stdout.write(`${path.join(out, packed)}\n`);
} finally {
  rmSync(stage, { recursive: true, force: true });
}
