/**
 * Workspaces: npm's and yarn's `workspaces` in package.json, pnpm's `pnpm-workspace.yaml`.
 * When a workspaces root has no runner of its own, the gate judges the ONE workspace the patch
 * changes with that workspace's own runner, run from the tree's root as `cd DIR && COMMAND`
 * (its reports under DIR). Everything here is pure over the changed paths and text given, or
 * reads only package manifests; nothing runs.
 * @module
 */
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { shQuote, type TestWiring } from './wiring.js';

/** A regular file, not through a link on its last component (a tree's files are data here, never followed). */
const regularFile = (p: string) => lstatSync(p, { throwIfNoEntry: false })?.isFile() === true;
/** A folder, not a link to one. */
const realDir = (p: string) => lstatSync(p, { throwIfNoEntry: false })?.isDirectory() === true;

/** The workspace patterns a root declares, and the file that declares them. */
export interface WorkspacePatterns {
  readonly from: string;
  readonly patterns: readonly string[];
}

/** The `packages:` list of a `pnpm-workspace.yaml` (block or flow style; quotes and comments dropped). */
export function parsePnpmWorkspace(text: string): string[] {
  const lines = text.split(/\r?\n/);
  const unquote = (s: string) => s.trim().replace(/^(["'])(.*)\1$/, '$2');
  const noComment = (s: string) => s.replace(/(^|\s)#.*$/, '');
  for (let i = 0; i < lines.length; i++) {
    const m = /^packages\s*:(.*)$/.exec(noComment(lines[i] as string));
    if (m === null) continue;
    const rest = (m[1] as string).trim();
    if (rest.startsWith('[')) {
      const flow = rest.slice(1, rest.includes(']') ? rest.indexOf(']') : undefined);
      return flow
        .split(',')
        .map(unquote)
        .filter((p) => p !== '');
    }
    const out: string[] = [];
    for (const line of lines.slice(i + 1)) {
      const l = noComment(line);
      if (l.trim() === '') continue;
      const item = /^\s+-\s*(.*)$/.exec(l);
      if (item === null) break;
      const value = unquote(item[1] as string);
      if (value !== '') out.push(value);
    }
    return out;
  }
  return [];
}

/**
 * The workspace patterns of the root at `root` with package.json `pkg`: pnpm's
 * `pnpm-workspace.yaml` first (pnpm reads no other), else `workspaces` in package.json (npm and
 * yarn: a list, or yarn's `{ packages: [...] }`). Null when the root declares none.
 */
export function workspacePatterns(root: string, pkg: { readonly workspaces?: unknown }): WorkspacePatterns | null {
  const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  const yaml = path.join(root, 'pnpm-workspace.yaml');
  if (regularFile(yaml)) {
    const patterns = parsePnpmWorkspace(readFileSync(yaml, 'utf8'));
    if (patterns.length > 0) return { from: 'pnpm-workspace.yaml', patterns };
  }
  const ws = pkg.workspaces;
  const patterns = Array.isArray(ws)
    ? strings(ws)
    : ws !== null && typeof ws === 'object'
      ? strings((ws as { packages?: unknown }).packages)
      : [];
  return patterns.length > 0 ? { from: 'package.json workspaces', patterns } : null;
}

/** A pattern's segment as a regular expression (`*` is any run of characters but `/`; dot folders only when named). */
function segmentRe(segment: string): RegExp {
  const body = segment.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*');
  return new RegExp(`^${segment.startsWith('.') ? '' : '(?!\\.)'}${body}$`);
}

const SKIP = new Set(['node_modules', '.git']);
const MAX_DEPTH = 8;

function subdirs(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory() && !SKIP.has(e.name))
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

/** The folders under `root` one pattern names (`packages/*`, `apps/**`, `tools/cli`, `libs/ui-*`). */
function expandOne(root: string, pattern: string): string[] {
  const segments = path.posix
    .normalize(pattern.replace(/\\/g, '/'))
    .replace(/^\.\/|\/$/g, '')
    .split('/')
    .filter((s) => s !== '' && s !== '.');
  if (segments.length === 0 || segments.includes('..') || path.posix.isAbsolute(pattern)) return [];
  const out = new Set<string>();
  const walk = (rel: string, i: number, depth: number): void => {
    if (i === segments.length) {
      if (rel !== '') out.add(rel);
      return;
    }
    if (depth > MAX_DEPTH) return;
    const seg = segments[i] as string;
    const here = rel === '' ? root : path.join(root, rel);
    const join = (name: string) => (rel === '' ? name : `${rel}/${name}`);
    if (seg === '**') {
      walk(rel, i + 1, depth);
      for (const name of subdirs(here)) if (!name.startsWith('.')) walk(join(name), i, depth + 1);
      return;
    }
    if (!seg.includes('*')) {
      if (!SKIP.has(seg) && realDir(path.join(here, seg))) walk(join(seg), i + 1, depth + 1);
      return;
    }
    const re = segmentRe(seg);
    for (const name of subdirs(here)) if (re.test(name)) walk(join(name), i + 1, depth + 1);
  };
  walk('', 0, 0);
  return [...out];
}

/**
 * The workspace folders `patterns` name under `root` (relative, POSIX, sorted): each a folder
 * with a package.json; `!pattern` removes what it names; `node_modules` and `.git` never, nor
 * a folder or a package.json that is a link (nothing of the tree is followed out of it).
 */
export function expandWorkspaces(root: string, patterns: readonly string[]): string[] {
  const found = new Set<string>();
  for (const p of patterns.filter((x) => !x.startsWith('!'))) for (const d of expandOne(root, p)) found.add(d);
  for (const p of patterns.filter((x) => x.startsWith('!')))
    for (const d of expandOne(root, p.slice(1))) found.delete(d);
  return [...found].filter((d) => regularFile(path.join(root, d, 'package.json'))).sort();
}

/** The workspace folder (of `dirs`) a repository path lies in: the deepest one; null for none. */
export function workspaceOf(dirs: readonly string[], file: string): string | null {
  let best: string | null = null;
  for (const d of dirs) if (file.startsWith(`${d}/`) && (best === null || d.length > best.length)) best = d;
  return best;
}

/** Which workspaces a patch changes, and the changed paths that lie in none. */
export interface ChangedWorkspaces {
  /** The workspace folders holding a changed path, sorted. */
  readonly workspaces: readonly string[];
  /** Changed paths in no workspace (the root's files, or a folder the baseline has as no workspace). */
  readonly outside: readonly string[];
}

/** Sort the changed paths (both sides of a rename) by the workspace they lie in. */
export function changedWorkspaces(dirs: readonly string[], changedPaths: readonly string[]): ChangedWorkspaces {
  const workspaces = new Set<string>();
  const outside = new Set<string>();
  for (const p of changedPaths) {
    const w = workspaceOf(dirs, p);
    if (w === null) outside.add(p);
    else workspaces.add(w);
  }
  return { workspaces: [...workspaces].sort(), outside: [...outside].sort() };
}

/** At most `n` items, then how many more. */
export function someOf(items: readonly string[], n = 5): string {
  return items.length <= n ? items.join(', ') : `${items.slice(0, n).join(', ')} and ${items.length - n} more`;
}

/**
 * The one workspace to judge, from the changed paths; or why none can be chosen. A patch that
 * changes several workspaces is refused by name: each workspace's runner writes its own
 * report, ag-run reads one, and a workspace that imports another by name reaches the
 * installed copy of it, not the patch's.
 */
export function chooseWorkspace(
  dirs: readonly string[],
  changedPaths: readonly string[] | undefined,
): { readonly dir: string; readonly outside: readonly string[] } | { readonly problem: string } {
  if (changedPaths === undefined)
    return {
      problem:
        'a workspaces root with no test runner of its own, and no changed paths to tell which workspace to judge',
    };
  const c = changedWorkspaces(dirs, changedPaths);
  if (c.workspaces.length === 0)
    return {
      problem: `the root has no test runner of its own and the patch changes no workspace of the baseline (${someOf(c.outside) || 'no file'})`,
    };
  if (c.workspaces.length > 1)
    return {
      problem: `the patch changes ${c.workspaces.length} workspaces (${someOf(c.workspaces)}) and the root has no test runner of its own: the gate judges one workspace's runner at a time (split the patch, or give --test-command)`,
    };
  return { dir: c.workspaces[0] as string, outside: c.outside };
}

/**
 * A workspace's wiring run from the tree's root: each command as `cd DIR && COMMAND`, and the
 * reports (written relative to DIR) at `DIR/…`. A TAP report stays on stdout.
 */
export function inWorkspace(wiring: TestWiring, dir: string): TestWiring {
  const cd = `cd ${shQuote(dir)} && `;
  return {
    ...wiring,
    test_command: `${cd}${wiring.test_command}`,
    report: wiring.report.kind === 'junit' ? { kind: 'junit', path: `${dir}/${wiring.report.path}` } : wiring.report,
    coverage_command: wiring.coverage_command === null ? null : `${cd}${wiring.coverage_command}`,
    coverage_report: wiring.coverage_report === null ? null : `${dir}/${wiring.coverage_report}`,
  };
}

/**
 * An lcov report written in the workspace `dir` made relative to the tree's root: every
 * relative `SF:` path gets `dir/` in front (`..` folded), so the changed file
 * `packages/foo/src/x.js` matches exactly and never a root file `src/x.js`. A record whose
 * path leaves the tree (`../../../deps/packages/foo/src/x.js`: a workspace the tests reached
 * through the installed packages' link, not the tree's own file) is left out whole, so no
 * suffix of it can stand for a changed file. Absolute paths (and any other line) are left as
 * they are; a report that is not lcov is unchanged.
 */
export function rebaseLcov(text: string, dir: string): string {
  const out: string[] = [];
  let dropping = false;
  for (const line of text.split('\n')) {
    if (dropping) {
      if (line.replace(/\r$/, '') === 'end_of_record') dropping = false;
      continue;
    }
    const m = /^SF:(.*?)(\r?)$/.exec(line);
    const file = m === null ? '' : (m[1] as string).replace(/\\/g, '/');
    if (m === null || file === '' || file.startsWith('/') || /^[A-Za-z]:\//.test(file) || file.startsWith('file:')) {
      out.push(line);
      continue;
    }
    const rebased = path.posix.normalize(`${dir}/${file}`);
    if (rebased === '..' || rebased.startsWith('../')) dropping = true;
    else out.push(`SF:${rebased}${m[2] as string}`);
  }
  return out.join('\n');
}

/** The workspace folders the root at `root` declares (package.json or pnpm-workspace.yaml); none when it declares none. */
export function workspaceDirs(root: string): string[] {
  let pkg: unknown = {};
  const manifest = path.join(root, 'package.json');
  try {
    if (regularFile(manifest)) pkg = JSON.parse(readFileSync(manifest, 'utf8'));
  } catch {
    pkg = {};
  }
  const declared = workspacePatterns(root, pkg !== null && typeof pkg === 'object' ? pkg : {});
  return declared === null ? [] : expandWorkspaces(root, declared.patterns);
}
