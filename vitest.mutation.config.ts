import { configDefaults, defineConfig } from 'vitest/config'

// The tests StrykerJS runs against each mutant of src/core (`npm run mutation`, decisions/0018).
// The in-process tests that reach the core, and none that only start child processes (the CLI,
// the README and TSDoc examples, the Python client, the packed tarball): a child process never runs
// the mutant Stryker switched on, so those tests could only add time. The fuzz campaigns are left
// out too, as are the tests of the fixtures and arbitraries (they test the generators, through
// worlds of up to 100,000 keys), the load test and the tests that wait in wall time: a mutant must
// run every test that covers it before it counts as survived, so each slow test is paid by every
// survivor of the code it reaches.
export default defineConfig({
  test: {
    include: [
      'src/**/*.test.ts',
      'test/api/**/*.test.ts',
      'test/controls/**/*.test.ts',
      'test/core/**/*.test.ts',
      'test/pricing/**/*.test.ts',
      'test/regressions/**/*.test.ts',
      'test/wire/**/*.test.ts',
      // In-process servers (127.0.0.1, port 0): the only callers of operationOf, and cheap (2 s).
      'test/server/server.test.ts',
      'test/server/control.test.ts',
      'test/fixtures-committed.test.ts',
      'test/model-based.test.ts',
      'test/sdk-conformance.test.ts',
    ],
    // The two whole-world round trips: seconds each, and they reach every line of the core.
    exclude: [...configDefaults.exclude, 'test/api/export-world.test.ts', 'test/controls/response-cache.test.ts'],
    testTimeout: 30_000,
    // One module graph for every test file of a run: each mutant reruns the files of the tests that
    // cover it, and importing them afresh each time (the SDK, MSW) cost more than the tests.
    isolate: false,
  },
})
