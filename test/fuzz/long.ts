/**
 * The long run: the same properties as the CI suite, with random seeds and many more cases,
 * for a number of minutes. Each batch runs in its own process under a watchdog, so a reader
 * that hangs (even in a synchronous loop) is reported with the seed that replays it.
 *
 *   npx tsx test/fuzz/long.ts [--minutes 10] [--batch 1000] [--only TEXT] [--all] [--cli]
 *
 * `--all` includes the readers the CI suite leaves out for known bugs; `--cli` adds the
 * binary properties (slow: one process per case). Prints cases per reader and every
 * counterexample with its seed and fast-check path; exits 1 when any property failed.
 * @module
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { formatFailure, fuzzReader, type FuzzReport, type ReaderSpec } from './harness.js';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    batch: { type: 'string', default: '1000' },
    only: { type: 'string' },
    all: { type: 'boolean', default: false },
    cli: { type: 'boolean', default: false },
    worker: { type: 'string' },
    seed: { type: 'string' },
    'batch-timeout': { type: 'string', default: '300' },
  },
});

async function readers(): Promise<ReaderSpec[]> {
  const { ALL_READERS, READERS } = await import('./readers.js');
  const list = [...(values.all ? ALL_READERS : READERS)];
  if (values.cli) {
    const { decideBinary, diffcovBinary } = await import('./cli.js');
    list.push(decideBinary, diffcovBinary);
  }
  return values.only ? list.filter((r) => r.name.includes(values.only!)) : list;
}

/** Worker mode: one batch of one reader; the report is the last stdout line. */
async function worker(name: string): Promise<void> {
  const spec = (await readers()).find((r) => r.name === name);
  if (spec === undefined) throw new Error(`no reader named ${name}`);
  const cases = spec.name.includes('binary')
    ? Math.max(1, Math.round(Number(values.batch) / 50))
    : Number(values.batch);
  const report = await fuzzReader(spec, { runs: cases, seed: Number(values.seed) });
  const { removeIntact } = await import('./decision.js');
  await removeIntact();
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

function batch(
  name: string,
  seed: number,
  timeoutMs: number,
): Promise<FuzzReport | { hang: true; ms: number } | { crash: string }> {
  return new Promise((resolve) => {
    const self = fileURLToPath(import.meta.url);
    const args = [
      '--import=tsx',
      self,
      '--worker',
      name,
      '--seed',
      String(seed),
      '--batch',
      values.batch!,
      ...(values.all ? ['--all'] : []),
      ...(values.cli ? ['--cli'] : []),
    ];
    const child = spawn(process.execPath, args, {
      cwd: fileURLToPath(new URL('../../', import.meta.url)),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    const started = Date.now();
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (signal === 'SIGKILL') return resolve({ hang: true, ms: Date.now() - started });
      const last = out.trim().split('\n').pop() ?? '';
      try {
        resolve(JSON.parse(last) as FuzzReport);
      } catch {
        resolve({ crash: `exit ${code}: ${err.trim().split('\n').slice(-3).join(' | ')}` });
      }
    });
  });
}

interface Tally {
  cases: number;
  refused: number;
  read: number;
  batches: number;
  cpuMs: number;
  failures: string[];
}

async function main(): Promise<void> {
  const list = await readers();
  const deadline = Date.now() + Number(values.minutes) * 60_000;
  const timeoutMs = Number(values['batch-timeout']) * 1000;
  const tally = new Map<string, Tally>(
    list.map((r) => [r.name, { cases: 0, refused: 0, read: 0, batches: 0, cpuMs: 0, failures: [] }]),
  );
  process.stderr.write(`long run: ${list.length} readers, ${values.minutes} min, batches of ${values.batch} cases\n`);
  let round = 0;
  while (Date.now() < deadline) {
    for (const spec of list) {
      if (Date.now() >= deadline) break;
      const t = tally.get(spec.name)!;
      const seed = (Date.now() ^ (Math.random() * 0x7fffffff)) >>> 0;
      const r = await batch(spec.name, seed, timeoutMs);
      t.batches++;
      if ('hang' in r) {
        t.failures.push(
          `${spec.name}: no answer within ${Math.round(r.ms / 1000)} s (a hang)\n  replay: AG_FUZZ_SEED=${seed} AG_FUZZ_RUNS=${values.batch}`,
        );
        process.stdout.write(`${t.failures.at(-1)}\n`);
        continue;
      }
      if ('crash' in r) {
        t.failures.push(`${spec.name}: the batch process died: ${r.crash}\n  replay: AG_FUZZ_SEED=${seed}`);
        process.stdout.write(`${t.failures.at(-1)}\n`);
        continue;
      }
      t.cases += r.runs;
      t.refused += r.refused;
      t.read += r.accepted;
      t.cpuMs += r.cpuMs;
      if (r.failure !== null) {
        t.failures.push(formatFailure(r.failure));
        process.stdout.write(`${t.failures.at(-1)}\n`);
      }
    }
    round++;
    process.stderr.write(`round ${round} done, ${Math.max(0, Math.round((deadline - Date.now()) / 1000))} s left\n`);
  }
  const width = Math.max(...list.map((r) => r.name.length));
  process.stdout.write(`\n${'reader'.padEnd(width)}  cases  refused     read  failures  CPU s\n`);
  let total = 0;
  let failed = 0;
  for (const [name, t] of tally) {
    total += t.cases;
    failed += t.failures.length;
    process.stdout.write(
      `${name.padEnd(width)}  ${String(t.cases).padStart(5)}  ${String(t.refused).padStart(7)}  ${String(t.read).padStart(7)}  ${String(t.failures.length).padStart(8)}  ${(t.cpuMs / 1000).toFixed(1).padStart(5)}\n`,
    );
  }
  process.stdout.write(
    `${'total'.padEnd(width)}  ${String(total).padStart(5)}  ${''.padStart(7)}  ${''.padStart(7)}  ${String(failed).padStart(8)}\n`,
  );
  process.exitCode = failed > 0 ? 1 : 0;
}

await (values.worker !== undefined ? worker(values.worker) : main());
