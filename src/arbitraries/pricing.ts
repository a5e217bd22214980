import fc from 'fast-check'
import { fieldsOf } from '../core/store/check.js'
import { PRICE_KEYS, type PriceKey, type Pricing, type PricingOverride } from '../core/types.js'
import { countRange, invalidConstraint, checkConstraints } from './internal/constraints.js'
import { discount as anyDiscount, nextStart, overridePrices, price, utcStart } from './internal/prices.js'
import { pricingOverride } from './pricing-override.js'

/** The constraints this arbitrary takes; any other is refused. */
export const PRICING_CONSTRAINT_NAMES = fieldsOf<PricingConstraints>({ kind: true, minOverrides: true, maxOverrides: true, discount: true })

/**
 * Which overrides a pricing carries: `'windows'` only UTC time windows, `'tiers'` only
 * long-context tiers (`min_prompt_tokens`), `'any'` any mix, conditions combined within one override.
 */
export type PricingKind = 'windows' | 'tiers' | 'any'

/** Options of {@link pricing}. */
export interface PricingConstraints {
  /** Which overrides it carries; default `'any'`. */
  kind?: PricingKind | undefined
  /** Fewest overrides; default 0. Above 0, `overrides` is always present. */
  minOverrides?: number | undefined
  /** Most overrides; default 6 (or `minOverrides`, when that is larger). 0 means none. */
  maxOverrides?: number | undefined
  /** A discount every value carries; absent: the key is often absent, otherwise any value in [0, 1]. */
  discount?: number | undefined
}

const KINDS: readonly PricingKind[] = ['windows', 'tiers', 'any']
const OPTIONAL_PRICE_KEYS = PRICE_KEYS.filter((key) => key !== 'prompt' && key !== 'completion')

/**
 * Peak and off-peak windows that tile the whole day, the shape real endpoints list
 * (`{ utc_start: 30, utc_end: 1630 }` and `{ utc_start: 1630, utc_end: 30 }`).
 */
const tilingWindows: fc.Arbitrary<PricingOverride[]> = fc
  .tuple(utcStart, utcStart, overridePrices, overridePrices)
  .map(([a, b, peak, offPeak]) => {
    const turn = a === b ? nextStart(a) : b
    return [
      { ...peak, utc_start: a, utc_end: turn },
      { ...offPeak, utc_start: turn, utc_end: a },
    ]
  })

/**
 * Arbitrary endpoint pricing that `validatePricing`
 * accepts and the official SDK parses: `prompt` and `completion` always, any subset of the other
 * price keys, sometimes a `discount`, and `overrides` absent, empty or up to `maxOverrides` long.
 * Biased toward prices "0" and with trailing zeros, discounts 0 and 1, and the override edges of
 * {@link pricingOverride}; `kind: 'windows'` also yields day-tiling peak/off-peak pairs. Shrinks
 * toward `{ prompt: "0", completion: "0" }`.
 *
 * @example
 * import fc from 'fast-check'
 * import { validatePricing } from 'model-access-sim/pricing'
 * import { pricing } from 'model-access-sim/arbitraries'
 * const result = fc.check(fc.property(pricing({ kind: 'windows', maxOverrides: 2 }), (p) => validatePricing(p).length === 0 && (p.overrides ?? []).length <= 2))
 * console.log(result.failed)
 * //=> false
 * const shrunk = fc.check(fc.property(pricing(), (p) => (p.overrides ?? []).length < 3), { seed: 1 })
 * console.log(shrunk.counterexample)
 * //=> [{"prompt":"0","completion":"0","overrides":[{},{},{}]}]
 */
export function pricing(constraints: PricingConstraints = {}): fc.Arbitrary<Pricing> {
  checkConstraints('pricing', constraints, PRICING_CONSTRAINT_NAMES)
  const kind = constraints.kind ?? 'any'
  if (!KINDS.includes(kind)) {
    throw invalidConstraint('pricing', 'kind', `kind must be one of ${KINDS.join(', ')}, got ${JSON.stringify(kind)}`, `pass kind: 'windows', 'tiers' or 'any'`)
  }
  const [minOverrides, maxOverrides] = countRange('pricing', ['minOverrides', 'maxOverrides'], [constraints.minOverrides, constraints.maxOverrides], [0, 6])
  const fixedDiscount = constraints.discount
  if (fixedDiscount !== undefined && !(typeof fixedDiscount === 'number' && fixedDiscount >= 0 && fixedDiscount <= 1)) {
    throw invalidConstraint('pricing', 'discount', `discount must be a number in [0, 1], got ${String(fixedDiscount)}`, 'pass a fraction such as 0.1, or leave discount out')
  }
  const override = pricingOverride({ kind: kind === 'windows' ? 'window' : kind === 'tiers' ? 'tier' : 'any' })
  const list = fc.array(override, { minLength: minOverrides, maxLength: maxOverrides })
  const overrides = kind === 'windows' && minOverrides <= 2 && maxOverrides >= 2 ? fc.oneof({ arbitrary: list, weight: 3 }, { arbitrary: tilingWindows, weight: 1 }) : list
  const model = {
    prompt: price,
    completion: price,
    ...(Object.fromEntries(OPTIONAL_PRICE_KEYS.map((key) => [key, price])) as Record<Exclude<PriceKey, 'prompt' | 'completion'>, fc.Arbitrary<string>>),
    discount: fixedDiscount === undefined ? anyDiscount : fc.constant(fixedDiscount),
    overrides,
  }
  const requiredKeys: (keyof typeof model)[] = ['prompt', 'completion']
  if (fixedDiscount !== undefined) requiredKeys.push('discount')
  if (minOverrides > 0) requiredKeys.push('overrides')
  return fc.record(model, { requiredKeys, noNullPrototype: true }) as fc.Arbitrary<Pricing>
}
