/**
 * The caller's corepack cache, lent to each install as a copy of its own. An install gets a
 * fresh HOME, so corepack would fetch the package manager again (and a registry that serves
 * pnpm's metadata without signatures makes it fail); the caller's cache (`COREPACK_HOME`, else
 * `$XDG_CACHE_HOME/node/corepack`, else `~/.cache/node/corepack`) already holds it. Only the
 * install command's manager is copied (only the version the tree's `packageManager` names, when
 * it names one of that manager), with `lastKnownGood.json`, up to a size cap, never through a
 * link (a link is copied as a link: whatever reads through it is the install's uid). Each install
 * gets its own copy, pointed to by `COREPACK_HOME`: corepack trusts its cache without checking it
 * again, so a shared writable one would let one install plant a package manager for the next.
 * @module
 */
import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readlinkSync,
  readSync,
  rmSync,
  symlinkSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { readInside } from '@adversary-gate/core';
import { logEnd } from './faults.js';
import { installManager } from './install-settings.js';

/** The most bytes of the caller's corepack cache one install gets a copy of. */
export const MAX_COREPACK_COPY = 512 * 1024 * 1024;

/** The largest package.json read for its `packageManager` field. */
const MAX_MANIFEST = 16 * 1024 * 1024;

/** The package manager an install needs from the cache: a version when the tree pins one. */
export interface WantedManager {
  readonly name: 'npm' | 'pnpm' | 'yarn';
  readonly version: string | null;
}

/** An exact version, as corepack names its folders (a build after `+` is its hash). */
const PINNED = /^(npm|pnpm|yarn)@(\d+\.\d+\.\d+(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?)(?:\+[^/\\]*)?$/;

/**
 * The install command's manager, and the exact version the `packageManager` field of `dir`'s
 * package.json names for it (read without following a link); null version: any it holds.
 */
export function wantedManager(dir: string, command: string): WantedManager {
  const name = installManager(command);
  const manifest = readInside(dir, 'package.json', MAX_MANIFEST);
  if (!manifest.ok) return { name, version: null };
  let field: unknown;
  try {
    field = (JSON.parse(manifest.data.toString('utf8')) as { packageManager?: unknown }).packageManager;
  } catch {
    return { name, version: null };
  }
  const m = typeof field === 'string' ? PINNED.exec(field) : null;
  return { name, version: m !== null && m[1] === name ? m[2]! : null };
}

/** `512 MiB`, or `64 bytes` under a MiB. */
function size(bytes: number): string {
  return bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}

/** `pnpm@10.33.0`, or `pnpm` when no version is pinned. */
export function managerLabel(want: WantedManager): string {
  return want.version === null ? want.name : `${want.name}@${want.version}`;
}

/** What one install was lent: the copy (null: none) and a note that says why, for a fault line. */
export interface CorepackCopy {
  readonly home: string | null;
  /** The manager wanted, as `pnpm@10.33.0` or `pnpm`. */
  readonly label: string;
  readonly note: string;
  /** Whether the note is worth a failed install's fault line whatever it printed (the copy was refused). */
  readonly refused: boolean;
}

interface Entry {
  readonly rel: string;
  readonly kind: 'dir' | 'file' | 'link';
  readonly mode: number;
}

/** The entries under `rels` (folders first), their bytes, or null past `cap`; other kinds skipped. */
function listEntries(source: string, rels: readonly string[], cap: number): { entries: Entry[]; bytes: number } | null {
  const entries: Entry[] = [];
  let bytes = 0;
  const stack = [...rels].reverse();
  while (stack.length > 0) {
    const rel = stack.pop()!;
    const st = lstatSync(path.join(source, rel), { throwIfNoEntry: false });
    if (st === undefined) continue;
    if (st.isSymbolicLink()) entries.push({ rel, kind: 'link', mode: 0 });
    else if (st.isFile()) {
      bytes += st.size;
      if (bytes > cap) return null;
      entries.push({ rel, kind: 'file', mode: st.mode });
    } else if (st.isDirectory()) {
      entries.push({ rel, kind: 'dir', mode: st.mode });
      for (const name of readdirSync(path.join(source, rel)).sort().reverse()) stack.push(path.join(rel, name));
    }
  }
  return { entries, bytes };
}

/** Copy one regular file, opened without following a link; returns the bytes copied. */
function copyFile(from: string, to: string, mode: number, budget: number): number {
  const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK, O_NOCTTY } = constants;
  const src = openSync(from, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
  let dst: number | null = null;
  try {
    if (!fstatSync(src).isFile()) throw new Error(`${from} is no longer a regular file`);
    // Executable bits kept; never set-id bits, nor write for others.
    dst = openSync(to, 'wx', 0o600);
    fchmodSync(dst, mode & 0o755);
    const buffer = Buffer.alloc(1024 * 1024);
    let copied = 0;
    for (;;) {
      const n = readSync(src, buffer, 0, buffer.length, null);
      if (n === 0) return copied;
      copied += n;
      if (copied > budget) throw new RangeError('over the cap');
      writeSync(dst, buffer, 0, n);
    }
  } finally {
    closeSync(src);
    if (dst !== null) closeSync(dst);
  }
}

/**
 * Copy what `want` needs of the corepack home `source` into `target` (a new folder, made here):
 * `v1/<manager>/<version>` (or all of `v1/<manager>` when no version is pinned) and
 * `lastKnownGood.json`. Folders and files are made anew (links copied as links, never read
 * through; other kinds skipped). Past `cap` bytes nothing is copied. The copy's `home` is
 * null whenever nothing was copied (a copy that failed part way is removed).
 */
export function copyCorepackCache(
  source: string,
  target: string,
  want: WantedManager,
  cap: number = MAX_COREPACK_COPY,
): CorepackCopy {
  const label = managerLabel(want);
  const manager = path.join('v1', want.name, ...(want.version === null ? [] : [want.version]));
  let holds: boolean;
  try {
    holds = lstatSync(path.join(source, manager), { throwIfNoEntry: false })?.isDirectory() === true;
  } catch {
    holds = false;
  }
  if (!holds)
    return { home: null, label, note: `the caller's corepack cache ${source} holds no ${label}`, refused: false };
  try {
    const listed = listEntries(source, [manager, 'lastKnownGood.json'], cap);
    const over = {
      home: null,
      label,
      note: `the caller's corepack cache ${source} holds over ${size(cap)} of ${label}: not copied`,
      refused: true,
    };
    if (listed === null) return over;
    mkdirSync(path.join(target, path.dirname(manager)), { recursive: true, mode: 0o755 });
    let budget = cap;
    for (const e of listed.entries) {
      const [from, to] = [path.join(source, e.rel), path.join(target, e.rel)];
      if (e.kind === 'dir') mkdirSync(to, { mode: 0o755 });
      else if (e.kind === 'link') symlinkSync(readlinkSync(from), to);
      else {
        try {
          budget -= copyFile(from, to, e.mode, budget);
        } catch (err) {
          if (err instanceof RangeError) {
            rmSync(target, { recursive: true, force: true });
            return over;
          }
          throw err;
        }
      }
    }
    return {
      home: target,
      label,
      note: `a copy of the caller's corepack cache ${source} (${label}) was given`,
      refused: false,
    };
  } catch (err) {
    rmSync(target, { recursive: true, force: true });
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    return {
      home: null,
      label,
      note: `the caller's corepack cache ${source} could not be copied (${code})`,
      refused: true,
    };
  }
}

/**
 * Lend one install a copy of the caller's corepack cache `source` (null: none, nothing lent),
 * made in a new folder under `work` for what the install at `dir` with `command` needs. The
 * caller gives `home` to the install as `COREPACK_HOME`, lends it to its uid, and removes it after.
 */
export function lendCorepack(source: string | null, work: string, dir: string, command: string): CorepackCopy {
  const want = wantedManager(dir, command);
  const label = managerLabel(want);
  if (source === null) return { home: null, label, note: 'the caller has no corepack cache to copy', refused: false };
  let target: string;
  try {
    target = mkdtempSync(path.join(work, 'corepack-'));
  } catch (err) {
    const note = `no copy of the caller's corepack cache ${source} could be made (${(err as NodeJS.ErrnoException).code ?? 'error'})`;
    process.stderr.write(`ag-gate: ${note}\n`);
    return { home: null, label, note, refused: true };
  }
  const copy = copyCorepackCache(source, target, want);
  if (copy.home === null) rmSync(target, { recursive: true, force: true });
  if (copy.refused) process.stderr.write(`ag-gate: ${copy.note}\n`);
  return copy;
}

/** What corepack prints when it could not fetch a package manager (its signature or hash checks, the request). */
const COREPACK_FETCH =
  /No compatible signature found in package metadata|Signature does not match|Mismatch hashes|(?:Error when performing|Server answered with HTTP \d+ when performing) the request to|Network access disabled by the environment/;

/** Whether the install's `log` says corepack could not fetch the package manager. */
export function corepackCouldNotFetch(log: string): boolean {
  return COREPACK_FETCH.test(logEnd(log));
}

/**
 * What a failed install's fault line says of corepack (`` when nothing): that corepack could not
 * fetch the manager and what the caller's cache gave, or that the cache was refused.
 */
export function corepackFault(log: string, copy: CorepackCopy): string {
  if (corepackCouldNotFetch(log)) return `: corepack could not fetch ${copy.label} (${copy.note})`;
  return copy.refused ? ` (${copy.note})` : '';
}
