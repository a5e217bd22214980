// fast-check arbitraries for pricing, biased toward the boundaries that break pricing code:
// 23:59 to 00:00, window edges, weekday midnights, 2400, threshold ±1, trailing zeros in prices.
// Issue 4 publishes entity arbitraries from model-access-sim/arbitraries; these serve the pricing
// engine's own property tests until then.
import fc from 'fast-check'
import { OVERRIDABLE_PRICE_KEYS, PRICE_KEYS, WEEKDAYS } from '../../src/index.js'
import type { Pricing, PricingOverride, PricingRequest, Weekday } from '../../src/pricing/index.js'

const DAY_MS = 86_400_000
const MINUTE_MS = 60_000
/** 2026-03-02, a Monday: instants are drawn around it, so weekdays are easy to read in a counterexample. */
export const MONDAY_MS = Date.UTC(2026, 2, 2)

/** A decimal string such as "0.00000028" or "0.000000280" (trailing zeros kept, as a source may have them). */
export const price: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('0', '1', '0.5', '0.00000028', '0.000000280', '0.0001'),
  fc.tuple(fc.nat({ max: 2_000_000 }), fc.integer({ min: 0, max: 14 })).map(([units, scale]) => {
    const digits = String(units).padStart(scale + 1, '0')
    return scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`
  }),
)

const hhmm = fc.integer({ min: 0, max: 23 }).chain((h) => fc.integer({ min: 0, max: 59 }).map((m) => h * 100 + m))
/** A utc_start: any clock time, often one of the real service's or a midnight edge. */
export const utcStart: fc.Arbitrary<number> = fc.oneof(fc.constantFrom(0, 1, 30, 1630, 2200, 2358, 2359), hhmm)
/** A utc_end: as utc_start, plus 2400 (end of day). */
export const utcEnd: fc.Arbitrary<number> = fc.oneof(fc.constantFrom(0, 1, 30, 200, 1630, 2359, 2400), hhmm)
export const days: fc.Arbitrary<Weekday[]> = fc.subarray([...WEEKDAYS], { minLength: 1 })
export const threshold: fc.Arbitrary<number> = fc.oneof(fc.constantFrom(0, 1000, 128000, 200000), fc.nat({ max: 300_000 }))

/** A valid override: any subset of its price keys and conditions (start == end is excluded). */
export const pricingOverride: fc.Arbitrary<PricingOverride> = fc
  .record(
    {
      ...Object.fromEntries(OVERRIDABLE_PRICE_KEYS.map((key) => [key, price])),
      min_prompt_tokens: threshold,
      utc_start: utcStart,
      utc_end: utcEnd,
      utc_days: days,
    } as Record<keyof PricingOverride, fc.Arbitrary<unknown>>,
    { requiredKeys: [] },
  )
  .map((o) => o as PricingOverride)
  .filter((o) => (o.utc_start === undefined && o.utc_end === undefined) || (o.utc_start ?? 0) !== (o.utc_end ?? 2400))

export const discount: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(0, 0.1, 0.25, 0.5, 1, 1e-7),
  fc.double({ min: 0, max: 1, noNaN: true }),
)

/** A valid pricing with up to `maxOverrides` overrides. */
export function pricing(constraints: { maxOverrides?: number; discount?: fc.Arbitrary<number> } = {}): fc.Arbitrary<Pricing> {
  const optionalKeys = PRICE_KEYS.filter((key) => key !== 'prompt' && key !== 'completion')
  return fc
    .record(
      {
        prompt: price,
        completion: price,
        ...Object.fromEntries(optionalKeys.map((key) => [key, price])),
        discount: constraints.discount ?? discount,
        overrides: fc.array(pricingOverride, { maxLength: constraints.maxOverrides ?? 6 }),
      } as Record<keyof Pricing, fc.Arbitrary<unknown>>,
      { requiredKeys: ['prompt', 'completion', ...(constraints.discount ? (['discount'] as const) : [])] },
    )
    .map((p) => p as Pricing)
}

/** Minutes of the day where pricing code tends to break. */
const edgeMinute = fc.constantFrom(0, 1, 29, 30, 989, 990, 1319, 1320, 119, 120, 1438, 1439)

/** An instant within four years either side of 2026-03-02, often on a minute edge. */
export const instant: fc.Arbitrary<number> = fc
  .tuple(
    fc.integer({ min: -1461, max: 1461 }),
    fc.oneof(edgeMinute, fc.nat({ max: 1439 })),
    fc.oneof(fc.constantFrom(0, MINUTE_MS - 1), fc.nat({ max: MINUTE_MS - 1 })),
  )
  .map(([day, minute, ms]) => MONDAY_MS + day * DAY_MS + minute * MINUTE_MS + ms)

export const promptTokens: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(0, 1, 999, 1000, 1001, 127999, 128000, 128001, 199999, 200000, 200001),
  fc.nat({ max: 300_000 }),
)

export const request: fc.Arbitrary<PricingRequest> = fc.record({ promptTokens, at: fc.oneof(instant, instant.map((ms) => new Date(ms))) })
