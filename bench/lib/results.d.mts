/** Types of results.mjs, for the TypeScript bench scripts. */
export interface BenchRecorder {
  /** The results file the entry goes to. */
  readonly file: string;
  /** False when `--no-record` was given. */
  readonly enabled: boolean;
  /** Print the entry and append it to the results file unless `--no-record` was given. */
  record(body: string): void;
}

export function markdownTable(headers: readonly string[], rows: readonly (readonly unknown[])[]): string;

export function benchRecorder(scriptUrl: string, options?: { file?: string; argv?: readonly string[] }): BenchRecorder;
