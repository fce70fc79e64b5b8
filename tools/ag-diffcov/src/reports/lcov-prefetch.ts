/**
 * Read, hash and split a large lcov report on a second core while the main thread reads and
 * parses the diff. The worker is started before the diff is read, so that its own start-up
 * overlaps the reading; it waits for the paths the diff's headers name, then keeps only the
 * records whose path may match one of them (see {@link lcovCandidate}); the main thread
 * parses those once the diff is known. Whatever goes wrong in the worker (an unreadable
 * file, too much to keep, a crash) makes the result `null`, and the caller reads the report
 * the ordinary way, which reports the problem with its usual message.
 * @module
 */
import { createLcovScanner, lcovCandidate, type LcovScan } from './lcov-scan.js';

/** Reports smaller than this are read on the main thread (a worker costs more than it saves). */
export const PREFETCH_MIN_BYTES = 16 * 1024 * 1024;

/** Most bytes of kept records held before giving up (the ordinary reader streams instead). */
export const PREFETCH_KEEP_LIMIT = 64 * 1024 * 1024;

/** A scan with the SHA-256 of exactly the bytes scanned. */
export interface PrefetchedLcov {
  readonly scan: LcovScan;
  readonly sha256: `sha256:${string}`;
}

/** A worker thread that scans one report once it is given the diff's paths. */
export interface LcovPrefetch {
  /** Start the scan, keeping the records that may match one of `diffPaths` (once; later calls are ignored). */
  scan(diffPaths: ReadonlySet<string>): void;
  /** The scan, or null when the report must be read the ordinary way. */
  readonly result: Promise<PrefetchedLcov | null>;
  /** Stop the worker (harmless once it has finished). */
  cancel(): void;
}

interface WorkerData {
  readonly file: string;
  readonly root: string | null;
  readonly keepLimit: number;
}

type WorkerReply = { readonly ok: true; readonly scan: LcovScan; readonly sha256: string } | { readonly ok: false };

/** The worker's body; self-contained, it runs from its source text with `require` and the scanner in scope. */
function scanInWorker(
  require: NodeJS.Require,
  scanner: typeof createLcovScanner,
  candidate: typeof lcovCandidate,
): void {
  const { parentPort, workerData } = require('node:worker_threads') as typeof import('node:worker_threads');
  const fs = require('node:fs') as typeof import('node:fs');
  const { createHash } = require('node:crypto') as typeof import('node:crypto');
  const data = workerData as WorkerData;
  const scanFile = (diffPaths: readonly string[]): WorkerReply => {
    try {
      const fd = fs.openSync(data.file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
      try {
        if (!fs.fstatSync(fd).isFile()) return { ok: false };
        const scan = scanner(candidate(diffPaths, data.root), data.keepLimit);
        const hash = createHash('sha256');
        const buf = Buffer.allocUnsafe(4 << 20);
        let n;
        while (!scan.overflow && (n = fs.readSync(fd, buf, 0, buf.length, null)) > 0) {
          const chunk = buf.subarray(0, n);
          hash.update(chunk);
          scan.write(chunk);
        }
        return scan.overflow ? { ok: false } : { ok: true, scan: scan.end(), sha256: `sha256:${hash.digest('hex')}` };
      } finally {
        fs.closeSync(fd);
      }
    } catch {
      return { ok: false };
    }
  };
  parentPort!.once('message', (diffPaths: readonly string[]) => parentPort!.postMessage(scanFile(diffPaths)));
}

// `__name`: transpilers that keep function names (tsx, esbuild's keepNames) wrap inner functions in it.
const SOURCE = `"use strict";const __name=(f)=>f;(${scanInWorker.toString()})(require, ${createLcovScanner.toString()}, ${lcovCandidate.toString()});`;

/** A posted Buffer arrives as a plain Uint8Array: view it as a Buffer again (no copy). */
function buffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function asBuffers(scan: LcovScan): LcovScan {
  return {
    head: buffer(scan.head),
    tail: buffer(scan.tail),
    records: scan.records.map((r) => ({
      name: r.name,
      bytes: r.bytes === null ? null : buffer(r.bytes),
      count: r.count,
    })),
  };
}

/** Start a worker that will scan `file` (`root`: the normalised `--root`) once {@link LcovPrefetch.scan} gives it the diff's paths. */
export async function prefetchLcov(file: string, root: string | null): Promise<LcovPrefetch> {
  const workerData: WorkerData = { file, root, keepLimit: PREFETCH_KEEP_LIMIT };
  // Loaded here, not at start-up: most runs have no report large enough to need it.
  const { Worker } = await import('node:worker_threads');
  let worker: InstanceType<typeof Worker>;
  try {
    worker = new Worker(SOURCE, { eval: true, workerData, stderr: true });
  } catch {
    return { scan: () => undefined, result: Promise.resolve(null), cancel: () => undefined };
  }
  const result = new Promise<PrefetchedLcov | null>((resolve) => {
    worker.once('message', (reply: WorkerReply) => {
      resolve(reply.ok ? { scan: asBuffers(reply.scan), sha256: reply.sha256 as `sha256:${string}` } : null);
    });
    worker.once('error', () => resolve(null));
    worker.once('exit', () => resolve(null));
  });
  let started = false;
  return {
    scan: (diffPaths) => {
      if (started) return;
      started = true;
      worker.postMessage([...diffPaths]);
    },
    result,
    cancel: () => {
      void worker.terminate();
    },
  };
}
