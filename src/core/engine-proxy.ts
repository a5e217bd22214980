// What the package's entry points import in place of the engine's modules (src/core/engine.ts),
// in the build only (`engineBoundary` in tsup.config.ts; decisions/0072): functions of the same
// names and types that load the engine on their first call. The engine's code is then compiled
// when a simulator is first made, not when the package is imported.
import type { Engine } from './engine.js'
import { loadEngine } from './engine-load.js'

let engine: Engine | undefined

/** The engine, loaded on the first call: the same object every call. */
function loaded(): Engine {
  return (engine ??= loadEngine())
}

type Loose = (...args: unknown[]) => unknown

export const createSimulator = ((...args: unknown[]) => (loaded().createSimulator as Loose)(...args)) as Engine['createSimulator']
export const validateWorld: Engine['validateWorld'] = (...args) => loaded().validateWorld(...args)
export const operationOf: Engine['operationOf'] = (...args) => loaded().operationOf(...args)
export const createControlApi: Engine['createControlApi'] = (...args) => loaded().createControlApi(...args)
export const internalsOf: Engine['internalsOf'] = (...args) => loaded().internalsOf(...args)
