import fc from 'fast-check'
import { fieldsOf } from '../core/store/check.js'
import type { PricingOverride } from '../core/types.js'
import { invalidConstraint, checkConstraints } from './internal/constraints.js'
import { nextMinute, overridePrices, threshold, utcEnd, utcStart, weekdays } from './internal/prices.js'

/** The constraints this arbitrary takes; any other is refused. */
export const PRICING_OVERRIDE_CONSTRAINT_NAMES = fieldsOf<PricingOverrideConstraints>({ kind: true })

/**
 * Which conditions an override carries: `'window'` a UTC time window (`utc_start` and/or
 * `utc_end`, sometimes `utc_days`), `'tier'` a long-context tier (`min_prompt_tokens` only),
 * `'any'` any subset of the four conditions, none included.
 */
export type PricingOverrideKind = 'window' | 'tier' | 'any'

/** Options of {@link pricingOverride}. */
export interface PricingOverrideConstraints {
  /** Which conditions the override carries; default `'any'`. */
  kind?: PricingOverrideKind | undefined
}

const KINDS: readonly PricingOverrideKind[] = ['window', 'tier', 'any']

/**
 * Makes a window valid by construction rather than by a filter (which would not shrink as well):
 * an empty window (start == end) becomes a one-minute one, and an end-only window ending at 0000
 * becomes the whole day, ending at 2400.
 */
function validWindow<T extends PricingOverride>(override: T): T {
  const { utc_start: start, utc_end: end } = override
  if (start !== undefined && start === end) return { ...override, utc_end: nextMinute(start) }
  if (start === undefined && end === 0) return { ...override, utc_end: 2400 }
  return override
}

const window: fc.Arbitrary<Pick<PricingOverride, 'utc_start' | 'utc_end'>> = fc.oneof(
  fc.tuple(utcStart, utcEnd).map(([utc_start, utc_end]) => validWindow({ utc_start, utc_end })),
  utcStart.map((utc_start) => ({ utc_start })),
  utcEnd.map((utc_end) => validWindow({ utc_end })),
)

/** Any subset of the four conditions; often none (an override that always applies), which a record of four optional keys seldom gives. */
const conditions: fc.Arbitrary<Pick<PricingOverride, 'min_prompt_tokens' | 'utc_start' | 'utc_end' | 'utc_days'>> = fc.oneof(
  { arbitrary: fc.record({ min_prompt_tokens: threshold, utc_start: utcStart, utc_end: utcEnd, utc_days: weekdays }, { requiredKeys: [] }), weight: 4 },
  { arbitrary: fc.constant(null).map(() => ({})), weight: 1 },
)

/**
 * Arbitrary pricing override that `validatePricing` accepts and the official SDK parses. Biased
 * toward the edges that break pricing code: windows at 0000, 2359 and 2400,
 * windows that wrap past midnight and one-minute windows, the real service's 0030 and 1630,
 * thresholds 0, 1000, 128000 and 200000, single weekdays and all seven, prices "0" and prices with
 * trailing zeros. Shrinks toward fewer keys and smaller values.
 *
 * @example
 * import fc from 'fast-check'
 * import { validatePricing } from 'model-access-sim/pricing'
 * import { pricingOverride } from 'model-access-sim/arbitraries'
 * const tiers = fc.sample(pricingOverride({ kind: 'tier' }), { seed: 1, numRuns: 50 })
 * console.log(tiers.every((o) => typeof o.min_prompt_tokens === 'number' && o.utc_start === undefined))
 * //=> true
 * const valid = fc.check(fc.property(pricingOverride(), (o) => validatePricing({ prompt: '1', completion: '1', overrides: [o] }).length === 0))
 * console.log(valid.failed)
 * //=> false
 */
export function pricingOverride(constraints: PricingOverrideConstraints = {}): fc.Arbitrary<PricingOverride> {
  checkConstraints('pricingOverride', constraints, PRICING_OVERRIDE_CONSTRAINT_NAMES)
  const kind = constraints.kind ?? 'any'
  if (!KINDS.includes(kind)) {
    throw invalidConstraint('pricingOverride', 'kind', `kind must be one of ${KINDS.join(', ')}, got ${JSON.stringify(kind)}`, `pass kind: 'window', 'tier' or 'any'`)
  }
  if (kind === 'tier') {
    return fc.tuple(overridePrices, threshold).map(([prices, min_prompt_tokens]): PricingOverride => ({ ...prices, min_prompt_tokens }))
  }
  if (kind === 'window') {
    return fc
      .tuple(overridePrices, window, fc.option(weekdays, { nil: undefined }))
      .map(([prices, times, days]): PricingOverride => (days === undefined ? { ...prices, ...times } : { ...prices, ...times, utc_days: days }))
  }
  return fc.tuple(overridePrices, conditions).map(([prices, given]) => validWindow({ ...prices, ...given }))
}
