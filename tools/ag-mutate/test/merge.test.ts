import test from 'ava';
import type { Mutant, MutationArtefact } from '@adversary-gate/schemas';
import { buildArtefact } from '../src/artefact.js';
import { mergeShards, type ShardFile } from '../src/merge.js';

const SHA = `sha256:${'1'.repeat(64)}` as const;

function mutant(id: string, status: Mutant['status'], line: number): Mutant {
  return {
    id,
    file: 'a.js',
    line,
    column: 1,
    operator: 'op',
    original: 'a',
    replacement: 'b',
    status,
    killed_by: null,
  };
}

function shard(
  index: number,
  count: number,
  mutants: Mutant[],
  over: Partial<Parameters<typeof buildArtefact>[0]> = {},
): ShardFile {
  const artefact: MutationArtefact = buildArtefact({
    diffSha256: SHA,
    inputs: [{ role: 'diff', path: 'changes.diff', sha256: SHA }],
    faults: [],
    foreign: [],
    deleted: [],
    mutants,
    reason: null,
    budget: 10,
    shard: { index, count },
    engine: 'ag-mutate',
    ...over,
  });
  return { file: `s${index}.json`, sha256: SHA, artefact };
}

test('shards merge into one scored artefact with shard null', (t) => {
  const m = mergeShards([shard(2, 2, [mutant('b', 'survived', 2)]), shard(1, 2, [mutant('a', 'killed', 1)])]);
  t.is(m.shard, null);
  t.deepEqual(
    m.mutants.map((x) => x.id),
    ['a', 'b'],
  );
  t.is(m.suite_strength, 0.5);
  t.deepEqual(
    m.inputs.map((i) => i.role),
    ['diff', 'shard', 'shard'],
  );
});

test('a shard with no mutants of its own does not sink the merge', (t) => {
  const m = mergeShards([shard(1, 2, [mutant('a', 'killed', 1)]), shard(2, 2, [])]);
  t.is(m.suite_strength, 1);
  t.is(m.reason, null);
});

test('merge refuses a missing shard, a duplicate, another subject, a whole run and overlapping mutants', (t) => {
  t.throws(() => mergeShards([shard(1, 3, []), shard(3, 3, [])]), { message: /2\/3 missing/ });
  t.throws(() => mergeShards([shard(1, 2, []), shard(1, 2, []), shard(2, 2, [])]), {
    message: /duplicates shard 1\/2/,
  });
  t.throws(() => mergeShards([shard(1, 2, []), shard(2, 2, [], { diffSha256: `sha256:${'2'.repeat(64)}` })]), {
    message: /another diff/,
  });
  t.throws(() => mergeShards([shard(1, 2, []), shard(2, 3, [])]), { message: /one of 2/ });
  t.throws(() => mergeShards([{ ...shard(1, 1, []), artefact: { ...shard(1, 1, []).artefact, shard: null } }]), {
    message: /whole run/,
  });
  t.throws(() => mergeShards([shard(1, 2, [mutant('a', 'killed', 1)]), shard(2, 2, [mutant('a', 'killed', 1)])]), {
    message: /also appears/,
  });
  t.throws(() => mergeShards([shard(1, 2, []), shard(2, 2, [], { budget: 3 })]), { message: /other options/ });
  t.throws(() => mergeShards([]), { message: /no shard/ });
});

test('a red baseline in any shard makes the merged strength null with that reason', (t) => {
  const m = mergeShards([shard(1, 2, [mutant('a', 'killed', 1)]), shard(2, 2, [], { reason: 'baseline_red' })]);
  t.is(m.suite_strength, null);
  t.is(m.reason, 'baseline_red');
  t.deepEqual(m.mutants, []);
});

test('merge keeps the sandbox and the test selection: another sandbox or runner is refused, a shard that fell back to the whole command makes the merge say so', (t) => {
  const perFile = { runner: 'node-test', mode: 'per-test-file' } as const;
  const whole = { runner: 'node-test', mode: 'whole-command' } as const;
  const m = mergeShards([
    shard(1, 2, [mutant('a', 'killed', 1)], { sandbox: 'bwrap', testSelection: perFile }),
    shard(2, 2, [mutant('b', 'killed', 2)], { sandbox: 'bwrap', testSelection: whole }),
  ]);
  t.is(m.sandbox, 'bwrap');
  t.deepEqual(m.test_selection, whole);
  t.throws(() => mergeShards([shard(1, 2, [], { sandbox: 'bwrap' }), shard(2, 2, [], { sandbox: 'none' })]), {
    message: /--sandbox none/,
  });
  t.throws(
    () =>
      mergeShards([
        shard(1, 2, [], { testSelection: perFile }),
        shard(2, 2, [], { testSelection: { runner: 'pytest', mode: 'per-test' } }),
      ]),
    { message: /ran the tests with pytest/ },
  );
});

test('canaries: each shard keeps its own; one killed in any shard makes the merge canary_killed, mutants kept', (t) => {
  const canary = (id: string, status: 'survived' | 'killed') => ({
    id,
    file: 'a.js',
    line: 1,
    column: 1,
    function: 'f',
    original: '',
    replacement: 'void "ag_00000001"; ',
    status,
    killed_by: status === 'killed' ? 'test/a.test.js' : null,
  });
  const ok = mergeShards([
    shard(1, 2, [mutant('a', 'killed', 1)], { canaries: [canary('c1', 'survived')], canarySeed: 1 }),
    shard(2, 2, [mutant('b', 'survived', 2)], { canaries: [canary('c2', 'survived')], canarySeed: 2 }),
  ]);
  t.is(ok.suite_strength, 0.5);
  t.deepEqual(
    ok.canaries?.map((c) => c.id),
    ['c1', 'c2'],
  );
  t.is(ok.canary_seed, undefined);
  const killed = mergeShards([
    shard(1, 2, [mutant('a', 'killed', 1)], { canaries: [canary('c1', 'survived')], canarySeed: 1 }),
    shard(2, 2, [mutant('b', 'killed', 2)], {
      canaries: [canary('c2', 'killed')],
      canarySeed: 2,
      reason: 'canary_killed',
    }),
  ]);
  t.is(killed.reason, 'canary_killed');
  t.is(killed.suite_strength, null);
  t.is(killed.mutants.length, 2);
  t.is(killed.canaries?.find((c) => c.id === 'c2')?.status, 'killed');
});

test('reverts: each shard judged every N-th, the merge lists them all (deletion-only too); one in two shards is refused', (t) => {
  const revert = (id: string, line: number): NonNullable<MutationArtefact['reverts']>[number] => ({
    id,
    file: 'a.js',
    hunk: `@@ -${line} +${line - 1},0 @@`,
    old_start: line,
    old_lines: 1,
    new_start: line,
    new_lines: 0,
    original: '',
    replacement: 'x();\n',
    status: 'killed',
    killed_by: null,
  });
  const m = mergeShards([
    shard(1, 2, [mutant('a', 'killed', 1)], { reverts: [revert('r1', 3)] }),
    shard(2, 2, [], { reverts: [revert('r2', 5)] }),
  ]);
  t.deepEqual(
    m.reverts?.map((r) => r.id),
    ['r1', 'r2'],
  );
  const deletion = mergeShards([
    shard(1, 2, [], { reason: 'deletion_only', reverts: [revert('r1', 3)] }),
    shard(2, 2, [], { reason: 'deletion_only', reverts: [] }),
  ]);
  t.is(deletion.reason, 'deletion_only');
  t.deepEqual(
    deletion.reverts?.map((r) => r.id),
    ['r1'],
  );
  t.throws(
    () =>
      mergeShards([shard(1, 2, [], { reverts: [revert('r1', 3)] }), shard(2, 2, [], { reverts: [revert('r1', 3)] })]),
    { message: /r1 also appears in another shard/ },
  );
});
