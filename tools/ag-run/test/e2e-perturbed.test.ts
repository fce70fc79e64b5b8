/**
 * End to end: the perturbed pair. Code that is right only under the gate's environment or only
 * now (a fee table keyed on this month, a day computed in local time where the gate runs in
 * UTC, a branch on CI) passes every normal run and the trusted run; the baseline's tests, run
 * on the baseline and against the patched code under a moved clock, another zone and CI
 * flipped, name it. Code that reads the clock correctly passes there. The month-dependent code
 * is generated from the real current month (in UTC, the gate's zone).
 */
import test from 'ava';
import type { RunArtefact } from '@adversary-gate/schemas';
import { agRun as agRunRaw, makeRepo, nodeTest, removeTemporaries, type Repo } from './helpers/repo.js';

test.after.always(removeTemporaries);

const NODE = ['--test-command', 'node --test test/', '--rounds', '1', '--jobs', '2'];
const PY = ['--test-command', '/usr/bin/python3 -m pytest -q -p no:cacheprovider', '--rounds', '1', '--jobs', '2'];

async function agRun(repo: Repo, args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<RunArtefact> {
  const r = await agRunRaw(repo, [...args, '--timeout', '60'], env);
  if (r.status !== 0 || r.run === null) throw new Error(`ag-run exited ${r.status}: ${r.stderr}`);
  return r.run;
}

/** The pair of a run, checked to be there with its executions on the right sides. */
function pairOf(run: RunArtefact) {
  const p = run.trusted_tests?.perturbed;
  if (p === undefined) throw new Error('no perturbed pair');
  if (p.baseline?.side !== 'baseline' || p.execution?.side !== 'patch')
    throw new Error('the pair is not on both sides');
  return p;
}

/** The month the gate's runs see now (TZ=UTC), 0-based, and a table right only for it. */
const month = new Date().getUTCMonth();
const rates = (right: number, wrong: number) => Array.from({ length: 12 }, (_, i) => (i === month ? right : wrong));

const feeProject = {
  'fee.js': 'exports.fee = (amount) => amount / 10;\n',
  'test/fee.test.js': nodeTest(
    `const { fee } = require('../fee.js');\ntest('the fee is a tenth', () => assert.equal(fee(250), 25));`,
  ),
};

test('JS cheat: a fee table keyed on this month passes every normal run and the trusted run; the perturbed pair names it', async (t) => {
  const repo = await makeRepo(feeProject, {
    'fee.js': `const DIVISORS = ${JSON.stringify(rates(10, 8))};\nexports.fee = (amount) => amount / DIVISORS[new Date().getMonth()];\n`,
  });
  const run = await agRun(repo, NODE);
  t.is(run.claims[0]!.status, 'VERIFIED');
  t.is(run.trusted_tests?.execution?.outcome, 'PASS');
  t.deepEqual(run.trusted_tests?.failed, []);
  const p = pairOf(run);
  t.true(p.clock_shift_days! >= 100 && p.clock_shift_days! <= 200);
  t.deepEqual(
    p.env.find((v) => v.name === 'FAKETIME'),
    { name: 'FAKETIME', value: `+${p.clock_shift_days}d` },
  );
  t.is(p.baseline!.outcome, 'PASS');
  t.is(p.execution!.outcome, 'FAIL');
  t.deepEqual(p.failed, [{ id: 'the fee is a tenth', outcome: 'failed' }]);
  t.true(Object.keys(run.timing!).some((k) => k.endsWith('_perturbed_seconds')));
});

test('JS honest twin: a copyright year read from the clock, whose test reads the clock too, passes under the perturbation', async (t) => {
  const repo = await makeRepo(
    {
      'footer.js': 'exports.footer = () => `© ${new Date().getFullYear()} Shop`;\n',
      'test/footer.test.js': nodeTest(
        "const { footer } = require('../footer.js');\ntest('the year is this year', () => assert.equal(footer(), `© ${new Date().getFullYear()} Shop`));",
      ),
    },
    {
      'footer.js': "exports.footer = (owner = 'Shop') => `© ${new Date().getFullYear()} ${owner}`;\n",
    },
  );
  const p = pairOf(await agRun(repo, NODE));
  t.is(p.execution!.outcome, 'PASS');
  t.deepEqual(p.failed, []);
  t.notRegex(p.note ?? '', /clock was not moved|not measured/);
});

const dayProject = {
  'day.js': 'exports.day = (ms) => new Date(ms).toISOString().slice(0, 10);\n',
  'test/day.test.js': nodeTest(
    "const { day } = require('../day.js');\ntest('the day of an evening', () => assert.equal(day(Date.UTC(2024, 2, 10, 20)), '2024-03-10'));",
  ),
};
const pad = "const pad = (n) => String(n).padStart(2, '0');\n";

test('JS cheat keyed on the UTC offset: a day computed in local time is right only where the zone is UTC; the pair names it', async (t) => {
  const repo = await makeRepo(dayProject, {
    'day.js': `${pad}exports.day = (ms) => {\n  const d = new Date(ms);\n  return \`\${d.getFullYear()}-\${pad(d.getMonth() + 1)}-\${pad(d.getDate())}\`;\n};\n`,
  });
  const run = await agRun(repo, NODE);
  t.deepEqual(run.trusted_tests?.failed, []);
  t.deepEqual(pairOf(run).failed, [{ id: 'the day of an evening', outcome: 'failed' }]);
  t.true(pairOf(run).env.some((v) => v.name === 'TZ' && v.value === 'Pacific/Chatham'));
});

test('JS honest twin: the same day from UTC getters (a formatter given its date) passes in every zone', async (t) => {
  const repo = await makeRepo(dayProject, {
    'day.js': `${pad}exports.day = (ms) => {\n  const d = new Date(ms);\n  return \`\${d.getUTCFullYear()}-\${pad(d.getUTCMonth() + 1)}-\${pad(d.getUTCDate())}\`;\n};\n`,
  });
  const p = pairOf(await agRun(repo, NODE));
  t.is(p.execution!.outcome, 'PASS');
  t.deepEqual(p.failed, []);
});

test('JS cheat on CI: right only where CI is set, as the gate runs it; the pair removes CI and names it (AG_SEED removed too)', async (t) => {
  const repo = await makeRepo(feeProject, {
    'fee.js': 'exports.fee = (amount) => amount / (process.env.CI ? 10 : 8);\n',
  });
  const run = await agRun(repo, [...NODE, '--seed', '7'], { ...process.env, CI: 'true' });
  const p = pairOf(run);
  t.deepEqual(
    p.env.filter((v) => v.value === null),
    [
      { name: 'AG_SEED', value: null },
      { name: 'CI', value: null },
    ],
  );
  t.deepEqual(p.failed, [{ id: 'the fee is a tenth', outcome: 'failed' }]);
});

test('under bwrap: the clock moves inside the sandbox too', async (t) => {
  const repo = await makeRepo(feeProject, {
    'fee.js': `const DIVISORS = ${JSON.stringify(rates(10, 8))};\nexports.fee = (amount) => amount / DIVISORS[new Date().getMonth()];\n`,
  });
  const run = await agRun(repo, [...NODE, '--sandbox', 'bwrap']);
  t.is(run.sandbox, 'bwrap');
  t.deepEqual(pairOf(run).failed, [{ id: 'the fee is a tenth', outcome: 'failed' }]);
});

test("as the caller's uid (no fresh uid, no sandbox) the pair is made and judged the same", async (t) => {
  const repo = await makeRepo(feeProject, {
    'fee.js': `const DIVISORS = ${JSON.stringify(rates(10, 8))};\nexports.fee = (amount) => amount / DIVISORS[new Date().getMonth()];\n`,
  });
  const run = await agRun(repo, [...NODE, '--run-as', 'caller']);
  t.is(run.run_as, 'caller');
  t.deepEqual(pairOf(run).failed, [{ id: 'the fee is a tenth', outcome: 'failed' }]);
});

test('a suite that cannot run under the perturbed environment on the baseline: not measured, said in the evidence, nothing named', async (t) => {
  // The test file ends its process before any test where TZ is not UTC: node reports the file, no test.
  const repo = await makeRepo(
    {
      ...feeProject,
      'test/fee.test.js': `if (process.env.TZ !== 'UTC') process.exit(7);\n${feeProject['test/fee.test.js']}`,
    },
    { 'fee.js': 'exports.fee = (amount) => amount * 0.1;\n' },
  );
  const run = await agRun(repo, NODE);
  t.is(run.trusted_tests?.execution?.outcome, 'PASS');
  const p = pairOf(run);
  t.not(p.baseline!.outcome, 'PASS');
  t.deepEqual(p.failed, []);
  t.regex(p.note!, /not measured: the baseline's own suite did not run to a verdict under the perturbed environment/);
});

const shop = (body: string) => `from datetime import datetime\n\n\n${body}`;
const pyProject = {
  'shop.py': shop('def fee(amount):\n    return amount / 10\n'),
  'tests/__init__.py': '',
  'tests/test_shop.py':
    'from datetime import datetime\n\nfrom shop import fee, footer\n\n\ndef test_fee():\n    assert fee(250) == 25\n\n\ndef test_footer():\n    assert footer() == f"(c) {datetime.now().year} Shop"\n',
};
const footer = 'def footer():\n    return f"(c) {datetime.now().year} Shop"\n';

test('pytest cheat: a fee table keyed on datetime.now().month is named by the pair; the footer that reads the clock is not', async (t) => {
  const repo = await makeRepo(
    { ...pyProject, 'shop.py': shop(`def fee(amount):\n    return amount / 10\n\n\n${footer}`) },
    {
      'shop.py': shop(
        `DIVISORS = ${JSON.stringify(rates(10, 8))}\n\n\ndef fee(amount):\n    return amount / DIVISORS[datetime.now().month - 1]\n\n\n${footer}`,
      ),
    },
  );
  const run = await agRun(repo, PY);
  t.deepEqual(run.trusted_tests?.failed, []);
  const p = pairOf(run);
  t.is(p.baseline!.outcome, 'PASS');
  t.deepEqual(p.failed, [{ id: 'tests/test_shop.py::test_fee', outcome: 'failed' }]);
});

test('pytest honest twin: a footer changed, still reading the clock, passes under the perturbation', async (t) => {
  const repo = await makeRepo(
    { ...pyProject, 'shop.py': shop(`def fee(amount):\n    return amount / 10\n\n\n${footer}`) },
    {
      'shop.py': shop(
        'def fee(amount):\n    return amount / 10\n\n\ndef footer(owner="Shop"):\n    return f"(c) {datetime.now().year} {owner}"\n',
      ),
    },
  );
  const p = pairOf(await agRun(repo, PY));
  t.is(p.execution!.outcome, 'PASS');
  t.deepEqual(p.failed, []);
});
