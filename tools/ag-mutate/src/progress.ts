/**
 * Progress lines on stderr for long runs: mutants done / total, killed, survived, ETA.
 * @module
 */
import type { RunStatus } from './exec/outcome.js';

/** A progress reporter writing one line per finished mutant to `write`. */
export function progressReporter(write: (line: string) => void, now: () => number = () => performance.now()) {
  const started = now();
  return (done: number, total: number, tally: Readonly<Record<RunStatus, number>>) => {
    const elapsed = (now() - started) / 1000;
    const eta = done === 0 ? 0 : (elapsed / done) * (total - done);
    write(
      `ag-mutate: ${done}/${total} mutants, ${tally.killed + tally.timeout} killed, ${tally.survived} survived, ${tally.stillborn} stillborn, ETA ${Math.ceil(eta)} s\n`,
    );
  };
}
