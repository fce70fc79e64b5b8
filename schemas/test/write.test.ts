import test from 'ava';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { scratch } from './scratch.js';
import { spawnSync } from 'node:child_process';
import {
  canonicalJson,
  closeWriteSession,
  openWriteSession,
  removeWritten,
  sha256,
  sha256File,
  sweepDeadTemps,
  writeAtomic,
} from '../src/index.js';

/** Canonical JSON written atomically (writeArtefact itself, which also validates, is tested in write-target.test.ts). */
const writeJson = (file: string, value: unknown) => writeAtomic(file, canonicalJson(value));

test('canonical JSON sorts keys and ends with a newline', (t) => {
  t.is(canonicalJson({ b: 1, a: { d: 2, c: 3 } }), '{"a":{"c":3,"d":2},"b":1}\n');
});

test('the same value is written byte-identically whatever its key order', async (t) => {
  const dir = await fs.mkdtemp(path.join(scratch, 'ag-write-'));
  await writeJson(path.join(dir, 'a.json'), { x: 1, y: [1, 2] });
  await writeJson(path.join(dir, 'b.json'), { y: [1, 2], x: 1 });
  t.is(await sha256File(path.join(dir, 'a.json')), await sha256File(path.join(dir, 'b.json')));
});

test('writing leaves no temporary file behind and replaces the target whole', async (t) => {
  const dir = await fs.mkdtemp(path.join(scratch, 'ag-write-'));
  const file = path.join(dir, 'out.json');
  await fs.writeFile(file, 'old and longer content that must vanish');
  await writeJson(file, { v: 1 });
  t.deepEqual(await fs.readdir(dir), ['out.json']);
  t.is(await fs.readFile(file, 'utf8'), '{"v":1}\n');
});

test('sha256 digests carry the sha256: prefix', async (t) => {
  t.is(sha256(''), 'sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  const dir = await fs.mkdtemp(path.join(scratch, 'ag-sha-'));
  await fs.writeFile(path.join(dir, 'f'), 'abc');
  t.is(await sha256File(path.join(dir, 'f')), sha256('abc'));
});

// A write session and its hooks are process-wide (one command per process): those tests run serially.

test.serial(
  'a write killed halfway leaves the target as it was: the half exists only in the temporary file',
  async (t) => {
    const dir = await fs.mkdtemp(path.join(scratch, 'ag-write-'));
    const file = path.join(dir, 'run.json');
    await fs.writeFile(file, '{"old":true}\n');
    const text = canonicalJson({ a: 'x'.repeat(100) });
    let seen: { target: string; temp: string; tempName: string } | undefined;
    const session = openWriteSession({
      midWrite: async (tmp) => {
        seen = {
          target: await fs.readFile(file, 'utf8'),
          temp: await fs.readFile(tmp, 'utf8'),
          tempName: path.basename(tmp),
        };
      },
    });
    try {
      await writeAtomic(file, text);
    } finally {
      closeWriteSession(session);
    }
    t.is(seen?.target, '{"old":true}\n');
    t.is(seen?.temp, text.slice(0, Math.floor(text.length / 2)));
    t.regex(seen?.tempName ?? '', /^\.run\.json\.\d+\.[0-9a-f]{12}\.tmp$/);
    t.is(await fs.readFile(file, 'utf8'), text, 'a hook that returns lets the write complete whole');
  },
);

test.serial('a write that fails mid-way removes its temporary file and leaves the target untouched', async (t) => {
  const dir = await fs.mkdtemp(path.join(scratch, 'ag-write-'));
  const file = path.join(dir, 'out.json');
  await fs.writeFile(file, 'before');
  const session = openWriteSession({
    midWrite: () => {
      throw new Error('disk full');
    },
  });
  try {
    await t.throwsAsync(writeJson(file, { v: 1 }), { message: 'disk full' });
  } finally {
    closeWriteSession(session);
  }
  t.deepEqual(await fs.readdir(dir), ['out.json']);
  t.is(await fs.readFile(file, 'utf8'), 'before');
});

test.serial('a hook before the first byte that throws writes nothing at all', async (t) => {
  const dir = await fs.mkdtemp(path.join(scratch, 'ag-write-'));
  const session = openWriteSession({
    beforeWrite: () => {
      throw new Error('stop');
    },
  });
  try {
    await t.throwsAsync(writeJson(path.join(dir, 'out.json'), { v: 1 }));
  } finally {
    closeWriteSession(session);
  }
  t.deepEqual(await fs.readdir(dir), []);
});

test.serial('a session takes back the files it wrote, but not one replaced since by someone else', async (t) => {
  const dir = await fs.mkdtemp(path.join(scratch, 'ag-write-'));
  const [a, b] = [path.join(dir, 'a.json'), path.join(dir, 'b.json')];
  const session = openWriteSession();
  try {
    await writeJson(a, { v: 1 });
    await writeJson(b, { v: 2 });
  } finally {
    closeWriteSession(session);
  }
  await writeJson(b, { v: 3 });
  t.deepEqual(removeWritten(session), [a]);
  t.deepEqual(await fs.readdir(dir), ['b.json']);
  t.is(await fs.readFile(b, 'utf8'), '{"v":3}\n');
});

test.serial('writes outside a session are not recorded', async (t) => {
  const dir = await fs.mkdtemp(path.join(scratch, 'ag-write-'));
  const session = openWriteSession();
  closeWriteSession(session);
  await writeJson(path.join(dir, 'x.json'), { v: 1 });
  t.deepEqual(session.written, []);
});

test('the next write into a directory sweeps the temporary files of writers that died, and only those', async (t) => {
  const dir = await fs.mkdtemp(path.join(scratch, 'ag-write-'));
  const dead = spawnSync(process.execPath, ['-e', '']).pid;
  const deadTemp = `.run.json.${dead}.0123456789ab.tmp`;
  const liveTemp = `.run.json.${process.ppid}.0123456789ab.tmp`;
  for (const name of [deadTemp, liveTemp, '.notes.tmp', 'data.json'])
    await fs.writeFile(path.join(dir, name), '{"half":');
  t.deepEqual(await sweepDeadTemps(dir, 0), [], 'a sweep reads a bounded number of entries');
  await writeJson(path.join(dir, 'verdict.json'), { v: 1 });
  t.deepEqual((await fs.readdir(dir)).sort(), ['.notes.tmp', liveTemp, 'data.json', 'verdict.json'].sort());
  t.deepEqual(await sweepDeadTemps(path.join(dir, 'missing')), []);
});
