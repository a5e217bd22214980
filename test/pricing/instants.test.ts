// The request instant `at` as the pricing functions accept and reject it, and the exact PricingError
// messages a user reads: `<operation>: invalid <argument>: <path> <message>; <path> <message>`.
import { describe, expect, it } from 'vitest'
import { compilePricing, estimateCost, explainPricing, PricingError, resolvePricing } from '../../src/pricing/index.js'
import type { Pricing, PricingRequest } from '../../src/pricing/index.js'
import { pricingErrorOf } from './support.js'


/** The largest |epoch milliseconds| a Date can hold: 100,000,000 days. */
const MAX_MS = 8.64e15
const valid: Pricing = { prompt: '0.1', completion: '0.2' }

/** The message resolvePricing throws for `at`. */
function atMessage(at: unknown): string {
  return pricingErrorOf(() => resolvePricing(valid, { promptTokens: 1, at } as PricingRequest)).message
}

describe('the range of `at`', () => {
  it('accepts the first and last instants a Date can hold, ±8.64e15 ms', () => {
    expect(new Date(MAX_MS).toISOString()).toBe('+275760-09-13T00:00:00.000Z')
    expect(resolvePricing(valid, { promptTokens: 1, at: MAX_MS })).toEqual(valid)
    expect(resolvePricing(valid, { promptTokens: 1, at: -MAX_MS })).toEqual(valid)
    expect(resolvePricing(valid, { promptTokens: 1, at: new Date(MAX_MS) })).toEqual(valid)
    // 8.64e15 ms is exactly 10^8 days after a Thursday; 10^8 = 7 x 14285714 + 2, so a Saturday.
    expect(explainPricing(valid, { promptTokens: 1, at: MAX_MS })).toMatchObject({ at: '+275760-09-13T00:00:00.000Z', utcDay: 'saturday', utcTime: '00:00' })
    expect(explainPricing(valid, { promptTokens: 1, at: -MAX_MS })).toMatchObject({ at: '-271821-04-20T00:00:00.000Z', utcDay: 'tuesday', utcTime: '00:00' })
    expect(estimateCost(valid, { promptTokens: 10 }, { at: MAX_MS })).toBe('1')
  })

  it('rejects one millisecond beyond either end, naming the number', () => {
    expect(atMessage(MAX_MS + 1)).toBe('resolvePricing: invalid request: at must be a valid Date or epoch milliseconds within the Date range, got 8640000000000001')
    expect(atMessage(-MAX_MS - 1)).toBe('resolvePricing: invalid request: at must be a valid Date or epoch milliseconds within the Date range, got -8640000000000001')
  })
})

describe('the message for an invalid `at`', () => {
  const prefix = 'resolvePricing: invalid request: at must be a valid Date or epoch milliseconds within the Date range, got '

  it('names the number it got, NaN and Infinity included', () => {
    expect(atMessage(Number.NaN)).toBe(`${prefix}NaN`)
    expect(atMessage(Number.POSITIVE_INFINITY)).toBe(`${prefix}Infinity`)
    expect(atMessage(Number.NEGATIVE_INFINITY)).toBe(`${prefix}-Infinity`)
  })

  it('says "an invalid Date" for an invalid Date', () => {
    expect(atMessage(new Date('not a date'))).toBe(`${prefix}an invalid Date`)
  })

  it('says "nothing" when `at` is missing', () => {
    expect(atMessage(undefined)).toBe(`${prefix}nothing`)
    expect(pricingErrorOf(() => resolvePricing(valid, { promptTokens: 1 } as unknown as PricingRequest)).message).toBe(`${prefix}nothing`)
  })

  it('names the type of anything else, even a string, null or boolean that would convert to a number', () => {
    // '0', null and true are not epoch milliseconds, though Number() turns each of them into one.
    expect(atMessage('2026-03-06T22:00:00Z')).toBe(`${prefix}string`)
    expect(atMessage('0')).toBe(`${prefix}string`)
    expect(atMessage(null)).toBe(`${prefix}object`)
    expect(atMessage(true)).toBe(`${prefix}boolean`)
    expect(atMessage({ valueOf: () => 0 })).toBe(`${prefix}object`)
    expect(atMessage(0n)).toBe(`${prefix}bigint`)
  })

  it('names the operation that was called and puts the issue at path "at"', () => {
    const explained = pricingErrorOf(() => explainPricing(valid, { promptTokens: 1, at: null } as unknown as PricingRequest))
    expect(explained.message).toBe('explainPricing: invalid request: at must be a valid Date or epoch milliseconds within the Date range, got object')
    expect(explained.issues).toEqual([{ path: 'at', message: 'must be a valid Date or epoch milliseconds within the Date range, got object' }])
    expect(pricingErrorOf(() => estimateCost(valid, {}, { at: '0' } as unknown as PricingRequest)).message).toBe(
      'estimateCost: invalid request: at must be a valid Date or epoch milliseconds within the Date range, got string',
    )
    expect(pricingErrorOf(() => compilePricing(valid).resolve({ promptTokens: 1, at: Number.NaN })).message).toBe(
      'compiled.resolve: invalid request: at must be a valid Date or epoch milliseconds within the Date range, got NaN',
    )
  })
})

describe('PricingError messages', () => {
  it('write each issue as its path and message', () => {
    const error = pricingErrorOf(() => resolvePricing({ prompt: '-1', completion: '0.000002' }, { promptTokens: 10, at: 0 }))
    expect(error.message).toBe('resolvePricing: invalid pricing: prompt must not be negative, got "-1"')
    expect(error.issues).toEqual([{ path: 'prompt', message: 'must not be negative, got "-1"' }])
  })

  it('join several issues with "; " in the order they were found', () => {
    const invalid = { prompt: '1e-6', completion: '0.1', overrides: [{ utc_start: 1000, utc_end: 1000 }] } as unknown as Pricing
    expect(pricingErrorOf(() => resolvePricing(invalid, { promptTokens: 1, at: 0 })).message).toBe(
      'resolvePricing: invalid pricing: prompt must be plain decimal notation without an exponent, got "1e-6"; overrides[0].utc_end must differ from utc_start (1000); an empty window never applies',
    )
  })

  it('write an issue about the whole argument, whose path is empty, as its message alone', () => {
    const notAnObject = pricingErrorOf(() => resolvePricing('0.1' as unknown as Pricing, { promptTokens: 1, at: 0 }))
    expect(notAnObject.issues).toEqual([{ path: '', message: 'pricing must be an object' }])
    expect(notAnObject.message).toBe('resolvePricing: invalid pricing: pricing must be an object')
    const noRequest = pricingErrorOf(() => explainPricing(valid, null as unknown as PricingRequest))
    expect(noRequest.message).toBe('explainPricing: invalid request: must be an object such as { promptTokens, at }, got null')
  })

  it('reject null and a string as the pricing on every call, not only the first', () => {
    // Non-objects are never memoized; each call validates them again and throws the same error.
    for (const bad of [null, '0.1'] as unknown[]) {
      for (let i = 0; i < 2; i++) {
        expect(pricingErrorOf(() => resolvePricing(bad as Pricing, { promptTokens: 1, at: 0 })).issues).toEqual([{ path: '', message: 'pricing must be an object' }])
      }
    }
  })
})
