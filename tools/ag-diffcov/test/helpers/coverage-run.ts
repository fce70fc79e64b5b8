// Real coverage runs over tiny projects, and ag-diffcov on their reports: Node's own
// `--experimental-test-coverage` (lcov), c8 over node:test (lcov), coverage.py (Cobertura XML,
// as the gate's pytest wiring writes it).
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { parseArtefact, type DiffcovArtefact } from '@adversary-gate/schemas';
import { invariantProblem } from './invariants.js';
import { run, tempDir } from './repo.js';

const exec = promisify(execFile);
const C8 = path.join(path.dirname(createRequire(import.meta.url).resolve('c8/package.json')), 'bin', 'c8.js');
const PYTHON = '/usr/bin/python3';

/** This process's environment without a coverage collector's variable (a run under c8 must not leak into these). */
function withoutCoverage(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.NODE_V8_COVERAGE;
  return env;
}

/** Node's own coverage of `node --test` in `tree`, as lcov; returns the report's path. */
export async function nodeLcov(tree: string): Promise<string> {
  const report = path.join(tree, 'node.lcov');
  await exec(
    process.execPath,
    [
      '--test',
      '--experimental-test-coverage',
      '--test-reporter=lcov',
      `--test-reporter-destination=${report}`,
      'test/',
    ],
    { cwd: tree, env: withoutCoverage() },
  );
  return report;
}

/** c8 over `node --test` in `tree`, as lcov; returns the report's path. */
export async function c8Lcov(tree: string): Promise<string> {
  await exec(process.execPath, [C8, '--reporter=lcov', process.execPath, '--test', 'test/'], {
    cwd: tree,
    env: withoutCoverage(),
  });
  return path.join(tree, 'coverage', 'lcov.info');
}

/** Is coverage.py there to run (Debian's python3-coverage)? */
export async function hasCoveragePy(): Promise<boolean> {
  if (!existsSync(PYTHON)) return false;
  try {
    await exec(PYTHON, ['-c', 'import coverage, pytest']);
    return true;
  } catch {
    return false;
  }
}

/** coverage.py over pytest in `tree`, as Cobertura XML (what the gate's wiring writes); returns its path. */
export async function coveragePyXml(tree: string): Promise<string> {
  const env = { ...process.env, PYTHONDONTWRITEBYTECODE: '1' };
  await exec(PYTHON, ['-m', 'coverage', 'run', '-m', 'pytest', '-q', '-p', 'no:cacheprovider'], { cwd: tree, env });
  await exec(PYTHON, ['-m', 'coverage', 'xml', '-o', 'coverage.xml', '-q'], { cwd: tree, env });
  return path.join(tree, 'coverage.xml');
}

/**
 * ag-diffcov on one report of `repo` (with `--tree` at the repository unless `extra` says
 * otherwise); the artefact must keep every invariant ag-decide re-derives.
 */
export async function diffcov(
  repo: { tree: string; diff: string },
  report: string,
  extra: readonly string[] = ['--tree', repo.tree],
): Promise<DiffcovArtefact> {
  const out = path.join(tempDir(), 'diffcov.json');
  const r = await run(['--diff', repo.diff, '--coverage', report, '--root', repo.tree, ...extra, '--out', out]);
  if (r.code !== 0) throw new Error(`ag-diffcov exited ${r.code}: ${r.stderr}`);
  const d = parseArtefact(out, readFileSync(out), 'diffcov').value as DiffcovArtefact;
  const problem = invariantProblem(d, readFileSync(repo.diff, 'utf8'));
  if (problem !== null) throw new Error(`diffcov.json breaks an invariant: ${problem}`);
  return d;
}

/** The test file of a node:test project: `import { names } from '../src/<file>.js'` and a body. */
export const nodeTest = (names: string, file: string, body: string): string =>
  `import assert from 'node:assert/strict';\nimport { test } from 'node:test';\nimport { ${names} } from '../src/${file}.js';\n\ntest('${file}', () => {\n${body}\n});\n`;
