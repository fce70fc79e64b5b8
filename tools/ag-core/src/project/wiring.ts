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
  readonly problems: readonly string[];
}

/** Quote one word for /bin/sh. */
export function shQuote(word: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

function words(args: readonly string[]): string {
  return args.length === 0 ? '' : ` ${args.map(shQuote).join(' ')}`;
}

const LCOV = `${COVERAGE_DIR}/lcov.info`;
const BIN = 'npx --no-install';

/** c8, else nyc, around a command that starts node; null when the project has neither. */
function istanbulWrapper(has: (dep: string) => boolean, command: string): string | null {
  if (has('c8')) return `${BIN} c8 --reporter=lcov --reports-dir=${COVERAGE_DIR} ${command}`;
  if (has('nyc'))
    return `${BIN} nyc --reporter=lcov --report-dir=${COVERAGE_DIR} --temp-dir=${COVERAGE_DIR}/.nyc ${command}`;
  return null;
}

const JUNIT = { kind: 'junit', path: JUNIT_REPORT } as const;
const TAP = { kind: 'tap' } as const;

/** One wiring; the coverage report is the lcov file whenever there is a coverage command. */
function wired(
  test: string,
  report: TestWiring['report'],
  coverage: string | null,
  idsCarryFile: boolean,
  problems: readonly string[],
): TestWiring {
  return {
    test_command: test,
    report,
    coverage_command: coverage,
    coverage_report: coverage === null ? null : LCOV,
    ids_carry_file: idsCarryFile,
    problems,
  };
}

/** Wire a JS runner with the project's arguments `args`; `has` tells the project's dependencies. */
export function wireJsRunner(runner: JsRunner, args: readonly string[], has: (dep: string) => boolean): TestWiring {
  const problems: string[] = [];
  const noCoverage = (tool: string) =>
    problems.push(`no coverage tool for ${runner}: the project has no ${tool} (coverage is not measured)`);
  /** A runner whose coverage comes from c8 or nyc around it. */
  const aroundNode = (test: string, report: TestWiring['report'], idsCarryFile: boolean, extra: string[] = []) => {
    const coverage = istanbulWrapper(has, test);
    if (coverage === null) noCoverage('c8 or nyc');
    return wired(test, report, coverage, idsCarryFile, [...problems, ...extra]);
  };
  switch (runner) {
    case 'vitest': {
      const test = `${BIN} vitest run${words(args)} --reporter=default --reporter=junit --outputFile.junit=${JUNIT_REPORT}`;
      const provider = has('@vitest/coverage-v8') ? 'v8' : has('@vitest/coverage-istanbul') ? 'istanbul' : null;
      if (provider === null) noCoverage('@vitest/coverage-v8');
      const coverage =
        provider === null
          ? null
          : `${test} --coverage.enabled=true --coverage.provider=${provider} --coverage.reporter=lcov --coverage.reportsDirectory=${COVERAGE_DIR}`;
      return wired(test, JUNIT, coverage, true, problems);
    }
    case 'jest': {
      if (!has('jest-junit'))
        problems.push('jest needs the jest-junit reporter for a per-test report, and the project does not have it');
      const env = `JEST_JUNIT_OUTPUT_FILE=${JUNIT_REPORT} JEST_JUNIT_ADD_FILE_ATTRIBUTE=true JEST_JUNIT_CLASSNAME='{filepath}' JEST_JUNIT_TITLE='{classname} {title}' JEST_JUNIT_INCLUDE_CONSOLE_OUTPUT=false`;
      const test = `${env} ${BIN} jest --ci${words(args)} --reporters=default --reporters=jest-junit`;
      return wired(
        test,
        JUNIT,
        `${test} --coverage --coverageReporters=lcov --coverageDirectory=${COVERAGE_DIR}`,
        true,
        problems,
      );
    }
    case 'mocha':
      // mocha's xunit reporter names each test by its full suite path; the file only from mocha 10 on.
      return aroundNode(
        `${BIN} mocha${words(args)} --reporter=xunit --reporter-option=output=${JUNIT_REPORT}`,
        JUNIT,
        false,
      );
    case 'ava':
      return aroundNode(`${BIN} ava --tap${words(args)}`, TAP, true);
    case 'node': {
      const reporters = `--test-reporter=spec --test-reporter-destination=stdout --test-reporter=junit --test-reporter-destination=${JUNIT_REPORT}`;
      const coverage = `node --test --experimental-test-coverage ${reporters} --test-reporter=lcov --test-reporter-destination=${LCOV}${words(args)}`;
      return wired(
        `node --test ${reporters}${words(args)}`,
        JUNIT,
        `mkdir -p ${COVERAGE_DIR} && ${coverage}`,
        true,
        problems,
      );
    }
    case 'tap':
      return aroundNode(`${BIN} tap --reporter=tap --disable-coverage${words(args)}`, TAP, false, [
        'tap reports carry no file in each test id: equal titles in two files would merge',
      ]);
    case 'tape':
      return aroundNode(`${BIN} tape${words(args)}`, TAP, false, [
        'tape reports carry no file in each test id: equal titles in two files would merge',
      ]);
  }
}

/**
 * pytest imported before the tree is on the path (the tree is appended after the standard
 * library and the installed packages), so a `pytest.py` or `_pytest/` in the tree cannot shadow
 * the runner, while the project's own modules still import. Works on every Python 3.
 */
export function wirePytest(python = 'python3'): TestWiring {
  const first = `import os, sys; here = os.getcwd(); sys.path[:] = [p for p in sys.path if p not in ("", ".", here)]`;
  const boot = `${first}; import pytest; sys.path.append(here); sys.exit(pytest.main())`;
  const args = `-p no:cacheprovider --junitxml=${JUNIT_REPORT} -o junit_family=xunit2`;
  const test = `${python} -c ${shQuote(boot)} ${args}`;
  const covBoot = `${first}; import coverage, pytest; sys.path.append(here); c = coverage.Coverage(data_file="${COVERAGE_DIR}/.coverage", source=[here]); c.start(); r = pytest.main(); c.stop(); c.save(); c.xml_report(outfile="${COVERAGE_DIR}/coverage.xml"); sys.exit(r)`;
  const coverage = `mkdir -p ${COVERAGE_DIR} && ${python} -c ${shQuote(covBoot)} ${args}`;
  return {
    test_command: test,
    report: { kind: 'junit', path: JUNIT_REPORT },
    coverage_command: coverage,
    coverage_report: `${COVERAGE_DIR}/coverage.xml`,
    ids_carry_file: true,
    problems: [],
  };
}
