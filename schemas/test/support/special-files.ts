// Special files for the tests of every writer: a character device with /dev/null's numbers
// (made with mknod in a scratch folder, never the real /dev/null), a FIFO, and a reader held
// open on a FIFO. Used by schemas' own writer tests and by ag-core's usage harness.
import { execFileSync } from 'node:child_process';
import { closeSync, constants, openSync, readSync } from 'node:fs';
import path from 'node:path';

/** A character device with /dev/null's numbers (1, 3), made in `dir`. */
export function nullDevice(dir: string, name = 'null'): string {
  const file = path.join(dir, name);
  execFileSync('mknod', [file, 'c', '1', '3']);
  return file;
}

/** A FIFO made in `dir`. */
export function fifo(dir: string, name = 'pipe'): string {
  const file = path.join(dir, name);
  execFileSync('mkfifo', [file]);
  return file;
}

/** A reader on a FIFO, opened without blocking (so it exists before any writer): `read()` takes what was written, then closes it. */
export function fifoReader(file: string): { read(): string } {
  const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  return {
    read() {
      const buf = Buffer.alloc(1 << 16);
      let n = 0;
      try {
        n = readSync(fd, buf);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      }
      closeSync(fd);
      return buf.subarray(0, n).toString();
    },
  };
}
