/** The interpreter of the Python rows, and whether the caller chose it (AG_DEMO_PYTHON). */
export declare const PYTHON: { readonly path: string; readonly custom: boolean };
/** The pipeline settings (AG_* variables) that judge each demo project. */
export declare const PROJECTS: Readonly<
  Record<'js' | 'py', { readonly runner: string; readonly env: Readonly<Record<string, string>> }>
>;
/** The demo's scenarios: which project, which patch, what the gate must decide. */
export declare const SCENARIOS: ReadonlyArray<{
  readonly id: string;
  readonly project: 'js' | 'py';
  readonly patch: string;
  readonly coverage: boolean;
  readonly expect: 'ACCEPT' | 'REJECT' | 'HOLD';
  readonly code: string | null;
  readonly what: string;
}>;
