// formatTimestamp builds its string from integers (and caches the date part of the last day), so
// this checks it against the Date it replaced: the same string for every valid instant, across day,
// month, year and leap-day boundaries, the years toISOString writes with six digits and a sign, the
// ends of the Date range, and fractions of a millisecond; and the same error for anything else.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { SimulatorError } from '../../src/core/errors.js'
import { formatTimestamp } from '../../src/core/time.js'
import { runs } from '../support/runs.js'

// One seed, so that every run tries the same inputs; FC_SEED=<n> tries others. fast-check prints the
// seed and path of a failure, which replay it.
const SEED = Number(process.env['FC_SEED'] ?? 20260302)

const DAY = 86_400_000
const LIMIT = 8.64e15

/** What formatTimestamp wrote when it went through a Date. */
const reference = (ms: number): string => `${new Date(ms).toISOString().slice(0, -1)}000+00:00`

/** UTC midnight of a date; setUTCFullYear, not Date.UTC, which reads years 0 to 99 as 1900 to 1999. NaN outside the range. */
const midnight = (year: number, monthIndex: number, day: number): number => new Date(0).setUTCFullYear(year, monthIndex, day)

const inRange = (ms: number): boolean => Math.abs(ms) <= LIMIT

/** An instant near `anchor`: on it, a millisecond either side, or anywhere within two days. */
const near = (anchor: fc.Arbitrary<number>): fc.Arbitrary<number> =>
  fc
    .tuple(anchor, fc.oneof(fc.constantFrom(0, -1, 1, DAY - 1, -DAY, DAY), fc.integer({ min: -2 * DAY, max: 2 * DAY })))
    .map(([at, offset]) => at + offset)
    .filter(inRange)

const FIRST_YEAR = -271_821
const LAST_YEAR = 275_760

const instants = {
  whole: fc.integer({ min: -LIMIT, max: LIMIT }),
  dayBoundary: near(fc.integer({ min: -100_000_000, max: 100_000_000 }).map((day) => day * DAY)),
  yearBoundary: near(fc.integer({ min: FIRST_YEAR, max: LAST_YEAR }).map((year) => midnight(year, 0, 1))),
  monthBoundary: near(fc.tuple(fc.integer({ min: FIRST_YEAR, max: LAST_YEAR }), fc.integer({ min: 0, max: 11 })).map(([y, m]) => midnight(y, m, 1))),
  // 29 February of a year that has none is 1 March.
  leapDay: near(
    fc.tuple(fc.oneof(fc.constantFrom(1900, 2000, 2024, 2100, 2023, 1600, 0, -4, -100, -400), fc.integer({ min: FIRST_YEAR, max: LAST_YEAR })), fc.integer({ min: 28, max: 29 })).map(([y, d]) => midnight(y, 1, d)),
  ),
  special: near(
    fc.constantFrom(
      0,
      -1,
      midnight(1970, 0, 1),
      midnight(1969, 11, 31),
      midnight(9999, 11, 31),
      midnight(10_000, 0, 1),
      midnight(0, 0, 1),
      midnight(-1, 11, 31),
      midnight(-1, 0, 1),
      midnight(1, 0, 1),
      midnight(100, 0, 1),
      LIMIT,
      -LIMIT,
    ),
  ),
  // Date truncates towards zero; the old code accepted fractions, so the new one must match on them.
  fraction: fc.double({ min: -LIMIT, max: LIMIT, noNaN: true, noDefaultInfinity: true }),
  smallFraction: fc.double({ min: -3 * DAY, max: 3 * DAY, noNaN: true }),
}

const anyInstant = fc.oneof(...Object.values(instants))

describe('formatTimestamp', () => {
  for (const [name, arbitrary] of Object.entries(instants)) {
    it(`writes what toISOString wrote, for ${name} instants`, () => {
      fc.assert(
        fc.property(arbitrary, (ms) => {
          expect(formatTimestamp(ms)).toBe(reference(ms))
        }),
        { seed: SEED, numRuns: runs(1000) },
      )
    })
  }

  it('writes what toISOString wrote through runs of calls, where the date part of the last day is reused', () => {
    // Runs on one day (the cached date), interleaved with other days and the six-digit years.
    const run = fc.tuple(anyInstant, fc.array(fc.oneof(fc.integer({ min: -DAY, max: DAY }), fc.constantFrom(0, 1, -1)), { maxLength: 8 }))
    fc.assert(
      fc.property(fc.array(run, { maxLength: 10 }), (runs) => {
        for (const [start, offsets] of runs) {
          for (const ms of [start, ...offsets.map((offset) => start + offset).filter(inRange)]) {
            expect(formatTimestamp(ms), String(ms)).toBe(reference(ms))
          }
        }
      }),
      { seed: SEED, numRuns: runs(300) },
    )
  })

  it('writes the documented examples and the ends of the range', () => {
    expect(formatTimestamp(Date.UTC(2026, 2, 2, 10, 0, 0, 5))).toBe('2026-03-02T10:00:00.005000+00:00')
    expect(formatTimestamp(0)).toBe('1970-01-01T00:00:00.000000+00:00')
    expect(formatTimestamp(-1)).toBe('1969-12-31T23:59:59.999000+00:00')
    expect(formatTimestamp(-0.5)).toBe('1970-01-01T00:00:00.000000+00:00')
    expect(formatTimestamp(LIMIT)).toBe('+275760-09-13T00:00:00.000000+00:00')
    expect(formatTimestamp(-LIMIT)).toBe('-271821-04-20T00:00:00.000000+00:00')
    expect(formatTimestamp(midnight(10_000, 0, 1))).toBe('+010000-01-01T00:00:00.000000+00:00')
    expect(formatTimestamp(midnight(10_000, 0, 1) - 1)).toBe('9999-12-31T23:59:59.999000+00:00')
    expect(formatTimestamp(midnight(0, 0, 1))).toBe('0000-01-01T00:00:00.000000+00:00')
    expect(formatTimestamp(midnight(0, 0, 1) - 1)).toBe('-000001-12-31T23:59:59.999000+00:00')
    expect(formatTimestamp(midnight(2024, 1, 29) + 1)).toBe('2024-02-29T00:00:00.001000+00:00')
  })

  it.each<[string, unknown, string]>([
    ['NaN', Number.NaN, 'NaN'],
    ['Infinity', Number.POSITIVE_INFINITY, 'Infinity'],
    ['-Infinity', Number.NEGATIVE_INFINITY, '-Infinity'],
    ['8.64e15 + 1', LIMIT + 1, '8640000000000001'],
    ['-8.64e15 - 1', -LIMIT - 1, '-8640000000000001'],
    ['a string', '2026-03-02T10:00:00Z', '"2026-03-02T10:00:00Z"'],
    ['undefined', undefined, 'undefined'],
  ])('throws a SimulatorError naming "ms" for %s', (_, value, shown) => {
    let thrown: unknown
    try {
      formatTimestamp(value as number)
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(SimulatorError)
    expect((thrown as SimulatorError).argument).toBe('ms')
    expect((thrown as SimulatorError).message).toBe(
      `Failed to format a timestamp: "ms" must be epoch milliseconds of a valid instant, got ${shown}.`,
    )
  })
})
