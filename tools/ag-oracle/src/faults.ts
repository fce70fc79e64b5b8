/**
 * Faults: problems the tool could name and kept going past; any fault forces HOLD.
 * @module
 */

/** A recorded fault (the envelope's `faults[]` item). */
export interface Fault {
  readonly code: string;
  readonly message: string;
}
