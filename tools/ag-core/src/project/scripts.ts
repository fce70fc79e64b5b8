/**
 * Reading a package.json `test` script: the segments it chains, and the runner each starts.
 * Only the runner's own invocation is kept (its files, config and flags); what the script
 * chains around it (a linter, a type check, a size limit) is not the tests.
 * @module
 */

/** The runners the gate knows how to wire, as their binaries are named in scripts. */
export const JS_RUNNERS = ['vitest', 'jest', 'mocha', 'ava', 'node', 'tap', 'tape'] as const;
export type JsRunner = (typeof JS_RUNNERS)[number];

/** One runner invocation found in a script: the runner and its words after the binary. */
export interface ScriptInvocation {
  readonly runner: JsRunner;
  readonly args: readonly string[];
  /** The words of `args` the script leaves for the shell to expand (`test/*.test.js` written bare). */
  readonly globbed: readonly string[];
}

const WRAPPERS = new Set(['npx', 'pnpm', 'yarn', 'exec', 'cross-env', 'env', 'nyc', 'c8']);

/**
 * Split a shell command into words: quotes respected, no expansion (scripts are data here).
 * `globbed` collects the words with a glob character outside quotes (`*`, `?`, `[`): the
 * shell expands them, so a command rebuilt from the words must leave them bare.
 */
export function shellWords(text: string, globbed?: Set<string>): string[] {
  const words: string[] = [];
  let word = '';
  let quote: '"' | "'" | null = null;
  let started = false;
  let glob = false;
  const end = () => {
    if (started || word !== '') words.push(word);
    if (glob) globbed?.add(word);
    word = '';
    started = false;
    glob = false;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quote !== null) {
      if (c === quote) quote = null;
      else if (c === '\\' && quote === '"' && i + 1 < text.length) word += text[++i];
      else word += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      started = true;
    } else if (c === '\\' && i + 1 < text.length) {
      word += text[++i];
      started = true;
    } else if (c === ' ' || c === '\t' || c === '\n') {
      end();
    } else {
      if (c === '*' || c === '?' || c === '[') glob = true;
      word += c;
      started = true;
    }
  }
  end();
  return words;
}

/** The commands a script chains with `&&`, `||`, `;` or `|` (outside quotes). */
export function scriptSegments(script: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quote: string | null = null;
  for (let i = 0; i < script.length; i++) {
    const c = script[i] as string;
    if (quote !== null) {
      if (c === quote) quote = null;
      cur += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      cur += c;
    } else if (c === ';' || c === '|' || (c === '&' && script[i + 1] === '&')) {
      if (c !== ';' && script[i + 1] === c) i++;
      out.push(cur.trim());
      cur = '';
    } else cur += c;
  }
  out.push(cur.trim());
  return out.filter((s) => s !== '');
}

/** The runner a segment starts, looking past env assignments and wrappers (npx, cross-env, nyc, c8). */
export function segmentInvocation(segment: string): ScriptInvocation | null {
  const bare = new Set<string>();
  const words = shellWords(segment, bare);
  let i = 0;
  while (i < words.length) {
    const w = words[i] as string;
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(w)) i++;
    else if (WRAPPERS.has(w)) {
      i++;
      // A wrapper's own flags (npx --no-install, nyc --reporter=lcov) come before the command.
      while (i < words.length && (words[i] as string).startsWith('-')) i++;
    } else break;
  }
  const bin = words[i];
  if (bin === undefined) return null;
  const name = bin.replace(/^.*node_modules\/\.bin\//, '');
  const runner = (JS_RUNNERS as readonly string[]).includes(name) ? (name as JsRunner) : null;
  if (runner === null) return null;
  const args = words.slice(i + 1);
  // `node` alone is a script, not the test runner: only `node --test` is.
  if (runner === 'node' && !args.includes('--test')) return null;
  return { runner, args, globbed: args.filter((a) => bare.has(a)) };
}

/** The first runner invocation in a script, or null when it starts none the gate knows. */
export function scriptInvocation(script: string): ScriptInvocation | null {
  for (const seg of scriptSegments(script)) {
    const found = segmentInvocation(seg);
    if (found !== null) return found;
  }
  return null;
}

/**
 * A runner's arguments without the flags the gate sets itself (reporters, bail, watch, the
 * output file, coverage): what stays is the project's choice of files, config and behaviour.
 */
export function keptArgs(runner: JsRunner, args: readonly string[]): string[] {
  const dropWithValue = new Set([
    '--reporter',
    '-R',
    '--reporter-option',
    '--reporter-options',
    '-O',
    '--reporters',
    '--test-reporter',
    '--test-reporter-destination',
    '--outputFile',
  ]);
  const dropAlone = new Set([
    '--bail',
    '-b',
    '--watch',
    '-w',
    '--coverage',
    '--verbose',
    '--tap',
    '--ci',
    '--run',
    '--experimental-test-coverage',
    '--test',
    '--color',
    '--colors',
  ]);
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    const key = a.includes('=') ? a.slice(0, a.indexOf('=')) : a;
    if (
      dropWithValue.has(key) ||
      key.startsWith('--reporter') ||
      key.startsWith('--coverage.') ||
      key.startsWith('--outputFile')
    ) {
      if (!a.includes('=') && dropWithValue.has(a)) i++;
      continue;
    }
    if (dropAlone.has(a)) continue;
    if (runner === 'vitest' && i === 0 && a === 'run') continue;
    out.push(a);
  }
  return out;
}
