/**
 * The perturbed pair's planning and judging, pure; and the one thing it rests on: libfaketime
 * really moves the clock of node and python3 (Debian's `libfaketime`, installed by `.ci/run`).
 */
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import type { Execution, TestResult } from '@adversary-gate/schemas';
import { clockPrefix, removeFaketimeObjectsOf } from '../src/faketime.js';
import {
  judgePerturbed,
  perturbEnv,
  perturbedEvidence,
  pickLocale,
  planPerturbation,
  probeHost,
  shiftDays,
  ZONE,
  type HostFacts,
} from '../src/perturb.js';
import { cleaningFaketime } from '../src/trusted-runs.js';

const LIB = '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1';
const host: HostFacts = { faketime: { path: LIB }, zone: true, locale: 'de_DE.utf8' };

test('the shift is 100–200 days, the same for one diff, and the month always moves', (t) => {
  const digests = Array.from({ length: 400 }, (_, i) => `sha256:${(i * 2654435761).toString(16).padStart(8, '0')}ff`);
  const days = digests.map(shiftDays);
  t.true(days.every((d) => d >= 100 && d <= 200));
  t.true(new Set(days).size > 50, 'spread over the range');
  t.is(shiftDays(digests[7]!), shiftDays(digests[7]!));
  for (const d of [100, 150, 200])
    for (let m = 0; m < 12; m++)
      for (const day of [1, 15, 28, 31]) {
        const from = new Date(Date.UTC(2026, m, day));
        if (from.getUTCMonth() !== m) continue;
        t.not(new Date(from.getTime() + d * 86400_000).getUTCMonth(), m);
      }
});

test('the locale: a non-C UTF-8 locale of `locale -a`, the preferred ones first; none besides C is null', (t) => {
  t.is(pickLocale('C\nC.utf8\nPOSIX\nen_US.utf8\nde_DE.utf8\n'), 'de_DE.utf8');
  t.is(pickLocale('C\nC.UTF-8\nen_US.utf8\nnl_NL.utf8\n'), 'en_US.utf8');
  t.is(pickLocale('C\nC.utf8\nPOSIX\nde_DE\nde_DE.iso88591\n'), null);
});

test('the environment: clock, zone, locale, CI flipped both ways, AG_SEED removed; each gap in a note', (t) => {
  const p = planPerturbation(host, { days: 150, callerCI: undefined, seeded: true, freshUids: true });
  t.deepEqual(p.env, [
    { name: 'AG_SEED', value: null },
    { name: 'CI', value: 'true' },
    { name: 'FAKETIME', value: '+150d' },
    { name: 'FAKETIME_DONT_FAKE_MONOTONIC', value: '1' },
    { name: 'LANG', value: 'de_DE.utf8' },
    { name: 'LC_ALL', value: 'de_DE.utf8' },
    { name: 'LD_PRELOAD', value: LIB },
    { name: 'NO_FAKE_STAT', value: '1' },
    { name: 'TZ', value: ZONE },
  ]);
  t.is(p.clockShiftDays, 150);
  t.deepEqual(p.notes, []);
  const env = perturbEnv({ PATH: '/usr/bin', AG_SEED: '7', TZ: 'UTC', LANG: 'C.UTF-8' }, p);
  t.is(env.AG_SEED, undefined);
  t.is(env.TZ, ZONE);
  t.is(env.PATH, '/usr/bin');
  // the clock's variables go on the command (loaded as the run's uid), not into the environment
  t.is(env.LD_PRELOAD, undefined);
  t.deepEqual(clockPrefix(p), [
    '/usr/bin/env',
    'FAKETIME=+150d',
    'FAKETIME_DONT_FAKE_MONOTONIC=1',
    `LD_PRELOAD=${LIB}`,
    'NO_FAKE_STAT=1',
  ]);
  // CI: the other executions get a true value, so the pair gets none; a false one counts as none
  for (const [ci, value] of [
    ['true', null],
    ['1', null],
    ['false', 'true'],
    ['', 'true'],
  ] as const)
    t.is(
      planPerturbation(host, { days: 150, callerCI: ci, seeded: false, freshUids: true }).env.find(
        (v) => v.name === 'CI',
      )?.value,
      value,
      `CI=${ci}`,
    );
  // nothing to move the clock with, no zone, no locale: said, never silent
  const bare = planPerturbation(
    { faketime: { problem: 'libfaketime is not installed' }, zone: false, locale: null },
    { days: 150, callerCI: undefined, seeded: false, freshUids: false },
  );
  t.is(bare.clockShiftDays, null);
  t.deepEqual(
    bare.env.map((v) => v.name),
    ['CI', 'TZ'],
  );
  t.is(bare.notes.length, 4);
  t.regex(bare.notes[0]!, /^the clock was not moved: libfaketime is not installed/);
  t.regex(bare.notes[3]!, /^the uid was not changed: the executions run as the caller/);
  t.is(bare.env.find((v) => v.name === 'TZ')?.value, '<+1245>-12:45');
  t.deepEqual(clockPrefix(bare), []);
});

const run = (side: 'baseline' | 'patch', outcome: Execution['outcome'], tests: Record<string, TestResult['outcome']>) =>
  ({
    command: 'node --test',
    side,
    round: 1,
    exit_code: outcome === 'PASS' ? 0 : outcome === 'FAIL' ? 1 : 2,
    signal: null,
    timed_out: false,
    outcome,
    kind: outcome.toLowerCase(),
    tests: Object.entries(tests).map(([id, o]) => ({ id, outcome: o })),
    stdout_tail: '',
    stderr_tail: '',
    stdout_bytes: 0,
    stderr_bytes: 0,
    truncated: false,
    leftover_processes: 0,
  }) satisfies Execution;

test('judging: named only when it passed on the perturbed baseline, in the trusted run and on every baseline run, and not perturbed against the patch', (t) => {
  const all = { fee: 'passed', day: 'passed', flaky: 'passed', old: 'passed' } as const;
  const judged = judgePerturbed({
    baseline: run('baseline', 'FAIL', { ...all, old: 'failed' }),
    execution: run('patch', 'FAIL', { fee: 'failed', flaky: 'failed', old: 'failed' }),
    trusted: run('patch', 'PASS', all),
    baselineRuns: [run('baseline', 'PASS', all)],
    leave: new Set(['flaky']),
  });
  t.deepEqual(judged, {
    failed: [
      { id: 'day', outcome: 'absent' },
      { id: 'fee', outcome: 'failed' },
    ],
    notMeasured: null,
  });
  // a test the trusted run failed is the trusted run's to name
  t.deepEqual(
    judgePerturbed({
      baseline: run('baseline', 'PASS', { fee: 'passed' }),
      execution: run('patch', 'FAIL', { fee: 'failed' }),
      trusted: run('patch', 'FAIL', { fee: 'failed' }),
      baselineRuns: [run('baseline', 'PASS', { fee: 'passed' })],
      leave: new Set(),
    }).failed,
    [],
  );
  // against the patch it did not run to a verdict: nothing named here, ag-decide reads the executions
  t.deepEqual(
    judgePerturbed({
      baseline: run('baseline', 'PASS', { fee: 'passed' }),
      execution: { ...run('patch', 'UNRUNNABLE', {}), tests: null },
      trusted: run('patch', 'PASS', { fee: 'passed' }),
      baselineRuns: [run('baseline', 'PASS', { fee: 'passed' })],
      leave: new Set(),
    }),
    { failed: [], notMeasured: null },
  );
});

test('judging: a perturbed baseline that does not run to a verdict concludes nothing, and the evidence says so', (t) => {
  const p = planPerturbation(host, { days: 120, callerCI: undefined, seeded: false, freshUids: true });
  const runs = {
    baseline: { ...run('baseline', 'TIMED_OUT', {}), timed_out: true, exit_code: null },
    execution: run('patch', 'FAIL', { fee: 'failed' }),
    trusted: run('patch', 'PASS', { fee: 'passed' }),
    baselineRuns: [run('baseline', 'PASS', { fee: 'passed' })],
    leave: new Set<string>(),
  };
  const evidence = perturbedEvidence(p, runs);
  t.deepEqual(evidence.failed, []);
  t.regex(
    evidence.note!,
    /^not measured: the baseline's own suite did not run to a verdict under the perturbed environment \(TIMED_OUT, timed_out\)/,
  );
  t.is(evidence.clock_shift_days, 120);
  const unmade = perturbedEvidence(p, { ...runs, baseline: null, execution: null });
  t.regex(unmade.note!, /not measured: the perturbed executions were not made/);
});

test('libfaketime moves the wall clock of node and python3 (and the zone applies); monotonic clocks stay', async (t) => {
  const facts = await probeHost(150);
  if (!('path' in facts.faketime)) return t.fail(`${facts.faketime.problem}: apt-get install libfaketime`);
  const p = planPerturbation(facts, { days: 150, callerCI: undefined, seeded: false, freshUids: true });
  const env = perturbEnv({ PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/tmp', LANG: 'C.UTF-8', TZ: 'UTC' }, p);
  const [envBin, ...vars] = clockPrefix(p);
  const under = (argv: string[]) => {
    const r = spawnSync(envBin!, [...vars, ...argv], { env });
    if (r.pid !== undefined) removeFaketimeObjectsOf(r.pid);
    if (r.status !== 0) throw new Error(`${argv[0]} exited ${r.status}: ${r.stderr.toString()}`);
    return r.stdout.toString();
  };
  const now = Date.now() / 1000;
  const node = JSON.parse(
    under([
      process.execPath,
      '-e',
      'console.log(JSON.stringify([Date.now() / 1000, new Date().getTimezoneOffset(), Number(process.hrtime.bigint()) / 1e9]))',
    ]),
  ) as [number, number, number];
  const py = JSON.parse(
    under([
      '/usr/bin/python3',
      '-c',
      'import json, time; print(json.dumps([time.time(), time.localtime().tm_gmtoff, time.monotonic()]))',
    ]),
  ) as [number, number, number];
  for (const [who, seen] of [
    ['node', node[0]],
    ['python3', py[0]],
  ] as const)
    t.true(Math.abs(seen - now - 150 * 86400) < 600, `${who}'s clock moved by ${(seen - now) / 86400} days`);
  t.true([-(12 * 60 + 45), -(13 * 60 + 45)].includes(node[1]), `node's offset ${node[1]}`);
  t.true([12 * 3600 + 45 * 60, 13 * 3600 + 45 * 60].includes(py[1]), `python's offset ${py[1]}`);
  // CLOCK_MONOTONIC counts from boot, as /proc/uptime does: not moved
  const uptime = Number(readFileSync('/proc/uptime', 'utf8').split(' ')[0]);
  t.true(
    Math.abs(node[2] - uptime) < 600 && Math.abs(py[2] - uptime) < 600,
    `monotonic ${node[2]}, ${py[2]}, uptime ${uptime}`,
  );
  // not installed where the probe looks: said
  const missing = await probeHost(150, ['/nonexistent/libfaketime.so.1']);
  t.deepEqual(missing.faketime, { problem: 'libfaketime is not installed (looked for /nonexistent/libfaketime.so.1)' });
});

test("libfaketime's objects in /dev/shm: kept by a first process that execs; removed by the wave's cleaning as the caller", async (t) => {
  const facts = await probeHost(150);
  if (!('path' in facts.faketime)) return t.fail(facts.faketime.problem);
  const prefix = clockPrefix(
    planPerturbation(facts, { days: 150, callerCI: undefined, seeded: false, freshUids: true }),
  );
  // dash execs its last command: the creator's image is gone, and its objects stay
  const spawnOne = () =>
    spawnSync(prefix[0]!, [...prefix.slice(1), '/bin/sh', '-c', '/usr/bin/true'], { env: { PATH: '/usr/bin:/bin' } })
      .pid!;
  const objects = (pid: number) =>
    [`sem.faketime_sem_${pid}`, `faketime_shm_${pid}`].filter((n) => existsSync(`/dev/shm/${n}`));
  const kept = spawnOne();
  t.is(objects(kept).length, 2, 'the leak the cleaning is for');
  removeFaketimeObjectsOf(kept);
  t.deepEqual(objects(kept), []);
  let cleaned = 0;
  await cleaningFaketime(true, () => {
    cleaned = spawnOne();
    t.is(objects(cleaned).length, 2);
    return Promise.resolve();
  });
  t.deepEqual(objects(cleaned), []);
});
