import test from 'ava';
import { codes, decideWith, execution, golden } from './helpers/golden.js';

const watch = () => ({
  watched: [
    { role: 'baseline' as const, path: '/w/baseline' },
    { role: 'patch' as const, path: '/w/patch' },
    { role: 'evidence' as const, path: '/w' },
  ],
  unwatched: [],
  outside_changes: [] as Array<{ role: 'baseline' | 'patch' | 'evidence'; path: string; change: 'added' | 'removed' | 'changed'; sha256: string | null }>,
  outside_changes_total: 0,
  late_changes: [] as Array<{ side: 'baseline' | 'patch'; round: number; command: string; path: string; change: 'added' | 'removed' | 'changed' }>,
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
