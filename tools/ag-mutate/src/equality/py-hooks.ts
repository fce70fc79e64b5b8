/**
 * Python equality hooks and their probes: the project's own interpreter finds every `__eq__`
 * the patch adds or changes and writes its probe (python/eq_probes.py), appended at the end of
 * the file so that no line moves; the probe's coverage is the hook's body lines.
 * @module
 */
import { runPythonHelper } from '../engines/python.js';
import * as v from 'valibot';
import { EQ_PROBE_HELPER } from '../package-files.js';
import { parseRecord } from '../records/read.js';
import { lineStarts, position, type Site } from '../engines/site.js';
import { probeSite } from './probe-site.js';

const Line = v.pipe(v.number(), v.integer(), v.minValue(1));

/** What python/eq_probes.py answers (internal, not part of the public contract). */
const ProbeAnswer = v.object({
  files: v.array(
    v.object({
      path: v.string(),
      error: v.nullable(v.string()),
      probes: v.array(
        v.object({
          hook: v.string(),
          line: Line,
          column: Line,
          body_lines: v.tuple([Line, Line]),
          comparison: v.picklist(['baseline', 'fields', 'new_fields']),
          fields: v.array(v.string()),
          replacement: v.string(),
          parses: v.boolean(),
        }),
      ),
    }),
  ),
});

/** One Python file to ask about: its text, its baseline (null: new) and its added lines. */
export interface PyProbeRequest {
  readonly path: string;
  readonly text: string;
  readonly baseline: string | null;
  readonly lines: ReadonlySet<number>;
}

/**
 * The equality probes of the Python files, as sites (an insertion at the file's end).
 * @throws Error when the interpreter cannot be run or answers nonsense (no probe can be listed)
 */
export async function pyProbes(python: string, files: readonly PyProbeRequest[]): Promise<Site[]> {
  if (files.length === 0) return [];
  const input = JSON.stringify({
    files: files.map((f) => ({ path: f.path, text: f.text, baseline: f.baseline, lines: [...f.lines] })),
  });
  const run = await runPythonHelper(python, EQ_PROBE_HELPER, input);
  if (run.code !== 0)
    throw new Error(`python (${python}) failed: ${run.stderr.trim().split('\n').pop() ?? `exit ${run.code}`}`);
  const answer = parseRecord(ProbeAnswer, run.stdout);
  if (answer === null || answer.files.length !== files.length) throw new Error(`python (${python}) answered nonsense`);
  const out: Site[] = [];
  files.forEach((f, i) => {
    const got = answer.files[i]!;
    if (got.path !== f.path) throw new Error(`python (${python}) answered for the wrong file`);
    const at = f.text.length;
    const where = position(lineStarts(f.text), at);
    for (const p of got.probes)
      out.push(
        probeSite(
          f.path,
          at,
          where,
          p.replacement,
          p.parses,
          {
            hook: p.hook,
            line: p.line,
            column: p.column,
            comparison: p.comparison,
            ...(p.comparison === 'new_fields' ? { fields: p.fields } : {}),
          },
          p.body_lines,
        ),
      );
  });
  return out;
}
