/**
 * A directory's git tree id: the id `git rev-parse C^{tree}` gives for the commit the
 * directory was exported from (`git archive C`), computed from the files alone. Evidence that
 * carries it is bound to the tree it measured, and whoever holds the commit can check it with
 * git, without the directory.
 *
 * Modes as git records them (100644, 100755, 120000 for a link, 40000 for a folder); a
 * folder with nothing in it is not part of any git tree and is left out, as are `.git` at any
 * depth and the top-level links named in `exclude` (the link to the installed packages a
 * pipeline adds; a folder of that name still counts). Submodules (which `git archive` exports as empty folders) cannot be reproduced.
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

// Synchronous calls: a tree of installed packages has tens of thousands of files, and one
// promise per file system call made the walk several times slower than the hashing.
function treeOf(dir: string, exclude: ReadonlySet<string>): Buffer | null {
  const entries: TreeEntry[] = [];
  for (const d of readdirSync(dir, { withFileTypes: true })) {
    if (d.name === '.git' || (d.isSymbolicLink() && exclude.has(d.name))) continue;
    const full = path.join(dir, d.name);
    if (d.isSymbolicLink()) {
      entries.push({ mode: '120000', name: d.name, id: objectId('blob', Buffer.from(readlinkSync(full))) });
    } else if (d.isDirectory()) {
      const id = treeOf(full, new Set());
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
  }
  if (entries.length === 0) return null;
  entries.sort(gitOrder);
  const body = Buffer.concat(entries.flatMap((e) => [Buffer.from(`${e.mode} ${e.name}\0`), e.id]));
  return objectId('tree', body);
}

/** The git tree id (40 hex digits) of `dir`, leaving out the top-level links named in `exclude`. */
export async function gitTreeId(dir: string, exclude: readonly string[] = []): Promise<string> {
  const id = treeOf(dir, new Set(exclude));
  // The empty tree has an id of its own.
  return (id ?? objectId('tree', Buffer.alloc(0))).toString('hex');
}
