import test from 'ava';
import { codes, decideWith, execution, golden } from './helpers/golden.js';
import { perturbedNote } from '../src/rules/run.js';
import { renderMarkdown } from '../src/markdown.js';

const watch = () => ({
  watched: [
    { role: 'baseline' as const, path: '/w/baseline' },
    { role: 'patch' as const, path: '/w/patch' },
    { role: 'evidence' as const, path: '/w' },
  ],
  unwatched: [],
  outside_changes: [] as Array<{
    role: 'baseline' | 'patch' | 'evidence';
    path: string;
    change: 'added' | 'removed' | 'changed';
    sha256: string | null;
  }>,
  outside_changes_total: 0,
  late_changes: [] as Array<{
    side: 'baseline' | 'patch';
    round: number;
    command: string;
    path: string;
    change: 'added' | 'removed' | 'changed';
  }>,
  late_changes_total: 0,
});

test('run: a clean write watch changes nothing: still ACCEPT', (t) => {
  const g = golden();
  const v = decideWith({ ...g, run: { ...g.run, write_watch: watch(), run_as: 'unprivileged' } });
  t.is(v.verdict, 'ACCEPT', JSON.stringify(v.reasons));
});

test('run: a file the tests wrote into the baseline tree holds with TAMPER_SUSPECTED, naming it', (t) => {
  const g = golden();
  const w = watch();
  w.outside_changes = [{ role: 'baseline', path: 'src/calc.py', change: 'changed', sha256: null }];
  w.outside_changes_total = 1;
  const v = decideWith({ ...g, run: { ...g.run, write_watch: w } });
  t.is(v.verdict, 'HOLD');
  t.deepEqual(codes(v), ['TAMPER_SUSPECTED']);
  t.regex(v.reasons[0]!.message, /baseline:src\/calc\.py \(changed\)/);
});

test('run: a write into the evidence directory beyond the listed cap still counts by its total', (t) => {
  const g = golden();
  const w = watch();
  w.outside_changes_total = 120;
  const v = decideWith({ ...g, run: { ...g.run, write_watch: w } });
  t.deepEqual(codes(v), ['TAMPER_SUSPECTED']);
  t.regex(v.reasons[0]!.message, /120 changes/);
});

test('run: a copy that changed after its run was killed holds with TAMPER_SUSPECTED', (t) => {
  const g = golden();
  const w = watch();
  w.late_changes = [{ side: 'patch', round: 2, command: 'npm test', path: 'tree/report.xml', change: 'changed' }];
  w.late_changes_total = 1;
  const v = decideWith({ ...g, run: { ...g.run, write_watch: w } });
  t.is(v.verdict, 'HOLD');
  t.deepEqual(codes(v), ['TAMPER_SUSPECTED']);
  t.regex(v.reasons[0]!.message, /patch round 2:tree\/report\.xml/);
});

test('run: a write outside the tree does not hide a failed claim: REJECT stays', (t) => {
  const g = golden();
  const w = watch();
  w.outside_changes_total = 1;
  w.outside_changes = [{ role: 'evidence', path: 'mutation.json', change: 'added', sha256: null }];
  g.run.claims[0].patch = [1, 2, 3].map((r) => execution('patch', r, 'FAIL'));
  g.run.claims[0].status = 'REFUTED';
  const v = decideWith({ ...g, run: { ...g.run, write_watch: w } });
  t.is(v.verdict, 'REJECT');
  t.deepEqual(codes(v), ['CLAIM_FAILED', 'TAMPER_SUSPECTED']);
});

// ---- files the tests' uids left in /tmp, /var/tmp, /dev/shm ----
const left = (baseline: string[], patch: string[]) => {
  const only = patch.filter((p) => !baseline.includes(p));
  return {
    baseline,
    baseline_total: baseline.length,
    patch,
    patch_total: patch.length,
    patch_only: only,
    patch_only_total: only.length,
  };
};

test('run: temporary files both sides leave alike change nothing: still ACCEPT', (t) => {
  const g = golden();
  const same = ['/tmp/pytest-of-unknown', '/tmp/pytest-of-unknown/pytest-<n>'];
  const v = decideWith({ ...g, run: { ...g.run, run_as: 'unprivileged', left_behind: left(same, same) } });
  t.is(v.verdict, 'ACCEPT', JSON.stringify(v.reasons));
});

test('run: a file only the patch side left holds with TAMPER_SUSPECTED, naming it', (t) => {
  const g = golden();
  const v = decideWith({
    ...g,
    run: { ...g.run, left_behind: left(['/tmp/cache'], ['/tmp/cache', '/var/tmp/stash-<uid>.json']) },
  });
  t.is(v.verdict, 'HOLD');
  t.deepEqual(codes(v), ['TAMPER_SUSPECTED']);
  t.regex(v.reasons[0]!.message, /no baseline run left \(1, removed after each run\): \/var\/tmp\/stash-<uid>\.json$/);
});

test('run: a patch_only list that is not what the patch left and the baseline did not is invalid evidence', (t) => {
  const g = golden();
  const forged = { ...left([], ['/tmp/stash']), patch_only: [], patch_only_total: 0 };
  const v = decideWith({ ...g, run: { ...g.run, left_behind: forged } });
  t.is(v.verdict, 'HOLD');
  t.deepEqual(codes(v), ['EVIDENCE_INVALID']);
  t.regex(v.reasons[0]!.message, /left_behind: patch_only is not what the patch left/);
});

// ---- per-test judgement across rounds (issue 18) ----
const tested = (side: 'baseline' | 'patch', round: number, tests: Record<string, string>) => {
  const failed = Object.values(tests).includes('failed');
  return {
    ...execution(side, round, failed ? 'FAIL' : 'PASS'),
    tests: Object.entries(tests).map(([id, outcome]) => ({ id, outcome })),
  };
};

test('run: flaky tests hold with TEST_FLAKY, naming each test and the rounds it passed and failed in', (t) => {
  const g = golden();
  g.run.tests_flaky = [
    {
      id: 'case 1',
      command: 'node --test',
      runs: [
        { side: 'baseline', round: 1, outcome: 'failed' },
        { side: 'baseline', round: 2, outcome: 'passed' },
        { side: 'patch', round: 1, outcome: 'passed' },
      ],
    },
  ];
  const v = decideWith(g);
  t.is(v.verdict, 'HOLD');
  t.deepEqual(codes(v), ['TEST_FLAKY']);
  t.is(
    v.reasons[0]!.message,
    'flaky tests, which passed and failed on one side or failed on the patch in a flaky file (not evidence either way): case 1 (baseline 1 failed, 2 passed; patch 1 passed)',
  );
});

// The disagreement of issue 2: ag-run listed X as flaky through its file (a sibling, Y, failed
// one baseline run), and X's own runs, confirmations included, never passed and failed on one
// side. The check applied a narrower rule than ag-run's and called honest evidence forged
// (EVIDENCE_INVALID). Now both apply ag-core's rule; the listing (ag-run's test
// flaky-listing.test.ts asserts it writes exactly this) carries the sibling's runs.
const Y = 'tests/test_budget ü.py::test budget ✓ 日本';
const X = 'tests/test_budget ü.py::test_parse[50%/*]';
const T = 'tests/test_other.py::test_slow';
const sides = (baseline: string[], patch: string[]) => [
  ...baseline.map((outcome, i) => ({ side: 'baseline' as const, round: i + 1, outcome })),
  ...patch.map((outcome, i) => ({ side: 'patch' as const, round: i + 1, outcome })),
];
const yRuns = sides(['passed', 'failed'], ['passed', 'passed', 'passed', 'passed', 'passed']);
const listed = (command: string) => [
  { id: Y, command, runs: yRuns },
  {
    id: X,
    command,
    runs: sides(['passed', 'passed'], ['failed', 'failed', 'failed', 'failed', 'failed']),
    file_runs: yRuns.map((r) => ({ id: Y, ...r })),
  },
  { id: T, command, runs: sides(['passed', 'passed'], ['failed', 'failed', 'failed', 'passed', 'failed']) },
];

test('run: a test flaky through its file, listed with its file’s runs, is TEST_FLAKY, never EVIDENCE_INVALID (odd ids round-trip)', (t) => {
  const g = golden();
  g.run.tests_flaky = listed(g.run.full_suite.command);
  const v = decideWith(g);
  t.is(v.verdict, 'HOLD', JSON.stringify(v.reasons));
  t.deepEqual(codes(v), ['TEST_FLAKY']);
  const message = v.reasons[0]!.message;
  t.true(
    message.includes(
      `${X} (baseline 1 passed, 2 passed; patch 1 failed, 2 failed, 3 failed, 4 failed, 5 failed; its file is flaky: ${Y} (baseline 1 passed, 2 failed; patch 1 passed, 2 passed, 3 passed, 4 passed, 5 passed))`,
    ),
    message,
  );
  t.true(
    message.includes(`${T} (baseline 1 passed, 2 passed; patch 1 failed, 2 failed, 3 failed, 4 passed, 5 failed)`),
    message,
  );
});

test('run: the next cheat of the kind: a flaky listing whose file’s runs prove nothing is still refused as invalid', (t) => {
  const forge = (edit: (x: ReturnType<typeof listed>[number]) => object) => {
    const g = golden();
    g.run.tests_flaky = listed(g.run.full_suite.command).map((f) => (f.id === X ? edit(f) : f));
    return decideWith(g);
  };
  // Without the sibling's runs (as before the fix), a steady sibling, a sibling in another file.
  for (const v of [
    forge(({ file_runs: _, ...rest }) => rest),
    forge((f) => ({ ...f, file_runs: f.file_runs!.map((r) => ({ ...r, outcome: 'passed' })) })),
    forge((f) => ({ ...f, file_runs: f.file_runs!.map((r) => ({ ...r, id: 'tests/test_elsewhere.py::w' })) })),
  ]) {
    t.deepEqual(codes(v), ['EVIDENCE_INVALID']);
    t.regex(v.reasons[0]!.message, /tests_flaky: tests\/test_budget ü\.py::test_parse\[50%\/\*\] is listed as flaky/);
  }
});

// A test red in every run on both sides is failing, not flaky: ag-run lists it nowhere, a red
// full suite holds with BASELINE_RED naming it, and a listing that calls it flaky is forged.
const RED = 'tests/dir ü/test_%2F*.py::test red 100% / every * time ✓ 日本';

test('run: a test red in every run on both sides holds as BASELINE_RED naming it, never TEST_FLAKY', (t) => {
  const g = golden();
  const ok = 'test/calc.test.js::adds';
  g.run.full_suite.baseline = tested('baseline', 1, { [ok]: 'passed', [RED]: 'failed' });
  g.run.full_suite.patch = tested('patch', 1, { [ok]: 'passed', [RED]: 'failed' });
  g.run.full_suite.reruns = [tested('baseline', 2, { [ok]: 'passed', [RED]: 'error' })];
  g.run.full_suite.baseline_red = true;
  const v = decideWith(g);
  t.is(v.verdict, 'HOLD', JSON.stringify(v.reasons));
  t.false(codes(v).includes('TEST_FLAKY'), JSON.stringify(v.reasons));
  const red = v.reasons.find((r) => r.code === 'BASELINE_RED')!;
  t.is(
    red.message,
    `the full suite is FAIL on the baseline (fail); red in every run on both sides, failing before the patch (not flaky): ${RED}`,
  );
  // A test that passed in one of those runs is not named: it is not red in every run.
  const mixed = golden();
  mixed.run.full_suite.baseline = tested('baseline', 1, { [ok]: 'passed', [RED]: 'failed' });
  mixed.run.full_suite.patch = tested('patch', 1, { [ok]: 'passed', [RED]: 'passed' });
  mixed.run.full_suite.baseline_red = true;
  const m = decideWith(mixed).reasons.find((r) => r.code === 'BASELINE_RED')!;
  t.is(m.message, 'the full suite is FAIL on the baseline (fail)');
});

test('run: a listing that calls a test red in every run on both sides flaky is refused as invalid', (t) => {
  const g = golden();
  g.run.tests_flaky = [
    {
      id: RED,
      command: 'node --test',
      runs: sides(['failed', 'error'], ['failed', 'failed', 'failed']),
    },
  ];
  const v = decideWith(g);
  t.deepEqual(codes(v), ['EVIDENCE_INVALID']);
  t.true(v.reasons[0]!.message.includes(`tests_flaky: ${RED} is listed as flaky`), v.reasons[0]!.message);
  t.regex(v.reasons[0]!.message, /a test red in every run on both sides is failing, not flaky/);
  // The control: the same test, passing once on the patch, is flaky by its own runs.
  const once = golden();
  once.run.tests_flaky = [{ id: RED, command: 'node --test', runs: sides(['failed'], ['failed', 'passed']) }];
  t.deepEqual(codes(decideWith(once)), ['TEST_FLAKY']);
});

test('run: a full suite failing on the patch only through flaky tests is no collateral regression: HOLD, never REJECT', (t) => {
  const g = golden();
  const cmd = g.run.full_suite.command;
  g.run.full_suite.patch = tested('patch', 1, { 'test/calc.test.js::adds': 'passed', 'case 2': 'failed' });
  g.run.full_suite.reruns = [
    tested('baseline', 2, { 'test/calc.test.js::adds': 'passed', 'case 2': 'failed' }),
    tested('patch', 2, { 'test/calc.test.js::adds': 'passed', 'case 2': 'passed' }),
  ];
  g.run.full_suite.collateral_regression = false;
  g.run.tests_flaky = [
    {
      id: 'case 2',
      command: cmd,
      runs: [
        { side: 'baseline', round: 2, outcome: 'failed' },
        { side: 'patch', round: 1, outcome: 'failed' },
        { side: 'patch', round: 2, outcome: 'passed' },
      ],
    },
  ];
  const v = decideWith(g);
  t.is(v.verdict, 'HOLD', JSON.stringify(v.reasons));
  t.deepEqual(codes(v), ['TEST_FLAKY']);
});

test('run: the next cheat of the kind: collateral_regression false with nothing flaky in the artefact is refused as invalid', (t) => {
  const g = golden();
  g.run.full_suite.patch = execution('patch', 1, 'FAIL');
  g.run.full_suite.collateral_regression = false;
  const v = decideWith(g);
  t.is(v.verdict, 'HOLD');
  t.deepEqual(codes(v), ['EVIDENCE_INVALID']);
  t.regex(v.reasons[0]!.message, /collateral_regression/);
});

test('run: honest control: green on the baseline and failing on every patch run stays a collateral regression', (t) => {
  const g = golden();
  g.run.full_suite.patch = execution('patch', 1, 'FAIL');
  g.run.full_suite.reruns = [execution('baseline', 2, 'PASS'), execution('patch', 2, 'FAIL')];
  g.run.full_suite.collateral_regression = true;
  const v = decideWith(g);
  t.is(v.verdict, 'REJECT');
  t.deepEqual(codes(v), ['COLLATERAL_REGRESSION']);
});

test('run: a renamed test holds with TEST_RENAMED naming both ids; a test lost with nothing in its place still rejects', (t) => {
  const g = golden();
  g.run.test_deltas = {
    ...g.run.test_deltas,
    tests_renamed: [{ from: 'adds', to: 'adds two numbers', file: 'test/calc.test.js' }],
    tests_not_collected: [],
  };
  const v = decideWith(g);
  t.is(v.verdict, 'HOLD');
  t.deepEqual(codes(v), ['TEST_RENAMED']);
  t.regex(v.reasons[0]!.message, /adds → adds two numbers/);
  g.run.test_deltas.tests_lost = ['adds zero'];
  const w = decideWith(g);
  t.is(w.verdict, 'REJECT');
  t.deepEqual(codes(w), ['TEST_LOST', 'TEST_RENAMED']);
});

test('run: a rename pair that the oracle shows as a reworded title with its body unchanged is no TEST_RENAMED; another pair still is', (t) => {
  const g = golden();
  g.run.test_deltas = {
    ...g.run.test_deltas,
    tests_renamed: [
      { from: 'adds', to: 'adds two numbers', file: 'test/calc.test.js' },
      { from: 'subtracts', to: 'takes away', file: 'test/calc.test.js' },
    ],
    tests_not_collected: [],
  };
  const retitles = [{ path: 'test/calc.test.js', from: 'adds', to: 'adds two numbers' }];
  g.oracle.retitled_tests = retitles;
  const v = decideWith(g);
  t.deepEqual(codes(v), ['TEST_RENAMED']);
  t.notRegex(v.reasons[0]!.message, /adds → adds two numbers/);
  t.regex(v.reasons[0]!.message, /subtracts → takes away/);
  retitles.push({ path: 'test/calc.test.js', from: 'subtracts', to: 'takes away' });
  t.is(decideWith(g).verdict, 'ACCEPT');
  // the same titles in another file are not this pair
  g.oracle.retitled_tests = retitles.map((r) => ({ ...r, path: 'test/other.test.js' }));
  t.deepEqual(codes(decideWith(g)), ['TEST_RENAMED']);
});

test('run: a renamed test whose old version fails against the patched code is named as renamed with its expectation changed; a plain rename is not', (t) => {
  const g = golden();
  g.run.test_deltas = {
    ...g.run.test_deltas,
    tests_renamed: [
      { from: 'rejects a weak etag', to: 'accepts a weak etag', file: 'test/fresh.js' },
      { from: 'adds', to: 'adds two numbers', file: 'test/calc.test.js' },
    ],
    tests_not_collected: [],
  };
  g.run.trusted_tests = {
    command: 'node --test',
    files: [{ path: 'test/fresh.js', change: 'modified', renamed_to: null }],
    execution: { ...execution('patch', 1, 'FAIL'), tests: [{ id: 'rejects a weak etag', outcome: 'failed' }] },
    failed: [{ id: 'rejects a weak etag', outcome: 'failed' }],
  };
  const v = decideWith(g);
  t.is(v.verdict, 'HOLD');
  t.deepEqual(codes(v), ['TEST_RENAMED', 'TRUSTED_TEST_FAILED']);
  const renamed = v.reasons.find((r) => r.code === 'TEST_RENAMED')!.message;
  t.regex(renamed, /rejects a weak etag → accepts a weak etag \(renamed with its expectation changed/);
  t.regex(renamed, /adds → adds two numbers(?! \(renamed with)/);
});

test('run: tests whose file failed to load on the patch are not lost: CLAIM_UNVERIFIED naming them, no TEST_LOST', (t) => {
  const g = golden();
  g.run.test_deltas = {
    ...g.run.test_deltas,
    tests_renamed: [],
    tests_not_collected: ['tests/test_calc.py::test_add'],
  };
  const v = decideWith(g);
  t.is(v.verdict, 'HOLD');
  t.deepEqual(codes(v), ['CLAIM_UNVERIFIED']);
  t.regex(v.reasons[0]!.message, /failed to load on the patch .*tests\/test_calc\.py::test_add/);
});

test('run: tests of a file deleted with the code it imports are retired: TEST_RETIRED naming both, no TEST_LOST; without the file named the evidence is invalid', (t) => {
  const g = golden();
  g.run.test_deltas = { ...g.run.test_deltas, tests_renamed: [], tests_retired: ['slug works'] };
  const retired = [{ path: 'test/slug.test.js', subjects: ['src/slug.js'] }];
  const trusted = (list: typeof retired) => ({
    command: g.run.full_suite.command,
    files: [],
    execution: null,
    failed: [],
    tree: 'baseline' as const,
    from_patch: [],
    held_back: [],
    ...(list.length > 0 ? { retired: list } : {}),
  });
  const v = decideWith({ ...g, run: { ...g.run, trusted_tests: trusted(retired) } });
  t.true(codes(v).includes('TEST_RETIRED'), JSON.stringify(v.reasons));
  t.false(codes(v).includes('TEST_LOST'));
  t.regex(
    v.reasons.find((r) => r.code === 'TEST_RETIRED')!.message,
    /test\/slug\.test\.js with src\/slug\.js\): slug works/,
  );
  const forged = decideWith({ ...g, run: { ...g.run, trusted_tests: trusted([]) } });
  t.true(codes(forged).includes('EVIDENCE_INVALID'), JSON.stringify(forged.reasons));
});

test('run: a claim failing only where the baseline already failed is BASELINE_RED, not CLAIM_FAILED', (t) => {
  const g = golden();
  g.run.claims[0].patch = [1, 2, 3].map((r) => execution('patch', r, 'FAIL'));
  Object.assign(g.run.claims[0], { status: 'UNVERIFIED', class: 'still_failing' });
  g.run.criteria = [];
  const v = decideWith(g);
  t.is(v.verdict, 'HOLD', JSON.stringify(v.reasons));
  t.deepEqual(codes(v), ['BASELINE_RED']);
  t.regex(v.reasons[0]!.message, /claim claim-1 fails on the patch only where it already failed on the baseline/);
});

test('run: a clean baseline and a claim that hangs in every round rejects with CLAIM_FAILED (hang); with a red baseline the same file is invalid', (t) => {
  const g = golden();
  g.run.claims[0].baseline = execution('baseline', 1, 'PASS');
  g.run.claims[0].patch = [1, 2, 3].map((r) => execution('patch', r, 'TIMED_OUT'));
  Object.assign(g.run.claims[0], { status: 'REFUTED', class: 'hang' });
  g.run.criteria = [];
  const v = decideWith(g);
  t.is(v.verdict, 'REJECT');
  t.deepEqual(codes(v), ['CLAIM_FAILED']);
  t.regex(v.reasons[0]!.message, /timed out on the patch in every round, where the baseline passed it \(hang\)/);
  g.run.claims[0].baseline = execution('baseline', 1, 'FAIL');
  t.deepEqual(codes(decideWith(g)), ['EVIDENCE_INVALID']);
});

test('run: a flaky claim listed without a pass and a failure on one side is refused as invalid', (t) => {
  const g = golden();
  g.run.tests_flaky = [
    {
      id: 'x',
      command: 'node --test',
      runs: [
        { side: 'baseline', round: 1, outcome: 'passed' },
        { side: 'patch', round: 1, outcome: 'failed' },
      ],
    },
  ];
  t.deepEqual(codes(decideWith(g)), ['EVIDENCE_INVALID']);
});

test('run: a REFUTED claim whose patch rerun passed is refused as invalid', (t) => {
  const g = golden();
  g.run.claims[0].baseline = execution('baseline', 1, 'PASS');
  g.run.claims[0].patch = [1, 2, 3].map((r) => execution('patch', r, 'FAIL'));
  g.run.claims[0].reruns = [execution('patch', 4, 'PASS')];
  Object.assign(g.run.claims[0], { status: 'REFUTED', class: 'regression' });
  t.deepEqual(codes(decideWith(g)), ['EVIDENCE_INVALID']);
});

test('run: a trusted run in the baseline tree that fails holds with TRUSTED_TEST_FAILED, naming what was held back; the changed package files apart', (t) => {
  const g = golden();
  const held = [
    { path: 'package-lock.json', change: 'modified' as const, kind: 'package' as const },
    { path: 'package.json', change: 'modified' as const, kind: 'package' as const },
    { path: 'test/new.test.js', change: 'added' as const, kind: 'test' as const },
  ];
  const base = {
    command: 'node --test',
    files: [
      { path: 'package-lock.json', change: 'modified' as const, renamed_to: null },
      { path: 'package.json', change: 'modified' as const, renamed_to: null },
    ],
    tree: 'baseline' as const,
    from_patch: [{ path: 'src/calc.js', change: 'modified' as const }],
    held_back: held,
  };
  // the patched code needs a dependency the baseline lacks: its test file cannot load
  g.run.trusted_tests = {
    ...base,
    execution: { ...execution('patch', 1, 'FAIL'), tests: [] },
    failed: [{ id: 'adds', outcome: 'absent' }],
  };
  let v = decideWith(g);
  t.is(v.verdict, 'HOLD', 'never a REJECT');
  t.deepEqual(codes(v), ['TRUSTED_TEST_FAILED']);
  const message = v.reasons[0]!.message;
  t.regex(message, /baseline tree/);
  t.regex(message, /test\/new\.test\.js \(added, test\)/);
  t.regex(message, /package files the trusted run does not take \(package-lock\.json, package\.json\)/);
  t.regex(message, /adds \(absent\)$/);
  // could not run: the package files still named
  g.run.trusted_tests = { ...base, execution: execution('patch', 1, 'UNRUNNABLE'), failed: [] };
  v = decideWith(g);
  t.deepEqual(codes(v), ['TRUSTED_TEST_FAILED']);
  t.regex(v.reasons[0]!.message, /could not run .*package\.json/);
  t.notRegex(v.reasons[0]!.message, /nor did they run/, 'the baseline itself ran');
  // and when the suite could not run on the baseline either, the message says so (still a HOLD)
  const red = {
    ...g,
    run: {
      ...g.run,
      full_suite: { ...g.run.full_suite, baseline: execution('baseline', 1, 'UNRUNNABLE'), baseline_red: true },
    },
  };
  const both = decideWith(red).reasons.find((r) => r.code === 'TRUSTED_TEST_FAILED');
  t.regex(
    both?.message ?? '',
    /nor did they run to a verdict on the baseline itself \(UNRUNNABLE, /,
    JSON.stringify(decideWith(red).reasons),
  );
  // no package file changed: no such note
  g.run.trusted_tests = {
    ...base,
    held_back: [held[2]!],
    files: [],
    execution: { ...execution('patch', 1, 'FAIL'), tests: [{ id: 'adds', outcome: 'failed' }] },
    failed: [{ id: 'adds', outcome: 'failed' }],
  };
  v = decideWith(g);
  t.deepEqual(codes(v), ['TRUSTED_TEST_FAILED']);
  t.notRegex(v.reasons[0]!.message, /package files/);
  t.notRegex(v.reasons[0]!.message, /renames undone/);
  // the patched code's renames undone in the trusted tree: named beside what was held back
  g.run.trusted_tests = {
    ...g.run.trusted_tests,
    renamed_back: { names: [{ baseline: 'add', patch: 'sum' }], files: ['src/calc.js'] },
  };
  t.regex(decideWith(g).reasons[0]!.message, /renames undone there: sum → add in src\/calc\.js/);
  // honest: the trusted run passed
  g.run.trusted_tests = { ...base, execution: execution('patch', 1, 'PASS'), failed: [] };
  t.is(decideWith(g).verdict, 'ACCEPT');
});

test('run: a baseline test that fails against the patched code once the patch edits of its file are undone holds with TRUSTED_TEST_FAILED', (t) => {
  const g = golden();
  const files = [{ path: 'test/calc.test.js', change: 'modified', renamed_to: null }];
  g.run.trusted_tests = {
    command: 'node --test',
    files,
    execution: { ...execution('patch', 1, 'FAIL'), tests: [{ id: 'subtracts', outcome: 'failed' }] },
    failed: [{ id: 'subtracts', outcome: 'failed' }],
  };
  const v = decideWith(g);
  t.is(v.verdict, 'HOLD');
  t.deepEqual(codes(v), ['TRUSTED_TEST_FAILED']);
  t.regex(v.reasons[0]!.message, /test\/calc\.test\.js \(modified\).*subtracts \(failed\)/);
  // honest control: the trusted run passed and names nothing
  g.run.trusted_tests = { command: 'node --test', files, execution: execution('patch', 1, 'PASS'), failed: [] };
  t.is(decideWith(g).verdict, 'ACCEPT');
  // not measured is never a pass
  g.run.trusted_tests = { command: 'node --test', files, execution: execution('patch', 1, 'UNRUNNABLE'), failed: [] };
  t.deepEqual(codes(decideWith(g)), ['TRUSTED_TEST_FAILED']);
  g.run.trusted_tests = { command: 'node --test', files, execution: null, failed: [] };
  t.deepEqual(codes(decideWith(g)), ['TRUSTED_TEST_FAILED']);
});

/** A trusted run on the baseline tree that passed `adds`, with a perturbed pair around it. */
function perturbedRun(pair: Record<string, unknown>) {
  const g = golden();
  g.run.trusted_tests = {
    command: 'node --test',
    files: [],
    tree: 'baseline',
    from_patch: [{ path: 'src/fee.js', change: 'modified' }],
    held_back: [],
    execution: execution('patch', 1, 'PASS'),
    failed: [],
    perturbed: {
      env: [
        { name: 'CI', value: 'true' },
        { name: 'FAKETIME', value: '+150d' },
        { name: 'LD_PRELOAD', value: '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1' },
        { name: 'TZ', value: 'Pacific/Chatham' },
      ],
      clock_shift_days: 150,
      baseline: execution('baseline', 1, 'PASS'),
      execution: execution('patch', 1, 'FAIL'),
      failed: [{ id: 'test/calc.test.js::adds', outcome: 'failed' }],
      ...pair,
    },
  };
  return g;
}

test('run: a baseline test that passes against the patched code under the gate and fails under the perturbed environment holds with TRUSTED_TEST_FAILED naming the perturbation', (t) => {
  const v = decideWith(perturbedRun({}));
  t.is(v.verdict, 'HOLD');
  t.deepEqual(codes(v), ['TRUSTED_TEST_FAILED']);
  t.regex(v.reasons[0]!.message, /under a perturbed environment \(clock \+150 d, CI=true, TZ=Pacific\/Chatham\)/);
  t.regex(v.reasons[0]!.message, /test\/calc\.test\.js::adds \(failed\)$/);
  t.notRegex(v.reasons[0]!.message, /LD_PRELOAD|FAKETIME/, 'the clock is named by its shift');
  // as fresh uids, the pair's executions were uids of another range: the message says so
  const g = perturbedRun({});
  const asRoot = decideWith({ ...g, run: { ...g.run, run_as: 'unprivileged' } });
  t.regex(asRoot.reasons[0]!.message, /\(clock \+150 d, CI=true, TZ=Pacific\/Chatham, uids of another range\)/);
  // the suite cannot even run against the patched code there, where it ran on the baseline
  const crashed = decideWith(perturbedRun({ execution: execution('patch', 1, 'UNRUNNABLE'), failed: [] }));
  t.deepEqual(codes(crashed), ['TRUSTED_TEST_FAILED']);
  t.regex(crashed.reasons[0]!.message, /could not run .* perturbed environment .*UNRUNNABLE/);
});

test('run: the perturbed pair passing on both sides, or not measured because the baseline cannot run under it, is no reason', (t) => {
  t.is(decideWith(perturbedRun({ execution: execution('patch', 1, 'PASS'), failed: [] })).verdict, 'ACCEPT');
  const note =
    "not measured: the baseline's own suite did not run to a verdict under the perturbed environment (TIMED_OUT, timed_out); nothing is concluded from the pair";
  const g = perturbedRun({
    baseline: execution('baseline', 1, 'TIMED_OUT'),
    execution: execution('patch', 1, 'TIMED_OUT'),
    failed: [],
    note,
  });
  const v = decideWith(g);
  t.is(v.verdict, 'ACCEPT', JSON.stringify(v.reasons));
  t.is(perturbedNote(g.run as never), `run: the perturbed pair (clock +150 d, CI=true, TZ=Pacific/Chatham): ${note}`);
  t.is(perturbedNote(perturbedRun({ failed: [] }).run as never), null);
});

test('run: a perturbed pair that names what its executions do not show is refused as invalid', (t) => {
  const invalid = (pair: Record<string, unknown>, why: RegExp) => {
    const v = decideWith(perturbedRun(pair));
    t.deepEqual(codes(v), ['EVIDENCE_INVALID'], JSON.stringify(pair));
    t.regex(v.reasons[0]!.message, why);
  };
  // named, but it failed on the perturbed baseline too
  invalid({ baseline: execution('baseline', 1, 'FAIL') }, /did not pass in the perturbed baseline execution/);
  // named, but it passed in the perturbed trusted execution
  invalid({ execution: execution('patch', 1, 'PASS') }, /does not show/);
  invalid({ failed: [{ id: 'test/calc.test.js::adds', outcome: 'absent' }] }, /does not show/);
  // an execution on the wrong side
  invalid({ baseline: execution('patch', 1, 'PASS') }, /not on the baseline side/);
  // a shift the environment does not give
  invalid({ clock_shift_days: 151 }, /disagrees with FAKETIME/);
  invalid({ clock_shift_days: null }, /disagrees with FAKETIME/);
  // named over a baseline that did not run to a verdict
  invalid({ baseline: execution('baseline', 1, 'UNRUNNABLE') }, /did not run to a verdict/);
  // beside a trusted run that is not on the baseline tree
  const g = perturbedRun({});
  (g.run.trusted_tests as Record<string, unknown>).tree = 'patch';
  t.regex(decideWith(g).reasons[0]!.message, /not on the baseline tree/);
});

test('run: a test the unperturbed trusted run already failed is not named by the pair', (t) => {
  const g = perturbedRun({});
  const trusted = g.run.trusted_tests as Record<string, unknown>;
  trusted.execution = execution('patch', 1, 'FAIL');
  trusted.failed = [{ id: 'test/calc.test.js::adds', outcome: 'failed' }];
  const v = decideWith(g);
  t.deepEqual(codes(v), ['EVIDENCE_INVALID']);
  t.regex(v.reasons[0]!.message, /did not pass in the trusted execution/);
});

test('run: the interpreter that ran the tests is a note of the verdict, said plainly when it is not the caller’s; never a reason', (t) => {
  const g = golden();
  const entry = (path: string, callerPath: string) => ({
    command: 'python3 -m pytest',
    name: 'python3',
    path,
    version: '3.11.2',
    caller_path: callerPath,
    caller_version: path === callerPath ? '3.11.2' : '3.12.1',
  });
  g.run.run_as = 'unprivileged';
  g.run.interpreters = [entry('/usr/bin/python3', '/root/.pyenv/shims/python3')];
  const v = decideWith(g);
  t.is(v.verdict, 'ACCEPT', JSON.stringify(v.reasons));
  t.deepEqual(v.notes, [
    "run: python3 for the tests is /usr/bin/python3 (Python 3.11.2): NOT the python3 the caller's PATH gives; the caller's PATH gives /root/.pyenv/shims/python3 (Python 3.12.1) (each run is a fresh uid, given only the PATH entries it can search)",
  ]);
  const md = renderMarkdown(v as never);
  t.true(md.includes(`**Notes:**\n\n- ${v.notes![0]!}`), md);
  g.run.interpreters = [entry('/usr/bin/python3', '/usr/bin/python3'), entry('/usr/bin/python3', '/usr/bin/python3')];
  t.deepEqual(decideWith(g).notes, [
    "run: python3 for the tests is /usr/bin/python3 (Python 3.11.2), the python3 the caller's PATH gives",
  ]);
  // No interpreter named (older evidence, a node suite): no notes at all.
  t.is(decideWith(golden()).notes, undefined);
});
