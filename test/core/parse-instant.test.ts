// parseInstant's fast path for `toISOString`'s form must read every string exactly as the general
// path (the ISO pattern, the calendar check and Date.parse) does, and refuse what it refuses.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseInstant, toEpochMs } from '../../src/core/time.js'
import { runs } from '../support/runs.js'

/** The general path alone: what parseInstant gave before the fast path. */
function general(value: string): number | undefined {
  try {
    return toEpochMs(value, 'read', 'value')
  } catch {
    return undefined
  }
}

const pad = (n: number, width: number) => String(n).padStart(width, '0')

describe('parseInstant', () => {
  it('reads every toISOString instant of years 0000-9999 as Date does', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(0, 0, 1) - 1_900 * 365.2425 * 86_400_000, max: Date.UTC(9999, 11, 31, 23, 59, 59, 999) }), (ms) => {
        const text = new Date(ms).toISOString()
        fc.pre(text.length === 24)
        expect(parseInstant(text)).toBe(ms)
      }),
      { verbose: true, numRuns: runs(2000) },
    )
  })

  it('agrees with the general path on strings of that shape, valid or not (Feb 29, hour 24, second 60...)', () => {
    const field = (max: number, width: number) => fc.integer({ min: 0, max }).map((n) => pad(n, width))
    const shaped = fc
      .tuple(field(9999, 4), field(13, 2), field(32, 2), field(25, 2), field(60, 2), field(61, 2), field(999, 3))
      .map(([y, mo, d, h, mi, s, ms]) => `${y}-${mo}-${d}T${h}:${mi}:${s}.${ms}Z`)
    fc.assert(
      fc.property(shaped, (text) => {
        expect(parseInstant(text)).toBe(general(text))
      }),
      { verbose: true, numRuns: runs(3000) },
    )
  })

  it.each(['2024-02-29T00:00:00.000Z', '2026-02-29T00:00:00.000Z', '1900-02-29T12:00:00.000Z', '2000-02-29T12:00:00.000Z', '0000-01-01T00:00:00.000Z', '2026-03-02T10:00:00.000Z', '2026-03-02T10:00:00.000z', '2026-03-02 10:00:00.000Z', '2026-3-02T10:00:00.000ZZ', '2026-03-02T10:00:00.00aZ'])(
    'reads %j as the general path does',
    (text) => {
      expect(parseInstant(text)).toBe(general(text))
    },
  )
})
