/**
 * Test-runner configuration changed by the patch, judged on both trees' bytes.
 * @module
 */
import type { ChangedFile } from '@adversary-gate/core';
import type { TamperFinding } from './finding.js';
import { beyondFixtures } from './fixture-conftest.js';
import { changedRunnerKeys, configKind } from './runner-config.js';

/** A file's bytes on one side: null when absent, `unreadable` when not a readable regular file. */
export type SideBytes = Buffer | null | 'unreadable';

/** Reads a repository path from the baseline or the patch tree. */
export type SideReader = (side: 'baseline' | 'patch', path: string) => Promise<SideBytes>;

function firstAddedLine(file: ChangedFile): number | null {
  return file.addedLines[0] ?? null;
}

/**
 * Runner configuration findings for one changed file: any change to a configuration file
 * (added, deleted, renamed from or to one), except a new conftest.py that only shares
 * fixtures (fixture-conftest.ts); for package.json and pyproject.toml only a change of the
 * runner-relevant keys, compared on the two trees' bytes.
 */
export async function scanRunnerConfig(
  file: ChangedFile,
  read: SideReader,
  changedModules: ReadonlySet<string> = new Set(),
): Promise<TamperFinding[]> {
  const names = [...new Set([file.oldPath, file.path].filter((p): p is string => p !== null))];
  const kinds = names.map(configKind);
  const fileKind = kinds.find((k) => k === 'file');
  if (fileKind !== undefined) {
    const which = names[kinds.indexOf('file')]!;
    let how = file.status === 'renamed' ? `renamed from ${file.oldPath}` : file.status;
    if (file.status === 'added' && /(?:^|\/)conftest\.py$/.test(file.path)) {
      const text = await read('patch', file.path);
      const why = Buffer.isBuffer(text)
        ? beyondFixtures(text.toString('utf8'), changedModules)
        : 'not a readable regular file';
      if (why === null) return [];
      how = `added, and more than shared fixtures (${why})`;
    }
    return [
      {
        kind: 'runner_config_changed',
        path: file.path,
        line: firstAddedLine(file),
        detail: `test-runner configuration ${which} ${how}`,
      },
    ];
  }
  const kind = kinds.find((k): k is 'package.json' | 'pyproject.toml' => k !== null);
  if (kind === undefined) return [];
  const before = file.status === 'added' ? null : await read('baseline', file.oldPath ?? file.path);
  const after = file.status === 'deleted' ? null : await read('patch', file.path);
  if (before === 'unreadable' || after === 'unreadable') {
    const side = before === 'unreadable' ? 'baseline' : 'patch';
    return [
      {
        kind: 'runner_config_changed',
        path: file.path,
        line: null,
        detail: `${kind} is not a readable regular file on the ${side} side`,
      },
    ];
  }
  const keys = changedRunnerKeys(kind, before, after, file.path);
  if (keys.length === 0) return [];
  return [
    {
      kind: 'runner_config_changed',
      path: file.path,
      line: lineOfKey(file, keys),
      detail: `${kind} changed: ${keys.join(', ')}`,
    },
  ];
}

/** The first added line that mentions one of the changed keys' last parts, else the first added line. */
function lineOfKey(file: ChangedFile, keys: readonly string[]): number | null {
  const needles = keys.map((k) => k.slice(k.lastIndexOf('.') + 1));
  const i = file.addedText.findIndex((t) =>
    needles.some((n) => t.includes(`"${n}"`) || t.includes(`${n} `) || t.includes(`${n}=`) || t.includes(`[tool.${n}`)),
  );
  return i >= 0 ? (file.addedLines[i] ?? null) : firstAddedLine(file);
}
