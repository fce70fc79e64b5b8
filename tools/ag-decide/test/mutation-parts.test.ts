// Strength per part of the patch, changed lines no mutant measured, and the words for
// ag-mutate's own red baseline: each rule with the cheat it answers and an honest control.
import test from 'ava';
import { DEFAULT_POLICY, type MutationArtefact, type Policy } from '@adversary-gate/schemas';
import { mutationReasons } from '../src/index.js';
import { mutationProblem } from '../src/consistency/mutation.js';
import { goodMutation } from './helpers/golden.js';

type Status = 'killed' | 'survived' | 'stillborn' | 'no_coverage' | 'timeout';
const mk = (id: string, file: string, line: number, status: Status, fn: string | null) => ({
  id,
  file,
  line,
  column: 1,
  operator: 'X',
  original: 'a',
  replacement: 'b',
  status,
  killed_by: null,
  function: fn,
});
const zero = () => ({ killed: 0, survived: 0, timeout: 0, stillborn: 0, no_coverage: 0 });

/** A measured artefact over these mutants, with by_file tallied from them (as ag-mutate writes it). */
function artefact(mutants: ReturnType<typeof mk>[], extra: Partial<MutationArtefact> = {}): MutationArtefact {
  const counts = zero();
  const files = new Map<string, { counts: ReturnType<typeof zero>; fns: Map<string, ReturnType<typeof zero>> }>();
  for (const m of mutants) {
    counts[m.status]++;
    const f = files.get(m.file) ?? { counts: zero(), fns: new Map() };
    files.set(m.file, f);
    f.counts[m.status]++;
    if (m.function !== null) {
      const c = f.fns.get(m.function) ?? zero();
      f.fns.set(m.function, c);
      c[m.status]++;
    }
  }
  const strength = (c: ReturnType<typeof zero>) => {
    const d = c.killed + c.timeout + c.survived + c.no_coverage;
    return d === 0 ? null : (c.killed + c.timeout) / d;
  };
  return {
    ...(goodMutation() as MutationArtefact),
    mutants,
    counts,
    suite_strength: strength(counts),
    by_file: [...files].map(([file, f]) => ({
      file,
      suite_strength: strength(f.counts),
      counts: f.counts,
      functions: [...f.fns].map(([name, c]) => ({ name, suite_strength: strength(c), counts: c })),
    })),
    ...extra,
  };
}

const codes = (m: MutationArtefact, policy: Policy = DEFAULT_POLICY) =>
  mutationReasons(m, policy).reasons.map((r) => `${r.code}: ${r.message}`);

const many = (file: string, fn: string, from: number, n: number, status: Status) =>
  Array.from({ length: n }, (_, i) => mk(`${file}${fn}${from + i}`, file, from + i, status, fn));

test('a weak file cannot hide behind a well-tested neighbour: the total clears the floor, the file does not', (t) => {
  // 8 of 9 killed in total (0.89 ≥ 0.75), but src/weak.js is 1 of 2.
  const m = artefact([
    ...many('src/strong.js', 'strong', 1, 7, 'killed'),
    mk('w1', 'src/weak.js', 1, 'killed', 'weak'),
    mk('w2', 'src/weak.js', 2, 'survived', 'weak'),
  ]);
  const got = codes(m);
  t.is(got.length, 1);
  t.regex(
    got[0]!,
    /^STRENGTH_BELOW_FLOOR: part of the patch is below the floor 0\.75: src\/weak\.js 0\.5000 \(1 killed, 1 survived\)$/,
  );
});

test('a weak function beside a strong one in the same file is named with its file', (t) => {
  const m = artefact([
    ...many('src/a.js', 'good', 1, 7, 'killed'),
    mk('b1', 'src/a.js', 20, 'survived', 'bad'),
    mk('b2', 'src/a.js', 21, 'killed', 'bad'),
  ]);
  t.deepEqual(codes(m), [
    'STRENGTH_BELOW_FLOOR: part of the patch is below the floor 0.75: src/a.js bad() 0.5000 (1 killed, 1 survived)',
  ]);
});

test('honest control: every part above the floor gives no reason; a single weak file is said once (by the total)', (t) => {
  t.deepEqual(
    codes(
      artefact([
        ...many('src/a.js', 'f', 1, 4, 'killed'),
        ...many('src/b.js', 'g', 1, 4, 'killed'),
        mk('s', 'src/b.js', 9, 'survived', 'g'),
      ]),
    ),
    [],
  );
  const one = codes(artefact([mk('a', 'src/a.js', 1, 'killed', 'f'), mk('b', 'src/a.js', 2, 'survived', 'f')]));
  t.is(one.length, 1);
  t.regex(one[0]!, /^STRENGTH_BELOW_FLOOR: suite strength 0\.5000/);
});

test('changed lines no mutant measured hold as STRENGTH_UNVERIFIED, naming them', (t) => {
  const m = artefact(many('src/a.js', 'f', 1, 4, 'killed'), {
    unmutated_lines: [{ file: 'src/a.js', lines: [7, 9] }],
    executable_line_count: 6,
  });
  t.deepEqual(codes(m), [
    'STRENGTH_UNVERIFIED: 2 changed lines no mutant measured (the strength says nothing of them): src/a.js:7, 9',
  ]);
});

test('honest control: no unmutated line gives no reason; a policy share above the measured one accepts them', (t) => {
  t.deepEqual(
    codes(artefact(many('src/a.js', 'f', 1, 4, 'killed'), { unmutated_lines: [], executable_line_count: 4 })),
    [],
  );
  const m = artefact(many('src/a.js', 'f', 1, 4, 'killed'), {
    unmutated_lines: [{ file: 'src/a.js', lines: [7] }],
    executable_line_count: 5,
  });
  t.deepEqual(codes(m, { ...DEFAULT_POLICY, mutation: { unmutated_line_share: 0.2 } } as Policy), []);
  t.is(codes(m, { ...DEFAULT_POLICY, mutation: { unmutated_line_share: 0.19 } } as Policy).length, 1);
});

test("baseline_red says it is ag-mutate's own unmutated run of the patch", (t) => {
  const m = {
    ...(goodMutation() as MutationArtefact),
    suite_strength: null,
    reason: 'baseline_red' as const,
    mutants: [],
    counts: zero(),
  };
  t.deepEqual(codes(m), [
    "STRENGTH_NOT_MEASURED: suite strength was not measured (baseline_red: ag-mutate's own run of the unmutated patch tree failed, so no mutant ran (see baseline_runs in mutation.json))",
  ]);
});

test('consistency: by_file must be the mutants own tally, unmutated lines must be changed lines without a mutant', (t) => {
  const lines = new Map([['src/a.js', new Set([1, 2, 3, 4, 7])]]);
  const ok = artefact(many('src/a.js', 'f', 1, 4, 'killed'), {
    unmutated_lines: [{ file: 'src/a.js', lines: [7] }],
    executable_line_count: 5,
  });
  t.is(mutationProblem(ok, lines, lines), null);
  // A forged by_file: the weak file's survivor moved out of the tally.
  const forged = artefact([mk('a', 'src/a.js', 1, 'killed', 'f'), mk('b', 'src/a.js', 2, 'survived', 'f')]);
  forged.by_file![0]!.counts = { ...forged.by_file![0]!.counts, survived: 0 };
  t.regex(mutationProblem(forged, lines, lines)!, /by_file counts for src\/a\.js/);
  const dropped = artefact([mk('a', 'src/a.js', 1, 'killed', 'f')]);
  dropped.by_file = [];
  t.regex(mutationProblem(dropped, lines, lines)!, /leaves out/);
  t.regex(
    mutationProblem({ ...ok, unmutated_lines: [{ file: 'src/a.js', lines: [2] }] }, lines, lines)!,
    /has a mutant/,
  );
  t.regex(
    mutationProblem({ ...ok, unmutated_lines: [{ file: 'src/a.js', lines: [99] }] }, lines, lines)!,
    /not a changed source line/,
  );
});

test('dead_code_only is consistent only where the diff adds no source line and no mutant is listed', (t) => {
  const dead = artefact([], { suite_strength: null, reason: 'dead_code_only' });
  const removedOnly = new Map<string, ReadonlySet<number>>([['src/slug.js', new Set()]]);
  t.is(mutationProblem(dead, removedOnly, removedOnly), null);
  const added = new Map<string, ReadonlySet<number>>([['src/slug.js', new Set([3])]]);
  t.regex(mutationProblem(dead, added, added)!, /reason dead_code_only, yet the diff adds source lines/);
});
