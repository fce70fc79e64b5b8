/**
 * Reading the evidence files (the only I/O of a decision besides the diff and policy).
 * @module
 */
import { LoadError, loadArtefact, sha256, type LoadedArtefact } from '@adversary-gate/schemas';

/** One `--evidence` file as read: its digest when it had bytes, the artefact or the error. */
export interface EvidenceFile {
  readonly path: string;
  readonly sha256: string | null;
  readonly loaded: LoadedArtefact | null;
  readonly error: LoadError | null;
}

/** Read every evidence file through the strict loader; never throws for a bad file. */
export async function readEvidenceFiles(paths: readonly string[]): Promise<EvidenceFile[]> {
  return Promise.all(
    paths.map(async (path): Promise<EvidenceFile> => {
      try {
        const loaded = await loadArtefact(path);
        return { path, sha256: sha256(loaded.bytes), loaded, error: null };
      } catch (error) {
        if (error instanceof LoadError) return { path, sha256: null, loaded: null, error };
        const message = error instanceof Error ? error.message : String(error);
        return { path, sha256: null, loaded: null, error: new LoadError('E_EVIDENCE_MALFORMED', path, message) };
      }
    }),
  );
}
