import { invalidArgument } from './errors.js'
import { type InstantInput, toEpochMs } from './time.js'

/**
 * The simulator's clock. Everything time-dependent in a simulator reads it, never the global
 * timers, so a test moves time with `set` and `advance` and nothing waits.
 */
export interface SimulatorClock {
  /** The current simulated instant, as a fresh Date. */
  now(): Date
  /** The current simulated instant, in epoch milliseconds. */
  nowMs(): number
  /** Jumps to an instant (earlier or later). */
  set(instant: InstantInput): void
  /** Moves forward by `ms` milliseconds (a non-negative finite number). */
  advance(ms: number): void
}

/** Mutable clock state, kept apart so snapshots can read and restore it. */
export interface ClockState {
  ms: number
}

export function createClock(state: ClockState): SimulatorClock {
  return {
    now: () => new Date(state.ms),
    nowMs: () => state.ms,
    set(instant) {
      state.ms = toEpochMs(instant, 'set the clock', 'instant')
    },
    advance(ms) {
      if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) {
        throw invalidArgument('advance the clock', 'ms', `must be a non-negative finite number of milliseconds, got ${String(ms)}`)
      }
      const next = state.ms + Math.trunc(ms)
      if (Math.abs(next) > 8.64e15) throw invalidArgument('advance the clock', 'ms', 'moves the clock past the last representable instant')
      state.ms = next
    },
  }
}
