import test from 'ava';
import type { DiffcovArtefact } from '@adversary-gate/schemas';
import { renderSarif } from '../src/render/sarif.js';

const d = {
  files: [
    { path: 'src/a.ts', in_report: true, covered: [[1, 2]], uncovered: [[3, 3], [7, 9]], non_executable: [] },
    { path: 'src/new.ts', in_report: false, covered: [], uncovered: [[1, 4]], non_executable: [] },
  ],
  pragmas: [{ path: 'src/a.ts', line: 5, text: '// istanbul ignore next' }],
} as unknown as DiffcovArtefact;

test('one SARIF 2.1.0 result per uncovered range and per pragma', (t) => {
  const log = renderSarif(d, { name: 'ag-diffcov', version: '1' }) as any;
  t.is(log.version, '2.1.0');
  const results = log.runs[0].results;
  t.deepEqual(
    results.map((r: any) => [r.ruleId, r.locations[0].physicalLocation.artifactLocation.uri, r.locations[0].physicalLocation.region.startLine, r.locations[0].physicalLocation.region.endLine]),
    [
      ['uncovered-changed-lines', 'src/a.ts', 3, 3],
      ['uncovered-changed-lines', 'src/a.ts', 7, 9],
      ['uncovered-changed-lines', 'src/new.ts', 1, 4],
      ['coverage-pragma-added', 'src/a.ts', 5, 5],
    ],
  );
  t.regex(results[2].message.text, /absent from every coverage report/);
});
