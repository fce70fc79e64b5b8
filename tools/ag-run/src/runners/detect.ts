/**
 * Which runner a command starts, told from its words (or forced with `--runner`).
 * @module
 */
import { commandRunner } from '@adversary-gate/core';
import type { Runner } from '@adversary-gate/schemas';

/** The runners `--runner` accepts. */
export const RUNNERS: readonly Runner[] = ['generic', 'pytest', 'node', 'jest', 'vitest', 'mocha', 'ava'];

/** Detect the runner from a shell command (ag-core's rule, shared with ag-mutate). */
export function detectRunner(command: string): Runner {
  return commandRunner(command);
}

/** A command whose runner prints TAP on stdout (`ava --tap`, `tap --reporter=tap`, tape): stdout is its per-test report. */
export function printsTap(command: string): boolean {
  return (
    /(^|\s)--tap(\s|$)/.test(command) ||
    /(^|\s)--reporter[= ]tap(\s|$)/.test(command) ||
    /(^|[\s/])tape(\s|$)/.test(command)
  );
}
