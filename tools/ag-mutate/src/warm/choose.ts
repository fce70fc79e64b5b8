/**
 * Whether an execution judges its mutants on warm vitest hosts, and why not when it does not.
 * @module
 */
import type { ExecOptions } from '../exec/types.js';
import type { TestMap } from '../exec/test-map.js';
import { vitestHostPlan, type Eligibility } from './vitest-eligible.js';

/** The host plan for this execution, or why every mutant runs as a fresh process. */
export function chooseWarmHost(opts: ExecOptions, copyRoot: string, map: TestMap | null): Eligibility {
  if (opts.warmHost === 'off') return { reason: '--warm-host off' };
  if (opts.runner?.name !== 'vitest') return { reason: 'the runner is not vitest' };
  if (map !== null) return { reason: 'the mutants run selected tests' };
  if (opts.sandbox === 'bwrap') return { reason: 'the runs are sandboxed with bwrap, which the host does not enter' };
  return vitestHostPlan(copyRoot, opts.mutantCommand ?? opts.command);
}
