// The package's declarations (decisions/0070): tsc writes one .d.ts per source file of src/, then
// rollup with rollup-plugin-dts bundles them from the public entry points into dist/, once as
// .d.ts for `import` and once as .d.cts for `require` (the same declarations; only the
// specifiers between the files differ). tsup's own `dts` compiled the TypeScript sources inside
// rollup-plugin-dts, a file at a time, and took 100-110 s of a build here; this takes about 20.
// scripts/dts-public-names.mjs runs after it, as it did after tsup.
import { spawnSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join, resolve } from 'node:path'
import { rollup } from 'rollup'
import { dts } from 'rollup-plugin-dts'

const root = resolve(import.meta.dirname, '..')
const require = createRequire(import.meta.url)
// Not under node_modules/: rollup-plugin-dts leaves whatever resolves there as an import, so
// nothing would be bundled. Removed after the bundle is written.
const TYPES = join(root, '.types-build')
const DIST = join(root, 'dist')

/** tsup.config.ts PUBLIC_ENTRIES: dist name -> source module. */
const ENTRIES = {
  index: 'index',
  'msw/index': 'msw/index',
  'pricing/index': 'pricing/index',
  'fixtures/index': 'fixtures/index',
  'arbitraries/index': 'arbitraries/index',
  'server/index': 'server/index',
  'vitest/index': 'vitest/index',
  'live/index': 'live/index',
  cli: 'server/cli-entry',
}

const started = performance.now()
// A declaration left by a source file since removed must not be bundled.
rmSync(TYPES, { recursive: true, force: true })
const tsc = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', join(root, 'tsconfig.types.json')], { stdio: 'inherit' })
if (tsc.status !== 0) {
  console.error(`build-types: tsc failed (exit ${tsc.status ?? tsc.signal})`)
  process.exit(1)
}
const compiled = performance.now()

const bundle = await rollup({
  input: Object.fromEntries(Object.entries(ENTRIES).map(([name, source]) => [name, join(TYPES, `${source}.d.ts`)])),
  plugins: [dts()],
  // Every package stays a package: the peer dependencies are the consumer's, and the bundled runtime
  // dependencies (decisions/0062) appear in no declaration.
  external: (id) => !id.startsWith('.') && !id.startsWith('/'),
  onwarn(warning, warn) {
    // Circular imports between declaration files are harmless; the command's declarations are
    // empty (it exports nothing), as tsup wrote them.
    if (warning.code !== 'CIRCULAR_DEPENDENCY' && !(warning.code === 'EMPTY_BUNDLE' && warning.names?.includes('cli'))) warn(warning)
  },
})
for (const extension of ['d.ts', 'd.cts']) {
  await bundle.write({
    dir: DIST,
    format: 'es',
    entryFileNames: `[name].${extension}`,
    // A shared chunk is named after its module (`simulator.d.ts` -> `simulator-<hash>.d.ts`).
    chunkFileNames: (chunk) => `${chunk.name.replace(/\.d$/, '')}-[hash].${extension}`,
  })
}
await bundle.close()
rmSync(TYPES, { recursive: true, force: true })
console.log(`build-types: declarations compiled in ${Math.round(compiled - started)} ms, bundled in ${Math.round(performance.now() - compiled)} ms`)
