/**
 * Report paths as comparable keys: forward slashes, no `./`, no `.` segments, `..` folded.
 * @module
 */
import path from 'node:path';

/** A report path made comparable with the diff's repository-relative paths. */
export interface ReportPath {
  /** The normalised path: forward slashes; absolute paths keep their leading `/` or `C:/`. */
  readonly key: string;
  readonly absolute: boolean;
}

const DRIVE = /^[A-Za-z]:\//;

/**
 * Normalise a path as written in a coverage report: Windows separators, `./`, duplicate
 * slashes, `.` and inner `..` segments. A relative path's leading `..` segments are dropped
 * (it names a file outside the report's directory; only suffix matching can place it).
 */
export function normaliseReportPath(raw: string): ReportPath {
  let p = raw.replace(/\\/g, '/');
  if (p.startsWith('file://')) p = decodeFileUri(p.slice('file://'.length));
  if (/^\/[A-Za-z]:\//.test(p)) p = p.slice(1);
  const drive = DRIVE.test(p) ? p.slice(0, 2).toUpperCase() : '';
  if (drive !== '') p = p.slice(2);
  const absolute = p.startsWith('/');
  let norm = path.posix.normalize(p);
  if (absolute) return { key: `${drive}${norm}`, absolute: true };
  while (norm.startsWith('../')) norm = norm.slice(3);
  if (norm === '..' || norm === '.') norm = '';
  norm = norm.replace(/\/$/, '');
  return { key: norm, absolute: false };
}

/** Normalise a `--root` directory the same way (no trailing slash). */
export function normaliseRoot(raw: string): string | null {
  const r = normaliseReportPath(/^[A-Za-z]:[\\/]/.test(raw) ? raw : path.resolve(raw));
  return r.absolute ? r.key.replace(/\/$/, '') : null;
}

/** The path relative to `root` when `key` lies under it (Windows drive paths compare case-insensitively). */
export function underRoot(key: string, root: string | null): string | null {
  if (root === null) return null;
  const windows = DRIVE.test(key);
  const k = windows ? key.toLowerCase() : key;
  const r = windows ? root.toLowerCase() : root;
  if (k.startsWith(`${r}/`)) return key.slice(root.length + 1);
  return null;
}

/** A `file://` URI's path, %-decoded; an undecodable one is kept as written (it then matches no diff file). */
function decodeFileUri(rest: string): string {
  try {
    return decodeURIComponent(rest);
  } catch {
    return rest;
  }
}
