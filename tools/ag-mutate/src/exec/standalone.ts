/**
 * Is a mutant stillborn? Proven apart from the tests, never read from a test run: the
 * engine parses (JS/TS, with the parser that lists the sites) or compiles (Python,
 * `compile()`) every mutated file before anything runs. Two checks go further, asked only
 * when a run hints at them, and each compares the mutated file with the unmutated one:
 * - TypeScript: the project's own `tsc --noEmit` (from its installed packages) reports an
 *   error in the mutated file that the unmutated file does not have;
 * - Python: the mutated module fails to import on its own (a fresh interpreter, no test
 *   code) where the unmutated module imports.
 * Nothing a test does can make these checks fail: no test code runs in them.
 * @module
 */
import { stripVTControlCharacters } from 'node:util';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { applySite, type Site } from '../engines/site.js';
import { passed } from './outcome.js';
import type { Workspace } from './workspace.js';

/** What a standalone check found: the mutant does not load, it loads, or the check cannot tell. */
export type Standalone = 'fails' | 'loads' | 'unknown';

const TS_FILE = /\.(?:ts|tsx|mts|cts)$/;
const TS_ERROR = /\berror TS\d{3,5}:/;

/** Python: import the module at argv[1] (a path under the cwd) as a package module when it is one. */
const IMPORT_CHECK = `
import importlib, os, sys
rel = sys.argv[1]
root = os.getcwd()
parts = rel[:-3].split("/")
if parts[-1] == "__init__":
    parts = parts[:-1]
# the longest run of package folders (with __init__.py) above the file gives its import name
i = len(parts) - 1
while i > 0 and os.path.exists(os.path.join(root, *parts[:i], "__init__.py")):
    i -= 1
sys.path[:0] = [os.path.join(root, *parts[:i]), root]
importlib.import_module(".".join(parts[i:]))
`;

/** Run a check command in copy `w` with the site's file as `text`; the copy is restored after. */
async function withText(
  ws: Workspace,
  w: number,
  file: string,
  text: string | null,
  command: string,
  timeoutMs: number,
) {
  const copy = ws.copies[w]!;
  if (text !== null) copy.write(file, text);
  try {
    return await ws.run(w, command, timeoutMs);
  } finally {
    if (text !== null) copy.restoreFile(file);
    copy.restore();
  }
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The folder of the nearest tsconfig.json above `file` (tree-relative), or null. */
function tsconfigDir(root: string, file: string): string | null {
  for (let dir = path.posix.dirname(file); ; dir = path.posix.dirname(dir)) {
    if (existsSync(path.join(root, dir, 'tsconfig.json'))) return dir;
    if (dir === '.' || dir === '/' || dir === '') return null;
  }
}

/** The lines of `tsc` output that report an error in `file`. */
function tsErrors(output: string, file: string): Set<string> {
  return new Set(
    output
      .split('\n')
      .filter((l) => l.startsWith(`${file}(`) && TS_ERROR.test(l))
      .map((l) => l.replace(/^[^:]*:/, '')),
  );
}

/** Checks shared by every mutant of one execution (the unmutated answers are asked once). */
export class StandaloneChecks {
  private readonly clean = new Map<string, Promise<{ ok: boolean; output: string }>>();

  constructor(
    private readonly ws: Workspace,
    private readonly texts: ReadonlyMap<string, string>,
    private readonly python: string,
    private readonly timeoutMs: number,
  ) {}

  /** Does the run's output ask for a check of this site? */
  static wanted(site: Site, output: string, ended: string | null): boolean {
    if (TS_FILE.test(site.file)) return TS_ERROR.test(output);
    return /\.pyw?$/.test(site.file) && ended !== null;
  }

  /** Check the site apart from the tests, in copy `w`. */
  async check(w: number, site: Site): Promise<Standalone> {
    const mutated = applySite(this.texts.get(site.file)!, site);
    if (TS_FILE.test(site.file)) return this.typescript(w, site.file, mutated);
    if (/\.pyw?$/.test(site.file)) return this.pythonImport(w, site.file, mutated);
    return 'unknown';
  }

  private async typescript(w: number, file: string, mutated: string): Promise<Standalone> {
    const root = this.ws.copies[w]!.root;
    const tsc = path.join('node_modules', '.bin', 'tsc');
    const dir = tsconfigDir(root, file);
    if (!existsSync(path.join(root, tsc)) || dir === null) return 'unknown';
    const command = `${quote(tsc)} --noEmit --pretty false -p ${quote(dir)}`;
    const clean = await this.cleanRun(w, `ts\0${file}`, command, file);
    const run = await withText(this.ws, w, file, mutated, command, this.timeoutMs);
    if (run.timedOut || run.spawnError !== null) return 'unknown';
    const before = tsErrors(clean.output, file);
    const after = tsErrors(`${run.stdoutTail}\n${run.stderrTail}`, file);
    return [...after].some((e) => !before.has(e)) ? 'fails' : 'loads';
  }

  private async pythonImport(w: number, file: string, mutated: string): Promise<Standalone> {
    const command = `${quote(this.python)} -B -c ${quote(IMPORT_CHECK)} ${quote(file)}`;
    const clean = await this.cleanRun(w, `py\0${file}`, command, file);
    if (!clean.ok) return 'unknown';
    const run = await withText(this.ws, w, file, mutated, command, this.timeoutMs);
    if (run.timedOut || run.spawnError !== null) return 'unknown';
    return passed(run) ? 'loads' : 'fails';
  }

  private cleanRun(w: number, key: string, command: string, file: string): Promise<{ ok: boolean; output: string }> {
    let known = this.clean.get(key);
    if (known === undefined) {
      known = withText(this.ws, w, file, null, command, this.timeoutMs).then((r) => ({
        ok: passed(r),
        output: stripVTControlCharacters(`${r.stdoutTail}\n${r.stderrTail}`),
      }));
      this.clean.set(key, known);
    }
    return known;
  }
}
