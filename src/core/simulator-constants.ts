// The simulator's option constants, in a module of their own: the package's entry points export
// them without loading the simulator (decisions/0072).

/**
 * Default seed: the one the embedded default world is documented with.
 *
 * @example
 * import { createSimulator, DEFAULT_SEED } from 'model-access-sim'
 * console.log(createSimulator().seed === DEFAULT_SEED)
 * //=> true
 */
export const DEFAULT_SEED = 42
/**
 * Default start of the simulator clock: a Monday morning, UTC.
 *
 * @example
 * import { createSimulator, DEFAULT_NOW } from 'model-access-sim'
 * console.log(createSimulator({ world: 'empty' }).clock.now().toISOString() === DEFAULT_NOW)
 * //=> true
 */
export const DEFAULT_NOW = '2026-03-02T10:00:00.000Z'

/** Each field of `SimulatorOptions`, for the checks of the options that include them. */
export const SIMULATOR_OPTION_NAMES = { seed: true, now: true, world: true, rateLimit: true, journalLimit: true, journalBytes: true, clock: true, strictRequests: true, replies: true } as const
