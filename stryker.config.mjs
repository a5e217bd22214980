// Mutation testing of src/core with StrykerJS: `npm run mutation` (decisions/0018).
// Not part of `npm test`: a whole run takes tens of minutes on two cores. Incremental: a rerun
// tests again only the mutants whose code or covering tests changed since the last run.
// The test runners inherit this process's environment. vitest runs under StrykerJS in worker threads,
// where a test's own `process.env.TZ = ...` changes nothing: a zone ahead of UTC for the whole run
// makes a usage window computed in the machine's zone instead of UTC fail the tests.
process.env.TZ = 'Asia/Kolkata'
// Every property and fuzz count at its full depth, as in CI (test/support/runs.ts, decisions/0035): a
// mutant that only a late run of a property catches would otherwise count as survived.
process.env.FULL_RUNS = '1'

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts' },
  plugins: ['@stryker-mutator/vitest-runner'],
  mutate: ['src/core/**/*.ts', '!src/core/**/*.test.ts'],
  coverageAnalysis: 'perTest',
  // A static mutant (module-level code, run once at import) needs the whole suite run in a fresh
  // environment; decisions/0018 says why they are left out and which tests pin those tables down.
  ignoreStatic: true,
  incremental: true,
  incrementalFile: 'reports/mutation/incremental.json',
  concurrency: 2,
  timeoutMS: 10_000,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  clearTextReporter: { allowColor: false, logTests: false, reportMutants: false },
  thresholds: { high: 90, low: 80, break: null },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
}
