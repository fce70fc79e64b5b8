/**
 * A tampering finding (the oracle artefact's `tampering[]` item).
 * @module
 */

/** The kinds ag-decide maps to reasons: `skip_added`, `test_file_deleted` reject; the others hold (`test_file_retired` as TEST_RETIRED). */
export type TamperKind =
  | 'skip_added'
  | 'skip_added_new_file'
  | 'assertion_removed'
  | 'test_file_deleted'
  | 'test_file_retired'
  | 'test_file_renamed'
  | 'runner_config_changed'
  | 'always_equal'
  | 'expectation_changed'
  | 'placeholder_test'
  | 'runner_hook_added'
  | 'assertion_redefined';

/** One finding, with the line it points at (new side, or baseline side where the detail says so). */
export interface TamperFinding {
  readonly kind: TamperKind;
  readonly path: string;
  readonly line: number | null;
  readonly detail: string;
}

/** Sort findings by path, line, kind, detail (deterministic output). */
export function sortFindings(findings: TamperFinding[]): TamperFinding[] {
  const key = (f: TamperFinding) => [f.path, String(f.line ?? 0).padStart(12, '0'), f.kind, f.detail];
  return findings.sort((a, b) => {
    const [ka, kb] = [key(a), key(b)];
    for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i]! < kb[i]! ? -1 : 1;
    return 0;
  });
}
