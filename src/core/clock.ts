import { describe } from './describe.js'
import { invalidArgument } from './errors.js'
import { type InstantInput, toEpochMs } from './time.js'

/** The latest instant a Date can hold, in epoch milliseconds (and minus it, the earliest). */
const LAST_INSTANT_MS = 8.64e15

/**
 * The simulator's clock. Everything time-dependent in a simulator reads it, never the global
 * timers, so a test moves time with `set` and `advance` and nothing waits. A clock created with
 * `createSimulator({ clock: 'real' })` also moves by itself, as fast as wall time does.
 */
export interface SimulatorClock {
  /** `'virtual'`: time moves only with `set` and `advance`. `'real'`: it also moves with wall time. */
  readonly mode: ClockMode
  /** The current simulated instant, as a fresh Date. */
  now(): Date
  /** The current simulated instant, in epoch milliseconds. */
  nowMs(): number
  /** Jumps to an instant (earlier or later). A real clock goes on from there. */
  set(instant: InstantInput): void
  /** Moves forward by `ms` milliseconds (a non-negative finite number; a fraction of a millisecond is dropped). */
  advance(ms: number): void
}

/** How a simulator's clock moves: only when told (`'virtual'`), or with wall time too (`'real'`). */
export type ClockMode = 'virtual' | 'real'

/** Epoch milliseconds of wall time: what a real clock follows. The core never reads it on its own. */
export type WallTime = () => number

/** The clock with the jump the simulator's snapshots and resets need. */
export interface StoreClock extends SimulatorClock {
  /** Puts the clock at `ms` without validation (the value comes from the simulator itself). */
  jump(ms: number): void
}

/**
 * A clock that starts at `startMs`. Without `wall` it is virtual; with it, simulated time advances
 * by as much as `wall()` does, from the instant of the last jump.
 */
export function createClock(startMs: number, wall?: WallTime): StoreClock {
  // A wall reading that is not a finite number, or a read that throws (a broken time source), counts
  // as no time passing: a request is still answered, never turned into an exception.
  let lastWall = 0
  const read = (): number => {
    let reading: unknown
    try {
      reading = wall?.()
    } catch {
      return lastWall
    }
    if (typeof reading === 'number' && Number.isFinite(reading)) lastWall = reading
    return lastWall
  }
  let anchorMs = startMs
  let anchorWall = read()
  const nowMs = wall === undefined ? () => anchorMs : () => Math.min(LAST_INSTANT_MS, anchorMs + Math.max(0, read() - anchorWall))
  const jump = (ms: number): void => {
    anchorMs = ms
    anchorWall = read()
  }
  return {
    mode: wall === undefined ? 'virtual' : 'real',
    now: () => new Date(nowMs()),
    nowMs,
    jump,
    set(instant) {
      jump(toEpochMs(instant, 'set the clock', 'instant'))
    },
    advance(ms) {
      if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) {
        throw invalidArgument('advance the clock', 'ms', `must be a non-negative finite number of milliseconds, got ${describe(ms)}`)
      }
      const next = nowMs() + Math.trunc(ms)
      if (Math.abs(next) > LAST_INSTANT_MS) throw invalidArgument('advance the clock', 'ms', 'moves the clock past the last representable instant')
      jump(next)
    },
  }
}
