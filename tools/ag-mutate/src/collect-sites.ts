/**
 * The mutation sites of the changed files, from the engines (JavaScript and TypeScript in
 * process, Python through its helper), with where a canary can go and which changed lines hold
 * code that runs. A file an engine cannot read is a fault, and leaves the strength unverified.
 * @module
 */
import type { MutationArtefact } from '@adversary-gate/schemas';
import type { MutableFile } from './changes.js';
import { EngineParseError, jsAnalysis } from './engines/js.js';
import { pythonAnalysis } from './engines/python.js';
import type { CanarySpot, Site } from './engines/site.js';

type Fault = MutationArtefact['faults'][number];

/** What the engines found in the changed files. */
export interface Collected {
  sites: Site[];
  /** Where a canary can go in each function that holds an added line. */
  canarySpots: CanarySpot[];
  /** Changed lines that hold code that runs (statements, case labels), per file. */
  executable: Map<string, number[]>;
  /** Some changed file could not be read by its engine. */
  unjudged: boolean;
}

/** Every site of `files` (their texts in `texts`); what the engines could not read goes to `faults`. */
export async function collectSites(
  files: readonly MutableFile[],
  texts: Map<string, string>,
  python: string,
  faults: Fault[],
): Promise<Collected> {
  const sites: Site[] = [];
  const canarySpots: CanarySpot[] = [];
  const executable = new Map<string, number[]>();
  let unjudged = false;
  for (const f of files.filter((x) => x.language === 'js')) {
    try {
      const a = jsAnalysis(f.path, texts.get(f.path)!, f.lines);
      sites.push(...a.sites);
      canarySpots.push(...a.canarySpots);
      executable.set(f.path, a.executable);
    } catch (error) {
      if (!(error instanceof EngineParseError)) throw error;
      faults.push({ code: 'ENGINE_PARSE_ERROR', message: error.message });
      unjudged = true;
    }
  }
  const py = files.filter((x) => x.language === 'python');
  if (py.length > 0) {
    try {
      const answer = await pythonAnalysis(
        python,
        py.map((f) => ({ path: f.path, text: texts.get(f.path)!, lines: f.lines })),
      );
      for (const [file, result] of answer) {
        if (result instanceof EngineParseError) {
          faults.push({ code: 'ENGINE_PARSE_ERROR', message: result.message });
          unjudged = true;
        } else {
          sites.push(...result.sites);
          canarySpots.push(...result.canarySpots);
          executable.set(file, result.executable);
        }
      }
    } catch (error) {
      faults.push({ code: 'ENGINE_FAILURE', message: (error as Error).message });
      unjudged = true;
    }
  }
  return { sites, canarySpots, executable, unjudged };
}
