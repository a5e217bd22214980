import { describe } from '../describe.js'
import { PRICE_KEYS } from '../types.js'
import type { PriceKey, Pricing } from '../types.js'
import { buildRates, costAt } from './cost.js'
import type { CostUsage } from './cost.js'
import { type PricingTiers, type Rates, type ResolvedPricing, type Rule, type Tier, inWindow, ruleApplies, toRule } from './rules.js'
import { parseDecimal, parseDiscount } from './decimal.js'
import type { ScaledDecimal } from './decimal.js'
import { PricingError } from './errors.js'
import { explain } from './explain.js'
import type { PricingExplanation } from './explain.js'
import { instantOf, utcMinuteOfDay, utcWeekday } from './instant.js'
import { validatePricing } from './validate.js'

/** The request a price depends on: its total prompt tokens and the instant it is made. */
export interface PricingRequest {
  /** Total prompt tokens, cached and cache-write tokens included (`min_prompt_tokens` compares with this total). */
  promptTokens: number
  /** When the request is made: a Date or epoch milliseconds. Windows and days are read in UTC. */
  at: Date | number
}

/** When a costed request is made; its prompt tokens come from the usage. */
export interface CostRequest {
  at: Date | number
  /** Allowed so that a {@link PricingRequest} can be passed on as it is; it must then equal the usage's `promptTokens`. */
  promptTokens?: number | undefined
}

/** A pricing validated once and prepared for hot paths. Its functions may be called unbound. */
export interface CompiledPricing {
  /**
   * The effective prices for a request, as `resolvePricing` returns them. The hot path: it reads
   * `promptTokens` and `at` and, unlike `resolvePricing` and the other two, does not look for fields a
   * request does not have (`timezone` is not refused here).
   */
  resolve(request: PricingRequest): ResolvedPricing
  /** Why each override applied or not and which entry won each price key, as `explainPricing` says. */
  explain(request: PricingRequest): PricingExplanation
  /** The exact cost of a request's usage, as `estimateCost` returns it. */
  cost(usage: CostUsage, request: CostRequest): string
}

/** Above this many overrides a mask no longer fits a small integer; tiers are then keyed by string. */
const MAX_MASKED_RULES = 30
const ARRAY_CACHE_RULES = 10
/** Resolutions of one engine after which its rules' windows and days are looked up in a week table. */
export const WEEK_TABLE_AFTER = 2048

/** Throws naming `promptTokens` unless it is a non-negative safe integer. */
function checkPromptTokens(value: unknown, operation: string): void {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return
  throw new PricingError(operation, 'request', [{ path: 'promptTokens', message: `must be a non-negative integer, got ${describe(value)}` }])
}


/**
 * Throws unless the request is an object (`shape` names its fields in the message) of only its own
 * fields: one it does not have (`timezone`, say) would be ignored, and the price read for another
 * request than the caller meant. `fields: false` skips that look (the compiled `resolve`, decisions/0005).
 */
function checkRequest(request: unknown, operation: string, shape: string, fields = true): asserts request is object {
  if (typeof request !== 'object' || request === null) {
    throw new PricingError(operation, 'request', [{ path: '', message: `must be an object such as ${shape}, got ${request === null ? 'null' : typeof request}` }])
  }
  if (fields) checkRequestFields(request, operation)
}

function checkRequestFields(request: object, operation: string): void {
  for (const key in request) {
    if (key !== 'promptTokens' && key !== 'at') {
      throw new PricingError(operation, 'request', [{ path: key, message: 'is not a request field; use promptTokens, at (windows and weekdays are read in UTC)' }])
    }
  }
}

/** The compiled form of one valid pricing. */
export class PricingEngine implements PricingTiers {
  readonly rules: readonly Rule[]
  readonly base: Readonly<Partial<Record<PriceKey, string>>>
  readonly discount: number | undefined
  /** The largest number of decimal places among all prices, base and overrides. */
  readonly scale: number
  readonly discountDecimal: ScaledDecimal
  private readonly tiers: (Tier | undefined)[] | Map<number, Tier>
  private readonly wideTiers = new Map<string, Tier>()
  /** Resolutions so far, until the week table is built; then the table and the rules' thresholds (pairs of threshold and bit). */
  private resolutions = 0
  private week: Int32Array | undefined
  private thresholds: number[] = []

  constructor(pricing: Pricing) {
    const base: Partial<Record<PriceKey, string>> = {}
    let scale = 0
    const widen = (value: string): void => {
      scale = Math.max(scale, parseDecimal(value).scale)
    }
    for (const key of PRICE_KEYS) {
      const value = pricing[key]
      if (value !== undefined) {
        base[key] = value
        widen(value)
      }
    }
    this.rules = (pricing.overrides ?? []).map(toRule)
    for (const rule of this.rules) for (const [, value] of rule.prices) widen(value)
    this.base = Object.freeze(base)
    this.discount = pricing.discount
    this.discountDecimal = parseDiscount(pricing.discount ?? 0)
    this.scale = scale
    this.tiers = this.rules.length <= ARRAY_CACHE_RULES ? new Array<Tier | undefined>(1 << this.rules.length).fill(undefined) : new Map()
  }

  /** Bit i is set when override i applies. Only meaningful with at most MAX_MASKED_RULES rules. */
  maskAt(promptTokens: number, ms: number): number {
    // utcMinuteOfDay and utcWeekday, inlined: this is the hot path of every resolution.
    const minutes = Math.floor(ms / 60_000)
    const day = Math.floor(minutes / 1440)
    const minute = minutes - day * 1440
    let weekday = (day + 4) % 7
    if (weekday < 0) weekday += 7
    const week = this.week
    if (week !== undefined) {
      // The windows and days of every rule, looked up; then the thresholds, which only clear bits.
      let mask = week[weekday * 1440 + minute] as number
      const thresholds = this.thresholds
      for (let i = 0; i < thresholds.length; i += 2) if (!(promptTokens > (thresholds[i] as number))) mask &= ~(thresholds[i + 1] as number)
      return mask
    }
    if (++this.resolutions === WEEK_TABLE_AFTER) this.buildWeek()
    const rules = this.rules
    let mask = 0
    for (let i = 0; i < rules.length; i++) {
      if (ruleApplies(rules[i] as Rule, promptTokens, minute, weekday)) mask |= 1 << i
    }
    return mask
  }

  /**
   * For each minute of the week (Sunday 00:00 first), the rules whose window and days hold then,
   * as a mask: built once an engine has resolved WEEK_TABLE_AFTER requests, so that a pricing
   * resolved a few times never pays for its 10,080 entries.
   */
  private buildWeek(): void {
    const rules = this.rules
    const week = new Int32Array(7 * 1440)
    for (let weekday = 0; weekday < 7; weekday++) {
      for (let minute = 0; minute < 1440; minute++) {
        let mask = 0
        for (let i = 0; i < rules.length; i++) {
          const rule = rules[i] as Rule
          if (((rule.dayBits >> weekday) & 1) === 1 && inWindow(rule, minute)) mask |= 1 << i
        }
        week[weekday * 1440 + minute] = mask
      }
    }
    const thresholds: number[] = []
    for (const rule of rules) if (rule.threshold !== Number.NEGATIVE_INFINITY) thresholds.push(rule.threshold, 1 << rule.index)
    this.thresholds = thresholds
    this.week = week
  }

  /** The tier for the overrides that apply to this request, built once per set of them. */
  tierAt(promptTokens: number, ms: number): Tier {
    if (this.rules.length > MAX_MASKED_RULES) return this.wideTierAt(promptTokens, ms)
    const mask = this.maskAt(promptTokens, ms)
    const tiers = this.tiers
    if (Array.isArray(tiers)) {
      const hit = tiers[mask]
      if (hit !== undefined) return hit
      const tier = this.buildTier(this.rules.filter((rule) => (mask >> rule.index) & 1))
      tiers[mask] = tier
      return tier
    }
    const hit = tiers.get(mask)
    if (hit !== undefined) return hit
    const tier = this.buildTier(this.rules.filter((rule) => (mask >> rule.index) & 1))
    tiers.set(mask, tier)
    return tier
  }

  /** As tierAt, for pricings with too many overrides for a bit mask: the set is keyed by its indices. */
  private wideTierAt(promptTokens: number, ms: number): Tier {
    const minute = utcMinuteOfDay(ms)
    const weekday = utcWeekday(ms)
    const applicable = this.rules.filter((rule) => ruleApplies(rule, promptTokens, minute, weekday))
    const key = applicable.map((rule) => rule.index).join(',')
    const hit = this.wideTiers.get(key)
    if (hit !== undefined) return hit
    const tier = this.buildTier(applicable)
    this.wideTiers.set(key, tier)
    return tier
  }

  private buildTier(applicable: readonly Rule[]): Tier {
    const values: Partial<Record<PriceKey, string>> = { ...this.base }
    const winners: Partial<Record<PriceKey, number>> = {}
    for (const key of Object.keys(this.base) as PriceKey[]) winners[key] = -1
    for (const rule of applicable) {
      for (const [key, value] of rule.prices) {
        values[key] = value
        winners[key] = rule.index
      }
    }
    // Key order is PRICE_KEYS order whichever entry set a key, then the discount.
    const prices: Record<string, string | number> = {}
    for (const key of PRICE_KEYS) {
      const value = values[key]
      if (value !== undefined) prices[key] = value
    }
    if (this.discount !== undefined) prices['discount'] = this.discount
    return { prices: Object.freeze(prices) as unknown as ResolvedPricing, winners: Object.freeze(winners), rates: undefined }
  }

  /** `fields: false` reads `promptTokens` and `at` without looking for other fields (the compiled hot path). */
  resolve(request: PricingRequest, operation: string, fields = true): ResolvedPricing {
    checkRequest(request, operation, '{ promptTokens, at }', fields)
    const tokens = request.promptTokens
    checkPromptTokens(tokens, operation)
    return this.tierAt(tokens, instantOf(request.at, operation)).prices
  }

  explain(request: PricingRequest, operation: string): PricingExplanation {
    checkRequest(request, operation, '{ promptTokens, at }')
    checkPromptTokens(request.promptTokens, operation)
    const ms = instantOf(request.at, operation)
    return explain(this, request.promptTokens, ms, this.tierAt(request.promptTokens, ms))
  }

  cost(usage: CostUsage, request: CostRequest, operation: string): string {
    checkRequest(request, operation, '{ at }')
    const ms = instantOf(request.at, operation)
    const cost = costAt(this, usage, ms, operation)
    // The request of resolvePricing may be passed on as it is; its prompt tokens must then be the usage's, which decide the tier.
    const given = (request as { promptTokens?: unknown }).promptTokens
    if (given !== undefined && given !== (usage.promptTokens ?? 0)) {
      throw new PricingError(operation, 'request', [
        { path: 'promptTokens', message: `is ${describe(given)}, but the usage has ${usage.promptTokens ?? 0} prompt tokens, which decide the price; leave it out or make them agree` },
      ])
    }
    return cost
  }

  /** The cost rates of a tier, built on first use. */
  ratesOf(tier: Tier): Rates {
    return (tier.rates ??= buildRates(tier.prices, this.scale, this.discountDecimal))
  }
}

/** Validates a pricing and builds its engine, or throws a PricingError listing every problem. */
export function buildEngine(pricing: unknown, operation: string): PricingEngine {
  const issues = validatePricing(pricing)
  if (issues.length > 0) throw new PricingError(operation, 'pricing', issues)
  return new PricingEngine(pricing as Pricing)
}

/** Wraps an engine in the public, unbound-callable interface. */
export function compiledFrom(engine: PricingEngine): CompiledPricing {
  return Object.freeze({
    // The hot path: a look for unknown request fields costs about a quarter of a resolution.
    resolve: (request: PricingRequest) => engine.resolve(request, 'compiled.resolve', false),
    explain: (request: PricingRequest) => engine.explain(request, 'compiled.explain'),
    cost: (usage: CostUsage, request: CostRequest) => engine.cost(usage, request, 'compiled.cost'),
  })
}

/**
 * Validates a pricing once and returns `{ resolve, explain, cost }` for hot paths. The compiled form
 * keeps its own copy of every value, so later changes to `pricing` do not affect it. Throws a
 * `PricingError` listing every problem when the pricing is invalid.
 *
 * @example
 * import { compilePricing } from 'model-access-sim/pricing'
 * const pricing = compilePricing({
 *   prompt: '0.000003',
 *   completion: '0.000015',
 *   overrides: [{ min_prompt_tokens: 200000, prompt: '0.000006', completion: '0.0000225' }],
 * })
 * const at = Date.UTC(2026, 2, 2, 10, 0)
 * console.log(pricing.resolve({ promptTokens: 200000, at }).prompt)
 * console.log(pricing.resolve({ promptTokens: 200001, at }).prompt)
 * console.log(pricing.cost({ promptTokens: 250000, completionTokens: 1000 }, { at }))
 * //=> 0.000003
 * //=> 0.000006
 * //=> 1.5225
 */
export function compilePricing(pricing: Pricing): CompiledPricing {
  return compiledFrom(buildEngine(pricing, 'compilePricing'))
}
