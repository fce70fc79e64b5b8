// The whole pipeline through the real binary on a real repository: a verdict, a line per
// stage, the evidence directory as the gate's own, the trusted decide step, and a coverage
// report the tests turned into a link named in the verdict.
import test from 'ava';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { gate, HONEST, repository } from './project.js';

const RANGE = ['--base', 'main~1', '--head', 'main'];
const verdictOf = (out: string) =>
  JSON.parse(readFileSync(path.join(out, 'verdict.json'), 'utf8')) as {
    verdict: string;
    reasons: { code: string; message: string }[];
  };

test('an honest patch with no settings: ACCEPT, a line per stage, the verdict and its page at the end', async (t) => {
  const repo = repository();
  const r = await gate(repo, [...RANGE, '--out', 'ev']);
  const out = path.join(repo, 'ev');
  t.is(r.code, 0, r.stderr);
  t.is(verdictOf(out).verdict, 'ACCEPT', r.stderr);
  for (const stage of [
    '[1/9] export',
    '[2/9] oracle',
    '[3/9] detect',
    '[5/9] run',
    '[6/9] coverage',
    '[7/9] mutate',
    '[9/9] decide',
  ])
    t.true(r.stderr.includes(`ag-gate: ${stage}:`), `${stage} said: ${r.stderr}`);
  t.regex(r.stderr, /ag-mutate: \d+\/\d+ mutants, .* ETA \d+ s/, "ag-mutate's progress");
  t.true(r.stderr.trimEnd().endsWith(`ag-gate: details: ${path.join(out, 'verdict.md')}`), r.stderr);
  t.regex(r.stderr, /ag-gate: verdict: ACCEPT\n/);
  // The deadline that bound the run is stated though nothing passed it: in the summary and the page.
  const bound =
    /the gate's deadline was (\d+) s \(the default: 2 × the install timeout of (\d+) s \+ 30 × the run timeout of (\d+) s\): not passed: the stages up to the checks took \d+ s/;
  const [, total, install, run] = (new RegExp(`ag-gate: ${bound.source}\n`).exec(r.stderr) ?? []).map(Number);
  t.is(total, 2 * install! + 30 * run!, r.stderr);
  t.regex(
    readFileSync(path.join(out, 'verdict.md'), 'utf8'),
    new RegExp(`## The run's deadline\n\nT${bound.source.slice(1)}\\.\n$`),
  );
  t.true(existsSync(path.join(out, '.adversary-gate-evidence')), 'the directory is marked as the gate’s');
  t.regex(
    readFileSync(path.join(out, 'stages.tsv'), 'utf8'),
    /^stage\tseconds\tresult\nexport\t[\d.]+\tdone\n[\s\S]*\ndecide\t[\d.]+\tdone\n$/,
  );
  t.regex(readFileSync(path.join(repo, '.git', 'info', 'exclude'), 'utf8'), /^\/ev\/$/m, 'and left out of git status');

  // The trusted decide step of a split pipeline, on the same evidence: the same verdict.
  const decided = await gate(repo, ['decide', ...RANGE, '--evidence', out]);
  t.is(decided.code, 0, decided.stderr);
  t.regex(decided.stderr, /ag-gate: verdict: ACCEPT/);
  // Told the mutation ran in two shards, none of which is there: a HOLD naming both.
  const sharded = await gate(repo, ['decide', ...RANGE, '--evidence', out, '--shards', '2']);
  t.is(sharded.code, 2, sharded.stderr);
  t.regex(sharded.stderr, /mutation shard\(s\) 1\/2 2\/2 missing/);

  // A second run on the gate's own directory replaces what the first left.
  const again = await gate(repo, [...RANGE, '--out', 'ev', '--quiet']);
  t.is(again.code, 0, again.stderr);
  t.notRegex(again.stderr, /\[\d\/9\]/, '--quiet prints no stage line');
});

test('a test script that leaves a glob to the shell (`node --test test/*.test.js`) runs as under npm test: ACCEPT', async (t) => {
  const pkg = { name: 'shop', private: true, type: 'module', scripts: { test: 'node --test test/*.test.js' } };
  const repo = repository(HONEST, { 'package.json': JSON.stringify(pkg) });
  const r = await gate(repo, [...RANGE, '--out', 'ev', '--mutate-max', '2', '--quiet']);
  t.is(r.code, 0, r.stderr);
  t.is(verdictOf(path.join(repo, 'ev')).verdict, 'ACCEPT', r.stderr);
});

test('--out that is not the gate’s is refused in one line, exit 3, and nothing of the user’s is lost', async (t) => {
  const repo = repository();
  const { mkdirSync, writeFileSync, symlinkSync } = await import('node:fs');
  writeFileSync(path.join(repo, 'notes.txt'), 'my notes\n');
  mkdirSync(path.join(repo, 'notes'));
  writeFileSync(path.join(repo, 'notes', 'todo.txt'), 'buy milk\n');
  mkdirSync(path.join(repo, 'target'));
  writeFileSync(path.join(repo, 'target', 'keep.txt'), 'keep\n');
  symlinkSync(path.join(repo, 'target'), path.join(repo, 'link'));
  const before = readdirSync(repo).sort();
  for (const out of ['notes.txt', 'notes', '', '/', '.', 'link', '.git/ev']) {
    const r = await gate(repo, [...RANGE, '--out', out]);
    t.is(r.code, 3, `--out ${JSON.stringify(out)}: ${r.stderr}`);
    t.is(r.stderr.trim().split('\n').length, 1, `one line for ${JSON.stringify(out)}: ${r.stderr}`);
    t.regex(r.stderr, /^ag-gate: usage: --out /, r.stderr);
  }
  t.deepEqual(readdirSync(repo).sort(), before, 'nothing created or removed');
  t.is(readFileSync(path.join(repo, 'notes.txt'), 'utf8'), 'my notes\n');
  t.is(readFileSync(path.join(repo, 'notes', 'todo.txt'), 'utf8'), 'buy milk\n');
  t.deepEqual(readdirSync(path.join(repo, 'target')), ['keep.txt']);
  t.false(existsSync('/baseline') || existsSync('/patch'), 'nothing at the filesystem root');
});

test('a coverage report the tests turned into a link is not read: a HOLD that names it', async (t) => {
  const repo = repository();
  // The coverage step (the patch's code) leaves a link to a folder outside the tree where the report should be.
  const coverage =
    'node --test && mkdir -p "$TMPDIR/elsewhere" && printf "TN:\\nSF:src/mul.js\\nDA:1,1\\nend_of_record\\n" > "$TMPDIR/elsewhere/lcov.info" && ln -s "$TMPDIR/elsewhere" coverage';
  const r = await gate(repo, [
    ...RANGE,
    '--out',
    'ev',
    '--test-command',
    'node --test',
    '--coverage-command',
    coverage,
    '--coverage-report',
    'coverage/lcov.info',
  ]);
  const v = verdictOf(path.join(repo, 'ev'));
  t.is(v.verdict, 'HOLD', r.stderr);
  t.is(r.code, 2);
  t.true(
    v.reasons.some(
      (x) => x.code === 'PIPELINE_FAULT' && /coverage report coverage\/lcov\.info .*symbolic link/.test(x.message),
    ),
    JSON.stringify(v.reasons),
  );
  t.false(existsSync(path.join(repo, 'ev', 'coverage', 'lcov.info')), 'nothing copied through the link');
});

test('a coverage command that fails and writes no report: a HOLD naming its exit and its own last error', async (t) => {
  const repo = repository();
  // As a coverage provider missing from where the runner looks for it (vitest 4 once) ends.
  const failing =
    "node -e \"console.log('RUN'); console.error('Error: Cannot find package @vitest/coverage-v8'); process.exit(1)\"";
  const r = await gate(repo, [
    ...RANGE,
    ...['--out', 'ev', '--test-command', 'node --test'],
    ...['--coverage-command', failing, '--coverage-report', 'coverage/lcov.info'],
  ]);
  const v = verdictOf(path.join(repo, 'ev'));
  t.is(v.verdict, 'HOLD', r.stderr);
  t.true(
    v.reasons.some(
      (x) =>
        x.code === 'PIPELINE_FAULT' &&
        x.message.includes(
          'the coverage command exited 1 and wrote no coverage/lcov.info: Error: Cannot find package @vitest/coverage-v8, so coverage was not measured',
        ),
    ),
    JSON.stringify(v.reasons),
  );
  t.true(v.reasons.some((x) => x.code === 'COVERAGE_NOT_MEASURED'));
});

test('a run past its deadline stops the stage running and ends with a HOLD that names it, never with nothing', async (t) => {
  const hang =
    "import { test } from 'node:test';\ntest('waits', () => new Promise((resolve) => setTimeout(resolve, 120_000)));\n";
  const repo = repository({ 'test/slow.test.js': hang });
  // Long enough for the stages before the run to end on a loaded machine; the run waits longer.
  const started = Date.now();
  const r = await gate(repo, [...RANGE, '--out', 'ev', '--timeout', '100', '--deadline', '15']);
  t.true(Date.now() - started < 60_000, `ended in ${Date.now() - started} ms`);
  const v = verdictOf(path.join(repo, 'ev'));
  t.is(v.verdict, 'HOLD', r.stderr);
  t.is(r.code, 2);
  t.true(
    v.reasons.some(
      (x) => x.code === 'PIPELINE_FAULT' && /deadline of 15 s passed during the run stage/.test(x.message),
    ),
    JSON.stringify(v.reasons),
  );
  t.false(existsSync(path.join(repo, 'ev', 'mutation.json')), 'no later stage ran the patch’s code');
  const bound =
    "the gate's deadline was 15 s (--deadline (AG_DEADLINE)): passed during the run stage, which was stopped";
  t.true(r.stderr.includes(`ag-gate: ${bound}\n`), r.stderr);
  t.true(readFileSync(path.join(repo, 'ev', 'verdict.md'), 'utf8').includes(`T${bound.slice(1)}.`));
});

test('a test that finds the evidence directory in a tool’s command line cannot read it', async (t) => {
  // The patch's test looks through every process's command line for the diff the tools were
  // given, and tries to read oracle.json beside it: it passes only when it found the directory
  // and was refused (as root, the tests run as a fresh uid and the evidence is root's alone).
  const probe = [
    "import { test } from 'node:test';",
    "import assert from 'node:assert/strict';",
    "import { readdirSync, readFileSync } from 'node:fs';",
    "import path from 'node:path';",
    "test('the evidence is out of reach', () => {",
    '  const dirs = new Set();',
    "  for (const pid of readdirSync('/proc').filter((p) => /^\\d+$/.test(p))) {",
    '    let argv = [];',
    "    try { argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\\0'); } catch { continue; }",
    "    for (const a of argv) if (a.endsWith('changes.diff')) dirs.add(path.dirname(a));",
    '  }',
    "  assert.ok(dirs.size > 0, 'the evidence directory is named on a command line');",
    "  for (const d of dirs) assert.throws(() => readFileSync(path.join(d, 'oracle.json')), /EACCES/);",
    '});',
    '',
  ].join('\n');
  const repo = repository({ ...HONEST, 'test/probe.test.js': probe });
  const r = await gate(repo, [...RANGE, '--out', 'ev', '--mutate-max', '2']);
  const v = verdictOf(path.join(repo, 'ev'));
  if (process.getuid?.() !== 0) {
    t.not(v.verdict, 'ACCEPT', 'not as root, the tests run as the caller and could read it: never ACCEPT');
    return;
  }
  t.is(v.verdict, 'ACCEPT', `${r.stderr}\n${JSON.stringify(v.reasons)}`);
  t.is(statSync(path.join(repo, 'ev')).mode & 0o777, 0o755, 'readable again once the run is over');
});
