#!/usr/bin/env node
/**
 * The single package a user installs: `adversary-gate`, one tarball carrying the five tools,
 * ag-gate, the pipelines and their runtime files, with no dependency to fetch (each tool's CLI
 * is one esbuild bundle; its runtime hooks use node's built-ins only).
 *
 *   npm run build && node scripts/pack-single.mjs [--out DIR]    (prints the tarball's path)
 *
 * What it holds is what the repository's own package.json says (`bin`, `files`): the same files
 * `npm i -D git+https://…/adversary-gate.git#<ref>` installs (npm runs the root's `prepare`, the
 * build, and packs those files). Laid out as the repository is, so every path a tool or pipeline
 * finds beside itself is where it looks. Each tool's package.json loses its dependencies (they
 * are in its bundle). Then `npm i -D ./adversary-gate-<version>.tgz` and `npx ag-gate --base origin/main`.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** What the installed package keeps of the repository's manifest. */
const KEPT = ['name', 'version', 'description', 'license', 'repository', 'type', 'engines', 'os', 'bin'];

const args = process.argv.slice(2);
const outAt = args.indexOf('--out');
if (args.some((a, i) => a !== '--out' && i !== outAt + 1) || (outAt >= 0 && args[outAt + 1] === undefined)) {
  console.error('usage: node scripts/pack-single.mjs [--out DIR]');
  process.exit(3);
}
const out = path.resolve(outAt >= 0 ? args[outAt + 1] : ROOT);
const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));
const npm = (cwd, npmArgs) =>
  execFileSync('npm', npmArgs, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, npm_config_update_notifier: 'false' },
    maxBuffer: 64 * 1024 * 1024,
  });

const root = readJson(path.join(ROOT, 'package.json'));
for (const [tool, bin] of Object.entries(root.bin)) {
  if (!existsSync(path.join(ROOT, path.dirname(path.dirname(bin)), 'dist', `${tool}.bundle.mjs`))) {
    console.error(`pack-single.mjs: ${tool} is not built: run npm run build`);
    process.exit(3);
  }
}
// The files the root's `files` selects, as npm itself lists them (no scripts run).
const listed = JSON.parse(npm(ROOT, ['pack', '--dry-run', '--json', '--ignore-scripts']))[0].files.map((f) => f.path);

const stage = mkdtempSync(path.join(os.tmpdir(), 'adversary-gate-pack-'));
try {
  for (const file of listed) {
    if (file === 'package.json') continue;
    mkdirSync(path.dirname(path.join(stage, file)), { recursive: true });
    cpSync(path.join(ROOT, file), path.join(stage, file));
  }
  for (const bin of Object.values(root.bin)) {
    // A tool's name and version (the tool reports them) and its bin (ag-gate finds each tool by it).
    const manifestAt = path.join(path.dirname(path.dirname(bin)), 'package.json');
    const { name, version, type, engines, bin: toolBin } = readJson(path.join(ROOT, manifestAt));
    if (version !== root.version) {
      console.error(`pack-single.mjs: ${manifestAt} says version ${version}, the package ${root.version}`);
      process.exit(3);
    }
    writeFileSync(
      path.join(stage, manifestAt),
      `${JSON.stringify({ name, version, type, engines, bin: toolBin, private: true }, null, 2)}\n`,
    );
  }
  const manifest = Object.fromEntries(KEPT.filter((k) => root[k] !== undefined).map((k) => [k, root[k]]));
  manifest.files = ['tools', 'pipelines'];
  writeFileSync(path.join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  mkdirSync(out, { recursive: true });
  const packed = npm(stage, ['pack', '--silent', '--pack-destination', out]).trim().split('\n').pop();
  process.stdout.write(`${path.join(out, packed)}\n`);
} finally {
  rmSync(stage, { recursive: true, force: true });
}
