import test from 'ava';
import { parseDeclaredCommands } from '../src/commands-json.js';

const p = (text: string) => parseDeclaredCommands('cmds.json', Buffer.from(text));

test('a JSON array of non-empty strings declares commands', (t) => {
  t.deepEqual(p('["node --test", "pytest -q"]'), { commands: ['node --test', 'pytest -q'] });
});

test('anything else is a fault naming the problem, and no command survives', (t) => {
  for (const bad of [
    '{"cmd":"x"}',
    '["ok", 3]',
    '["ok", ""]',
    '[]',
    'not json',
    '["a", "a",',
    '"x"',
    'null',
    '["a"] ["b"]',
  ]) {
    const r = p(bad);
    t.true('fault' in r, bad);
  }
  t.regex((p('{"a":1}') as { fault: string }).fault, /JSON array/);
  t.regex((p('["x", 1]') as { fault: string }).fault, /element 1/);
});
