import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Small trees in the temporary directory (`src/a.py`, `b.txt`, a symlink `link` → `b.txt`)
 * named `<prefix>…`, and a hook body that removes every such tree when the file's tests end.
 */
export function smallTrees(prefix: string): { tree: () => Promise<string>; removeAll: () => Promise<void> } {
  return {
    tree: async () => {
      const dir = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
      await fs.mkdir(path.join(dir, 'src'));
      await fs.writeFile(path.join(dir, 'src', 'a.py'), 'x = 1\n');
      await fs.writeFile(path.join(dir, 'b.txt'), 'b\n');
      await fs.symlink('b.txt', path.join(dir, 'link'));
      return dir;
    },
    removeAll: async () => {
      for (const e of await fs.readdir(os.tmpdir()))
        if (e.startsWith(prefix)) await fs.rm(path.join(os.tmpdir(), e), { recursive: true, force: true });
    },
  };
}
