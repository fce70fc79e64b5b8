// The demo's scenarios: which project, which patch, what the gate must decide.
/** The interpreter of the Python rows, and whether the caller chose it (AG_DEMO_PYTHON). */
export const PYTHON = {
  path: process.env.AG_DEMO_PYTHON ?? '/usr/bin/python3',
  custom: process.env.AG_DEMO_PYTHON !== undefined,
};
const PY = PYTHON.path;

export const PROJECTS = {
  js: {
    runner: 'node:test',
    env: {
      AG_TEST_COMMAND: 'node --test',
      AG_COVERAGE_COMMAND:
        'mkdir -p coverage && node --test --experimental-test-coverage --test-reporter=lcov --test-reporter-destination=coverage/lcov.info',
      AG_COVERAGE_REPORT: 'coverage/lcov.info',
    },
  },
  py: {
    runner: 'pytest',
    env: {
      AG_TEST_COMMAND: `${PY} -m pytest -q -p no:cacheprovider --junitxml=.ag-junit.xml`,
      AG_JUNIT: '.ag-junit.xml',
      AG_COVERAGE_COMMAND: `${PY} -m coverage run -m pytest -q -p no:cacheprovider; ${PY} -m coverage xml -o coverage.xml`,
      AG_COVERAGE_REPORT: 'coverage.xml',
      AG_PYTHON: PY,
    },
  },
};

export const SCENARIOS = [
  {
    id: 'A',
    project: 'js',
    patch: 'break',
    coverage: true,
    expect: 'REJECT',
    code: 'CLAIM_FAILED',
    what: 'the patch breaks a test',
  },
  {
    id: 'B',
    project: 'js',
    patch: 'clean',
    coverage: false,
    expect: 'HOLD',
    code: 'COVERAGE_NOT_MEASURED',
    what: 'a clean patch with no coverage evidence',
  },
  {
    id: 'C',
    project: 'js',
    patch: 'clean',
    coverage: true,
    expect: 'ACCEPT',
    code: null,
    what: 'the same clean patch, measured',
  },
  {
    id: 'D',
    project: 'js',
    patch: 'skip',
    coverage: true,
    expect: 'REJECT',
    code: 'TEST_SKIPPED',
    what: 'the failing test turned into a skip',
  },
  {
    id: 'E',
    project: 'js',
    patch: 'weak',
    coverage: true,
    expect: 'HOLD',
    code: 'STRENGTH_BELOW_FLOOR',
    what: 'covered but weakly asserted',
  },
  {
    id: 'F',
    project: 'js',
    patch: 'oracle',
    coverage: true,
    expect: 'REJECT',
    code: 'ORACLE_TOUCHED',
    what: 'the patch edits a protected oracle test',
  },
  {
    id: 'A-py',
    project: 'py',
    patch: 'break',
    coverage: true,
    expect: 'REJECT',
    code: 'CLAIM_FAILED',
    what: 'pytest: the patch breaks a test',
  },
  {
    id: 'C-py',
    project: 'py',
    patch: 'clean',
    coverage: true,
    expect: 'ACCEPT',
    code: null,
    what: 'pytest: a clean patch, measured',
  },
];
