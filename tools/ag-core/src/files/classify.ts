/**
 * File classes: test, plainly-not-code (a denylist), and source (everything else).
 * Unrecognised files count as source, so nothing unmeasured slips through as "not code".
 * @module
 */
import picomatch from 'picomatch';

export type FileClass = 'test' | 'not_code' | 'source';

/** Default globs for test files (JS/TS and Python conventions). */
export const DEFAULT_TEST_GLOBS: readonly string[] = [
  '**/test/**',
  '**/tests/**',
  '**/__tests__/**',
  '**/__mocks__/**',
  '**/spec/**',
  '**/*.test.*',
  '**/*.spec.*',
  '**/*_test.*',
  '**/*-test.*',
  '**/test_*.py',
  '**/conftest.py',
  // the runners' own file-name conventions, at the root too: node:test and ava run
  // `test.js` and `test-*.js` wherever they are (camelcase's tests are its root `test.js`)
  '**/test.{js,mjs,cjs,jsx,ts,mts,cts,tsx}',
  '**/test-*.{js,mjs,cjs,jsx,ts,mts,cts,tsx}',
  // recorded expectations: jest/vitest snapshots, ava's `.snap` files
  '**/__snapshots__/**',
  '**/*.snap',
];

/** Default globs for what is plainly not code: docs, images, media, lock files, data. */
export const DEFAULT_NOT_CODE_GLOBS: readonly string[] = [
  '**/*.{md,markdown,mdx,rst,adoc,txt,text,rtf}',
  '**/{LICENSE,LICENCE,COPYING,NOTICE,AUTHORS,CONTRIBUTORS,CHANGELOG,CHANGES,HISTORY}{,.*}',
  '**/*.{png,jpg,jpeg,gif,svg,ico,webp,bmp,tif,tiff,avif,psd}',
  '**/*.{mp3,mp4,wav,ogg,webm,mov,avi,flac}',
  '**/*.{woff,woff2,ttf,otf,eot}',
  '**/*.{pdf,zip,gz,tgz,bz2,xz,7z,tar,jar,whl,bin,dat}',
  '**/{package-lock.json,npm-shrinkwrap.json,yarn.lock,pnpm-lock.yaml,bun.lockb,poetry.lock,Pipfile.lock,uv.lock,Cargo.lock,Gemfile.lock,composer.lock,go.sum}',
  '**/*.{json,jsonc,json5,ndjson,jsonl,csv,tsv,yml,yaml,toml,ini,cfg,conf,properties,env,lock}',
  '**/.{gitignore,gitattributes,gitmodules,editorconfig,npmignore,dockerignore,prettierignore,eslintignore,nvmrc,node-version,python-version,mailmap,prettierrc}',
  // tools' settings files with no extension (the runner-config rules of ag-oracle still read them)
  '**/.{coveragerc,nycrc,c8rc,npmrc,yarnrc,babelrc,browserslistrc,eslintrc,stylelintrc,flake8,pylintrc,tool-versions}',
  // type declarations: no runtime behaviour to execute or mutate
  '**/*.{pyi,d.ts,d.mts,d.cts}',
  // the documentation builder's settings (Sphinx), run by the docs build, never by the product
  '**/{doc,docs}/conf.py',
];

/** A class whose policy globs can replace the defaults rather than extend them. */
export type ReplaceableClass = 'test' | 'not_code';

/**
 * The policy's `files` section: globs that extend a class's defaults (null or absent: none),
 * and the classes listed in `replace`, whose globs take the defaults' place instead.
 */
export interface ClassOverrides {
  readonly test?: readonly string[] | null;
  readonly not_code?: readonly string[] | null;
  readonly replace?: readonly ReplaceableClass[];
}

/** The globs one class is matched with under `overrides`: the defaults plus the policy's, or the policy's alone. */
export function classGlobs(overrides: ClassOverrides, cls: ReplaceableClass): string[] {
  const defaults = cls === 'test' ? DEFAULT_TEST_GLOBS : DEFAULT_NOT_CODE_GLOBS;
  const given = overrides[cls] ?? null;
  if (given === null) return [...defaults];
  return overrides.replace?.includes(cls) === true ? [...given] : [...defaults, ...given];
}

/** Build a classifier; test globs win over not-code globs. */
export function makeClassifier(overrides: ClassOverrides = {}): (path: string) => FileClass {
  const opts = { dot: true, nocase: false } as const;
  const isTest = picomatch(classGlobs(overrides, 'test'), opts);
  const isNotCode = picomatch(classGlobs(overrides, 'not_code'), opts);
  return (path: string) => {
    const p = path.includes('/') ? path : `./${path}`;
    const q = p.startsWith('./') ? p.slice(2) : p;
    if (isTest(q) || isTest(`x/${q}`)) return 'test';
    if (isNotCode(q) || isNotCode(`x/${q}`)) return 'not_code';
    return 'source';
  };
}

/** Classify with the defaults. */
export const classifyPath = makeClassifier();
