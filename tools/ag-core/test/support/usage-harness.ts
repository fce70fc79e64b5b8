// The command-line harness every tool's usage test shares: each output flag at a character
// device (made with mknod in a scratch folder, never the real /dev/null), a FIFO, a missing
// directory and a directory; usage errors, each one line and exit 3; the bin without its
// bundle. A tool's test calls usageHarness with its name and bin, then outputTests with its
// own output flags and its own usage errors.
import test, { type ExecutionContext } from 'ava';
import { fifo, fifoReader, nullDevice } from '../../../../schemas/test/support/special-files.js';
import { spawn } from 'node:child_process';
import { copyFileSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** One output flag of the tool: the command line with `target` at that flag (every other output in `others`). */
export interface OutputCase {
  readonly flag: string;
  readonly argv: (target: string, others: string) => string[];
  /** The exit code of a run that measured and wrote. */
  readonly ok: number;
  /** Whether a FIFO nobody reads can be tested (the writer refuses it rather than wait). */
  readonly refusesReaderlessFifo?: boolean;
}

/** Everything a tool's usage test needs, for the tool `TOOL` whose bin is at `bin`. */
export function usageHarness(TOOL: string, bin: string) {
  const scratch = mkdtempSync(path.join(os.tmpdir(), `${TOOL}-usage-`));
  test.after.always(() => rmSync(scratch, { recursive: true, force: true }));
  const tmp = () => mkdtempSync(path.join(scratch, 'case-'));

  /** Run a script (the tool's bin by default) as its own process. */
  function runBin(args: readonly string[], script = bin, cwd = scratch): Promise<Run> {
    const child = spawn(process.execPath, [script, ...args], {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NODE_EXTRA_CA_CERTS: '' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    return new Promise((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
  }

  /** The checks every output flag gets: devices and FIFOs are never replaced; bad targets are one line, exit 3, nothing left. */
  function outputTests(cases: readonly OutputCase[]): void {
    for (const c of cases) {
      test(`${c.flag} at a character device writes in place and leaves the device a device`, async (t) => {
        const dir = tmp();
        const others = tmp();
        const dev = nullDevice(dir);
        const before = lstatSync(dev);
        const r = await runBin(c.argv(dev, others));
        t.is(r.code, c.ok, r.stderr);
        const after = lstatSync(dev);
        t.true(after.isCharacterDevice());
        t.is(after.rdev, before.rdev);
        t.is(after.ino, before.ino);
        t.deepEqual(readdirSync(dir), ['null'], 'no temporary file beside it');
      });

      test(`${c.flag} at a FIFO with a reader writes into it and leaves a FIFO`, async (t) => {
        const dir = tmp();
        const pipe = fifo(dir);
        const reader = fifoReader(pipe);
        const r = await runBin(c.argv(pipe, tmp()));
        t.is(r.code, c.ok, r.stderr);
        t.true(reader.read().length > 0);
        t.true(lstatSync(pipe).isFIFO());
        t.deepEqual(readdirSync(dir), ['pipe']);
      });

      if (c.refusesReaderlessFifo !== false) {
        test(`${c.flag} at a FIFO nobody reads: one line, exit 3, nothing left behind`, async (t) => {
          const dir = tmp();
          const others = tmp();
          const pipe = fifo(dir);
          const r = await runBin(c.argv(pipe, others));
          t.is(r.code, 3);
          t.regex(
            r.stderr,
            new RegExp(`^${TOOL}: cannot write .*pipe: is a FIFO no process reads; refused rather than wait\\n`),
          );
          t.true(lstatSync(pipe).isFIFO());
          t.deepEqual(
            readdirSync(others).filter((f) => !f.startsWith('in')),
            [],
            'the outputs already written are taken back',
          );
        });
      }

      test(`${c.flag} into a missing directory or at a directory: one line naming the path, exit 3, nothing written`, async (t) => {
        const dir = tmp();
        const others = tmp();
        const missing = path.join(dir, 'no', 'such', 'file');
        const r = await runBin(c.argv(missing, others));
        t.is(r.code, 3);
        t.is(r.stderr, `${TOOL}: cannot write ${missing}: directory ${path.join(dir, 'no', 'such')} does not exist\n`);
        mkdirSync(path.join(dir, 'sub'));
        const d = await runBin(c.argv(path.join(dir, 'sub'), others));
        t.is(d.code, 3);
        t.regex(d.stderr, new RegExp(`^${TOOL}: cannot write .*sub: is a directory; refused[^\\n]*\\n$`));
        t.deepEqual(readdirSync(dir), ['sub']);
        t.deepEqual(readdirSync(path.join(dir, 'sub')), []);
        t.deepEqual(
          readdirSync(others).filter((f) => !f.startsWith('in')),
          [],
        );
      });
    }
  }

  test("without its bundle the bin says so in one line and exits 3 (never 1, REJECT's code)", async (t) => {
    const dir = tmp();
    mkdirSync(path.join(dir, 'bin'));
    copyFileSync(bin, path.join(dir, 'bin', `${TOOL}.js`));
    const r = await runBin(['--help'], path.join(dir, 'bin', `${TOOL}.js`));
    t.is(r.code, 3);
    t.is(r.stderr, `${TOOL} is not built: run npm run build\n`);
    mkdirSync(path.join(dir, 'dist'));
    writeFileSync(path.join(dir, 'dist', `${TOOL}.bundle.mjs`), "import './chunk-gone.mjs';\n");
    const broken = await runBin(['--help'], path.join(dir, 'bin', `${TOOL}.js`));
    t.is(broken.code, 3);
    t.regex(
      broken.stderr,
      new RegExp(`^${TOOL}: its build cannot be loaded \\(.*chunk-gone\\.mjs.*\\): run npm run build\\n$`),
    );
  });

  /** A usage error: exit 3 and exactly one stderr line matching `line`. */
  async function usageError(t: ExecutionContext, argv: string[], line: RegExp): Promise<void> {
    const r = await runBin(argv);
    t.is(r.code, 3, `${argv.join(' ')}: ${r.stderr}`);
    t.is(r.stderr.split('\n').filter((l) => l !== '').length, 1, r.stderr);
    t.regex(r.stderr, line);
  }

  /** The inputs of a small patch: `a.js` changed from 1 to 2, as trees and a diff. */
  function smallPatch(): { dir: string; base: string; patch: string; diff: string } {
    const dir = tmp();
    const base = path.join(dir, 'in-base');
    const patch = path.join(dir, 'in-patch');
    mkdirSync(base);
    mkdirSync(patch);
    writeFileSync(path.join(base, 'a.js'), 'export const a = 1;\n');
    writeFileSync(path.join(patch, 'a.js'), 'export const a = 2;\n');
    const diff = path.join(dir, 'in.diff');
    writeFileSync(
      diff,
      'diff --git a/a.js b/a.js\n--- a/a.js\n+++ b/a.js\n@@ -1 +1 @@\n-export const a = 1;\n+export const a = 2;\n',
    );
    return { dir, base, patch, diff };
  }

  return { scratch, tmp, runBin, outputTests, usageError, smallPatch, nullDevice, fifo };
}
