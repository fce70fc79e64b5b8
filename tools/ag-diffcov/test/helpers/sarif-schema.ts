// The official SARIF 2.1.0 JSON schema (OASIS errata01, draft-04), vendored in
// test/fixtures/sarif, compiled once with ajv; formats (uri, uri-reference, date-time) checked.
import { readFileSync } from 'node:fs';
import ajvDraft04 from 'ajv-draft-04';
import ajvFormats from 'ajv-formats';

// CommonJS packages: Node's default import is module.exports, whose `default` is the class
// (and the plugin), which is also how tsc reads them under NodeNext.
const Ajv = ajvDraft04.default;
const addFormats = ajvFormats.default;

const schema = JSON.parse(
  readFileSync(new URL('../fixtures/sarif/sarif-schema-2.1.0.json', import.meta.url), 'utf8'),
) as object;
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const validate = ajv.compile(schema);

/** The schema's complaints about a SARIF log, one line each (empty: valid). */
export function sarifProblems(log: unknown): string[] {
  if (validate(log)) return [];
  return (validate.errors ?? []).map(
    (e: { instancePath: string; message?: string; params: unknown }) =>
      `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`,
  );
}
