/**
 * Mocks are not the code, in JavaScript: when the tests replaced a collaborator of a changed
 * function (js-collaborators.ts) with a jest, vitest or node:test mock, the recording run noted what the
 * mock answered inside the function's calls; here the judge is asked to call the real export,
 * from the project's own file loaded as it is in a fresh Node process, twice on each of those
 * argument lists, and the answers are read back as the contracts that contract-rules.ts judges
 * (the same rules as Python's: a mock's answer of a kind the real one's cannot be).
 * @module
 */
import path from 'node:path';
import * as v from 'valibot';
import { readInside } from '@adversary-gate/core';
import type { Node } from '@babel/types';
import { Shape } from '../records/judge.js';
import { parseRecord } from '../records/read.js';
import { collaboratorsOf, relativeBindings, type Collaborator } from './js-collaborators.js';
import type { Contract, RealAnswer, Shape as ShapeType } from './contract-rules.js';
import { readModule, walk } from './js-functions.js';
import { callText, distinct, type Args } from './js-inputs.js';
import type { Outcomes } from './rules.js';

/** What a collaborator's mock answered inside a function's calls. */
export interface MockCalls {
  readonly unrecordable: number;
  readonly calls: readonly { readonly args: Args; readonly shape: ShapeType }[];
}

/** A job asking a real collaborator (runtime/js-judge-version.cjs with `real`). */
export interface RealJob {
  readonly module: string;
  readonly kind: 'commonjs' | 'module';
  readonly name: string;
  readonly real: readonly string[];
  readonly inputs: readonly Args[];
  readonly times: 2;
}

/** How Node loads a plain JavaScript file of the copy (null: not plain). */
type KindOf = (file: string) => 'commonjs' | 'module' | null;

const MAX_FILE = 4 * 1024 * 1024;
const MAX_ASKED = 20;

/** The tree-relative file a relative `source` of `file` loads, as Node resolves a plain path, and its text; null when none is there. */
function resolveSource(root: string, file: string, source: string): { file: string; text: string } | null {
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(file), source));
  if (base.startsWith('../') || base === '..') return null;
  const tries = /\.(?:js|cjs|mjs)$/.test(base)
    ? [base]
    : [`${base}.js`, `${base}.cjs`, `${base}.mjs`, `${base}/index.js`, `${base}/index.cjs`];
  for (const t of tries) {
    const read = readInside(root, t, MAX_FILE);
    if (read.ok) return { file: t, text: read.data.toString('utf8') };
  }
  return null;
}

/** The names of the errors a function's own text throws (`throw new RangeError(…)`). */
function thrownNames(fn: Node): string[] {
  const names = new Set<string>();
  walk(fn, (n) => {
    if (n.type !== 'ThrowStatement') return;
    const e = n.argument as Node;
    const callee = e.type === 'NewExpression' || e.type === 'CallExpression' ? (e.callee as Node) : null;
    if (callee?.type === 'Identifier') names.add(callee.name);
  });
  return [...names].sort();
}

const RealOutcome = v.strictObject({ answer: v.string(), shape: v.nullable(Shape) });

/** The real collaborator's two answers to one input (null: it was not answered). */
function realAnswers(row: readonly string[] | undefined): RealAnswer[] | null {
  if (row === undefined || row.length !== 2) return null;
  const read = row.map((o) => parseRecord(RealOutcome, o));
  return read.every((r) => r !== null) ? (read as RealAnswer[]) : null;
}

/**
 * Plan the questions about the mocks of `file`'s function `name` (`text`: the patch's file):
 * `add` queues a job and answers its index; `finish` reads the jobs' outcomes as contracts.
 */
export function planContracts(
  f: {
    readonly file: string;
    readonly name: string;
    readonly text: string;
    readonly root: string;
    readonly kindOf: KindOf;
    readonly mocks: ReadonlyMap<string, MockCalls>;
  },
  add: (job: RealJob) => number,
): { finish(at: (i: number) => Outcomes): Contract[] } {
  const mod = readModule(f.file, f.text);
  const fn = mod?.functions.get(f.name);
  const known = new Map<string, Collaborator>(
    mod != null && fn !== undefined
      ? collaboratorsOf(fn.node, relativeBindings(mod.program)).map((c) => [c.name, c])
      : [],
  );
  type Planned =
    | { readonly contract: Contract }
    | {
        readonly name: string;
        readonly base: Pick<Contract, 'name' | 'unpicklable' | 'mock_answers'>;
        readonly inputs: Args[];
        readonly job: number;
        readonly raises: string[];
      };
  const planned = [...f.mocks].map(([name, mock]): Planned => {
    const base = { name, unpicklable: mock.unrecordable, mock_answers: mock.calls.length };
    const c = known.get(name);
    const found = c !== undefined ? resolveSource(f.root, f.file, c.source) : null;
    const kind = found !== null ? f.kindOf(found.file) : null;
    if (c === undefined || found === null || kind === null)
      return {
        contract: {
          ...base,
          problem: `the real ${name} could not be found as a plain JavaScript file of the project${c !== undefined ? ` (${c.source})` : ''}`,
          raises: [],
          calls: [],
        } satisfies Contract,
      };
    const real = readModule(found.file, found.text);
    const own = real?.functions.get(c.path[c.path.length - 1] ?? '');
    const inputs = distinct(mock.calls.map((x) => x.args)).slice(0, MAX_ASKED);
    const job = add({ module: path.join(f.root, found.file), kind, name, real: c.path, inputs, times: 2 });
    return { name, base, inputs, job, raises: own !== undefined ? thrownNames(own.node) : [] };
  });
  return {
    finish(at) {
      return planned.map((p): Contract => {
        if ('contract' in p) return p.contract;
        const rows = at(p.job);
        const keys = p.inputs.map((a) => JSON.stringify(a));
        const mock = f.mocks.get(p.name)!;
        return {
          ...p.base,
          problem: null,
          raises: p.raises,
          calls: mock.calls.map((x) => {
            const i = keys.indexOf(JSON.stringify(x.args));
            return {
              text: callText(p.name, x.args),
              mock: x.shape,
              real: rows === null || i < 0 ? null : realAnswers(rows[i]),
            };
          }),
        };
      });
    },
  };
}
