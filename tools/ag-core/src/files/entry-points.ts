/**
 * What a JS package ships: the files its manifests name (`main`, `module`, `browser`,
 * `exports`, `bin`; Node's `index.js` when none is named), resolved to the tree's own files,
 * a compiled path (`dist/index.js`) through the `outDir`/`rootDir` of the package's
 * tsconfig files. Product code is what these and the tests reach; a script beside it (a
 * benchmark, a release script) is not. Whenever a manifest cannot be read or one entry found,
 * there is no answer (null), and every non-test file counts as product code.
 * @module
 */
import path from 'node:path';

const SOURCE_EXT = ['.js', '.mjs', '.cjs', '.jsx', '.ts', '.mts', '.cts', '.tsx'];

/** Every string a manifest field holds (nested `exports` conditions and `bin` maps included). */
function leaves(v: unknown): string[] {
  if (typeof v === 'string') return [v];
  if (Array.isArray(v)) return v.flatMap(leaves);
  if (v !== null && typeof v === 'object') return Object.values(v).flatMap(leaves);
  return [];
}

/** JSON with the comments and trailing commas tsconfig files allow; null when it is not. */
function parseLoose(text: string): unknown {
  const bare = text
    .replace(/("(?:[^"\\\n]|\\.)*")|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (m, str: string | undefined) => str ?? '')
    .replace(/,(\s*[}\]])/g, '$1');
  try {
    return JSON.parse(bare);
  } catch {
    return null;
  }
}

/** `outDir` → `rootDir` pairs of the tsconfig files in `dir` (paths relative to the tree). */
function compiledDirs(dir: string, files: readonly string[], read: (p: string) => string | null): [string, string][] {
  const out: [string, string][] = [];
  for (const f of files) {
    if (path.posix.dirname(f) !== dir || !/^tsconfig(?:\.[\w-]+)?\.json$/.test(path.posix.basename(f))) continue;
    const text = read(f);
    const config = text === null ? null : parseLoose(text);
    const options = (config as { compilerOptions?: { outDir?: unknown; rootDir?: unknown } } | null)?.compilerOptions;
    if (typeof options?.outDir !== 'string') continue;
    const rootDir = typeof options.rootDir === 'string' ? options.rootDir : '.';
    out.push([path.posix.join(dir, options.outDir), path.posix.join(dir, rootDir)]);
  }
  return out;
}

/** The tree file an entry path loads, directly or as the source it was compiled from; null when none. */
function resolveEntry(
  entry: string,
  present: ReadonlySet<string>,
  compiled: readonly [string, string][],
): string | null {
  const withExt = (p: string) => [p, ...SOURCE_EXT.map((e) => p + e), ...SOURCE_EXT.map((e) => `${p}/index${e}`)];
  const direct = withExt(entry).find((c) => present.has(c));
  if (direct !== undefined) return direct;
  for (const [outDir, rootDir] of compiled) {
    if (!entry.startsWith(`${outDir}/`)) continue;
    const stem = path.posix.join(rootDir, entry.slice(outDir.length + 1)).replace(/\.[cm]?js$/, '');
    const found = withExt(stem).find((c) => present.has(c) && !c.endsWith('.d.ts'));
    if (found !== undefined) return found;
  }
  return null;
}

/**
 * The files the tree's package manifests ship, resolved, sorted; null when the tree has no
 * manifest (`isManifest` says which package.json files count: not a test fixture's), when
 * one cannot be parsed, or when any entry (a pattern included) has no file in the tree.
 */
export function packageEntryFiles(
  files: readonly string[],
  isManifest: (p: string) => boolean,
  read: (p: string) => string | null,
): string[] | null {
  const manifests = files.filter((f) => path.posix.basename(f) === 'package.json' && isManifest(f));
  if (manifests.length === 0) return null;
  const present = new Set(files);
  const out = new Set<string>();
  for (const m of manifests) {
    const text = read(m);
    const pkg = text === null ? null : parseLoose(text);
    if (pkg === null || typeof pkg !== 'object' || Array.isArray(pkg)) return null;
    const fields = pkg as Record<string, unknown>;
    const named = ['main', 'module', 'browser', 'exports', 'bin'].flatMap((k) => leaves(fields[k]));
    const entries = named.length > 0 ? named : ['index.js'];
    const dir = path.posix.dirname(m);
    const compiled = compiledDirs(dir, files, read);
    for (const e of entries) {
      if (e.includes('*')) return null;
      const rel = path.posix.normalize(path.posix.join(dir, e));
      if (rel.startsWith('../') || path.posix.isAbsolute(rel)) return null;
      const file = resolveEntry(rel.replace(/\/$/, ''), present, compiled);
      if (file === null) return null;
      out.add(file);
    }
  }
  return [...out].sort();
}
