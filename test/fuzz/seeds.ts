/**
 * The valid inputs every mutation starts from (`seeds/`): an ACCEPT evidence set copied
 * from the demo's clean scenario, one small report per coverage format, runner reports,
 * policy-side inputs, and diffs with renames, binaries, deletions and quoted paths.
 * @module
 */
import { readFileSync } from 'node:fs';
import type { Seed } from './mutators.js';

/** One seed by its path under `seeds/`. */
export function seed(rel: string): Seed {
  return { name: rel, bytes: readFileSync(new URL(`./seeds/${rel}`, import.meta.url)) };
}

/** Several seeds. */
export function seeds(...rels: string[]): Seed[] {
  return rels.map(seed);
}

/** The evidence kinds of the ACCEPT set, each a file under `seeds/accept/`. */
export const EVIDENCE = ['run', 'diffcov', 'mutation', 'oracle'] as const;

/** The coverage report seeds and their formats. */
export const COVERAGE_SEEDS = {
  lcov: ['coverage/cart.lcov', 'coverage/edge.lcov'],
  istanbul: ['coverage/cart.istanbul.json'],
  coveragepy: ['coverage/cart.coveragepy.json'],
  cobertura: ['coverage/cart.cobertura.xml', 'coverage/edge.cobertura.xml'],
  jacoco: ['coverage/cart.jacoco.xml'],
  go: ['coverage/cart.go.out'],
  llvm: ['coverage/cart.llvm.json', 'coverage/gap.llvm.json'],
} as const;

/** Fragments that steer byte and line edits towards each format's structure. */
export const TOKENS = {
  json: [
    '"a\\nb"',
    '"\\r"',
    '"__proto__"',
    '"constructor"',
    '\\ud800',
    '\\u0000',
    'null',
    'true',
    '1e400',
    '-0',
    '{}',
    '[]',
    ',',
    ':',
    '"',
    '}',
    ']',
    '{"a":1,"a":2}',
  ],
  diff: [
    'diff --git a/x b/x\n',
    '--- a/',
    '+++ b/',
    '--- /dev/null\n',
    '+++ /dev/null\n',
    '@@ -1,3 +1,4 @@',
    '@@ -0,0 +1 @@',
    '@@@ -1 -1 +1 @@@',
    '\\ No newline at end of file',
    'rename from ',
    'rename to ',
    'copy from a\n',
    'Binary files a/x and b/x differ',
    'new file mode 100644',
    'deleted file mode 100644',
    '"b/\\303\\274"',
    '"b/../x\\ny"',
    '"b/x\\ry"',
    'b/../etc/passwd',
    'b//abs',
    '\r\n',
    '\0',
    '+',
    '-',
    ' ',
  ],
  lcov: [
    'SF:',
    'DA:',
    'end_of_record',
    'TN:',
    'SF:/abs/x.js',
    'SF:../x.js',
    'DA:0,1',
    'DA:1,-1',
    'DA:99999999999999999999,1',
    'LF:',
    'BRDA:1,0,0,-',
    'SF:file://%E0%A4%A',
    '\r',
  ],
  xml: [
    '<class filename="',
    '</class>',
    '<line number="1" hits="1"/>',
    '<line nr="1" ci="1"/>',
    '<sourcefile name="x.js">',
    '</sourcefile>',
    '<package name="p">',
    '</package>',
    '&#x110000;',
    '&#xD800;',
    '&#0;',
    '&amp;',
    '&bogus;',
    '<![CDATA[',
    ']]>',
    '<!--',
    '-->',
    '<?xml version="1.0" encoding="latin1"?>',
    '<!DOCTYPE x [<!ENTITY e "e">]>',
    'hits="-1"',
    'number="0"',
    'file://%',
    '<testcase name="t"/>',
    '<testcase/>',
    '<testsuite tests="1">',
    '<failure/>',
    '<skipped type="pytest.xfail"/>',
    '<error/>',
  ],
  go: [
    'mode: set',
    'mode: count',
    'mode: atomic',
    'src/cart.js:1.1,2.2 1 1',
    'x.go:0.0,0.0 0 0',
    'x.go:5.1,2.1 1 1',
    ':1.1,1.1 1 1',
    'x.go:1.1,99999999999999999999.1 1 1',
  ],
  tap: [
    'TAP version 13',
    'ok 1 - t',
    'not ok 1 - t',
    '# Subtest: s',
    '    ok 1 - inner',
    '1..1',
    '1..0 # SKIP',
    'Bail out!',
    '# tests 1',
    '# pass 1',
    '# fail 0',
    '# SKIP',
    '# TODO',
    '  ---',
    '  ...',
    'pragma +strict',
    'ok',
    'not ok',
    '# tests 99999999999999999999',
  ],
};
