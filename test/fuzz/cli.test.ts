import test from 'ava';
import { decideBinary, diffcovBinary } from './cli.js';
import { formatFailure, fuzzReader } from './harness.js';

for (const spec of [decideBinary, diffcovBinary]) {
  test.serial(
    `${spec.name}: no stack trace, no half-written artefact, never a result the input does not show`,
    async (t) => {
      const report = await fuzzReader(spec);
      t.log(`${report.runs} cases, seed ${report.seed}, ${Math.round(report.ms)} ms wall`);
      if (report.failure !== null) t.fail(formatFailure(report.failure));
      else t.true(report.runs > 0);
    },
  );
}
