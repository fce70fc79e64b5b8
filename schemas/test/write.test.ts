import test from 'ava';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { canonicalJson, sha256, sha256File, writeArtefact } from '../src/index.js';

test('canonical JSON sorts keys and ends with a newline', (t) => {
  t.is(canonicalJson({ b: 1, a: { d: 2, c: 3 } }), '{"a":{"c":3,"d":2},"b":1}\n');
});

test('the same value is written byte-identically whatever its key order', async (t) => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ag-write-'));
  await writeArtefact(path.join(dir, 'a.json'), { x: 1, y: [1, 2] });
  await writeArtefact(path.join(dir, 'b.json'), { y: [1, 2], x: 1 });
  t.is(await sha256File(path.join(dir, 'a.json')), await sha256File(path.join(dir, 'b.json')));
});

test('writing leaves no temporary file behind and replaces the target whole', async (t) => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ag-write-'));
  const file = path.join(dir, 'out.json');
  await fs.writeFile(file, 'old and longer content that must vanish');
  await writeArtefact(file, { v: 1 });
  t.deepEqual(await fs.readdir(dir), ['out.json']);
  t.is(await fs.readFile(file, 'utf8'), '{"v":1}\n');
});

test('sha256 digests carry the sha256: prefix', async (t) => {
  t.is(sha256(''), 'sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ag-sha-'));
  await fs.writeFile(path.join(dir, 'f'), 'abc');
  t.is(await sha256File(path.join(dir, 'f')), sha256('abc'));
});
