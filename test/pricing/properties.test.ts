import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { referenceApplicable, referenceResolve } from '../../benchmarks/reference-pricing.js'
import { WEEKDAYS } from '../../src/index.js'
import { compilePricing, estimateCost, explainPricing, resolvePricing, validatePricing } from '../../src/pricing/index.js'
import type { CostUsage, Pricing, PricingOverride, PricingRequest } from '../../src/pricing/index.js'
import { pricing, pricingOverride, requestContext } from '../../src/arbitraries/index.js'
import { WEEK_TABLE_AFTER } from '../../src/core/pricing/compile.js'
import { runs } from '../support/runs.js'

// fast-check prints the seed and path of a failing run; pass them back as { seed, path } to replay it.
const settings = { verbose: true }

// The published arbitraries, and the single values some properties vary, read off them so that
// they keep the same boundary bias: window edges, thresholds, prices and instants on minute edges.
const arb = {
  pricing,
  request: requestContext(),
  instant: requestContext({ atType: 'number' }).map((request) => request.at),
  price: pricing().map((p) => p.prompt),
  utcStart: pricingOverride({ kind: 'window' }).map((override) => override.utc_start ?? 0),
  threshold: pricingOverride({ kind: 'tier' }).map((override) => override.min_prompt_tokens ?? 0),
  /** A valid window, sometimes with only one end given, without its weekdays. */
  window: pricingOverride({ kind: 'window' }).map(({ utc_start, utc_end }) => ({
    ...(utc_start === undefined ? {} : { utc_start }),
    ...(utc_end === undefined ? {} : { utc_end }),
  })),
}

const base = { prompt: '0.000001', completion: '0.000002' }

/** Whether a lone override applies to a request, asked of the engine through explainPricing. */
function applies(override: PricingOverride, request: PricingRequest): boolean {
  return explainPricing({ ...base, overrides: [override] }, request).overrides[0]?.applies ?? false
}

/** The indices of the overrides that apply, according to the engine. */
function applicable(pricing: Pricing, request: PricingRequest): number[] {
  return explainPricing(structuredClone(pricing), request).overrides.filter((o) => o.applies).map((o) => o.index)
}

/** Decimal strings as bigint counts of 10^-scale units at one common scale, for exact comparison. */
function exact(...decimals: string[]): bigint[] {
  const scale = Math.max(...decimals.map((d) => d.split('.')[1]?.length ?? 0))
  return decimals.map((d) => {
    const [whole = '0', fraction = ''] = d.split('.')
    return BigInt(whole + fraction.padEnd(scale, '0'))
  })
}
const usage: fc.Arbitrary<CostUsage> = fc
  .record({
    promptTokens: fc.nat({ max: 400_000 }),
    completionTokens: fc.nat({ max: 50_000 }),
    images: fc.nat({ max: 5 }),
    webSearches: fc.nat({ max: 3 }),
    requests: fc.nat({ max: 3 }),
  })
  .chain((u) =>
    fc.record({
      cachedTokens: fc.nat({ max: Math.floor(u.promptTokens / 2) }),
      cacheWriteTokens: fc.nat({ max: Math.floor(u.promptTokens / 4) }),
      reasoningTokens: fc.nat({ max: u.completionTokens }),
    }).map((parts) => ({ ...u, ...parts })),
  )

const withoutThresholds = (pricing: Pricing): Pricing => ({
  ...pricing,
  overrides: (pricing.overrides ?? []).map(({ min_prompt_tokens: _, ...rest }) => rest),
})

describe('pricing engine properties', () => {
  it('every generated pricing is valid (the arbitraries test only what the engine accepts)', () => {
    fc.assert(
      fc.property(arb.pricing(), (pricing) => {
        expect(validatePricing(pricing)).toEqual([])
      }),
      settings,
    )
  })

  it('agrees with a direct reading of DESIGN.md section 4 (the reference evaluator)', () => {
    fc.assert(
      fc.property(arb.pricing(), arb.request, (pricing, request) => {
        expect(resolvePricing(structuredClone(pricing), request)).toEqual(referenceResolve(pricing, request))
        expect(applicable(pricing, request)).toEqual(referenceApplicable(pricing, request))
      }),
      settings,
    )
  })

  it('agrees with the reference once an engine looks windows up in its week table', () => {
    // The table is built after WEEK_TABLE_AFTER resolutions of one compiled pricing: warm it first.
    fc.assert(
      fc.property(arb.pricing(), fc.array(arb.request, { minLength: 1, maxLength: 40 }), (pricing, requests) => {
        const compiled = compilePricing(pricing)
        for (let i = 0; i < WEEK_TABLE_AFTER; i++) compiled.resolve(requests[i % requests.length] as PricingRequest)
        for (const request of requests) {
          expect(compiled.resolve(request)).toEqual(referenceResolve(pricing, request))
          expect(compiled.explain(request).text).toBe(explainPricing(pricing, request).text)
        }
      }),
      { ...settings, numRuns: runs(60) },
    )
  })

  it('no overrides gives the base', () => {
    fc.assert(
      fc.property(arb.pricing({ maxOverrides: 0 }), arb.request, (pricing, request) => {
        const { overrides: _, ...baseOnly } = pricing
        expect(resolvePricing(structuredClone(pricing), request)).toEqual(baseOnly)
      }),
      settings,
    )
  })

  it('an override without conditions always applies', () => {
    fc.assert(
      fc.property(arb.pricing(), arb.price, arb.price, arb.request, (pricing, prompt, audio, request) => {
        const last = { prompt, audio }
        const resolved = resolvePricing({ ...pricing, overrides: [...(pricing.overrides ?? []), last] }, request)
        expect([resolved.prompt, resolved.audio]).toEqual([prompt, audio])
        expect(applies({ prompt }, request)).toBe(true)
      }),
      settings,
    )
  })

  it('later overrides win per key, and keys an override lacks keep the earlier winner or the base', () => {
    fc.assert(
      fc.property(arb.pricing(), arb.request, (pricing, request) => {
        const resolved = resolvePricing(structuredClone(pricing), request) as Record<string, unknown>
        const winners = applicable(pricing, request)
        for (const key of ['prompt', 'completion', 'audio', 'input_audio_cache', 'input_cache_read', 'input_cache_write', 'input_cache_write_1h'] as const) {
          const setters = winners.filter((i) => pricing.overrides?.[i]?.[key] !== undefined)
          const last = setters.at(-1)
          expect(resolved[key]).toBe(last === undefined ? pricing[key] : pricing.overrides?.[last]?.[key])
        }
      }),
      settings,
    )
  })

  it('a wrapped window [s, e) holds exactly when [e, s) does not', () => {
    fc.assert(
      fc.property(arb.utcStart, arb.utcStart, arb.request, (a, b, request) => {
        fc.pre(a !== b)
        const [s, e] = a > b ? [a, b] : [b, a]
        expect(applies({ utc_start: s, utc_end: e }, request)).toBe(!applies({ utc_start: e, utc_end: s }, request))
      }),
      settings,
    )
  })

  it('the seven single-day lists partition the week, with or without a window', () => {
    fc.assert(
      fc.property(fc.option(arb.window, { nil: undefined }), arb.request, (window, request) => {
        const times = window ?? {}
        const hits = WEEKDAYS.filter((day) => applies({ ...times, utc_days: [day] }, request))
        expect(hits.length).toBe(applies(times, request) ? 1 : 0)
      }),
      settings,
    )
  })

  it('the threshold is monotone: one more prompt token never removes an override', () => {
    fc.assert(
      fc.property(arb.pricing(), arb.request, (pricing, request) => {
        const before = applicable(pricing, request)
        const after = applicable(pricing, { ...request, promptTokens: request.promptTokens + 1 })
        expect(after).toEqual(expect.arrayContaining(before))
      }),
      settings,
    )
  })

  it('min_prompt_tokens t holds at t + 1 and not at t', () => {
    fc.assert(
      fc.property(arb.threshold, arb.instant, (t, at) => {
        expect(applies({ min_prompt_tokens: t }, { promptTokens: t, at })).toBe(false)
        expect(applies({ min_prompt_tokens: t }, { promptTokens: t + 1, at })).toBe(true)
      }),
      settings,
    )
  })

  it('cost is zero at zero and additive in usage (hence linear in tokens)', () => {
    fc.assert(
      fc.property(arb.pricing().map(withoutThresholds), usage, usage, arb.instant, fc.integer({ min: 2, max: 1000 }), (pricing, u, v, at, k) => {
        const cost = (x: CostUsage): string => estimateCost(pricing, x, { at })
        expect(cost({ requests: 0 })).toBe('0')
        const sum: CostUsage = Object.fromEntries(Object.keys(u).map((key) => [key, (u[key as keyof CostUsage] ?? 0) + (v[key as keyof CostUsage] ?? 0)]))
        const [ofSum, ofU, ofV] = exact(cost(sum), cost(u), cost(v))
        expect(ofSum).toBe((ofU as bigint) + (ofV as bigint))
        const scaled: CostUsage = Object.fromEntries(Object.entries(u).map(([key, n]) => [key, n * k]))
        const [ofScaled, once] = exact(cost(scaled), cost(u))
        expect(ofScaled).toBe((once as bigint) * BigInt(k))
      }),
      settings,
    )
  })

  it('cost is within float rounding of prompt x prompt + completion x completion, times (1 - discount)', () => {
    fc.assert(
      fc.property(arb.pricing({ maxOverrides: 0 }), fc.nat({ max: 1_000_000 }), fc.nat({ max: 100_000 }), arb.instant, (pricing, p, c, at) => {
        const got = Number(estimateCost(pricing, { promptTokens: p, completionTokens: c, requests: 0 }, { at }))
        const want = (p * Number(pricing.prompt) + c * Number(pricing.completion)) * (1 - (pricing.discount ?? 0))
        const undiscounted = p * Number(pricing.prompt) + c * Number(pricing.completion)
        expect(Math.abs(got - want)).toBeLessThanOrEqual(1e-12 + undiscounted * 1e-12)
      }),
      settings,
    )
  })

  it('discount 1 makes every cost "0"', () => {
    fc.assert(
      fc.property(arb.pricing({ discount: 1 }), usage, arb.instant, (pricing, u, at) => {
        expect(estimateCost(pricing, u, { at })).toBe('0')
      }),
      settings,
    )
  })

  it('cost is plain decimal notation: no exponent, no trailing zeros, no leading dot', () => {
    fc.assert(
      fc.property(arb.pricing(), usage, arb.instant, (pricing, u, at) => {
        expect(estimateCost(pricing, u, { at })).toMatch(/^(0|[1-9]\d*)(\.\d*[1-9])?$/)
      }),
      settings,
    )
  })

  it('compiled, uncompiled and explained results agree', () => {
    fc.assert(
      fc.property(arb.pricing(), arb.request, usage, (pricing, request, u) => {
        const compiled = compilePricing(pricing)
        const resolved = compiled.resolve(request)
        expect(resolvePricing(structuredClone(pricing), request)).toEqual(resolved)
        const explained = explainPricing(structuredClone(pricing), request)
        expect(explained.resolved).toEqual(resolved)
        expect(Object.fromEntries(Object.entries(explained.prices).map(([key, p]) => [key, p.value]))).toEqual(
          Object.fromEntries(Object.entries(resolved).filter(([key]) => key !== 'discount')),
        )
        expect(compiled.explain(request)).toEqual(explained)
        const at = request.at
        expect(compiled.cost(u, { at })).toBe(estimateCost(structuredClone(pricing), u, { at }))
      }),
      settings,
    )
  })
})
