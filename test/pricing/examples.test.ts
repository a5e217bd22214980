// Worked examples of the pricing engine (DESIGN.md section 4, SPEC.md section 2.4). Every expected
// value below is worked out by hand from those rules and from the billing rules on `CostUsage`; the
// arithmetic is in the comment next to it.
import { describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { compilePricing, estimateCost, explainPricing, PricingError, resolvePricing } from '../../src/pricing/index.js'
import type { CostUsage, Pricing, PricingOverride, PricingRequest } from '../../src/pricing/index.js'
import { pricingErrorOf } from './support.js'

/** Epoch milliseconds of a UTC date and time; `month` is 1-based, unlike Date.UTC. */
function utc(year: number, month: number, day: number, hour = 0, minute = 0, second = 0, ms = 0): number {
  return Date.UTC(year, month - 1, day, hour, minute, second, ms)
}

// A week in March 2026, checked against Date.getUTCDay in the test that relies on it.
const THURSDAY = [2026, 3, 5] as const
const FRIDAY = [2026, 3, 6] as const
const SATURDAY = [2026, 3, 7] as const
const SUNDAY = [2026, 3, 8] as const
const MONDAY = [2026, 3, 9] as const
/** A Monday at 12:00 UTC, for examples where the time does not matter. */
const NOON = utc(2026, 3, 2, 12, 0)

/** Whether override `index` applies to a request, as explainPricing reports it. */
function applies(pricing: Pricing, at: number, index = 0, promptTokens = 1000): boolean | undefined {
  return explainPricing(pricing, { promptTokens, at }).overrides[index]?.applies
}


/** `units / 10^scale` in plain notation without trailing zeros, computed apart from the engine. */
function plainDecimal(units: bigint, scale: number): string {
  const digits = units.toString().padStart(scale + 1, '0')
  const whole = digits.slice(0, digits.length - scale)
  const fraction = digits.slice(digits.length - scale).replace(/0+$/, '')
  return fraction === '' ? whole : `${whole}.${fraction}`
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key])
    Object.freeze(value)
  }
  return value
}

describe('the real service’s peak/off-peak tiling', () => {
  const peak: PricingOverride = { utc_start: 30, utc_end: 1630, prompt: '0.00000056', completion: '0.00000168' }
  const offPeak: PricingOverride = { utc_start: 1630, utc_end: 30, prompt: '0.00000014', completion: '0.00000042' }
  const tiling: Pricing = { prompt: '0.00000028', completion: '0.00000084', overrides: [peak, offPeak] }
  const prompt = (hour: number, minute: number): string | undefined => resolvePricing(tiling, { promptTokens: 1000, at: utc(2026, 3, 2, hour, minute) }).prompt

  it('uses the off-peak price at 00:29, the last minute of the wrapped window [16:30, 00:30)', () => {
    // 00:29 is before 00:30, so outside [00:30, 16:30) and inside the wrapped off-peak window.
    expect(prompt(0, 29)).toBe('0.00000014')
  })

  it('switches to the peak price at 00:30, because utc_start is inclusive and utc_end exclusive', () => {
    expect(prompt(0, 30)).toBe('0.00000056')
  })

  it('keeps the peak price at 16:29 and switches to off-peak at 16:30', () => {
    expect(prompt(16, 29)).toBe('0.00000056')
    expect(prompt(16, 30)).toBe('0.00000014')
  })

  it('uses the off-peak price at 23:59, before the window wraps past midnight', () => {
    expect(prompt(23, 59)).toBe('0.00000014')
  })

  it('applies exactly one of the two windows at every minute of a whole day', () => {
    const wrong: string[] = []
    for (let minute = 0; minute < 1440; minute++) {
      const explanation = explainPricing(tiling, { promptTokens: 1000, at: utc(2026, 3, 2, 0, minute) })
      const flags = explanation.overrides.map((o) => o.applies)
      // Peak is [00:30, 16:30) = minutes [30, 990); off-peak is every other minute.
      const isPeak = minute >= 30 && minute < 990
      if (flags[0] !== isPeak || flags[1] !== !isPeak) wrong.push(`${explanation.utcTime}: ${JSON.stringify(flags)}`)
    }
    expect(wrong).toEqual([])
  })

  it('costs the same usage at the peak and the off-peak price', () => {
    const usage = { promptTokens: 1000, completionTokens: 1000 }
    // Peak: 1000 x 0.00000056 + 1000 x 0.00000168 = 0.00056 + 0.00168 = 0.00224.
    expect(estimateCost(tiling, usage, { at: utc(2026, 3, 2, 12, 0) })).toBe('0.00224')
    // Off-peak: 1000 x 0.00000014 + 1000 x 0.00000042 = 0.00014 + 0.00042 = 0.00056.
    expect(estimateCost(tiling, usage, { at: utc(2026, 3, 2, 20, 0) })).toBe('0.00056')
  })
})

describe('a Friday 22:00-02:00 window', () => {
  const friday: Pricing = {
    prompt: '0.000002',
    completion: '0.000008',
    overrides: [{ utc_start: 2200, utc_end: 200, utc_days: ['friday'], prompt: '0.000001' }],
  }

  it('uses dates whose UTC weekdays are what the examples say', () => {
    expect(new Date(utc(...THURSDAY)).getUTCDay()).toBe(4)
    expect(new Date(utc(...FRIDAY)).getUTCDay()).toBe(5)
    expect(new Date(utc(...SATURDAY)).getUTCDay()).toBe(6)
    expect(new Date(utc(...SUNDAY)).getUTCDay()).toBe(0)
    expect(new Date(utc(...MONDAY)).getUTCDay()).toBe(1)
  })

  it('applies on Friday at 22:00 and 23:59 but not at 21:59', () => {
    expect(applies(friday, utc(...FRIDAY, 22, 0))).toBe(true)
    expect(applies(friday, utc(...FRIDAY, 23, 59))).toBe(true)
    expect(applies(friday, utc(...FRIDAY, 21, 59))).toBe(false)
    expect(resolvePricing(friday, { promptTokens: 10, at: utc(...FRIDAY, 22, 0) }).prompt).toBe('0.000001')
    expect(resolvePricing(friday, { promptTokens: 10, at: utc(...FRIDAY, 21, 59) }).prompt).toBe('0.000002')
  })

  it('does not apply on Saturday at 00:00 or 01:00, because the weekday is the request instant’s UTC weekday', () => {
    // The window wraps into Saturday morning, but those minutes are on Saturday, not in utc_days.
    expect(applies(friday, utc(...SATURDAY, 0, 0))).toBe(false)
    expect(applies(friday, utc(...SATURDAY, 1, 0))).toBe(false)
    expect(resolvePricing(friday, { promptTokens: 10, at: utc(...SATURDAY, 1, 0) }).prompt).toBe('0.000002')
  })

  it('applies the early-morning part of the wrapped window on Friday from 00:00 to 01:59', () => {
    expect(applies(friday, utc(...FRIDAY, 0, 0))).toBe(true)
    expect(applies(friday, utc(...FRIDAY, 1, 59))).toBe(true)
    // 02:00 is the exclusive end; Thursday 23:00 is inside the window but on a Thursday.
    expect(applies(friday, utc(...FRIDAY, 2, 0))).toBe(false)
    expect(applies(friday, utc(...THURSDAY, 23, 0))).toBe(false)
  })

  it('reads the UTC weekday and time of instants before 1970', () => {
    // 1969-12-31 was a Wednesday; epoch -1 ms is its last minute, 23:59.
    expect(new Date(-1).getUTCDay()).toBe(3)
    const lateWednesday: Pricing = { prompt: '0.1', completion: '0.2', overrides: [{ utc_start: 2359, utc_days: ['wednesday'], prompt: '0.3' }] }
    expect(resolvePricing(lateWednesday, { promptTokens: 1, at: -1 }).prompt).toBe('0.3')
    expect(explainPricing(lateWednesday, { promptTokens: 1, at: -1 })).toMatchObject({ utcTime: '23:59', utcDay: 'wednesday' })
    // Epoch 0 is Thursday 00:00.
    expect(resolvePricing(lateWednesday, { promptTokens: 1, at: 0 }).prompt).toBe('0.1')
  })
})

describe('override conditions and precedence', () => {
  it('applies min_prompt_tokens only when the prompt tokens are strictly greater', () => {
    const tiers: Pricing = { prompt: '0.000003', completion: '0.000015', overrides: [{ min_prompt_tokens: 200000, prompt: '0.000006' }] }
    expect(resolvePricing(tiers, { promptTokens: 200000, at: NOON }).prompt).toBe('0.000003')
    expect(resolvePricing(tiers, { promptTokens: 200001, at: NOON }).prompt).toBe('0.000006')
  })

  it('does not apply min_prompt_tokens 0 to a request of 0 prompt tokens', () => {
    const pricing: Pricing = { prompt: '0.1', completion: '0.2', overrides: [{ min_prompt_tokens: 0, prompt: '0.3' }] }
    // 0 > 0 is false; 1 > 0 is true.
    expect(resolvePricing(pricing, { promptTokens: 0, at: NOON }).prompt).toBe('0.1')
    expect(resolvePricing(pricing, { promptTokens: 1, at: NOON }).prompt).toBe('0.3')
  })

  it('runs a window with only utc_start until 24:00', () => {
    const evening: Pricing = { prompt: '0.1', completion: '0.2', overrides: [{ utc_start: 2200, prompt: '0.05' }] }
    // [22:00, 24:00): not 21:59, yes 22:00 and 23:59, and not 00:00 of the next day.
    expect(applies(evening, utc(...MONDAY, 21, 59))).toBe(false)
    expect(applies(evening, utc(...MONDAY, 22, 0))).toBe(true)
    expect(applies(evening, utc(...MONDAY, 23, 59))).toBe(true)
    expect(applies(evening, utc(2026, 3, 10, 0, 0))).toBe(false)
  })

  it('starts a window with only utc_end at 00:00', () => {
    const night: Pricing = { prompt: '0.1', completion: '0.2', overrides: [{ utc_end: 600, prompt: '0.05' }] }
    // [00:00, 06:00): yes 00:00 and 05:59, not 06:00 or 23:59.
    expect(applies(night, utc(...MONDAY, 0, 0))).toBe(true)
    expect(applies(night, utc(...MONDAY, 5, 59))).toBe(true)
    expect(applies(night, utc(...MONDAY, 6, 0))).toBe(false)
    expect(applies(night, utc(...MONDAY, 23, 59))).toBe(false)
  })

  it('treats utc_end 2400 as the end of the day', () => {
    const evening: Pricing = { prompt: '0.1', completion: '0.2', overrides: [{ utc_start: 1800, utc_end: 2400, prompt: '0.05' }] }
    // [18:00, 24:00) does not wrap: 17:59 no, 18:00 and 23:59 yes, 00:00 no.
    expect(applies(evening, utc(...MONDAY, 17, 59))).toBe(false)
    expect(applies(evening, utc(...MONDAY, 18, 0))).toBe(true)
    expect(applies(evening, utc(...MONDAY, 23, 59))).toBe(true)
    expect(applies(evening, utc(...MONDAY, 0, 0))).toBe(false)
  })

  it('covers the whole UTC day with utc_days and no window', () => {
    const weekend: Pricing = { prompt: '0.1', completion: '0.2', overrides: [{ utc_days: ['saturday', 'sunday'], prompt: '0.05' }] }
    expect(applies(weekend, utc(...FRIDAY, 23, 59))).toBe(false)
    expect(applies(weekend, utc(...SATURDAY, 0, 0))).toBe(true)
    expect(applies(weekend, utc(...SATURDAY, 12, 0))).toBe(true)
    expect(applies(weekend, utc(...SUNDAY, 23, 59))).toBe(true)
    expect(applies(weekend, utc(...MONDAY, 0, 0))).toBe(false)
  })

  it('lets a later applicable override win a key, while keys it lacks keep the earlier winner', () => {
    const pricing: Pricing = {
      prompt: '0.1',
      completion: '0.2',
      input_cache_read: '0.01',
      overrides: [
        { prompt: '0.3', completion: '0.4' },
        { min_prompt_tokens: 100, prompt: '0.5' },
      ],
    }
    // Both apply above 100 tokens: prompt from overrides[1], completion from overrides[0], cache read from the base.
    expect(resolvePricing(pricing, { promptTokens: 101, at: NOON })).toEqual({ prompt: '0.5', completion: '0.4', input_cache_read: '0.01' })
    // Only overrides[0] applies at 100 tokens.
    expect(resolvePricing(pricing, { promptTokens: 100, at: NOON })).toEqual({ prompt: '0.3', completion: '0.4', input_cache_read: '0.01' })
  })

  it('lets an earlier override keep a key when a later one that also sets it does not apply', () => {
    const pricing: Pricing = {
      prompt: '0.1',
      completion: '0.2',
      overrides: [{ prompt: '0.3' }, { utc_days: ['sunday'], prompt: '0.5' }],
    }
    expect(resolvePricing(pricing, { promptTokens: 1, at: utc(...MONDAY, 9, 0) }).prompt).toBe('0.3')
    expect(resolvePricing(pricing, { promptTokens: 1, at: utc(...SUNDAY, 9, 0) }).prompt).toBe('0.5')
  })

  it('lets an override set a price key the base lacks', () => {
    const pricing: Pricing = { prompt: '0.1', completion: '0.2', overrides: [{ min_prompt_tokens: 10, input_cache_read: '0.01' }] }
    expect(resolvePricing(pricing, { promptTokens: 11, at: NOON })).toEqual({ prompt: '0.1', completion: '0.2', input_cache_read: '0.01' })
    expect(resolvePricing(pricing, { promptTokens: 10, at: NOON })).toEqual({ prompt: '0.1', completion: '0.2' })
  })

  it('always applies an override that has no conditions', () => {
    const pricing: Pricing = { prompt: '0.1', completion: '0.2', overrides: [{ prompt: '0.05' }] }
    for (const at of [utc(...MONDAY, 0, 0), utc(...SATURDAY, 23, 59), 0]) {
      expect(resolvePricing(pricing, { promptTokens: 0, at }).prompt).toBe('0.05')
    }
    expect(explainPricing(pricing, { promptTokens: 0, at: NOON }).overrides[0]).toMatchObject({ applies: true, conditions: [] })
  })
})

describe('resolvePricing', () => {
  it('returns the exact source strings, without normalising them', () => {
    const pricing: Pricing = {
      prompt: '0.000000280',
      completion: '0.0000010',
      input_cache_read: '0.00',
      overrides: [{ min_prompt_tokens: 10, completion: '0.00000100' }],
    }
    expect(resolvePricing(pricing, { promptTokens: 10, at: NOON })).toEqual({ prompt: '0.000000280', completion: '0.0000010', input_cache_read: '0.00' })
    expect(resolvePricing(pricing, { promptTokens: 11, at: NOON })).toEqual({ prompt: '0.000000280', completion: '0.00000100', input_cache_read: '0.00' })
  })

  it('includes the discount when the pricing has one and never includes overrides', () => {
    const pricing: Pricing = { prompt: '0.1', completion: '0.2', discount: 0.25, overrides: [{ prompt: '0.3' }] }
    const resolved = resolvePricing(pricing, { promptTokens: 1, at: NOON })
    expect(resolved).toEqual({ prompt: '0.3', completion: '0.2', discount: 0.25 })
    expect('overrides' in resolved).toBe(false)
    const plain = resolvePricing({ prompt: '0.1', completion: '0.2' }, { promptTokens: 1, at: NOON })
    expect('discount' in plain).toBe(false)
    expect('overrides' in plain).toBe(false)
  })

  it('returns a frozen object', () => {
    const resolved = resolvePricing({ prompt: '0.1', completion: '0.2' }, { promptTokens: 1, at: NOON })
    expect(Object.isFrozen(resolved)).toBe(true)
    expect(() => {
      ;(resolved as { prompt: string }).prompt = '0'
    }).toThrow(TypeError)
  })

  it('returns the same object for two requests that the same overrides apply to', () => {
    const pricing: Pricing = { prompt: '0.1', completion: '0.2', overrides: [{ min_prompt_tokens: 100, prompt: '0.3' }] }
    // Different tokens and instants, same applicable overrides (none, then overrides[0]).
    expect(resolvePricing(pricing, { promptTokens: 1, at: NOON })).toBe(resolvePricing(pricing, { promptTokens: 50, at: utc(...SATURDAY, 3, 0) }))
    expect(resolvePricing(pricing, { promptTokens: 101, at: NOON })).toBe(resolvePricing(pricing, { promptTokens: 5000, at: utc(...SATURDAY, 3, 0) }))
  })

  it('returns the same object for repeated requests, and as explainPricing’s `resolved`, even with more than 30 overrides', () => {
    // 31 overrides with no conditions: all apply, the last one wins prompt.
    const overrides: PricingOverride[] = Array.from({ length: 31 }, (_, i) => ({ prompt: `0.${i + 1}` }))
    const pricing: Pricing = { prompt: '0.1', completion: '0.2', overrides }
    const request = { promptTokens: 1, at: NOON }
    const first = resolvePricing(pricing, request)
    expect(first).toEqual({ prompt: '0.31', completion: '0.2' })
    expect(resolvePricing(pricing, request)).toBe(first)
    expect(explainPricing(pricing, request).resolved).toBe(first)
  })

  it('accepts `at` as a Date or as epoch milliseconds with the same result', () => {
    const pricing: Pricing = { prompt: '0.1', completion: '0.2', overrides: [{ utc_start: 900, utc_end: 1700, prompt: '0.3' }] }
    const ms = utc(...MONDAY, 9, 0)
    expect(resolvePricing(pricing, { promptTokens: 1, at: new Date(ms) })).toBe(resolvePricing(pricing, { promptTokens: 1, at: ms }))
    expect(resolvePricing(pricing, { promptTokens: 1, at: new Date('2026-03-09T09:00:00Z') }).prompt).toBe('0.3')
  })

  it('reads instants at minute resolution: 10:29:59.999 is before a 10:30 start', () => {
    const pricing: Pricing = { prompt: '0.1', completion: '0.2', overrides: [{ utc_start: 1030, utc_end: 1100, prompt: '0.3' }] }
    expect(resolvePricing(pricing, { promptTokens: 1, at: utc(...MONDAY, 10, 29, 59, 999) }).prompt).toBe('0.1')
    expect(resolvePricing(pricing, { promptTokens: 1, at: utc(...MONDAY, 10, 30, 0, 0) }).prompt).toBe('0.3')
    // 10:59:59.999 is still the minute 10:59, inside [10:30, 11:00).
    expect(resolvePricing(pricing, { promptTokens: 1, at: utc(...MONDAY, 10, 59, 59, 999) }).prompt).toBe('0.3')
    expect(resolvePricing(pricing, { promptTokens: 1, at: utc(...MONDAY, 11, 0, 0, 0) }).prompt).toBe('0.1')
  })
})

describe('estimateCost', () => {
  const at = { at: NOON }

  it('bills cached prompt tokens at input_cache_read and the rest at prompt', () => {
    const pricing: Pricing = { prompt: '0.000003', completion: '0.000015', input_cache_read: '0.0000003' }
    // 2000 x 0.000003 + 8000 x 0.0000003 = 0.006 + 0.0024 = 0.0084.
    expect(estimateCost(pricing, { promptTokens: 10000, cachedTokens: 8000 }, at)).toBe('0.0084')
  })

  it('bills cached prompt tokens at prompt when there is no input_cache_read', () => {
    // 10000 x 0.000003 = 0.03.
    expect(estimateCost({ prompt: '0.000003', completion: '0.000015' }, { promptTokens: 10000, cachedTokens: 8000 }, at)).toBe('0.03')
  })

  it('bills 5-minute cache writes at input_cache_write, else at prompt', () => {
    const usage = { promptTokens: 1000, cacheWriteTokens: 400 }
    // 600 x 0.000003 + 400 x 0.00000375 = 0.0018 + 0.0015 = 0.0033.
    expect(estimateCost({ prompt: '0.000003', completion: '0.000015', input_cache_write: '0.00000375' }, usage, at)).toBe('0.0033')
    // 1000 x 0.000003 = 0.003.
    expect(estimateCost({ prompt: '0.000003', completion: '0.000015' }, usage, at)).toBe('0.003')
  })

  it('bills 1-hour cache writes at input_cache_write_1h, else input_cache_write, else prompt', () => {
    const usage = { promptTokens: 1000, cacheWrite1hTokens: 400 }
    const base: Pricing = { prompt: '0.000003', completion: '0.000015' }
    // 600 x 0.000003 + 400 x 0.000006 = 0.0018 + 0.0024 = 0.0042.
    expect(estimateCost({ ...base, input_cache_write: '0.00000375', input_cache_write_1h: '0.000006' }, usage, at)).toBe('0.0042')
    // 0.0018 + 400 x 0.00000375 = 0.0018 + 0.0015 = 0.0033.
    expect(estimateCost({ ...base, input_cache_write: '0.00000375' }, usage, at)).toBe('0.0033')
    // 1000 x 0.000003 = 0.003.
    expect(estimateCost(base, usage, at)).toBe('0.003')
  })

  it('bills audio prompt tokens at audio, else at prompt', () => {
    const usage = { promptTokens: 100, audioTokens: 50 }
    // 50 x 0.000001 + 50 x 0.00004 = 0.00005 + 0.002 = 0.00205.
    expect(estimateCost({ prompt: '0.000001', completion: '0.00001', audio: '0.00004' }, usage, at)).toBe('0.00205')
    // 100 x 0.000001 = 0.0001.
    expect(estimateCost({ prompt: '0.000001', completion: '0.00001' }, usage, at)).toBe('0.0001')
  })

  it('bills cached audio tokens at input_audio_cache, else audio, else prompt', () => {
    const usage = { promptTokens: 100, cachedAudioTokens: 50 }
    const base: Pricing = { prompt: '0.000001', completion: '0.00001' }
    // 50 x 0.000001 + 50 x 0.000002 = 0.00005 + 0.0001 = 0.00015.
    expect(estimateCost({ ...base, audio: '0.00004', input_audio_cache: '0.000002' }, usage, at)).toBe('0.00015')
    // 0.00005 + 50 x 0.00004 = 0.00005 + 0.002 = 0.00205.
    expect(estimateCost({ ...base, audio: '0.00004' }, usage, at)).toBe('0.00205')
    // 100 x 0.000001 = 0.0001.
    expect(estimateCost(base, usage, at)).toBe('0.0001')
  })

  it('bills reasoning tokens at internal_reasoning, else at completion', () => {
    const usage = { completionTokens: 300, reasoningTokens: 100 }
    // 200 x 0.00001 + 100 x 0.00002 = 0.002 + 0.002 = 0.004.
    expect(estimateCost({ prompt: '0.000001', completion: '0.00001', internal_reasoning: '0.00002' }, usage, at)).toBe('0.004')
    // 300 x 0.00001 = 0.003.
    expect(estimateCost({ prompt: '0.000001', completion: '0.00001' }, usage, at)).toBe('0.003')
    // A zero internal_reasoning is no price of its own, as the service lists it: 300 x 0.00001 = 0.003.
    expect(estimateCost({ prompt: '0.000001', completion: '0.00001', internal_reasoning: '0' }, usage, at)).toBe('0.003')
    expect(estimateCost({ prompt: '0.000001', completion: '0.00001', internal_reasoning: '0.000' }, usage, at)).toBe('0.003')
  })

  it('bills audio output tokens at audio_output, else at completion', () => {
    const usage = { completionTokens: 300, audioOutputTokens: 100 }
    // 200 x 0.00001 + 100 x 0.00008 = 0.002 + 0.008 = 0.01.
    expect(estimateCost({ prompt: '0.000001', completion: '0.00001', audio_output: '0.00008' }, usage, at)).toBe('0.01')
    // 300 x 0.00001 = 0.003.
    expect(estimateCost({ prompt: '0.000001', completion: '0.00001' }, usage, at)).toBe('0.003')
  })

  it('bills images, image tokens, output images and web searches at their prices, apart from prompt and completion', () => {
    const pricing: Pricing = { prompt: '0.000001', completion: '0.00001', image: '0.001', image_token: '0.00001', image_output: '0.04', web_search: '0.004' }
    const usage = { promptTokens: 100, images: 3, imageTokens: 1000, outputImages: 2, webSearches: 5 }
    // 100 x 0.000001 + 3 x 0.001 + 1000 x 0.00001 + 2 x 0.04 + 5 x 0.004
    //   = 0.0001 + 0.003 + 0.01 + 0.08 + 0.02 = 0.1131 (image tokens are not part of the prompt tokens).
    expect(estimateCost(pricing, usage, at)).toBe('0.1131')
  })

  it('leaves images, image tokens, output images and web searches free when their price is absent', () => {
    const usage = { promptTokens: 100, images: 3, imageTokens: 1000, outputImages: 2, webSearches: 5 }
    // Only 100 x 0.000001 = 0.0001 is billed.
    expect(estimateCost({ prompt: '0.000001', completion: '0.00001' }, usage, at)).toBe('0.0001')
    expect(estimateCost({ prompt: '0.000001', completion: '0.00001' }, { images: 3, imageTokens: 1000, outputImages: 2, webSearches: 5 }, at)).toBe('0')
  })

  it('charges the request fee once by default and once per request when requests is given', () => {
    const pricing: Pricing = { prompt: '0.000001', completion: '0.000002', request: '0.005' }
    const usage = { promptTokens: 1000, completionTokens: 500 }
    // 1000 x 0.000001 + 500 x 0.000002 + 1 x 0.005 = 0.001 + 0.001 + 0.005 = 0.007.
    expect(estimateCost(pricing, usage, at)).toBe('0.007')
    // 0.002 + 3 x 0.005 = 0.017.
    expect(estimateCost(pricing, { ...usage, requests: 3 }, at)).toBe('0.017')
    // 0.002 + 0 x 0.005 = 0.002.
    expect(estimateCost(pricing, { ...usage, requests: 0 }, at)).toBe('0.002')
    // An empty usage is one request: 0.005.
    expect(estimateCost(pricing, {}, at)).toBe('0.005')
  })

  it('applies a discount of 0.1 exactly, with no floating-point drift', () => {
    // 3 x 0.1 x (1 - 0.1) = 0.3 x 0.9 = 0.27 (in doubles, 3 * 0.1 * 0.9 is 0.2700000000000001).
    expect(estimateCost({ prompt: '0.1', completion: '0', discount: 0.1 }, { promptTokens: 3 }, at)).toBe('0.27')
  })

  it('applies the discount to override prices and the request fee too', () => {
    const pricing: Pricing = { prompt: '0.1', completion: '0.2', request: '1', discount: 0.1, overrides: [{ prompt: '0.3' }] }
    // (2 x 0.3 + 1 x 0.2 + 1 x 1) x 0.9 = 1.8 x 0.9 = 1.62.
    expect(estimateCost(pricing, { promptTokens: 2, completionTokens: 1 }, at)).toBe('1.62')
  })

  it('makes everything free with a discount of 1', () => {
    expect(estimateCost({ prompt: '0.1', completion: '0.2', request: '5', discount: 1 }, { promptTokens: 1000, completionTokens: 1000 }, at)).toBe('0')
  })

  it('applies a tiny discount such as 1e-7 exactly', () => {
    // 1 x 1 x (1 - 0.0000001) = 0.9999999.
    expect(estimateCost({ prompt: '1', completion: '0', discount: 1e-7 }, { promptTokens: 1 }, at)).toBe('0.9999999')
    // 1000 x 0.000001 x 0.9999999 = 0.001 x 0.9999999 = 0.0009999999.
    expect(estimateCost({ prompt: '0.000001', completion: '0', discount: 1e-7 }, { promptTokens: 1000 }, at)).toBe('0.0009999999')
  })

  it('writes costs in plain notation without trailing zeros, and "0" for nothing', () => {
    // 4 x 0.25 = 1.00 -> "1"; 2 x 0.50 = 1.00 -> "1".
    expect(estimateCost({ prompt: '0.25', completion: '0' }, { promptTokens: 4 }, at)).toBe('1')
    expect(estimateCost({ prompt: '0.50', completion: '0.000' }, { promptTokens: 2 }, at)).toBe('1')
    // 1 x 0.00000001 = 0.00000001, which String(1e-8) would write as "1e-8".
    expect(estimateCost({ prompt: '0.00000001', completion: '0' }, { promptTokens: 1 }, at)).toBe('0.00000001')
    expect(estimateCost({ prompt: '0.1', completion: '0.2' }, {}, at)).toBe('0')
  })

  it('stays exact and in plain notation for huge usage', () => {
    const n = Number.MAX_SAFE_INTEGER
    const big = BigInt(n)
    // n x 0.000000123456789 = n x 123456789 / 10^15; the product passes 2^53, so no double holds it.
    expect(estimateCost({ prompt: '0.000000123456789', completion: '0' }, { promptTokens: n }, at)).toBe(plainDecimal(big * 123456789n, 15))
    // n x 10 = 90071992547409910; a double cannot hold it (doubles there are 16 apart) and prints 90071992547409900.
    expect(estimateCost({ prompt: '10', completion: '0' }, { promptTokens: n }, at)).toBe((big * 10n).toString())
    // With a discount of 0.1: n x 123456789 / 10^15 x 9 / 10 = n x 123456789 x 9 / 10^16.
    expect(estimateCost({ prompt: '0.000000123456789', completion: '0', discount: 0.1 }, { promptTokens: n }, at)).toBe(plainDecimal(big * 123456789n * 9n, 16))
    // Each term is safe but the sum is not: n x 1 + n x 1 = 2n = 18014398509481982.
    expect(estimateCost({ prompt: '1', completion: '1' }, { promptTokens: n, completionTokens: n }, at)).toBe((big * 2n).toString())
    // Prompt and completion each n tokens: n x (0.000000123456789 + 0.000000987654321) = n x 1111111110 / 10^15.
    expect(estimateCost({ prompt: '0.000000123456789', completion: '0.000000987654321' }, { promptTokens: n, completionTokens: n }, at)).toBe(
      plainDecimal(big * 1111111110n, 15),
    )
  })

  it('chooses a min_prompt_tokens override by the usage’s total prompt tokens, cached tokens included', () => {
    const pricing: Pricing = {
      prompt: '0.000001',
      completion: '0.000002',
      input_cache_read: '0.0000001',
      overrides: [{ min_prompt_tokens: 1000, prompt: '0.000002', input_cache_read: '0.0000002' }],
    }
    // 1001 > 1000 though only 100 tokens are uncached: 100 x 0.000002 + 901 x 0.0000002 = 0.0002 + 0.0001802 = 0.0003802.
    expect(estimateCost(pricing, { promptTokens: 1001, cachedTokens: 901 }, at)).toBe('0.0003802')
    // 1000 is not more than 1000: 100 x 0.000001 + 900 x 0.0000001 = 0.0001 + 0.00009 = 0.00019.
    expect(estimateCost(pricing, { promptTokens: 1000, cachedTokens: 900 }, at)).toBe('0.00019')
  })
})

describe('explainPricing', () => {
  const pricing: Pricing = {
    prompt: '0.000002',
    completion: '0.000008',
    overrides: [
      { min_prompt_tokens: 1000, utc_start: 2200, utc_end: 200, utc_days: ['friday'], prompt: '0.000001', input_cache_read: '0.0000001' },
      { min_prompt_tokens: 500, prompt: '0.0000015' },
      { utc_start: 900, completion: '0.000009' },
    ],
  }

  it('reports each condition with the values it compared, and whether the override applies', () => {
    const explanation = explainPricing(pricing, { promptTokens: 1500, at: utc(...SATURDAY, 1, 0) })
    expect(explanation).toMatchObject({ promptTokens: 1500, at: '2026-03-07T01:00:00.000Z', utcTime: '01:00', utcDay: 'saturday', discount: 0 })
    const [first, second, third] = explanation.overrides
    // 1500 > 1000 holds; 01:00 is inside the wrapped [22:00, 02:00); saturday is not in [friday].
    expect(first?.applies).toBe(false)
    expect(first?.path).toBe('overrides[0]')
    expect(first?.conditions).toEqual([
      { condition: 'min_prompt_tokens', holds: true, threshold: 1000, promptTokens: 1500, text: expect.any(String) },
      { condition: 'utc_window', holds: true, utcStart: 2200, utcEnd: 200, wraps: true, utcTime: '01:00', text: expect.any(String) },
      { condition: 'utc_days', holds: false, days: ['friday'], utcDay: 'saturday', text: expect.any(String) },
    ])
    expect(second?.applies).toBe(true)
    expect(second?.conditions).toEqual([{ condition: 'min_prompt_tokens', holds: true, threshold: 500, promptTokens: 1500, text: expect.any(String) }])
    // Only utc_start: the end is filled in as 2400; 01:00 is outside [09:00, 24:00).
    expect(third?.applies).toBe(false)
    expect(third?.conditions).toEqual([{ condition: 'utc_window', holds: false, utcStart: 900, utcEnd: 2400, wraps: false, utcTime: '01:00', text: expect.any(String) }])
  })

  it('reports a failing threshold with the threshold and the prompt tokens', () => {
    const explanation = explainPricing(pricing, { promptTokens: 500, at: utc(...FRIDAY, 23, 0) })
    // 500 is not more than 500, nor than 1000.
    expect(explanation.overrides[1]?.conditions).toEqual([{ condition: 'min_prompt_tokens', holds: false, threshold: 500, promptTokens: 500, text: expect.any(String) }])
    expect(explanation.overrides[0]?.conditions[0]).toMatchObject({ holds: false, threshold: 1000, promptTokens: 500 })
    expect(explanation.overrides[0]?.text).toMatch(/min_prompt_tokens/)
    expect(explanation.overrides[0]?.text).toMatch(/1000/)
  })

  it('says which entry won each price key, the base price and the applicable overrides it outranked', () => {
    // Friday 23:00, 1500 tokens: all three apply. prompt: overrides[1] beats overrides[0];
    // completion: overrides[2]; input_cache_read: only overrides[0], and the base lacks it.
    const explanation = explainPricing(pricing, { promptTokens: 1500, at: utc(...FRIDAY, 23, 0) })
    expect(explanation.overrides.map((o) => o.applies)).toEqual([true, true, true])
    expect(explanation.prices).toEqual({
      prompt: { value: '0.0000015', from: 'overrides[1]', override: 1, base: '0.000002', outranked: [0] },
      completion: { value: '0.000009', from: 'overrides[2]', override: 2, base: '0.000008', outranked: [] },
      input_cache_read: { value: '0.0000001', from: 'overrides[0]', override: 0, base: null, outranked: [] },
    })
  })

  it('reports base prices as coming from the base when no override sets them', () => {
    // Monday 08:00, 10 tokens: no override applies.
    const explanation = explainPricing(pricing, { promptTokens: 10, at: utc(...MONDAY, 8, 0) })
    expect(explanation.overrides.map((o) => o.applies)).toEqual([false, false, false])
    expect(explanation.prices).toEqual({
      prompt: { value: '0.000002', from: 'base', override: null, base: '0.000002', outranked: [] },
      completion: { value: '0.000008', from: 'base', override: null, base: '0.000008', outranked: [] },
    })
  })

  it('mentions the failing condition in its text', () => {
    const saturday = explainPricing(pricing, { promptTokens: 1500, at: utc(...SATURDAY, 1, 0) })
    expect(saturday.overrides[0]?.text).toMatch(/saturday/)
    expect(saturday.overrides[0]?.text).toMatch(/utc_days/)
    expect(saturday.text).toContain(saturday.overrides[0]?.text)
    const morning = explainPricing(pricing, { promptTokens: 10, at: utc(...MONDAY, 8, 0) })
    expect(morning.overrides[2]?.text).toMatch(/08:00/)
    expect(morning.overrides[2]?.text).toMatch(/outside/)
  })

  it('returns as `resolved` the very object resolvePricing returns', () => {
    const request = { promptTokens: 1500, at: utc(...FRIDAY, 23, 0) }
    const explanation = explainPricing(pricing, request)
    expect(explanation.resolved).toBe(resolvePricing(pricing, request))
    expect(explanation.resolved).toEqual({ prompt: '0.0000015', completion: '0.000009', input_cache_read: '0.0000001' })
  })
})

describe('errors', () => {
  const valid: Pricing = { prompt: '0.1', completion: '0.2' }

  it('rejects an invalid pricing as argument "pricing", listing every issue', () => {
    const invalid = { prompt: '1e-6', completion: '0.1', overrides: [{ utc_start: 1000, utc_end: 1000 }] } as unknown as Pricing
    const error = pricingErrorOf(() => resolvePricing(invalid, { promptTokens: 1, at: NOON }))
    expect(error.argument).toBe('pricing')
    expect(error.issues.map((i) => i.path)).toEqual(['prompt', 'overrides[0].utc_end'])
    expect(error.message.startsWith('resolvePricing: invalid pricing: ')).toBe(true)
    expect(error.name).toBe('PricingError')
    expect(error).toBeInstanceOf(Error)
    expect(pricingErrorOf(() => explainPricing(invalid, { promptTokens: 1, at: NOON })).message.startsWith('explainPricing: invalid pricing: ')).toBe(true)
    expect(pricingErrorOf(() => estimateCost(invalid, {}, { at: NOON })).message.startsWith('estimateCost: invalid pricing: ')).toBe(true)
  })

  it('rejects a missing `at` as argument "request" at path "at"', () => {
    const error = pricingErrorOf(() => resolvePricing(valid, { promptTokens: 1 } as unknown as PricingRequest))
    expect(error.argument).toBe('request')
    expect(error.issues.map((i) => i.path)).toEqual(['at'])
    expect(error.message.startsWith('resolvePricing: invalid request: ')).toBe(true)
  })

  it('rejects an invalid Date, NaN and a string as `at`', () => {
    for (const at of [new Date('not a date'), Number.NaN, '2026-03-06T22:00:00Z'] as unknown[]) {
      const error = pricingErrorOf(() => resolvePricing(valid, { promptTokens: 1, at } as PricingRequest))
      expect(error.argument).toBe('request')
      expect(error.issues.map((i) => i.path)).toEqual(['at'])
    }
    const costError = pricingErrorOf(() => estimateCost(valid, {}, { at: Number.NaN }))
    expect(costError.argument).toBe('request')
    expect(costError.message.startsWith('estimateCost: invalid request: ')).toBe(true)
  })

  it('rejects negative or fractional promptTokens in a request', () => {
    for (const promptTokens of [-1, 1.5]) {
      const error = pricingErrorOf(() => explainPricing(valid, { promptTokens, at: NOON }))
      expect(error.argument).toBe('request')
      expect(error.issues.map((i) => i.path)).toEqual(['promptTokens'])
      expect(error.message.startsWith('explainPricing: invalid request: ')).toBe(true)
    }
  })

  it('rejects a usage with an unknown field such as prompt_tokens', () => {
    const error = pricingErrorOf(() => estimateCost(valid, { prompt_tokens: 5 } as unknown as CostUsage, { at: NOON }))
    expect(error.argument).toBe('usage')
    expect(error.issues.map((i) => i.path)).toEqual(['prompt_tokens'])
    expect(error.message.startsWith('estimateCost: invalid usage: ')).toBe(true)
  })

  it('rejects negative counts in a usage, naming each', () => {
    const error = pricingErrorOf(() => estimateCost(valid, { promptTokens: 10, completionTokens: -1, images: -2 }, { at: NOON }))
    expect(error.argument).toBe('usage')
    expect(error.issues.map((i) => i.path)).toEqual(expect.arrayContaining(['completionTokens', 'images']))
  })

  it('rejects cachedTokens greater than promptTokens, which includes them', () => {
    const error = pricingErrorOf(() => estimateCost(valid, { promptTokens: 10, cachedTokens: 11 }, { at: NOON }))
    expect(error.argument).toBe('usage')
    expect(error.issues.map((i) => i.path)).toEqual(['promptTokens'])
  })
})

describe('compilePricing', () => {
  const tiers = (): Pricing => ({
    prompt: '0.000003',
    completion: '0.000015',
    input_cache_read: '0.0000003',
    overrides: [{ min_prompt_tokens: 200000, prompt: '0.000006', completion: '0.0000225' }],
  })

  it('throws a PricingError naming compilePricing on an invalid pricing', () => {
    const error = pricingErrorOf(() => compilePricing({ prompt: '0.1', completion: '-1', overrides: [{ utc_end: 0 }] }))
    expect(error.argument).toBe('pricing')
    expect(error.issues.map((i) => i.path)).toEqual(['completion', 'overrides[0].utc_end'])
    expect(error.message.startsWith('compilePricing: invalid pricing: ')).toBe(true)
  })

  it('returns functions that work unbound and agree with the uncompiled ones', () => {
    const pricing = tiers()
    const { resolve, explain, cost } = compilePricing(pricing)
    for (const promptTokens of [200000, 200001]) {
      const request = { promptTokens, at: NOON }
      expect(resolve(request)).toEqual(resolvePricing(pricing, request))
      expect(explain(request)).toEqual(explainPricing(pricing, request))
      const usage = { promptTokens, cachedTokens: 100000, completionTokens: 1000 }
      expect(cost(usage, request)).toBe(estimateCost(pricing, usage, request))
    }
    // 150000 x 0.000006 + 50001 x 0.0000003 + 1000 x 0.0000225 = 0.9 + 0.0150003 + 0.0225 = 0.9375003.
    expect(cost({ promptTokens: 200001, cachedTokens: 50001, completionTokens: 1000 }, { at: NOON })).toBe('0.9375003')
  })

  it('is not affected by changes to the pricing object after compiling', () => {
    const pricing = tiers()
    const compiled = compilePricing(pricing)
    const override = pricing.overrides?.[0]
    if (override === undefined) throw new Error('the example has an override')
    pricing.prompt = '9'
    pricing.input_cache_read = '9'
    override.prompt = '9'
    override.min_prompt_tokens = 0
    pricing.overrides?.push({ completion: '9' })
    expect(compiled.resolve({ promptTokens: 200000, at: NOON })).toEqual({ prompt: '0.000003', completion: '0.000015', input_cache_read: '0.0000003' })
    expect(compiled.resolve({ promptTokens: 200001, at: NOON })).toEqual({ prompt: '0.000006', completion: '0.0000225', input_cache_read: '0.0000003' })
    // 1000 x 0.000003 = 0.003.
    expect(compiled.cost({ promptTokens: 1000 }, { at: NOON })).toBe('0.003')
  })

  it('never freezes its argument', () => {
    const pricing = tiers()
    const compiled = compilePricing(pricing)
    compiled.resolve({ promptTokens: 1, at: NOON })
    compiled.cost({ promptTokens: 1 }, { at: NOON })
    expect(Object.isFrozen(pricing)).toBe(false)
    expect(Object.isFrozen(pricing.overrides)).toBe(false)
    expect(Object.isFrozen(pricing.overrides?.[0])).toBe(false)
  })

  it('keeps its own copy of utc_days', () => {
    const days: PricingOverride['utc_days'] = ['friday']
    const pricing: Pricing = { prompt: '0.1', completion: '0.2', overrides: [{ utc_days: days, prompt: '0.3' }] }
    const compiled = compilePricing(pricing)
    days.push('saturday')
    expect(compiled.resolve({ promptTokens: 1, at: utc(...SATURDAY, 12, 0) }).prompt).toBe('0.1')
    expect(compiled.explain({ promptTokens: 1, at: utc(...FRIDAY, 12, 0) }).overrides[0]?.conditions).toEqual([
      { condition: 'utc_days', holds: true, days: ['friday'], utcDay: 'friday', text: expect.any(String) },
    ])
  })
})

// decisions/0008 and the README: the uncompiled functions memoize a pricing by identity and
// deep-freeze it, so the memo can never serve a stale price; compilePricing never freezes.
describe('the uncompiled functions on a pricing object they have seen', () => {
  it('deep-freeze it, so an in-place change throws a TypeError instead of leaving a stale price', () => {
    const days: PricingOverride['utc_days'] = ['friday']
    const override: PricingOverride = { min_prompt_tokens: 100, utc_days: days, prompt: '0.3' }
    const overrides = [override]
    const pricing: Pricing = { prompt: '0.1', completion: '0.2', overrides }
    const request = { promptTokens: 101, at: utc(...FRIDAY, 12, 0) }
    expect(resolvePricing(pricing, request)).toEqual({ prompt: '0.3', completion: '0.2' })
    expect(Object.isFrozen(pricing)).toBe(true)
    // A changed top-level price, a change nested inside an override, a changed weekday, added keys
    // at either level, an added override and a removed key all throw at the change.
    expect(() => {
      pricing.prompt = '0.5'
    }).toThrow(TypeError)
    expect(() => {
      override.prompt = '0.4'
    }).toThrow(TypeError)
    expect(() => {
      days[0] = 'saturday'
    }).toThrow(TypeError)
    expect(() => {
      pricing.input_cache_read = '0.01'
    }).toThrow(TypeError)
    expect(() => {
      override.completion = '0.9'
    }).toThrow(TypeError)
    expect(() => overrides.push({ prompt: '0.9' })).toThrow(TypeError)
    expect(() => {
      delete pricing.overrides
    }).toThrow(TypeError)
    // Nothing changed, so the same prices still come back.
    expect(resolvePricing(pricing, request)).toEqual({ prompt: '0.3', completion: '0.2' })
    // 101 x 0.3 = 30.3, plus no completion tokens.
    expect(estimateCost(pricing, { promptTokens: 101 }, request)).toBe('30.3')
  })

  it('freeze it on the first call of explainPricing or estimateCost as well', () => {
    const explained: Pricing = { prompt: '0.1', completion: '0.2', overrides: [{ prompt: '0.3' }] }
    explainPricing(explained, { promptTokens: 1, at: NOON })
    expect(Object.isFrozen(explained)).toBe(true)
    expect(Object.isFrozen(explained.overrides?.[0])).toBe(true)
    const costed: Pricing = { prompt: '0.1', completion: '0.2' }
    estimateCost(costed, {}, { at: NOON })
    expect(Object.isFrozen(costed)).toBe(true)
  })

  it('price a spread copy with a change anew, leaving the original’s prices alone', () => {
    const override: PricingOverride = { min_prompt_tokens: 100, prompt: '0.3' }
    const pricing: Pricing = { prompt: '0.1', completion: '0.2', overrides: [override] }
    const request = { promptTokens: 101, at: NOON }
    expect(resolvePricing(pricing, request).prompt).toBe('0.3')
    expect(resolvePricing({ ...pricing, overrides: [{ ...override, prompt: '0.4' }] }, request).prompt).toBe('0.4')
    expect(resolvePricing({ ...pricing, overrides: [{ ...override, min_prompt_tokens: 200 }] }, request).prompt).toBe('0.1')
    expect(resolvePricing({ ...pricing, input_cache_read: '0.01' }, request)).toEqual({ prompt: '0.3', completion: '0.2', input_cache_read: '0.01' })
    expect(resolvePricing(pricing, request)).toEqual({ prompt: '0.3', completion: '0.2' })
  })

  it('leave an invalid pricing unfrozen, so it can be fixed in place', () => {
    const pricing: Pricing = { prompt: '-0.1', completion: '0.2' }
    expect(pricingErrorOf(() => resolvePricing(pricing, { promptTokens: 1, at: NOON })).issues.map((i) => i.path)).toEqual(['prompt'])
    expect(Object.isFrozen(pricing)).toBe(false)
    pricing.prompt = '0.1'
    expect(resolvePricing(pricing, { promptTokens: 1, at: NOON }).prompt).toBe('0.1')
  })

  it('work on a pricing the caller deep-froze', () => {
    const pricing = deepFreeze<Pricing>({
      prompt: '0.00000028',
      completion: '0.00000084',
      overrides: [
        { utc_start: 30, utc_end: 1630, prompt: '0.00000056' },
        { utc_start: 1630, utc_end: 30, utc_days: ['saturday', 'sunday'], prompt: '0.00000014' },
      ],
    })
    // Monday 12:00 is peak; Monday 20:00 is off-peak but not a weekend day, so the base stands; Sunday 20:00 is off-peak.
    expect(resolvePricing(pricing, { promptTokens: 1, at: utc(...MONDAY, 12, 0) }).prompt).toBe('0.00000056')
    expect(resolvePricing(pricing, { promptTokens: 1, at: utc(...MONDAY, 20, 0) }).prompt).toBe('0.00000028')
    expect(resolvePricing(pricing, { promptTokens: 1, at: utc(...SUNDAY, 20, 0) }).prompt).toBe('0.00000014')
    // 1000 x 0.00000014 + 1000 x 0.00000084 = 0.00014 + 0.00084 = 0.00098.
    expect(estimateCost(pricing, { promptTokens: 1000, completionTokens: 1000 }, { at: utc(...SUNDAY, 20, 0) })).toBe('0.00098')
    expect(explainPricing(pricing, { promptTokens: 1, at: utc(...SUNDAY, 20, 0) }).prices.prompt?.from).toBe('overrides[1]')
  })
})

describe('the default world’s endpoint pricing', () => {
  it('compiles for every endpoint, and every set of time windows covers each minute of the day exactly once', () => {
    const endpoints = createSimulator().models.list().flatMap((model) => model.endpoints)
    const windowed = endpoints.filter((e) => (e.pricing.overrides ?? []).some((o) => o.utc_start !== undefined || o.utc_end !== undefined))
    expect(windowed.length).toBeGreaterThan(0)
    for (const endpoint of endpoints) expect(() => compilePricing(endpoint.pricing), endpoint.name).not.toThrow()
    for (const endpoint of windowed) {
      const compiled = compilePricing(endpoint.pricing)
      for (let minute = 0; minute < 1440; minute++) {
        const applying = compiled.explain({ promptTokens: 0, at: NOON - 12 * 3_600_000 + minute * 60_000 }).overrides.filter((o) => o.applies)
        expect(applying.length, `${endpoint.name} at minute ${minute}`).toBe(1)
      }
    }
  })
})
