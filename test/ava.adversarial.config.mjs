// The whole adversarial catalogue (`npm run test:adversarial -w test`): every case of
// adversarial/cases, where `npm test` runs the sample (every control and the first two attacks
// of each section). .ci/run runs it after `npm test`.
export default {
  files: ['adversarial/**/*.test.ts'],
  extensions: { ts: 'module' },
  nodeArguments: ['--import=tsx'],
  workerThreads: false,
  timeout: '10m',
  concurrency: 1,
  environmentVariables: { NODE_EXTRA_CA_CERTS: '', AG_ADV_SET: 'all' },
};
