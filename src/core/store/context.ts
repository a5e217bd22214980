import type { SimulatorClock } from '../clock.js'
import type { Random } from '../random.js'
import type { ListTexts } from '../json-text.js'
import type { UsageWindows, WindowsMemo } from '../usage.js'
import type { KeyPages } from './key-pages.js'
import type { StoreData, StoreIndices } from './state.js'
import type { History } from './versions.js'

/**
 * What every collection works on. Reads go to `data`; writes go through `put` (store/versions.ts).
 * `data` and `indices` are swapped whole by a restore from another simulator.
 */
export interface StoreContext {
  data: StoreData
  indices: StoreIndices
  readonly random: Random
  readonly clock: SimulatorClock
  /** Records every write once the simulator is created; absent while a world loads. */
  history?: History
  /** The usage windows of an instant, memoised per UTC day. */
  readonly windows: WindowsMemo
  /** The last text of each list response, reused while its records are the same. */
  readonly listTexts: ListTexts
  /** Whole pages of GET /keys, reused while nothing they show can have changed. */
  readonly keyPages: KeyPages
}

/** The usage windows at the clock's now. */
export function windowsNow(ctx: StoreContext): UsageWindows {
  return ctx.windows.at(ctx.clock.nowMs())
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
