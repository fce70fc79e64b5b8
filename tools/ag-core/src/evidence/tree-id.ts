/**
 * A directory's git tree id: the id `git rev-parse C^{tree}` gives for the commit the
 * directory was exported from (`git archive C`), computed from the files alone. Evidence that
 * carries it is bound to the tree it measured, and whoever holds the commit can check it with
 * git, without the directory.
 *
 * Modes as git records them (100644, 100755, 120000 for a link, 40000 for a folder); a
 * folder with nothing in it is not part of any git tree and is left out, as are `.git` at any
 * depth and the links named in `exclude`, at any depth (the links to the installed packages a
 * pipeline adds: the root's, and in a workspaces root each workspace's own; a folder of that
 * name still counts). Submodules (which `git archive` exports as empty folders) cannot be reproduced.
 * @module
 */
import { createHash } from 'node:crypto';
import { closeSync, lstatSync, openSync, readdirSync, readFileSync, readlinkSync, readSync } from 'node:fs';
import path from 'node:path';

interface TreeEntry {
  readonly mode: string;
  readonly name: string;
  readonly id: Buffer;
}

function objectId(kind: 'blob' | 'tree', body: Buffer): Buffer {
  return createHash('sha1').update(`${kind} ${body.length}\0`).update(body).digest();
}

const CHUNK = 1 << 20;

function blobId(file: string, size: number): Buffer {
  const hash = createHash('sha1').update(`blob ${size}\0`);
  if (size <= CHUNK) return hash.update(readFileSync(file)).digest();
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.allocUnsafe(CHUNK);
    for (let n = readSync(fd, buf); n > 0; n = readSync(fd, buf)) hash.update(buf.subarray(0, n));
  } finally {
    closeSync(fd);
  }
  return hash.digest();
}

/** git's entry order: byte order of the names, a folder's name compared as if it ended in `/`. */
function gitOrder(a: TreeEntry, b: TreeEntry): number {
  const key = (e: TreeEntry) => Buffer.from(e.mode === '40000' ? `${e.name}/` : e.name);
  return Buffer.compare(key(a), key(b));
}

/** How long the walk holds the event loop before it lets other work run (ms). */
const SLICE_MS = 20;

// Synchronous calls: a tree of installed packages has tens of thousands of files, and one
// promise per file system call made the walk several times slower than the hashing. Instead
// the walk is a generator that yields when its slice is used up, so that a caller can go on
// with other work (its child processes' events) while a large tree is hashed.
function* treeOf(dir: string, exclude: ReadonlySet<string>, slice: { end: number }): Generator<void, Buffer | null> {
  const entries: TreeEntry[] = [];
  for (const d of readdirSync(dir, { withFileTypes: true })) {
    if (d.name === '.git' || (d.isSymbolicLink() && exclude.has(d.name))) continue;
    const full = path.join(dir, d.name);
    if (d.isSymbolicLink()) {
      entries.push({ mode: '120000', name: d.name, id: objectId('blob', Buffer.from(readlinkSync(full))) });
    } else if (d.isDirectory()) {
      const id = yield* treeOf(full, exclude, slice);
      if (id !== null) entries.push({ mode: '40000', name: d.name, id });
    } else if (d.isFile()) {
      const st = lstatSync(full);
      entries.push({
        mode: (st.mode & 0o111) !== 0 ? '100755' : '100644',
        name: d.name,
        id: blobId(full, st.size),
      });
    } else {
      throw new Error(`${full} is neither a file, a folder nor a link: no git tree holds it`);
    }
    if (performance.now() > slice.end) yield;
  }
  if (entries.length === 0) return null;
  entries.sort(gitOrder);
  const body = Buffer.concat(entries.flatMap((e) => [Buffer.from(`${e.mode} ${e.name}\0`), e.id]));
  return objectId('tree', body);
}

/**
 * The git tree id (40 hex digits) of `dir`, leaving out the links named in `exclude` (at any depth).
 * The walk gives the event loop back every SLICE_MS, so it can run beside other work.
 */
export async function gitTreeId(dir: string, exclude: readonly string[] = []): Promise<string> {
  const slice = { end: 0 };
  const walk = treeOf(dir, new Set(exclude), slice);
  for (;;) {
    slice.end = performance.now() + SLICE_MS;
    const step = walk.next();
    // The empty tree has an id of its own.
    if (step.done === true) return (step.value ?? objectId('tree', Buffer.alloc(0))).toString('hex');
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}
