/**
 * The package as it is built (`dist/`), which is what users install and run: the benchmarks
 * measure it, not the TypeScript source run through tsx (whose transform wraps every function made
 * at run time to keep its name, a cost the built package does not have; benchmarks/NOTES.md).
 * Typed as the source it is built from. `npm run bench` builds first; a single `npm run bench:x`
 * is refused when dist/ is missing or older than src/, rather than measuring stale code.
 */
import { existsSync, readdirSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
/**
 * BENCH_DIST: another build to measure instead of dist/ (a copy of dist/ made before a change, to
 * compare two builds run by run on a noisy machine); it is taken as it is, with no check of age.
 */
const other = process.env['BENCH_DIST']
/** The build measured: dist/, or BENCH_DIST; benchmarks that run it in child processes copy or import it from here. */
export const dist = other === undefined || other === '' ? join(root, 'dist') : other

/** The latest modification time of any file under `dir`, in ms. */
function newest(dir: string): number {
  let latest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs)
  }
  return latest
}

if (!existsSync(join(dist, 'index.js'))) throw new Error('dist/ is missing: run `npm run build` before a benchmark (`npm run bench` does)')
if (dist === join(root, 'dist') && newest(join(root, 'src')) > statSync(join(dist, 'index.js')).mtimeMs) {
  throw new Error('dist/ is older than src/: run `npm run build` before a benchmark (`npm run bench` does), or the figures are of stale code')
}

const load = async <T>(entry: string): Promise<T> => (await import(pathToFileURL(join(dist, entry)).href)) as T

export const pkg = await load<typeof import('../src/index.js')>('index.js')
export const pkgMsw = await load<typeof import('../src/msw/index.js')>('msw/index.js')
export const pkgFixtures = await load<typeof import('../src/fixtures/index.js')>('fixtures/index.js')
export const pkgPricing = await load<typeof import('../src/pricing/index.js')>('pricing/index.js')
/** Loaded when asked for: node:http is not needed by every benchmark. */
export const pkgServer = (): Promise<typeof import('../src/server/index.js')> => load('server/index.js')
