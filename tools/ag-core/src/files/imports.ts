/**
 * What is a test is what the runner runs: a file whose name says "test" but that source
 * code imports is source (`src/ab-test.js` matches `**\/*-test.*`; a test-helper module
 * that `src/` re-exports). Reads the import statements of JS/TS (relative specifiers:
 * `import`, `export … from`, `require()`, `import()`) and Python (relative imports, and
 * package imports resolved from the tree root and `src/`), and promotes every test-class
 * file that product code imports, transitively, to source (entry-points.ts: a script beside
 * the package that imports a test's table of cases does not make the table source).
 * @module
 */
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { makeClassifier, type ClassOverrides, type FileClass } from './classify.js';
import { packageEntryFiles } from './entry-points.js';

/** A file whose name makes it a test, imported by source: source after all. */
export interface ImportedTest {
  readonly path: string;
  /** The first source file (sorted) found importing it. */
  readonly imported_by: string;
}

const JS_EXT = ['.js', '.mjs', '.cjs', '.jsx', '.ts', '.mts', '.cts', '.tsx'];
const JS_SPEC = [
  /\bimport\s+(?:[\w$*{}\s,]+?\s+from\s+)?['"]([^'"\n]+)['"]/g,
  /\bexport\s+(?:\*(?:\s+as\s+[\w$]+)?|\{[^}]*\})\s+from\s+['"]([^'"\n]+)['"]/g,
  /\b(?:require|import)\s*\(\s*['"]([^'"\n]+)['"]\s*\)/g,
];
const PY_FROM = /^[ \t]*from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+\(?([\w\t ,]+)/gm;
const PY_IMPORT = /^[ \t]*import[ \t]+([\w.]+(?:[ \t]*,[ \t]*[\w.]+)*)/gm;

/** The language whose imports apply to `file`, or null. */
export function importLanguage(file: string): 'js' | 'py' | null {
  if (JS_EXT.includes(path.posix.extname(file).toLowerCase())) return 'js';
  return /\.py$/i.test(file) ? 'py' : null;
}

/**
 * The repository paths `text` (the file `from`) may import, as candidate lists: each import
 * is the list of paths it would load, first existing one wins. Only what lies in the tree.
 */
export function importCandidates(from: string, text: string, lang: 'js' | 'py'): string[][] {
  const dir = path.posix.dirname(from);
  const out: string[][] = [];
  const inTree = (p: string) => {
    const n = path.posix.normalize(p);
    return n.startsWith('../') || n === '..' || path.posix.isAbsolute(n) ? null : n.replace(/^\.\//, '');
  };
  if (lang === 'js') {
    for (const re of JS_SPEC) {
      for (const m of text.matchAll(re)) {
        const spec = m[1]!;
        if (!spec.startsWith('./') && !spec.startsWith('../')) continue;
        const base = inTree(path.posix.join(dir, spec));
        if (base === null) continue;
        const stem = base.replace(/\.[cm]?js$/, '');
        out.push([
          base,
          ...JS_EXT.map((e) => base + e),
          ...JS_EXT.map((e) => stem + e),
          ...JS_EXT.map((e) => `${base}/index${e}`),
        ]);
      }
    }
    return out;
  }
  const modulePaths = (root: string, dotted: string) => {
    const rel = dotted.split('.').filter(Boolean).join('/');
    const p = inTree(path.posix.join(root, rel));
    return p === null ? [] : [`${p}.py`, `${p}/__init__.py`];
  };
  for (const m of text.matchAll(PY_FROM)) {
    const [dots, mod, names] = [
      m[1]!,
      m[2]!,
      m[3]!
        .split(',')
        .map((s) => s.trim().split(/\s+/)[0]!)
        .filter(Boolean),
    ];
    const roots = dots === '' ? ['.', 'src'] : [path.posix.join(dir, ...Array(dots.length - 1).fill('..'))];
    for (const root of roots) {
      if (mod !== '') out.push(modulePaths(root, mod));
      for (const name of names) out.push(modulePaths(root, mod === '' ? name : `${mod}.${name}`));
    }
  }
  for (const m of text.matchAll(PY_IMPORT)) {
    for (const mod of m[1]!.split(',').map((s) => s.trim()))
      for (const root of ['.', 'src']) out.push(modulePaths(root, mod));
  }
  return out.filter((c) => c.length > 0);
}

/** Folders never walked: installed packages, history, caches. */
const SKIP_DIRS = new Set([
  'node_modules',
  '.git',
  '__pycache__',
  '.venv',
  'venv',
  '.tox',
  'dist',
  'build',
  'coverage',
  '.nyc_output',
]);

/** Largest file whose imports are read. */
const MAX_BYTES = 1024 * 1024;

/** Every regular file under `tree` (relative, sorted), outside {@link SKIP_DIRS}; symlinks are not followed. */
export function listTreeFiles(tree: string, limit = 200_000): string[] {
  const files: string[] = [];
  const walk = (rel: string) => {
    for (const e of readdirSync(path.join(tree, rel), { withFileTypes: true })) {
      if (files.length >= limit) return;
      const p = rel === '' ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory()) {
        if (!SKIP_DIRS.has(e.name)) walk(p);
      } else if (e.isFile()) files.push(p);
    }
  };
  walk('');
  return files.sort();
}

/** Resolve each import of `from` to the tree file it loads (first existing candidate). */
function importsOf(from: string, present: ReadonlySet<string>, read: (p: string) => string | null): string[] {
  const lang = importLanguage(from);
  const text = lang === null ? null : read(from);
  if (text === null || lang === null) return [];
  const out: string[] = [];
  for (const candidates of importCandidates(from, text, lang)) {
    const target = candidates.find((c) => present.has(c));
    if (target !== undefined) out.push(target);
  }
  return out;
}

/**
 * The test-class files that product code imports (transitively: a promoted file's own
 * imports count as product imports too). Product code is every source file, or, given
 * `roots`, what the roots reach through the files they import. `files` are the tree's files;
 * `read` gives a file's text (null when it cannot be read: its imports are not known).
 */
export function importedTests(
  files: readonly string[],
  classify: (p: string) => FileClass,
  read: (p: string) => string | null,
  roots?: readonly string[],
): ImportedTest[] {
  const present = new Set(files);
  const promoted = new Map<string, string>();
  const queue = (roots ?? files.filter((f) => classify(f) === 'source')).filter((f) => importLanguage(f) !== null);
  const reached = new Set(queue);
  while (queue.length > 0) {
    const from = queue.shift()!;
    for (const target of importsOf(from, present, read)) {
      if (classify(target) === 'test') {
        if (promoted.has(target)) continue;
        promoted.set(target, from);
      } else if (reached.has(target)) continue;
      reached.add(target);
      queue.push(target);
    }
  }
  return [...promoted].map(([p, by]) => ({ path: p, imported_by: by })).sort((a, b) => (a.path < b.path ? -1 : 1));
}

/** The files that test files (test-named and not promoted to source) import directly, sorted. */
export function importedByTests(
  files: readonly string[],
  isTest: (p: string) => boolean,
  read: (p: string) => string | null,
): string[] {
  const present = new Set(files);
  const out = new Set<string>();
  for (const f of files) if (isTest(f)) for (const target of importsOf(f, present, read)) out.add(target);
  return [...out].sort();
}

/** Reads a file of `tree` as text: a regular file of at most 1 MiB (lstat: a link is not read), else null. */
export function treeReader(tree: string): (p: string) => string | null {
  return (p) => {
    try {
      const full = path.join(tree, p);
      const st = lstatSync(full);
      if (!st.isFile() || st.size > MAX_BYTES) return null;
      return readFileSync(full, 'utf8');
    } catch {
      return null;
    }
  };
}

/** A classifier for one tree: the policy's classes, with imported test-named files made source. */
export interface TreeClasses {
  readonly classify: (path: string) => FileClass;
  readonly promoted: readonly ImportedTest[];
  /** Files that the tree's test files import (a promoted file here is test data as well as source code). */
  readonly imported_by_tests: readonly string[];
}

/**
 * Classify the files of `tree` as the runner would see them: by name under `overrides`,
 * then every test-named file that product code imports is source (product code: what the
 * package manifests ship and the tests import, transitively; without a manifest that says,
 * every source file). Reads each source file of JS or
 * Python up to 1 MiB (lstat: links are not read).
 */
export function classifyTree(tree: string, overrides: ClassOverrides = {}): TreeClasses {
  const byName = makeClassifier(overrides);
  const read = treeReader(tree);
  const files = listTreeFiles(tree);
  // Product code: what the JS packages ship and the tests import, when the manifests say
  // what ships (they say nothing of Python: all of it counts); else every source file.
  const entries = packageEntryFiles(files, (p) => byName(p) !== 'test', read);
  const python = files.filter((f) => byName(f) === 'source' && importLanguage(f) === 'py');
  const testImports = importedByTests(files, (p) => byName(p) === 'test', read);
  const roots =
    entries === null
      ? undefined
      : [...new Set([...entries, ...testImports, ...python])].filter((p) => byName(p) !== 'test');
  const promoted = importedTests(files, byName, read, roots);
  const source = new Set(promoted.map((p) => p.path));
  const classify = (p: string): FileClass => (source.has(p.replace(/^\.\//, '')) ? 'source' : byName(p));
  return { classify, promoted, imported_by_tests: importedByTests(files, (p) => classify(p) === 'test', read) };
}
