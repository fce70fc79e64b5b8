/**
 * The PATH a fresh unprivileged uid is given. Root's PATH may name directories that uid cannot
 * search (`/root/.local/bin` under a 0700 `/root`): a program found on no entry then fails with
 * EACCES (sh: exit 126, "Permission denied") where the project's own run gets ENOENT (127, "not
 * found"). Only the entries the uid can search are kept, in their order.
 * @module
 */
import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { SYSTEM_DIRS, type SandboxOptions } from './sandbox.js';
import { isWithin } from '../files/containment.js';

/** How a lookup as the uid fares in one directory. */
type Step = 'search' | 'denied' | 'absent';

/**
 * The PATH value `value` with only the entries a fresh uid can search, order kept. A fresh
 * uid (see `freshIdentity`) owns nothing outside its run and is in no group, so an absolute
 * entry is kept when every directory its lookup passes through (each ancestor, and the
 * directories a symlink among them leads to) has the search bit for others (o+x). An entry
 * whose lookup ends at a missing directory is kept (the uid gets ENOENT there, as the caller
 * does); relative and empty entries are kept (they name the working directory, the uid's copy).
 *
 * With `sandbox` (the options given to `bwrapArgv` for the same run) the sandbox's view is
 * judged: only the system directories, `readOnly` and `writable` are there, the directories
 * above them are made traversable by bwrap, and what lies in them keeps its host mode. Give
 * that PATH to the command through the options' `setenv`, not to bwrap: bwrap and the wrappers
 * around it run as root and are found on the caller's PATH.
 */
export function searchablePath(value: string, sandbox?: Pick<SandboxOptions, 'readOnly' | 'writable'>): string {
  const bound = sandbox === undefined ? null : [...SYSTEM_DIRS, ...(sandbox.readOnly ?? []), ...sandbox.writable];
  const memo = new Map<string, Step>();
  return value
    .split(':')
    .filter((entry) => !path.isAbsolute(entry) || reachable(path.normalize(entry), bound, memo, 0))
    .join(':');
}

/** True unless the lookup of `dir`, as a uid that is only "others" everywhere, meets a directory it cannot search. */
function reachable(dir: string, bound: readonly string[] | null, memo: Map<string, Step>, depth: number): boolean {
  if (depth > 8) return false; // a symlink loop: the lookup fails with ELOOP, not ENOENT; leave the entry out
  let at = '/';
  for (const part of ['', ...dir.split('/').filter((p) => p !== '')]) {
    at = path.join(at, part);
    const step = stepInto(at, bound, memo, depth);
    if (step === 'denied') return false;
    if (step === 'absent') return true;
  }
  return true;
}

function stepInto(dir: string, bound: readonly string[] | null, memo: Map<string, Step>, depth: number): Step {
  const known = memo.get(dir);
  if (known !== undefined) return known;
  let step: Step;
  if (bound !== null && !bound.some((b) => isWithin(b, dir)))
    // Above a bound directory: made by bwrap, 0755 (or the sandbox's root); elsewhere: not there.
    step = bound.some((b) => isWithin(dir, b)) ? 'search' : 'absent';
  else step = hostStep(dir, bound, memo, depth);
  memo.set(dir, step);
  return step;
}

function hostStep(dir: string, bound: readonly string[] | null, memo: Map<string, Step>, depth: number): Step {
  let mode: number;
  try {
    const st = statSync(dir);
    if (!st.isDirectory()) return 'absent'; // ENOTDIR, as for the caller
    mode = st.mode;
  } catch {
    return 'absent';
  }
  if ((mode & 0o001) === 0) return 'denied';
  // A symlink along the way: the lookup also passes through the directories of its target.
  let real: string;
  try {
    real = realpathSync(dir);
  } catch {
    return 'absent';
  }
  if (real !== dir && !reachable(real, bound, memo, depth + 1)) return 'denied';
  return 'search';
}
