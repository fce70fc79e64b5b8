import type { ExecutionContext } from 'ava';
import { readFileSync } from 'node:fs';
import type { Mutant, MutationArtefact } from '@adversary-gate/schemas';
import { makeRepo, runBin, type Files } from './repo.js';

/** The artefact ag-mutate wrote to `file`. */
export const readArtefact = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as MutationArtefact;

/** The mutant on `line` with that replacement. */
export const findMutant = (m: MutationArtefact, line: number, replacement: string) =>
  m.mutants.find((x) => x.line === line && x.replacement === replacement) as Mutant;

/** Run ag-mutate with `args` and `--out out`; it must exit 0; its artefact. */
export async function measured(t: ExecutionContext, args: readonly string[], out: string): Promise<MutationArtefact> {
  const r = await runBin([...args, '--out', out]);
  t.is(r.code, 0, r.stderr);
  return readArtefact(out);
}

/**
 * One ag-mutate run over a Python repository (`base`, then `patch` committed on it) under pytest,
 * with a budget of one mutant and `extra` flags; its artefact. The repository is removed after.
 */
export async function measuredPytest(
  t: ExecutionContext,
  base: Files,
  patch: Files,
  extra: readonly string[] = [],
): Promise<MutationArtefact> {
  const repo = makeRepo(base, patch);
  try {
    return await measured(
      t,
      [
        '--diff',
        repo.diff,
        '--tree',
        repo.tree,
        '--test-command',
        '/usr/bin/python3 -m pytest -q -p no:cacheprovider',
        '--python',
        '/usr/bin/python3',
        '--max',
        '1',
        ...extra,
      ],
      repo.file('m.json'),
    );
  } finally {
    repo.cleanup();
  }
}

/**
 * One ag-mutate run over a JavaScript repository (`base`, then `patch` committed on it) under
 * `testCommand`, with two jobs; its artefact. The repository is removed after.
 */
export async function measuredJs(
  t: ExecutionContext,
  base: Files,
  patch: Files,
  testCommand: string,
  opts: { linkModules?: boolean } = {},
): Promise<MutationArtefact> {
  const repo = makeRepo(base, patch, opts);
  try {
    return await measured(
      t,
      ['--diff', repo.diff, '--tree', repo.tree, '--test-command', testCommand, '--jobs', '2'],
      repo.file('m.json'),
    );
  } finally {
    repo.cleanup();
  }
}

/** The footprint of the function `fn` in `m` (an error naming the footprint when it has none). */
export function footprintOf(m: MutationArtefact, fn: string) {
  const f = m.footprint?.functions.find((x) => x.function === fn);
  if (f === undefined) throw new Error(`no footprint of ${fn}: ${JSON.stringify(m.footprint)}`);
  return f;
}
