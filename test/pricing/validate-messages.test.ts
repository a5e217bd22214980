// The exact issues validatePricing reports, message text included: users read these messages (in
// validatePricing's result and in every PricingError), so their wording and ranges are part of the API.
import { describe, expect, it } from 'vitest'
import { compilePricing, PricingError, validatePricing } from '../../src/pricing/index.js'
import type { Pricing } from '../../src/pricing/index.js'

const base = { prompt: '0.000001', completion: '0.000002' }
const WEEKDAY_LIST = 'monday, tuesday, wednesday, thursday, friday, saturday, sunday'
const HHMM_START = 'must be an HHMM clock number in 0000..2359 with minutes below 60, got'
const HHMM_END = 'must be an HHMM clock number in 0000..2359 or 2400 with minutes below 60, got'

/** The issues of a pricing with one override. */
function overrideIssues(override: unknown): unknown {
  return validatePricing({ ...base, overrides: [override] })
}

describe('validatePricing messages', () => {
  it('reports a pricing that is not an object as one issue at path ""', () => {
    for (const pricing of [null, undefined, 42, 'x', []]) {
      expect(validatePricing(pricing)).toEqual([{ path: '', message: 'pricing must be an object' }])
    }
  })

  it('lets compilePricing throw that issue as its message', () => {
    let caught: unknown
    try {
      compilePricing(null as unknown as Pricing)
    } catch (error) {
      caught = error
    }
    expect(caught).toBeInstanceOf(PricingError)
    expect((caught as PricingError).message).toBe('compilePricing: invalid pricing: pricing must be an object')
  })

  it('reports each override that is not an object', () => {
    expect(validatePricing({ ...base, overrides: [null, 5, ['prompt'], {}] })).toEqual([
      { path: 'overrides[0]', message: 'must be an object' },
      { path: 'overrides[1]', message: 'must be an object' },
      { path: 'overrides[2]', message: 'must be an object' },
    ])
  })

  it('lists the keys an override may set when it sets one it may not', () => {
    expect(overrideIssues({ request: '0.1', web_search: '0.2' })).toEqual([
      { path: 'overrides[0].request', message: 'cannot be overridden; an override may set prompt, completion, audio, input_audio_cache, input_cache_read, input_cache_write, input_cache_write_1h' },
      { path: 'overrides[0].web_search', message: 'cannot be overridden; an override may set prompt, completion, audio, input_audio_cache, input_cache_read, input_cache_write, input_cache_write_1h' },
    ])
  })

  it('names the weekdays, and shows the wrong entry of utc_days, holes included', () => {
    // A sparse array: index 3 is a hole.
    const days: unknown[] = ['Monday', 'friday', 3]
    days[4] = 'sun'
    expect(overrideIssues({ utc_days: days })).toEqual([
      { path: 'overrides[0].utc_days[0]', message: `must be one of ${WEEKDAY_LIST}, got "Monday"` },
      { path: 'overrides[0].utc_days[2]', message: `must be one of ${WEEKDAY_LIST}, got 3` },
      { path: 'overrides[0].utc_days[3]', message: `must be one of ${WEEKDAY_LIST}, got undefined` },
      { path: 'overrides[0].utc_days[4]', message: `must be one of ${WEEKDAY_LIST}, got "sun"` },
    ])
    expect(overrideIssues({ utc_days: [...WEEKDAY_LIST.split(', ')] })).toEqual([])
  })

  it('gives utc_start the range 0000..2359 and utc_end the range 0000..2359 or 2400', () => {
    expect(overrideIssues({ utc_start: 1000, utc_end: 1260 })).toEqual([{ path: 'overrides[0].utc_end', message: `${HHMM_END} 1260` }])
    expect(overrideIssues({ utc_start: 2400, utc_end: 100 })).toEqual([{ path: 'overrides[0].utc_start', message: `${HHMM_START} 2400` }])
    expect(overrideIssues({ utc_start: 2360 })).toEqual([{ path: 'overrides[0].utc_start', message: `${HHMM_START} 2360` }])
    expect(overrideIssues({ utc_end: 2401 })).toEqual([{ path: 'overrides[0].utc_end', message: `${HHMM_END} 2401` }])
  })

  it('rejects negative, fractional and non-number clock values', () => {
    expect(overrideIssues({ utc_start: -30 })).toEqual([{ path: 'overrides[0].utc_start', message: `${HHMM_START} -30` }])
    expect(overrideIssues({ utc_end: -100 })).toEqual([{ path: 'overrides[0].utc_end', message: `${HHMM_END} -100` }])
    expect(overrideIssues({ utc_start: 930.5 })).toEqual([{ path: 'overrides[0].utc_start', message: `${HHMM_START} 930.5` }])
    expect(overrideIssues({ utc_end: '2200' })).toEqual([{ path: 'overrides[0].utc_end', message: `${HHMM_END} "2200"` }])
    expect(overrideIssues({ utc_start: null })).toEqual([{ path: 'overrides[0].utc_start', message: `${HHMM_START} null` }])
  })

  it('accepts the edges of both ranges', () => {
    expect(overrideIssues({ utc_start: 0, utc_end: 2400 })).toEqual([])
    expect(overrideIssues({ utc_start: 2359, utc_end: 0 })).toEqual([])
    expect(overrideIssues({ utc_start: 59, utc_end: 2359 })).toEqual([])
  })

  it('reports an out-of-range end of a window once, not also as an empty window', () => {
    // A lone utc_start of 2400 would meet the default utc_end 2400; it is reported only as out of range.
    expect(overrideIssues({ utc_start: 2400 })).toEqual([{ path: 'overrides[0].utc_start', message: `${HHMM_START} 2400` }])
    expect(overrideIssues({ utc_start: 2400, utc_end: 2400 })).toEqual([{ path: 'overrides[0].utc_start', message: `${HHMM_START} 2400` }])
    expect(overrideIssues({ utc_start: 'x', utc_end: 'x' })).toEqual([
      { path: 'overrides[0].utc_start', message: `${HHMM_START} "x"` },
      { path: 'overrides[0].utc_end', message: `${HHMM_END} "x"` },
    ])
  })

  it('reports an empty window at utc_end, with utc_start as HHMM', () => {
    expect(overrideIssues({ utc_start: 1000, utc_end: 1000 })).toEqual([
      { path: 'overrides[0].utc_end', message: 'must differ from utc_start (1000); an empty window never applies' },
    ])
    expect(overrideIssues({ utc_start: 0, utc_end: 0 })).toEqual([
      { path: 'overrides[0].utc_end', message: 'must differ from utc_start (0000); an empty window never applies' },
    ])
  })

  it.each([
    [Number.POSITIVE_INFINITY, 'Infinity'],
    [Number.NaN, 'NaN'],
    ['100', '"100"'],
    [-0.5, '-0.5'],
    [null, 'null'],
  ] as [unknown, string][])('rejects min_prompt_tokens %j', (threshold, shown) => {
    expect(overrideIssues({ min_prompt_tokens: threshold })).toEqual([{ path: 'overrides[0].min_prompt_tokens', message: `must be a non-negative number, got ${shown}` }])
  })

  it('accepts min_prompt_tokens 0 and a fractional threshold', () => {
    expect(overrideIssues({ min_prompt_tokens: 0 })).toEqual([])
    expect(overrideIssues({ min_prompt_tokens: 1000.5 })).toEqual([])
  })

  it.each([
    [Number.NaN, 'NaN'],
    [Number.POSITIVE_INFINITY, 'Infinity'],
    ['0.5', '"0.5"'],
    [null, 'null'],
    [1.01, '1.01'],
    [-0.01, '-0.01'],
  ] as [unknown, string][])('rejects discount %j', (discount, shown) => {
    expect(validatePricing({ ...base, discount })).toEqual([{ path: 'discount', message: `must be a number in [0, 1], got ${shown}` }])
  })

  it('accepts discounts 0 and 1', () => {
    expect(validatePricing({ ...base, discount: 0 })).toEqual([])
    expect(validatePricing({ ...base, discount: 1 })).toEqual([])
  })
})
