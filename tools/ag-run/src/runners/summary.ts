/**
 * The summary line each runner prints at the end, read from the output tails. The summary is
 * one of the three witnesses (exit code, report, summary) that must agree; it is never trusted
 * on its own, because the tests can print anything.
 * @module
 */
import { stripVTControlCharacters } from 'node:util';
import type { Runner } from '@adversary-gate/schemas';
import type { Counts } from '../reports/test-list.js';

const word = (text: string, re: RegExp): number | null => {
  let last: number | null = null;
  for (const m of text.matchAll(re)) last = Number(m[1]);
  return last;
};

/**
 * pytest prints exactly one summary line. When the output holds several (a test printed a
 * forged "N passed" after the real one), each count is the largest any of them gives, so
 * the sum agrees with no report: a forgery can make the run inconsistent, never clean.
 */
function pytestSummary(text: string): Counts | null {
  const lines = text
    .split('\n')
    .filter(
      (l) =>
        / in \d+(\.\d+)?s/.test(l) && /(passed|failed|error|skipped|xfailed|xpassed|deselected|no tests ran)/.test(l),
    );
  if (lines.length === 0) return null;
  const counts = lines.map((line) => {
    const n = (re: RegExp) => word(line, re) ?? 0;
    return {
      passed: n(/(\d+) passed/g) + n(/(\d+) xpassed/g),
      failed: n(/(\d+) failed/g) + n(/(\d+) errors?\b/g),
      skipped: n(/(\d+) skipped/g) + n(/(\d+) xfailed/g),
    };
  });
  const most = (key: 'passed' | 'failed' | 'skipped') => Math.max(...counts.map((c) => c[key]));
  const [passed, failed, skipped] = [most('passed'), most('failed'), most('skipped')];
  return { passed, failed, skipped, total: passed + failed + skipped };
}

function jestSummary(text: string): Counts | null {
  const line = text
    .split('\n')
    .filter((l) => /^\s*Tests:\s/.test(l))
    .pop();
  if (line === undefined) return null;
  const n = (re: RegExp) => word(line, re) ?? 0;
  const passed = n(/(\d+) passed/g);
  const failed = n(/(\d+) failed/g);
  const skipped = n(/(\d+) skipped/g) + n(/(\d+) todo/g) + n(/(\d+) pending/g);
  return { passed, failed, skipped, total: word(line, /(\d+) total/g) ?? passed + failed + skipped };
}

function vitestSummary(text: string): Counts | null {
  const line = text
    .split('\n')
    .filter((l) => /^\s*Tests\s+\d/.test(l))
    .pop();
  if (line === undefined) return null;
  const n = (re: RegExp) => word(line, re) ?? 0;
  const passed = n(/(\d+) passed/g);
  const failed = n(/(\d+) failed/g);
  const skipped = n(/(\d+) skipped/g) + n(/(\d+) todo/g);
  return { passed, failed, skipped, total: word(line, /\((\d+)\)/g) ?? passed + failed + skipped };
}

function mochaSummary(text: string): Counts | null {
  const passed = word(text, /^\s*(\d+) passing\b/gm);
  if (passed === null) return null;
  const failed = word(text, /^\s*(\d+) failing\b/gm) ?? 0;
  const skipped = word(text, /^\s*(\d+) pending\b/gm) ?? 0;
  return { passed, failed, skipped, total: passed + failed + skipped };
}

function avaSummary(text: string): Counts | null {
  const passed = word(text, /^\s*(\d+) tests? passed/gm);
  const failed = word(text, /^\s*(\d+) tests? failed/gm);
  if (passed === null && failed === null) return null;
  const skipped =
    (word(text, /^\s*(\d+) tests? skipped/gm) ?? 0) +
    (word(text, /^\s*(\d+) tests? todo/gm) ?? 0) +
    (word(text, /^\s*(\d+) known failures?/gm) ?? 0);
  return { passed: passed ?? 0, failed: failed ?? 0, skipped, total: (passed ?? 0) + (failed ?? 0) + skipped };
}

/**
 * The runner's own summary from its output, or null when it printed none (node's lives in its TAP).
 * Colour escapes are read past: the gate forces no colour switch, so a project that forces
 * colour (FORCE_COLOR, `--color=yes`, a runner's config) prints its summary coloured.
 */
export function runnerSummary(runner: Runner, rawStdout: string, rawStderr: string): Counts | null {
  const stdout = stripVTControlCharacters(rawStdout);
  const stderr = stripVTControlCharacters(rawStderr);
  const text = `${stdout}\n${stderr}`;
  switch (runner) {
    case 'pytest':
      return pytestSummary(stdout);
    case 'jest':
      return jestSummary(text);
    case 'vitest':
      return vitestSummary(text);
    case 'mocha':
      return mochaSummary(text);
    case 'ava':
      return avaSummary(text);
    default:
      return null;
  }
}

/**
 * The runner says it found nothing to run (the exit code may say anything). Only whole lines
 * in the runner's own format count; a test that prints them can at worst turn its run into
 * UNRUNNABLE (HOLD), never into PASS.
 */
export function saysNoTests(runner: Runner, rawStdout: string, rawStderr: string): boolean {
  // Coloured output reads as plain (see runnerSummary).
  const stdout = stripVTControlCharacters(rawStdout);
  const stderr = stripVTControlCharacters(rawStderr);
  switch (runner) {
    case 'pytest':
      return (
        /^=*\s*no tests ran in \d+(\.\d+)?s\b/m.test(stdout) ||
        /^ERROR: (file or directory not found|not found):/m.test(`${stdout}\n${stderr}`)
      );
    case 'node':
      return /^Could not find '/m.test(stderr);
    case 'jest':
      return /^No tests found/m.test(`${stdout}\n${stderr}`);
    case 'vitest':
      return /^No test files found/m.test(`${stdout}\n${stderr}`);
    case 'ava':
      return /^\s*✘\s*Couldn[’']t find any (matching )?(test )?files/m.test(`${stdout}\n${stderr}`);
    case 'mocha':
      return /^Error: No test files found/m.test(stderr);
    default:
      return false;
  }
}
