// Imports that follow a moved file get no revert: their revert would name a module that no
// longer exists. Any other change on the line, or a file that did not move, keeps the revert.
import test from 'ava';
import { parseUnifiedDiff } from '@adversary-gate/core';
import { followsMove, movedNames } from '../src/moved-imports.js';

const model = (from: string, to: string) =>
  parseUnifiedDiff(`diff --git a/${from} b/${to}\nsimilarity index 100%\nrename from ${from}\nrename to ${to}\n`);

const hunk = (removed: string[], newStart = 1) => ({
  oldStart: newStart,
  oldLines: removed.length,
  newStart,
  newLines: removed.length,
  removed,
});

test("Python: a dotted module name made the moved file's, alone on the line, follows the move", (t) => {
  const names = movedNames(model('shop/helpers.py', 'shop/text/normalize.py'), 'shop/catalog.py');
  t.deepEqual(names, [
    ['shop.helpers', 'shop.text.normalize'],
    ['helpers', 'text.normalize'],
  ]);
  const text = 'from shop.text.normalize import slug\n\n\ndef f():\n    return slug("x")\n';
  t.true(followsMove(text, hunk(['from shop.helpers import slug']), names, 'python'));
  t.false(
    followsMove(
      'from shop.text.normalize import slug, other\n',
      hunk(['from shop.helpers import slug']),
      names,
      'python',
    ),
    'another change beside it',
  );
  t.false(
    followsMove('from shopx.text.normalize import slug\n', hunk(['from shopx.helpers import slug']), names, 'python'),
    'part of a longer name',
  );
  t.false(followsMove(text, hunk(['from shop.helpers import slug']), [], 'python'), 'nothing moved');
});

test('JavaScript: a relative specifier from the importer, with or without its extension', (t) => {
  const names = movedNames(model('src/helpers.js', 'src/text/normalize.js'), 'src/app.js');
  const text = "const { slug } = require('./text/normalize');\nimport { pad } from './text/normalize.js';\n";
  t.true(followsMove(text, hunk(["const { slug } = require('./helpers');"]), names, 'js'));
  t.true(followsMove(text, hunk(["import { pad } from './helpers.js';"], 2), names, 'js'));
  t.false(followsMove(text, hunk(["const { slug } = require('./helpers2');"]), names, 'js'));
});
