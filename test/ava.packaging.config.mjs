// The packaging tests: every workspace packed and installed into a fresh project, and the
// GitHub Action's steps run in a throwaway repository (each installs packages, a minute or
// more). `npm run test:packaging -w test`; .ci/run runs them after `npm test`.
export default {
  files: ['action/**/*.test.ts', 'package/**/*.test.ts'],
  extensions: { ts: 'module' },
  nodeArguments: ['--import=tsx'],
  workerThreads: false,
  timeout: '10m',
  concurrency: 1,
  environmentVariables: { NODE_EXTRA_CA_CERTS: '' },
};
