/**
 * The policy ag-decide applies: from `--policy FILE`, or the defaults of DESIGN.md.
 * @module
 */
import {
  DEFAULT_POLICY,
  LoadError,
  loadJson,
  PolicyFile,
  resolvePolicy,
  sha256,
  type Policy,
} from '@adversary-gate/schemas';

/** A policy as loaded, with where it came from; `problem` when the file was unreadable. */
export interface LoadedPolicy {
  readonly policy: Policy;
  readonly ref: { source: 'default' | 'file'; path: string | null; sha256: `sha256:${string}` | null };
  readonly problem: string | null;
}

/** Load `--policy FILE` or fall back to the defaults; an unreadable file is a problem, not a throw. */
export async function loadPolicy(file: string | undefined): Promise<LoadedPolicy> {
  if (file === undefined)
    return { policy: DEFAULT_POLICY, ref: { source: 'default', path: null, sha256: null }, problem: null };
  try {
    const { bytes, value } = await loadJson(file, PolicyFile);
    return { policy: resolvePolicy(value), ref: { source: 'file', path: file, sha256: sha256(bytes) }, problem: null };
  } catch (error) {
    const message = error instanceof LoadError || error instanceof Error ? error.message : String(error);
    return { policy: DEFAULT_POLICY, ref: { source: 'file', path: file, sha256: null }, problem: message };
  }
}
