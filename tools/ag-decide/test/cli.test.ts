import test from 'ava';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadArtefact } from '@adversary-gate/schemas';
import { execution, golden, mutant } from './helpers/golden.js';
import { agDecide, workdir } from './helpers/spawn.js';

type G = ReturnType<typeof golden>;

/** One hand-written evidence set per reason code. */
const CASES: [string, 'REJECT' | 'HOLD', (g: G) => Partial<G> | void][] = [
  [
    'CLAIM_FAILED',
    'REJECT',
    (g) => {
      g.run.claims[0].patch = [1, 2, 3].map((r) => execution('patch', r, 'FAIL'));
      g.run.claims[0].status = 'REFUTED';
    },
  ],
  [
    'COLLATERAL_REGRESSION',
    'REJECT',
    (g) => {
      g.run.full_suite.patch = execution('patch', 1, 'FAIL');
      g.run.full_suite.collateral_regression = true;
    },
  ],
  [
    'TEST_LOST',
    'REJECT',
    (g) => {
      g.run.test_deltas.tests_lost = ['test/calc.test.js::adds'];
    },
  ],
  [
    'TEST_SKIPPED',
    'REJECT',
    (g) => {
      g.run.test_deltas.tests_newly_skipped = ['test/calc.test.js::adds'];
    },
  ],
  [
    'ORACLE_TOUCHED',
    'REJECT',
    (g) => {
      g.oracle.oracle_touched = [{ path: 'tests/oracle/a.test.js', pattern: 'tests/oracle/**' }];
    },
  ],
  [
    'FIXTURE_DRIFT',
    'REJECT',
    (g) => {
      Object.assign(g.oracle.fixtures[0], { actual: `sha256:${'1'.repeat(64)}`, changed: ['a.json'] });
    },
  ],
  [
    'FREEZE_INVALID',
    'REJECT',
    (g) => {
      g.oracle.freeze.entries = [
        { index: 0, nodeid: null, expires: '2027-01-01', covers: ['src/calc.js'], status: 'missing_field' },
      ];
    },
  ],
  [
    'CLAIM_UNVERIFIED',
    'HOLD',
    (g) => {
      g.run.claims[0].patch = [execution('patch', 1, 'TIMED_OUT'), execution('patch', 2), execution('patch', 3)];
      g.run.claims[0].status = 'UNVERIFIED';
    },
  ],
  [
    'CRITERION_UNPROVEN',
    'HOLD',
    (g) => {
      g.run.criteria[0].proven = false;
    },
  ],
  [
    'BASELINE_RED',
    'HOLD',
    (g) => {
      g.run.full_suite.baseline = execution('baseline', 1, 'FAIL');
      g.run.full_suite.patch = execution('patch', 1, 'FAIL');
      g.run.full_suite.baseline_red = true;
    },
  ],
  [
    'COVERAGE_NOT_MEASURED',
    'HOLD',
    (g) => {
      Object.assign(g.diffcov, {
        diff_coverage_source: 'none',
        diff_coverage_ratio: null,
        reason: 'no_coverage_report',
        files: [],
        totals: { measured: 0, covered: 0, uncovered: 0 },
      });
    },
  ],
  [
    'COVERAGE_UNTRUSTED',
    'HOLD',
    (g) => {
      Object.assign(g.diffcov, {
        diff_coverage_source: 'untrusted',
        files: [],
        totals: { measured: 0, covered: 0, uncovered: 0 },
      });
    },
  ],
  [
    'COVERAGE_BELOW_FLOOR',
    'HOLD',
    (g) => {
      Object.assign(g.diffcov, { diff_coverage_ratio: 0, totals: { measured: 2, covered: 0, uncovered: 2 } });
      g.diffcov.files[0].covered = [];
      g.diffcov.files[0].uncovered = [[2, 3]];
    },
  ],
  [
    'STRENGTH_NOT_MEASURED',
    'HOLD',
    (g) => {
      Object.assign(g.mutation, {
        suite_strength: null,
        reason: 'baseline_red',
        mutants: [],
        counts: { killed: 0, survived: 0, timeout: 0, stillborn: 0, no_coverage: 0 },
      });
    },
  ],
  [
    'STRENGTH_UNVERIFIED',
    'HOLD',
    (g) => {
      Object.assign(g.mutation, { suite_strength_unverified: true, foreign_changed_files: ['db/schema.sql'] });
    },
  ],
  [
    'STRENGTH_BELOW_FLOOR',
    'HOLD',
    (g) => {
      Object.assign(g.mutation, {
        suite_strength: 0.5,
        counts: { killed: 1, survived: 1, timeout: 0, stillborn: 0, no_coverage: 0 },
        mutants: [mutant('m1', 2, 'killed'), mutant('m2', 3, 'survived')],
      });
    },
  ],
  [
    'FROZEN_ONLY_COVERAGE',
    'HOLD',
    (g) => {
      g.oracle.freeze.entries = [
        { index: 0, nodeid: 't::x', expires: '2027-01-01', covers: ['src/calc.js'], status: 'valid' },
      ];
      Object.assign(g.oracle.freeze, { frozen_only: true, frozen_only_files: ['src/calc.js'] });
    },
  ],
  [
    'TAMPER_SUSPECTED',
    'HOLD',
    (g) => {
      g.oracle.tampering = [
        { kind: 'runner_config_changed', path: 'package.json', line: 5, detail: 'scripts.test changed' },
      ];
    },
  ],
  [
    'EVIDENCE_MISSING',
    'HOLD',
    (g) => {
      const { mutation: _m, ...rest } = g;
      return rest;
    },
  ],
  [
    'EVIDENCE_INVALID',
    'HOLD',
    (g) => ({ ...g, oracle: `${JSON.stringify(g.oracle).slice(0, 40)}` as unknown as G['oracle'] }),
  ],
  [
    'EVIDENCE_STALE',
    'HOLD',
    (g) => {
      g.run.subject.diff_sha256 = `sha256:${'2'.repeat(64)}`;
    },
  ],
  [
    'PIPELINE_FAULT',
    'HOLD',
    (g) => {
      g.mutation.faults = [{ code: 'ENGINE_CRASHED', message: 'python helper exited 1' }];
    },
  ],
];

for (const [code, verdict, edit] of CASES) {
  test(`hand-written evidence for ${code} gives ${verdict} with that code and exit ${verdict === 'REJECT' ? 1 : 2}`, async (t) => {
    const g = golden();
    const set = edit(g) ?? g;
    const { dir, evidence } = workdir(set as Record<string, unknown>);
    const r = agDecide(['--diff', 'changes.diff', ...evidence, '--out', 'verdict.json'], dir);
    t.is(r.code, verdict === 'REJECT' ? 1 : 2, r.stderr);
    const v = (await loadArtefact(path.join(dir, 'verdict.json'), 'verdict')).value;
    t.is(v.verdict, verdict);
    t.true(
      v.reasons.some((x) => x.code === code),
      JSON.stringify(v.reasons),
    );
    t.regex(r.stderr, new RegExp(`^ag-decide: ${verdict} \\(.*${code}`));
  });
}

test('the golden evidence gives ACCEPT, exit 0, and check passes bound to the diff', async (t) => {
  const { dir, evidence } = workdir(golden());
  const r = agDecide(['--diff', 'changes.diff', ...evidence, '--out', 'verdict.json', '--markdown', 'summary.md'], dir);
  t.is(r.code, 0, r.stderr);
  t.is((await loadArtefact(path.join(dir, 'verdict.json'), 'verdict')).value.verdict, 'ACCEPT');
  t.regex(readFileSync(path.join(dir, 'summary.md'), 'utf8'), /^## .* adversary-gate: ACCEPT/);
  const c = agDecide(['check', 'verdict.json', '--diff', 'changes.diff'], dir);
  t.is(c.code, 0, c.stderr);
  t.regex(c.stdout, /ACCEPT/);
});

test('the same inputs give a byte-identical verdict', (t) => {
  const { dir, evidence } = workdir(golden());
  agDecide(['--diff', 'changes.diff', ...evidence, '--out', 'a.json'], dir);
  agDecide(['--diff', 'changes.diff', ...evidence, '--out', 'b.json'], dir);
  t.is(readFileSync(path.join(dir, 'a.json'), 'utf8'), readFileSync(path.join(dir, 'b.json'), 'utf8'));
});

test('an existing --out is deleted even when the arguments are bad (exit 3)', (t) => {
  const { dir } = workdir({});
  writeFileSync(path.join(dir, 'verdict.json'), '{"verdict":"ACCEPT"}');
  const r = agDecide(['--diff', 'changes.diff', '--out', 'verdict.json', '--no-such-flag'], dir);
  t.is(r.code, 3);
  t.false(existsSync(path.join(dir, 'verdict.json')));
  t.regex(r.stderr, /^ag-decide: usage: unknown flag --no-such-flag/);
  t.false(r.stderr.includes('    at '), 'no stack trace');
});

test('a missing --diff file is exit 3 naming the file, and no verdict is left', (t) => {
  const { dir, evidence } = workdir(golden());
  const r = agDecide(['--diff', 'nope.diff', ...evidence, '--out', 'verdict.json'], dir);
  t.is(r.code, 3);
  t.regex(r.stderr, /nope\.diff: no such file/);
  t.false(existsSync(path.join(dir, 'verdict.json')));
});

test('missing --out is a usage error', (t) => {
  const { dir } = workdir({});
  t.is(agDecide(['--diff', 'changes.diff'], dir).code, 3);
});

test('an unreadable policy still writes a HOLD verdict', async (t) => {
  const { dir, evidence } = workdir(golden());
  writeFileSync(path.join(dir, 'policy.json'), '{"schema_version":1,"floors":{"diff_coverage":0,"diff_coverage":0.8}}');
  const r = agDecide(['--diff', 'changes.diff', ...evidence, '--policy', 'policy.json', '--out', 'verdict.json'], dir);
  t.is(r.code, 2);
  const v = (await loadArtefact(path.join(dir, 'verdict.json'), 'verdict')).value;
  t.deepEqual(
    v.reasons.map((x) => [x.code, x.evidence]),
    [['EVIDENCE_INVALID', 'policy']],
  );
});

test('check: a missing, forged, stale, REJECT or HOLD verdict fails with one line', (t) => {
  const { dir, evidence } = workdir(golden());
  t.is(agDecide(['check', 'verdict.json'], dir).code, 2);
  writeFileSync(path.join(dir, 'forged.json'), '{"verdict":"ACCEPT"}');
  const forged = agDecide(['check', 'forged.json'], dir);
  t.is(forged.code, 2);
  t.is(forged.stderr.trim().split('\n').length, 1);
  agDecide(['--diff', 'changes.diff', ...evidence, '--out', 'verdict.json'], dir);
  writeFileSync(path.join(dir, 'other.diff'), '--- a/x.js\n+++ b/x.js\n@@ -1 +1 @@\n-a\n+b\n');
  t.is(agDecide(['check', 'verdict.json', '--diff', 'other.diff'], dir).code, 2);
  const text = readFileSync(path.join(dir, 'verdict.json'), 'utf8');
  writeFileSync(
    path.join(dir, 'dup.json'),
    text.replace('"verdict":"ACCEPT"', '"verdict":"REJECT","verdict":"ACCEPT"'),
  );
  t.is(agDecide(['check', 'dup.json'], dir).code, 2);
  writeFileSync(path.join(dir, 'lower.json'), text.replace('"verdict":"ACCEPT"', '"verdict":"accept"'));
  t.is(agDecide(['check', 'lower.json'], dir).code, 2);
  const g = golden();
  g.run.test_deltas.tests_lost = ['x'];
  const bad = workdir(g);
  agDecide(['--diff', 'changes.diff', ...bad.evidence, '--out', 'verdict.json'], bad.dir);
  const rejected = agDecide(['check', 'verdict.json'], bad.dir);
  t.is(rejected.code, 1);
  t.regex(rejected.stderr, /REJECT \(TEST_LOST\)/);
});

test('--log appends one schema-valid record per decision and stats reads it', (t) => {
  const { dir, evidence } = workdir(golden());
  t.is(
    agDecide(
      ['--diff', 'changes.diff', ...evidence, '--out', 'v.json', '--log', 'log.jsonl', '--model', 'model-a'],
      dir,
    ).code,
    0,
  );
  t.is(
    agDecide(['--diff', 'changes.diff', '--out', 'v.json', '--log', 'log.jsonl', '--model', 'model-b'], dir).code,
    2,
  );
  t.is(readFileSync(path.join(dir, 'log.jsonl'), 'utf8').trim().split('\n').length, 2);
  const json = agDecide(['stats', 'log.jsonl', '--format', 'json'], dir);
  t.is(json.code, 0, json.stderr);
  const stats = JSON.parse(json.stdout);
  t.is(stats['model-a'].ACCEPT, 1);
  t.is(stats['model-b'].HOLD, 1);
  t.is(stats['model-b'].by_reason.EVIDENCE_MISSING, 1);
  t.is(stats['model-a'].self_deception_index, 0);
  const table = agDecide(['stats', 'log.jsonl'], dir);
  t.regex(table.stdout, /model-a\s+1\s+1\s+0\s+0\s+0\.000/);
  t.is(
    agDecide(['--diff', 'changes.diff', '--out', 'v.json', '--log', 'log.jsonl'], dir).code,
    3,
    '--log needs --model',
  );
  writeFileSync(path.join(dir, 'bad.jsonl'), '{"schema":"adversary-gate/log"}\n');
  const bad = agDecide(['stats', 'bad.jsonl'], dir);
  t.is(bad.code, 3);
  t.regex(bad.stderr, /bad\.jsonl:1: /);
});

test('--help prints the usage and exits 0', (t) => {
  const { dir } = workdir({});
  const r = agDecide(['--help'], dir);
  t.is(r.code, 0);
  t.regex(r.stdout, /--evidence/);
  t.is(agDecide(['check', '--help'], dir).code, 0);
});

test('--annotations prints workflow commands on stdout; with --out - it is a usage error', (t) => {
  const g = golden();
  g.diffcov.pragmas = [{ path: 'src/calc.js', line: 2, text: '/* c8 ignore next */' }];
  const { dir, evidence } = workdir(g);
  const r = agDecide(['--diff', 'changes.diff', ...evidence, '--out', 'verdict.json', '--annotations'], dir);
  t.is(r.code, 2);
  t.regex(r.stdout, /^::error file=src\/calc\.js,line=2,title=Coverage pragma added::/m);
  t.regex(r.stdout, /^::error title=adversary-gate%3A HOLD::TAMPER_SUSPECTED$/m);
  t.is(agDecide(['--diff', 'changes.diff', ...evidence, '--out', '-', '--annotations'], dir).code, 3);
});
