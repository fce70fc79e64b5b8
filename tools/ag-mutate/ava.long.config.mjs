// The long tests: real vitest warm hosts, the behaviour footprint and equivalence runs, and the
// mutants judged ahead of the coverage map, each a whole ag-mutate run of up to a minute on 2 cores. Not in `npm test` (its 10-minute budget):
// `npm run test:long` at the root runs them, and `.ci/run` does after `npm test`. The catalogue's
// sample in `npm test` still judges a footprint cheat and its twins through the whole pipeline.
import { readFileSync } from 'node:fs';

const { ava } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));

export default {
  ...ava,
  files: ava.files.filter((f) => f.startsWith('!')).map((f) => f.slice(1)),
};
