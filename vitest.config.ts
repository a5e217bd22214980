import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Two cores on CI: two workers keep the machine responsive without serialising the suite.
    maxWorkers: 2,
    // The README and TSDoc examples import the SDK and MSW cold; on a busy 2-core machine that
    // alone can pass vitest's 5 s default. This is a hang guard, not a speed target.
    testTimeout: 30_000,
    reporters: ['default', ['json', { outputFile: '.vitest-results.json' }]],
  },
})
