import test from 'ava';
import { evidenceTail } from '../src/output-tail.js';

test('tree and run paths are replaced and clock readings blanked', (t) => {
  const tree = '/tmp/ag-run-abc/patch-1-2/tree';
  const text = `at ${tree}/test/x.js:1\nxml: /tmp/ag-run-abc/patch-1-2/report/j.xml\n  duration_ms: 12.5\n2 passed in 0.13s\n  3 passing (40ms)\n`;
  t.is(
    evidenceTail(text, tree, 1000),
    'at ./test/x.js:1\nxml: <run>/report/j.xml\n  duration_ms: …\n2 passed in …s\n  3 passing (…ms)\n',
  );
});

test('colour escapes are removed: a coloured run gives the evidence a plain one does', (t) => {
  const tree = '/tmp/ag-run-abc/patch-1-2/tree';
  const coloured = `\u001b[31m\u001b[1m1 failed\u001b[0m, \u001b[32m1 passed\u001b[0m\u001b[31m in 1.65s\u001b[0m\n`;
  t.is(evidenceTail(coloured, tree, 1000), evidenceTail('1 failed, 1 passed in 1.65s\n', tree, 1000));
  t.is(evidenceTail(coloured, tree, 1000), '1 failed, 1 passed in …s\n');
});

test('only the last characters are kept', (t) => {
  t.is(evidenceTail('abcdef', '/t/tree', 3), 'def');
});
