import test from 'ava';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArtefact, sha256, type DiffcovArtefact } from '@adversary-gate/schemas';
import { invariantProblem } from './helpers/invariants.js';
import { gitRepo, run, tempDir } from './helpers/repo.js';

const CALC = 'export function add(a, b) {\n  return a + b;\n}\n';
const PATCHED = `${CALC}\n// subtract two numbers\nexport function sub(a, b) {\n  if (a === 0) {\n    return -b;\n  }\n  return a - b;\n}\n`;
const TEST =
  "import test from 'node:test';\nimport { add, sub } from '../src/calc.js';\ntest('t', () => { add(1, 2); sub(3, 1); });\n";

function load(file: string): DiffcovArtefact {
  return parseArtefact(file, readFileSync(file), 'diffcov').value as DiffcovArtefact;
}

/** A JS project whose patch adds `sub` (its `a === 0` branch untested), with node's own lcov. */
const js = (() => {
  const repo = gitRepo(
    { 'package.json': '{"type":"module"}\n', 'src/calc.js': CALC },
    { 'src/calc.js': PATCHED, 'test/calc.test.js': TEST, 'README.md': '# calc\n' },
  );
  const r = spawnSync(
    process.execPath,
    [
      '--test',
      '--experimental-test-coverage',
      '--test-reporter=lcov',
      '--test-reporter-destination=lcov.info',
      'test/calc.test.js',
    ],
    { cwd: repo.tree, encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`node --test failed: ${r.stderr}`);
  return { ...repo, lcov: path.join(repo.tree, 'lcov.info') };
})();

test('a real JS patch with node --test lcov: computed ratio, per-file ranges, test and docs excluded', async (t) => {
  const out = path.join(tempDir(), 'diffcov.json');
  const r = await run(['--diff', js.diff, '--coverage', js.lcov, '--out', out]);
  t.is(r.code, 0, r.stderr);
  const d = load(out);
  t.is(d.diff_coverage_source, 'computed');
  t.deepEqual(d.formats, ['lcov']);
  t.deepEqual(
    d.files.map((f) => f.path),
    ['src/calc.js'],
  );
  const calc = d.files[0]!;
  // 8-9: the untested branch body (DA 0); 7: `if (a === 0) {`, where that block begins (DA 1, its BRDA 0).
  t.deepEqual(calc.uncovered, [[7, 9]], 'the untested branch body and the line it begins on');
  t.deepEqual(d.branch_unrun, [{ path: 'src/calc.js', lines: [[7, 7]] }]);
  t.deepEqual(calc.non_executable, [], "node's lcov lists every line of the file, comments included");
  t.deepEqual(d.excluded_files, [
    { path: 'README.md', class: 'not_code', added_lines: 1 },
    { path: 'test/calc.test.js', class: 'test', added_lines: 3 },
  ]);
  t.is(d.diff_coverage_ratio, d.totals.covered / d.totals.measured);
  t.is(invariantProblem(d, readFileSync(js.diff, 'utf8')), null);
  t.deepEqual(
    d.inputs.map((i) => i.role),
    ['diff', 'coverage'],
  );
});

test('identical inputs give a byte-identical artefact', async (t) => {
  const dir = tempDir();
  await run(['--diff', js.diff, '--coverage', js.lcov, '--out', path.join(dir, 'a.json')]);
  await run(['--diff', js.diff, '--coverage', js.lcov, '--out', path.join(dir, 'b.json')]);
  t.is(readFileSync(path.join(dir, 'a.json'), 'utf8'), readFileSync(path.join(dir, 'b.json'), 'utf8'));
});

test('--markdown and --sarif write the summary and one SARIF result per uncovered range', async (t) => {
  const dir = tempDir();
  const r = await run([
    '--diff',
    js.diff,
    '--coverage',
    js.lcov,
    '--out',
    path.join(dir, 'd.json'),
    '--markdown',
    path.join(dir, 'd.md'),
    '--sarif',
    path.join(dir, 'd.sarif'),
  ]);
  t.is(r.code, 0, r.stderr);
  const d = load(path.join(dir, 'd.json'));
  const md = readFileSync(path.join(dir, 'd.md'), 'utf8');
  t.true(md.includes(`(${d.totals.covered}/${d.totals.measured} changed lines)`));
  t.regex(md, /\| `src\/calc\.js` \| \d+ \| 3 \| \d+ \| 7-9 \|/);
  const sarif = JSON.parse(readFileSync(path.join(dir, 'd.sarif'), 'utf8'));
  t.is(sarif.version, '2.1.0');
  t.deepEqual(
    sarif.runs[0].results.map((x: any) => [
      x.ruleId,
      x.locations[0].physicalLocation.artifactLocation.uri,
      x.locations[0].physicalLocation.region.startLine,
    ]),
    [['uncovered-changed-lines', 'src/calc.js', 7]],
  );
});

test('--out - writes the artefact to stdout and nothing else', async (t) => {
  const r = await run(['--diff', js.diff, '--coverage', js.lcov, '--out', '-']);
  t.is(r.code, 0);
  t.is(JSON.parse(r.stdout).schema, 'adversary-gate/diffcov');
});

test('a changed source file absent from the report is listed and counted uncovered, never ignored', async (t) => {
  const repo = gitRepo(
    { 'a.py': 'x = 1\n' },
    { 'a.py': 'x = 1\ny = 2\n', 'new.py': '# helper\n\ndef g():\n    return 2\n' },
  );
  const lcov = path.join(repo.dir, 'cov.info');
  writeFileSync(lcov, 'SF:a.py\nDA:1,1\nDA:2,1\nend_of_record\n');
  const out = path.join(repo.dir, 'd.json');
  t.is((await run(['--diff', repo.diff, '--coverage', lcov, '--out', out])).code, 0);
  const d = load(out);
  t.deepEqual(d.unmatched_files, ['new.py']);
  t.deepEqual(
    d.files.find((f) => f.path === 'new.py'),
    { path: 'new.py', in_report: false, covered: [], uncovered: [[3, 4]], non_executable: [[1, 2]], report_paths: [] },
  );
  t.deepEqual(d.totals, { measured: 3, covered: 1, uncovered: 2 });
});

test('several --coverage reports of different formats merge; absolute paths match through --root', async (t) => {
  const repo = gitRepo(
    { 'src/a.py': 'a = 1\n', 'web/b.js': 'b();\n' },
    { 'src/a.py': 'a = 1\na2 = 2\n', 'web/b.js': 'b();\nc();\n' },
  );
  const xml = path.join(repo.dir, 'coverage.xml');
  writeFileSync(
    xml,
    '<?xml version="1.0"?><coverage><sources><source>C:\\ci\\repo</source></sources><packages><package><classes><class filename="src\\a.py"><lines><line number="2" hits="1"/></lines></class></classes></package></packages></coverage>',
  );
  const json = path.join(repo.dir, 'coverage-final.json');
  writeFileSync(
    json,
    JSON.stringify({
      '/ci/repo/web/b.js': {
        path: '/ci/repo/web/b.js',
        statementMap: { '0': { start: { line: 2, column: 0 }, end: { line: 2, column: 4 } } },
        s: { '0': 0 },
        fnMap: {},
        f: {},
        branchMap: {},
        b: {},
      },
    }),
  );
  const out = path.join(repo.dir, 'd.json');
  const r = await run(['--diff', repo.diff, '--coverage', xml, '--coverage', json, '--root', '/ci/repo', '--out', out]);
  t.is(r.code, 0, r.stderr);
  const d = load(out);
  t.deepEqual(d.formats, ['cobertura', 'istanbul']);
  t.deepEqual(d.unmatched_files, []);
  t.deepEqual(
    d.files.map((f) => [f.path, f.covered, f.uncovered, f.report_paths]),
    [
      ['src/a.py', [[2, 2]], [], ['C:/ci/repo/src/a.py']],
      ['web/b.js', [], [[2, 2]], ['/ci/repo/web/b.js']],
    ],
  );
  t.deepEqual(
    d.inputs.map((i) => [i.role, i.path]),
    [
      ['diff', repo.diff],
      ['coverage', xml],
      ['coverage', json],
    ],
  );
});

test('a coverage pragma added on a changed line is listed', async (t) => {
  const repo = gitRepo({ 'src/x.js': 'a();\n' }, { 'src/x.js': 'a();\n/* c8 ignore next */\nb();\n' });
  const lcov = path.join(repo.dir, 'l.info');
  writeFileSync(lcov, 'SF:src/x.js\nDA:1,1\nDA:3,1\nend_of_record\n');
  const out = path.join(repo.dir, 'd.json');
  t.is((await run(['--diff', repo.diff, '--coverage', lcov, '--out', out])).code, 0);
  t.deepEqual(load(out).pragmas, [{ path: 'src/x.js', line: 2, text: '/* c8 ignore next */' }]);
});

test('--policy overrides the file classes', async (t) => {
  const repo = gitRepo({ 'gen/x.js': 'a();\n' }, { 'gen/x.js': 'a();\nb();\n' });
  const policy = path.join(repo.dir, 'adversary-gate.json');
  writeFileSync(policy, JSON.stringify({ schema_version: 1, files: { not_code: ['gen/**'] } }));
  const lcov = path.join(repo.dir, 'l.info');
  writeFileSync(lcov, 'SF:other.js\nDA:1,1\nend_of_record\n');
  const out = path.join(repo.dir, 'd.json');
  t.is((await run(['--diff', repo.diff, '--coverage', lcov, '--policy', policy, '--out', out])).code, 0);
  const d = load(out);
  t.deepEqual(d.files, []);
  t.is(d.reason, 'no_executable_changed_lines');
  t.is(d.inputs[1]?.role, 'policy');
});

test('no report: source none, ratio null with a reason', async (t) => {
  const out = path.join(tempDir(), 'd.json');
  t.is((await run(['--diff', js.diff, '--out', out])).code, 0);
  const d = load(out);
  t.deepEqual(
    [d.diff_coverage_source, d.diff_coverage_ratio, d.reason, d.files, d.totals],
    ['none', null, 'no_coverage_report', [], { measured: 0, covered: 0, uncovered: 0 }],
  );
});

test('a caller-asserted ratio is recorded as untrusted', async (t) => {
  const out = path.join(tempDir(), 'd.json');
  t.is(
    (await run(['--diff', js.diff, '--coverage-ratio', '0.9', '--coverage-source', 'untrusted', '--out', out])).code,
    0,
  );
  const d = load(out);
  t.deepEqual([d.diff_coverage_source, d.diff_coverage_ratio, d.reason, d.files], ['untrusted', 0.9, null, []]);
});

test('an empty diff and an empty report are recorded as faults', async (t) => {
  const dir = tempDir();
  writeFileSync(path.join(dir, 'empty.diff'), '');
  writeFileSync(path.join(dir, 'e.info'), 'TN:\n');
  const out = path.join(dir, 'd.json');
  t.is(
    (await run(['--diff', path.join(dir, 'empty.diff'), '--coverage', path.join(dir, 'e.info'), '--out', out])).code,
    0,
  );
  t.deepEqual(
    load(out).faults.map((f) => f.code),
    ['EMPTY_DIFF', 'EMPTY_REPORT'],
  );
});

test('the diff can come from stdin', async (t) => {
  const r = await run(['--diff', '-', '--coverage', js.lcov, '--out', '-'], { input: readFileSync(js.diff, 'utf8') });
  t.is(r.code, 0, r.stderr);
  t.is(JSON.parse(r.stdout).inputs[0].path, '-');
});

// The full matrix of flag combinations is unit-tested in options.test.ts; these go through the binary.
const usage: [string, string[]][] = [
  ['a bare --coverage-ratio', ['--coverage-ratio', '1.0']],
  ['computed without a report', ['--coverage-source', 'computed']],
  ['an unknown flag', ['--covrage', 'x.info']],
];
for (const [what, args] of usage) {
  test(`exit 3 and no artefact for ${what}`, async (t) => {
    const out = path.join(tempDir(), 'd.json');
    const r = await run(['--diff', js.diff, ...args, '--out', out]);
    t.is(r.code, 3);
    t.regex(r.stderr, /^ag-diffcov: usage: /);
    t.false(existsSync(out));
  });
}

test('exit 3 without --diff or --out', async (t) => {
  t.is((await run(['--coverage', js.lcov, '--out', '-'])).code, 3);
  t.is((await run(['--diff', js.diff, '--coverage', js.lcov])).code, 3);
});

const unreadable: [string, (dir: string) => string, RegExp][] = [
  ['a missing report', (dir) => path.join(dir, 'nope.info'), /nope\.info: no such file/],
  [
    'a report that is no known format',
    (dir) => (writeFileSync(path.join(dir, 'r.txt'), 'hello\n'), path.join(dir, 'r.txt')),
    /r\.txt: content is not a recognised coverage report/,
  ],
  [
    'a truncated lcov',
    (dir) => (writeFileSync(path.join(dir, 't.info'), 'SF:src/calc.js\nDA:1,1\n'), path.join(dir, 't.info')),
    /t\.info: truncated/,
  ],
  [
    'malformed XML',
    (dir) => (writeFileSync(path.join(dir, 'c.xml'), '<coverage><packages>'), path.join(dir, 'c.xml')),
    /c\.xml: not well-formed XML/,
  ],
  [
    'JSON with a duplicate key',
    (dir) => (writeFileSync(path.join(dir, 'c.json'), '{"a.js": {}, "a.js": {}}'), path.join(dir, 'c.json')),
    /c\.json: duplicate key/,
  ],
  [
    'a symbolic link',
    (dir) => (symlinkSync(js.lcov, path.join(dir, 'l.info')), path.join(dir, 'l.info')),
    /l\.info: is a symbolic link/,
  ],
];
for (const [what, make, message] of unreadable) {
  test(`exit 3, one stderr line naming the file, and no artefact for ${what}`, async (t) => {
    const dir = tempDir();
    const out = path.join(dir, 'd.json');
    const r = await run(['--diff', js.diff, '--coverage', make(dir), '--out', out]);
    t.is(r.code, 3);
    t.regex(r.stderr, message);
    t.is(r.stderr.trim().split('\n').length, 1);
    t.false(existsSync(out));
  });
}

test('exit 3 for a combined (merge) diff', async (t) => {
  const dir = tempDir();
  writeFileSync(
    path.join(dir, 'm.diff'),
    'diff --cc a.py\nindex 1,2..3\n--- a/a.py\n+++ b/a.py\n@@@ -1,1 -1,1 +1,1 @@@\n- a\n -b\n++c\n',
  );
  const r = await run(['--diff', path.join(dir, 'm.diff'), '--coverage', js.lcov, '--out', path.join(dir, 'd.json')]);
  t.is(r.code, 3);
  t.regex(r.stderr, /combined/);
});

test('--help prints the usage', async (t) => {
  const r = await run(['--help']);
  t.is(r.code, 0);
  t.regex(r.stdout, /--coverage-source/);
});

test('exit 3 for a diff whose path escapes the tree', async (t) => {
  const dir = tempDir();
  writeFileSync(
    path.join(dir, 'x.diff'),
    'diff --git a/../etc/x.py b/../etc/x.py\n--- a/../etc/x.py\n+++ b/../etc/x.py\n@@ -1 +1,2 @@\n a\n+b\n',
  );
  const r = await run(['--diff', path.join(dir, 'x.diff'), '--coverage', js.lcov, '--out', path.join(dir, 'd.json')]);
  t.is(r.code, 3);
  t.regex(r.stderr, /x\.diff: path escapes the tree/);
  t.false(existsSync(path.join(dir, 'd.json')));
});

/** An lcov report over 16 MB (read on a second core while the diff is parsed): filler records of other packages around the changed file's. */
function largeLcov(wanted: string): string {
  const filler = (i: number) =>
    `SF:/ci/pkgs/p${i}/lib/b${i}.ts\n${Array.from({ length: 150 }, (_, l) => `DA:${l + 1},1`).join('\n')}\nend_of_record\n`;
  const parts: string[] = ['TN:\n'];
  for (let i = 0; i < 18_000; i++) parts.push(i === 9_000 ? wanted : filler(i));
  return parts.join('');
}

test('a report over 16 MB gives the same answer and digest as a small one with the same records', async (t) => {
  const repo = gitRepo({ 'src/a.ts': 'let a = 1;\n' }, { 'src/a.ts': 'let a = 1;\nlet b = 2;\nlet c = 3;\n' });
  const record = 'SF:/ci/repo/src/a.ts\nDA:1,1\nDA:2,4\nDA:3,0\nend_of_record\n';
  const big = path.join(repo.dir, 'big.info');
  const small = path.join(repo.dir, 'small.info');
  writeFileSync(big, largeLcov(record));
  writeFileSync(small, `TN:\n${record}`);
  t.true(readFileSync(big).length > 16 * 1024 * 1024);
  const [a, b] = await Promise.all([
    run(['--diff', repo.diff, '--coverage', big, '--root', '/ci/repo', '--out', path.join(repo.dir, 'big.json')]),
    run(['--diff', repo.diff, '--coverage', small, '--root', '/ci/repo', '--out', path.join(repo.dir, 'small.json')]),
  ]);
  t.is(a.code, 0, a.stderr);
  t.is(b.code, 0, b.stderr);
  const [dBig, dSmall] = [load(path.join(repo.dir, 'big.json')), load(path.join(repo.dir, 'small.json'))];
  t.deepEqual(dBig.files, dSmall.files);
  t.deepEqual(dBig.files[0]?.uncovered, [[3, 3]]);
  t.is(dBig.inputs.find((i) => i.role === 'coverage')?.sha256, sha256(readFileSync(big)));
});

test("a report over 16 MB with a malformed kept record or a cut-off end is refused with the reader's message", async (t) => {
  const repo = gitRepo({ 'src/a.ts': 'let a = 1;\n' }, { 'src/a.ts': 'let a = 1;\nlet b = 2;\n' });
  const bad = path.join(repo.dir, 'bad.info');
  writeFileSync(bad, largeLcov('SF:src/a.ts\nDA:x,1\nend_of_record\n'));
  const r = await run(['--diff', repo.diff, '--coverage', bad, '--out', path.join(repo.dir, 'bad.json')]);
  t.is(r.code, 3);
  t.regex(r.stderr, /bad\.info: malformed DA record in src\/a\.ts: DA:x,1/);
  const cut = path.join(repo.dir, 'cut.info');
  writeFileSync(cut, largeLcov('SF:src/a.ts\nDA:1,1\nend_of_record\n').replace(/end_of_record\n$/, ''));
  const c = await run(['--diff', repo.diff, '--coverage', cut, '--out', path.join(repo.dir, 'cut.json')]);
  t.is(c.code, 3);
  t.regex(c.stderr, /cut\.info: truncated: the last record has no end_of_record/);
  t.false(existsSync(path.join(repo.dir, 'bad.json')));
  // the report's worker starts before the diff is read: an unreadable diff still ends the run with the diff's error
  const m = await run([
    '--diff',
    path.join(repo.dir, 'none.diff'),
    '--coverage',
    cut,
    '--out',
    path.join(repo.dir, 'none.json'),
  ]);
  t.is(m.code, 3);
  t.regex(m.stderr, /none\.diff: /);
  t.false(existsSync(path.join(repo.dir, 'none.json')));
});
