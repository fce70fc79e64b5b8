// The gate's launcher of jest and mocha (runtime/runner-launcher.cjs), on stand-in packages
// that record what they were given: the runner gets every argument, the program under test
// sees the project's own alone in process.argv (#38), and the launcher's variable is gone.
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const LAUNCHER = fileURLToPath(new URL('../runtime/runner-launcher.cjs', import.meta.url));
const PROGRAM = ['--runInBand', 'it has spaces'];
const GATE = ['--ci', ...PROGRAM, '--reporters=default', '--reporters=/gate/jest-junit'];

const dirs: string[] = [];
test.after.always(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** What a stand-in records: where the launcher's variable went, NODE_ENV, and `process.argv` past node. */
const RECORD = `const record = (what) => require('node:fs').writeFileSync(process.env.RECORD, JSON.stringify({
  ...what, argv: process.argv.slice(1), env: process.env.AG_PROGRAM_ARGV ?? null, nodeEnv: process.env.NODE_ENV ?? null }));\n`;

/** A project with stand-in packages (`name` → files) in node_modules, their bins linked in .bin; the cwd is a folder below. */
function project(packages: Record<string, Record<string, string>>, bins: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'ag-launcher-'));
  dirs.push(root);
  for (const [name, files] of Object.entries(packages))
    for (const [file, body] of Object.entries(files)) {
      const at = path.join(root, 'node_modules', name, file);
      mkdirSync(path.dirname(at), { recursive: true });
      writeFileSync(at, body);
    }
  mkdirSync(path.join(root, 'node_modules', '.bin'), { recursive: true });
  for (const [bin, target] of Object.entries(bins)) symlinkSync(target, path.join(root, 'node_modules', '.bin', bin));
  mkdirSync(path.join(root, 'packages', 'a'), { recursive: true });
  return root;
}

function launch(
  root: string,
  args: string[],
  env: Record<string, string> = { AG_PROGRAM_ARGV: JSON.stringify(PROGRAM) },
) {
  const record = path.join(root, 'record.json');
  const r = spawnSync(process.execPath, [LAUNCHER, ...args], {
    cwd: path.join(root, 'packages', 'a'),
    env: { PATH: process.env['PATH'] ?? '', RECORD: record, ...env },
    encoding: 'utf8',
  });
  let recorded: Record<string, unknown> | null = null;
  try {
    recorded = JSON.parse(readFileSync(record, 'utf8')) as Record<string, unknown>;
  } catch {
    recorded = null;
  }
  return { status: r.status, stderr: r.stderr, recorded };
}

const jestPackage = (main: string) => ({
  'package.json': JSON.stringify({ name: 'jest', version: '29.7.0', main: 'index.js', bin: { jest: './bin/jest.js' } }),
  'index.js': main,
  'bin/jest.js': `${RECORD}record({ from: 'bin' });\n`,
});

test('jest: run(argv) gets every argument; the program sees the project’s own, the bin’s path before them', (t) => {
  const root = project(
    { jest: jestPackage(`${RECORD}exports.run = async (given) => record({ from: 'run', given });\n`) },
    { jest: '../jest/bin/jest.js' },
  );
  const r = launch(root, ['jest', ...GATE]);
  t.is(r.status, 0, r.stderr);
  t.deepEqual(r.recorded, {
    from: 'run',
    given: GATE,
    argv: [path.join(root, 'node_modules', '.bin', 'jest'), ...PROGRAM],
    env: null,
    nodeEnv: 'test',
  });
});

test('jest with no run(argv): its bin runs with every argument in process.argv, and the launcher says so', (t) => {
  const root = project({ jest: jestPackage('exports.other = 1;\n') }, { jest: '../jest/bin/jest.js' });
  const r = launch(root, ['jest', ...GATE]);
  t.is(r.status, 0, r.stderr);
  t.deepEqual(r.recorded?.['argv'], [path.join(root, 'node_modules', '.bin', 'jest'), ...GATE]);
  t.is(r.recorded?.['env'], null);
  t.regex(r.stderr, /this jest has no run\(argv\): jest runs from its bin and the program sees the gate's flags/);
});

test('mocha: its bin reads every argument, its cli main runs with the project’s own in process.argv', (t) => {
  const root = project(
    {
      mocha: {
        'package.json': JSON.stringify({ name: 'mocha', version: '11.7.1', bin: { mocha: './bin/mocha.js' } }),
        'bin/mocha.js': "const opts = process.argv.slice(2);\nrequire('../lib/cli/cli').main([], { opts });\n",
        'lib/cli/cli.js': `${RECORD}exports.main = (argv, parsed) => record({ from: 'main', given: parsed.opts });\n`,
      },
    },
    {},
  );
  const args = ['--check-leaks', 'test/', '--reporter=xunit', '--reporter-option=output=.ag-junit.xml'];
  const r = launch(root, ['mocha', ...args], { AG_PROGRAM_ARGV: '["--check-leaks","test/"]' });
  t.is(r.status, 0, r.stderr);
  // No .bin link: the bin's own file stands in process.argv[1].
  t.deepEqual(r.recorded, {
    from: 'main',
    given: args,
    argv: [path.join(root, 'node_modules', 'mocha', 'bin', 'mocha.js'), '--check-leaks', 'test/'],
    env: null,
    nodeEnv: null,
  });
});

test('no runner, no argv for the program, or an unknown runner: the launcher stops, before any test', (t) => {
  const root = project({}, {});
  const missing = launch(root, ['jest', '--ci']);
  t.is(missing.status, 127);
  t.regex(missing.stderr, /the project has no jest/);
  t.is(launch(root, ['mocha'], {}).status, 2);
  t.is(launch(root, ['vitest', 'run']).status, 2);
});
