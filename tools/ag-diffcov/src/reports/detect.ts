/**
 * Recognise a coverage report by its content, never by its file name.
 * @module
 */
import { constants, promises as fs } from 'node:fs';
import { InputError } from '@adversary-gate/core';
import type { CoverageFormat } from '@adversary-gate/schemas';

/** How a report's bytes begin: a JSON document (format decided once parsed), or a known format. */
export type Detected = CoverageFormat | 'json';

const PEEK_BYTES = 64 * 1024;

/** The first bytes of a file (regular files only, never through a symlink). @throws InputError */
export async function peekFile(file: string, bytes = PEEK_BYTES): Promise<Buffer> {
  let handle;
  try {
    handle = await fs.open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new InputError(file, 'no such file');
    if (code === 'ELOOP') throw new InputError(file, 'is a symbolic link, refused');
    throw new InputError(file, `cannot open (${code ?? 'error'})`);
  }
  try {
    if (!(await handle.stat()).isFile()) throw new InputError(file, 'is not a regular file');
    const buf = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buf, 0, bytes, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** The name of the first element of an XML text (after the declaration, comments, PIs, doctype). */
export function xmlRootName(text: string): { name: string; tag: string } | null {
  const stripped = text
    .replace(/<\?[\s\S]*?\?>/g, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<!DOCTYPE[^>[]*(\[[\s\S]*?\])?\s*>/gi, '');
  const m = /<([A-Za-z_][\w.:-]*)([^>]*)>/.exec(stripped);
  return m ? { name: m[1]!, tag: m[0] } : null;
}

/**
 * Decide a report's format from its first bytes.
 * @throws InputError when the content is not a format ag-diffcov reads
 */
export function detectFormat(file: string, head: Buffer): Detected {
  let text = head.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const trimmed = text.trimStart();
  if (trimmed === '') throw new InputError(file, 'is empty, not a coverage report');
  if (trimmed.startsWith('{')) return 'json';
  if (trimmed.startsWith('<')) {
    const root = xmlRootName(trimmed);
    if (root?.name === 'coverage') {
      if (/\sclover=|\sgenerated=/.test(root.tag))
        throw new InputError(file, 'is a Clover XML report, which ag-diffcov does not read');
      return 'cobertura';
    }
    if (root?.name === 'report') return 'jacoco';
    throw new InputError(file, `is XML with root element <${root?.name ?? '?'}>, not a Cobertura or JaCoCo report`);
  }
  const first = trimmed.split('\n', 1)[0]!.trim();
  if (/^mode:\s*(set|count|atomic)$/.test(first)) return 'go';
  if (/^(TN|SF|VER):/.test(first)) return 'lcov';
  throw new InputError(
    file,
    'content is not a recognised coverage report (lcov, Cobertura, JaCoCo, Go, istanbul, coverage.py or llvm-cov JSON)',
  );
}
