import { readFile } from 'node:fs/promises'
import { defineConfig } from 'tsup'
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

/**
 * The default world's spec parsed on first use, not at import (decisions/0059): the module that
 * answers it (`src/core/worlds/default-world-spec.ts`, whose source imports the JSON) is built as
 * one that keeps the JSON as text and parses it on the first call. Importing the package parsed
 * about 1 MB of JSON, some 20 ms, which a user whose tests never load the default world paid too.
 * The text is in two parts (decisions/0066): the spec without its models, and the models' list,
 * with each model's span in it, so that a load parses a model only when something reads it.
 */
const lazyJson = {
  name: 'lazy-json',
  setup(build: { onLoad(options: { filter: RegExp }, load: (args: { path: string }) => Promise<{ contents: string; loader: 'js' }>): void }) {
    build.onLoad({ filter: /[\\/]default-world-spec\.ts$/ }, async ({ path }) => {
      const value = JSON.parse(await readFile(path.replace(/default-world-spec\.ts$/, 'default-world.json'), 'utf8')) as { models: { id: string }[] }
      const rest = JSON.stringify({ ...value, models: [] })
      let models = '['
      const spans: [string, number, number][] = []
      for (const model of value.models) {
        if (models.length > 1) models += ','
        const text = JSON.stringify(model)
        spans.push([model.id, models.length, models.length + text.length])
        models += text
      }
      models += ']'
      const contents = [
        'let texts, spec, parts',
        // The literals inside a function: V8 only scans them at import, and reads them on the first call.
        `const read = () => (texts ??= [${JSON.stringify(rest)}, ${JSON.stringify(models)}, JSON.parse(${JSON.stringify(JSON.stringify(spans))})])`,
        'export function defaultWorldSpec() {',
        '  if (spec === undefined) {',
        '    const [restText, modelsText] = read()',
        '    spec = JSON.parse(restText)',
        '    spec.models = JSON.parse(modelsText)',
        '  }',
        '  return spec',
        '}',
        'export function defaultWorldParts() {',
        '  if (parts === undefined) {',
        '    const [restText, modelsText, spanList] = read()',
        '    const model = (start, end) => { let made; return () => (made ??= JSON.parse(modelsText.slice(start, end))) }',
        '    parts = { spec: JSON.parse(restText), models: spanList.map(([id, start, end]) => [id, model(start, end)]) }',
        '  }',
        '  return parts',
        '}',
        '',
      ].join('\n')
      return { contents, loader: 'js' }
    })
  },
}

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
    cli: 'src/server/cli-entry.ts',
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
  // The small runtime dependencies (three date-fns functions, the UTC date, the generator) are
  // copied in: resolving and loading their ten modules was a third of what importing the root
  // cost (decisions/0062). Their licenses ship in THIRD-PARTY-NOTICES.md.
  noExternal: [...BUNDLED],
  esbuildPlugins: [lazyJson, jsonAsText],
})
