/**
 * One digest of the installed packages: every entry's path, type, size, mode, owner,
 * modification time and link target (no content is read: a write changes its time). Taken
 * right after the install and again after the last run of the patch's code; a different
 * digest means a run wrote into the installed packages.
 * @module
 */
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';

/** `DIGEST  DIR` per folder (`absent  DIR` for one that does not exist). @throws when a folder cannot be read */
export function packagesDigest(dirs: readonly string[]): string {
  return dirs
    .map((dir) => {
      if (!existsSync(dir)) return `absent  ${dir}\n`;
      if (!statSync(dir).isDirectory()) throw new Error(`${dir} is not a directory`);
      const r = spawnSync('find', ['.', '-printf', '%P\\t%y\\t%s\\t%m\\t%U\\t%T@\\t%l\\n'], {
        cwd: dir,
        maxBuffer: 1024 * 1024 * 1024,
      });
      if (r.status !== 0) throw new Error(`cannot list ${dir}`);
      const lines = r.stdout
        .toString('latin1')
        .split('\n')
        .filter((l) => l !== '');
      lines.sort();
      return `${createHash('sha256').update(lines.join('\n')).digest('hex')}  ${dir}\n`;
    })
    .join('');
}
