/**
 * Protected paths: which changed paths match the policy's protected globs or the
 * defaults that are protected whatever the policy says.
 * @module
 */
import picomatch from 'picomatch';
import type { ChangedFile } from '@adversary-gate/core';
import { matchKey } from './match-key.js';

/**
 * Protected whatever the policy says: the policy file, any committed verdict, CI
 * definitions, code owners and git metadata that changes how files are read.
 */
export const DEFAULT_PROTECTED: readonly string[] = [
  'adversary-gate.json',
  '**/verdict.json',
  '.github/workflows/**',
  '.github/actions/**',
  '{,.github/,docs/}CODEOWNERS',
  '**/.gitattributes',
  '.gitmodules',
  '.gitlab-ci.yml',
  '.gitlab/ci/**',
  '.circleci/**',
  '.travis.yml',
  'azure-pipelines.yml',
  '.azure-pipelines/**',
  'bitbucket-pipelines.yml',
  '.buildkite/**',
  'Jenkinsfile',
];

/** A changed path (old or new name) that matched a protected glob. */
export interface ProtectedHit {
  readonly path: string;
  readonly pattern: string;
}

/** A matcher over normalised keys that names the first pattern a path matches. */
export function protectedMatcher(patterns: readonly string[]): (path: string) => string | null {
  const compiled = patterns.map((pattern) => ({
    pattern,
    test: picomatch(matchKey(pattern), { dot: true, nocase: true }),
  }));
  return (path) => {
    const key = matchKey(path);
    return compiled.find((c) => c.test(key))?.pattern ?? null;
  };
}

/** The patterns in force: the policy's, then the defaults, then the extra paths (freeze list); no duplicates. */
export function protectedPatterns(policyGlobs: readonly string[], extra: readonly string[] = []): string[] {
  return [...new Set([...policyGlobs, ...DEFAULT_PROTECTED, ...extra])];
}

/**
 * Every changed path, new and old names of renames and copies included, that matches a
 * protected pattern; sorted by path, one hit per path.
 */
export function findProtectedTouches(files: readonly ChangedFile[], patterns: readonly string[]): ProtectedHit[] {
  const match = protectedMatcher(patterns);
  const hits = new Map<string, string>();
  for (const file of files) {
    for (const p of [file.path, file.oldPath]) {
      if (p === null || hits.has(p)) continue;
      const pattern = match(p);
      if (pattern !== null) hits.set(p, pattern);
    }
  }
  return [...hits]
    .map(([path, pattern]) => ({ path, pattern }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
