/**
 * The diffcov artefact as SARIF 2.1.0 for code-scanning annotations: one result per
 * uncovered range of changed lines, one per coverage pragma added.
 * @module
 */
import type { DiffcovArtefact } from '@adversary-gate/schemas';
import { formatRange } from '../ranges.js';

const UNCOVERED = 'uncovered-changed-lines';
const PRAGMA = 'coverage-pragma-added';

/** Build the SARIF log (a plain object, ready for canonical JSON). */
export function renderSarif(d: DiffcovArtefact, tool: { name: string; version: string }): Record<string, unknown> {
  const results: Record<string, unknown>[] = [];
  const location = (path: string, startLine: number, endLine: number) => ({
    physicalLocation: { artifactLocation: { uri: path, uriBaseId: '%SRCROOT%' }, region: { startLine, endLine } },
  });
  for (const f of d.files) {
    for (const r of f.uncovered) {
      const where = r[0] === r[1] ? `line ${r[0]}` : `lines ${formatRange(r)}`;
      const why = f.in_report ? 'the tests did not execute it' : 'the file is absent from every coverage report';
      results.push({
        ruleId: UNCOVERED,
        level: 'warning',
        message: { text: `Changed ${where} not covered: ${why}.` },
        locations: [location(f.path, r[0], r[1])],
      });
    }
  }
  for (const p of d.pragmas) {
    results.push({
      ruleId: PRAGMA,
      level: 'warning',
      message: { text: `Coverage pragma added on a changed line: ${p.text}` },
      locations: [location(p.path, p.line, p.line)],
    });
  }
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: tool.name,
            version: tool.version,
            informationUri: 'https://adversary-gate.dev',
            rules: [
              { id: UNCOVERED, shortDescription: { text: 'Changed lines the tests did not execute' } },
              { id: PRAGMA, shortDescription: { text: 'Coverage-suppression pragma added by the patch' } },
            ],
          },
        },
        results,
      },
    ],
  };
}
