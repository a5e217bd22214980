import fc from 'fast-check'
import { Pricing$inboundSchema } from '@openrouter/sdk/models/publicendpoint.js'
import { PricingOverride$inboundSchema } from '@openrouter/sdk/models/pricingoverride.js'
import { describe, expect, it } from 'vitest'
import { OVERRIDABLE_PRICE_KEYS, SimulatorError } from '../../src/index.js'
import { pricing, pricingOverride } from '../../src/arbitraries/index.js'
import type { Pricing, PricingOverride } from '../../src/arbitraries/index.js'
import { validatePricing } from '../../src/pricing/index.js'
import { expectSdkParses, sampleOf, settings, shrunk } from './support.js'

const overridesOf = (values: Pricing[]): PricingOverride[] => values.flatMap((p) => p.overrides ?? [])
const hasWindow = (o: PricingOverride): boolean => o.utc_start !== undefined || o.utc_end !== undefined
const CONDITIONS = ['min_prompt_tokens', 'utc_start', 'utc_end', 'utc_days']

describe('pricing', () => {
  it('every pricing is one the SDK parses and validatePricing accepts', () => {
    fc.assert(
      fc.property(pricing(), (p) => {
        expectSdkParses(Pricing$inboundSchema, p)
        expect(validatePricing(p)).toEqual([])
      }),
      settings,
    )
  })

  it('every kind of pricing is valid, windows and tiers included', () => {
    fc.assert(
      fc.property(fc.constantFrom('windows', 'tiers', 'any' as const).chain((kind) => pricing({ kind })), (p) => {
        expectSdkParses(Pricing$inboundSchema, p)
        expect(validatePricing(p)).toEqual([])
      }),
      settings,
    )
  })

  it('kind windows gives only window overrides and kind tiers only thresholds', () => {
    fc.assert(
      fc.property(pricing({ kind: 'windows' }), pricing({ kind: 'tiers' }), (windows, tiers) => {
        for (const o of windows.overrides ?? []) expect(hasWindow(o) && o.min_prompt_tokens === undefined).toBe(true)
        for (const o of tiers.overrides ?? []) {
          expect(Object.keys(o).filter((key) => CONDITIONS.includes(key))).toEqual(['min_prompt_tokens'])
        }
      }),
      settings,
    )
  })

  it('honours minOverrides, maxOverrides and a fixed discount', () => {
    fc.assert(
      fc.property(pricing({ minOverrides: 2, maxOverrides: 3, discount: 0.25 }), pricing({ maxOverrides: 0 }), (some, none) => {
        expect(some.overrides?.length).toBeGreaterThanOrEqual(2)
        expect(some.overrides?.length).toBeLessThanOrEqual(3)
        expect(some.discount).toBe(0.25)
        expect(none.overrides ?? []).toEqual([])
      }),
      settings,
    )
  })

  it('refuses constraints that cannot be met, saying what to pass instead', () => {
    expect(() => pricing({ minOverrides: 3, maxOverrides: 2 })).toThrow(/minOverrides \(3\) is greater than maxOverrides \(2\)\. Please pass minOverrides <= maxOverrides/)
    expect(() => pricing({ discount: 1.5 })).toThrow(SimulatorError)
    expect(() => pricing({ maxOverrides: -1 })).toThrow(SimulatorError)
  })

  it('is biased toward prices "0", trailing zeros, discounts 0 and 1, and absent or empty overrides', () => {
    const values = sampleOf(pricing())
    expect(values.some((p) => p.prompt === '0')).toBe(true)
    expect(values.some((p) => /\.\d*0$/.test(p.completion))).toBe(true)
    expect(values.some((p) => p.discount === 0)).toBe(true)
    expect(values.some((p) => p.discount === 1)).toBe(true)
    expect(values.some((p) => p.discount === undefined)).toBe(true)
    expect(values.some((p) => p.overrides === undefined)).toBe(true)
    expect(values.some((p) => p.overrides?.length === 0)).toBe(true)
  })

  it('is biased toward windows that touch or wrap past midnight and thresholds 0, 1000, 128000 and 200000', () => {
    const overrides = overridesOf(sampleOf(pricing()))
    expect(overrides.some((o) => o.utc_start === 0)).toBe(true)
    expect(overrides.some((o) => o.utc_start === 2359)).toBe(true)
    expect(overrides.some((o) => o.utc_end === 2400)).toBe(true)
    expect(overrides.some((o) => o.utc_end === 0 && o.utc_start !== undefined)).toBe(true)
    expect(overrides.some((o) => o.utc_start !== undefined && o.utc_end !== undefined && o.utc_start > o.utc_end)).toBe(true)
    expect(overrides.some((o) => o.utc_start === 1630 || o.utc_end === 1630)).toBe(true)
    for (const t of [0, 1000, 128000, 200000]) expect(overrides.some((o) => o.min_prompt_tokens === t)).toBe(true)
    expect(overrides.some((o) => o.utc_days?.length === 1)).toBe(true)
    expect(overrides.some((o) => o.utc_days?.length === 7)).toBe(true)
  })

  it('kind windows often gives peak and off-peak windows that tile the day', () => {
    const tiling = sampleOf(pricing({ kind: 'windows' })).filter((p) => {
      const [a, b] = p.overrides ?? []
      return p.overrides?.length === 2 && a?.utc_start === b?.utc_end && a?.utc_end === b?.utc_start
    })
    expect(tiling.length).toBeGreaterThan(50)
  })

  it('shrinks a pricing with too many overrides to exactly three empty ones on a free base', () => {
    expect(shrunk(pricing(), (p) => (p.overrides ?? []).length < 3)).toEqual({ prompt: '0', completion: '0', overrides: [{}, {}, {}] })
  })

  it('shrinks a tiered pricing to bare thresholds of 0', () => {
    expect(shrunk(pricing({ kind: 'tiers' }), (p) => (p.overrides ?? []).length < 2)).toEqual({
      prompt: '0',
      completion: '0',
      overrides: [{ min_prompt_tokens: 0 }, { min_prompt_tokens: 0 }],
    })
  })
})

describe('pricingOverride', () => {
  it('every override is one the SDK parses and validatePricing accepts', () => {
    fc.assert(
      fc.property(fc.constantFrom('window', 'tier', 'any' as const).chain((kind) => pricingOverride({ kind })), (o) => {
        expectSdkParses(PricingOverride$inboundSchema, o)
        expect(validatePricing({ prompt: '1', completion: '1', overrides: [o] })).toEqual([])
      }),
      settings,
    )
  })

  it('kind window always has a window and never a threshold', () => {
    fc.assert(
      fc.property(pricingOverride({ kind: 'window' }), (o) => {
        expect(hasWindow(o)).toBe(true)
        expect(o.min_prompt_tokens).toBeUndefined()
      }),
      settings,
    )
  })

  it('is biased toward one-minute windows and overrides without any condition', () => {
    const overrides = sampleOf(pricingOverride())
    const minutes = (hhmm: number): number => Math.floor(hhmm / 100) * 60 + (hhmm % 100)
    expect(overrides.some((o) => o.utc_start !== undefined && o.utc_end !== undefined && minutes(o.utc_end) - minutes(o.utc_start) === 1)).toBe(true)
    expect(overrides.some((o) => Object.keys(o).every((key) => !CONDITIONS.includes(key)))).toBe(true)
    expect(overrides.some((o) => OVERRIDABLE_PRICE_KEYS.every((key) => o[key] === undefined))).toBe(true)
  })

  it('shrinks a window override to its price and the smallest window of its shape', () => {
    const minimal = shrunk(pricingOverride({ kind: 'window' }), (o) => o.prompt === undefined)
    expect([
      { prompt: '0', utc_start: 0, utc_end: 1 },
      { prompt: '0', utc_start: 0 },
      { prompt: '0', utc_end: 2400 },
    ]).toContainEqual(minimal)
  })
})
