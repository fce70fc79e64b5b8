import test from 'ava';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { scratch } from './scratch.js';
import { fileURLToPath } from 'node:url';
import { defineCommand } from 'citty';
import { canonicalJson, writeAtomic } from '@adversary-gate/schemas';
import { EXIT, parseFaults, planFaults, requiredArg, runCli, sharedArgs, UsageError } from '../src/index.js';

const fixture = fileURLToPath(new URL('./cli-fault-tool.ts', import.meta.url));
/** Canonical JSON through the raw writer (these values are no artefacts, which writeArtefact would refuse). */
const writeJson = (file: string, value: unknown) => writeAtomic(file, canonicalJson(value));
const tmp = () => mkdtempSync(path.join(scratch, 'ag-fault-'));

/** A tool that writes `out` and `out.md`; `ran` records whether its body started. */
function writingTool(seen: { ran: boolean }) {
  return {
    name: 'ag-x',
    version: '0.0.0',
    main: defineCommand({
      args: { ...sharedArgs },
      async run({ args }) {
        seen.ran = true;
        const out = requiredArg(args.out, 'out');
        await writeJson(out, { v: 1 });
        await writeJson(`${out}.md`, { v: 2 });
        return 0;
      },
    }),
    subCommands: {
      merge: defineCommand({
        args: { ...sharedArgs },
        run: () => {
          seen.ran = true;
          return 0;
        },
      }),
    },
  };
}

// The writer's session is process-wide (one command per process): in-process runs are serial.

/** Run the fixture tool in its own process under `fault`. */
function runFixture(fault: string, extra: string[] = []) {
  const dir = tmp();
  const out = path.join(dir, 'fixture.json');
  const r = spawnSync(process.execPath, ['--import=tsx', fixture, '--out', out, ...extra], {
    encoding: 'utf8',
    env: { ...process.env, AG_FAULT: fault },
  });
  return { ...r, dir, out, files: readdirSync(dir).sort() };
}

test('the switch reads comma-separated <tool>:<stage> entries; unset or blank is no fault', (t) => {
  t.deepEqual(parseFaults(undefined), []);
  t.deepEqual(parseFaults('  '), []);
  t.deepEqual(parseFaults('ag-run:kill, ag-mutate.merge:mid-write'), [
    { command: 'ag-run', stage: 'kill' },
    { command: 'ag-mutate.merge', stage: 'mid-write' },
  ]);
});

test('a malformed switch is a usage error naming AG_FAULT, never ignored', (t) => {
  for (const bad of ['ag-run', 'ag-run:explode', 'run:kill', 'ag-run:kill,', 'ag-run:kill:term', 'AG-RUN:kill']) {
    t.throws(() => parseFaults(bad), { instanceOf: UsageError, message: /^AG_FAULT: / }, bad);
  }
});

test.serial('a fault armed for another tool, or none at all, leaves a command untouched', async (t) => {
  t.is(planFaults('ag-run', {}), undefined);
  t.is(planFaults('ag-run', { AG_FAULT: 'ag-oracle:before-read,ag-run.merge:kill' }), undefined);
  const dir = tmp();
  const seen = { ran: false };
  const code = await runCli(writingTool(seen), ['--out', path.join(dir, 'a.json')], {
    env: { AG_FAULT: 'ag-y:before-read' },
  });
  t.is(code, EXIT.OK);
  t.deepEqual(readdirSync(dir).sort(), ['a.json', 'a.json.md']);
});

test.serial('before-read exits 2 after the flags are checked and before the command reads anything', async (t) => {
  const dir = tmp();
  const seen = { ran: false };
  const env = { AG_FAULT: 'ag-x:before-read' };
  t.is(await runCli(writingTool(seen), ['--out', path.join(dir, 'a.json')], { env }), EXIT.HOLD);
  t.false(seen.ran);
  t.deepEqual(readdirSync(dir), []);
  t.is(await runCli(writingTool(seen), ['--bogus'], { env }), EXIT.USAGE, 'a bad flag still exits 3 first');
});

test.serial('after-write exits 2 and takes back every file the command wrote', async (t) => {
  const dir = tmp();
  const seen = { ran: false };
  const code = await runCli(writingTool(seen), ['--out', path.join(dir, 'a.json')], {
    env: { AG_FAULT: 'ag-x:after-write' },
  });
  t.is(code, EXIT.HOLD);
  t.true(seen.ran);
  t.deepEqual(readdirSync(dir), []);
});

test.serial('a sub-command is addressed as <tool>.<sub>, apart from the default command', async (t) => {
  const seen = { ran: false };
  t.is(await runCli(writingTool(seen), ['merge'], { env: { AG_FAULT: 'ag-x:before-read' } }), EXIT.OK);
  t.true(seen.ran);
  seen.ran = false;
  t.is(await runCli(writingTool(seen), ['merge'], { env: { AG_FAULT: 'ag-x.merge:before-read' } }), EXIT.HOLD);
  t.false(seen.ran);
});

test.serial('a malformed switch makes every tool exit 3 before it runs', async (t) => {
  const seen = { ran: false };
  t.is(await runCli(writingTool(seen), ['--out', '-'], { env: { AG_FAULT: 'ag-x:later' } }), EXIT.USAGE);
  t.false(seen.ran);
});

test.serial('a command that fails after writing leaves nothing behind, fault or not', async (t) => {
  const dir = tmp();
  const out = path.join(dir, 'a.json');
  const spec = {
    name: 'ag-x',
    version: '0.0.0',
    main: defineCommand({
      args: { ...sharedArgs },
      async run() {
        await writeJson(out, { v: 1 });
        throw new Error('the summary could not be rendered');
      },
    }),
  };
  t.is(await runCli(spec, ['--out', out], { env: {} }), EXIT.HOLD);
  t.deepEqual(readdirSync(dir), []);
});

test('kill and term strike when the first output is about to be written: nothing exists yet', (t) => {
  for (const [stage, signal] of [
    ['kill', 'SIGKILL'],
    ['term', 'SIGTERM'],
  ] as const) {
    const r = runFixture(`ag-fixture:${stage}`);
    t.is(r.signal, signal, r.stderr);
    t.deepEqual(r.files, [], stage);
  }
});

test('mid-write dies by SIGKILL with half the artefact in a hidden temporary file, the target never created', (t) => {
  const r = runFixture('ag-fixture:mid-write');
  t.is(r.signal, 'SIGKILL', r.stderr);
  t.is(r.files.length, 1);
  t.regex(r.files[0]!, /^\.fixture\.json\.\d+\.[0-9a-f]{12}\.tmp$/);
  const whole = canonicalJson({ kind: 'fixture', filler: 'x'.repeat(1000) });
  t.is(readFileSync(path.join(r.dir, r.files[0]!), 'utf8'), whole.slice(0, Math.floor(whole.length / 2)));
  writeFileSync(path.join(r.dir, 'other.json'), '{}');
  return writeJson(path.join(r.dir, 'next.json'), {}).then(() => {
    t.deepEqual(
      readdirSync(r.dir).sort(),
      ['next.json', 'other.json'],
      'the next write in the directory swept the dead temporary file',
    );
  });
});

test("an exception thrown outside any promise chain exits 2 (not node's 1) and takes back what was written", (t) => {
  const r = runFixture('', ['--crash']);
  t.is(r.status, EXIT.HOLD, r.stderr);
  t.regex(r.stderr, /^ag-fixture: boom in a timer\n$/);
  t.deepEqual(r.files, []);
});

test('a tool stopped by SIGTERM kills the test processes it started, then dies of SIGTERM', async (t) => {
  const { spawn } = await import('node:child_process');
  const stopFixture = fileURLToPath(new URL('./fixtures/stop-cli.ts', import.meta.url));
  const tool = spawn(process.execPath, ['--import=tsx', stopFixture], { stdio: ['ignore', 'pipe', 'pipe'] });
  // The grandchildren's pids come through the runner's pipe only at the end; find them by their command line.
  const started = await new Promise<number[]>((resolve) => {
    const look = setInterval(() => {
      const pids = sleepers();
      if (pids.length === 2) {
        clearInterval(look);
        resolve(pids);
      }
    }, 50);
  });
  tool.kill('SIGTERM');
  const signal = await new Promise<NodeJS.Signals | null>((resolve) => tool.on('exit', (_code, s) => resolve(s)));
  t.is(signal, 'SIGTERM');
  t.deepEqual(started.filter(alive), []);
});

/** Pids of the fixture's `sleep 77` / `sleep 78` processes. */
function sleepers(): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (cmd === 'sleep\u000077\u0000' || cmd === 'sleep\u000078\u0000') out.push(Number(entry));
    } catch {
      // gone
    }
  }
  return out;
}

function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/\) Z /.test(stat);
  } catch {
    return false;
  }
}
