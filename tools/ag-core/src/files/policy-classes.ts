/**
 * The file classifier a policy file asks for (`files.test`, `files.not_code` globs), so
 * every tool that classifies files agrees with ag-decide, which applies the same policy.
 * @module
 */
import { loadJson, PolicyFile, sha256 } from '@adversary-gate/schemas';
import { makeClassifier, type FileClass } from './classify.js';

/** A classifier and, when a policy file shaped it, that file as an input with its digest. */
export interface PolicyClasses {
  readonly classify: (path: string) => FileClass;
  readonly input: { readonly role: 'policy'; readonly path: string; readonly sha256: `sha256:${string}` } | null;
}

/**
 * Build the classifier from `--policy FILE` (strict loader), or the defaults without one.
 * The policy's globs extend the defaults unless its `files.replace` lists the class.
 * @throws LoadError
 */
export async function loadPolicyClasses(policyFile: string | undefined | null): Promise<PolicyClasses> {
  if (policyFile === undefined || policyFile === null) return { classify: makeClassifier(), input: null };
  const { bytes, value } = await loadJson(policyFile, PolicyFile);
  return {
    classify: makeClassifier({
      test: value.files?.test ?? null,
      not_code: value.files?.not_code ?? null,
      replace: value.files?.replace ?? [],
    }),
    input: { role: 'policy', path: policyFile, sha256: sha256(bytes) },
  };
}
