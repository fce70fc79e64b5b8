// The writer's targets: it renames only onto an absent name or a regular file; a character
// device or FIFO is written in place; everything else is refused with one line naming it.
// Devices are made with mknod in a scratch folder (never the real /dev/null).
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import {
  appendArtefact,
  checkOutputTarget,
  closeWriteSession,
  InvalidArtefactError,
  openWriteSession,
  OutputError,
  writeArtefact,
  writeAtomic,
} from '../src/index.js';
import { SAMPLE_DIGEST, sampleOracle } from './samples.js';
import { scratch } from './scratch.js';
import { fifo, fifoReader, nullDevice } from './support/special-files.js';

const tmp = () => mkdtemp(path.join(scratch, 'ag-target-'));

function logRecord(): Record<string, unknown> {
  const oracle = sampleOracle();
  return {
    schema: 'adversary-gate/log',
    schema_version: 1,
    tool: oracle.tool,
    subject: oracle.subject,
    inputs: oracle.inputs,
    faults: [],
    model: 'm',
    verdict: 'HOLD',
    reason_codes: ['EVIDENCE_MISSING'],
    verdict_sha256: SAMPLE_DIGEST,
    diff_coverage: null,
    suite_strength: null,
    claims: { verified: 0, refuted: 0, unverified: 0 },
  };
}

test('a character device is written in place: it stays the same device and no temporary file is left', async (t) => {
  const dir = await tmp();
  const dev = nullDevice(dir);
  const before = lstatSync(dev);
  t.is(checkOutputTarget(dev), 'in-place');
  const session = openWriteSession();
  try {
    await writeAtomic(dev, '{"discarded":true}\n');
  } finally {
    closeWriteSession(session);
  }
  const after = lstatSync(dev);
  t.true(after.isCharacterDevice());
  t.is(after.rdev, before.rdev);
  t.is(after.ino, before.ino);
  t.deepEqual(readdirSync(dir), ['null']);
  t.deepEqual(session.written, [], 'a device is never recorded: taking back what a command wrote must never remove it');
});

test('a symbolic link to a character device (like /dev/stdout) is written in place; the link stays', async (t) => {
  const dir = await tmp();
  const dev = nullDevice(dir);
  const link = path.join(dir, 'stdout');
  symlinkSync(dev, link);
  await writeAtomic(link, 'x\n');
  t.true(lstatSync(link).isSymbolicLink());
  t.true(lstatSync(dev).isCharacterDevice());
});

test('a FIFO with a reader gets the text in place and stays a FIFO', async (t) => {
  const dir = await tmp();
  const pipe = fifo(dir);
  const reader = fifoReader(pipe);
  const text = await writeArtefact(pipe, sampleOracle());
  t.is(reader.read(), text);
  t.true(lstatSync(pipe).isFIFO());
  t.deepEqual(readdirSync(dir), ['pipe']);
});

test('a FIFO nobody reads is refused at once, never waited on, and stays a FIFO', async (t) => {
  const dir = await tmp();
  const pipe = fifo(dir);
  await t.throwsAsync(writeAtomic(pipe, 'x\n'), {
    instanceOf: OutputError,
    message: `cannot write ${pipe}: is a FIFO no process reads; refused rather than wait`,
  });
  t.true(lstatSync(pipe).isFIFO());
});

test('a block device and a socket are refused, named, and left as they are', async (t) => {
  const dir = await tmp();
  // Major 241 is reserved for local use: no driver, so even a wrong open could reach no disk.
  const block = path.join(dir, 'disk');
  execFileSync('mknod', [block, 'b', '241', '0']);
  await t.throwsAsync(writeAtomic(block, 'x\n'), {
    instanceOf: OutputError,
    message: /^cannot write .*disk: is a block device; refused/,
  });
  t.true(lstatSync(block).isBlockDevice());
  const sock = path.join(dir, 'sock');
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(sock, resolve));
  t.teardown(() => server.close());
  await t.throwsAsync(writeAtomic(sock, 'x\n'), { instanceOf: OutputError, message: /sock: is a socket; refused/ });
  t.true(lstatSync(sock).isSocket());
  t.deepEqual(readdirSync(dir).sort(), ['disk', 'sock']);
});

test('a missing directory, a directory, and a file as the directory: one line naming the path, nothing created', async (t) => {
  const dir = await tmp();
  const missing = path.join(dir, 'no', 'such', 'run.json');
  await t.throwsAsync(writeAtomic(missing, 'x'), {
    instanceOf: OutputError,
    message: `cannot write ${missing}: directory ${path.join(dir, 'no', 'such')} does not exist`,
  });
  mkdirSync(path.join(dir, 'sub'));
  await t.throwsAsync(writeAtomic(path.join(dir, 'sub'), 'x'), {
    instanceOf: OutputError,
    message: /sub: is a directory; refused/,
  });
  writeFileSync(path.join(dir, 'plain'), 'p');
  await t.throwsAsync(writeAtomic(path.join(dir, 'plain', 'run.json'), 'x'), {
    instanceOf: OutputError,
    message: /plain is not a directory$/,
  });
  t.deepEqual(readdirSync(dir).sort(), ['plain', 'sub']);
  t.deepEqual(readdirSync(path.join(dir, 'sub')), []);
});

test('a symbolic link to a regular file or to nowhere is refused; the file behind it is untouched', async (t) => {
  const dir = await tmp();
  const real = path.join(dir, 'real.json');
  writeFileSync(real, 'keep');
  symlinkSync(real, path.join(dir, 'link.json'));
  await t.throwsAsync(writeAtomic(path.join(dir, 'link.json'), 'x'), {
    instanceOf: OutputError,
    message: /link\.json: is a symbolic link that leads to a regular file/,
  });
  t.is(readFileSync(real, 'utf8'), 'keep');
  t.true(lstatSync(path.join(dir, 'link.json')).isSymbolicLink());
  symlinkSync(path.join(dir, 'gone'), path.join(dir, 'dangling.json'));
  await t.throwsAsync(writeAtomic(path.join(dir, 'dangling.json'), 'x'), {
    instanceOf: OutputError,
    message: /leads nowhere/,
  });
  t.deepEqual(readdirSync(dir).sort(), ['dangling.json', 'link.json', 'real.json']);
});

test('control: an absent name and a regular file are replaced atomically, as before', async (t) => {
  const dir = await tmp();
  const file = path.join(dir, 'run.json');
  t.is(checkOutputTarget(file), 'replace');
  await writeAtomic(file, 'one\n');
  const first = lstatSync(file).ino;
  t.is(checkOutputTarget(file), 'replace');
  await writeAtomic(file, 'two\n');
  t.is(readFileSync(file, 'utf8'), 'two\n');
  t.not(lstatSync(file).ino, first, 'a new file was renamed into place');
});

test('writeArtefact validates against the schema its value names: an invalid or unnamed value is never written', async (t) => {
  const dir = await tmp();
  const file = path.join(dir, 'oracle.json');
  const bad = { ...sampleOracle(), tampering: 'none' };
  await t.throwsAsync(writeArtefact(file, bad), {
    instanceOf: InvalidArtefactError,
    message: /^internal error: refusing to write .*oracle\.json: field "tampering": /,
  });
  await t.throwsAsync(writeArtefact(file, { v: 1 }), {
    instanceOf: InvalidArtefactError,
    message: /missing field "schema"/,
  });
  await t.throwsAsync(writeArtefact(file, { ...sampleOracle(), extra: 1 }), {
    instanceOf: InvalidArtefactError,
    message: /unknown key "extra"/,
  });
  t.deepEqual(readdirSync(dir), []);
  const text = await writeArtefact(file, sampleOracle());
  t.is(readFileSync(file, 'utf8'), text);
});

test('appendArtefact validates each record and appends it as one line; devices in place, bad targets refused', async (t) => {
  const dir = await tmp();
  const log = path.join(dir, 'log.jsonl');
  const one = await appendArtefact(log, logRecord());
  await appendArtefact(log, { ...logRecord(), model: 'n' });
  t.is(readFileSync(log, 'utf8').split('\n').length, 3);
  t.true(readFileSync(log, 'utf8').startsWith(one));
  await t.throwsAsync(appendArtefact(log, { ...logRecord(), model: '' }), { instanceOf: InvalidArtefactError });
  const dev = nullDevice(dir);
  await appendArtefact(dev, logRecord());
  t.true(lstatSync(dev).isCharacterDevice());
  await t.throwsAsync(appendArtefact(path.join(dir, 'no', 'log.jsonl'), logRecord()), {
    instanceOf: OutputError,
    message: /does not exist/,
  });
  await t.throwsAsync(appendArtefact(dir, logRecord()), { instanceOf: OutputError, message: /is a directory/ });
  const pipe = fifo(dir);
  await t.throwsAsync(appendArtefact(pipe, logRecord()), { instanceOf: OutputError, message: /no process reads/ });
  t.is(readFileSync(log, 'utf8').split('\n').length, 3, 'a refused record is not appended');
});
