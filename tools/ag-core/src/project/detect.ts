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
import { chooseWorkspace, expandWorkspaces, inWorkspace, someOf, workspacePatterns } from './workspaces.js';

export type PackageManager = 'npm' | 'pnpm' | 'yarn';

/** What the gate found out about one tree. */
export interface ProjectPlan {
  readonly language: 'js' | 'python' | null;
  readonly package_manager: PackageManager | null;
  /** The install command, run once per side in its own copy; null when nothing is installed. */
  readonly install_command: string | null;
  readonly runner: JsRunner | 'pytest' | null;
  readonly wiring: TestWiring | null;
  /** The workspace folders the root declares (relative, sorted); empty when it declares none. */
  readonly workspaces: readonly string[];
  /**
   * The one workspace judged with its own runner (the root has none): the wiring's commands
   * start with `cd DIR && ` and its reports are under DIR. Null: the root's runner, or none.
   */
  readonly workspace: string | null;
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
  readonly workspaces?: unknown;
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

/** A runner found, with where it was found (`dependency`: only named as a dependency). */
interface FoundRunner {
  readonly runner: JsRunner;
  readonly args: string[];
  /** The words of `args` the script leaves for the shell to expand. */
  readonly globbed: readonly string[];
  readonly from: 'script' | 'config' | 'dependency';
  /** The finding, for the detected block. */
  readonly line: string;
}

/** The runner from the scripts, then from config files, then from dev dependencies. */
function jsRunner(root: string, pkg: PackageJson): FoundRunner | null {
  for (const name of ['test', 'test:unit', 'unit', 'test-ci', 'test:ci']) {
    const script = pkg.scripts?.[name];
    if (typeof script !== 'string') continue;
    const inv = scriptInvocation(script);
    if (inv !== null)
      return {
        runner: inv.runner,
        args: keptArgs(inv.runner, inv.args),
        globbed: inv.globbed,
        from: 'script',
        line: `runner ${inv.runner}: package.json scripts.${name} runs it`,
      };
  }
  const files = readdirSync(root);
  for (const [runner, re] of CONFIG_HINTS) {
    const file = files.find((f) => re.test(f));
    if (file !== undefined) return { runner, args: [], globbed: [], from: 'config', line: `runner ${runner}: ${file}` };
  }
  for (const runner of ['vitest', 'jest', 'mocha', 'ava', 'tap', 'tape'] as const) {
    if (hasDep(pkg, runner))
      return {
        runner,
        args: [],
        globbed: [],
        from: 'dependency',
        line: `runner ${runner}: a dependency in package.json`,
      };
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
  /**
   * The paths the patch changes (both sides of a rename): in a workspaces root with no runner
   * of its own, they tell which workspace is judged with its own runner.
   */
  readonly changedPaths?: readonly string[];
}

const NO_RUNNER = 'names none of vitest, jest, mocha, ava, node --test, tap or tape';

function countDeps(pkg: PackageJson): number {
  return Object.keys(pkg.dependencies ?? {}).length + Object.keys(pkg.devDependencies ?? {}).length;
}

/** The changed workspace's own runner, wired from its folder; or the problem that stops it. */
function workspacePlan(
  root: string,
  pkg: PackageJson,
  workspaces: readonly string[],
  options: DetectOptions,
): {
  runner: JsRunner | null;
  wiring: TestWiring | null;
  workspace: string | null;
  found: string[];
  problems: string[];
} {
  const found: string[] = [];
  const problems: string[] = [];
  const chosen = chooseWorkspace(workspaces, options.changedPaths);
  if ('problem' in chosen) return { runner: null, wiring: null, workspace: null, found, problems: [chosen.problem] };
  const dir = chosen.dir;
  found.push(`workspace ${dir}: the one the patch changes, judged with its own runner from its folder`);
  if (chosen.outside.length > 0)
    found.push(`changed outside any workspace (no runner of theirs): ${someOf(chosen.outside)}`);
  const wpkg = readPackageJson(path.join(root, dir)) ?? {};
  const wjs = jsRunner(path.join(root, dir), wpkg);
  if (wjs === null) {
    problems.push(`no test runner found in the workspace ${dir}: its package.json ${NO_RUNNER}`);
    return { runner: null, wiring: null, workspace: dir, found, problems };
  }
  found.push(`${dir}: ${wjs.line}`);
  // A workspace reaches its own dependencies and the root's (hoisted, or the root's tools).
  const has = (name: string) => hasDep(wpkg, name) || hasDep(pkg, name);
  const wiring = inWorkspace(wireJsRunner(wjs.runner, wjs.args, has, options.toolbox, wjs.globbed), dir);
  found.push(...wiring.sources);
  problems.push(...wiring.problems);
  return { runner: wjs.runner, wiring, workspace: dir, found, problems };
}

/**
 * Find out what `root` is and how its tests run with the reports the gate reads. A workspaces
 * root whose scripts and config name no runner (its test script is `npm test --workspaces`,
 * `pnpm -r test`, or absent; a runner it only lists as a dependency is the workspaces' hoisted
 * tool) is judged through the one workspace `changedPaths` fall in, with that workspace's own
 * runner: see `chooseWorkspace` and `inWorkspace`. When that cannot be done and the root lists a
 * runner as a dependency, that runner is wired at the root, as for any other root.
 */
export function detectProject(root: string, options: DetectOptions = {}): ProjectPlan {
  const found: string[] = [];
  const problems: string[] = [];
  const pkg = readPackageJson(root);
  if (pkg !== null) {
    const install = installPlan(root, pkg, options.allowScripts === true);
    found.push(`package manager ${install.manager}: ${install.from}`);
    const declared = workspacePatterns(root, pkg);
    const workspaces = declared === null ? [] : expandWorkspaces(root, declared.patterns);
    if (declared !== null)
      found.push(
        `workspaces: ${workspaces.length === 0 ? 'none found' : someOf(workspaces)} (${declared.from}: ${declared.patterns.join(' ')})`,
      );
    // The root's install installs every workspace: it runs when any of them has dependencies.
    const hasDeps = [pkg, ...workspaces.map((w) => readPackageJson(path.join(root, w)) ?? {})].some(
      (p) => countDeps(p) > 0,
    );
    const plan = (runner: JsRunner | null, wiring: TestWiring | null, workspace: string | null): ProjectPlan => ({
      language: 'js',
      package_manager: install.manager,
      install_command: hasDeps ? install.command : null,
      runner,
      wiring,
      workspaces,
      workspace,
      found,
      problems,
    });
    const js = jsRunner(root, pkg);
    if (workspaces.length > 0 && (js === null || js.from === 'dependency')) {
      const judged = workspacePlan(root, pkg, workspaces, options);
      // A runner the root only lists as a dependency is the workspaces' hoisted tool: the
      // changed workspace's own runner comes first, the root's is what is left.
      if (js === null || judged.wiring !== null) {
        if (js !== null)
          found.push(
            `runner ${js.runner}: only a dependency of the workspaces root, not its own: the workspace's is used`,
          );
        found.push(...judged.found);
        problems.push(...judged.problems);
        return plan(judged.runner, judged.wiring, judged.workspace);
      }
      found.push(`no workspace's own runner can be used (${judged.problems.join('; ')}): the root's is`);
    }
    if (js === null) {
      problems.push(`no test runner found: package.json ${NO_RUNNER}`);
      return plan(null, null, null);
    }
    found.push(js.line);
    const wiring = wireJsRunner(js.runner, js.args, (name) => hasDep(pkg, name), options.toolbox, js.globbed);
    found.push(...wiring.sources);
    problems.push(...wiring.problems);
    return plan(js.runner, wiring, null);
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
      workspaces: [],
      workspace: null,
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
    workspaces: [],
    workspace: null,
    found,
    problems: ['no package.json and no pytest project: the test runner could not be found out'],
  };
}
