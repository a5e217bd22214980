// The exact lines explainPricing writes (its `text`, and the `text` of each override and condition):
// the thing a person reads when a price surprises them. Every expected line below is written out by
// hand from the format documented on PricingExplanation: a header, one line per override, one line
// per price key in PRICE_KEYS order, then the discount when there is one.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { pricing as pricingArb, requestContext } from '../../src/arbitraries/index.js'
import { compilePricing, explainPricing } from '../../src/pricing/index.js'
import type { Pricing } from '../../src/pricing/index.js'
import { runs } from '../support/runs.js'

/** Epoch milliseconds of a UTC date and time; `month` is 1-based, unlike Date.UTC. */
function utc(year: number, month: number, day: number, hour = 0, minute = 0, second = 0, ms = 0): number {
  return Date.UTC(year, month - 1, day, hour, minute, second, ms)
}

// March 2026: the 6th is a Friday (checked below), the 7th a Saturday, the 9th a Monday.
const FRIDAY = [2026, 3, 6] as const
const SATURDAY = [2026, 3, 7] as const
const MONDAY = [2026, 3, 9] as const

/** The lines of an explanation's text. */
function linesOf(pricing: Pricing, promptTokens: number, at: number | Date): string[] {
  return explainPricing(pricing, { promptTokens, at }).text.split('\n')
}

describe('the explanation text of a pricing with three overrides', () => {
  const pricing: Pricing = {
    prompt: '0.000002',
    completion: '0.000008',
    overrides: [
      { min_prompt_tokens: 1000, utc_start: 2200, utc_end: 200, utc_days: ['friday'], prompt: '0.000001', input_cache_read: '0.0000001' },
      { min_prompt_tokens: 500, prompt: '0.0000015' },
      { utc_start: 900, completion: '0.000009' },
    ],
  }

  it('uses dates whose UTC weekdays are what the tests say', () => {
    expect(new Date(utc(...FRIDAY)).getUTCDay()).toBe(5)
    expect(new Date(utc(...SATURDAY)).getUTCDay()).toBe(6)
    expect(new Date(utc(...MONDAY)).getUTCDay()).toBe(1)
  })

  it('gives every reason an applying override applies, and who won each key, on Friday 23:00', () => {
    const explanation = explainPricing(pricing, { promptTokens: 1500, at: utc(...FRIDAY, 23, 0) })
    const expected = [
      '1500 prompt tokens at 2026-03-06T23:00:00.000Z (friday 23:00 UTC)',
      'overrides[0] applies: 1500 prompt tokens is more than min_prompt_tokens 1000; 23:00 UTC is inside the window [22:00, 02:00), which wraps past midnight; friday (UTC) is one of utc_days [friday]',
      'overrides[1] applies: 1500 prompt tokens is more than min_prompt_tokens 500',
      'overrides[2] applies: 23:00 UTC is inside the window [09:00, 24:00)',
      // prompt: overrides[1] is later than overrides[0], which also applies and sets prompt.
      'prompt = "0.0000015" from overrides[1] (base "0.000002"; outranks overrides[0])',
      'completion = "0.000009" from overrides[2] (base "0.000008")',
      // The base has no input_cache_read; only overrides[0] sets it.
      'input_cache_read = "0.0000001" from overrides[0] (no base price)',
    ]
    expect(explanation.text).toBe(expected.join('\n'))
    expect(explanation.overrides.map((o) => o.text)).toEqual(expected.slice(1, 4))
  })

  it('gives only the failing conditions of an override that does not apply, on Saturday 01:00', () => {
    // overrides[0]: 1500 > 1000 and 01:00 is inside the wrapped window, but saturday is not friday.
    expect(linesOf(pricing, 1500, utc(...SATURDAY, 1, 0))).toEqual([
      '1500 prompt tokens at 2026-03-07T01:00:00.000Z (saturday 01:00 UTC)',
      'overrides[0] does not apply: saturday (UTC) is not one of utc_days [friday]',
      'overrides[1] applies: 1500 prompt tokens is more than min_prompt_tokens 500',
      'overrides[2] does not apply: 01:00 UTC is outside the window [09:00, 24:00)',
      'prompt = "0.0000015" from overrides[1] (base "0.000002")',
      'completion = "0.000008" from base',
    ])
  })

  it('gives every failing condition, joined by semicolons, when nothing applies, on Monday 08:00', () => {
    expect(linesOf(pricing, 500, utc(...MONDAY, 8, 0))).toEqual([
      '500 prompt tokens at 2026-03-09T08:00:00.000Z (monday 08:00 UTC)',
      'overrides[0] does not apply: 500 prompt tokens is not more than min_prompt_tokens 1000; 08:00 UTC is outside the window [22:00, 02:00), which wraps past midnight; monday (UTC) is not one of utc_days [friday]',
      'overrides[1] does not apply: 500 prompt tokens is not more than min_prompt_tokens 500',
      'overrides[2] does not apply: 08:00 UTC is outside the window [09:00, 24:00)',
      'prompt = "0.000002" from base',
      'completion = "0.000008" from base',
    ])
  })

  it('writes the text of each condition, held or not', () => {
    const holding = explainPricing(pricing, { promptTokens: 1500, at: utc(...FRIDAY, 23, 0) }).overrides[0]?.conditions.map((c) => c.text)
    expect(holding).toEqual([
      '1500 prompt tokens is more than min_prompt_tokens 1000',
      '23:00 UTC is inside the window [22:00, 02:00), which wraps past midnight',
      'friday (UTC) is one of utc_days [friday]',
    ])
    const failing = explainPricing(pricing, { promptTokens: 1000, at: utc(...SATURDAY, 2, 0) }).overrides[0]?.conditions.map((c) => c.text)
    // 02:00 is the exclusive end of [22:00, 02:00).
    expect(failing).toEqual([
      '1000 prompt tokens is not more than min_prompt_tokens 1000',
      '02:00 UTC is outside the window [22:00, 02:00), which wraps past midnight',
      'saturday (UTC) is not one of utc_days [friday]',
    ])
  })
})

describe('condition texts', () => {
  const base = { prompt: '0.1', completion: '0.2' }

  it('writes window bounds as HH:MM, padding single-digit hours and minutes and filling in a missing side', () => {
    const pricing: Pricing = {
      ...base,
      overrides: [{ utc_start: 905, utc_end: 1007, prompt: '0.3' }, { utc_end: 600, prompt: '0.4' }, { utc_start: 2359, completion: '0.5' }],
    }
    const explanation = explainPricing(pricing, { promptTokens: 1, at: utc(...MONDAY, 9, 5) })
    expect(explanation.overrides.map((o) => o.text)).toEqual([
      'overrides[0] applies: 09:05 UTC is inside the window [09:05, 10:07)',
      // No utc_start: the window starts at 00:00.
      'overrides[1] does not apply: 09:05 UTC is outside the window [00:00, 06:00)',
      // No utc_end: the window runs until 24:00.
      'overrides[2] does not apply: 09:05 UTC is outside the window [23:59, 24:00)',
    ])
  })

  it('writes a window of minutes past midnight, 00:30 to 00:01, as wrapping', () => {
    const pricing: Pricing = { ...base, overrides: [{ utc_start: 30, utc_end: 1, prompt: '0.3' }] }
    expect(explainPricing(pricing, { promptTokens: 1, at: utc(...MONDAY, 0, 0) }).overrides[0]?.text).toBe(
      'overrides[0] applies: 00:00 UTC is inside the window [00:30, 00:01), which wraps past midnight',
    )
    expect(explainPricing(pricing, { promptTokens: 1, at: utc(...MONDAY, 0, 1) }).overrides[0]?.text).toBe(
      'overrides[0] does not apply: 00:01 UTC is outside the window [00:30, 00:01), which wraps past midnight',
    )
  })

  it('lists every day of utc_days, separated by commas, whether the day is among them or not', () => {
    const pricing: Pricing = { ...base, overrides: [{ utc_days: ['saturday', 'sunday'], prompt: '0.3' }] }
    expect(explainPricing(pricing, { promptTokens: 1, at: utc(...SATURDAY, 12, 0) }).overrides[0]?.text).toBe(
      'overrides[0] applies: saturday (UTC) is one of utc_days [saturday, sunday]',
    )
    expect(explainPricing(pricing, { promptTokens: 1, at: utc(...FRIDAY, 12, 0) }).overrides[0]?.text).toBe(
      'overrides[0] does not apply: friday (UTC) is not one of utc_days [saturday, sunday]',
    )
  })

  it('writes "1 prompt token" in the singular and every other count in the plural', () => {
    const pricing: Pricing = { ...base, overrides: [{ min_prompt_tokens: 0, prompt: '0.3' }] }
    const at = utc(...MONDAY, 12, 0)
    expect(explainPricing(pricing, { promptTokens: 1, at }).overrides[0]?.text).toBe('overrides[0] applies: 1 prompt token is more than min_prompt_tokens 0')
    expect(explainPricing(pricing, { promptTokens: 0, at }).overrides[0]?.text).toBe('overrides[0] does not apply: 0 prompt tokens is not more than min_prompt_tokens 0')
    expect(linesOf(pricing, 2, at)[0]).toBe('2 prompt tokens at 2026-03-09T12:00:00.000Z (monday 12:00 UTC)')
  })

  it('says so when an override has no conditions', () => {
    const explanation = explainPricing({ ...base, overrides: [{ prompt: '0.3' }] }, { promptTokens: 0, at: utc(...MONDAY, 12, 0) })
    expect(explanation.overrides[0]?.text).toBe('overrides[0] applies: it has no conditions')
    expect(explanation.text).toBe(
      ['0 prompt tokens at 2026-03-09T12:00:00.000Z (monday 12:00 UTC)', 'overrides[0] applies: it has no conditions', 'prompt = "0.3" from overrides[0] (base "0.1")', 'completion = "0.2" from base'].join('\n'),
    )
  })
})

describe('price lines', () => {
  it('lists every earlier applicable override a winner outranked, separated by commas', () => {
    const pricing: Pricing = { prompt: '0.1', completion: '0.2', overrides: [{ prompt: '0.3' }, { prompt: '0.4', completion: '0.5' }, { prompt: '0.6' }] }
    expect(linesOf(pricing, 1, utc(...MONDAY, 12, 0)).slice(4)).toEqual([
      'prompt = "0.6" from overrides[2] (base "0.1"; outranks overrides[0], overrides[1])',
      'completion = "0.5" from overrides[1] (base "0.2")',
    ])
  })

  it('leaves out overrides that do not apply from the outranked ones', () => {
    const pricing: Pricing = { prompt: '0.1', completion: '0.2', overrides: [{ prompt: '0.3' }, { min_prompt_tokens: 10, prompt: '0.4' }, { prompt: '0.6' }] }
    expect(linesOf(pricing, 10, utc(...MONDAY, 12, 0))[4]).toBe('prompt = "0.6" from overrides[2] (base "0.1"; outranks overrides[0])')
  })

  it('writes base prices in PRICE_KEYS order with no notes, quoting each value as written', () => {
    const pricing: Pricing = { web_search: '0.004', input_cache_read: '0.00', completion: '0.0000010', prompt: '0.000000280', request: '0' }
    expect(linesOf(pricing, 7, utc(...MONDAY, 12, 0))).toEqual([
      '7 prompt tokens at 2026-03-09T12:00:00.000Z (monday 12:00 UTC)',
      'prompt = "0.000000280" from base',
      'completion = "0.0000010" from base',
      'request = "0" from base',
      'input_cache_read = "0.00" from base',
      'web_search = "0.004" from base',
    ])
  })
})

describe('the header line', () => {
  const pricing: Pricing = { prompt: '0.1', completion: '0.2' }

  it('gives the instant to the millisecond, and the UTC day and time at minute resolution', () => {
    expect(linesOf(pricing, 42, utc(...MONDAY, 10, 29, 59, 999))).toEqual([
      '42 prompt tokens at 2026-03-09T10:29:59.999Z (monday 10:29 UTC)',
      'prompt = "0.1" from base',
      'completion = "0.2" from base',
    ])
  })

  it('reads an instant before 1970 and a Date the same way', () => {
    expect(linesOf(pricing, 1, -1)[0]).toBe('1 prompt token at 1969-12-31T23:59:59.999Z (wednesday 23:59 UTC)')
    expect(linesOf(pricing, 1, new Date('2026-03-07T00:00:00Z'))[0]).toBe('1 prompt token at 2026-03-07T00:00:00.000Z (saturday 00:00 UTC)')
  })
})

describe('the discount line', () => {
  const at = utc(...MONDAY, 12, 0)

  it('says by how much every price is multiplied when costing', () => {
    // 1 - 0.1 = 0.9; 1 - 0.25 = 0.75; 1 - 1 = 0.
    expect(linesOf({ prompt: '0.1', completion: '0.2', discount: 0.1 }, 1, at)).toEqual([
      '1 prompt token at 2026-03-09T12:00:00.000Z (monday 12:00 UTC)',
      'prompt = "0.1" from base',
      'completion = "0.2" from base',
      'discount 0.1: every price is multiplied by 0.9 when costing',
    ])
    expect(linesOf({ prompt: '0.1', completion: '0.2', discount: 0.25 }, 1, at).at(-1)).toBe('discount 0.25: every price is multiplied by 0.75 when costing')
    expect(linesOf({ prompt: '0.1', completion: '0.2', discount: 1 }, 1, at).at(-1)).toBe('discount 1: every price is multiplied by 0 when costing')
    // A discount small enough that String() writes it with an exponent is still shown in plain notation.
    expect(String(1e-7)).toBe('1e-7')
    expect(linesOf({ prompt: '0.1', completion: '0.2', discount: 1e-7 }, 1, at).at(-1)).toBe(
      'discount 0.0000001: every price is multiplied by 0.9999999 when costing',
    )
  })

  it('comes after the overrides and price lines', () => {
    const pricing: Pricing = { prompt: '0.1', completion: '0.2', discount: 0.5, overrides: [{ prompt: '0.3' }] }
    expect(linesOf(pricing, 1, at)).toEqual([
      '1 prompt token at 2026-03-09T12:00:00.000Z (monday 12:00 UTC)',
      'overrides[0] applies: it has no conditions',
      'prompt = "0.3" from overrides[0] (base "0.1")',
      'completion = "0.2" from base',
      'discount 0.5: every price is multiplied by 0.5 when costing',
    ])
  })

  it('is absent without a discount and with a discount of 0', () => {
    const without = explainPricing({ prompt: '0.1', completion: '0.2' }, { promptTokens: 1, at })
    expect(without.discount).toBe(0)
    expect(without.text).toBe('1 prompt token at 2026-03-09T12:00:00.000Z (monday 12:00 UTC)\nprompt = "0.1" from base\ncompletion = "0.2" from base')
    const zero = explainPricing({ prompt: '0.1', completion: '0.2', discount: 0 }, { promptTokens: 1, at })
    expect(zero.discount).toBe(0)
    expect(zero.text).toBe(without.text)
  })
})

describe('explanation texts for generated pricings', () => {
  // fast-check prints the seed and path of a failing run; pass them back as { seed, path } to replay it.
  const settings = { verbose: true, numRuns: runs(150) }

  it('have one line per override, one per price, and one for a non-zero discount, after the header', () => {
    fc.assert(
      fc.property(pricingArb(), requestContext(), (pricing, request) => {
        const explanation = compilePricing(pricing).explain(request)
        const lines = explanation.text.split('\n')
        const priceCount = Object.keys(explanation.prices).length
        const discountLines = explanation.discount === 0 ? 0 : 1
        expect(lines).toHaveLength(1 + explanation.overrides.length + priceCount + discountLines)
        expect(lines.slice(1, 1 + explanation.overrides.length)).toEqual(explanation.overrides.map((o) => o.text))
        for (const [i, [key, price]] of Object.entries(explanation.prices).entries()) {
          expect(lines[1 + explanation.overrides.length + i]?.startsWith(`${key} = "${price.value}" from ${price.from}`)).toBe(true)
        }
      }),
      settings,
    )
  })

  it('explain an override that does not apply by exactly the conditions that fail', () => {
    fc.assert(
      fc.property(pricingArb(), requestContext(), (pricing, request) => {
        for (const override of compilePricing(pricing).explain(request).overrides) {
          const failing = override.conditions.filter((c) => !c.holds)
          if (override.applies) {
            expect(failing).toEqual([])
            continue
          }
          expect(failing.length).toBeGreaterThan(0)
          expect(override.text).toBe(`${override.path} does not apply: ${failing.map((c) => c.text).join('; ')}`)
        }
      }),
      settings,
    )
  })
})
