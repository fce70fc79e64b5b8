// Code is what runs (issue 37): Node's require() runs a file of any extension it does not
// know as JavaScript, so logic hidden in `src/rule.txt` and required by the source is code,
// whatever the name rules say. Coverage and mutation left it out: it holds as not measured
// (COVERAGE_NOT_MEASURED, STRENGTH_UNVERIFIED), naming the file and who loads it. Its honest
// twins change data the code reads as data (a required JSON file, a text file read with
// readFileSync) and ACCEPT.
import type { AdversarialCase } from '../case.js';

const test = (imports: string, from: string, body: string) =>
  `import assert from 'node:assert/strict';\nimport { test } from 'node:test';\nimport { ${imports} } from '../src/${from}.js';\n\n${body}\n`;

/** A discount rule whose branch above 100 is wrong (doubles), and a test of the branch below. */
const RULE = 'module.exports = function rule(price) {\n  if (price > 100) return price * 2;\n  return price;\n};\n';
const UNDER_100 = "test('no discount under 100', () => {\n  assert.equal(discount(50), 50);\n});";

const discount = (load: string) =>
  `import { createRequire } from 'node:module';\n\n${load}\n\nexport function discount(price) {\n  return rule(price);\n}\n`;

export const WHAT_RUNS: readonly AdversarialCase[] = [
  {
    id: 'code-in-txt',
    what: 'a discount rule in src/rule.txt, loaded with require(): its untested branch is wrong',
    patch: {
      'src/discount.js': discount(
        "const require = createRequire(import.meta.url);\nconst rule = require('./rule.txt');",
      ),
      'src/rule.txt': RULE,
      'test/discount.test.js': test('discount', 'discount', UNDER_100),
    },
    verdict: 'HOLD',
    code: 'COVERAGE_NOT_MEASURED',
    also: ['STRENGTH_UNVERIFIED'],
  },
  {
    id: 'code-in-dat',
    what: 'the same rule in src/rules/discount.dat, loaded through createRequire(…)(…)',
    patch: {
      'src/discount.js': discount("const rule = createRequire(import.meta.url)('./rules/discount.dat');"),
      'src/rules/discount.dat': RULE,
      'test/discount.test.js': test('discount', 'discount', UNDER_100),
    },
    verdict: 'HOLD',
    code: 'COVERAGE_NOT_MEASURED',
    also: ['STRENGTH_UNVERIFIED'],
  },
  {
    id: 'control-required-json',
    what: 'a rate table in src/rates.json, required by the source and changed',
    control: true,
    base: {
      'src/rates.json': '{ "standard": 20 }\n',
      'src/vat.js':
        "import { createRequire } from 'node:module';\n\nconst rates = createRequire(import.meta.url)('./rates.json');\n\nexport function vat(price) {\n  return (price * rates.standard) / 100;\n}\n",
      'test/vat.test.js': test('vat', 'vat', "test('vat', () => {\n  assert.equal(vat(100), 20);\n});"),
    },
    patch: {
      'src/rates.json': '{ "standard": 20, "reduced": 5 }\n',
    },
    verdict: 'ACCEPT',
    code: null,
  },
  {
    id: 'control-text-read',
    what: 'a greeting in src/greeting.txt, read as text with readFileSync, changed',
    control: true,
    base: {
      'src/greeting.txt': 'Hello\n',
      'src/greet.js':
        "import { readFileSync } from 'node:fs';\n\nexport function greet(name) {\n  const word = readFileSync(new URL('./greeting.txt', import.meta.url), 'utf8').trim();\n  return `${word}, ${name}`;\n}\n",
      'test/greet.test.js': test(
        'greet',
        'greet',
        "test('greet', () => {\n  assert.match(greet('Ann'), /, Ann$/);\n});",
      ),
    },
    patch: { 'src/greeting.txt': 'Hi\n' },
    verdict: 'ACCEPT',
    code: null,
  },
];
