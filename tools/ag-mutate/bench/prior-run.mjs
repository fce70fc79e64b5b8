/**
 * ag-run's run.json for a bench project, as the gate's pipelines make it and give it to
 * ag-mutate (`--run`): one round, the full suite on the baseline and the patch. compare.mjs
 * and equality.mjs both use it.
 * @module
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const AG_RUN = fileURLToPath(new URL('../../ag-run/bin/ag-run.js', import.meta.url));

/** Export the tree of `rev` (read with `git ...gitArgs archive`) into `dir`, with `modules` linked as its node_modules. */
export function exportBaseline(gitArgs, rev, dir, modules) {
  mkdirSync(dir, { recursive: true });
  execFileSync('tar', ['-x', '-C', dir], { input: execFileSync('git', [...gitArgs, 'archive', rev]) });
  if (modules) symlinkSync(modules, path.join(dir, 'node_modules'));
}

/** Write ag-run's run.json for `base` and `tree` to `out`; the error (ag-run's stderr) when it failed, else null. */
export function writeRunJson({ base, tree, diff, test }, out) {
  const argv = [AG_RUN, '--baseline', base, '--patch', tree, '--diff', diff, '--test-command', test];
  const r = spawnSync(process.execPath, [...argv, '--rounds', '1', '--out', out, '--quiet'], { encoding: 'utf8' });
  if (r.status === 0) return null;
  rmSync(out, { force: true });
  return `ag-run exit ${r.status}: ${r.stderr.trim()}`;
}
