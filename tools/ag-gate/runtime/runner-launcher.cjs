'use strict';
/**
 * The gate's launcher of jest and mocha: the runner gets the gate's reporter flags, the program
 * under test never sees them (issue #38). Both runners run tests in their CLI's own process
 * (jest in band, mocha always), where a program that parses `process.argv` would meet flags it
 * does not know and stop the run, a suite green under `npm test` unrunnable under the gate.
 *
 *   AG_PROGRAM_ARGV='["--runInBand"]' npx --no-install node runner-launcher.cjs jest --ci --runInBand --reporters=…
 *
 * The first argument names the runner (`jest` or `mocha`: also the word ag-run and ag-mutate
 * tell the runner by); the rest are all the runner's arguments, the project's and the gate's.
 * AG_PROGRAM_ARGV (JSON, an array of strings) holds the project's own arguments alone: it is
 * removed from the environment before the runner starts, and `process.argv` becomes
 * `[node, <the runner's bin>, ...the project's own arguments]`, what `npm test` gives.
 *
 * The runner is the project's own, found from the working directory as `npx --no-install`
 * finds it (the first node_modules holding it, going up), never the gate's.
 * - jest: `require('jest').run(argv)` (else jest-cli's), jest's programmatic entry, which
 *   parses the array it is given (jest reads `process.argv` only without one); NODE_ENV
 *   defaults to `test`, as jest's bin sets it.
 * - mocha: its own bin runs, with the whole argument list, in this process; its
 *   `lib/cli/cli.js` `main` is wrapped to put the project's argv in place before the tests load.
 *   Limit: when the project gives node flags (`--inspect`, `--import`, `--node-option`, v8
 *   flags), mocha's bin re-spawns `node <flags> lib/cli/cli.js <its options>` and the child's
 *   argv is mocha's re-serialised options, the gate's reporter among them (under `npm test`
 *   too that argv is mocha's options, defaults included, not the project's words).
 * A runner with no such entry (jest without run(argv), mocha before 6) runs from its bin with
 * the whole list in `process.argv`, as the gate ran it before, and says so on stderr.
 */
const fs = require('node:fs');
const path = require('node:path');

const ENV = 'AG_PROGRAM_ARGV';
const NAME = 'runner-launcher';

function fail(code, message) {
  process.stderr.write(`${NAME}: ${message}\n`);
  process.exit(code);
}

/** The project's own arguments, from the environment (then removed from it). */
function programArgv() {
  const raw = process.env[ENV];
  delete process.env[ENV];
  let argv;
  try {
    argv = JSON.parse(raw ?? 'null');
  } catch {
    argv = null;
  }
  if (!Array.isArray(argv) || !argv.every((a) => typeof a === 'string'))
    fail(2, `${ENV} must hold the project's arguments as a JSON array of strings`);
  return argv;
}

/** The folder of package `name` as node finds it from the working directory, or null. */
function packageDir(name) {
  for (let dir = process.cwd(); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (fs.existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (path.dirname(dir) === dir) return null;
  }
}

/** The package's bin `bin`: its file, and the path `npm test` runs it by (node_modules/.bin, when linked there). */
function binOf(dir, bin) {
  const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  const rel = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin?.[bin];
  if (typeof rel !== 'string') return null;
  const file = path.join(dir, rel);
  const linked = path.join(path.dirname(dir), '.bin', bin);
  return { file, shown: fs.existsSync(linked) ? linked : file };
}

/** Run the bin as the gate did before: the whole list in process.argv. */
function fromBin(runner, bin, args, why) {
  process.stderr.write(`${NAME}: ${why}: ${runner} runs from its bin and the program sees the gate's flags\n`);
  process.argv = [process.argv[0], bin.shown, ...args];
  require(bin.file);
}

function jest(args, program) {
  let found = null;
  for (const name of ['jest', 'jest-cli']) {
    const dir = packageDir(name);
    const bin = dir === null ? null : binOf(dir, 'jest');
    if (bin !== null) {
      found = { dir, bin };
      break;
    }
  }
  if (found === null) fail(127, 'the project has no jest (from the working directory, going up)');
  const { dir, bin } = found;
  let run = null;
  for (const entry of [dir, 'jest-cli']) {
    try {
      const m = entry === dir ? require(dir) : require(require.resolve(entry, { paths: [dir] }));
      if (typeof m.run === 'function') {
        run = m.run;
        break;
      }
    } catch {
      // an older jest: its entry may not load
    }
  }
  if (run === null) return fromBin('jest', bin, args, 'this jest has no run(argv)');
  if (process.env.NODE_ENV == null) process.env.NODE_ENV = 'test';
  process.argv = [process.argv[0], bin.shown, ...program];
  return run(args);
}

function mocha(args, program) {
  const dir = packageDir('mocha');
  const bin = dir === null ? null : binOf(dir, 'mocha');
  if (bin === null) fail(127, 'the project has no mocha (from the working directory, going up)');
  const cliFile = path.join(dir, 'lib', 'cli', 'cli.js');
  const cli = fs.existsSync(cliFile) ? require(cliFile) : null;
  if (cli === null || typeof cli.main !== 'function')
    return fromBin('mocha', bin, args, 'this mocha has no lib/cli/cli.js main');
  const main = cli.main;
  cli.main = function (...params) {
    process.argv = [process.argv[0], bin.shown, ...program];
    return main.apply(this, params);
  };
  // The bin reads the whole list (reporter included) from process.argv when it loads.
  process.argv = [process.argv[0], bin.shown, ...args];
  require(bin.file);
}

const [runner, ...args] = process.argv.slice(2);
const program = programArgv();
if (runner === 'jest') void jest(args, program);
else if (runner === 'mocha') mocha(args, program);
else fail(2, `usage: ${ENV}='[…]' node runner-launcher.cjs jest|mocha ARG…`);
