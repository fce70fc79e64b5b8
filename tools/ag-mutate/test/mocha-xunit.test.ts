import test from 'ava';
import { findMutant, measured } from './helpers/artefact.js';
import { makeRepo, type Repo } from './helpers/repo.js';

/**
 * mocha as the gate wires it (ag-core's wiring): the xunit reporter writing the per-test report
 * to a file, so nothing prints "N failing", and mocha exits with its failure count.
 */
const MOCHA_XUNIT = 'node_modules/.bin/mocha test/ --reporter=xunit --reporter-option=output=.ag-junit.xml';

const CALC = `exports.add = (a, b) => a + b;
exports.half = (n) => n / 2;
`;

/** Any mutant of add() fails three tests in two suites (exit 3); a mutant of half() makes its test exit 2 itself. */
const SPEC = `const assert = require('node:assert');
const { add, half } = require('../src/calc.js');
describe('sum', () => {
  it('of two', () => { assert.equal(add(2, 3), 5); });
});
describe('sum again', () => {
  it('of three', () => { assert.equal(add(1, 2), 3); });
  it('of negatives', () => { assert.equal(add(-1, -2), -3); });
});
describe('half', () => {
  it('halves', () => { if (half(4) !== 2) process.exit(2); });
});
`;

const args = (repo: Repo, ...more: string[]) => [
  ...['--diff', repo.diff, '--tree', repo.tree, '--test-command', MOCHA_XUNIT, '--jobs', '2'],
  ...more,
];

test('mocha with its xunit report in a file: a mutant that fails several tests is killed, whole command or selection; an exit 2 of its own still proves nothing', async (t) => {
  const repo = makeRepo({}, { 'src/calc.js': CALC, 'test/calc.test.js': SPEC }, { linkModules: true });
  t.teardown(repo.cleanup);
  for (const select of ['whole', 'auto']) {
    const m = await measured(t, args(repo, '--select', select), repo.file(`${select}.json`));
    const add = m.mutants.filter((x) => x.line === 1);
    t.true(add.length >= 2, select);
    // exit 3 (or 2, where the selection bails per suite) and no summary: the report's failures are the kill.
    t.true(
      add.every((x) => x.status === 'killed' && x.ended == null),
      `${select}: ${JSON.stringify(add.map((x) => [x.replacement, x.status, x.ended]))}`,
    );
    // The test that exits 2 itself leaves no whole report: as before, a survivor that says how it ended.
    const half = findMutant(m, 2, '*');
    t.is(half.status, 'survived', select);
    t.is(half.ended, 'exit 2', select);
  }
});
