import test from 'ava';
import { classifyPath, loadedAsCode } from '../src/index.js';

const TREE: Record<string, string> = {
  'src/discount.js': "const rule = require('./rule.txt');\nconst rates = require('./rates.json');\n",
  'src/esm.js':
    "import { createRequire } from 'node:module';\nconst r = createRequire(import.meta.url)('../lib/table.dat');\n",
  'src/read.js': "const text = require('fs').readFileSync(__dirname + '/notes.txt', 'utf8');\n",
  'src/rule.txt': 'module.exports = (p) => p;\n',
  'src/rates.json': '{}\n',
  'src/notes.txt': 'notes\n',
  'lib/table.dat': 'module.exports = [];\n',
  'test/helper.test.js': "const fixture = require('./case.txt');\n",
  'test/case.txt': 'module.exports = 1;\n',
};

test('a data-named file that source requires is code; JSON, text read as text and what tests require are not', (t) => {
  const files = Object.keys(TREE).sort();
  t.deepEqual(
    loadedAsCode(files, classifyPath, (p) => TREE[p] ?? null),
    [
      { path: 'lib/table.dat', loaded_by: 'src/esm.js' },
      { path: 'src/rule.txt', loaded_by: 'src/discount.js' },
    ],
  );
});
