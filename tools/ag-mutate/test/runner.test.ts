import test from 'ava';
import { detectRunner, nodeTestFileCommand, plainWords, withMochaRequire } from '../src/runners/runner.js';

test('node --test is recognised and its file arguments give way to the selected file', (t) => {
  const r = detectRunner('node --test --test-reporter spec test/*.test.js');
  t.is(r.name, 'node-test');
  t.is(nodeTestFileCommand(r, 'test/a.test.js'), 'node --test --test-reporter spec test/a.test.js');
  t.is(
    nodeTestFileCommand(detectRunner('/usr/bin/node --import tsx --test'), "test/it's.test.ts"),
    "/usr/bin/node --import tsx --test 'test/it'\\''s.test.ts'",
  );
});

test('a node command without --test, or with shell syntax, cannot be narrowed', (t) => {
  t.is(detectRunner('node test/price.test.js').nodeTestPrefix, null);
  t.is(detectRunner('node --test && echo done').nodeTestPrefix, null);
  t.is(detectRunner('FOO=$(pwd) node --test').nodeTestPrefix, null);
  t.is(plainWords('node --test "a b"'), null);
});

test('pytest, mocha, vitest and jest are named; anything else is other', (t) => {
  t.is(detectRunner('/usr/bin/python3 -m pytest -q').name, 'pytest');
  t.is(detectRunner('pytest tests').name, 'pytest');
  t.is(detectRunner('node_modules/.bin/mocha --bail test/').name, 'mocha');
  t.is(detectRunner('npx vitest run').name, 'vitest');
  t.is(detectRunner('jest -t x').name, 'jest');
  t.is(detectRunner('npm test').name, 'other');
});

test('a plain mocha command takes the root hook as one more --require; anything else cannot', (t) => {
  t.is(
    withMochaRequire('node_modules/.bin/mocha --bail test/', '/opt/hook.cjs'),
    'node_modules/.bin/mocha --bail test/ --require /opt/hook.cjs',
  );
  t.is(withMochaRequire('npx mocha', "/o p/it's.cjs"), "npx mocha --require '/o p/it'\\''s.cjs'");
  t.is(
    withMochaRequire('node node_modules/mocha/bin/mocha.js test', '/h.cjs'),
    'node node_modules/mocha/bin/mocha.js test --require /h.cjs',
  );
  // the gate's wired command: variables, npx's options, and its runner launcher before mocha
  const wired = `AG_PROGRAM_ARGV='["--check-leaks","test/"]' npx --no-install node /w/reporter/runner-launcher.cjs mocha --check-leaks test/ --reporter=xunit`;
  t.is(withMochaRequire(wired, '/h.cjs'), `${wired} --require /h.cjs`);
  t.is(withMochaRequire("X='a' npx --no-install node /w/runner-launcher.cjs jest", '/h.cjs'), null);
  t.is(withMochaRequire("X='a'; mocha", '/h.cjs'), null);
  t.is(withMochaRequire('npm test', '/h.cjs'), null);
  t.is(withMochaRequire('mocha test && echo done', '/h.cjs'), null);
  t.is(withMochaRequire('mocha -- test', '/h.cjs'), null);
  t.is(withMochaRequire('vitest run', '/h.cjs'), null);
});
