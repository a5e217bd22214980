import { readFile, writeFile } from 'node:fs/promises'
import { dirname, relative, resolve } from 'node:path'
import * as esbuild from 'esbuild'
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

type Plugin = esbuild.Plugin

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

/** The engine's modules the entry points reach (src/core/engine.ts): loaded on first use on Node. */
const ENGINE_MODULES = new Set(['simulator', 'router', 'control-api', 'internals'].map((name) => resolve(`src/core/${name}.ts`)))
/** Where the source tree's own modules stand: the engine's side of the boundary, and its loaders. */
const INSIDE = [resolve('src/core'), resolve('src/engine-load'), resolve('src/world-data')]
const isInside = (file: string) => INSIDE.some((dir) => file.startsWith(dir + '/') || file.startsWith(dir + '\\'))

/**
 * The engine's boundary (decisions/0072): an entry point's import of one of the engine's modules
 * resolves to src/core/engine-proxy.ts, whose functions load the engine on their first call, and
 * the proxy's loader to `#engine` (package.json "imports"), left to the runtime: on Node the
 * engine is compiled from a file beside the build on the first call (src/engine-load/node.ts),
 * elsewhere it is imported as a module (src/engine-load/embedded.ts). The build itself places the
 * proxy with `kernelImports`, a copy per importer; this plugin serves the reads of the module graph
 * that decide the kernel, and the kernel's own build.
 */
const engineBoundary: Plugin = {
  name: 'engine-boundary',
  setup(build) {
    build.onResolve({ filter: /^\.\.?\/.*\.js$/ }, ({ path, importer }) => {
      if (path === './engine-load.js' && importer === resolve('src/core/engine-proxy.ts')) return { path: '#engine', external: true }
      if (isInside(importer)) return undefined
      const target = resolve(dirname(importer), path.replace(/\.js$/, '.ts'))
      return ENGINE_MODULES.has(target) ? { path: resolve('src/core/engine-proxy.ts'), external: false } : undefined
    })
  },
}

/** The entry points whose modules the engine shares rather than copies: the ones that hold a simulator. */
const HOLDERS = ['src/index.ts', 'src/msw/index.ts', 'src/vitest/index.ts', 'src/server/index.ts']
/** In the kernel however the graph falls: the default world's loader, which the engine reaches. */
const ALWAYS_KERNEL = ['src/world-data/built.ts']
/**
 * Never in the kernel: the engine's proxy, which imports `#engine`. Outside Node that is the engine
 * as modules, which import the kernel: the kernel would wait on itself.
 */
const PROXY = 'src/core/engine-proxy.ts'

/** The kernel's modules, by path from the package's root, and each one's exports. */
interface KernelPlan {
  modules: Set<string>
  exports: Map<string, string[]>
}

/**
 * The kernel (decisions/0072): the modules the root entry point reaches and the modules the
 * engine shares with the entry points that hold a simulator, built as one file,
 * dist/kernel.js (and .cjs), that every other built module imports them from (`#kernel`).
 * One copy of each, so a `SimulatorError` is one class everywhere; one file, so that importing
 * the root opens a handful of files, not twenty (each costs Node about as much as compiling 80 KB).
 * Computed from the build's own module graph, once per build.
 */
let kernelPlan: Promise<KernelPlan> | undefined
const kernel = () =>
  (kernelPlan ??= (async () => {
    const common: esbuild.BuildOptions & { metafile: true } = {
      bundle: true,
      write: false,
      metafile: true,
      format: 'esm',
      platform: 'node',
      outdir: 'dist',
      external: ['msw', '@faker-js/faker', 'fast-check', 'vitest', '#engine', '#default-world'],
      plugins: [engineBoundary, defaultWorldImport, jsonAsText as Plugin],
      logLevel: 'silent',
    }
    const [root, holders, engine] = await Promise.all([
      esbuild.build({ ...common, entryPoints: ['src/index.ts'] }),
      esbuild.build({ ...common, entryPoints: HOLDERS, splitting: true }),
      esbuild.build({ ...common, entryPoints: ['src/core/engine.ts'] }),
    ])
    const inScope = (path: string) => path.startsWith('src/core/') && path !== PROXY
    const theirs = new Set(Object.keys(holders.metafile.inputs))
    const modules = new Set([
      ...Object.keys(root.metafile.inputs).filter(inScope),
      ...Object.keys(engine.metafile.inputs).filter((path) => theirs.has(path) && inScope(path)),
      ...ALWAYS_KERNEL,
    ])
    for (const path of modules) {
      if (ENGINE_MODULES.has(resolve(path))) throw new Error(`kernel: the root reaches ${path}, which is the engine's (decisions/0072)`)
      // A module's exports are copied into each importer's own bindings: a `let` would be copied once.
      if (/^export (let|var) /m.test(await readFile(path, 'utf8'))) throw new Error(`kernel: ${path} exports a variable, which its importers would not see change (decisions/0072)`)
    }
    const named = await esbuild.build({ ...common, entryPoints: [...modules], outdir: 'dist/kernel-names' })
    const exports = new Map<string, string[]>()
    for (const output of Object.values(named.metafile.outputs)) {
      if (output.entryPoint !== undefined && modules.has(output.entryPoint)) exports.set(output.entryPoint, output.exports)
    }
    for (const path of modules) if (!exports.has(path)) throw new Error(`kernel: no exports read for ${path}`)
    return { modules, exports }
  })())

/** The kernel module a relative import names, or undefined: by its path from the package's root. */
const kernelModuleOf = (modules: Set<string>, path: string, importer: string): string | undefined => {
  let target = resolve(dirname(importer), path.replace(/\.js$/, '.ts'))
  if (path === './default-world-spec.js' && /[\\/]src[\\/]core[\\/]worlds[\\/]default\.ts$/.test(importer)) target = resolve('src/world-data/built.ts')
  const key = relative('.', target).split('\\').join('/')
  return modules.has(key) ? key : undefined
}

/**
 * Every built module but the kernel's own imports the kernel's modules from `#kernel`: an import
 * of one resolves to a module that takes its exports from the kernel's table. The default
 * world's loaders (src/world-data/), which the kernel imports, keep their own copy of what they
 * use, so that the two never wait on each other.
 */
const kernelImports: Plugin = {
  name: 'kernel-imports',
  setup(build) {
    build.onResolve({ filter: /^#kernel$/ }, () => ({ path: '#kernel', external: true }))
    build.onResolve({ filter: /^\.\.?\/.*\.js$/ }, async ({ path, importer, namespace }) => {
      if (namespace === 'engine-proxy') return path === './engine-load.js' ? { path: '#engine', external: true } : undefined
      if (namespace !== 'file' || /[\\/]src[\\/]world-data[\\/]/.test(importer)) return undefined
      // The engine's proxy, a copy in each importer's own module (a few lines): shared, it would
      // be a file of its own that importing the root opens.
      const proxied = resolve(dirname(importer), path.replace(/\.js$/, '.ts'))
      if ((ENGINE_MODULES.has(proxied) && !isInside(importer)) || proxied === resolve(PROXY)) {
        return { path: `${PROXY}?${relative('.', importer).split('\\').join('/')}`, namespace: 'engine-proxy' }
      }
      const key = kernelModuleOf((await kernel()).modules, path, importer)
      // One binding module per importer: shared by several, it would be a chunk of its own.
      return key === undefined ? undefined : { path: `${key}?${relative('.', importer).split('\\').join('/')}`, namespace: 'kernel' }
    })
    // src/engine-load/shared.ts, built: the kernel's table, which the engine's script is given.
    build.onLoad({ filter: /[\\/]src[\\/]engine-load[\\/]shared\.ts$/ }, () => ({ contents: `import { KERNEL } from '#kernel'\nexport const shared = () => KERNEL\n`, loader: 'js' }))
    build.onLoad({ filter: /.*/, namespace: 'engine-proxy' }, async () => ({ contents: await readFile(PROXY, 'utf8'), loader: 'ts', resolveDir: resolve('src/core') }))
    build.onLoad({ filter: /.*/, namespace: 'kernel' }, async ({ path }) => {
      const key = path.slice(0, path.indexOf('?'))
      const names = (await kernel()).exports.get(key) ?? []
      const contents = [`import { KERNEL } from '#kernel'`, names.length === 0 ? '' : `export const { ${names.join(', ')} } = KERNEL[${JSON.stringify(key)}]`, ''].join('\n')
      return { contents, loader: 'js', resolveDir: resolve('.') }
    })
  },
}

/** The kernel, built: dist/kernel.js and dist/kernel.cjs, whose `KERNEL` holds each module by its path. */
async function buildKernel(): Promise<void> {
  const { modules } = await kernel()
  const list = [...modules].sort()
  const table: Plugin = {
    name: 'kernel-table',
    setup(build) {
      build.onResolve({ filter: /^kernel-table$/ }, () => ({ path: 'kernel-table', namespace: 'kernel-table' }))
      build.onLoad({ filter: /.*/, namespace: 'kernel-table' }, () => ({
        contents: [
          '// The kernel (decisions/0072): the modules every other built module of the package imports from here.',
          ...list.map((path, i) => `import * as m${i} from ${JSON.stringify(resolve(path))}`),
          `export const KERNEL = Object.freeze({ ${list.map((path, i) => `${JSON.stringify(path)}: m${i}`).join(', ')} })`,
          '',
        ].join('\n'),
        loader: 'js',
        resolveDir: resolve('.'),
      }))
    },
  }
  let bytes = 0
  for (const format of ['esm', 'cjs'] as const) {
    const result = await esbuild.build({
      entryPoints: ['kernel-table'],
      bundle: true,
      format,
      platform: 'node',
      target: 'es2022',
      sourcemap: true,
      outfile: `dist/kernel.${format === 'esm' ? 'js' : 'cjs'}`,
      external: ['#default-world', '#engine'],
      plugins: [table, engineBoundary, defaultWorldImport, jsonAsText as Plugin],
      metafile: true,
      logLevel: 'warning',
    })
    bytes = Object.values(result.metafile.outputs).find((output) => output.entryPoint !== undefined)?.bytes ?? 0
    const text = await readFile(`dist/kernel.${format === 'esm' ? 'js' : 'cjs'}`, 'utf8')
    if (text.includes('#engine')) throw new Error('kernel: it imports #engine, which imports the kernel outside Node (decisions/0072)')
  }
  console.log(`kernel: dist/kernel.js ${Math.round(bytes / 1024)} KB, ${list.length} modules`)
}

/**
 * The engine's script (dist/engine.script.js): src/core/engine.ts bundled as CommonJS without the
 * kernel's modules, each of which it takes from the `__shared` its loader gives it: the kernel's
 * table (src/engine-load/node.ts).
 */
async function buildEngineScript(): Promise<void> {
  const { modules, exports } = await kernel()
  const sharedImports: Plugin = {
    name: 'engine-shared-imports',
    setup(build) {
      build.onResolve({ filter: /^\.\.?\/.*\.js$/ }, ({ path, importer }) => {
        const key = kernelModuleOf(modules, path, importer)
        return key === undefined ? undefined : { path: key, namespace: 'engine-shared' }
      })
      // Each export read once, when the engine loads, into a variable of the script's own: the
      // engine's hot paths then call the kernel's functions directly, not through a getter.
      build.onLoad({ filter: /.*/, namespace: 'engine-shared' }, ({ path }) => {
        const names = exports.get(path) ?? []
        return { contents: names.length === 0 ? '' : `export const { ${names.join(', ')} } = __shared[${JSON.stringify(path)}]\n`, loader: 'js' }
      })
    },
  }
  const result = await esbuild.build({
    entryPoints: ['src/core/engine.ts'],
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'es2022',
    outfile: 'dist/engine.script.js',
    plugins: [sharedImports, defaultWorldImport, jsonAsText as Plugin],
    metafile: true,
    logLevel: 'warning',
  })
  const text = await readFile('dist/engine.script.js', 'utf8')
  if (/\brequire\(/.test(text)) throw new Error('engine build: dist/engine.script.js calls require(), which its loader does not give (decisions/0072)')
  const own = Object.values(result.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0)
  console.log(`engine: dist/engine.script.js ${Math.round(own / 1024)} KB, taking ${modules.size} modules from the kernel`)
}

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
    // `#engine` (package.json "imports"): how the built package loads the engine (decisions/0072).
    'engine-node': 'src/engine-load/node.ts',
    'engine-embedded': 'src/engine-load/embedded.ts',
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
  esbuildPlugins: [kernelImports, defaultWorldImport, embeddedWorld, jsonAsText],
  // CJS has no `import.meta`: src/world-data/node.ts reads `__dirname` there, and its ESM branch
  // must not leave the syntax in the CJS build.
  esbuildOptions(options, { format }) {
    if (format === 'cjs') options.define = { ...options.define, 'import.meta.url': 'undefined' }
  },
  // The Node build's default world: beside the modules that read it (src/world-data/node.ts).
  async onSuccess() {
    await writeFile('dist/default-world.jsonl', worldFileText(await defaultWorldTexts()))
    await Promise.all([buildKernel(), buildEngineScript()])
  },
})
