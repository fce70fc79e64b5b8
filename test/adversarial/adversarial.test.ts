// The adversarial suite: every case is a tiny git repository (a baseline commit and an agent
// commit) judged by the whole pipeline (gate.sh: all five tools, real runners, real
// coverage), asserting the verdict and a reason code. Controls are clean patches that must
// ACCEPT. Cases run concurrently under a cap (AG_ADV_JOBS, default 2). Cases that need the
// sandbox run under bwrap when it works; when it does not they are NOT RUN (logged and
// counted), and fail. The last hook logs the summary.
import test from 'ava';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import os from 'node:os';
import type { AdversarialCase, CaseContext } from './case.js';
import { CASES, PENDING, SAMPLE, SECTIONS } from './cases/index.js';
import { PROJECT_ENV, killByNonce, limiter, probeBwrap, runGate, type GateResult } from './gate.js';
import { buildCaseRepo } from './repo.js';
import { summarize, type Outcome } from './summary.js';

const EXIT = { ACCEPT: 0, REJECT: 1, HOLD: 2 } as const;
const jobs = Math.max(1, Number(process.env.AG_ADV_JOBS ?? 2) || 2);
const slot = limiter(jobs);
// AG_ADV_SET=all (npm run test:adversarial) runs the whole catalogue, AG_ADV_SET=<section> one
// section (cases/index.ts names them); npm test runs the sample (the controls' section, and of
// each other class its first JavaScript and Python control and its first attack). AG_ADV_ONLY=id,id
// runs just those cases of the whole catalogue (while working on them).
const ONLY = process.env.AG_ADV_ONLY?.split(',').filter((id) => id !== '');
const SET = process.env.AG_ADV_SET ?? '';
if (SET !== '' && SET !== 'all' && SECTIONS[SET] === undefined)
  throw new Error(`AG_ADV_SET: no section ${JSON.stringify(SET)} (all, ${Object.keys(SECTIONS).join(', ')})`);
const WHOLE = SET === 'all' || ONLY !== undefined;
const SELECTED = (
  process.env.AG_ADV_PENDING === '1' ? PENDING : WHOLE ? CASES : SET !== '' ? SECTIONS[SET]!.flat() : SAMPLE
).filter((c) => ONLY === undefined || ONLY.includes(c.id));
const noSandbox = SELECTED.some((c) => c.sandbox) ? probeBwrap() : null;
const outcomes: Outcome[] = [];
const started = Date.now();

// A listener on the host's loopback, for the cases that try to reach the network.
const server = createServer((s) => {
  s.on('error', () => {}); // a client that resets is what some attacks do
  s.end('host\n');
});
const port = await new Promise<number>((resolve) =>
  server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
);
test.after.always(() => server.close());

/** Codes ag-run and ag-oracle give: a REJECT on them does not depend on coverage or mutation. */
const RUN_AND_ORACLE = new Set([
  'CLAIM_FAILED',
  'COLLATERAL_REGRESSION',
  'ORACLE_TOUCHED',
  'FIXTURE_DRIFT',
  'FREEZE_INVALID',
  'TEST_LOST',
  'TEST_SKIPPED',
  'CLAIM_UNVERIFIED',
  'CRITERION_UNPROVEN',
  'BASELINE_RED',
  'TAMPER_SUSPECTED',
  'TEST_FLAKY',
  'TEST_RENAMED',
  'TRUSTED_TEST_FAILED',
]);

/** Codes of ag-mutate's evidence and of ag-diffcov's: all HOLD. */
const STRENGTH = new Set(['STRENGTH_BELOW_FLOOR', 'STRENGTH_UNVERIFIED', 'STRENGTH_NOT_MEASURED']);
const COVERAGE = new Set(['COVERAGE_BELOW_FLOOR', 'COVERAGE_NOT_MEASURED', 'COVERAGE_UNTRUSTED']);

/**
 * A REJECT or HOLD decided by ag-run or ag-oracle stays what it is whatever coverage and
 * mutation say (their codes are all HOLD: they can neither lift a HOLD to ACCEPT nor turn it
 * into a REJECT). Such cases run every tool, but with no coverage command and a mutant budget
 * of 0, which keeps the suite inside the test command's time budget. A HOLD on mutation's
 * codes runs without coverage, one on coverage's codes without mutants. Controls and REJECTs
 * that name a coverage or mutation code run everything. A case's own env overrides all this.
 */
function economy(c: AdversarialCase): Record<string, string> {
  if (c.verdict === 'ACCEPT') return {};
  const codes = [c.code, ...(c.also ?? [])];
  const all = (set: ReadonlySet<string>) => codes.every((x) => x !== null && set.has(x));
  if (all(RUN_AND_ORACLE)) return { AG_COVERAGE_COMMAND: '', AG_MUTATE_MAX: '0' };
  // A HOLD on mutation's codes stays one without coverage (whose codes are HOLDs too), and back.
  if (c.verdict === 'HOLD' && all(STRENGTH)) return { AG_COVERAGE_COMMAND: '' };
  if (c.verdict === 'HOLD' && all(COVERAGE)) return { AG_MUTATE_MAX: '0' };
  return {};
}

async function judge(c: AdversarialCase, ctx: CaseContext): Promise<GateResult> {
  const sandboxEnv: Record<string, string> = c.sandbox ? { AG_SANDBOX: 'bwrap' } : {};
  const env = {
    ...PROJECT_ENV[c.project ?? 'js'],
    ...economy(c),
    ...sandboxEnv,
    ...(typeof c.env === 'function' ? c.env(ctx) : (c.env ?? {})),
  };
  if (c.pipeline) return c.pipeline(ctx, env);
  return runGate(ctx.repo, env);
}

for (const c of SELECTED) {
  const title = `${c.id}: ${c.what} → ${c.verdict}${c.code ? ` ${c.code}` : ''}${c.sandbox ? ' (bwrap)' : ''}`;
  test(title, async (t) => {
    if (c.sandbox && noSandbox !== null) {
      outcomes.push({
        id: c.id,
        control: c.control ?? false,
        got: null,
        expected: c.verdict,
        passed: false,
        why: `not run: ${noSandbox}`,
      });
      // A case that cannot run is never a pass: it fails, naming why (bwrap is a stated requirement).
      t.fail(`not run: needs the sandbox: ${noSandbox}`);
      return;
    }
    await slot(async () => {
      const hostDir = mkdtempSync(`${os.tmpdir()}/ag-adv-host-`);
      const nonce = randomBytes(8).toString('hex');
      const ctx0 = { nonce, hostDir, port, repo: '' };
      const base = typeof c.base === 'function' ? c.base(ctx0) : (c.base ?? {});
      const patch = typeof c.patch === 'function' ? c.patch(ctx0) : c.patch;
      const repo = buildCaseRepo(c.project ?? 'js', base, patch, `agent: ${c.what}`);
      t.teardown(() => {
        killByNonce(nonce); // whatever the attack left running
        // AG_ADV_KEEP=1 keeps the case's repository and its evidence (under ag/) to look into
        if (process.env.AG_ADV_KEEP === '1') return t.log(`kept ${repo}`);
        rmSync(repo, { recursive: true, force: true });
        rmSync(hostDir, { recursive: true, force: true });
      });
      const ctx = { ...ctx0, repo };
      const r = await judge(c, ctx);
      const got = r.verdict?.verdict ?? 'none';
      const codes = r.verdict?.reasons.map((x) => x.code) ?? [];
      const problem = c.check?.(ctx, r) ?? null;
      const codeOk =
        (c.code === null ? codes.length === 0 : codes.includes(c.code)) &&
        (c.also ?? []).every((x) => codes.includes(x));
      const passed = got === c.verdict && codeOk && r.code === EXIT[c.verdict] && problem === null;
      outcomes.push({ id: c.id, control: c.control ?? false, got, expected: c.verdict, passed });
      const detail = `${r.stderr.trim().split('\n').slice(-3).join(' | ')}\nreasons: ${JSON.stringify(r.verdict?.reasons.map((x) => `${x.code}: ${x.message}`) ?? null)}`;
      t.is(got, c.verdict, detail);
      t.true(codeOk, `expected ${[c.code ?? 'no reason', ...(c.also ?? [])].join(' + ')}; ${detail}`);
      t.is(r.code, EXIT[c.verdict], `pipeline exit; ${detail}`);
      t.is(problem, null);
    });
  });
}

// With AG_ADV_PENDING=1 and nothing pending there is no test to run: ava says so and fails.
if (SELECTED.length === 0) console.error('adversarial: PENDING is empty: there is no known fail-open to re-check');

test.after.always('summary', (t) => {
  for (const line of summarize(outcomes, SELECTED === PENDING ? [] : PENDING, Date.now() - started)) t.log(line);
});
