// Mutation testing of the adapters with StrykerJS: `npm run mutation:adapters` (decisions/0058).
// The code that carries the simulator to its users (the HTTP server and its CLI, the MSW handlers,
// the vitest fixture, the live-service import and check, the control API) against the in-process
// tests of vitest.mutation-adapters.config.ts. Not part of `npm test`: a whole run takes tens of
// minutes on two cores. Incremental, as the core's run is (stryker.config.mjs).
import core from './stryker.config.mjs'

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  ...core,
  vitest: { configFile: 'vitest.mutation-adapters.config.ts' },
  mutate: [
    'src/server/**/*.ts',
    'src/msw/**/*.ts',
    'src/vitest/**/*.ts',
    'src/live/**/*.ts',
    'src/core/control-api.ts',
    '!src/**/*.test.ts',
    // Process entry points of a few lines, run only in a child process (decisions/0058 lists them).
    '!src/server/cli-entry.ts',
  ],
  incrementalFile: 'reports/mutation-adapters/incremental.json',
  htmlReporter: { fileName: 'reports/mutation-adapters/index.html' },
  jsonReporter: { fileName: 'reports/mutation-adapters/mutation.json' },
  thresholds: { high: 90, low: 85, break: null },
  tempDirName: '.stryker-tmp-adapters',
}
