/**
 * ag-mutate's internal records: what its own hooks, its Python helper and V8 write for it
 * while the tests run. They are not artefacts and not part of the public contract (their
 * shapes may change with any version); each is still read through a valibot schema, and a
 * record that does not parse or does not match its schema is treated as a missing one.
 * @module
 */
import { readFileSync } from 'node:fs';
import * as v from 'valibot';

/** Parse `text` as JSON and check it against `schema`; null when it is not JSON or does not match. */
export function parseRecord<const S extends v.GenericSchema>(schema: S, text: string): v.InferOutput<S> | null {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  const checked = v.safeParse(schema, raw);
  return checked.success ? checked.output : null;
}

/** Read `file` and parse it as `parseRecord` does; null also when it cannot be read. */
export function readRecord<const S extends v.GenericSchema>(schema: S, file: string): v.InferOutput<S> | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  return parseRecord(schema, text);
}
