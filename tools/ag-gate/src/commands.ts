/**
 * What the gate runs, found out from the BASELINE tree (the runner is the baseline's, never
 * one the patch brings): the install command, the test runner and the commands that run it
 * with a per-test report and a coverage report. Every setting given overrides what is
 * detected; a test command given by hand brings its own reports.
 * @module
 */
import {
  callerLookup,
  detectProject,
  findOnPath,
  runningAsRoot,
  searchablePath,
  interpreterSentence,
  pythonInterpreter,
  runsLookup,
  wirePytest,
  type DiffModel,
  type GateTool,
  type ProjectPlan,
  type RunsRegime,
} from '@adversary-gate/core';
import { throughCorepack } from './install-settings.js';
import type { Settings } from './settings.js';

/** The commands of one run, and the block that says where they came from. */
export interface Commands {
  readonly test: string;
  readonly fullSuite: string;
  readonly coverage: string;
  readonly coverageReport: string;
  readonly junit: string;
  readonly install: string;
  /**
   * The workspace whose own runner the detected commands run (`cd DIR && …`), or null. When
   * the detected coverage command is in use, its lcov paths are relative to DIR: the gate puts
   * DIR in front before ag-diffcov reads them (`coverageBase`).
   */
  readonly workspace: string | null;
  /** DIR when the coverage report read back is the detected workspace command's; else null. */
  readonly coverageBase: string | null;
  /** Every workspace folder the baseline declares (their own packages are given to each tree after the install). */
  readonly workspaces: readonly string[];
  /** The gate's own tools to install (a reporter or coverage tool the project lacks). */
  readonly tools: readonly GateTool[];
  /** What could not be found out (said in the fault when there is no test command). */
  readonly problems: readonly string[];
  /** The block printed at the start and kept as detected.txt. */
  readonly block: string;
}

/** Detect what `baseline` is and choose the commands under `settings`. */
export function chooseCommands(
  baseline: string,
  settings: Settings,
  toolbox: { readonly dir: string; readonly nodeReporter: string; readonly launcher: string },
  changedPaths?: readonly string[],
): Commands {
  const plan = detectProject(baseline, { toolbox, ...(changedPaths === undefined ? {} : { changedPaths }) });
  return commandsFor(plan, baseline, settings, installOnPath());
}

/** Whether a program is found on the PATH an install gets (as root: the entries a fresh uid can search). */
function installOnPath(env: NodeJS.ProcessEnv = process.env): (name: string) => boolean {
  const value = env.PATH ?? '/usr/local/bin:/usr/bin:/bin';
  const lookup = { path: runningAsRoot() ? searchablePath(value) : value };
  return (name) => findOnPath(name, lookup) !== null;
}

/** Every path the diff changes, both sides of a rename or copy (what picks the workspace to judge). */
export function changedPaths(diff: DiffModel): string[] {
  const out = new Set<string>();
  for (const f of diff.files) {
    out.add(f.path);
    if (f.oldPath !== null) out.add(f.oldPath);
  }
  return [...out].sort();
}

/**
 * The commands for a detected `plan` (pure: the settings over what was detected); `onPath`
 * says whether the install finds a program on its PATH (a detected pnpm or yarn it lacks runs
 * through corepack).
 */
export function commandsFor(
  plan: ProjectPlan,
  baseline: string,
  s: Settings,
  onPath: (name: string) => boolean = () => true,
): Commands {
  const wiring = plan.runner === 'pytest' ? wirePytest(s.python) : plan.wiring;
  const detected = {
    test: wiring?.test_command ?? '',
    coverage: wiring?.coverage_command ?? '',
    report: wiring?.coverage_report ?? '',
    junit: wiring?.report.kind === 'junit' ? wiring.report.path : '',
  };
  const byHand = s.testCommand !== undefined;
  const test = s.testCommand ?? detected.test;
  const coverage = byHand ? (s.coverageCommand ?? '') : (s.coverageCommand ?? detected.coverage);
  const coverageReport = s.coverageReport ?? (byHand ? '' : detected.report) ?? '';
  const junit = byHand ? (s.junit ?? '') : (s.junit ?? detected.junit);
  const detectedInstall = plan.install_command === null ? null : throughCorepack(plan.install_command, onPath);
  const install = s.installCommand ?? detectedInstall ?? '';
  const detectedInUse = test === detected.test || (coverage !== '' && coverage === detected.coverage);
  const tools = wiring !== null && detectedInUse ? wiring.tools : [];
  const given = byHand || s.installCommand !== undefined || s.coverageCommand !== undefined || s.junit !== undefined;
  const lines = given
    ? [
        'adversary-gate settings over what was detected:',
        `  tests: ${test || 'none'}`,
        `  install: ${install || 'none'}`,
        `  coverage: ${coverage || 'none'}`,
        ...(tools.length > 0 ? [`  the gate's tools: ${tools.map((t) => `${t.name}@${t.version}`).join(' ')}`] : []),
      ]
    : [
        `adversary-gate detected in ${baseline}:`,
        ...plan.found.map((f) => `  ${f}`),
        ...(detectedInstall !== null
          ? [
              `  install: ${detectedInstall}${detectedInstall === plan.install_command ? '' : ` (${plan.package_manager ?? 'its package manager'} is not on the PATH: corepack runs it)`}`,
            ]
          : []),
        ...(wiring !== null
          ? [
              `  tests: ${wiring.test_command}`,
              `  per-test report: ${wiring.report.kind === 'junit' ? `JUnit ${wiring.report.path}` : 'TAP on stdout'}`,
              `  coverage: ${wiring.coverage_command ?? 'none'}`,
            ]
          : []),
        ...plan.problems.map((p) => `  problem: ${p}`),
      ];
  return {
    test,
    fullSuite: s.fullSuiteCommand ?? test,
    coverage,
    coverageReport: coverageReport || 'coverage/lcov.info',
    junit,
    install,
    workspace: plan.workspace,
    coverageBase: plan.workspace !== null && coverage !== '' && coverage === detected.coverage ? plan.workspace : null,
    workspaces: plan.workspaces,
    tools,
    problems: plan.problems,
    block: `${lines.join('\n')}\n`,
  };
}

/**
 * The lines that name the Python interpreter the test commands run (path and version), as
 * ag-run's runs will find it under `regime`, and whether it is the one the caller's PATH gives;
 * none when no command names one. Asked before any of the patch's code runs.
 */
export function interpreterLines(commands: readonly string[], regime: RunsRegime): string[] {
  const lines = [...new Set(commands.filter((c) => c !== ''))]
    .map((c) => pythonInterpreter(c, runsLookup(regime, c), callerLookup()))
    .filter((f) => f !== null)
    .map((f) => `  interpreter: ${interpreterSentence(f, regime.freshUid)}`);
  return [...new Set(lines)];
}
