#!/usr/bin/env node
// Cobertura XML and lcov from an istanbul coverage map (coverage-final.json), written by
// istanbul's own reporters (istanbul-reports, the ones jest, vitest, nyc and c8 call), resolved
// through c8 (a root devDependency).
//   node bench/istanbul-cobertura.cjs coverage-final.json OUT_DIR PROJECT_ROOT
// Used to write test/fixtures/corpus/js-ufo-*/cobertura-coverage.xml; the lcov it writes
// equals the case's lcov.info byte for byte (the same map through the other reporter).
const { createRequire } = require('node:module');
const path = require('node:path');

const fromC8 = createRequire(require.resolve('c8'));
const libCoverage = fromC8('istanbul-lib-coverage');
const libReport = fromC8('istanbul-lib-report');
const reports = fromC8('istanbul-reports');

const [input, outDir, projectRoot] = process.argv.slice(2);
if (!input || !outDir || !projectRoot) {
  console.error('usage: istanbul-cobertura.cjs coverage-final.json OUT_DIR PROJECT_ROOT');
  process.exit(3);
}
const map = libCoverage.createCoverageMap(require(path.resolve(input)));
const context = libReport.createContext({ dir: outDir, coverageMap: map });
reports.create('cobertura', { projectRoot, file: 'cobertura-coverage.xml' }).execute(context);
reports.create('lcovonly', { projectRoot, file: 'lcov.info' }).execute(context);
