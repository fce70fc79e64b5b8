// The frame's checks of a command line: positional words, sub-commands, sub-command help,
// choice / directory / output flags, the flags cleared first, and number messages. Each
// refusal is one line and exit 3, made before the command runs; each has an honest control.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { defineCommand, type ArgsDef } from 'citty';
import { canonicalJson, InvalidArtefactError, writeAtomic } from '@adversary-gate/schemas';
import {
  choiceArg,
  choiceFlag,
  directoryFlag,
  EXIT,
  intArg,
  numberArg,
  outputFlag,
  positionalWords,
  requiredArg,
  runCli,
  sharedArgs,
  UsageError,
  variadicPositional,
  type CliSpec,
} from '../src/index.js';
import { scratch } from './scratch.js';

const tmp = () => mkdtempSync(path.join(scratch, 'ag-frame-'));

const args = {
  diff: { type: 'string', description: 'The diff', valueHint: 'FILE' },
  evidence: { type: 'string', description: 'Evidence (repeatable)', valueHint: 'FILE' },
  sandbox: choiceFlag(['none', 'bwrap'], 'none | bwrap'),
  runner: choiceFlag(['generic', 'node', 'pytest'], 'The runner', 'NAME'),
  tree: directoryFlag('A tree'),
  markdown: outputFlag('Also a summary here'),
  ...sharedArgs,
} as const satisfies ArgsDef;

/** A tool whose command records that it ran and writes its outputs with the raw writer. */
function tool(seen: { ran: number }, extra: Partial<CliSpec> = {}): CliSpec {
  return {
    name: 'ag-x',
    version: '1.2.3',
    main: defineCommand({
      meta: { name: 'ag-x', description: 'A tool.' },
      args,
      async run({ args: a }) {
        seen.ran++;
        const out = a.out as string | undefined;
        if (out !== undefined) await writeAtomic(out, canonicalJson({ v: 1 }));
        const md = a.markdown as string | undefined;
        if (md !== undefined) await writeAtomic(md, '# x\n');
        return 0;
      },
    }),
    subCommands: {
      check: defineCommand({
        meta: { name: 'check', description: 'Check one file.' },
        args: { file: { type: 'positional', description: 'The file', required: true }, ...sharedArgs },
        run: () => void seen.ran++,
      }),
      merge: defineCommand({
        meta: { name: 'merge', description: 'Merge files.' },
        args: { files: variadicPositional('The files'), ...sharedArgs },
        run: () => void seen.ran++,
      }),
    },
    repeatable: ['evidence'],
    ...extra,
  };
}

/** Run with stdout and stderr captured. */
async function run(
  argv: string[],
  extra: Partial<CliSpec> = {},
): Promise<{ code: number; out: string; err: string; ran: number }> {
  const seen = { ran: 0 };
  let out = '';
  let err = '';
  const [o, e] = [process.stdout.write.bind(process.stdout), process.stderr.write.bind(process.stderr)];
  process.stdout.write = ((c: string) => ((out += String(c)), true)) as typeof process.stdout.write;
  process.stderr.write = ((c: string) => ((err += String(c)), true)) as typeof process.stderr.write;
  try {
    const code = await runCli(tool(seen, extra), argv, { env: {} });
    return { code, out, err, ran: seen.ran };
  } finally {
    process.stdout.write = o;
    process.stderr.write = e;
  }
}

test('positionalWords reads words as citty does: a value flag takes the next word, a boolean none, all after --', (t) => {
  t.deepEqual(positionalWords(['--diff', 'a', 'b', '--quiet', 'c', '--evidence=d', 'e', '--', '--diff', 'f'], args), [
    'b',
    'c',
    'e',
    '--diff',
    'f',
  ]);
  t.deepEqual(positionalWords(['--diff', '-', '--evidence', '-1', '-'], args), ['-']);
});

test.serial('stray positional words are refused, one line, exit 3, before the command runs', async (t) => {
  const r = await run(['--evidence', 'a', 'b', 'c']);
  t.is(r.code, EXIT.USAGE);
  t.is(r.ran, 0);
  t.is(
    r.err,
    'ag-x: usage: unexpected argument "b": it takes no positional argument: every value needs its flag, and a repeatable flag is repeated for each value (see `ag-x --help`)\n',
  );
  t.is((await run(['--diff', 'd', '--', 'x'])).code, EXIT.USAGE, 'a word after -- is positional too');
  t.is(
    (await run(['check', 'one', 'two'])).err,
    'ag-x: usage: unexpected argument "two": it takes FILE only (see `ag-x check --help`)\n',
  );
});

test.serial(
  'control: every value carried by its flag, a repeated flag, a declared positional and a variadic one run',
  async (t) => {
    t.is((await run(['--evidence', 'a', '--evidence', 'b', '--diff=-', '--quiet'])).ran, 1);
    t.is((await run(['check', 'one', '--quiet'])).ran, 1);
    t.is((await run(['merge', 'a', 'b', 'c'])).ran, 1);
  },
);

test.serial('an unknown sub-command is named as one, with the commands there are', async (t) => {
  const r = await run(['chekc', '--diff', 'd']);
  t.is(r.code, EXIT.USAGE);
  t.is(r.ran, 0);
  t.is(
    r.err,
    'ag-x: usage: unknown command "chekc" (the commands are check, merge; or give only flags) (see `ag-x --help`)\n',
  );
});

test.serial("a sub-command's help names the binary, and no help line ends in blanks", async (t) => {
  const r = await run(['merge', '--help']);
  t.is(r.code, EXIT.OK);
  t.regex(r.out, /^Merge files\. \(ag-x merge v1\.2\.3\)\n\nUSAGE ag-x merge \[OPTIONS\] <FILES>\n/);
  const main = await run(['--help']);
  t.regex(main.out, /^A tool\. \(ag-x v1\.2\.3\)\n\nUSAGE ag-x \[OPTIONS\]\n/);
  for (const line of [...r.out.split('\n'), ...main.out.split('\n')]) t.is(line, line.trimEnd());
});

test.serial('a choice flag refuses any other value, naming the choices; its reader narrows the type', async (t) => {
  const r = await run(['--sandbox', 'docker']);
  t.is(r.code, EXIT.USAGE);
  t.is(r.ran, 0);
  t.is(r.err, 'ag-x: usage: --sandbox must be none or bwrap, got "docker" (see `ag-x --help`)\n');
  t.regex((await run(['--runner=rspec'])).err, /--runner must be one of generic, node, pytest, got "rspec"/);
  t.is((await run(['--sandbox', 'bwrap', '--runner', 'node'])).ran, 1);
  const mode: 'none' | 'bwrap' | undefined = choiceArg('bwrap', 'sandbox', args.sandbox);
  t.is(mode, 'bwrap');
  t.is(choiceArg(undefined, 'sandbox', args.sandbox), undefined);
  t.throws(() => choiceArg('Bwrap', 'sandbox', args.sandbox), {
    instanceOf: UsageError,
    message: '--sandbox must be none or bwrap, got "Bwrap"',
  });
});

test.serial('a directory flag must name an existing directory: missing or a file is exit 3 naming it', async (t) => {
  const dir = tmp();
  const missing = path.join(dir, 'nope');
  const r = await run(['--tree', missing]);
  t.is(r.code, EXIT.USAGE);
  t.is(r.ran, 0);
  t.is(r.err, `ag-x: ${missing}: --tree is not a directory (it does not exist)\n`);
  writeFileSync(path.join(dir, 'f'), '');
  t.is((await run(['--tree', path.join(dir, 'f')])).err, `ag-x: ${path.join(dir, 'f')}: --tree is not a directory\n`);
  t.is((await run(['--tree', dir])).ran, 1);
});

test.serial(
  'an output flag into a missing directory, or at a directory, is refused before the command runs',
  async (t) => {
    const dir = tmp();
    const missing = path.join(dir, 'no', 'run.json');
    for (const flag of ['--out', '--markdown']) {
      const r = await run([flag, missing]);
      t.is(r.code, EXIT.USAGE, flag);
      t.is(r.ran, 0);
      t.is(r.err, `ag-x: cannot write ${missing}: directory ${path.join(dir, 'no')} does not exist\n`);
      const d = await run([`${flag}=${dir}`]);
      t.is(d.code, EXIT.USAGE);
      t.regex(d.err, /^ag-x: cannot write .*: is a directory; refused/);
    }
    t.deepEqual(readdirSync(dir), []);
  },
);

test.serial(
  'an output flag at a character device or FIFO-less device link runs and leaves the device a device',
  async (t) => {
    const dir = tmp();
    const dev = path.join(dir, 'null');
    execFileSync('mknod', [dev, 'c', '1', '3']);
    const r = await run(['--out', dev, '--markdown', dev]);
    t.is(r.code, EXIT.OK, r.err);
    t.true(lstatSync(dev).isCharacterDevice());
    t.deepEqual(readdirSync(dir), ['null']);
  },
);

test.serial(
  'clearFirst deletes a regular file before anything (even a bad flag) and never a device, link or directory',
  async (t) => {
    const dir = tmp();
    const stale = path.join(dir, 'verdict.json');
    writeFileSync(stale, 'ACCEPT');
    t.is((await run(['--out', stale, '--bogus'], { clearFirst: ['out'] })).code, EXIT.USAGE);
    t.deepEqual(readdirSync(dir), []);
    const dev = path.join(dir, 'null');
    execFileSync('mknod', [dev, 'c', '1', '3']);
    const link = path.join(dir, 'link');
    symlinkSync(dev, link);
    mkdirSync(path.join(dir, 'sub'));
    for (const target of [dev, link, path.join(dir, 'sub')])
      await run(['--out', target, '--bogus'], { clearFirst: ['out'] });
    t.true(lstatSync(dev).isCharacterDevice());
    t.true(lstatSync(link).isSymbolicLink());
    t.true(lstatSync(path.join(dir, 'sub')).isDirectory());
  },
);

test('numbers: a negative or out-of-range value says the range, a word says it must be a number in it', (t) => {
  t.throws(() => numberArg('-1', 'timeout', 0.1, 86_400), {
    message: '--timeout must be between 0.1 and 86400, got -1',
  });
  t.throws(() => numberArg('soon', 'timeout', 0.1, 86_400), {
    message: '--timeout must be a number between 0.1 and 86400, got "soon"',
  });
  t.throws(() => intArg('-3', 'max', 0), { message: '--max must be at least 0, got -3' });
  t.throws(() => intArg('2.5', 'jobs', 1, 256), { message: '--jobs must be an integer between 1 and 256, got "2.5"' });
  t.is(numberArg('0.5', 'timeout', 0.1, 86_400), 0.5);
  t.is(intArg('0', 'max', 0), 0);
});

test.serial(
  'a write refused by the writer is exit 3; an artefact its schema refuses is exit 2 (a bug, never evidence)',
  async (t) => {
    const dir = tmp();
    const spec = (thrower: () => Promise<unknown>): CliSpec => ({
      name: 'ag-x',
      version: '0',
      main: defineCommand({ args: { ...sharedArgs }, run: thrower }),
    });
    const sub = path.join(dir, 'sub');
    mkdirSync(sub);
    t.is(
      await runCli(
        spec(() => writeAtomic(sub, 'x')),
        [],
        { env: {} },
      ),
      EXIT.USAGE,
    );
    t.is(
      await runCli(
        spec(() => Promise.reject(new InvalidArtefactError('x.json', 'field "a": bad'))),
        [],
        { env: {} },
      ),
      EXIT.HOLD,
    );
    t.is(requiredArg('x', 'out'), 'x');
  },
);
