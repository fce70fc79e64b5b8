// What one adversarial case is: a tiny repository (the demo project's baseline, an agent
// commit), the pipeline it goes through, and the verdict and reason code our design gives.
import type { Files } from './repo.js';
import type { GateResult } from './gate.js';

export type Verdict = 'ACCEPT' | 'REJECT' | 'HOLD';

/** Per-run values a case may build its files from (a host path, a port, a nonce). */
export interface CaseContext {
  /** Unique to this run of the case: plant it in files to find what escaped. */
  readonly nonce: string;
  /** A directory on the host, outside every tree the gate builds; removed afterwards. */
  readonly hostDir: string;
  /** A TCP port on the host's 127.0.0.1 that accepts connections during the run. */
  readonly port: number;
  /** The case's repository (for pipelines and checks that need it). */
  readonly repo: string;
}

export interface AdversarialCase {
  /** The catalogue number (A1 … G70), the peer finding (AG-0NN) or `control-…`. */
  readonly id: string;
  readonly what: string;
  /** The demo project the repository starts from (default js: node:test). */
  readonly project?: 'js' | 'py';
  /** Files added to the baseline commit. */
  readonly base?: Files | ((ctx: CaseContext) => Files);
  /** The agent's commit on top of the baseline. */
  readonly patch: Files | ((ctx: CaseContext) => Files);
  readonly verdict: Verdict;
  /** A code that must be among the reasons (null: no reason at all, only for ACCEPT). */
  readonly code: string | null;
  /** Further codes that must be among the reasons too. */
  readonly also?: readonly string[];
  /** Pipeline settings over the project's defaults. */
  readonly env?: Readonly<Record<string, string>> | ((ctx: CaseContext) => Readonly<Record<string, string>>);
  /** Runs only where bubblewrap can build a sandbox, with AG_SANDBOX=bwrap. */
  readonly sandbox?: boolean;
  /** A clean patch: a verdict other than ACCEPT is a false alarm. */
  readonly control?: boolean;
  /** Instead of plain gate.sh: the real binaries with a fault or a tampering in between. */
  readonly pipeline?: (ctx: CaseContext, env: Readonly<Record<string, string>>) => Promise<GateResult>;
  /** Further checks on the host after the pipeline; returns the problem, or null. */
  readonly check?: (ctx: CaseContext, result: GateResult) => string | null;
}
