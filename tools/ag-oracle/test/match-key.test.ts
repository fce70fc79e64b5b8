import test from 'ava';
import { matchKey } from '../src/protect/match-key.js';

test('case, ./, backslashes and doubled slashes are folded away', (t) => {
  t.is(matchKey('./Tests\\Oracle//A.test.JS'), 'tests/oracle/a.test.js');
});

test('NFD and NFC spellings of a name give the same key', (t) => {
  t.is(matchKey('docs/cafe\u0301/x'), matchKey('docs/caf\u00e9/x'));
});

test('compatibility forms such as fullwidth letters fold to plain ones', (t) => {
  t.is(matchKey('ｔｅｓｔｓ/oracle'), 'tests/oracle');
});

test('trailing dots and spaces that Windows drops are dropped, dot-files keep their dot', (t) => {
  t.is(matchKey('.github./workflows /ci.yml'), '.github/workflows/ci.yml');
  t.is(matchKey('.gitattributes'), '.gitattributes');
  t.is(matchKey('a/../b'), 'a/../b');
});
