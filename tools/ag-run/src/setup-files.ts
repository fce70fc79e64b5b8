/**
 * The setup and require files the baseline's runner configuration and full-suite command name:
 * code the runner loads around the tests, which the trusted tree takes from the baseline like
 * the configuration itself. Read as text, never evaluated: the values of a few known keys
 * (`setupFiles`, `globalSetup`, `require`, `addopts`, `pytest_plugins`, …) in the runner
 * configuration at the baseline's root, the `jest`, `ava`, `mocha`, `c8` and `nyc` sections of
 * its `package.json`, the root `conftest.py`'s `pytest_plugins`, and the `--require`/`-r`/
 * `--import`/`--loader`/`-p` arguments of the full-suite command (and of the package script
 * it runs, `npm test` and the like). A name computed at run time, or one inside a file these
 * name, is not seen.
 * @module
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';

/** Runner configuration read at the baseline's root (package.json and conftest.py apart). */
const CONFIG_FILE =
  /^(pytest\.ini|tox\.ini|setup\.cfg|pyproject\.toml|\.mocharc\.[a-z]+|(jest|vitest|ava)\.config\.[a-z]+|\.c8rc(\.[a-z]+)?|\.nycrc(\.[a-z]+)?)$/;

/** Keys whose values name code the runner loads around the tests. */
const SETUP_KEY =
  /(?<![\w$.-])["']?(setupFiles|setupFilesAfterEnv|setupFilesAfterFramework|globalSetup|globalTeardown|testEnvironment|snapshotResolver|resolver|dependencyExtractor|testRunner|runner|transform|preset|require|loader|file|nodeArguments|execArgv|addopts|pytest_plugins)["']?\s*[:=]/g;

/** Command-line flags whose argument is loaded before the tests. */
const LOAD_FLAG = /^(-r|--require|--import|--loader|--experimental-loader|-p|--setup-files?|--globalSetup)$/;

/** The `package.json` sections that configure a runner. */
const PACKAGE_SECTIONS = ['jest', 'ava', 'mocha', 'c8', 'nyc'] as const;

const MAX_BYTES = 1024 * 1024;

/** The extensions of code a runner loads. */
const CODE = ['.js', '.cjs', '.mjs', '.jsx', '.ts', '.cts', '.mts', '.tsx', '.py'];

async function readSmall(file: string): Promise<string | null> {
  try {
    const st = await fs.lstat(file);
    if (!st.isFile() || st.size > MAX_BYTES) return null;
    return await fs.readFile(file, 'utf8');
  } catch {
    return null;
  }
}

/** The end of a bracketed value starting at `i` (`[`, `{` or `(`), quotes respected. */
function closing(text: string, i: number): number {
  let depth = 0;
  let quote: string | null = null;
  for (let j = i; j < text.length; j++) {
    const c = text[j]!;
    if (quote !== null) {
      if (c === '\\') j++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'" || c === '`') quote = c;
    else if (c === '[' || c === '{' || c === '(') depth++;
    else if (c === ']' || c === '}' || c === ')') {
      depth--;
      if (depth === 0) return j + 1;
    }
  }
  return text.length;
}

/** The text of one key's value: a bracketed list, a quoted string, or the rest of the line and its indented continuation lines. */
function valueAt(text: string, i: number): string {
  let j = i;
  while (j < text.length && (text[j] === ' ' || text[j] === '\t')) j++;
  const c = text[j];
  if (c === '[' || c === '{' || c === '(') return text.slice(j, closing(text, j));
  if (c === '"' || c === "'" || c === '`') {
    let k = j + 1;
    while (k < text.length && text[k] !== c && text[k] !== '\n') k += text[k] === '\\' ? 2 : 1;
    return text.slice(j, k + 1);
  }
  // INI and YAML: the line, and the indented lines that continue it (`addopts =` over lines, `- item` lists).
  const lines = text.slice(j).split('\n');
  const out = [lines[0]!];
  for (const line of lines.slice(1)) {
    if (!/^[ \t]+\S/.test(line)) break;
    out.push(line);
  }
  return out.join('\n');
}

/** The words of a value: its quoted strings, else its whitespace- and comma-separated words. */
function words(value: string): string[] {
  const quoted = [...value.matchAll(/"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'|`([^`$\n]*)`/g)].map(
    (m) => m[1] ?? m[2] ?? m[3] ?? '',
  );
  const bare = quoted.length > 0 ? [] : value.split(/[\s,[\]]+/).map((w) => w.replace(/^-\s*$/, ''));
  return [...quoted, ...bare].flatMap((w) => w.trim().split(/\s+/)).filter((w) => w !== '');
}

/** The file names a word of a setup value may stand for, relative to the root. */
function candidates(word: string): string[] {
  let w = word.replace(/^--?[\w-]+=/, '').replace(/^<root[dD]ir>\//, '');
  if (w.startsWith('/') || w.includes('\0') || w.startsWith('no:')) return [];
  w = path.posix.normalize(w);
  if (w === '.' || w.startsWith('../') || w === '..') return [];
  // Code only: a name with another extension (a readme, a tsconfig) is no setup file.
  const out = CODE.includes(path.posix.extname(w)) ? [w] : [];
  for (const ext of CODE) out.push(`${w}${ext}`, `${w}/index${ext}`);
  // A Python module name (a pytest plugin): its module file or package.
  if (/^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$/.test(w)) {
    const m = w.replace(/\./g, '/');
    out.push(`${m}.py`, `${m}/__init__.py`);
  }
  return out;
}

/** The words of a command that a load flag takes (`-r X`, `--require=X`, `-p X`). */
function commandWords(command: string): string[] {
  const tokens = command.split(/\s+/).map((t) => t.replace(/^["']|["']$/g, ''));
  const out: string[] = [];
  tokens.forEach((t, i) => {
    const eq = /^(--[\w-]+)=(.+)$/.exec(t);
    if (eq !== null && LOAD_FLAG.test(eq[1]!)) out.push(eq[2]!);
    else if (LOAD_FLAG.test(t) && tokens[i + 1] !== undefined) out.push(tokens[i + 1]!);
  });
  return out;
}

/** The words of every setup key's value in `text`. */
function keyWords(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(SETUP_KEY)) out.push(...words(valueAt(text, m.index + m[0].length)));
  return out;
}

/** The package script a command runs (`npm test`, `npm run x`, `yarn x`, `pnpm run x`), if any. */
function scriptOf(command: string): string | null {
  const m = /(?:^|[\s;&|(])(?:npm|pnpm|yarn)\s+(?:(?:run|run-script)\s+)?([\w:.-]+)/.exec(command);
  if (m === null) return null;
  const name = m[1]!;
  return name === 't' || name === 'tst' ? 'test' : name;
}

/**
 * Every path (relative to the tree's root, POSIX) that the baseline's runner configuration or
 * full-suite command may name as a setup or require file. Names, not files: a name the patch
 * adds a file under stays absent from the trusted tree, as it is absent from the baseline.
 */
export async function namedSetupFiles(baseline: string, command: string | null): Promise<Set<string>> {
  const found: string[] = [];
  const commands = command === null ? [] : [command];
  const manifest = await readSmall(path.join(baseline, 'package.json'));
  if (manifest !== null) {
    try {
      const pkg = JSON.parse(manifest) as Record<string, unknown>;
      for (const s of PACKAGE_SECTIONS) if (pkg[s] !== undefined) found.push(...keyWords(JSON.stringify(pkg[s])));
      const scripts = pkg.scripts as Record<string, unknown> | undefined;
      const name = command === null ? null : scriptOf(command);
      const script = name === null ? undefined : scripts?.[name];
      if (typeof script === 'string') commands.push(script);
    } catch {
      // Not JSON: the runner could not read it either.
    }
  }
  for (const c of commands) found.push(...commandWords(c));
  let entries: string[] = [];
  try {
    entries = await fs.readdir(baseline);
  } catch {
    entries = [];
  }
  for (const name of entries.filter((n) => CONFIG_FILE.test(n) || n === 'conftest.py').sort()) {
    const text = await readSmall(path.join(baseline, name));
    if (text === null) continue;
    if (name === 'conftest.py') {
      for (const m of text.matchAll(/^pytest_plugins\s*=/gm))
        found.push(...words(valueAt(text, m.index + m[0].length)));
    } else found.push(...keyWords(text));
  }
  return new Set(found.flatMap(candidates));
}
