/**
 * The results file of a bench script: every run appends one dated entry to bench/RESULTS.md
 * beside the script (or the file it names), newest at the end. An entry holds the time (UTC),
 * the command line (runner, script, arguments), the machine (CPU model, cores, memory, Node, whether
 * NODE_EXTRA_CA_CERTS is set: Node parses that bundle at every start), the load average at the
 * start and at the end, then the script's Markdown.
 *
 *   import { benchRecorder, markdownTable } from '<repo>/bench/lib/results.mjs';
 *   const recorder = benchRecorder(import.meta.url);   // at the start: takes the start load
 *   ...
 *   recorder.record(markdownTable(['case', 'wall s'], rows));
 *
 * `--no-record` on the script's command line skips the write (trial runs); the entry is still
 * printed. The file is rewritten through a temporary file and a rename, so an interrupted write
 * leaves the previous file whole. No dependencies: the scripts run from any checkout.
 */
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** One argument as a POSIX shell would need it written. */
const shellWord = (s) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replaceAll("'", "'\\''")}'`);

/** The command line that started this process: `node` or `npx tsx`, the script relative to the cwd, its arguments. */
function commandLine(argv) {
  const script = argv[1] ?? '';
  const runner = /\.[cm]?ts$/.test(script) ? 'npx tsx' : 'node';
  const options = runner === 'node' ? process.execArgv : [];
  const words = [...options, path.relative(process.cwd(), script) || script, ...argv.slice(2)];
  return [runner, ...words.map(shellWord)].join(' ');
}

const loads = (l) => l.map((n) => n.toFixed(2)).join(' ');

/** The machine as one line: CPU model, cores, memory, kernel, Node. */
function machine() {
  const cpus = os.cpus();
  const model = cpus[0]?.model.trim() || 'unknown CPU';
  const gib = (os.totalmem() / 2 ** 30).toFixed(0);
  return `${cpus.length} × ${model}, ${gib} GiB, ${os.type()} ${os.release()}, Node ${process.version}`;
}

/** A Markdown table; cells are turned into text and `|` inside a cell is escaped. */
export function markdownTable(headers, rows) {
  const cell = (v) =>
    String(v ?? '—')
      .replaceAll('|', '\\|')
      .replaceAll('\n', ' ');
  const line = (cells) => `| ${cells.map(cell).join(' | ')} |`;
  return [line(headers), `|${headers.map(() => '---').join('|')}|`, ...rows.map(line)].join('\n');
}

/**
 * Start recording a run of the script at `scriptUrl` (its `import.meta.url`). Call it first
 * thing, so the load average is the one before the work. `options.file` names another results
 * file (default: RESULTS.md beside the script); `options.argv` stands for process.argv.
 */
export function benchRecorder(scriptUrl, options = {}) {
  const argv = options.argv ?? process.argv;
  const file = options.file ?? path.join(path.dirname(fileURLToPath(scriptUrl)), 'RESULTS.md');
  const started = new Date();
  const loadAtStart = os.loadavg();
  const command = commandLine(argv);
  const cwd = path.relative(ROOT, process.cwd()) || '.';
  const enabled = !argv.includes('--no-record');

  /** The entry for this run, with `body` (the script's Markdown) after the machine lines. */
  function entry(body) {
    const stamp = started
      .toISOString()
      .replace('T', ' ')
      .replace(/\.\d+Z$/, ' UTC');
    const ca = process.env.NODE_EXTRA_CA_CERTS;
    return [
      `## ${stamp}`,
      '',
      `- command: \`${command}\` (in \`${cwd}\`)`,
      `- machine: ${machine()}`,
      `- \`NODE_EXTRA_CA_CERTS\`: ${ca === undefined || ca === '' ? 'not set' : `set (${ca})`}`,
      `- load average (1, 5, 15 min): ${loads(loadAtStart)} at the start, ${loads(os.loadavg())} at the end`,
      `- finished: ${new Date()
        .toISOString()
        .replace('T', ' ')
        .replace(/\.\d+Z$/, ' UTC')}`,
      '',
      body.trim(),
      '',
    ].join('\n');
  }

  return {
    file,
    enabled,
    /** Print the entry and append it to the results file unless `--no-record` was given. */
    record(body) {
      const text = entry(body);
      console.log(`\n${text}`);
      if (!enabled) {
        console.log(`(--no-record: not written to ${path.relative(process.cwd(), file)})`);
        return;
      }
      const tmp = `${file}.${process.pid}.tmp`;
      try {
        const before = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmark results\n';
        writeFileSync(tmp, `${before.replace(/\n*$/, '\n\n')}${text}`);
        renameSync(tmp, file);
        console.log(`recorded in ${path.relative(process.cwd(), file)}`);
      } catch (e) {
        rmSync(tmp, { force: true });
        console.error(`${file}: cannot record the run: ${e.message}`);
        process.exitCode = 3;
      }
    },
  };
}
