import { readFile, writeFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { defineConfig } from 'tsup'
import { type DefaultWorldTexts, worldFileText, worldTexts } from './src/core/worlds/default-world-texts.js'
import { BUNDLED } from './scripts/bundled-dependencies.js'

/**
 * JSON data as a string that `JSON.parse` reads at import, not as an object literal: V8 reads a
 * string and parses JSON several times faster than it compiles the same data as code (the default
 * world, about 1 MB, took 25-32 ms to import as a literal, 12-13 ms this way). What the module
 * exports is the same value.
 */
const jsonAsText = {
  name: 'json-as-text',
  setup(build: { onLoad(options: { filter: RegExp }, load: (args: { path: string }) => Promise<{ contents: string; loader: 'js' }>): void }) {
    build.onLoad({ filter: /\.json$/ }, async ({ path }) => {
      const value: unknown = JSON.parse(await readFile(path, 'utf8'))
      return { contents: `export default JSON.parse(${JSON.stringify(JSON.stringify(value))})`, loader: 'js' }
    })
  },
}

type Plugin = {
  name: string
  setup(build: {
    onLoad(options: { filter: RegExp }, load: (args: { path: string }) => Promise<{ contents: string; loader: 'js' }>): void
    onResolve(options: { filter: RegExp }, callback: (args: { path: string; importer: string }) => { path: string; external: boolean } | undefined): void
  }): void
}

/**
 * The built package's default world (decisions/0067): the source's importer of the JSON module
 * imports src/world-data/built.ts instead, and that module's texts come from `#default-world`
 * (package.json "imports"), left to the runtime: on Node they are read from a file beside the
 * build (src/world-data/node.ts), elsewhere they are embedded (src/world-data/texts.ts). Either is
 * parsed on the first load of the default world, a model at a time (decisions/0059, 0066).
 */
const defaultWorldImport: Plugin = {
  name: 'default-world-import',
  setup(build) {
    build.onResolve({ filter: /^\.\/(default-world-spec|texts)\.js$/ }, ({ path, importer }) => {
      if (path === './default-world-spec.js' && /[\\/]src[\\/]core[\\/]worlds[\\/]default\.ts$/.test(importer)) return { path: resolve('src/world-data/built.ts'), external: false }
      if (path === './texts.js' && /[\\/]src[\\/]world-data[\\/]built\.ts$/.test(importer)) return { path: '#default-world', external: true }
      return undefined
    })
  },
}

/**
 * The embedded texts as string literals inside the function that answers them: V8 only scans them
 * at import and reads them on the first call (decisions/0059).
 */
const embeddedWorld: Plugin = {
  name: 'embedded-world',
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/]world-data[\\/]texts\.ts$/ }, async () => {
      const { spec, spans, models } = await defaultWorldTexts()
      const contents = [
        'let texts',
        `export const defaultWorldTexts = () => (texts ??= { spec: ${JSON.stringify(spec)}, spans: ${JSON.stringify(spans)}, models: ${JSON.stringify(models)} })`,
        '',
      ].join('\n')
      return { contents, loader: 'js' }
    })
  },
}

/** The default world's texts, split once per build for both formats and the file. */
let builtTexts: Promise<DefaultWorldTexts> | undefined
const defaultWorldTexts = () =>
  (builtTexts ??= readFile('src/core/worlds/default-world.json', 'utf8').then((text) => worldTexts(JSON.parse(text) as { models: { id: string }[] })))

/** The public entry points: the ones with declarations. */
const PUBLIC_ENTRIES = {
  index: 'src/index.ts',
  'msw/index': 'src/msw/index.ts',
  'pricing/index': 'src/pricing/index.ts',
  'fixtures/index': 'src/fixtures/index.ts',
  'arbitraries/index': 'src/arbitraries/index.ts',
  'server/index': 'src/server/index.ts',
  'vitest/index': 'src/vitest/index.ts',
  'live/index': 'src/live/index.ts',
  // The command (package.json "bin"); built with the rest so that it shares their chunks.
  cli: 'src/server/cli-entry.ts',
}

export default defineConfig({
  entry: {
    ...PUBLIC_ENTRIES,
    // `#default-world` (package.json "imports"): what the built package loads the default world from.
    'default-world-node': 'src/world-data/node.ts',
    'default-world-embedded': 'src/world-data/texts.ts',
  },
  format: ['esm', 'cjs'],
  // The declarations are scripts/build-types.mjs's (decisions/0070): tsup's own took 100-110 s.
  dts: false,
  clean: true,
  sourcemap: true,
  // Shared chunks in CJS too, so that every entry point shares one copy of the core: a PricingError
  // from model-access-sim/pricing is then the class the root exports (instanceof holds across them).
  splitting: true,
  target: 'es2022',
  // Peer dependencies stay external: the consumer's copy of msw is the one that intercepts, and
  // the consumer's faker and fast-check are the ones their seeds and settings drive.
  external: ['msw', '@faker-js/faker', 'fast-check', 'vitest'],
  // The small runtime dependencies (three date-fns functions, the UTC date, the generator) are
  // copied in: resolving and loading their ten modules was a third of what importing the root
  // cost (decisions/0062). Their licenses ship in THIRD-PARTY-NOTICES.md.
  noExternal: [...BUNDLED],
  esbuildPlugins: [defaultWorldImport, embeddedWorld, jsonAsText],
  // CJS has no `import.meta`: src/world-data/node.ts reads `__dirname` there, and its ESM branch
  // must not leave the syntax in the CJS build.
  esbuildOptions(options, { format }) {
    if (format === 'cjs') options.define = { ...options.define, 'import.meta.url': 'undefined' }
  },
  // The Node build's default world: beside the modules that read it (src/world-data/node.ts).
  async onSuccess() {
    await writeFile('dist/default-world.jsonl', worldFileText(await defaultWorldTexts()))
  },
})
