/**
 * Which runner a command starts, told from its words (or forced with `--runner`).
 * @module
 */
import type { Runner } from '@adversary-gate/schemas';

/** The runners `--runner` accepts. */
export const RUNNERS: readonly Runner[] = ['generic', 'pytest', 'node', 'jest', 'vitest', 'mocha', 'ava'];

/**
 * Detect the runner from a shell command: `pytest`, `py.test`, `python -m pytest`; `node --test`;
 * `jest`, `vitest`, `mocha`, `ava` as a word or a path ending in it (`npx jest`,
 * `node_modules/.bin/ava`). Anything else (`npm test`, `make check`) is `generic`.
 */
export function detectRunner(command: string): Runner {
  const words = command.split(/[\s;&|()]+/).filter((w) => w !== '');
  const base = (w: string) => w.slice(w.lastIndexOf('/') + 1);
  const names = words.map(base);
  if (names.some((n) => n === 'pytest' || n === 'py.test' || /^pytest-\d/.test(n))) return 'pytest';
  for (let i = 0; i + 1 < words.length; i++) if (words[i] === '-m' && words[i + 1] === 'pytest') return 'pytest';
  if (names.some((n) => /^node(js)?(\d+)?$/.test(n)) && words.some((w) => w === '--test' || w.startsWith('--test=')))
    return 'node';
  for (const r of ['vitest', 'jest', 'mocha', 'ava'] as const) if (names.includes(r)) return r;
  return 'generic';
}

/** A command whose runner prints TAP on stdout (`ava --tap`, `tap --reporter=tap`, tape): stdout is its per-test report. */
export function printsTap(command: string): boolean {
  return (
    /(^|\s)--tap(\s|$)/.test(command) ||
    /(^|\s)--reporter[= ]tap(\s|$)/.test(command) ||
    /(^|[\s/])tape(\s|$)/.test(command)
  );
}
