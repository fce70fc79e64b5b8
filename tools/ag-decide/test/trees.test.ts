import test from 'ava';
import { decide } from '../src/index.js';
import { codes, DIFF, defaultPolicy, evidenceFile, golden } from './helpers/golden.js';

const BASE = 'a'.repeat(40);
const PATCH = 'b'.repeat(40);

/** The golden set with each measuring kind bound to these trees (diffcov measures reports, not trees). */
function bound(baseline: string, patch: string) {
  const g = golden();
  for (const kind of ['run', 'oracle'] as const)
    g[kind]['subject'] = { ...g[kind]['subject'], baseline_tree: baseline, patch_tree: patch };
  g.mutation['subject'] = { ...g.mutation['subject'], patch_tree: patch };
  return g;
}

const decideTrees = (set: Record<string, Record<string, unknown>>, trees?: { baseline?: string; patch?: string }) =>
  decide({
    diff: DIFF,
    evidence: Object.entries(set).map(([k, v]) => evidenceFile(`${k}.json`, v)),
    policy: defaultPolicy(),
    tool: { name: 'ag-decide', version: '0.1.0' },
    ...(trees === undefined ? {} : { trees }),
  });

test('evidence bound to the trees the trusted side names is read, and the verdict names them too', (t) => {
  const v = decideTrees(bound(BASE, PATCH), { baseline: BASE, patch: PATCH });
  t.is(v.verdict, 'ACCEPT', JSON.stringify(v.reasons));
  t.deepEqual(v.subject, { diff_sha256: DIFF.sha256, baseline_tree: BASE, patch_tree: PATCH });
});

test('a run measured with the baseline given as the patch is stale, never read', (t) => {
  const g = bound(BASE, PATCH);
  g.run['subject'] = { ...g.run['subject'], patch_tree: BASE };
  const v = decideTrees(g, { baseline: BASE, patch: PATCH });
  t.is(v.verdict, 'HOLD');
  t.deepEqual(codes(v), ['EVIDENCE_STALE']);
  t.regex(v.reasons[0]?.message ?? '', /run\.json: measured the patch tree a{40}, not b{40}/);
  t.deepEqual(
    v.evidence.map((e) => e.status),
    ['stale', 'read', 'read', 'read'],
  );
});

test('evidence that names no tree is stale once the trusted side names the trees; without them it reads as before', (t) => {
  const unbound = golden();
  const v = decideTrees(unbound, { baseline: BASE, patch: PATCH });
  t.is(v.verdict, 'HOLD');
  t.deepEqual([...new Set(codes(v))], ['EVIDENCE_STALE']);
  t.is(v.reasons.length, 3, 'run, mutation and oracle; diffcov measures reports');
  t.is(decideTrees(unbound).verdict, 'ACCEPT');
});

test('only the patch tree named: the baseline side is not checked', (t) => {
  const v = decideTrees(bound('c'.repeat(40), PATCH), { patch: PATCH });
  t.is(v.verdict, 'ACCEPT', JSON.stringify(v.reasons));
});
