import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Two cores on CI: two workers keep the machine responsive without serialising the suite.
    maxWorkers: 2,
    reporters: ['default', ['json', { outputFile: '.vitest-results.json' }]],
  },
})
