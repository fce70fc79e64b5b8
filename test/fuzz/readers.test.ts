import test from 'ava';
import { removeIntact } from './decision.js';
import { formatFailure, fuzzReader } from './harness.js';
import { READERS } from './readers.js';

test.after.always(removeIntact);

for (const spec of READERS) {
  test.serial(`${spec.name}: every mutant is read validly or refused with one line naming the file`, async (t) => {
    const report = await fuzzReader(spec);
    t.log(
      `${report.runs} cases (${report.refused} refused, ${report.accepted} read), seed ${report.seed}, ${Math.round(report.ms)} ms wall, ${Math.round(report.cpuMs)} ms CPU`,
    );
    if (report.failure !== null) t.fail(formatFailure(report.failure));
    else t.true(report.runs > 0);
  });
}
