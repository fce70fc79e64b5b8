/**
 * What a checkout is, found out from its files alone: the package manager and its install
 * command, the test runner, and the command that runs it with a per-test report and a coverage
 * report the gate can read. Every guess is listed with the file it came from, and what cannot
 * be wired is a named problem, never a silent default.
 * @module
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { keptArgs, scriptInvocation, type JsRunner } from './scripts.js';
import { wireJsRunner, wirePytest, type GateToolbox, type TestWiring } from './wiring.js';

export type PackageManager = 'npm' | 'pnpm' | 'yarn';

/** What the gate found out about one tree. */
export interface ProjectPlan {
  readonly language: 'js' | 'python' | null;
  readonly package_manager: PackageManager | null;
  /** The install command, run once per side in its own copy; null when nothing is installed. */
  readonly install_command: string | null;
  readonly runner: JsRunner | 'pytest' | null;
  readonly wiring: TestWiring | null;
  /** Each finding and the file it came from, in the order they were made. */
  readonly found: readonly string[];
  /** What could not be found out or wired; non-empty means the gate must hold, not guess. */
  readonly problems: readonly string[];
}

interface PackageJson {
  readonly scripts?: Record<string, unknown>;
  readonly devDependencies?: Record<string, unknown>;
  readonly dependencies?: Record<string, unknown>;
  readonly packageManager?: unknown;
}

function readPackageJson(root: string): PackageJson | null {
  const file = path.join(root, 'package.json');
  if (!existsSync(file)) return null;
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as PackageJson) : {};
  } catch {
    return {};
  }
}

/** The package manager and its install command, from the lock file (and `packageManager`). */
export function installPlan(
  root: string,
  pkg: PackageJson,
  allowScripts: boolean,
): { manager: PackageManager; command: string; from: string } {
  const ignore = allowScripts ? '' : ' --ignore-scripts';
  const declared = typeof pkg.packageManager === 'string' ? pkg.packageManager : '';
  if (existsSync(path.join(root, 'pnpm-lock.yaml'))) {
    return { manager: 'pnpm', command: `pnpm install --frozen-lockfile${ignore}`, from: 'pnpm-lock.yaml' };
  }
  if (existsSync(path.join(root, 'yarn.lock'))) {
    const berry = existsSync(path.join(root, '.yarnrc.yml')) || /^yarn@[2-9]/.test(declared);
    return berry
      ? {
          manager: 'yarn',
          command: 'yarn install --immutable' + (allowScripts ? '' : ' --mode=skip-build'),
          from: 'yarn.lock (yarn 2+)',
        }
      : { manager: 'yarn', command: `yarn install --frozen-lockfile${ignore}`, from: 'yarn.lock (yarn 1)' };
  }
  for (const lock of ['package-lock.json', 'npm-shrinkwrap.json']) {
    if (existsSync(path.join(root, lock)))
      return { manager: 'npm', command: `npm ci --no-audit --no-fund${ignore}`, from: lock };
  }
  return {
    manager: 'npm',
    command: `npm install --no-audit --no-fund --no-package-lock${ignore}`,
    from: 'package.json (no lock file)',
  };
}

function hasDep(pkg: PackageJson, name: string): boolean {
  return Object.hasOwn(pkg.devDependencies ?? {}, name) || Object.hasOwn(pkg.dependencies ?? {}, name);
}

const CONFIG_HINTS: readonly [JsRunner, RegExp][] = [
  ['vitest', /^vitest\.config\.[cm]?[jt]s$|^vitest\.workspace\./],
  ['jest', /^jest\.config\.[cm]?[jt]s$|^jest\.config\.json$/],
  ['mocha', /^\.mocharc(\.[cm]?js|\.json|\.jsonc|\.ya?ml)?$/],
  ['ava', /^ava\.config\.[cm]?js$/],
];

/** The runner from the scripts, then from config files, then from dev dependencies. */
function jsRunner(root: string, pkg: PackageJson, found: string[]): { runner: JsRunner; args: string[] } | null {
  for (const name of ['test', 'test:unit', 'unit', 'test-ci', 'test:ci']) {
    const script = pkg.scripts?.[name];
    if (typeof script !== 'string') continue;
    const inv = scriptInvocation(script);
    if (inv !== null) {
      found.push(`runner ${inv.runner}: package.json scripts.${name} runs it`);
      return { runner: inv.runner, args: keptArgs(inv.runner, inv.args) };
    }
  }
  const files = readdirSync(root);
  for (const [runner, re] of CONFIG_HINTS) {
    const file = files.find((f) => re.test(f));
    if (file !== undefined) {
      found.push(`runner ${runner}: ${file}`);
      return { runner, args: [] };
    }
  }
  for (const runner of ['vitest', 'jest', 'mocha', 'ava', 'tap', 'tape'] as const) {
    if (hasDep(pkg, runner)) {
      found.push(`runner ${runner}: a dependency in package.json`);
      return { runner, args: [] };
    }
  }
  return null;
}

const PYTEST_CONFIGS: readonly [string, RegExp][] = [
  ['pytest.ini', /./],
  ['pyproject.toml', /^\[tool\.pytest/m],
  ['setup.cfg', /^\[tool:pytest\]/m],
  ['tox.ini', /^\[pytest\]/m],
  ['conftest.py', /./],
];

function isPythonTestTree(root: string, found: string[]): boolean {
  for (const [file, re] of PYTEST_CONFIGS) {
    const p = path.join(root, file);
    if (existsSync(p) && re.test(readFileSync(p, 'utf8'))) {
      found.push(`runner pytest: ${file}`);
      return true;
    }
  }
  for (const dir of ['tests', 'test', '.']) {
    const d = path.join(root, dir);
    if (!existsSync(d) || !statSync(d).isDirectory()) continue;
    const test = readdirSync(d).find((f) => /^test_.*\.py$|_test\.py$/.test(f));
    if (test !== undefined) {
      found.push(`runner pytest: ${dir === '.' ? test : `${dir}/${test}`} (pytest also runs unittest tests)`);
      return true;
    }
  }
  return false;
}

/** How `detectProject` may wire: lifecycle scripts allowed, and where the gate's own tools go. */
export interface DetectOptions {
  readonly allowScripts?: boolean;
  /** With a toolbox, a reporter or coverage tool the project lacks is installed there by the gate. */
  readonly toolbox?: GateToolbox;
}

/** Find out what `root` is and how its tests run with the reports the gate reads. */
export function detectProject(root: string, options: DetectOptions = {}): ProjectPlan {
  const found: string[] = [];
  const problems: string[] = [];
  const pkg = readPackageJson(root);
  if (pkg !== null) {
    const install = installPlan(root, pkg, options.allowScripts === true);
    found.push(`package manager ${install.manager}: ${install.from}`);
    const hasDeps = Object.keys(pkg.dependencies ?? {}).length + Object.keys(pkg.devDependencies ?? {}).length > 0;
    const js = jsRunner(root, pkg, found);
    if (js === null) {
      problems.push(
        'no test runner found: package.json names none of vitest, jest, mocha, ava, node --test, tap or tape',
      );
      return {
        language: 'js',
        package_manager: install.manager,
        install_command: hasDeps ? install.command : null,
        runner: null,
        wiring: null,
        found,
        problems,
      };
    }
    const wiring = wireJsRunner(js.runner, js.args, (name) => hasDep(pkg, name), options.toolbox);
    found.push(...wiring.sources);
    problems.push(...wiring.problems);
    return {
      language: 'js',
      package_manager: install.manager,
      install_command: hasDeps ? install.command : null,
      runner: js.runner,
      wiring,
      found,
      problems,
    };
  }
  if (isPythonTestTree(root, found)) {
    const wiring = wirePytest();
    found.push(...wiring.sources);
    return {
      language: 'python',
      package_manager: null,
      install_command: null,
      runner: 'pytest',
      wiring,
      found,
      problems: [...wiring.problems],
    };
  }
  return {
    language: null,
    package_manager: null,
    install_command: null,
    runner: null,
    wiring: null,
    found,
    problems: ['no package.json and no pytest project: the test runner could not be found out'],
  };
}
