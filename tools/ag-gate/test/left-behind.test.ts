// Files the patch's code leaves where every user may write, through the real pipeline as root:
// removed after every run, and named in the verdict when only the patch side leaves them; a
// suite that leaves the same temporary files on both sides is not held for it.
import test from 'ava';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gate, HONEST, repository } from './project.js';

const RANGE = ['--base', 'main~1', '--head', 'main'];
const asRoot = process.getuid?.() === 0;
const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
type Verdict = { verdict: string; reasons: { code: string; message: string }[] };

/** A name no other run on this machine uses, lower-case letters only (kept as is by the normalization). */
const tag = () =>
  [...randomBytes(8)]
    .map((b) => String.fromCharCode(97 + (b % 26)))
    .join('')
    .slice(0, 8);
const leftIn = (dir: string, prefix: string) => readdirSync(dir).filter((f) => f.startsWith(prefix));

test('a patch whose code leaves a file in /tmp holds with TAMPER_SUSPECTED naming it, and the file is gone', async (t) => {
  const mark = `ag-stash-${tag()}`;
  const repo = repository({
    ...HONEST,
    'src/mul.js': `import { writeFileSync } from 'node:fs';\ntry { writeFileSync('/tmp/${mark}-' + process.pid + '.json', '{}'); } catch {}\nexport const mul = (a, b) => a * b;\n`,
  });
  const r = await gate(repo, [...RANGE, '--out', 'ev', '--mutate-max', '2']);
  const v = read(path.join(repo, 'ev', 'verdict.json')) as unknown as Verdict;
  if (!asRoot) {
    // As the caller, its own files in /tmp cannot be told from the tests': nothing is recorded.
    t.is((read(path.join(repo, 'ev', 'run.json')) as { left_behind?: unknown }).left_behind, undefined);
    return;
  }
  t.is(v.verdict, 'HOLD', r.stderr);
  const named = v.reasons.filter((x) => x.code === 'TAMPER_SUSPECTED');
  t.is(named.length, 1, JSON.stringify(v.reasons));
  t.regex(
    named[0]!.message,
    new RegExp(`^the patch's test runs left files outside their tree copy, .*: /tmp/${mark}-<n>\\.json$`),
  );
  t.deepEqual(leftIn('/tmp', mark), [], 'every run’s file was removed: ag-run’s, the coverage run’s, ag-mutate’s');
});

test('honest twin: a suite that leaves the same temporary files on both sides is ACCEPTed, and they are gone', async (t) => {
  const mark = `ag-cache-${tag()}`;
  // The baseline's own test keeps a cache folder in /tmp, as pytest's /tmp/pytest-of-<user> does.
  const cacheTest = [
    "import { test } from 'node:test';",
    "import { mkdtempSync, writeFileSync } from 'node:fs';",
    `test('caches', () => writeFileSync(mkdtempSync('/tmp/${mark}-') + '/entry-' + process.pid, 'x'));`,
    '',
  ].join('\n');
  const repo = repository(HONEST, { 'test/cache.test.js': cacheTest });
  const r = await gate(repo, [...RANGE, '--out', 'ev', '--mutate-max', '2']);
  const v = read(path.join(repo, 'ev', 'verdict.json')) as unknown as Verdict;
  t.is(v.verdict, 'ACCEPT', `${r.stderr}\n${JSON.stringify(v.reasons)}`);
  const run = read(path.join(repo, 'ev', 'run.json')) as {
    left_behind?: { baseline: string[]; patch_only_total: number };
  };
  if (!asRoot) {
    t.is(run.left_behind, undefined);
    return;
  }
  t.deepEqual(run.left_behind!.baseline, [`/tmp/${mark}-<random>`, `/tmp/${mark}-<random>/entry-<n>`]);
  t.is(run.left_behind!.patch_only_total, 0);
  t.deepEqual(leftIn('/tmp', mark), []);
});
