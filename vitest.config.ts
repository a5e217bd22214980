import { configDefaults, defineConfig } from 'vitest/config'

/**
 * Test files that change what the files after them in the same worker would see, and so run in a
 * fresh module graph of their own: vi.mock replaces a module of src for the whole graph, and
 * fc.configureGlobal sets fast-check's seed for every property after it.
 */
export const ISOLATED = ['test/inference/admission.test.ts', 'test/fuzz/misuse.test.ts', 'test/server/cli-run.test.ts', 'test/vitest/no-work-at-import.test.ts']
/**
 * The real clients (openai, the AI SDK, LangChain, Python's openai), each in a child process of its
 * own that runs all its cases (decisions/0040): a project of their own, so `--project clients` runs
 * them alone, and `--project shared` leaves them out.
 */
export const CLIENTS = ['test/clients/**/*.test.ts']
/**
 * Tests that time how long the server keeps other requests waiting (probes every 5 ms, p99 and
 * worst waits; decisions/0047): run last and one at a time, alone on the machine, so that what they
 * measure is the server and not the other worker's tests.
 */
export const TIMING = ['test/server/journal-stall.test.ts', 'test/server/stalls.test.ts']
const INCLUDE = ['src/**/*.test.ts', 'test/**/*.test.ts']

export default defineConfig({
  test: {
    // Two cores on CI: two workers keep the machine responsive without serialising the suite.
    maxWorkers: 2,
    // The README and TSDoc examples import the SDK and MSW cold; on a busy 2-core machine that
    // alone can pass vitest's 5 s default. This is a hang guard, not a speed target.
    testTimeout: 30_000,
    // .ci/run counts the results from this file; scripts/test-node24.sh names its own.
    reporters: ['default', ['json', { outputFile: process.env['VITEST_RESULTS'] ?? '.vitest-results.json' }]],
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: INCLUDE,
          exclude: [...configDefaults.exclude, ...ISOLATED, ...CLIENTS, ...TIMING],
          // One module graph per worker, shared by the files it runs in turn (decisions/0035):
          // importing the SDK, MSW and fast-check afresh for each of 150 files took more time than
          // the tests. A file restores what it changes (env stubs, spies, timers, servers, TZ).
          isolate: false,
        },
      },
      { extends: true, test: { name: 'isolated', include: ISOLATED } },
      { extends: true, test: { name: 'clients', include: CLIENTS } },
      // Group 1 starts once every project of group 0 is done.
      { extends: true, test: { name: 'timing', include: TIMING, fileParallelism: false, sequence: { groupOrder: 1 } } },
    ],
  },
})
