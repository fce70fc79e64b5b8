/**
 * The Python engine: the project's own interpreter lists mutation sites with `ast`
 * (python/sites.py), so the grammar is always the one the tests run on.
 * @module
 */
import { spawn } from 'node:child_process';
import { PYTHON_HELPER } from '../package-files.js';
import { PythonAnswer } from '../records/python-answer.js';
import { parseRecord } from '../records/read.js';
import { EngineParseError } from './js.js';
import { lineStarts, position, shorten, type CanarySpot, type Site } from './site.js';

/** One file to ask about. */
export interface PythonRequest {
  readonly path: string;
  readonly text: string;
  readonly lines: ReadonlySet<number>;
  /** Reverted texts of the file to judge (reverts.ts): does each compile, and is its code the file's own? */
  readonly reverts?: readonly string[];
}

/** A reverted text as the interpreter judged it. */
export interface RevertCheck {
  readonly parses: boolean;
  /** The code (docstrings, comments and layout left out) is the file's own: no executable change. */
  readonly same: boolean;
}

/** Code-point offset → UTF-16 offset (they differ only after astral characters). */
function utf16Offset(text: string, codePoints: number): number {
  let units = 0;
  let seen = 0;
  while (seen < codePoints && units < text.length) {
    const c = text.codePointAt(units)!;
    units += c > 0xffff ? 2 : 1;
    seen++;
  }
  return units;
}

/** Run one of ag-mutate's Python helpers (isolated mode, no bytecode written) on `input`: its exit and its output. */
export function runPythonHelper(
  python: string,
  helper: string,
  input: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(python, ['-I', '-B', helper], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8' },
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', (e) => resolve({ code: null, stdout: '', stderr: e.message }));
    child.on('close', (code) =>
      resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }),
    );
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
  });
}

/** Result per file: its sites, or the reason it could not be read. */
export type PythonSites = Map<string, Site[] | EngineParseError>;

/** Result per file: its sites and its executable lines among the asked ones, or why it could not be read. */
export type PythonAnalysis = Map<
  string,
  { sites: Site[]; executable: number[]; canarySpots: CanarySpot[]; reverts: RevertCheck[] } | EngineParseError
>;

/**
 * Ask `python` for the mutation sites of every file on its added lines.
 * @throws Error when the interpreter cannot be run or answers nonsense (an engine failure)
 */
export async function pythonSites(python: string, files: readonly PythonRequest[]): Promise<PythonSites> {
  const analysis = await pythonAnalysis(python, files);
  return new Map([...analysis].map(([k, v]) => [k, v instanceof EngineParseError ? v : v.sites]));
}

/**
 * The sites of every file on its added lines, and which of those lines hold statements or case labels.
 * @throws Error when the interpreter cannot be run or answers nonsense (an engine failure)
 */
export async function pythonAnalysis(python: string, files: readonly PythonRequest[]): Promise<PythonAnalysis> {
  const result: PythonAnalysis = new Map();
  if (files.length === 0) return result;
  const input = JSON.stringify({
    files: files.map((f) => ({ path: f.path, text: f.text, lines: [...f.lines], reverts: f.reverts ?? [] })),
  });
  const run = await runPythonHelper(python, PYTHON_HELPER, input);
  if (run.code !== 0)
    throw new Error(`python engine (${python}) failed: ${run.stderr.trim().split('\n').pop() ?? `exit ${run.code}`}`);
  // An answer of another shape is no answer: the same engine failure as none.
  const answer = parseRecord(PythonAnswer, run.stdout);
  if (answer === null) throw new Error(`python engine (${python}) wrote no JSON of the expected shape`);
  files.forEach((f, i) => {
    const got = answer.files[i];
    if (!got || got.path !== f.path) throw new Error(`python engine (${python}) answered for the wrong file`);
    if (got.error !== null) {
      result.set(f.path, new EngineParseError(`${f.path}: ${got.error}`));
      return;
    }
    const starts = lineStarts(f.text);
    const sites = got.sites
      .map((s): Site => {
        const start = utf16Offset(f.text, s.start);
        const end = utf16Offset(f.text, s.end);
        const { line, column } = position(starts, start);
        return {
          file: f.path,
          line,
          column,
          start,
          end,
          operator: s.operator,
          rank: s.rank,
          original: shorten(f.text.slice(start, end)),
          replacement: s.replacement,
          parses: s.parses,
          coverLines: s.stmt_lines,
          function: s.function ?? null,
          ...(s.breaks_type === true ? { breaksType: true } : {}),
        };
      })
      .filter((s) => f.lines.has(s.line));
    const canarySpots = (got.canaries ?? []).map((c): CanarySpot => ({
      file: f.path,
      function: c.function,
      fnStart: utf16Offset(f.text, c.fn_start),
      fnEnd: utf16Offset(f.text, c.fn_end),
      start: utf16Offset(f.text, c.start),
      end: utf16Offset(f.text, c.end),
      prefix: c.prefix,
      suffix: c.suffix,
      coverLines: c.stmt_lines,
      parses: c.parses,
      ...(c.rename !== undefined && c.local !== undefined ? { rename: { template: c.rename, local: c.local } } : {}),
    }));
    const reverts = got.reverts ?? [];
    if (reverts.length !== (f.reverts ?? []).length)
      throw new Error(
        `python engine (${python}) judged ${reverts.length} reverts of ${f.path}, not ${(f.reverts ?? []).length}`,
      );
    result.set(f.path, {
      sites,
      executable: (got.executable ?? []).filter((n) => f.lines.has(n)),
      canarySpots,
      reverts,
    });
  });
  return result;
}
