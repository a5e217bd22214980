import { join, resolve } from 'node:path'

/** The repository root. */
export const root = resolve(import.meta.dirname, '..', '..')

const ENTRY_POINTS: readonly (readonly [string, string])[] = [
  ['model-access-sim/msw', 'src/msw/index.ts'],
  ['model-access-sim/pricing', 'src/pricing/index.ts'],
  ['model-access-sim/fixtures', 'src/fixtures/index.ts'],
  ['model-access-sim/arbitraries', 'src/arbitraries/index.ts'],
  ['model-access-sim/server', 'src/server/index.ts'],
  ['model-access-sim/vitest', 'src/vitest/index.ts'],
  ['model-access-sim/live', 'src/live/index.ts'],
  ['model-access-sim', 'src/index.ts'],
]

/** Rewrites a documentation example's package imports to the source entry points, so it runs unbuilt. */
export function toSourceImports(code: string): string {
  return ENTRY_POINTS.reduce((text, [specifier, file]) => text.replaceAll(`from '${specifier}'`, `from '${join(root, file)}'`), code)
}

/** The source files of the package's entry points. */
export const entryPointFiles: readonly string[] = ENTRY_POINTS.map(([, file]) => file)
