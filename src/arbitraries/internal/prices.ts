import fc from 'fast-check'
import { OVERRIDABLE_PRICE_KEYS, type OverridablePriceKey, WEEKDAYS, type Weekday } from '../../core/types.js'

/**
 * A decimal price string such as "0.00000028", often "0", and sometimes with trailing zeros
 * ("0.000000280") as a source may write them.
 */
export const price: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('0', '1', '0.5', '0.00000028', '0.000000280', '0.0001'),
  fc.tuple(fc.nat({ max: 2_000_000 }), fc.integer({ min: 0, max: 14 })).map(([units, scale]) => {
    const digits = String(units).padStart(scale + 1, '0')
    return scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`
  }),
)

/** A discount in [0, 1], often none, all, a round fraction, or a tiny one. */
export const discount: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(0, 0.1, 0.25, 0.5, 1, 1e-7),
  fc.double({ min: 0, max: 1, noNaN: true }),
)

const toHhmm = (minuteOfDay: number): number => Math.floor(minuteOfDay / 60) * 100 + (minuteOfDay % 60)
const toMinuteOfDay = (hhmm: number): number => Math.floor(hhmm / 100) * 60 + (hhmm % 100)

/** Any HHMM clock time from 0000 to 2359. */
const hhmm: fc.Arbitrary<number> = fc.integer({ min: 0, max: 1439 }).map(toHhmm)

/** A utc_start: any clock time, often one of the real service's or a midnight edge. */
export const utcStart: fc.Arbitrary<number> = fc.oneof(fc.constantFrom(0, 1, 30, 1630, 2200, 2358, 2359), hhmm)

/** A utc_end: as utc_start, plus 2400 (end of day). */
export const utcEnd: fc.Arbitrary<number> = fc.oneof(fc.constantFrom(0, 1, 30, 200, 1630, 2359, 2400), hhmm)

/** The clock minute after an HHMM time; after 2359 comes 2400, the end of the day. */
export function nextMinute(time: number): number {
  const next = toMinuteOfDay(time) + 1
  return next === 1440 ? 2400 : toHhmm(next)
}

/** The clock minute after an HHMM time, wrapping to 0000: a start that follows another start. */
export function nextStart(time: number): number {
  return toHhmm((toMinuteOfDay(time) + 1) % 1440)
}

/** At least one weekday, in week order. */
export const weekdays: fc.Arbitrary<Weekday[]> = fc.subarray([...WEEKDAYS], { minLength: 1 })

/** A min_prompt_tokens threshold, often one the real service uses (0, 1000, 128000, 200000). */
export const threshold: fc.Arbitrary<number> = fc.oneof(fc.constantFrom(0, 1000, 128000, 200000), fc.nat({ max: 300_000 }))

/**
 * Any subset of the overridable price keys; often none at all (an override that changes nothing),
 * which a record of seven optional keys seldom gives.
 */
export const overridePrices: fc.Arbitrary<Partial<Record<OverridablePriceKey, string>>> = fc.oneof(
  { arbitrary: fc.record(Object.fromEntries(OVERRIDABLE_PRICE_KEYS.map((key) => [key, price])) as Record<OverridablePriceKey, fc.Arbitrary<string>>, { requiredKeys: [], noNullPrototype: true }), weight: 4 },
  // A fresh object per value: a test that mutates one value must not change the next.
  { arbitrary: fc.constant(null).map(() => ({})), weight: 1 },
)
