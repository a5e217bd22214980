import { defineConfig } from 'vitest/config'

// The real-browser test: headless Chromium through playwright-core, msw/browser and its service
// worker. Kept out of `npm test` (which must not need Chromium): its file is named *.browser.ts,
// which the main config's `test/**/*.test.ts` does not match. Run: npm run test:browser.
export default defineConfig({
  test: {
    include: ['test/browser/**/*.browser.ts'],
    // Bundling, launching Chromium and starting the worker run in beforeAll (120 s bound there).
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // One browser at a time.
    fileParallelism: false,
  },
})
