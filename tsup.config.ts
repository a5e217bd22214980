import { defineConfig } from 'tsup'

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    'msw/index': 'src/msw/index.ts',
    'pricing/index': 'src/pricing/index.ts',
    'fixtures/index': 'src/fixtures/index.ts',
    'arbitraries/index': 'src/arbitraries/index.ts',
    'server/index': 'src/server/index.ts',
    'vitest/index': 'src/vitest/index.ts',
    'live/index': 'src/live/index.ts',
    // The command (package.json "bin"); built with the rest so that it shares their chunks.
    cli: 'src/server/cli.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  // Shared chunks in CJS too, so that every entry point shares one copy of the core: a PricingError
  // from model-access-sim/pricing is then the class the root exports (instanceof holds across them).
  splitting: true,
  target: 'es2022',
  // Peer dependencies stay external: the consumer's copy of msw is the one that intercepts, and
  // the consumer's faker and fast-check are the ones their seeds and settings drive.
  external: ['msw', '@faker-js/faker', 'fast-check', 'vitest'],
})
