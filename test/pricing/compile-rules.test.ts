// How a compiled pricing reads its requests and picks its overrides in the cases the worked examples
// leave out: malformed requests and the messages they get, instants before 1970, pricings with 11 to
// 30 overrides (tiers cached by mask in a Map) and with more than 30 (tiers keyed by index lists),
// and the exact key set of a resolved pricing. Every expected value is worked out by hand.
import { describe, expect, it } from 'vitest'
import { compilePricing, estimateCost, explainPricing, PricingError, resolvePricing } from '../../src/pricing/index.js'
import type { Pricing, PricingOverride, PricingRequest } from '../../src/pricing/index.js'
import { WEEK_TABLE_AFTER } from '../../src/core/pricing/compile.js'
import { pricingErrorOf } from './support.js'
import { runs } from '../support/runs.js'

/** Epoch milliseconds of a UTC date and time; `month` is 1-based, unlike Date.UTC. */
function utc(year: number, month: number, day: number, hour = 0, minute = 0): number {
  return Date.UTC(year, month - 1, day, hour, minute)
}


/** A Monday at 12:00 UTC. */
const NOON = utc(2026, 3, 2, 12, 0)
const valid: Pricing = { prompt: '0.1', completion: '0.2' }

describe('a request that is not an object', () => {
  const cases: [unknown, string][] = [
    [null, 'null'],
    [undefined, 'undefined'],
    [5, 'number'],
    ['2026-03-02T12:00:00Z', 'string'],
  ]

  it.each(cases)('is rejected by resolvePricing and explainPricing at path "" when it is %j', (request, got) => {
    const message = `must be an object such as { promptTokens, at }, got ${got}`
    const resolveError = pricingErrorOf(() => resolvePricing(valid, request as PricingRequest))
    expect(resolveError.argument).toBe('request')
    expect(resolveError.issues).toEqual([{ path: '', message }])
    expect(resolveError.message).toBe(`resolvePricing: invalid request: ${message}`)
    const explainError = pricingErrorOf(() => explainPricing(valid, request as PricingRequest))
    expect(explainError.message).toBe(`explainPricing: invalid request: ${message}`)
  })

  it('is rejected by estimateCost before the usage is read, naming the one field a cost request has', () => {
    const error = pricingErrorOf(() => estimateCost(valid, { promptTokens: 1 }, null as unknown as { at: number }))
    expect(error.argument).toBe('request')
    expect(error.message).toBe('estimateCost: invalid request: must be an object such as { at }, got null')
    const numberError = pricingErrorOf(() => estimateCost(valid, { promptTokens: 1 }, 7 as unknown as { at: number }))
    expect(numberError.message).toBe('estimateCost: invalid request: must be an object such as { at }, got number')
  })
})

describe('a field a request does not have', () => {
  const hint = 'is not a request field; use promptTokens, at (windows and weekdays are read in UTC)'

  it.each(['timezone', 'promptTokns', 'at '])('is refused by resolvePricing, explainPricing, estimateCost, compiled explain and cost when it is %j', (field) => {
    const request = { promptTokens: 10, at: NOON, [field]: 'Europe/Berlin' } as unknown as PricingRequest
    const { explain, cost } = compilePricing(valid)
    const calls: [string, () => unknown][] = [
      ['resolvePricing', () => resolvePricing(valid, request)],
      ['explainPricing', () => explainPricing(valid, request)],
      ['estimateCost', () => estimateCost(valid, { promptTokens: 10 }, request)],
      ['compiled.explain', () => explain(request)],
      ['compiled.cost', () => cost({ promptTokens: 10 }, request)],
    ]
    for (const [name, call] of calls) {
      const error = pricingErrorOf(call)
      expect(error.argument).toBe('request')
      expect(error.issues).toEqual([{ path: field, message: hint }])
      expect(error.message).toBe(`${name}: invalid request: ${field} ${hint}`)
    }
  })
})

describe('the compiled resolve, the hot path', () => {
  it('reads promptTokens and at without looking for other fields, as its documentation says', () => {
    const { resolve } = compilePricing(valid)
    expect(resolve({ promptTokens: 10, at: NOON, timezone: 'Europe/Berlin' } as PricingRequest)).toEqual(resolvePricing(valid, { promptTokens: 10, at: NOON }))
    // The checks it does make still hold.
    expect(pricingErrorOf(() => resolve(null as unknown as PricingRequest)).message).toBe('compiled.resolve: invalid request: must be an object such as { promptTokens, at }, got null')
  })
})

describe('promptTokens in a cost request', () => {
  it('may be given, as a request of resolvePricing passed on, when it equals the usage count', () => {
    const request = { promptTokens: 10, at: NOON }
    expect(estimateCost(valid, { promptTokens: 10, completionTokens: 1 }, request)).toBe('1.2')
    expect(estimateCost(valid, { completionTokens: 1 }, { promptTokens: 0, at: NOON })).toBe('0.2')
  })

  it.each([
    [{ promptTokens: 11 }, 10, '10', 11],
    [{ completionTokens: 1 }, 5, '5', 0],
    [{ promptTokens: 10 }, '10', '"10"', 10],
  ] as [Record<string, number>, unknown, string, number][])('is refused when it differs from the usage count: usage %j, request %j', (usage, promptTokens, shown, used) => {
    const error = pricingErrorOf(() => estimateCost(valid, usage, { promptTokens, at: NOON } as never))
    expect(error.argument).toBe('request')
    expect(error.message).toBe(
      `estimateCost: invalid request: promptTokens is ${shown}, but the usage has ${used} prompt tokens, which decide the price; leave it out or make them agree`,
    )
  })
})

describe('promptTokens in a request', () => {
  it.each([
    [-1, '-1'],
    [1.5, '1.5'],
    ['10', '"10"'],
    [undefined, 'undefined'],
    [2 ** 53, '9007199254740992'],
    [Number.NaN, 'NaN'],
  ] as [unknown, string][])('is rejected with its value in the message when it is %j', (promptTokens, shown) => {
    const error = pricingErrorOf(() => resolvePricing(valid, { promptTokens, at: NOON } as PricingRequest))
    expect(error.argument).toBe('request')
    expect(error.issues).toEqual([{ path: 'promptTokens', message: `must be a non-negative integer, got ${shown}` }])
    expect(error.message).toBe(`resolvePricing: invalid request: promptTokens must be a non-negative integer, got ${shown}`)
  })

  it('accepts 0 and the largest safe integer', () => {
    expect(resolvePricing(valid, { promptTokens: 0, at: NOON }).prompt).toBe('0.1')
    expect(resolvePricing(valid, { promptTokens: Number.MAX_SAFE_INTEGER, at: NOON }).prompt).toBe('0.1')
  })
})

describe('the functions compilePricing returns', () => {
  it('name themselves compiled.resolve, compiled.explain and compiled.cost in their errors', () => {
    const { resolve, explain, cost } = compilePricing(valid)
    expect(pricingErrorOf(() => resolve({ promptTokens: -1, at: NOON })).message).toBe(
      'compiled.resolve: invalid request: promptTokens must be a non-negative integer, got -1',
    )
    expect(pricingErrorOf(() => explain(null as unknown as PricingRequest)).message).toBe(
      'compiled.explain: invalid request: must be an object such as { promptTokens, at }, got null',
    )
    expect(pricingErrorOf(() => cost({}, { at: Number.NaN })).message).toBe(
      'compiled.cost: invalid request: at must be a valid Date or epoch milliseconds within the Date range, got NaN',
    )
    expect(pricingErrorOf(() => cost({}, 'now' as unknown as { at: number })).message).toBe(
      'compiled.cost: invalid request: must be an object such as { at }, got string',
    )
  })
})

describe('instants before 1970', () => {
  // 1969-07-21 was a Monday and 1900-01-01 too (checked below); 1969-07-22 a Tuesday.
  const MONDAY_1969 = utc(1969, 7, 21, 12, 0)
  const TUESDAY_1969 = utc(1969, 7, 22, 12, 0)
  const MONDAY_1900 = utc(1900, 1, 1, 0, 0)
  const mondays: Pricing = { prompt: '0.1', completion: '0.2', overrides: [{ utc_days: ['monday'], prompt: '0.3' }] }

  it('uses dates whose UTC weekdays are what the tests say', () => {
    expect(new Date(MONDAY_1969).getUTCDay()).toBe(1)
    expect(new Date(TUESDAY_1969).getUTCDay()).toBe(2)
    expect(new Date(MONDAY_1900).getUTCDay()).toBe(1)
  })

  it('apply an override without conditions on any weekday', () => {
    const always: Pricing = { prompt: '0.1', completion: '0.2', overrides: [{ prompt: '0.05' }] }
    const compiled = compilePricing(always)
    for (let day = 0; day < 7; day++) {
      const at = utc(1969, 7, 20 + day, 12, 0)
      expect(compiled.resolve({ promptTokens: 1, at }).prompt, new Date(at).toISOString()).toBe('0.05')
    }
    expect(compiled.resolve({ promptTokens: 1, at: MONDAY_1900 }).prompt).toBe('0.05')
  })

  it('read utc_days on the request’s UTC weekday, in resolve as in explain', () => {
    const compiled = compilePricing(mondays)
    expect(compiled.resolve({ promptTokens: 1, at: MONDAY_1969 }).prompt).toBe('0.3')
    expect(compiled.resolve({ promptTokens: 1, at: MONDAY_1900 }).prompt).toBe('0.3')
    expect(compiled.resolve({ promptTokens: 1, at: TUESDAY_1969 }).prompt).toBe('0.1')
    const explained = compiled.explain({ promptTokens: 1, at: MONDAY_1969 })
    expect(explained.utcDay).toBe('monday')
    expect(explained.overrides[0]?.applies).toBe(true)
    expect(explained.resolved.prompt).toBe('0.3')
    expect(explained.prices.prompt).toEqual({ value: '0.3', from: 'overrides[0]', override: 0, base: '0.1', outranked: [] })
    // 1000 x 0.3 = 300.
    expect(compiled.cost({ promptTokens: 1000 }, { at: MONDAY_1969 })).toBe('300')
  })

  it('read utc_days on the right weekday once the engine looks windows up in its week table', () => {
    const compiled = compilePricing({ ...mondays, overrides: [{ utc_days: ['monday'], utc_start: 900, utc_end: 1700, prompt: '0.3' }] })
    for (let i = 0; i < WEEK_TABLE_AFTER + 1; i++) compiled.resolve({ promptTokens: 1, at: NOON })
    expect(compiled.resolve({ promptTokens: 1, at: MONDAY_1969 }).prompt).toBe('0.3')
    expect(compiled.resolve({ promptTokens: 1, at: utc(1969, 7, 21, 8, 59) }).prompt).toBe('0.1')
    expect(compiled.resolve({ promptTokens: 1, at: TUESDAY_1969 }).prompt).toBe('0.1')
    expect(compiled.resolve({ promptTokens: 1, at: utc(1900, 1, 1, 16, 59) }).prompt).toBe('0.3')
  })
})

describe('a pricing with 12 overrides, whose tiers are cached by mask in a Map', () => {
  // overrides[i] applies above 100 x i prompt tokens and sets prompt to prompts[i].
  const prompts = ['0.01', '0.02', '0.03', '0.04', '0.05', '0.06', '0.07', '0.08', '0.09', '0.10', '0.11', '0.12']
  const overrides: PricingOverride[] = prompts.map((prompt, i) => ({ min_prompt_tokens: 100 * i, prompt }))
  const pricing: Pricing = { prompt: '0.5', completion: '0.6', overrides }

  it('picks the last applicable override for each request', () => {
    const compiled = compilePricing(pricing)
    // 0 tokens: not even overrides[0] (0 > 0 is false). 1 token: overrides[0] only.
    expect(compiled.resolve({ promptTokens: 0, at: NOON })).toEqual({ prompt: '0.5', completion: '0.6' })
    expect(compiled.resolve({ promptTokens: 1, at: NOON })).toEqual({ prompt: '0.01', completion: '0.6' })
    // 550 tokens: overrides[0..5] (500 < 550 but 600 is not), so overrides[5] wins.
    expect(compiled.resolve({ promptTokens: 550, at: NOON }).prompt).toBe('0.06')
    // 1101 tokens: all twelve.
    expect(compiled.resolve({ promptTokens: 1101, at: NOON }).prompt).toBe('0.12')
    expect(compiled.explain({ promptTokens: 550, at: NOON }).prices.prompt?.outranked).toEqual([0, 1, 2, 3, 4])
    // 550 x 0.06 = 33.
    expect(compiled.cost({ promptTokens: 550 }, { at: NOON })).toBe('33')
  })

  it('returns the same object for requests with the same applicable overrides, and another for others', () => {
    const compiled = compilePricing(pricing)
    const first = compiled.resolve({ promptTokens: 550, at: NOON })
    const again = compiled.resolve({ promptTokens: 600, at: utc(2026, 3, 7, 3, 0) })
    expect(again).toBe(first)
    expect(again.prompt).toBe('0.06')
    const other = compiled.resolve({ promptTokens: 601, at: NOON })
    expect(other).not.toBe(first)
    expect(other.prompt).toBe('0.07')
    expect(compiled.resolve({ promptTokens: 550, at: NOON })).toBe(first)
  })
})

describe('a pricing with 33 overrides, more than a 32-bit mask holds', () => {
  // overrides[i] sets prompt to `0.i` (two digits). Only the windowed ones below can apply to a
  // request of 1000 tokens; every other override needs more than 1,000,000 prompt tokens.
  const windows: Record<number, Pick<PricingOverride, 'utc_start' | 'utc_end'>> = {
    0: { utc_start: 100, utc_end: 200 },
    1: { utc_start: 300, utc_end: 400 },
    2: { utc_start: 300, utc_end: 400 },
    5: { utc_start: 500, utc_end: 600 },
    12: { utc_start: 700, utc_end: 800 },
    32: { utc_start: 900, utc_end: 1000 },
  }
  const prompt = (i: number): string => `0.${String(i).padStart(2, '0')}`
  const overrides: PricingOverride[] = Array.from({ length: 33 }, (_, i) => ({ ...(windows[i] ?? { min_prompt_tokens: 1_000_000 }), prompt: prompt(i) }))
  overrides[0] = { ...overrides[0], completion: '0.7' }
  const pricing: Pricing = { prompt: '0.5', completion: '0.6', overrides }
  const at = (hour: number, minute = 30): PricingRequest => ({ promptTokens: 1000, at: utc(2026, 3, 2, hour, minute) })

  it('applies no override outside every window', () => {
    const compiled = compilePricing(pricing)
    expect(compiled.resolve(at(0))).toEqual({ prompt: '0.5', completion: '0.6' })
    expect(compiled.explain(at(0)).overrides.filter((o) => o.applies)).toEqual([])
  })

  it('keeps overrides[0] and overrides[32] apart', () => {
    const compiled = compilePricing(pricing)
    // 01:30: overrides[0] only, which sets completion too.
    expect(compiled.resolve(at(1))).toEqual({ prompt: '0.00', completion: '0.7' })
    // 09:30: overrides[32] only; completion stays the base price.
    expect(compiled.resolve(at(9))).toEqual({ prompt: '0.32', completion: '0.6' })
    // 1000 x 0.32 + 10 x 0.6 = 320 + 6 = 326.
    expect(compiled.cost({ promptTokens: 1000, completionTokens: 10 }, { at: at(9).at })).toBe('326')
  })

  it('tells apart sets of applicable overrides that have as many members, or the same digits', () => {
    const compiled = compilePricing(pricing)
    // Each pair below would share a cache key if the key lost the indices or their separators.
    expect(compiled.resolve(at(0)).prompt).toBe('0.5') // {}
    expect(compiled.resolve(at(7)).prompt).toBe('0.12') // {12}
    expect(compiled.resolve(at(5)).prompt).toBe('0.05') // {5}
    expect(compiled.resolve(at(3)).prompt).toBe('0.02') // {1, 2}
    expect(compiled.resolve(at(7)).prompt).toBe('0.12')
    expect(compiled.resolve(at(0)).prompt).toBe('0.5')
    expect(compiled.explain(at(3)).prices.prompt).toEqual({ value: '0.02', from: 'overrides[2]', override: 2, base: '0.5', outranked: [1] })
  })

  it('returns the same object for the same set of applicable overrides', () => {
    const compiled = compilePricing(pricing)
    expect(compiled.resolve(at(3, 0))).toBe(compiled.resolve(at(3, 59)))
    expect(compiled.resolve(at(3, 0))).not.toBe(compiled.resolve(at(7, 0)))
  })

  it('agrees with the uncompiled functions', () => {
    const compiled = compilePricing(pricing)
    for (const hour of [0, 1, 3, 5, 7, 9]) {
      expect(resolvePricing(structuredClone(pricing), at(hour))).toEqual(compiled.resolve(at(hour)))
    }
  })
})

describe('the keys of a resolved pricing', () => {
  it('are exactly the price keys set by the base or an applicable override, in PRICE_KEYS order, then discount', () => {
    const pricing: Pricing = {
      web_search: '0.004',
      completion: '0.2',
      prompt: '0.1',
      discount: 0.5,
      overrides: [{ min_prompt_tokens: 10, input_cache_read: '0.01', audio: '0.3' }],
    }
    const compiled = compilePricing(pricing)
    expect(Object.keys(compiled.resolve({ promptTokens: 10, at: NOON }))).toEqual(['prompt', 'completion', 'web_search', 'discount'])
    expect(Object.keys(compiled.resolve({ promptTokens: 11, at: NOON }))).toEqual(['prompt', 'completion', 'audio', 'input_cache_read', 'web_search', 'discount'])
    expect(compiled.resolve({ promptTokens: 10, at: NOON })).toStrictEqual({ prompt: '0.1', completion: '0.2', web_search: '0.004', discount: 0.5 })
  })

  it('never include a key the pricing does not set, not even as undefined', () => {
    const resolved = resolvePricing({ prompt: '0.1', completion: '0.2' }, { promptTokens: 1, at: NOON })
    expect(Object.keys(resolved)).toEqual(['prompt', 'completion'])
    expect('request' in resolved).toBe(false)
    expect('internal_reasoning' in resolved).toBe(false)
  })
})

describe('a compiled pricing asked the same thing again', () => {
  // Asked in any order, with the same values again and again, with bad requests and other forms of
  // the instant between, the compiled resolve answers what resolvePricing answers, and refuses what
  // it refuses: nothing one request leaves in the engine (its tiers, its week table) changes the next.
  const tiered: Pricing = {
    prompt: '0.1',
    completion: '0.2',
    overrides: [
      { min_prompt_tokens: 1000, prompt: '0.3' },
      { utc_start: 2200, utc_end: 200, completion: '0.05' },
    ],
  }
  it('answers what resolvePricing answers, call after call', async () => {
    const fc = (await import('fast-check')).default
    const at = fc.constantFrom<unknown>(NOON, utc(2026, 3, 2, 23, 30), utc(2026, 3, 3, 1, 0), new Date(NOON), '2026-03-02T23:30:00Z', Number.NaN, 8.64e15 + 1)
    const tokens = fc.constantFrom<unknown>(0, 999, 1000, 5000, -1, 1.5, '1000')
    fc.assert(
      fc.property(fc.array(fc.record({ promptTokens: tokens, at }), { minLength: 1, maxLength: 30 }), (requests) => {
        const { resolve } = compilePricing(tiered)
        const outcome = (f: () => unknown) => {
          try {
            return { ok: f() }
          } catch (error) {
            return { error: error instanceof PricingError ? error.message : String(error) }
          }
        }
        for (const request of requests) {
          const compiled = outcome(() => resolve(request as PricingRequest))
          const reference = outcome(() => resolvePricing(tiered, request as PricingRequest))
          expect({ ...compiled, error: undefined }).toStrictEqual({ ...reference, error: undefined })
          expect('error' in compiled).toBe('error' in reference)
        }
      }),
      { seed: 20261126, numRuns: runs(400) },
    )
  })
})
