import test from 'ava';
import type { DiffcovArtefact } from '@adversary-gate/schemas';
import { FINGERPRINT_KEY, pathToUri, renderSarif } from '../src/render/sarif.js';
import { sarifProblems } from './helpers/sarif-schema.js';

const TOOL = { name: 'ag-diffcov', version: '1' };
const base = { faults: [], pragmas: [], files: [], unmeasured_files: undefined };

const computed = {
  ...base,
  diff_coverage_source: 'computed',
  files: [
    {
      path: 'src/a.ts',
      in_report: true,
      covered: [[1, 2]],
      uncovered: [
        [3, 3],
        [7, 9],
      ],
      non_executable: [],
    },
    { path: 'src/new.ts', in_report: false, covered: [], uncovered: [[1, 4]], non_executable: [] },
  ],
  pragmas: [
    { path: 'src/a.ts', line: 5, text: '// istanbul ignore next' },
    { path: 'src/a.ts', line: 6, text: '// istanbul ignore next' },
  ],
} as unknown as DiffcovArtefact;

const uri = (r: any) => r.locations[0].physicalLocation.artifactLocation.uri;
const run = (d: DiffcovArtefact) => (renderSarif(d, TOOL) as any).runs[0];

test('one SARIF 2.1.0 result per uncovered range and per pragma, valid against the OASIS schema', (t) => {
  const log = renderSarif(computed, TOOL) as any;
  t.deepEqual(sarifProblems(log), []);
  t.is(log.version, '2.1.0');
  const results = log.runs[0].results;
  t.deepEqual(
    results.map((r: any) => [
      r.ruleId,
      uri(r),
      r.locations[0].physicalLocation.region.startLine,
      r.locations[0].physicalLocation.region.endLine,
    ]),
    [
      ['uncovered-changed-lines', 'src/a.ts', 3, 3],
      ['uncovered-changed-lines', 'src/a.ts', 7, 9],
      ['uncovered-changed-lines', 'src/new.ts', 1, 4],
      ['coverage-pragma-added', 'src/a.ts', 5, 5],
      ['coverage-pragma-added', 'src/a.ts', 6, 6],
    ],
  );
  t.regex(results[2].message.text, /absent from every coverage report/);
  t.deepEqual(log.runs[0].invocations[0].toolExecutionNotifications, [], 'a clean measurement notifies nothing');
});

test('every result has a partial fingerprint, distinct per result, the same on every run', (t) => {
  const prints = run(computed).results.map((r: any) => r.partialFingerprints[FINGERPRINT_KEY]);
  t.true(prints.every((p: unknown) => typeof p === 'string' && /^[0-9a-f]{64}$/.test(p as string)));
  t.is(new Set(prints).size, prints.length, 'the same pragma twice in a file still gives two fingerprints');
  t.deepEqual(
    run(computed).results.map((r: any) => r.partialFingerprints[FINGERPRINT_KEY]),
    prints,
  );
});

test('every rule a result names has a description and help, and the result indexes it', (t) => {
  const r = run(computed);
  for (const result of r.results) {
    const rule = r.tool.driver.rules[result.ruleIndex];
    t.is(rule.id, result.ruleId);
    t.truthy(rule.fullDescription.text);
    t.truthy(rule.help.text);
  }
});

test('paths with spaces, non-ASCII and URI syntax are percent-encoded segment by segment', (t) => {
  t.is(pathToUri('sp ace.py'), 'sp%20ace.py');
  t.is(pathToUri('dir/ünï.py'), 'dir/%C3%BCn%C3%AF.py');
  t.is(pathToUri('a#b/c?d/e:f/100%.js'), 'a%23b/c%3Fd/e%3Af/100%25.js');
  t.is(pathToUri('src/plain-name_1.ts'), 'src/plain-name_1.ts', 'honest control: a plain path is unchanged');
  const d = {
    ...computed,
    files: [{ path: 'sp ace/ünï #1.py', in_report: true, covered: [], uncovered: [[2, 2]], non_executable: [] }],
    pragmas: [],
  } as unknown as DiffcovArtefact;
  const log = renderSarif(d, TOOL);
  t.deepEqual(sarifProblems(log), []);
  t.is(uri((log as any).runs[0].results[0]), 'sp%20ace/%C3%BCn%C3%AF%20%231.py');
  t.is(decodeURIComponent(uri((log as any).runs[0].results[0])), 'sp ace/ünï #1.py');
});

const none = {
  ...base,
  diff_coverage_source: 'none',
  unmeasured_files: [
    {
      path: 'src/a.ts',
      added: [
        [4, 6],
        [9, 9],
      ],
    },
    { path: 'src/b c.ts', added: [[1, 1]] },
  ],
} as unknown as DiffcovArtefact;

test('no report: a warning at each changed source file and a notification, never an empty log', (t) => {
  const log = renderSarif(none, TOOL);
  t.deepEqual(sarifProblems(log), []);
  const r = (log as any).runs[0];
  t.deepEqual(
    r.results.map((x: any) => [x.ruleId, x.level, uri(x), x.locations[0].physicalLocation.region.startLine]),
    [
      ['coverage-not-measured', 'warning', 'src/a.ts', 4],
      ['coverage-not-measured', 'warning', 'src/b%20c.ts', 1],
    ],
  );
  t.regex(r.results[0].message.text, /4 changed line\(s\) was not measured: no coverage report/);
  t.deepEqual(
    r.invocations[0].toolExecutionNotifications.map((n: any) => [n.level, n.associatedRule.id]),
    [['warning', 'coverage-not-measured']],
  );
});

test('a caller-asserted ratio is not a measurement either', (t) => {
  const r = run({ ...none, diff_coverage_source: 'untrusted', diff_coverage_ratio: 1 } as unknown as DiffcovArtefact);
  t.is(r.results.length, 2);
  t.regex(r.results[0].message.text, /asserted by the caller/);
});

test('a measurement with a fault warns at each counted file and notifies the fault', (t) => {
  const d = {
    ...computed,
    pragmas: [],
    faults: [{ code: 'EMPTY_REPORT', message: 'cov.info names no file' }],
  } as unknown as DiffcovArtefact;
  const log = renderSarif(d, TOOL);
  t.deepEqual(sarifProblems(log), []);
  const r = (log as any).runs[0];
  t.deepEqual(
    r.results
      .filter((x: any) => x.ruleId === 'coverage-not-measured')
      .map((x: any) => [uri(x), x.locations[0].physicalLocation.region.startLine]),
    [
      ['src/a.ts', 1],
      ['src/new.ts', 1],
    ],
  );
  t.deepEqual(
    r.invocations[0].toolExecutionNotifications.map((n: any) => n.message.text),
    [
      'Diff coverage was not measured: the measurement has faults (EMPTY_REPORT).',
      'EMPTY_REPORT: cov.info names no file',
    ],
  );
});

test('honest control: nothing to cover (comments only) is a measurement: no warning, no notification', (t) => {
  const d = {
    ...base,
    diff_coverage_source: 'computed',
    diff_coverage_ratio: null,
    reason: 'no_executable_changed_lines',
    files: [{ path: 'a.py', in_report: true, covered: [], uncovered: [], non_executable: [[1, 3]] }],
  } as unknown as DiffcovArtefact;
  const r = run(d);
  t.deepEqual([r.results, r.invocations[0].toolExecutionNotifications], [[], []]);
});
