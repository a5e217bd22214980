// The official SDK's pricing objects (camelCase) as the wire pricing the engine takes.
import { OVERRIDABLE_PRICE_KEYS, PRICE_KEYS, type Pricing } from '../types.js'
import { PricingError } from './errors.js'
import { type PricingIssue, validatePricing } from './validate.js'

/** `input_cache_write_1h` as the SDK names it: `inputCacheWrite1h`. */
function camel(wire: string): string {
  return wire.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase())
}

const PRICING_NAMES: ReadonlyMap<string, string> = new Map([...PRICE_KEYS, 'discount', 'overrides'].map((k) => [camel(k), k]))
const CONDITION_KEYS = ['min_prompt_tokens', 'utc_start', 'utc_end', 'utc_days'] as const
const OVERRIDE_NAMES: ReadonlyMap<string, string> = new Map([...OVERRIDABLE_PRICE_KEYS, ...CONDITION_KEYS].map((k) => [camel(k), k]))

/** The SDK's name of a path in wire pricing: `overrides[1].utc_end` is `overrides[1].utcEnd`. */
function sdkPath(path: string): string {
  return path.replace(/[a-z0-9_]+/g, (segment) => (segment.includes('_') ? camel(segment) : segment))
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Renames the fields of one object; an unknown name is an issue, a field set to undefined is absent. */
function rename(source: Record<string, unknown>, names: ReadonlyMap<string, string>, path: string, issues: PricingIssue[]): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(source)) {
    if (value === undefined) continue
    const wire = names.get(key)
    if (wire === undefined) {
      const hint = [...names.values()].includes(key) ? ` (that is the wire's name: wire pricing needs no conversion)` : ''
      issues.push({ path: `${path}${key}`, message: `is not a field of the SDK's ${path === '' ? 'pricing' : 'pricing override'}${hint}` })
    } else {
      out[wire] = value
    }
  }
  return out
}

/**
 * The wire pricing (snake_case, as `GET /models/{author}/{slug}/endpoints` sends it) of a pricing
 * object the official SDK returned (`endpoint.pricing`: `inputCacheRead`, `overrides[].utcStart`),
 * for `resolvePricing`, `compilePricing`, `explainPricing` and `estimateCost`. It resolves exactly
 * as the wire pricing the SDK parsed. Fields the SDK left undefined are absent. A field the SDK
 * does not have, or a value the engine refuses, throws a `PricingError` whose issue paths use the
 * SDK's names.
 *
 * @example
 * import { estimateCost, pricingFromSdk } from 'model-access-sim/pricing'
 * // As sdk.endpoints.list(...) returns an endpoint's pricing:
 * const fromSdk = { prompt: '0.000003', completion: '0.000015', inputCacheRead: '0.0000003', overrides: [{ minPromptTokens: 200000, prompt: '0.000006' }] }
 * const pricing = pricingFromSdk(fromSdk)
 * console.log(pricing.input_cache_read, pricing.overrides?.[0]?.min_prompt_tokens)
 * console.log(estimateCost(pricing, { promptTokens: 250000 }, { at: 0 }))
 * //=> 0.0000003 200000
 * //=> 1.5
 */
export function pricingFromSdk(pricing: unknown): Pricing {
  const operation = 'pricingFromSdk'
  if (!isRecord(pricing)) throw new PricingError(operation, 'pricing', [{ path: '', message: 'pricing must be an object, as the SDK returns it (endpoint.pricing)' }])
  const issues: PricingIssue[] = []
  const wire = rename(pricing, PRICING_NAMES, '', issues)
  if (Array.isArray(wire['overrides'])) {
    const overrides: unknown[] = wire['overrides']
    wire['overrides'] = Array.from(overrides, (override, i) =>
      isRecord(override) ? rename(override, OVERRIDE_NAMES, `overrides[${i}].`, issues) : override,
    )
  }
  for (const issue of validatePricing(wire)) issues.push({ path: sdkPath(issue.path), message: issue.message })
  if (issues.length > 0) throw new PricingError(operation, 'pricing', issues)
  return wire as unknown as Pricing
}
