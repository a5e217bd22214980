import { configDefaults, defineConfig } from 'vitest/config'

// The tests StrykerJS runs against each mutant of the adapters (`npm run mutation:adapters`,
// decisions/0058): the in-process tests of the server, its CLI and launcher, the MSW handlers, the
// vitest fixture, the live-service tools and the control API. With per-test coverage a mutant runs
// only the tests that reach it, so a test that works through a child process (the Python client,
// a spawned CLI) reaches none and costs only the first, whole run; those that wait in wall time for
// seconds (the load test) are left out, as every survivor of the code they reach would pay for them.
// Stryker's runner runs one test at a time, so two concurrent tests that wait for each other would
// hang: concurrent-context.test.ts is left out, and routing.test.ts checks the same rule in one test.
// no-work-at-import.test.ts replaces a module with vi.mock, which in one shared graph would reach
// the other files: it is left out too (it runs isolated in `npm test`).
export default defineConfig({
  test: {
    include: [
      'test/server/**/*.test.ts',
      'test/msw/**/*.test.ts',
      'test/vitest/**/*.test.ts',
      'test/live/**/*.test.ts',
      'test/controls/**/*.test.ts',
    ],
    exclude: [...configDefaults.exclude, 'test/server/load.test.ts', 'test/server/python.test.ts', 'test/server/python-spending.test.ts', 'test/vitest/concurrent-context.test.ts', 'test/vitest/no-work-at-import.test.ts'],
    testTimeout: 30_000,
    isolate: false,
  },
})
