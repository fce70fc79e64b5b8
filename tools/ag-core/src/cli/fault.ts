/**
 * Fault injection: `AG_FAULT=<command>:<stage>[,…]` makes a tool fail at a chosen stage, so
 * tests can show that no fault of a tool turns into an ACCEPT and that nothing is left
 * half-written. Read from the tool's own environment only, once per process; unset or
 * empty, it costs one lookup and changes nothing.
 *
 * | stage | when | how |
 * |---|---|---|
 * | `before-read` | flags parsed, before the command reads an input | throws: exit 2 |
 * | `mid-write` | half of the first output written to its temporary file, synced | SIGKILL |
 * | `after-write` | the command returned, every output written | throws: exit 2, outputs removed |
 * | `kill` / `term` | the first output write begins (all measured, nothing written) | SIGKILL / SIGTERM |
 * @module
 */
import { UsageError } from './errors.js';

/** The environment variable that arms fault injection. */
export const FAULT_VARIABLE = 'AG_FAULT';

/** The stages a fault can strike at, in the order a command reaches them. */
export const FAULT_STAGES = ['before-read', 'kill', 'term', 'mid-write', 'after-write'] as const;

/** One stage of {@link FAULT_STAGES}. */
export type FaultStage = (typeof FAULT_STAGES)[number];

/** One entry of the switch: the command it strikes and where. */
export interface Fault {
  /** A binary (`ag-run`) for its default command, or `ag-mutate.merge` for a sub-command. */
  readonly command: string;
  readonly stage: FaultStage;
}

const COMMAND = /^ag-[a-z]+(?:\.[a-z]+)?$/;

/**
 * Parse the switch's value: comma-separated `<command>:<stage>` entries. Unset or blank is
 * no fault; anything malformed is a usage error (exit 3), never silently ignored.
 */
export function parseFaults(text: string | undefined): Fault[] {
  if (text === undefined || text.trim() === '') return [];
  return text.split(',').map((raw) => {
    const entry = raw.trim();
    const colon = entry.indexOf(':');
    const command = entry.slice(0, colon);
    const stage = entry.slice(colon + 1);
    if (colon < 0 || !COMMAND.test(command)) {
      throw new UsageError(
        `${FAULT_VARIABLE}: "${entry}" is not <tool>:<stage> (e.g. ag-run:before-read, ag-mutate.merge:kill)`,
      );
    }
    if (!(FAULT_STAGES as readonly string[]).includes(stage)) {
      throw new UsageError(
        `${FAULT_VARIABLE}: unknown stage "${stage}" in "${entry}" (one of ${FAULT_STAGES.join(', ')})`,
      );
    }
    return { command, stage: stage as FaultStage };
  });
}

/** The error an injected fault throws; the frame maps it, like any unexpected error, to exit 2. */
export class InjectedFault extends Error {
  override readonly name = 'InjectedFault';
  constructor(readonly stage: FaultStage) {
    super(`fault injected at ${stage} (${FAULT_VARIABLE})`);
  }
}

/**
 * Send `signal` to this very process. A SIGKILL ends it before the next statement; a
 * SIGTERM ends it too unless something listens, and then the listener gets the event loop
 * for a while before this gives up with an InjectedFault.
 */
export async function dieBy(signal: 'SIGKILL' | 'SIGTERM', stage: FaultStage): Promise<never> {
  process.kill(process.pid, signal);
  if (signal === 'SIGKILL') Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10_000);
  else await new Promise((resolve) => setTimeout(resolve, 10_000));
  throw new InjectedFault(stage);
}

/** What the frame and the writer do for one command's armed faults. */
export interface FaultPlan {
  /** The stages armed for this command. */
  readonly stages: ReadonlySet<FaultStage>;
  /** Hooks for the write session: kill and term at the first write, mid-write halfway. */
  readonly beforeWrite?: () => Promise<void>;
  readonly midWrite?: () => Promise<void>;
  /** The frame's own stages: throws at `before-read`/`after-write` when armed; a kill or term not yet struck strikes at `after-write`. */
  at(stage: 'before-read' | 'after-write'): Promise<void>;
}

/**
 * The faults armed for `command` in `env` (default: the process's own environment), or
 * undefined when none is. Throws a UsageError when the switch is malformed.
 */
export function planFaults(command: string, env: NodeJS.ProcessEnv = process.env): FaultPlan | undefined {
  const stages = new Set(
    parseFaults(env[FAULT_VARIABLE])
      .filter((f) => f.command === command)
      .map((f) => f.stage),
  );
  if (stages.size === 0) return undefined;
  const signal = stages.has('kill') ? 'SIGKILL' : stages.has('term') ? 'SIGTERM' : undefined;
  const strike = signal === undefined ? undefined : () => dieBy(signal, signal === 'SIGKILL' ? 'kill' : 'term');
  return {
    stages,
    beforeWrite: strike,
    midWrite: stages.has('mid-write') ? () => dieBy('SIGKILL', 'mid-write') : undefined,
    async at(stage) {
      if (stage === 'after-write' && strike !== undefined) await strike();
      if (stages.has(stage)) throw new InjectedFault(stage);
    },
  };
}
