import type { Pricing } from '../types.js'
import { buildEngine } from './compile.js'
import type { CostRequest, PricingEngine, PricingRequest } from './compile.js'
import type { ResolvedPricing } from './rules.js'
import type { CostUsage } from './cost.js'
import type { PricingExplanation } from './explain.js'

// The uncompiled functions compile a pricing on first sight and keep the engine in a WeakMap keyed
// by the object. So that a memoized engine can never go stale, they deep-freeze the pricing they
// memoize: changing it afterwards throws a TypeError at the change, instead of leaving an old price
// behind. Comparing the object with a copy on every call would cost more than interpreting it
// (decisions/0008). The memo holds only values derived from its keys and changes no result, so it is
// not shared state in the sense of the one-simulator-one-state rule.
const memo = new WeakMap<object, PricingEngine>()

function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null) return
  Object.freeze(value)
  for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key])
}

/** The engine for a pricing object: compiled on first sight, which also freezes the object. */
function engineFor(pricing: unknown, operation: string): PricingEngine {
  const isObject = typeof pricing === 'object' && pricing !== null
  if (isObject) {
    const hit = memo.get(pricing)
    if (hit !== undefined) return hit
  }
  const engine = buildEngine(pricing, operation)
  if (isObject) {
    deepFreeze(pricing)
    memo.set(pricing, engine)
  }
  return engine
}

/**
 * The effective prices of a request: every price key after the overrides that
 * apply, each string identical to the source string that won, plus the discount if there is one.
 * The result is frozen and may be shared. Throws a `PricingError` naming the argument when the
 * pricing or the request is invalid.
 *
 * The first call with a pricing object compiles it and deep-freezes it, so later calls with the same
 * object skip the compilation and can never see a stale copy: to vary a pricing, spread a new object
 * (`{ ...pricing, prompt: '0.000002' }`). `explainPricing` and `estimateCost` share this memo.
 *
 * @example
 * import { resolvePricing } from 'model-access-sim/pricing'
 * const pricing = {
 *   prompt: '0.00000028',
 *   completion: '0.00000042',
 *   overrides: [
 *     { utc_start: 30, utc_end: 1630, prompt: '0.00000028', completion: '0.00000042' },
 *     { utc_start: 1630, utc_end: 30, prompt: '0.00000014', completion: '0.00000021' },
 *   ],
 * }
 * console.log(resolvePricing(pricing, { promptTokens: 1000, at: new Date('2026-03-02T16:29:59Z') }).prompt)
 * console.log(resolvePricing(pricing, { promptTokens: 1000, at: new Date('2026-03-02T16:30:00Z') }).prompt)
 * //=> 0.00000028
 * //=> 0.00000014
 */
export function resolvePricing(pricing: Pricing, request: PricingRequest): ResolvedPricing {
  return engineFor(pricing, 'resolvePricing').resolve(request, 'resolvePricing')
}

/**
 * Says, for one request, which condition of each override held or failed and with what values, and
 * which entry won each price key: the thing to read when a price surprises you. `text` has it all
 * as lines. Like `resolvePricing`, it compiles and deep-freezes a pricing object on first sight.
 *
 * @example
 * import { explainPricing } from 'model-access-sim/pricing'
 * const pricing = {
 *   prompt: '0.000002',
 *   completion: '0.000008',
 *   overrides: [{ utc_start: 2200, utc_end: 200, utc_days: ['friday'], prompt: '0.000001' }],
 * }
 * const saturday = explainPricing(pricing, { promptTokens: 500, at: Date.UTC(2026, 2, 7, 1, 0) })
 * console.log(saturday.text)
 * //=> 500 prompt tokens at 2026-03-07T01:00:00.000Z (saturday 01:00 UTC)
 * //=> overrides[0] does not apply: saturday (UTC) is not one of utc_days [friday]
 * //=> prompt = "0.000002" from base
 * //=> completion = "0.000008" from base
 */
export function explainPricing(pricing: Pricing, request: PricingRequest): PricingExplanation {
  return engineFor(pricing, 'explainPricing').explain(request, 'explainPricing')
}

/**
 * The exact cost in USD of one request's usage, as a plain decimal string without an exponent or
 * trailing zeros ("0" for nothing). Prices are the ones `resolvePricing` gives for the usage's prompt
 * tokens at `request.at`; the discount applies to all of them. How each usage field is billed is
 * documented on `CostUsage` and in decisions/0007 in the repository. Like `resolvePricing`, it compiles and
 * deep-freezes a pricing object on first sight.
 *
 * @example
 * import { estimateCost } from 'model-access-sim/pricing'
 * const pricing = { prompt: '0.000003', completion: '0.000015', input_cache_read: '0.0000003', discount: 0.1 }
 * const usage = { promptTokens: 10000, cachedTokens: 8000, completionTokens: 500 }
 * console.log(estimateCost(pricing, usage, { at: Date.UTC(2026, 2, 2) }))
 * //=> 0.01431
 */
export function estimateCost(pricing: Pricing, usage: CostUsage, request: CostRequest): string {
  return engineFor(pricing, 'estimateCost').cost(usage, request, 'estimateCost')
}
