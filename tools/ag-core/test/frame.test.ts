import test from 'ava';
import { defineCommand } from 'citty';
import { EXIT, InputError, runCli, sharedArgs, UsageError } from '../src/index.js';

const spec = (run: () => unknown) => ({
  name: 'ag-x',
  version: '9.9.9',
  main: defineCommand({ args: { ...sharedArgs, diff: { type: 'string' } }, run }),
});

test('a usage error exits 3', async (t) => {
  t.is(
    await runCli(
      spec(() => {
        throw new UsageError('bad');
      }),
      [],
    ),
    EXIT.USAGE,
  );
});

test('an unreadable input exits 3', async (t) => {
  t.is(
    await runCli(
      spec(() => {
        throw new InputError('x.json', 'broken');
      }),
      [],
    ),
    EXIT.USAGE,
  );
});

test('an unknown flag exits 3 before the command runs', async (t) => {
  let ran = false;
  t.is(
    await runCli(
      spec(() => {
        ran = true;
      }),
      ['--nope'],
    ),
    EXIT.USAGE,
  );
  t.false(ran);
});

test('an unexpected error exits 2, never 0 or 1', async (t) => {
  t.is(
    await runCli(
      spec(() => {
        throw new TypeError('boom');
      }),
      [],
    ),
    EXIT.HOLD,
  );
  t.is(
    await runCli(
      spec(() => {
        throw 'a string';
      }),
      [],
    ),
    EXIT.HOLD,
  );
});

test('a command that returns a number exits with it; otherwise 0', async (t) => {
  t.is(
    await runCli(
      spec(() => 1),
      [],
    ),
    1,
  );
  t.is(
    await runCli(
      spec(() => undefined),
      ['--diff', 'x'],
    ),
    EXIT.OK,
  );
});

test('a repeatable flag keeps every value in order (citty alone keeps the last)', async (t) => {
  const { repeatedArg } = await import('../src/index.js');
  t.deepEqual(repeatedArg(['--e', 'a', '--x', 'y', '--e=b', '--', '--e', 'c'], 'e'), ['a', 'b']);
  t.throws(() => repeatedArg(['--e'], 'e'), { instanceOf: UsageError });
});

test('a single-valued flag given twice is refused; a declared repeatable one is not', async (t) => {
  t.is(
    await runCli(
      spec(() => 0),
      ['--diff', 'a', '--diff', 'b'],
    ),
    EXIT.USAGE,
  );
  t.is(await runCli({ ...spec(() => 0), repeatable: ['diff'] }, ['--diff', 'a', '--diff=b']), EXIT.OK);
});

test('repeatedArg reads the camelCase spelling and values that start with one dash', async (t) => {
  const { repeatedArg } = await import('../src/index.js');
  t.deepEqual(repeatedArg(['--test-command', 'a', '--testCommand=b', '--test-command', '-x'], 'test-command'), [
    'a',
    'b',
    '-x',
  ]);
});

test.serial('an error quoting input with control characters prints them escaped, on one line', async (t) => {
  const written: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string) => {
    written.push(String(chunk));
    return true;
  }) as typeof process.stderr.write;
  try {
    t.is(
      await runCli(
        spec(() => {
          throw new InputError('c.lcov', 'not an lcov line: \rTN:\u001b[2K');
        }),
        [],
      ),
      EXIT.USAGE,
    );
  } finally {
    process.stderr.write = write;
  }
  t.deepEqual(written, ['ag-x: c.lcov: not an lcov line: \\rTN:\\u001b[2K\n']);
});
