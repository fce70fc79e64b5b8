/**
 * The policy, read only from the trusted side: `adversary-gate.json` at the baseline root,
 * or a `--policy` file that lies outside the patch tree. The patch's copy is never read.
 * @module
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { InputError, UsageError } from '@adversary-gate/core';
import { LoadError, loadJson, PolicyFile, resolvePolicy, sha256, type Policy } from '@adversary-gate/schemas';

/** The policy's file name at the baseline root. */
export const POLICY_FILE_NAME = 'adversary-gate.json';

/** A policy as loaded: where it came from, its digest and its resolved values. */
export interface LoadedPolicy {
  readonly path: string;
  readonly sha256: `sha256:${string}`;
  readonly policy: Policy;
}

/** The real path of `p`, or of its nearest existing ancestor joined with the rest. */
async function realish(p: string): Promise<string> {
  const abs = path.resolve(p);
  try {
    return await fs.realpath(abs);
  } catch {
    const parent = path.dirname(abs);
    if (parent === abs) return abs;
    return path.join(await realish(parent), path.basename(abs));
  }
}

/** True when `inner` is `outer` or lies below it. */
export function isWithin(outer: string, inner: string): boolean {
  const rel = path.relative(outer, inner);
  return rel === '' || (!rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel));
}

/**
 * Find and load the policy. `--policy` inside the patch tree is a usage error; a missing
 * or invalid policy, or one without a non-empty `oracle.protected` list, is an input error.
 * @throws UsageError | InputError | LoadError
 */
export async function loadPolicy(options: { baseline: string; patch: string; policy?: string | undefined }): Promise<LoadedPolicy> {
  const file = options.policy ?? path.join(options.baseline, POLICY_FILE_NAME);
  const patchReal = await realish(options.patch);
  if (isWithin(path.resolve(options.patch), path.resolve(file)) || isWithin(patchReal, await realish(file))) {
    if (options.policy !== undefined) throw new UsageError(`--policy ${options.policy} lies inside the patch tree; the policy must come from outside it`);
    throw new UsageError(`the baseline's policy ${file} lies inside the patch tree; give --baseline outside --patch`);
  }
  let loaded;
  try {
    loaded = await loadJson(file, PolicyFile);
  } catch (error) {
    if (error instanceof LoadError && error.code === 'E_EVIDENCE_MISSING') {
      throw new InputError(file, `${error.problem}: the policy must be ${options.policy === undefined ? `${POLICY_FILE_NAME} at the baseline root` : 'readable'}`);
    }
    throw error;
  }
  const { bytes, value } = loaded;
  if (value.oracle?.protected === undefined) {
    throw new InputError(file, 'policy has no "oracle.protected" list; ag-oracle needs one (and refuses an empty one)');
  }
  return { path: file, sha256: sha256(bytes), policy: resolvePolicy(value) };
}
