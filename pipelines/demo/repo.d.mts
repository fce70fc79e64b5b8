/** Files to write into a tree; null deletes. */
export type Files = Record<string, string | null>;
export declare const PATCHES: Record<string, Record<string, readonly string[]>>;
export declare function putFiles(dir: string, files: Files): void;
export declare function buildDemoRepo(
  project: string,
  patch: string | null,
  options?: { baseFiles?: Files; patchFiles?: Files; message?: string },
): string;
