/**
 * The command that runs a project's tests with a per-test report the gate reads, and the one
 * that also writes a coverage report: per runner, with the project's own arguments kept and
 * the flags that would hide tests (bail, watch, a reporter of its own) left out.
 * @module
 */
import type { JsRunner } from './scripts.js';

/** Where the gate's reports land, relative to the tree the command runs in. */
export const JUNIT_REPORT = '.ag-junit.xml';
export const COVERAGE_DIR = '.ag-coverage';

/** How a detected runner is run for the gate. */
export interface TestWiring {
  /** The test command, with its per-test report. */
  readonly test_command: string;
  /** Where the per-test report is: a JUnit file relative to the tree, or TAP on stdout. */
  readonly report: { readonly kind: 'junit'; readonly path: string } | { readonly kind: 'tap' };
  /** The same tests, also writing coverage; null when no coverage tool is at hand. */
  readonly coverage_command: string | null;
  /** The coverage report it writes, relative to the tree. */
  readonly coverage_report: string | null;
  /** Whether every report's ids carry the test's file (else equal full titles in two files could merge). */
  readonly ids_carry_file: boolean;
  /** The tools the gate installs into its own folder for this wiring (the project lacks them). */
  readonly tools: readonly GateTool[];
  /** Where each reporter and coverage tool comes from, one line each, for the detected block. */
  readonly sources: readonly string[];
  readonly problems: readonly string[];
}

/** A package the gate installs into its own tools folder, never into the project. */
export interface GateTool {
  readonly name: string;
  /** An exact version, or `=DEP`: the version of the package DEP the side installed (a peer that must match). */
  readonly version: string;
  /** What it is for: `per-test report` or `coverage`. */
  readonly purpose: string;
  /** Linked into the coverage tree's node_modules (a package the runner imports by name). */
  readonly link: boolean;
}

/** Where the gate keeps what it adds to a project's run; without it, a missing tool is a named problem. */
export interface GateToolbox {
  /** The gate's tools folder: the tools are installed into its `node_modules` (none: a missing tool is a problem). */
  readonly dir?: string;
  /** The gate's own node:test reporter: JUnit whose test cases carry the file and the suite path. */
  readonly nodeReporter?: string;
  /**
   * The gate's launcher of jest and mocha (`runner-launcher.cjs`): the runner gets the gate's
   * flags, the program under test the project's own argv (none: the runner is run as it is named).
   */
  readonly launcher?: string;
}

/** The versions of the tools the gate installs, pinned. */
export const GATE_TOOL_VERSIONS: Readonly<Record<'c8' | 'jest-junit', string>> = {
  c8: '10.1.3',
  'jest-junit': '16.0.0',
};

/** Quote one word for /bin/sh. */
export function shQuote(word: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A glob the script left bare stays bare (the shell expands it, as under `npm test`) when it holds nothing else to quote. */
const BARE_GLOB = /^[A-Za-z0-9_./:=@%+,*?[\]{}!-]+$/;

const LCOV = `${COVERAGE_DIR}/lcov.info`;
const BIN = 'npx --no-install';
/** Where the launcher finds the project's own arguments (it removes the variable before the runner starts). */
const PROGRAM_ARGV_ENV = 'AG_PROGRAM_ARGV';
const JUNIT = { kind: 'junit', path: JUNIT_REPORT } as const;
const TAP = { kind: 'tap' } as const;

/** A launched runner: the environment put before the whole command, and the command. */
interface Launch {
  readonly env: string;
  readonly command: string;
}

/** What one runner's wiring collects: the gate's tools, where each piece comes from, what is missing. */
class Collected {
  readonly tools: GateTool[] = [];
  readonly sources: string[] = [];
  readonly problems: string[] = [];
  constructor(
    readonly runner: JsRunner,
    readonly has: (dep: string) => boolean,
    readonly toolbox: GateToolbox | undefined,
    readonly globbed: readonly string[] = [],
  ) {}

  /** The project's arguments as shell words, its bare globs left bare. */
  words(args: readonly string[]): string {
    const word = (a: string) => (this.globbed.includes(a) && BARE_GLOB.test(a) ? a : shQuote(a));
    return args.length === 0 ? '' : ` ${args.map(word).join(' ')}`;
  }

  /** The project's package `name`, else the gate's (installed into its folder), else null and a problem. */
  pick(name: string, purpose: string, version: string, link = false): 'project' | 'gate' | null {
    if (this.has(name)) {
      this.sources.push(`${purpose}: ${name}, the project's own`);
      return 'project';
    }
    const dir = this.toolbox?.dir;
    if (dir === undefined) return null;
    this.tools.push({ name, version, purpose, link });
    const v = version.startsWith('=') ? `the installed ${version.slice(1)}'s version` : version;
    this.sources.push(`${purpose}: ${name} ${v}, installed by the gate into ${dir} (the project has none)`);
    return 'gate';
  }

  /** A binary of the gate's tools folder. */
  bin(name: string): string {
    return shQuote(`${this.toolbox?.dir ?? ''}/node_modules/.bin/${name}`);
  }

  /** The folder of one of the gate's packages. */
  pkg(name: string): string {
    return shQuote(`${this.toolbox?.dir ?? ''}/node_modules/${name}`);
  }

  noCoverage(tool: string): void {
    this.problems.push(`no coverage tool for ${this.runner}: the project has no ${tool} (coverage is not measured)`);
  }

  /** c8 or nyc around a command that starts node: the project's, else the gate's c8; null when neither. */
  aroundNode(command: string): string | null {
    if (this.has('c8') || !this.has('nyc')) {
      const from = this.pick('c8', 'coverage', GATE_TOOL_VERSIONS.c8);
      if (from !== null) {
        const c8 = from === 'project' ? `${BIN} c8` : this.bin('c8');
        return `${c8} --reporter=lcov --reports-dir=${COVERAGE_DIR} ${command}`;
      }
      this.noCoverage('c8 or nyc');
      return null;
    }
    this.sources.push("coverage: nyc, the project's own");
    return `${BIN} nyc --reporter=lcov --report-dir=${COVERAGE_DIR} --temp-dir=${COVERAGE_DIR}/.nyc ${command}`;
  }

  /**
   * jest or mocha with `before`, the project's `args` and `after` (words already quoted). The
   * runner shares its process with the tests (jest in band, mocha always), so a program that
   * reads `process.argv` would meet the gate's flags: through the gate's launcher it gets the
   * project's `args` alone, as under `npm test`. `env` is what goes before the whole command
   * (before c8 or nyc too); `command` the rest. Without a launcher: `npx --no-install RUNNER …`.
   */
  launch(runner: 'jest' | 'mocha', before: string, args: readonly string[], after: string): Launch {
    const list = `${before}${this.words(args)}${after}`;
    const launcher = this.toolbox?.launcher;
    if (launcher === undefined) {
      this.sources.push(
        `the program's argv: the project's and the gate's flags (${runner} runs as it is named, no launcher)`,
      );
      return { env: '', command: `${BIN} ${runner}${list}` };
    }
    const fallback =
      runner === 'jest'
        ? 'a jest with no run(argv) runs from its bin, the flags in its argv, and says so'
        : "a mocha before 6, or mocha's child for node flags, has them in its argv";
    this.sources.push(
      `the program's argv: the project's own; ${runner} gets the gate's flags from its launcher ${launcher} (${fallback})`,
    );
    return {
      env: `${PROGRAM_ARGV_ENV}=${shQuote(JSON.stringify(args))} `,
      command: `${BIN} node ${shQuote(launcher)} ${runner}${list}`,
    };
  }

  wired(test: string, report: TestWiring['report'], coverage: string | null, idsCarryFile: boolean): TestWiring {
    return {
      test_command: test,
      report,
      coverage_command: coverage,
      coverage_report: coverage === null ? null : LCOV,
      ids_carry_file: idsCarryFile,
      tools: this.tools,
      sources: this.sources,
      problems: this.problems,
    };
  }
}

/**
 * Wire a JS runner with the project's arguments `args`; `has` tells the project's
 * dependencies. With a `toolbox`, a reporter or coverage tool the project lacks is the gate's
 * own, installed into the toolbox folder (listed in `tools`); without one it is a problem.
 * `globbed`: the words of `args` the script left for the shell to expand, kept bare.
 */
export function wireJsRunner(
  runner: JsRunner,
  args: readonly string[],
  has: (dep: string) => boolean,
  toolbox?: GateToolbox,
  globbed: readonly string[] = [],
): TestWiring {
  const c = new Collected(runner, has, toolbox, globbed);
  switch (runner) {
    case 'vitest': {
      // A file named like a test that holds none (a table of cases the tests import) fails
      // vitest without --passWithNoTests; the gate tells lost tests from the per-test report.
      const test = `${BIN} vitest run${c.words(args)} --passWithNoTests --reporter=default --reporter=junit --outputFile.junit=${JUNIT_REPORT}`;
      // istanbul when it is the project's only provider; else v8, the project's or the gate's (its version is vitest's).
      const istanbul = has('@vitest/coverage-istanbul') && !has('@vitest/coverage-v8');
      if (istanbul) c.sources.push("coverage: @vitest/coverage-istanbul, the project's own");
      const provider = istanbul
        ? 'istanbul'
        : c.pick('@vitest/coverage-v8', 'coverage', '=vitest', true) !== null
          ? 'v8'
          : null;
      if (provider === null) c.noCoverage('@vitest/coverage-v8');
      const coverage =
        provider === null
          ? null
          : `${test} --coverage.enabled=true --coverage.provider=${provider} --coverage.reporter=lcov --coverage.reportsDirectory=${COVERAGE_DIR}`;
      return c.wired(test, JUNIT, coverage, true);
    }
    case 'jest': {
      const from = c.pick('jest-junit', 'per-test report', GATE_TOOL_VERSIONS['jest-junit']);
      if (from === null)
        c.problems.push('jest needs the jest-junit reporter for a per-test report, and the project does not have it');
      const reporter = from === 'gate' ? c.pkg('jest-junit') : 'jest-junit';
      const env = `JEST_JUNIT_OUTPUT_FILE=${JUNIT_REPORT} JEST_JUNIT_ADD_FILE_ATTRIBUTE=true JEST_JUNIT_CLASSNAME='{filepath}' JEST_JUNIT_TITLE='{classname} {title}' JEST_JUNIT_INCLUDE_CONSOLE_OUTPUT=false`;
      const jest = c.launch('jest', ' --ci', args, ` --reporters=default --reporters=${reporter}`);
      const test = `${env} ${jest.env}${jest.command}`;
      c.sources.push("coverage: jest's own (--coverage)");
      return c.wired(
        test,
        JUNIT,
        `${test} --coverage --coverageReporters=lcov --coverageDirectory=${COVERAGE_DIR}`,
        true,
      );
    }
    case 'mocha': {
      // mocha's xunit reporter keeps pending tests; it names each test's file from mocha 10 on only.
      const mocha = c.launch('mocha', '', args, ` --reporter=xunit --reporter-option=output=${JUNIT_REPORT}`);
      const coverage = c.aroundNode(mocha.command);
      return c.wired(
        `${mocha.env}${mocha.command}`,
        JUNIT,
        coverage === null ? null : `${mocha.env}${coverage}`,
        false,
      );
    }
    case 'ava': {
      const test = `${BIN} ava --tap${c.words(args)}`;
      return c.wired(test, TAP, c.aroundNode(test), true);
    }
    case 'node': {
      // node's own junit reporter names no file (equal titles in two files would merge): the gate's names it.
      const junit = toolbox?.nodeReporter !== undefined ? shQuote(toolbox.nodeReporter) : 'junit';
      c.sources.push(
        junit === 'junit'
          ? "per-test report: node's junit reporter (its test cases name no file)"
          : `per-test report: the gate's node:test reporter ${toolbox?.nodeReporter ?? ''}`,
        "coverage: node's own (--experimental-test-coverage)",
      );
      const reporters = `--test-reporter=spec --test-reporter-destination=stdout --test-reporter=${junit} --test-reporter-destination=${JUNIT_REPORT}`;
      const coverage = `node --test --experimental-test-coverage ${reporters} --test-reporter=lcov --test-reporter-destination=${LCOV}${c.words(args)}`;
      return c.wired(
        `node --test ${reporters}${c.words(args)}`,
        JUNIT,
        `mkdir -p ${COVERAGE_DIR} && ${coverage}`,
        junit !== 'junit',
      );
    }
    case 'tap':
    case 'tape': {
      const test =
        runner === 'tap'
          ? `${BIN} tap --reporter=tap --disable-coverage${c.words(args)}`
          : `${BIN} tape${c.words(args)}`;
      const coverage = c.aroundNode(test);
      c.problems.push(`${runner} reports carry no file in each test id: equal titles in two files would merge`);
      return c.wired(test, TAP, coverage, false);
    }
  }
}

/**
 * pytest as `python3 -m pytest` runs it, the tree first on `sys.path` (a package of the project
 * that is also installed, such as Debian's python3-jwt, is imported from the tree, not from the
 * system), but with pytest (and coverage, for the coverage command) imported before the tree is
 * put there: a `pytest.py` or `_pytest/` in the tree cannot replace the runner, as a module
 * already imported stays imported. Coverage reads no configuration file of the project
 * (`config_file=False`): a `.coveragerc` or `pyproject.toml` the patch adds with `exclude_lines`
 * or `omit` would otherwise take its own lines out of the measurement. Works on every Python 3.
 */
export function wirePytest(python = 'python3'): TestWiring {
  const first = `import os, sys; here = os.getcwd(); sys.path[:] = [p for p in sys.path if p not in ("", ".", here)]`;
  // The tree first, then its `src/` folder when that is a layout folder, not a package (a
  // `src/` layout's package is then the tree's too, never an installed copy of it).
  const tree = `sys.path.insert(0, here); src = os.path.join(here, "src"); sys.path.insert(1, src) if os.path.isdir(src) and not os.path.exists(os.path.join(src, "__init__.py")) else None`;
  const boot = `${first}; import pytest; ${tree}; sys.exit(pytest.main())`;
  const args = `-p no:cacheprovider --junitxml=${JUNIT_REPORT} -o junit_family=xunit2`;
  const test = `${python} -c ${shQuote(boot)} ${args}`;
  const covBoot = `${first}; import coverage, pytest; ${tree}; c = coverage.Coverage(data_file="${COVERAGE_DIR}/.coverage", source=[here], config_file=False); c.start(); r = pytest.main(); c.stop(); c.save(); c.xml_report(outfile="${COVERAGE_DIR}/coverage.xml"); sys.exit(r)`;
  const coverage = `mkdir -p ${COVERAGE_DIR} && ${python} -c ${shQuote(covBoot)} ${args}`;
  return {
    test_command: test,
    report: { kind: 'junit', path: JUNIT_REPORT },
    coverage_command: coverage,
    coverage_report: `${COVERAGE_DIR}/coverage.xml`,
    ids_carry_file: true,
    tools: [],
    sources: ["coverage: coverage.py, the interpreter's own"],
    problems: [],
  };
}
