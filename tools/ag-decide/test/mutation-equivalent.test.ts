// Probably equivalent mutants: counted in no denominator only with their evidence, and shown
// to the reviewer; a survivor the check told apart still counts. Each with its forged twin.
import test from 'ava';
import { DEFAULT_POLICY, type Mutant, type MutationArtefact } from '@adversary-gate/schemas';
import { findings, mutationReasons } from '../src/index.js';
import { mutationProblem } from '../src/consistency/mutation.js';
import { goodMutation } from './helpers/golden.js';

const EQUIVALENT = {
  verdict: 'probably_equivalent',
  recorded_calls: 6,
  inputs: 26,
  note: 'same outcome on every input: 6 recorded calls, 20 neighbours',
} as const;
const DISTINGUISHED = {
  verdict: 'distinguished',
  recorded_calls: 3,
  inputs: 43,
  note: 'a neighbour input differs: clamp(10, 5) gives value 10; the mutant gives value 5',
} as const;

const mk = (id: string, line: number, status: Mutant['status'], equivalence?: Mutant['equivalence']): Mutant => ({
  id,
  file: 'src/a.py',
  line,
  column: 1,
  operator: 'ConditionalExpression',
  original: 'getattr(x, "__reversed__", None)',
  replacement: 'False',
  status,
  killed_by: null,
  function: 'last',
  ...(equivalence !== undefined ? { equivalence } : {}),
});

/** An artefact over these mutants with counts, strength and by_file as ag-mutate writes them. */
function artefact(mutants: Mutant[]): MutationArtefact {
  const counts: MutationArtefact['counts'] = { killed: 0, survived: 0, timeout: 0, stillborn: 0, no_coverage: 0 };
  for (const m of mutants)
    if (m.status === 'equivalent') counts.equivalent = (counts.equivalent ?? 0) + 1;
    else counts[m.status]++;
  const d = counts.killed + counts.timeout + counts.survived + counts.no_coverage;
  const strength = d === 0 ? null : (counts.killed + counts.timeout) / d;
  return {
    ...(goodMutation() as MutationArtefact),
    mutants,
    counts,
    suite_strength: strength,
    by_file: [
      {
        file: 'src/a.py',
        suite_strength: strength,
        counts,
        functions: [{ name: 'last', suite_strength: strength, counts }],
      },
    ],
  };
}

const lines = new Map([['src/a.py', new Set([1, 2, 3, 4, 5])]]);
const codes = (m: MutationArtefact) => mutationReasons(m, DEFAULT_POLICY).reasons.map((r) => r.code);

test('equivalent survivors with their evidence count in no denominator: an honest fast-path fix clears the floor', (t) => {
  const m = artefact([
    mk('k1', 1, 'killed'),
    mk('k2', 2, 'killed'),
    mk('e1', 3, 'equivalent', EQUIVALENT),
    mk('e2', 4, 'equivalent', EQUIVALENT),
  ]);
  t.is(m.suite_strength, 1);
  t.is(mutationProblem(m, lines, lines), null);
  t.deepEqual(codes(m), []);
  // The reviewer still sees each one, with its evidence.
  const shown = findings({ mutation: m }).filter((f) => f.title === 'Mutant probably equivalent');
  t.is(shown.length, 2);
  t.regex(shown[0]!.message, /not counted: same outcome on every input/);
});

test('control: a survivor the check told apart still counts and holds below the floor', (t) => {
  const m = artefact([mk('k1', 1, 'killed'), mk('s1', 3, 'survived', DISTINGUISHED), mk('s2', 4, 'survived')]);
  t.is(mutationProblem(m, lines, lines), null);
  t.deepEqual(codes(m), ['STRENGTH_BELOW_FLOOR']);
  t.true(findings({ mutation: m }).some((f) => f.title === 'Mutant survived'));
});

test('an equivalent status is bound to its evidence: forged, unexplained or misplaced, the artefact is refused', (t) => {
  // Status equivalent without the check's word for it.
  const bare = artefact([mk('k1', 1, 'killed'), mk('e1', 3, 'equivalent')]);
  t.regex(mutationProblem(bare, lines, lines)!, /e1 is equivalent but its differential check says nothing/);
  // Status equivalent while the check told it apart.
  const contradicted = artefact([mk('k1', 1, 'killed'), mk('e1', 3, 'equivalent', DISTINGUISHED)]);
  t.regex(mutationProblem(contradicted, lines, lines)!, /says distinguished/);
  // The check's "equivalent" on a mutant still counted as a survivor is as inconsistent.
  const uncounted = artefact([mk('k1', 1, 'killed'), mk('s1', 3, 'survived', EQUIVALENT)]);
  t.regex(
    mutationProblem(uncounted, lines, lines)!,
    /s1 is survived but its differential check says probably_equivalent/,
  );
  // Only survivors are checked.
  const killed = artefact([mk('k1', 1, 'killed', DISTINGUISHED), mk('k2', 2, 'killed')]);
  t.regex(mutationProblem(killed, lines, lines)!, /only survivors are checked/);
  // The count must be the mutants' own, and absent when none are.
  const hidden = artefact([mk('k1', 1, 'killed'), mk('e1', 3, 'equivalent', EQUIVALENT)]);
  hidden.counts = { ...hidden.counts, equivalent: 2 };
  t.regex(mutationProblem(hidden, lines, lines)!, /counts.equivalent is 2 but 1 mutants/);
  const zero = artefact([mk('k1', 1, 'killed')]);
  zero.counts = { ...zero.counts, equivalent: 0 };
  t.regex(mutationProblem(zero, lines, lines)!, /counts.equivalent is 0/);
});
