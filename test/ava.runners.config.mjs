// The runner tests: one small project per runner (jest, vitest, mocha, ava, node:test, pytest)
// with real dependencies from the npm registry, judged by gate.sh with no settings. They need
// the registry, so they are not part of `npm test`: `npm run test:runners -w test`. Two
// projects at a time, each judging its patches one after the other; one npm cache for all.
export default {
  files: ['runners/**/*.test.ts'],
  extensions: { ts: 'module' },
  nodeArguments: ['--import=tsx'],
  workerThreads: false,
  timeout: '8m',
  concurrency: 2,
  environmentVariables: { NODE_EXTRA_CA_CERTS: '' },
};
