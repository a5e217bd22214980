// Exact texts and boundaries of estimateCost's usage checks, of its cost formatting, and of
// pricingFromSdk's messages. examples.test.ts checks which paths an error names; this file pins
// the full messages users read, and the inputs that reach each check. Every expected string is
// written out by hand from the rules on `CostUsage` (src/core/pricing/cost.ts).
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { compilePricing, estimateCost, PricingError, pricingFromSdk } from '../../src/pricing/index.js'
import type { CostUsage, Pricing } from '../../src/pricing/index.js'
import { runs } from '../support/runs.js'

/** A Monday at 12:00 UTC; no example here depends on the time. */
const NOON = Date.UTC(2026, 2, 2, 12, 0)
const at = { at: NOON }
const valid: Pricing = { prompt: '0.1', completion: '0.2' }

/** The PricingError `fn` throws; fails the test when it throws nothing or something else. */
function pricingErrorOf(fn: () => unknown): PricingError {
  let result: unknown
  try {
    result = fn()
  } catch (error) {
    if (error instanceof PricingError) return error
    throw error
  }
  throw new Error(`expected a PricingError, but it returned ${JSON.stringify(result)}`)
}

/** The PricingError estimateCost throws for a usage (typed loosely: these usages are wrong on purpose). */
function usageError(usage: unknown, pricing: Pricing = valid): PricingError {
  return pricingErrorOf(() => estimateCost(pricing, usage as CostUsage, at))
}

/** Every usage field, in the order the messages list them. */
const USAGE_FIELDS = [
  'promptTokens',
  'completionTokens',
  'cachedTokens',
  'cacheWriteTokens',
  'cacheWrite1hTokens',
  'audioTokens',
  'cachedAudioTokens',
  'reasoningTokens',
  'audioOutputTokens',
  'images',
  'imageTokens',
  'outputImages',
  'webSearches',
  'requests',
] as const

const PROMPT_PARTS = 'cachedTokens + cacheWriteTokens + cacheWrite1hTokens + audioTokens + cachedAudioTokens'
const COMPLETION_PARTS = 'reasoningTokens + audioOutputTokens'

describe('estimateCost on a usage that is not an object', () => {
  it.each([
    ['null', null, 'null'],
    ['undefined', undefined, 'undefined'],
    ['a number', 5, 'number'],
    ['a string', '{"promptTokens":5}', 'string'],
    ['a boolean', true, 'boolean'],
  ])('refuses %s with a PricingError that names its type', (_, usage, got) => {
    const error = usageError(usage)
    expect(error.argument).toBe('usage')
    expect(error.issues).toEqual([{ path: '', message: `must be an object such as { promptTokens, completionTokens }, got ${got}` }])
    expect(error.message).toBe(`estimateCost: invalid usage: must be an object such as { promptTokens, completionTokens }, got ${got}`)
  })

  it('names the compiled function in the message when called through compilePricing', () => {
    const cost = compilePricing({ prompt: '0.1', completion: '0.2' }).cost
    const error = pricingErrorOf(() => cost(null as unknown as CostUsage, at))
    expect(error.message).toBe('compiled.cost: invalid usage: must be an object such as { promptTokens, completionTokens }, got null')
  })
})

describe('estimateCost on a usage with an unknown field', () => {
  it('lists every usage field in the message, in order', () => {
    const error = usageError({ prompt_tokens: 5 })
    const message =
      'is not a usage field; use promptTokens, completionTokens, cachedTokens, cacheWriteTokens, cacheWrite1hTokens, audioTokens, ' +
      'cachedAudioTokens, reasoningTokens, audioOutputTokens, images, imageTokens, outputImages, webSearches, requests'
    expect(error.issues).toEqual([{ path: 'prompt_tokens', message }])
    expect(error.message).toBe(`estimateCost: invalid usage: prompt_tokens ${message}`)
  })

  it('reports unknown fields first, then bad counts, and only those: no issue for the fields left out', () => {
    const error = usageError({ completionTokens: -1, prompt_tokens: 5 })
    expect(error.issues.map((issue) => issue.path)).toEqual(['prompt_tokens', 'completionTokens'])
    expect(error.issues[1]).toEqual({ path: 'completionTokens', message: 'must be a non-negative integer, got -1' })
  })
})

describe('estimateCost on a count that is not a non-negative safe integer', () => {
  // Each bad value and how the message shows it. Several of them would slip through arithmetic
  // (10 - "5" is 5, 10 - null is 10, 1.5 tokens cost something), so each field must be checked.
  const bad: readonly (readonly [unknown, string])[] = [
    [-1, '-1'],
    [1.5, '1.5'],
    [Number.NaN, 'NaN'],
    [Number.POSITIVE_INFINITY, 'Infinity'],
    [2 ** 53, '9007199254740992'],
    ['5', '"5"'],
    [null, 'null'],
    [true, 'true'],
    [5n, '5n'],
  ]

  it.each(USAGE_FIELDS)('refuses a bad %s with exactly one issue naming it and its value', (field) => {
    for (const [value, shown] of bad) {
      // Totals large enough that the bad value is the only thing wrong with the usage.
      const usage = { promptTokens: 10, completionTokens: 10, [field]: value }
      const error = usageError(usage)
      expect(error.argument).toBe('usage')
      expect(error.issues, `${field}: ${shown}`).toEqual([{ path: field, message: `must be a non-negative integer, got ${shown}` }])
      expect(error.message).toBe(`estimateCost: invalid usage: ${field} must be a non-negative integer, got ${shown}`)
    }
  })

  it('refuses any negative or fractional count in any field, whatever the other counts', () => {
    const badNumber = fc.oneof(
      fc.integer({ min: -1_000_000, max: -1 }),
      fc.integer({ min: 0, max: 1_000_000 }).map((n) => n + 0.5),
    )
    fc.assert(
      fc.property(fc.constantFrom(...USAGE_FIELDS), badNumber, fc.nat({ max: 1_000_000 }), (field, value, other) => {
        const usage = { promptTokens: other + 2_000_000, completionTokens: other + 2_000_000, [field]: value }
        const error = usageError(usage, { prompt: '0.000001', completion: '0.000002', request: '0.01', image: '0.001' })
        expect(error.issues).toEqual([{ path: field, message: `must be a non-negative integer, got ${String(value)}` }])
      }),
      { verbose: true, numRuns: runs(150) },
    )
  })

  it('checks counts before the totals, so a bad total is reported once and a BigInt part is not added up', () => {
    // -5 is not a count; that cachedTokens 1 exceeds it is not a second issue.
    expect(usageError({ promptTokens: -5, cachedTokens: 1 }).issues).toEqual([{ path: 'promptTokens', message: 'must be a non-negative integer, got -5' }])
    expect(usageError({ completionTokens: 1.5, reasoningTokens: 2 }).issues).toEqual([
      { path: 'completionTokens', message: 'must be a non-negative integer, got 1.5' },
    ])
    // Summing 0 + 5n would throw a TypeError; a PricingError must come out instead.
    expect(usageError({ cachedTokens: 5n }).issues).toEqual([{ path: 'cachedTokens', message: 'must be a non-negative integer, got 5n' }])
    expect(usageError({ completionTokens: 10, audioOutputTokens: 5n }).issues).toEqual([
      { path: 'audioOutputTokens', message: 'must be a non-negative integer, got 5n' },
    ])
  })
})

describe('estimateCost on parts that exceed the total that includes them', () => {
  it('names the prompt parts, their sum and the total', () => {
    const error = usageError({ promptTokens: 10, cachedTokens: 11 })
    const message = `must be at least ${PROMPT_PARTS} (11), which it includes; got 10`
    expect(error.issues).toEqual([{ path: 'promptTokens', message }])
    expect(error.message).toBe(`estimateCost: invalid usage: promptTokens ${message}`)
  })

  it('reads a missing total as 0', () => {
    expect(usageError({ cachedTokens: 3 }).issues).toEqual([{ path: 'promptTokens', message: `must be at least ${PROMPT_PARTS} (3), which it includes; got 0` }])
    expect(usageError({ reasoningTokens: 1 }).issues).toEqual([
      { path: 'completionTokens', message: `must be at least ${COMPLETION_PARTS} (1), which it includes; got 0` },
    ])
  })

  it('refuses reasoning tokens beyond the completion tokens, instead of billing a negative text completion', () => {
    const error = usageError({ promptTokens: 5, completionTokens: 10, reasoningTokens: 11 })
    expect(error.issues).toEqual([{ path: 'completionTokens', message: `must be at least ${COMPLETION_PARTS} (11), which it includes; got 10` }])
    expect(usageError({ completionTokens: 10, reasoningTokens: 6, audioOutputTokens: 5 }).issues).toEqual([
      { path: 'completionTokens', message: `must be at least ${COMPLETION_PARTS} (11), which it includes; got 10` },
    ])
  })

  it('reports both totals, each with its own count, when both are short', () => {
    const error = usageError({ promptTokens: 10, cachedTokens: 6, audioTokens: 5, completionTokens: 3, reasoningTokens: 2, audioOutputTokens: 2 })
    expect(error.issues).toEqual([
      { path: 'promptTokens', message: `must be at least ${PROMPT_PARTS} (11), which it includes; got 10` },
      { path: 'completionTokens', message: `must be at least ${COMPLETION_PARTS} (4), which it includes; got 3` },
    ])
    expect(error.message).toBe(
      `estimateCost: invalid usage: promptTokens must be at least ${PROMPT_PARTS} (11), which it includes; got 10; ` +
        `completionTokens must be at least ${COMPLETION_PARTS} (4), which it includes; got 3`,
    )
  })

  it('accepts parts that add up to exactly the total', () => {
    // 0 text prompt tokens and 0 text completion tokens: 10 x 0.01 + 4 x 0.02 = 0.1 + 0.08 = 0.18.
    const pricing: Pricing = { prompt: '1', completion: '1', input_cache_read: '0.01', internal_reasoning: '0.02' }
    expect(estimateCost(pricing, { promptTokens: 10, cachedTokens: 10, completionTokens: 4, reasoningTokens: 4 }, at)).toBe('0.18')
  })
})

describe('estimateCost’s formatting of whole costs', () => {
  it('keeps the trailing zeros of a whole number of dollars', () => {
    // 1 x 10 = 10.
    expect(estimateCost({ prompt: '10', completion: '0' }, { promptTokens: 1 }, at)).toBe('10')
    // 20 x 0.5 = 10.0 -> "10".
    expect(estimateCost({ prompt: '0.5', completion: '0' }, { promptTokens: 20 }, at)).toBe('10')
    // 400 x 0.25 = 100.00 -> "100".
    expect(estimateCost({ prompt: '0.25', completion: '0' }, { promptTokens: 400 }, at)).toBe('100')
    // 5 x 4 x (1 - 0.5) = 10.
    expect(estimateCost({ prompt: '4', completion: '0', discount: 0.5 }, { promptTokens: 5 }, at)).toBe('10')
    // 3 x 0.1 + 2 x 0.35 = 0.3 + 0.7 = 1.00 -> "1"; 30 x 0.1 + 20 x 0.35 = 3 + 7 = 10.
    expect(estimateCost({ prompt: '0.1', completion: '0.35' }, { promptTokens: 3, completionTokens: 2 }, at)).toBe('1')
    expect(estimateCost({ prompt: '0.1', completion: '0.35' }, { promptTokens: 30, completionTokens: 20 }, at)).toBe('10')
  })
})

/** The PricingError pricingFromSdk throws for an input. */
function sdkError(input: unknown): PricingError {
  return pricingErrorOf(() => pricingFromSdk(input))
}

describe('pricingFromSdk’s messages', () => {
  it.each([
    ['a number', 42],
    ['a string', '0.1'],
    ['an array', [{ prompt: '0.1', completion: '0.2' }]],
  ])('refuses %s as not an object', (_, input) => {
    const error = sdkError(input)
    expect(error.issues).toEqual([{ path: '', message: 'pricing must be an object, as the SDK returns it (endpoint.pricing)' }])
    expect(error.message).toBe('pricingFromSdk: invalid pricing: pricing must be an object, as the SDK returns it (endpoint.pricing)')
  })

  it('says a field is not the SDK’s, with no hint when it is not a wire name either', () => {
    const error = sdkError({ prompt: '0.1', completion: '0.2', cacheDiscount: '0.5' })
    expect(error.issues).toEqual([{ path: 'cacheDiscount', message: "is not a field of the SDK's pricing" }])
    expect(error.message).toBe("pricingFromSdk: invalid pricing: cacheDiscount is not a field of the SDK's pricing")
  })

  it('hints that a wire name needs no conversion, at the top level and in an override', () => {
    const hint = " (that is the wire's name: wire pricing needs no conversion)"
    expect(sdkError({ prompt: '0.1', completion: '0.2', input_cache_read: '0.01' }).issues).toEqual([
      { path: 'input_cache_read', message: `is not a field of the SDK's pricing${hint}` },
    ])
    expect(sdkError({ prompt: '0.1', completion: '0.2', overrides: [{ prompt: '0.3', utc_start: 60 }] }).issues).toEqual([
      { path: 'overrides[0].utc_start', message: `is not a field of the SDK's pricing override${hint}` },
    ])
  })

  it('says "pricing override" for an unknown field of an override', () => {
    const error = sdkError({ prompt: '0.1', completion: '0.2', overrides: [{ prompt: '0.3' }, { completion: '0.4', startsAt: 60 }] })
    expect(error.issues).toEqual([{ path: 'overrides[1].startsAt', message: "is not a field of the SDK's pricing override" }])
    expect(error.message).toBe("pricingFromSdk: invalid pricing: overrides[1].startsAt is not a field of the SDK's pricing override")
  })

  it('passes an override that is not an object to the engine’s check, which refuses it', () => {
    for (const override of [7, 'x', ['prompt']]) {
      expect(sdkError({ prompt: '0.1', completion: '0.2', overrides: [override] }).issues).toEqual([{ path: 'overrides[0]', message: 'must be an object' }])
    }
  })

  it('leaves out the fields the SDK left undefined, known or not', () => {
    const fromSdk = { prompt: '0.1', completion: '0.2', inputCacheRead: undefined, notAField: undefined, overrides: [{ prompt: '0.3', utcStart: undefined }] }
    const wire = pricingFromSdk(fromSdk)
    expect(wire).toStrictEqual({ prompt: '0.1', completion: '0.2', overrides: [{ prompt: '0.3' }] })
    expect(Object.keys(wire)).toEqual(['prompt', 'completion', 'overrides'])
    expect(Object.keys(wire.overrides?.[0] ?? {})).toEqual(['prompt'])
  })
})
