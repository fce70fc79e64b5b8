import test from 'ava';
import { progressReporter } from '../src/progress.js';

test('progress shows done/total, kills, survivors and an ETA', (t) => {
  const lines: string[] = [];
  let clock = 0;
  const report = progressReporter(
    (l) => lines.push(l),
    () => clock,
  );
  clock = 2000;
  report(2, 6, { killed: 1, timeout: 0, survived: 1, stillborn: 0 });
  t.is(lines[0], 'ag-mutate: 2/6 mutants, 1 killed, 1 survived, 0 stillborn, ETA 4 s\n');
});
