import { defineConfig } from 'tsup'

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    'msw/index': 'src/msw/index.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'es2022',
  // Peer dependencies stay external so the consumer's copy of msw is the one that intercepts.
  external: ['msw'],
})
