// THREATS.md §5: each defect class applied to each evidence artefact yields HOLD
// EVIDENCE_INVALID (or EVIDENCE_MISSING for an absent file): never ACCEPT, never a crash.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import * as v from 'valibot';
import { ARTEFACT_SCHEMAS, canonicalJson } from '@adversary-gate/schemas';
import { decide, readEvidenceFiles } from '../src/index.js';
import { scratch } from './helpers/scratch.js';
import { codes, decideWith, DIFF, defaultPolicy, golden } from './helpers/golden.js';

type Kind = 'run' | 'diffcov' | 'mutation' | 'oracle';
const KINDS: Kind[] = ['run', 'diffcov', 'mutation', 'oracle'];

function assertHeld(
  t: import('ava').ExecutionContext,
  kind: Kind,
  replacement: unknown,
  label: string,
  code = 'EVIDENCE_INVALID',
) {
  const set: Record<string, unknown> = golden();
  set[kind] = replacement;
  const v = decideWith(set as ReturnType<typeof golden>);
  t.is(v.verdict, 'HOLD', `${kind} ${label}`);
  t.true(codes(v).includes(code), `${kind} ${label}: ${JSON.stringify(v.reasons)}`);
}

const text = (kind: Kind) => canonicalJson(golden()[kind]).trimEnd();

test('J1 malformed JSON: truncated at many offsets, trailing comma, garbage, empty, whitespace', (t) => {
  for (const kind of KINDS) {
    const s = text(kind);
    for (let cut = 0; cut < s.length; cut += Math.max(1, Math.floor(s.length / 40)))
      assertHeld(t, kind, s.slice(0, cut), `cut ${cut}`);
    assertHeld(t, kind, `${s.slice(0, -1)},}`, 'trailing comma');
    assertHeld(t, kind, `${s}x`, 'trailing garbage');
    assertHeld(t, kind, '', 'empty');
    assertHeld(t, kind, ' \n\t ', 'whitespace');
  }
});

test('J2 wrong schema_version: missing, older, newer, string, "1.0"', (t) => {
  for (const kind of KINDS) {
    for (const value of [undefined, 0, 2, '1', '1.0', 1.5, null]) {
      const o = golden()[kind] as Record<string, unknown>;
      if (value === undefined) delete o.schema_version;
      else o.schema_version = value;
      assertHeld(t, kind, o, `schema_version ${String(value)}`);
    }
  }
});

test('J3 extra keys at the top level and nested', (t) => {
  for (const kind of KINDS) {
    assertHeld(t, kind, { ...golden()[kind], override: 'ACCEPT' }, 'override');
    assertHeld(t, kind, { ...golden()[kind], skip_checks: true }, 'skip_checks');
    const o = golden()[kind] as Record<string, any>;
    o.tool.trusted = true;
    assertHeld(t, kind, o, 'nested extra key');
  }
});

test('J4 every required key missing, and every key set to null where null is not allowed', (t) => {
  for (const kind of KINDS) {
    for (const key of Object.keys(golden()[kind])) {
      const missing = golden()[kind] as Record<string, unknown>;
      delete missing[key];
      assertHeld(t, kind, missing, `without ${key}`);
      const nulled = golden()[kind] as Record<string, unknown>;
      if (nulled[key] === null) continue;
      nulled[key] = null;
      const v = decideWith({ ...golden(), [kind]: nulled });
      // some fields may legitimately be null (e.g. a ratio); then the verdict must still not be ACCEPT
      t.not(v.verdict, 'ACCEPT', `${kind}.${key} = null`);
    }
  }
});

test('J5 nesting deeper than the cap', (t) => {
  for (const kind of KINDS) assertHeld(t, kind, `${'['.repeat(10_000)}${']'.repeat(10_000)}`, 'deep');
});

test('J6 wrong types in every top-level field, and a top-level array', (t) => {
  for (const kind of KINDS) {
    assertHeld(t, kind, '[]', 'top-level array');
    for (const key of Object.keys(golden()[kind])) {
      for (const wrong of ['0', 0, true, [], {}]) {
        const o = golden()[kind] as Record<string, unknown>;
        if (JSON.stringify(o[key]) === JSON.stringify(wrong)) continue;
        o[key] = wrong;
        if (v.safeParse(ARTEFACT_SCHEMAS[kind], o).success) continue; // a legal value (e.g. seed 0), not a defect
        const verdict = decideWith({ ...golden(), [kind]: o });
        t.not(verdict.verdict, 'ACCEPT', `${kind}.${key} = ${JSON.stringify(wrong)}`);
      }
    }
  }
});

test('J7 non-finite, unsafe, negative and fractional numbers', (t) => {
  const s = text('diffcov');
  assertHeld(t, 'diffcov', s.replace('"diff_coverage_ratio":1', '"diff_coverage_ratio":NaN'), 'NaN');
  assertHeld(t, 'diffcov', s.replace('"diff_coverage_ratio":1', '"diff_coverage_ratio":Infinity'), 'Infinity');
  assertHeld(t, 'diffcov', s.replace('"diff_coverage_ratio":1', '"diff_coverage_ratio":1e400'), '1e400');
  assertHeld(t, 'diffcov', s.replace('"diff_coverage_ratio":1', '"diff_coverage_ratio":1.5'), 'ratio > 1');
  assertHeld(t, 'diffcov', s.replace('"measured":2', '"measured":-2'), 'negative count');
  assertHeld(t, 'diffcov', s.replace('"measured":2', '"measured":2.5'), 'fractional count');
  assertHeld(t, 'diffcov', s.replace('"measured":2', '"measured":9007199254740993'), 'unsafe integer');
  assertHeld(t, 'mutation', text('mutation').replace('"killed":2', '"killed":-0'), 'negative zero');
  assertHeld(t, 'mutation', text('mutation').replace('"suite_strength":1', '"suite_strength":"1"'), 'string strength');
});

test('J8 duplicate keys: the last one never wins', (t) => {
  const s = text('run');
  assertHeld(t, 'run', s.replace('"claims":', '"claims":[],"claims":'), 'duplicate claims');
  assertHeld(
    t,
    'diffcov',
    text('diffcov').replace('"diff_coverage_ratio":1', '"diff_coverage_ratio":0,"diff_coverage_ratio":1'),
    'duplicate ratio',
  );
});

test('J9 a UTF-8 byte-order mark; J10 invalid UTF-8 and lone surrogates', (t) => {
  for (const kind of KINDS) {
    assertHeld(t, kind, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text(kind))]), 'BOM');
    const bytes = Buffer.from(text(kind));
    const at = bytes.indexOf('0.1.0');
    assertHeld(
      t,
      kind,
      Buffer.concat([bytes.subarray(0, at), Buffer.from([0xc0, 0xaf]), bytes.subarray(at)]),
      'overlong encoding',
    );
    assertHeld(t, kind, text(kind).replace('"0.1.0"', '"0.1.0\\ud800"'), 'lone surrogate');
  }
});

test('J13 __proto__, constructor and prototype keys', (t) => {
  for (const kind of KINDS) {
    for (const key of ['__proto__', 'constructor', 'prototype']) {
      assertHeld(t, kind, text(kind).replace('"faults":[]', `"faults":[],"${key}":{"verdict":"ACCEPT"}`), key);
    }
  }
});

test('J15 paths inside artefacts: absolute, .., backslashes, NUL', (t) => {
  for (const bad of ['/etc/passwd', '../src/calc.js', 'src\\calc.js', 'src/\u0000calc.js', './src/calc.js']) {
    const d = golden().diffcov;
    d.files[0].path = bad;
    assertHeld(t, 'diffcov', d, `diffcov path ${JSON.stringify(bad)}`);
    const m = golden().mutation;
    m.mutants[0].file = bad;
    assertHeld(t, 'mutation', m, `mutant path ${JSON.stringify(bad)}`);
  }
});

test('numbers that do not re-derive are refused: a forged ratio, counts, strength', (t) => {
  const d = golden().diffcov;
  d.totals = { measured: 2, covered: 2, uncovered: 0 };
  d.files[0].covered = [[2, 2]];
  d.files[0].uncovered = [[3, 3]];
  assertHeld(t, 'diffcov', d, 'ratio 1 with an uncovered line');
  const d2 = golden().diffcov;
  d2.files = [];
  d2.totals = { measured: 0, covered: 0, uncovered: 0 };
  d2.diff_coverage_ratio = null;
  d2.reason = 'no_executable_changed_lines';
  assertHeld(t, 'diffcov', d2, 'a changed source file left out');
  const m = golden().mutation;
  m.counts.killed = 3;
  assertHeld(t, 'mutation', m, 'counts that do not tally');
  const m2 = golden().mutation;
  m2.mutants[0].line = 1;
  assertHeld(t, 'mutation', m2, 'a mutant on an unchanged line');
  const m3 = golden().mutation;
  m3.mutants[1].status = 'survived';
  m3.counts = { killed: 1, survived: 1, timeout: 0, stillborn: 0, no_coverage: 0 };
  assertHeld(t, 'mutation', m3, 'strength 1 with a survivor');
  const r = golden().run;
  r.claims[0].patch[1].exit_code = 3;
  assertHeld(t, 'run', r, 'PASS with exit code 3');
  const r2 = golden().run;
  r2.claims[0].patch = r2.claims[0].patch.slice(0, 1);
  assertHeld(t, 'run', r2, 'VERIFIED with fewer rounds than declared');
  const o = golden().oracle;
  o.fixtures[0].changed = ['x'];
  assertHeld(t, 'oracle', o, 'fixture lists a change with equal digests');
});

test('J11 and J16: symlinks, directories, FIFOs and missing files hold without hanging', async (t) => {
  const dir = await fs.mkdtemp(path.join(scratch, 'ag-decide-bad-'));
  const real = path.join(dir, 'run.json');
  await fs.writeFile(real, canonicalJson(golden().run));
  const files: Record<string, string> = {};
  for (const kind of ['diffcov', 'mutation', 'oracle'] as const) {
    files[kind] = path.join(dir, `${kind}.json`);
    await fs.writeFile(files[kind]!, canonicalJson(golden()[kind]));
  }
  const link = path.join(dir, 'link.json');
  await fs.symlink(real, link);
  const fifo = path.join(dir, 'fifo.json');
  execFileSync('mkfifo', [fifo]);
  const big = path.join(dir, 'big.json');
  await fs.writeFile(big, Buffer.alloc(17 * 1024 * 1024, 0x20));
  for (const [label, bad, code] of [
    ['symlink', link, 'EVIDENCE_INVALID'],
    ['directory', dir, 'EVIDENCE_INVALID'],
    ['fifo', fifo, 'EVIDENCE_INVALID'],
    ['over 16 MiB', big, 'EVIDENCE_INVALID'],
    ['missing', path.join(dir, 'nope.json'), 'EVIDENCE_MISSING'],
  ] as const) {
    const evidence = await readEvidenceFiles([bad, files.diffcov!, files.mutation!, files.oracle!]);
    const v = decide({ diff: DIFF, evidence, policy: defaultPolicy(), tool: { name: 'ag-decide', version: '0' } });
    t.is(v.verdict, 'HOLD', label);
    t.true(codes(v).includes(code), `${label}: ${JSON.stringify(v.reasons)}`);
  }
});
