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

/**
 * An output path the writer will not or cannot write to: a missing directory, a directory,
 * a block device, a socket, a symbolic link that does not lead to a device or FIFO, a FIFO
 * nobody reads, a directory it may not write in. `message` is `cannot write FILE: problem`;
 * the CLI frame maps it to exit 3 (a bad argument), and nothing is written.
 */
export class OutputError extends Error {
  override readonly name = 'OutputError';
  constructor(
    readonly file: string,
    readonly problem: string,
  ) {
    super(`cannot write ${file}: ${problem}`);
  }
}

/** An artefact a tool was about to write that its own schema refuses: a bug, never evidence (exit 2). */
export class InvalidArtefactError extends Error {
  override readonly name = 'InvalidArtefactError';
  constructor(
    readonly file: string,
    readonly problem: string,
  ) {
    super(`internal error: refusing to write ${file}: ${problem}`);
  }
}
