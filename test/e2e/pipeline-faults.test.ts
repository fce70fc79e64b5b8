// A step the pipeline cannot do is named in the verdict: every pipeline passes what failed to
// ag-decide (--pipeline-fault), so the HOLD says which step and what it printed, instead of
// only that the run and mutation evidence are missing. The same repository with a working
// install is the control (pipeline-args.test.ts ACCEPTs it).
import test from 'ava';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { commitPair } from '../../tools/ag-core/test/support/git-repo.js';
import { demoRepoAt, JS, runPipeline, scratch, verdictAt, ZERO_CONFIG } from './pipeline-kit.js';

const FAILING_INSTALL = 'echo "npm ERR! 404 left-pad@9.9.9 is not in this registry" >&2; exit 7';

for (const pipeline of ZERO_CONFIG) {
  test(`${pipeline}: an install that fails is a HOLD whose PIPELINE_FAULT gives the install's exit and last lines; no test runs`, async (t) => {
    const base = scratch(t, 'ag-e2e-install-');
    const repo = demoRepoAt(path.join(base, 'repo'), 'clean');
    const r = await runPipeline(pipeline, repo, 'ag', { ...JS, install: FAILING_INSTALL });
    const out = path.join(repo, 'ag');
    const v = verdictAt(out);
    t.is(v.verdict, 'HOLD', r.stderr);
    t.is(r.code, 2, r.stderr);
    const faults = v.reasons.filter((x) => x.code === 'PIPELINE_FAULT');
    t.is(faults.length, 1, JSON.stringify(v.reasons));
    t.is(faults[0]?.evidence, 'input');
    t.regex(
      faults[0]?.message ?? '',
      /^the pipeline: the install of the baseline \(.*exit 7\) exited 7, so no test ran: npm ERR! 404 left-pad@9\.9\.9 is not in this registry/,
    );
    t.false(existsSync(path.join(out, 'run.json')), 'no test ran');
    t.regex(readFileSync(path.join(out, 'pipeline-faults.txt'), 'utf8'), /^the install of the baseline .* exited 7/);
    t.regex(readFileSync(path.join(out, 'verdict.md'), 'utf8'), /left-pad@9\.9\.9/);
  });

  test(`${pipeline}: a checkout whose runner cannot be found is a HOLD whose PIPELINE_FAULT says so`, async (t) => {
    const repo = path.join(scratch(t, 'ag-e2e-norunner-'), 'repo');
    commitPair(
      repo,
      { 'README.md': '# x\n', 'src/a.js': 'export const a = 1;\n' },
      { 'src/a.js': 'export const a = 2;\n' },
    );
    // An install that would fail: with no test command it is not even made (no second fault).
    const r = await runPipeline(pipeline, repo, 'ag', { test: '', install: FAILING_INSTALL });
    const v = verdictAt(path.join(repo, 'ag'));
    t.is(v.verdict, 'HOLD', r.stderr);
    t.deepEqual(
      v.reasons.filter((x) => x.code === 'PIPELINE_FAULT').map((x) => x.message),
      [
        'the pipeline: no test command, so no test ran: no package.json and no pytest project: the test runner could not be found out',
      ],
    );
  });
}
