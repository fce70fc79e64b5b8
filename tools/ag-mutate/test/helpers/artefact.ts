import type { ExecutionContext } from 'ava';
import { readFileSync } from 'node:fs';
import type { Mutant, MutationArtefact } from '@adversary-gate/schemas';
import { runBin } from './repo.js';

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
