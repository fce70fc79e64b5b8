/**
 * Which test runner a shell command starts, told from its words: the one rule ag-run (its
 * report and summary readers) and ag-mutate (its per-test selection) share.
 * @module
 */

/** A runner a command can be seen to start; `generic` for anything else (`npm test`, `make check`). */
export type CommandRunner = 'generic' | 'pytest' | 'node' | 'jest' | 'vitest' | 'mocha' | 'ava';

/**
 * The runner of a shell command: `pytest`, `py.test`, `python -m pytest`, and the gate's own
 * `python3 -c '…import pytest; … pytest.main()'` (a word `pytest` anywhere); `node --test`;
 * `jest`, `vitest`, `mocha`, `ava` as a word or a path ending in it (`npx jest`,
 * `node_modules/.bin/ava`).
 */
export function commandRunner(command: string): CommandRunner {
  const words = command.split(/[\s;&|()'"]+/).filter((w) => w !== '');
  const base = (w: string) => w.slice(w.lastIndexOf('/') + 1);
  const names = words.map(base);
  if (names.some((n) => n === 'pytest' || n === 'py.test' || /^pytest-\d/.test(n))) return 'pytest';
  for (let i = 0; i + 1 < words.length; i++) if (words[i] === '-m' && words[i + 1] === 'pytest') return 'pytest';
  if (names.some((n) => /^node(js)?(\d+)?$/.test(n)) && words.some((w) => w === '--test' || w.startsWith('--test=')))
    return 'node';
  for (const r of ['vitest', 'jest', 'mocha', 'ava'] as const) if (names.includes(r)) return r;
  return 'generic';
}
