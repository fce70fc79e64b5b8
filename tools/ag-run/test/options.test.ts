import test from 'ava';
import { UsageError } from '@adversary-gate/core';
import { flagValues, parseRunOptions } from '../src/options.js';

const base = ['--baseline', 'b', '--patch', 'p', '--diff', 'd.diff', '--out', 'run.json'];
const parse = (extra: string[]) => {
  const raw = [...base, ...extra];
  const args: Record<string, unknown> = {};
  for (let i = 0; i < raw.length; i += 2) args[raw[i]!.slice(2)] = raw[i + 1];
  return parseRunOptions(args, raw);
};

test('repeated flags keep every value in order, in both spellings', (t) => {
  t.deepEqual(
    flagValues(
      ['--test-command', 'a', '--test-command=b c', '--testCommand', 'd', '--', '--test-command', 'e'],
      'test-command',
    ),
    ['a', 'b c', 'd'],
  );
});

test('a flag without its value is a usage error', (t) => {
  t.throws(() => flagValues(['--test-command'], 'test-command'), { instanceOf: UsageError });
});

test('defaults: 3 rounds, 300 s, no sandbox, jobs = cores, runner detected', (t) => {
  const o = parse(['--test-command', 'true']);
  t.is(o.rounds, 3);
  t.is(o.timeoutSeconds, 300);
  t.is(o.sandbox, 'none');
  t.true(o.jobs >= 1);
  t.is(o.runner, null);
  t.deepEqual(o.testCommands, ['true']);
  t.is(o.fullSuiteCommand, null);
  t.is(o.maxProcesses, 1024);
  t.is(o.runAs, process.getuid?.() === 0 ? 'unprivileged' : 'caller');
});

test('a single-valued flag given twice is refused, never last-one-wins', (t) => {
  t.throws(() => parse(['--test-command', 'x', '--rounds', '2', '--rounds', '3']), {
    message: /--rounds was given 2 times/,
  });
});

test('bad values are usage errors that name the flag', (t) => {
  const cases: [string[], RegExp][] = [
    [[], /give --test-command or --commands-json/],
    [['--test-command', 'true', '--sandbox', 'docker'], /--sandbox must be none or bwrap/],
    [['--test-command', 'true', '--junit', '../j.xml'], /--junit must be a relative path/],
    [['--test-command', 'true', '--junit', '/abs/j.xml'], /--junit must be a relative path/],
    [['--test-command', 'true', '--runner', 'rspec'], /--runner must be one of/],
    [['--test-command', 'true', '--rounds', '0'], /--rounds must be between 1/],
    [['--test-command', 'true', '--timeout', 'soon'], /--timeout must be a number/],
    [['--test-command', 'true', '--pass-env', 'A=B'], /--pass-env takes a variable name/],
    [['--test-command', ''], /--test-command needs a command/],
    [['--test-command', 'true', '--run-as', 'nobody'], /--run-as must be unprivileged or caller/],
    [['--test-command', 'true', '--max-processes', '8'], /--max-processes must be between 16/],
  ];
  for (const [extra, message] of cases)
    t.throws(() => parse(extra), { instanceOf: UsageError, message }, extra.join(' '));
});

test('--run-as caller is always allowed; unprivileged only for root', (t) => {
  t.is(parse(['--test-command', 'true', '--run-as', 'caller']).runAs, 'caller');
  if (process.getuid?.() === 0)
    t.is(parse(['--test-command', 'true', '--run-as', 'unprivileged']).runAs, 'unprivileged');
  else
    t.throws(() => parse(['--test-command', 'true', '--run-as', 'unprivileged']), {
      message: /needs ag-run to run as root/,
    });
});
