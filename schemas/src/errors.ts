/**
 * The one error type every reader throws: a code and a one-line message naming the file.
 * @module
 */

/** Why a JSON file was refused. */
export type LoadErrorCode =
  | 'E_EVIDENCE_MISSING'
  | 'E_NOT_REGULAR_FILE'
  | 'E_TOO_LARGE'
  | 'E_ENCODING'
  | 'E_EVIDENCE_MALFORMED'
  | 'E_DUPLICATE_KEY'
  | 'E_FORBIDDEN_KEY'
  | 'E_NUMBER'
  | 'E_SCHEMA_VERSION'
  | 'E_UNKNOWN_SCHEMA'
  | 'E_UNKNOWN_KEY'
  | 'E_MISSING_FIELD'
  | 'E_TYPE';

/** A file could not be read as the artefact it claims to be. `message` is `file: problem`. */
export class LoadError extends Error {
  override readonly name = 'LoadError';
  constructor(
    readonly code: LoadErrorCode,
    readonly file: string,
    readonly problem: string,
  ) {
    super(`${file}: ${problem}`);
  }
}
