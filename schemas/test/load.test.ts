import test from 'ava';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { scratch } from './scratch.js';
import { LoadError, loadArtefact, loadJson, PolicyFile, type LoadErrorCode } from '../src/index.js';
import { sampleDiffcov, sampleOracle } from './samples.js';

async function tmpFile(name: string, data: string | Buffer): Promise<string> {
  const dir = await fs.mkdtemp(path.join(scratch, 'ag-load-'));
  const file = path.join(dir, name);
  await fs.writeFile(file, data);
  return file;
}

async function refuses(
  t: import('ava').ExecutionContext,
  data: string | Buffer,
  code: LoadErrorCode,
  fragment: string,
) {
  const file = await tmpFile('evidence.json', data);
  const error = await t.throwsAsync(loadArtefact(file), { instanceOf: LoadError });
  t.is(error?.code, code);
  t.true(error?.message.startsWith(`${file}: `), 'the message names the file');
  t.true(error?.message.includes(fragment), error?.message);
  t.false(error?.message.includes('\n'), 'one line');
}

const oracleText = () => JSON.stringify(sampleOracle());

test('a valid artefact loads with its kind', async (t) => {
  const file = await tmpFile('o.json', oracleText());
  const loaded = await loadArtefact(file);
  t.is(loaded.kind, 'oracle');
});

test('a UTF-8 byte-order mark is refused', (t) =>
  refuses(
    t,
    Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(oracleText())]),
    'E_ENCODING',
    'byte-order mark',
  ));
test('invalid UTF-8 is refused', (t) =>
  refuses(
    t,
    Buffer.concat([Buffer.from(oracleText().slice(0, -1)), Buffer.from([0xff]), Buffer.from('}')]),
    'E_ENCODING',
    'UTF-8',
  ));
test('a duplicate key is refused (JSON.parse would keep the last)', (t) =>
  refuses(t, oracleText().replace('"faults":[]', '"faults":[],"faults":[]'), 'E_DUPLICATE_KEY', '"faults"'));
test('a __proto__ key is refused', (t) =>
  refuses(t, oracleText().replace('"faults":[]', '"faults":[],"__proto__":{"x":1}'), 'E_FORBIDDEN_KEY', '__proto__'));
test('a constructor key is refused', (t) =>
  refuses(t, oracleText().replace('"faults":[]', '"faults":[],"constructor":1'), 'E_FORBIDDEN_KEY', 'constructor'));
test('a number beyond the safe integer range is refused', (t) =>
  refuses(t, oracleText().replace('"faults":[]', '"faults":[],"n":9007199254740993'), 'E_NUMBER', '9007199254740993'));
test('a number that overflows to Infinity is refused', (t) =>
  refuses(t, oracleText().replace('"faults":[]', '"faults":[],"n":1e400'), 'E_NUMBER', 'not finite'));
test('NaN is malformed JSON', (t) =>
  refuses(t, oracleText().replace('"faults":[]', '"faults":NaN'), 'E_EVIDENCE_MALFORMED', 'not valid JSON'));
test('an unknown key is refused', (t) =>
  refuses(t, JSON.stringify({ ...sampleOracle(), override: 'ACCEPT' }), 'E_UNKNOWN_KEY', 'override'));
test('an unknown nested key is refused', (t) => {
  const o = sampleDiffcov();
  (o.totals as Record<string, unknown>).skip_checks = true;
  return refuses(t, JSON.stringify(o), 'E_UNKNOWN_KEY', 'totals.skip_checks');
});
test('a missing field is refused', (t) => {
  const o = sampleDiffcov();
  delete o.diff_coverage_ratio;
  return refuses(t, JSON.stringify(o), 'E_MISSING_FIELD', 'diff_coverage_ratio');
});
test('a wrong type is refused', (t) =>
  refuses(t, JSON.stringify({ ...sampleDiffcov(), diff_coverage_ratio: '0.9' }), 'E_TYPE', 'diff_coverage_ratio'));
test('a ratio above 1 is refused', (t) =>
  refuses(t, JSON.stringify({ ...sampleDiffcov(), diff_coverage_ratio: 1.5 }), 'E_NUMBER', 'diff_coverage_ratio'));
test('a newer schema_version is refused, not guessed', (t) =>
  refuses(t, JSON.stringify({ ...sampleOracle(), schema_version: 2 }), 'E_SCHEMA_VERSION', 'schema_version 2'));
test('a string schema_version is refused', (t) =>
  refuses(t, JSON.stringify({ ...sampleOracle(), schema_version: '1' }), 'E_SCHEMA_VERSION', 'schema_version "1"'));
test('an unknown schema is refused', (t) =>
  refuses(t, JSON.stringify({ ...sampleOracle(), schema: 'other/thing' }), 'E_UNKNOWN_SCHEMA', 'other/thing'));
test('an empty file is refused', (t) => refuses(t, '', 'E_EVIDENCE_MALFORMED', 'empty'));
test('a top-level array is refused', (t) => refuses(t, '[]', 'E_TYPE', 'top level'));
test('nesting beyond the depth cap is refused', (t) =>
  refuses(t, `${'['.repeat(5000)}${']'.repeat(5000)}`, 'E_TOO_LARGE', 'nesting'));
test('a lone surrogate is refused', (t) =>
  refuses(t, oracleText().replace('"ag-oracle"', '"ag-\\ud800"'), 'E_ENCODING', 'surrogate'));
test('a path with .. inside an artefact is refused', (t) => {
  const o = sampleDiffcov();
  (o.files as Array<Record<string, unknown>>)[0]!.path = '../etc/passwd';
  return refuses(t, JSON.stringify(o), 'E_TYPE', 'files.0.path');
});

test('every truncation of a valid artefact is refused', async (t) => {
  const text = oracleText();
  for (let cut = 0; cut < text.length; cut += 7) {
    const file = await tmpFile('cut.json', text.slice(0, cut));
    await t.throwsAsync(loadArtefact(file), { instanceOf: LoadError }, `cut at ${cut}`);
  }
});

test('a file over the byte cap is refused before parsing', async (t) => {
  const file = await tmpFile('big.json', oracleText());
  const error = await t.throwsAsync(loadArtefact(file, undefined, 100), { instanceOf: LoadError });
  t.is(error?.code, 'E_TOO_LARGE');
});

test('a symlink is refused even when it points at a valid artefact', async (t) => {
  const target = await tmpFile('real.json', oracleText());
  const link = path.join(path.dirname(target), 'link.json');
  await fs.symlink(target, link);
  const error = await t.throwsAsync(loadArtefact(link), { instanceOf: LoadError });
  t.is(error?.code, 'E_NOT_REGULAR_FILE');
});

test('a FIFO is refused without hanging', async (t) => {
  const dir = await fs.mkdtemp(path.join(scratch, 'ag-fifo-'));
  const fifo = path.join(dir, 'fifo.json');
  const { execFileSync } = await import('node:child_process');
  execFileSync('mkfifo', [fifo]);
  const error = await t.throwsAsync(loadArtefact(fifo), { instanceOf: LoadError });
  t.is(error?.code, 'E_NOT_REGULAR_FILE');
});

test('a directory and a missing file are refused with their own codes', async (t) => {
  const dir = await fs.mkdtemp(path.join(scratch, 'ag-dir-'));
  t.is((await t.throwsAsync(loadArtefact(dir), { instanceOf: LoadError }))?.code, 'E_NOT_REGULAR_FILE');
  t.is(
    (await t.throwsAsync(loadArtefact(path.join(dir, 'nope.json')), { instanceOf: LoadError }))?.code,
    'E_EVIDENCE_MISSING',
  );
});

test('an artefact of another kind than expected is refused', async (t) => {
  const file = await tmpFile('o.json', oracleText());
  t.is((await t.throwsAsync(loadArtefact(file, 'diffcov'), { instanceOf: LoadError }))?.code, 'E_UNKNOWN_SCHEMA');
});

test('a policy with an empty protected list is refused', async (t) => {
  const file = await tmpFile('adversary-gate.json', JSON.stringify({ schema_version: 1, oracle: { protected: [] } }));
  const error = await t.throwsAsync(loadJson(file, PolicyFile), { instanceOf: LoadError });
  t.true(error?.message.includes('oracle.protected'), error?.message);
});
test('a line range with a third number is refused, not cut to two', (t) => {
  const o = sampleDiffcov();
  (o.files as { covered: number[][] }[])[0]!.covered = [[1, 3, 1]];
  return refuses(t, JSON.stringify(o), 'E_TYPE', 'files.0.covered.0.2": a line range is exactly [first, last]');
});
