// What the three pipelines pass to the tools: every path as one argument (a space and
// non-ASCII in the repository's path, in --out, in TMPDIR and in the bin directory), ag-oracle
// before any tool that runs the patch's code, the timeout to ag-run and ag-mutate, and the
// policy only when there is one. Each run is the real pipeline with the real binaries behind
// logging wrappers, and the verdict is asserted too.
import test from 'ava';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  codes,
  demoRepoAt,
  flag,
  JS,
  loggingBins,
  PIPELINES,
  runPipeline,
  scratch,
  verdictAt,
  type Call,
} from './pipeline-kit.js';

const OUT = "evidence ä b/out 'dir'";
const ORDER = ['ag-oracle', 'ag-run', 'ag-diffcov', 'ag-mutate', 'ag-decide', 'ag-decide'];
/** The calls that judge under a policy: all but ag-run and `ag-decide check`. */
const judging = (calls: Call[]) => calls.filter((c) => c.tool !== 'ag-run' && c.args[0] !== 'check');

for (const pipeline of PIPELINES) {
  test(`${pipeline}: a space and non-ASCII in the repository path, --out (and a quote), TMPDIR and the bin directory; oracle first, the timeout to ag-mutate, ACCEPT`, async (t) => {
    const base = scratch(t, 'ag e2e ü ');
    const repo = demoRepoAt(path.join(base, 'repo dir é'), 'clean');
    const bins = loggingBins(path.join(base, 'bins ö'));
    const r = await runPipeline(pipeline, repo, OUT, { ...JS, timeout: '47', binDir: bins.dir }, { TMPDIR: base });
    const v = verdictAt(path.join(repo, OUT));
    t.is(v.verdict, 'ACCEPT', `${r.stderr}\n${JSON.stringify(v.reasons)}`);
    t.is(r.code, 0, r.stderr);
    t.notRegex(r.stderr, /oracle\.json changed/);

    const calls = bins.calls();
    t.deepEqual(
      calls.map((c) => c.tool),
      ORDER,
      'ag-oracle first, before any test code',
    );
    const policy = path.join(repo, OUT, 'baseline', 'adversary-gate.json');
    for (const c of judging(calls))
      t.is(path.resolve(repo, flag(c.args, '--policy') ?? ''), policy, `${c.tool}'s --policy`);
    for (const tool of ['ag-run', 'ag-mutate'])
      t.is(flag(calls.find((c) => c.tool === tool)!.args, '--timeout'), '47', `${tool}'s --timeout`);
    // ag-run's full-suite run on the patch is bound to ag-mutate's work: it stands for the second baseline run.
    const mutate = calls.find((c) => c.tool === 'ag-mutate')!.args;
    t.is(path.resolve(repo, flag(mutate, '--run') ?? ''), path.join(repo, OUT, 'run.json'), "ag-mutate's --run");
    const mutation = JSON.parse(readFileSync(path.join(repo, OUT, 'mutation.json'), 'utf8')) as {
      second_green_run?: unknown;
      baseline_runs?: { kind: string }[];
    };
    t.deepEqual(mutation.second_green_run, { source: 'run_json', note: null });
    t.deepEqual(
      mutation.baseline_runs?.map((r) => r.kind),
      ['recorded'],
    );
    const diffcov = calls.find((c) => c.tool === 'ag-diffcov')!.args;
    t.true(
      existsSync(path.resolve(repo, flag(diffcov, '--coverage') ?? '')),
      'the coverage report reached ag-diffcov whole',
    );
  });

  test(`${pipeline}: a repository with no policy file reaches ACCEPT on an honest patch, and no tool gets --policy`, async (t) => {
    const base = scratch(t, 'ag-e2e-nopolicy-');
    const repo = demoRepoAt(path.join(base, 'repo'), 'clean', { baseFiles: { 'adversary-gate.json': null } });
    const bins = loggingBins(path.join(base, 'bins'));
    const r = await runPipeline(pipeline, repo, 'ag', { ...JS, binDir: bins.dir });
    const v = verdictAt(path.join(repo, 'ag'));
    t.false(existsSync(path.join(repo, 'ag', 'baseline', 'adversary-gate.json')));
    t.deepEqual(
      bins.calls().map((c) => c.tool),
      ORDER,
    );
    for (const c of bins.calls()) t.is(flag(c.args, '--policy'), undefined, `${c.tool} got no --policy`);
    t.is(v.verdict, 'ACCEPT', `${r.stderr}\n${JSON.stringify(v.reasons)}`);
    t.is(r.code, 0, r.stderr);
  });

  test(`${pipeline}: a policy asked for by name that does not exist stops the pipeline before it writes anything`, async (t) => {
    const base = scratch(t, 'ag-e2e-policy-');
    const repo = demoRepoAt(path.join(base, 'repo'), 'clean');
    const missing = path.join(base, 'no such policy.json');
    const r = await runPipeline(pipeline, repo, 'ag', { ...JS, policy: missing });
    t.not(r.code, 0);
    if (pipeline !== 'gate.mk') t.is(r.code, 3, r.stderr); // make's own exit is 2 for any failed recipe
    t.true(r.stderr.includes(`names no file: ${missing}`), r.stderr);
    t.false(existsSync(path.join(repo, 'ag')), 'nothing written');
  });
}

test('gate.sh: a patch whose tests hang ends within the timeout in every tool (ag-mutate too), and the hang rejects', async (t) => {
  const base = scratch(t, 'ag-e2e-hang-');
  const hang =
    "import { test } from 'node:test';\ntest('waits for ever', () => new Promise(() => setInterval(() => {}, 1000)));\n";
  const repo = demoRepoAt(path.join(base, 'repo'), 'clean', { patchFiles: { 'test/hang.test.js': hang } });
  const bins = loggingBins(path.join(base, 'bins'));
  // Without --timeout ag-mutate would wait 600 s on its baseline run, past run()'s 240 s limit.
  const r = await runPipeline('gate.sh', repo, 'ag', {
    ...JS,
    coverage: '',
    rounds: '1',
    // The hang rule needs the baseline to pass within half the limit, on a loaded machine too.
    timeout: '8',
    binDir: bins.dir,
  });
  t.not(r.code, null, 'the pipeline ended on its own');
  t.is(flag(bins.calls().find((c) => c.tool === 'ag-mutate')!.args, '--timeout'), '8');
  const v = verdictAt(path.join(repo, 'ag'));
  // The baseline passed the command within the limit and the patch hangs in every round:
  // direct evidence against the patch (ag-run's class `hang`), whatever the other tools say.
  t.is(v.verdict, 'REJECT', JSON.stringify(v.reasons));
  t.is(r.code, 1, r.stderr);
  t.true(
    v.reasons.some((reason) => reason.code === 'CLAIM_FAILED' && (reason.message ?? '').includes('(hang)')),
    JSON.stringify(v.reasons),
  );
  t.true(existsSync(path.join(repo, 'ag', 'mutation.json')), 'ag-mutate wrote its evidence');
  t.deepEqual(
    v.reasons.filter((reason) => reason.evidence === 'mutation' && reason.code.startsWith('EVIDENCE_')),
    [],
    'and it was read',
  );
  t.true(codes(v).includes('STRENGTH_NOT_MEASURED'), JSON.stringify(v.reasons));
});
