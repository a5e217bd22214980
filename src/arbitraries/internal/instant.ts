import fc from 'fast-check'
import { checkConstraints, invalidConstraint } from './constraints.js'

const MINUTE_MS = 60_000
const DAY_MS = 86_400_000
/** 2026-03-02, a Monday: instants are drawn around it, so weekdays are easy to read in a counterexample. */
const ANCHOR_MS = Date.UTC(2026, 2, 2)
const SPAN_DAYS = 1461

/** By default instants fall within four years either side of the anchor. */
const DEFAULT_MIN_MS = ANCHOR_MS - SPAN_DAYS * DAY_MS
const DEFAULT_MAX_MS = ANCHOR_MS + (SPAN_DAYS + 1) * DAY_MS - 1

/**
 * Minutes of the day where time-window code tends to break: midnight from both sides, the half
 * hours real windows start on (00:30, 16:30), and 02:00 and 22:00, where wrapping windows turn.
 */
const EDGE_MINUTES = [0, 1, 29, 30, 989, 990, 1319, 1320, 119, 120, 1438, 1439] as const

/** The instants the service's timestamp format can write: years 0000 to 9999. */
const FIRST_MS = -62_167_219_200_000
const LAST_MS = 253_402_300_799_999

export interface InstantRange {
  min: number
  max: number
}

function toMs(value: Date | number, arbitrary: string, name: string): number {
  const ms = value instanceof Date ? value.getTime() : value
  if (typeof ms !== 'number' || !Number.isSafeInteger(ms) || ms < FIRST_MS || ms > LAST_MS) {
    throw invalidConstraint(arbitrary, name, `${name} must be a Date or whole epoch milliseconds in the years 0000 to 9999, got ${String(value)}`, 'pass a Date or a number such as Date.UTC(2026, 2, 2)')
  }
  return ms
}

/** A checked instant range; a missing bound is the default one, or the other bound when that is past it. */
export function instantRange(arbitrary: string, names: readonly [string, string], min: Date | number | undefined, max: Date | number | undefined): InstantRange {
  const lo = min === undefined ? undefined : toMs(min, arbitrary, names[0])
  const hi = max === undefined ? undefined : toMs(max, arbitrary, names[1])
  const range = {
    min: lo ?? Math.min(DEFAULT_MIN_MS, hi ?? DEFAULT_MIN_MS),
    max: hi ?? Math.max(DEFAULT_MAX_MS, lo ?? DEFAULT_MAX_MS),
  }
  if (range.min > range.max) {
    throw invalidConstraint(arbitrary, names[0], `${names[0]} (${new Date(range.min).toISOString()}) is after ${names[1]} (${new Date(range.max).toISOString()})`, `pass ${names[0]} <= ${names[1]}`)
  }
  return range
}

/**
 * Epoch milliseconds in a range, often on a minute edge of the day and on the first or last
 * millisecond of a minute. Drawn as (day, minute, millisecond) so each part shrinks on its own,
 * toward the anchor's midnight; instants past a bound are clamped onto it, so bounds come up too.
 */
export function instantMs(range: InstantRange): fc.Arbitrary<number> {
  const firstDay = Math.floor((range.min - ANCHOR_MS) / DAY_MS)
  const lastDay = Math.floor((range.max - ANCHOR_MS) / DAY_MS)
  return fc
    .tuple(
      fc.integer({ min: firstDay, max: lastDay }),
      fc.oneof(fc.constantFrom(...EDGE_MINUTES), fc.integer({ min: 0, max: 1439 })),
      fc.oneof(fc.constantFrom(0, MINUTE_MS - 1), fc.integer({ min: 0, max: MINUTE_MS - 1 })),
    )
    .map(([day, minute, ms]) => Math.min(range.max, Math.max(range.min, ANCHOR_MS + day * DAY_MS + minute * MINUTE_MS + ms)))
}

/** How long after an earlier instant a later one comes: often not at all, a millisecond, a minute or a day. */
export const laterBy: fc.Arbitrary<number> = fc.oneof(fc.constantFrom(0, 1, MINUTE_MS, DAY_MS), fc.integer({ min: 0, max: 400 * DAY_MS }))

/** An instant some time after another, kept within the years the timestamp format can write. */
export function after(ms: number, by: number): number {
  return Math.min(LAST_MS, ms + by)
}

/** The `created_at` bounds an arbitrary of a stored record takes (its only constraints). */
export interface CreatedAtConstraints {
  /** Earliest `created_at`; default four years before 2026-03-02. */
  minCreatedAt?: Date | number | undefined
  /** Latest `created_at`; default four years after 2026-03-02. */
  maxCreatedAt?: Date | number | undefined
}

/** Checks `constraints` (only the `created_at` bounds are known) and gives the creation instants they allow. */
export function createdAtMs(arbitrary: string, constraints: CreatedAtConstraints, known: ReadonlySet<string>): fc.Arbitrary<number> {
  checkConstraints(arbitrary, constraints, known)
  return instantMs(instantRange(arbitrary, ['minCreatedAt', 'maxCreatedAt'], constraints.minCreatedAt, constraints.maxCreatedAt))
}
