/**
 * The example policy of docs/DESIGN.md (the first `json` block under "The policy file"),
 * read from this repository, so a test fails when the documented example stops loading.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const DESIGN = fileURLToPath(new URL('../../../../docs/DESIGN.md', import.meta.url));

/** The example's text; throws when the section or its block is gone. */
export function designPolicyExample(): string {
  const doc = readFileSync(DESIGN, 'utf8');
  const m = /^## The policy file[^\n]*\n(?:(?!^## )[\s\S])*?^```json\n([\s\S]*?)^```/m.exec(doc);
  if (m === null) throw new Error(`${DESIGN}: no \`json\` block under "## The policy file"`);
  return m[1]!;
}
