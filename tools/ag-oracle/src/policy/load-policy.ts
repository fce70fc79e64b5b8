/**
 * The policy, read only from the trusted side: `adversary-gate.json` at the baseline root,
 * or a `--policy` file that lies outside the patch tree. The patch's copy is never read.
 * A baseline without the file is judged under the documented defaults.
 * @module
 */
import { lstatSync } from 'node:fs';
import path from 'node:path';
import { InputError, liesInside, UsageError } from '@adversary-gate/core';
import {
  DEFAULT_POLICY,
  LoadError,
  loadJson,
  PolicyFile,
  resolvePolicy,
  sha256,
  type Policy,
} from '@adversary-gate/schemas';

/** The policy's file name at the baseline root. */
export const POLICY_FILE_NAME = 'adversary-gate.json';

/**
 * A policy as loaded: where it came from (`file`, or `default` when the baseline has no
 * policy file and none was given), its path and digest (null for the defaults) and its values.
 */
export interface LoadedPolicy {
  readonly source: 'file' | 'default';
  readonly path: string | null;
  readonly sha256: `sha256:${string}` | null;
  readonly policy: Policy;
}

/** True when nothing at all (not even a dangling link) is at `file`. */
function absent(file: string): boolean {
  try {
    lstatSync(file);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

/**
 * Find and load the policy. `--policy` inside the patch tree is a usage error. A baseline
 * with nothing at `adversary-gate.json` (and no `--policy`) gives the defaults; a `--policy`
 * that is missing, or a policy file that is there but unreadable or invalid, is an input error.
 * A policy without `oracle.protected` protects the defaults.
 * @throws UsageError | InputError | LoadError
 */
export async function loadPolicy(options: {
  baseline: string;
  patch: string;
  policy?: string | undefined;
}): Promise<LoadedPolicy> {
  const file = options.policy ?? path.join(options.baseline, POLICY_FILE_NAME);
  if (liesInside(file, options.patch)) {
    if (options.policy !== undefined)
      throw new UsageError(
        `--policy ${options.policy} lies inside the patch tree; the policy must come from outside it`,
      );
    throw new UsageError(`the baseline's policy ${file} lies inside the patch tree; give --baseline outside --patch`);
  }
  if (options.policy === undefined && absent(file))
    return { source: 'default', path: null, sha256: null, policy: DEFAULT_POLICY };
  let loaded;
  try {
    loaded = await loadJson(file, PolicyFile);
  } catch (error) {
    if (error instanceof LoadError && error.code === 'E_EVIDENCE_MISSING') {
      throw new InputError(
        file,
        `${error.problem}: the policy must be ${options.policy === undefined ? `${POLICY_FILE_NAME} at the baseline root, a readable file (or nothing: the defaults)` : 'readable'}`,
      );
    }
    throw error;
  }
  const { bytes, value } = loaded;
  return { source: 'file', path: file, sha256: sha256(bytes), policy: resolvePolicy(value) };
}
