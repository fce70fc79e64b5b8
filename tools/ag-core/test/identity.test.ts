import test from 'ava';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { scratch } from './scratch.js';
import { claimUid, freshIdentity, runningAsRoot } from '../src/index.js';

const SOURCE = fileURLToPath(new URL('../src/index.ts', import.meta.url));

/** A second process that claims `id` in `dir`, says so, and holds the claim until its stdin ends. */
async function holder(id: number, dir: string) {
  const child = spawn(
    process.execPath,
    [
      '--import=tsx',
      '--input-type=module',
      '-e',
      `import { claimUid } from ${JSON.stringify(SOURCE)};
       console.log(claimUid(${id}, ${JSON.stringify(dir)}) ? 'claimed' : 'refused');
       process.stdin.resume();`,
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const [first] = (await once(child.stdout, 'data')) as [Buffer];
  return { said: first.toString().trim(), child };
}

test('a uid claimed by a living process is refused to every other, and freed when that process exits', async (t) => {
  const dir = mkdtempSync(path.join(scratch, 'claims-'));
  const { said, child } = await holder(4242, dir);
  t.is(said, 'claimed');
  t.is(readFileSync(path.join(dir, '4242'), 'utf8').trim(), String(child.pid));
  t.false(claimUid(4242, dir), 'another process holds 4242');
  t.true(claimUid(4243, dir), 'a uid nobody claimed');
  t.false(claimUid(4243, dir), 'a claim is not given twice, not even to its own process');
  child.stdin.end();
  await once(child, 'exit');
  t.false(existsSync(path.join(dir, '4242')), 'the claim ends with its process');
  t.true(claimUid(4242, dir));
});

test('a claim left by a process that was killed is skipped, never taken over', async (t) => {
  const dir = mkdtempSync(path.join(scratch, 'claims-'));
  const { said, child } = await holder(5151, dir);
  t.is(said, 'claimed');
  child.kill('SIGKILL');
  await once(child, 'exit');
  t.true(existsSync(path.join(dir, '5151')));
  t.false(claimUid(5151, dir));
});

test("the other range never meets the usual one: a run apart from the tests is no test run's uid", (t) => {
  if (!runningAsRoot()) {
    t.pass('fresh uids are taken only as root');
    return;
  }
  const usual = Array.from({ length: 8 }, () => freshIdentity().uid);
  const other = Array.from({ length: 8 }, () => freshIdentity('other').uid);
  t.true(Math.max(...other) < Math.min(...usual), `${JSON.stringify(other)} below ${JSON.stringify(usual)}`);
  for (const id of [...usual, ...other]) t.true(id >= 5_000, `${id} is unprivileged and unnamed`);
});
