import test from 'ava';
import { normaliseReportPath, normaliseRoot, underRoot } from '../src/paths/normalise.js';

test('Windows separators, ./ and inner .. are normalised', (t) => {
  t.deepEqual(normaliseReportPath('.\\src\\lib\\..\\a.ts'), { key: 'src/a.ts', absolute: false });
  t.deepEqual(normaliseReportPath('./src//a.ts'), { key: 'src/a.ts', absolute: false });
});

test('leading .. of a relative report path is dropped so suffix matching can place it', (t) => {
  t.deepEqual(normaliseReportPath('../../src/a.ts'), { key: 'src/a.ts', absolute: false });
});

test('absolute POSIX, Windows drive and file:// paths stay absolute', (t) => {
  t.deepEqual(normaliseReportPath('/work/repo/a.py'), { key: '/work/repo/a.py', absolute: true });
  t.deepEqual(normaliseReportPath('c:\\work\\repo\\a.py'), { key: 'C:/work/repo/a.py', absolute: true });
  t.deepEqual(normaliseReportPath('file:///work/repo/a%20b.py'), { key: '/work/repo/a b.py', absolute: true });
});

test('a path under --root becomes relative; Windows drives compare case-insensitively', (t) => {
  t.is(underRoot('/work/repo/src/a.py', '/work/repo'), 'src/a.py');
  t.is(underRoot('/work/repository/a.py', '/work/repo'), null);
  t.is(underRoot('C:/Work/Repo/a.py', normaliseRoot('c:\\work\\repo')!), 'a.py');
  t.is(underRoot('/x/a.py', null), null);
});

test('a file:// path with a broken %-escape is kept as written, not a crash', (t) => {
  t.deepEqual(normaliseReportPath('file://%E0%A4%A'), { key: '%E0%A4%A', absolute: false });
});
