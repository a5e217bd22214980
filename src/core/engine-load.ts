// The engine as the source tree loads it: with everything else, at import. The build resolves
// this module to `#engine` instead (`engineBoundary` in tsup.config.ts; decisions/0072).
import { ENGINE, type Engine } from './engine.js'

/** The engine: the same object every call. */
export function loadEngine(): Engine {
  return ENGINE
}
