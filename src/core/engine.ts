// The simulator's engine: what the package's entry points call but do not hold themselves. The
// built package loads it on its first use, not at import (decisions/0072): `engine-proxy.ts`
// stands for these modules in the entry points' build, and `#engine` (package.json "imports")
// says how the engine is loaded in each runtime.
import { createSimulator, validateWorld } from './simulator.js'
import { operationOf } from './router.js'
import { createControlApi } from './control-api.js'
import { internalsOf } from './internals.js'

/** The engine's functions, as its loaders give them to the entry points' proxy. */
export const ENGINE = { createSimulator, validateWorld, operationOf, createControlApi, internalsOf }

/** What a loader of the engine answers. */
export type Engine = typeof ENGINE
