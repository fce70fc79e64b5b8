/**
 * Which Python interpreter a test command runs, named: the first word of the command that names
 * one (`python3`, `python3.12`, `/opt/py/bin/python`), found on the runs' PATH as their shell
 * finds it, with its version, beside what the caller's own PATH gives for the same word. A
 * fresh uid is given only the PATH entries it can search, so a pyenv under a 0700 `/root`
 * gives way to the system's `python3` there: the evidence says so instead of keeping quiet.
 *
 * The interpreter is asked for its version (`--version`, which runs no startup code) before
 * any of the patch's code runs, from `/`, never through a PATH entry that is relative or
 * empty (those name the run's working directory, a copy of a tree the patch controls): such an
 * entry before the interpreter leaves it unnamed (null).
 * @module
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { childEnv } from './env.js';
import { SYSTEM_DIRS } from './sandbox.js';
import { searchablePath } from './search-path.js';
import { executable, toolchainDirs } from './toolchain.js';
import { isWithin } from '../files/containment.js';

/** The interpreter one test command runs, as the runs' PATH and the caller's give it. */
export interface InterpreterFinding {
  /** The test command. */
  readonly command: string;
  /** The word of the command that names the interpreter (`python3`). */
  readonly name: string;
  /** The file the runs' PATH gives for it; null when it could not be told (or none). */
  readonly path: string | null;
  /** Its version (`3.11.2`); null when it did not say. */
  readonly version: string | null;
  /** The file the caller's PATH gives for the same word; null when none could be told. */
  readonly caller_path: string | null;
  /** That file's version. */
  readonly caller_version: string | null;
}

/** Where to look: a PATH value, and which files the run can see (in a sandbox, only some). */
export interface Lookup {
  readonly path: string;
  readonly visible?: (file: string) => boolean;
}

/** How the test runs are made (ag-run's settings). */
export interface RunsRegime {
  /** `--pass-env` (a PATH passed stays the caller's). */
  readonly passEnv: readonly string[];
  readonly sandbox: 'none' | 'bwrap';
  /** Every run is a fresh uid (ag-run as root). */
  readonly freshUid: boolean;
  /** Directories the sandbox must not show (the trees, the evidence). */
  readonly keepOut: readonly string[];
  /** The caller's HOME (never bound itself). */
  readonly home?: string;
}

/**
 * Where the runs of `command` look for the programs it names, as ag-run sets their PATH: the
 * caller's, for a fresh uid only the entries it can search; sandboxed, as the sandbox shows
 * them, and only the files of the directories it shows (the system's, and the toolchain's it
 * binds; the installed packages it binds too hold no interpreter).
 */
export function runsLookup(r: RunsRegime, command: string): Lookup {
  const base = childEnv({ home: '/', passEnv: r.passEnv }).PATH!;
  if (r.sandbox !== 'bwrap') return { path: r.freshUid ? searchablePath(base) : base };
  const readOnly = toolchainDirs({
    path: base,
    command,
    keepOut: r.keepOut,
    ...(r.home !== undefined ? { home: r.home } : {}),
  });
  const shown = [...SYSTEM_DIRS, ...readOnly];
  return {
    path: r.freshUid ? searchablePath(base, { readOnly, writable: [] }) : base,
    visible: (file) => shown.some((d) => isWithin(d, file)),
  };
}

/** The caller's own lookup: its PATH as it is. */
export function callerLookup(env: NodeJS.ProcessEnv = process.env): Lookup {
  return { path: env.PATH ?? '/usr/local/bin:/usr/bin:/bin' };
}

const PYTHON = /^python(\d+(\.\d+)*)?$/;

/** The first word of a shell command that names a Python interpreter, or null. */
export function pythonOf(command: string): string | null {
  for (const word of command.split(/[\s;&|()<>'"`]+/)) if (word !== '' && PYTHON.test(path.basename(word))) return word;
  return null;
}

/**
 * The file `name` runs as on `lookup` (a name with a slash: itself, when absolute), or null: not
 * found, or a relative or empty PATH entry comes first (the working directory: not told).
 */
export function findOnPath(name: string, lookup: Lookup): string | null {
  const seen = (file: string) => executable(file) && (lookup.visible?.(file) ?? true);
  if (name.includes('/')) return path.isAbsolute(name) && seen(name) ? name : null;
  for (const entry of lookup.path.split(':')) {
    if (!path.isAbsolute(entry)) return null;
    const file = path.join(entry, name);
    if (seen(file)) return file;
  }
  return null;
}

const versions = new Map<string, string | null>();

/** `3.11.2` from `file --version` (run once per file, from `/`, at most 10 s), or null. */
export function pythonVersion(file: string, env: NodeJS.ProcessEnv = process.env): string | null {
  const known = versions.get(file);
  if (known !== undefined) return known;
  const r = spawnSync(file, ['--version'], {
    cwd: '/',
    env,
    encoding: 'utf8',
    timeout: 10_000,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const said = `${r.stdout ?? ''}${r.stderr ?? ''}`.trim().split('\n')[0] ?? '';
  const m = /^Python (\S+)$/.exec(said);
  const version = r.status === 0 && m !== null ? m[1]! : null;
  versions.set(file, version);
  return version;
}

/**
 * The Python interpreter `command` runs on `runs` beside the one `caller` gives for the same
 * word (each with its version), or null when the command names none.
 */
export function pythonInterpreter(command: string, runs: Lookup, caller: Lookup): InterpreterFinding | null {
  const name = pythonOf(command);
  if (name === null) return null;
  const file = findOnPath(name, runs);
  const callerFile = findOnPath(name, caller);
  return {
    command,
    name,
    path: file,
    version: file === null ? null : pythonVersion(file),
    caller_path: callerFile,
    caller_version: callerFile === null ? null : pythonVersion(callerFile),
  };
}

/**
 * One plain sentence on the interpreter: which runs the tests (path and version), and, when it
 * is not the one the caller's PATH gives for the same word, that it is not, and which that is.
 */
export function interpreterSentence(f: InterpreterFinding, freshUid: boolean): string {
  const named = (file: string, version: string | null) =>
    `${file} (${version === null ? 'version unknown' : `Python ${version}`})`;
  const caller =
    f.caller_path === null
      ? `the caller's PATH gives no ${f.name} that could be told`
      : `the caller's PATH gives ${named(f.caller_path, f.caller_version)}`;
  if (f.path === null)
    return `which ${f.name} runs the tests could not be told (none found, or a relative or empty PATH entry comes first); ${caller}`;
  const ran = `${f.name} for the tests is ${named(f.path, f.version)}`;
  if (f.path === f.caller_path && f.version === f.caller_version)
    return `${ran}, the ${f.name} the caller's PATH gives`;
  const why = freshUid ? ' (each run is a fresh uid, given only the PATH entries it can search)' : '';
  return `${ran}: NOT the ${f.name} the caller's PATH gives; ${caller}${why}`;
}
