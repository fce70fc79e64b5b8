/**
 * The files that decide what a JavaScript project installs: its manifest, lock files and
 * package-manager settings. The pipeline compares them to share one install between the two
 * sides; ag-run's trusted run holds them back (it uses the baseline's installed packages).
 * @module
 */

/** The files, by name, that decide what an npm, pnpm or yarn project installs. */
export const JS_PACKAGE_FILES = [
  'package.json',
  'package-lock.json',
  'npm-shrinkwrap.json',
  'pnpm-lock.yaml',
  'yarn.lock',
  '.npmrc',
  '.yarnrc.yml',
] as const;
