/**
 * Test-runner configuration: files whose every change counts, and files (package.json,
 * pyproject.toml) where only the parts that steer a runner count.
 * @module
 */
import picomatch from 'picomatch';
import { parse as parseToml } from 'smol-toml';
import { canonicalJson, decodeUtf8Strict, parseStrictJson } from '@adversary-gate/schemas';

/** Files that configure or hook a test runner (or the coverage it feeds); any change counts. */
export const RUNNER_CONFIG_GLOBS: readonly string[] = [
  '**/conftest.py',
  '**/{pytest,.pytest}.{ini,toml}',
  '**/setup.cfg',
  '**/tox.ini',
  '**/{sitecustomize,usercustomize}.py',
  '**/*.pth',
  '**/.coveragerc',
  '**/.npmrc',
  '**/.yarnrc{,.yml}',
  '**/{jest,vitest,vite,ava}.config.*',
  '**/{jest,vitest}.setup.*',
  '**/vitest.workspace.*',
  '**/{.mocharc,.mocharc.*,mocha.opts}',
  '**/{.c8rc,.c8rc.*,.nycrc,.nycrc.*}',
  // a local module or package that shadows the runner or its plugin system (`python -m
  // pytest` imports the checkout's own `pytest.py` first), or installed packages in the tree
  '**/{pytest,_pytest,pluggy}.py',
  '**/{pytest,_pytest,pluggy}/**',
  '**/node_modules/**',
];

// Case-blind: on a case-insensitive file system `CONFTEST.PY` is the runner's conftest.py.
const isConfigFile = picomatch([...RUNNER_CONFIG_GLOBS], { dot: true, nocase: true });

/** How a path's changes are judged: every change, the runner parts only, or not at all. */
export function configKind(path: string): 'file' | 'package.json' | 'pyproject.toml' | null {
  const base = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  if (base === 'package.json') return 'package.json';
  if (base === 'pyproject.toml') return 'pyproject.toml';
  return isConfigFile(path) ? 'file' : null;
}

/** package.json keys read by test runners and coverage tools. */
export const PACKAGE_RUNNER_KEYS: readonly string[] = ['jest', 'ava', 'mocha', 'vitest', 'c8', 'nyc'];

/** Script names run by `npm test`, and every script those invoke through `npm run` / `yarn` / `pnpm`. */
export function testScriptNames(scripts: Record<string, unknown>): string[] {
  const names = new Set(['pretest', 'test', 'posttest']);
  const queue = [...names];
  while (queue.length > 0) {
    const body = scripts[queue.pop()!];
    if (typeof body !== 'string') continue;
    for (const m of body.matchAll(/\b(?:npm|pnpm|yarn|bun)\s+(?:run(?:-script)?\s+)?([\w:.@/-]+)/g)) {
      const name = m[1]!;
      for (const n of [name, `pre${name}`, `post${name}`]) {
        if (Object.hasOwn(scripts, n) && !names.has(n)) {
          names.add(n);
          queue.push(n);
        }
      }
    }
  }
  return [...names];
}

type Parsed = { ok: true; value: Record<string, unknown> } | { ok: false };

function parseJsonObject(bytes: Buffer, file: string): Parsed {
  try {
    const value = parseStrictJson(file, decodeUtf8Strict(file, bytes));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? { ok: true, value: value as Record<string, unknown> }
      : { ok: false };
  } catch {
    return { ok: false };
  }
}

/** The runner-relevant parts of a package.json, keyed `scripts.test`, `jest`…; null when unparsable. */
export function packageRunnerParts(
  bytes: Buffer | null,
  file: string,
  scriptNames: readonly string[] = [],
): Record<string, string> | null {
  if (bytes === null) return {};
  const parsed = parseJsonObject(bytes, file);
  if (!parsed.ok) return null;
  const pkg = parsed.value;
  const scripts =
    typeof pkg.scripts === 'object' && pkg.scripts !== null ? (pkg.scripts as Record<string, unknown>) : {};
  const out: Record<string, string> = {};
  for (const name of new Set([...testScriptNames(scripts), ...scriptNames])) {
    if (Object.hasOwn(scripts, name)) out[`scripts.${name}`] = canonicalJson(scripts[name]);
  }
  if (
    pkg.scripts !== undefined &&
    (typeof pkg.scripts !== 'object' || pkg.scripts === null || Array.isArray(pkg.scripts))
  )
    out.scripts = canonicalJson(pkg.scripts);
  for (const key of PACKAGE_RUNNER_KEYS) if (Object.hasOwn(pkg, key)) out[key] = canonicalJson(pkg[key]);
  return out;
}

/** The `[tool.pytest…]` and `[tool.coverage…]` tables of a pyproject.toml; null when unparsable. */
export function pyprojectRunnerParts(bytes: Buffer | null): Record<string, string> | null {
  if (bytes === null) return {};
  let doc: Record<string, unknown>;
  try {
    doc = parseToml(new TextDecoder('utf-8', { fatal: true }).decode(bytes)) as Record<string, unknown>;
  } catch {
    return null;
  }
  const tool = (doc.tool ?? {}) as Record<string, unknown>;
  const out: Record<string, string> = {};
  for (const key of ['pytest', 'coverage']) if (Object.hasOwn(tool, key)) out[`tool.${key}`] = canonicalJson(tool[key]);
  return out;
}

/**
 * The runner-relevant keys that differ between two versions of a file (`null` bytes: the
 * file is absent on that side). An unparsable side counts as a change of the whole file.
 */
export function changedRunnerKeys(
  kind: 'package.json' | 'pyproject.toml',
  before: Buffer | null,
  after: Buffer | null,
  file: string,
): string[] {
  if (kind === 'package.json') {
    // Scripts the baseline's test script reached stay relevant even if the patch unhooks them.
    const first = packageRunnerParts(before, file);
    const names =
      first === null
        ? []
        : Object.keys(first)
            .filter((k) => k.startsWith('scripts.'))
            .map((k) => k.slice(8));
    const a = packageRunnerParts(before, file, names);
    const b = packageRunnerParts(after, file, names);
    return diffParts(a, b, file);
  }
  return diffParts(pyprojectRunnerParts(before), pyprojectRunnerParts(after), file);
}

function diffParts(a: Record<string, string> | null, b: Record<string, string> | null, file: string): string[] {
  if (a === null || b === null) return [`${file} (unparsable on the ${a === null ? 'baseline' : 'patch'} side)`];
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  return keys.filter((k) => a[k] !== b[k]);
}
