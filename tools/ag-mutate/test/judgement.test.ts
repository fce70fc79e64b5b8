// How a mutant's run is judged, end to end: a run that ends in any way but a pass or a test
// failure is no kill and no stillborn (the cheat of a weak test that exits 2 or kills its
// own process group when a mutant passes it), beside the honest control; strength per file;
// changed lines no mutant measured; ag-mutate's baseline explaining itself.
import test from 'ava';
import { makeRepo, repoArgs, type Files } from './helpers/repo.js';
import { measured } from './helpers/artefact.js';

const PKG: Files = { 'package.json': '{"type":"module"}\n' };

const CLAMP = `export function clamp(x, lo, hi) {
  if (x < lo) return lo;
  if (x > hi) return hi;
  return x;
}
`;

/** A test whose assertions are weak, and that ends its run oddly when the source is not the original (a mutant passed it). */
const cheat = (ending: string) => `import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { clamp } from '../src/clamp.js';
const ORIGINAL = ${JSON.stringify(CLAMP)};
test('clamp returns a number', () => {
  assert.equal(typeof clamp(5, 0, 10), 'number');
  // Comments stripped: the neutral edit (an appended comment) must not trip it.
  const now = readFileSync(new URL('../src/clamp.js', import.meta.url), 'utf8').replace(/\\/\\*[^]*?\\*\\/\\n?/g, '');
  if (now !== ORIGINAL) { ${ending} }
});
`;

const STRONG = `import test from 'node:test';
import assert from 'node:assert/strict';
import { clamp } from '../src/clamp.js';
test('clamp', () => {
  assert.equal(clamp(-1, 0, 10), 0);
  assert.equal(clamp(0, 0, 10), 0);
  assert.equal(clamp(10, 0, 10), 10);
  assert.equal(clamp(11, 0, 10), 10);
  assert.equal(clamp(5, 0, 10), 5);
});
`;

const args = (repo: ReturnType<typeof makeRepo>, command: string, extra: string[] = []) => [
  ...repoArgs(repo, command),
  '--jobs',
  '2',
  ...extra,
];

for (const [name, ending, ended] of [
  ['exits 2', 'process.exit(2);', /^exit 2$/],
  ['kills its own process group', "process.kill(0, 'SIGKILL');", /^(?:signal SIGKILL|exit 137 \(signal 9\))$/],
] as const) {
  test(`a weak test that ${name} when a mutant passes it gets survivors, not stillborn mutants`, async (t) => {
    const repo = makeRepo(PKG, { 'src/clamp.js': CLAMP, 'test/clamp.test.js': cheat(ending) });
    t.teardown(repo.cleanup);
    const m = await measured(t, args(repo, 'node test/clamp.test.js', ['--max', '5']), repo.file('m.json'));
    t.is(m.reason, null);
    t.is(m.counts.stillborn, 0, JSON.stringify(m.mutants));
    // The weak assertion (a number came back) kills only what returns no number; the rest survive, saying how the run ended.
    const survivors = m.mutants.filter((x) => x.status === 'survived');
    t.true(survivors.length >= 3, JSON.stringify(m.counts));
    t.true(
      survivors.every((x) => ended.test(x.ended ?? '')),
      JSON.stringify(survivors.map((x) => x.ended)),
    );
    t.true(
      m.mutants
        .filter((x) => x.status === 'killed')
        .every((x) => x.ended === undefined && ['BlockStatement', 'ReturnValue'].includes(x.operator)),
    );
    t.true(m.suite_strength! < 0.75, String(m.suite_strength));
  });
}

test('honest control: a strong suite kills the same mutants, none of them ended oddly', async (t) => {
  const repo = makeRepo(PKG, { 'src/clamp.js': CLAMP, 'test/clamp.test.js': STRONG });
  t.teardown(repo.cleanup);
  const m = await measured(t, args(repo, 'node test/clamp.test.js', ['--max', '5']), repo.file('m.json'));
  t.is(m.suite_strength, 1);
  t.true(m.mutants.every((x) => x.status === 'killed' && x.ended === undefined));
  t.true(m.mutants.every((x) => x.function === 'clamp' && typeof x.duration_ms === 'number'));
});

test('strength per file: a weak file is visible beside a well-tested one', async (t) => {
  const weak = `export function twice(x) {
  return x * 2;
}
`;
  const tests = `import test from 'node:test';
import assert from 'node:assert/strict';
import { clamp } from '../src/clamp.js';
import { twice } from '../src/twice.js';
${STRONG.split('\n').slice(3).join('\n')}
test('twice', () => { assert.equal(typeof twice(2), 'number'); });
`;
  const repo = makeRepo(PKG, { 'src/clamp.js': CLAMP, 'src/twice.js': weak, 'test/all.test.js': tests });
  t.teardown(repo.cleanup);
  const m = await measured(t, args(repo, 'node test/all.test.js'), repo.file('m.json'));
  const byFile = new Map(m.by_file!.map((f) => [f.file, f]));
  // Every mutant of clamp a test can kill is killed: its two boundary swaps (`<`→`<=`, `>`→`>=`) are
  // equivalent, and its type-breaking kills do not count (ag-core's strength rule).
  t.is(byFile.get('src/clamp.js')!.suite_strength!, 4 / 6);
  t.true(byFile.get('src/twice.js')!.suite_strength! < 0.75, JSON.stringify(byFile.get('src/twice.js')));
  t.true(m.suite_strength! > byFile.get('src/twice.js')!.suite_strength!, String(m.suite_strength));
  t.deepEqual(
    byFile.get('src/twice.js')!.functions.map((f) => f.name),
    ['twice'],
  );
});

test('changed executable lines without a mutant are listed; lines with one are not', async (t) => {
  const code = `export function ready(state) {
  state.ready;
  return state.ok === true;
}
`;
  const spec = `import test from 'node:test';
import assert from 'node:assert/strict';
import { ready } from '../src/ready.js';
test('ready', () => { assert.equal(ready({ ok: true }), true); assert.equal(ready({ ok: false }), false); });
`;
  const repo = makeRepo(PKG, { 'src/ready.js': code, 'test/ready.test.js': spec });
  t.teardown(repo.cleanup);
  const m = await measured(t, args(repo, 'node test/ready.test.js'), repo.file('m.json'));
  t.deepEqual(m.unmutated_lines, [{ file: 'src/ready.js', lines: [2] }]);
  t.is(m.executable_line_count, 2);
});

test('a green suite that prints 100 MB stays green; every baseline run is in the artefact with its timing', async (t) => {
  // The output comes after the assertions: a green run prints 100 MB, a killed mutant's run stops before (and costs little).
  const loud = STRONG.replace(
    '  assert.equal(clamp(5, 0, 10), 5);\n',
    "  assert.equal(clamp(5, 0, 10), 5);\n  const chunk = 'x'.repeat(1 << 20) + '\\n';\n  for (let i = 0; i < 100; i++) process.stdout.write(chunk);\n",
  );
  const repo = makeRepo(PKG, { 'src/clamp.js': CLAMP, 'test/clamp.test.js': loud });
  t.teardown(repo.cleanup);
  const m = await measured(t, args(repo, 'node test/clamp.test.js', ['--max', '2']), repo.file('m.json'));
  t.is(m.reason, null, JSON.stringify(m.baseline_runs?.map((r) => r.problem)));
  t.is(m.suite_strength, 1);
  const runs = m.baseline_runs!;
  t.true(runs.length >= 2);
  t.true(
    runs.every(
      (r) =>
        r.exit_code === 0 && r.problem === null && r.stdout_bytes > 100 * 1024 * 1024 && r.stdout_tail.length <= 4000,
    ),
  );
  for (const phase of ['total_ms', 'sites_ms', 'baseline_runs_ms', 'mutants_ms', 'mutant_runs_ms'])
    t.is(typeof m.timing![phase], 'number', phase);
});

test("a red baseline says how ag-mutate's own runs ended", async (t) => {
  const repo = makeRepo(PKG, {
    'src/clamp.js': CLAMP,
    'test/clamp.test.js': STRONG.replace('clamp(5, 0, 10), 5', 'clamp(5, 0, 10), 6'),
  });
  t.teardown(repo.cleanup);
  const m = await measured(t, args(repo, 'node test/clamp.test.js'), repo.file('m.json'));
  t.is(m.reason, 'baseline_red');
  t.true(
    m.baseline_runs!.every((r) => r.problem === 'exit 1' && r.exit_code === 1 && /not ok|fail/.test(r.stdout_tail)),
  );
});
