// The adversarial suite: each catalogue case is a tiny git repository (the demo project's
// baseline and an agent commit) run through the whole pipeline (gate.sh: all five tools),
// asserting the verdict and its reason code. The negative control must ACCEPT, so the suite
// also measures false alarms. Cases run one at a time: they are whole pipelines on 2 cores.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CASES, type Files } from './adversarial/cases.js';
import { DEMO, JS_ENV, ROOT, run } from './helpers.js';

function put(dir: string, files: Files): void {
  for (const [rel, content] of Object.entries(files)) {
    const full = path.join(dir, rel);
    if (content === null) rmSync(full, { force: true });
    else {
      mkdirSync(path.dirname(full), { recursive: true });
      writeFileSync(full, content);
    }
  }
}

function repoFor(base: Files | undefined, patch: Files): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ag-adversarial-'));
  cpSync(path.join(DEMO, 'projects', 'js', 'base'), dir, { recursive: true });
  put(dir, base ?? {});
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], { cwd: dir, stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'baseline');
  put(dir, patch);
  git('add', '-A');
  git('commit', '-q', '-m', 'agent');
  return dir;
}

for (const c of CASES) {
  test.serial(`${c.id}: ${c.what} → ${c.verdict}${c.code ? ` ${c.code}` : ''}`, (t) => {
    const repo = repoFor(c.base, c.patch);
    t.teardown(() => rmSync(repo, { recursive: true, force: true }));
    const env = { ...JS_ENV, AG_MUTATE_MAX: '4', ...(c.env ?? {}) };
    const r = run('sh', [path.join(ROOT, 'pipelines/gate.sh'), '--base', 'main~1', '--head', 'main', '--out', 'ag'], repo, env);
    const verdict = JSON.parse(readFileSync(path.join(repo, 'ag', 'verdict.json'), 'utf8')) as { verdict: string; reasons: { code: string }[] };
    const codes = verdict.reasons.map((x) => x.code);
    t.is(verdict.verdict, c.verdict, `${r.stderr}\n${JSON.stringify(verdict.reasons)}`);
    if (c.code === null && c.verdict === 'ACCEPT') t.deepEqual(codes, []);
    if (c.code !== null) t.true(codes.includes(c.code), JSON.stringify(verdict.reasons));
    t.is(r.code, { ACCEPT: 0, REJECT: 1, HOLD: 2 }[c.verdict]);
  });
}
