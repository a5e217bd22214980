// The rules of a pricing as the engine holds them: an override's conditions turned into numbers
// the hot path compares, the tiers they resolve to, and the view of an engine that the cost and
// the explanation read. compile.ts builds engines of these; cost.ts and explain.ts read them.
import type { OverridablePriceKey, PriceKey, Pricing, PricingOverride, Weekday } from '../types.js'
import { OVERRIDABLE_PRICE_KEYS } from '../types.js'
import type { ScaledDecimal } from './decimal.js'
import { hhmmToMinutes, UTC_DAY_NAMES } from './instant.js'

/**
 * The effective pricing of one request: every price key after overrides (each string identical to
 * the source string that won) and the discount, if the pricing has one. Frozen, and shared between
 * the calls to which the same set of overrides applies.
 */
export type ResolvedPricing = Readonly<Omit<Pricing, 'overrides'>>

/** One override, with its conditions turned into numbers the hot path compares. */
export interface Rule {
  index: number
  /** `min_prompt_tokens`, or -Infinity when the override has none. */
  threshold: number
  /** Window bounds in minutes after midnight, [start, end); 0 and 1440 without a window. */
  start: number
  end: number
  hasWindow: boolean
  wraps: boolean
  /** Weekdays as bits indexed like getUTCDay (0 = Sunday); all seven without `utc_days`. */
  dayBits: number
  source: Readonly<PricingOverride>
  prices: readonly (readonly [OverridablePriceKey, string])[]
}

/** The prices, and lazily the cost rates, for one set of applicable overrides. */
export interface Tier {
  prices: ResolvedPricing
  /** For each price key, the override index that set it, or -1 for the base. */
  winners: Readonly<Partial<Record<PriceKey, number>>>
  rates: Rates | undefined
}

/** Per-unit prices, discount applied, as integers of `10^-scale` USD. */
export interface Rates {
  scale: number
  big: readonly bigint[]
  /** The same rates as numbers, when every one is a safe integer; undefined otherwise. */
  small: readonly number[] | undefined
}

/** What the cost and the explanation read of a compiled engine (compile.ts's PricingEngine). */
export interface PricingTiers {
  readonly rules: readonly Rule[]
  readonly base: Readonly<Partial<Record<PriceKey, string>>>
  readonly discount: number | undefined
  readonly discountDecimal: ScaledDecimal
  /** The tier of the overrides that apply to a request of `promptTokens` at `ms`. */
  tierAt(promptTokens: number, ms: number): Tier
  /** A tier's cost rates, made on first use. */
  ratesOf(tier: Tier): Rates
}

const ALL_DAYS = 0x7f

export function toRule(override: PricingOverride, index: number): Rule {
  const hasWindow = override.utc_start !== undefined || override.utc_end !== undefined
  const start = hhmmToMinutes(override.utc_start ?? 0)
  const end = hhmmToMinutes(override.utc_end ?? 2400)
  let dayBits = ALL_DAYS
  if (override.utc_days !== undefined) {
    dayBits = 0
    for (const day of override.utc_days) dayBits |= 1 << UTC_DAY_NAMES.indexOf(day)
  }
  const prices: (readonly [OverridablePriceKey, string])[] = []
  for (const key of OVERRIDABLE_PRICE_KEYS) {
    const value = override[key]
    if (value !== undefined) prices.push([key, value])
  }
  return {
    index,
    threshold: override.min_prompt_tokens ?? Number.NEGATIVE_INFINITY,
    start,
    end,
    hasWindow,
    wraps: start > end,
    dayBits,
    source: Object.freeze({ ...override, ...(override.utc_days && { utc_days: Object.freeze([...override.utc_days]) as Weekday[] }) }),
    prices,
  }
}

/** Whether a minute of the UTC day is inside a rule's window, [start, end), wrapping when start > end. */
export function inWindow(rule: Rule, minute: number): boolean {
  return rule.wraps ? minute >= rule.start || minute < rule.end : minute >= rule.start && minute < rule.end
}

/** Whether a rule applies to a request at this minute of the UTC day and weekday. */
export function ruleApplies(rule: Rule, promptTokens: number, minute: number, weekday: number): boolean {
  return promptTokens > rule.threshold && ((rule.dayBits >> weekday) & 1) === 1 && inWindow(rule, minute)
}
