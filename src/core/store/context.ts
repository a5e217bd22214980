import type { SimulatorClock } from '../clock.js'
import type { Random } from '../random.js'
import type { StoreData, StoreIndices } from './state.js'

/** What every collection works on. `data` and `indices` are swapped whole by restore. */
export interface StoreContext {
  data: StoreData
  indices: StoreIndices
  readonly random: Random
  readonly clock: SimulatorClock
}

/**
 * Runs a create so that a throw leaves the simulator as it was: every create validates before it
 * writes, and the one thing it may touch before validating ends, the random state, is rolled back.
 */
export function atomically<T>(ctx: StoreContext, create: () => T): T {
  const saved = ctx.random.getState()
  try {
    return create()
  } catch (error) {
    ctx.random.setState(saved)
    throw error
  }
}
