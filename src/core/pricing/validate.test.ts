import { describe, expect, it } from 'vitest'
import { validatePricing } from './validate.js'

const base = { prompt: '0.000001', completion: '0.000002' }

describe('validatePricing', () => {
  it('accepts the real service’s peak/off-peak tiling and long-context tiers', () => {
    expect(validatePricing({ ...base, overrides: [{ utc_start: 30, utc_end: 1630, prompt: '0.00000028' }, { utc_start: 1630, utc_end: 30, prompt: '0.00000014' }] })).toEqual([])
    expect(validatePricing({ ...base, discount: 0.1, overrides: [{ min_prompt_tokens: 200000, prompt: '0.000002', input_cache_write_1h: '0.000006' }] })).toEqual([])
    expect(validatePricing({ ...base, overrides: [{ utc_end: 2400, utc_days: ['saturday', 'sunday'] }, { utc_start: 2359 }, {}] })).toEqual([])
  })

  it.each([
    [{ completion: '0' }, 'prompt', 'is required'],
    [{ ...base, prompt: '1e-6' }, 'prompt', 'without an exponent'],
    [{ ...base, prompt: '-0.1' }, 'prompt', 'must not be negative'],
    [{ ...base, prompt: '.5' }, 'prompt', 'decimal string'],
    [{ ...base, prompt: 0.5 }, 'prompt', 'decimal string'],
    [{ ...base, image: '1.' }, 'image', 'decimal string'],
    [{ ...base, discount: 1.5 }, 'discount', 'in [0, 1]'],
    [{ ...base, discount: -0.1 }, 'discount', 'in [0, 1]'],
    [{ ...base, overrides: null }, 'overrides', 'never null'],
    [{ ...base, tier: 'x' }, 'tier', 'is not a pricing key'],
    [{ ...base, overrides: [{}, { utc_start: 2400 }] }, 'overrides[1].utc_start', '0000..2359'],
    [{ ...base, overrides: [{ utc_end: 1260 }] }, 'overrides[0].utc_end', 'minutes below 60'],
    [{ ...base, overrides: [{ utc_start: 1000, utc_end: 1000 }] }, 'overrides[0].utc_end', 'must differ from utc_start'],
    [{ ...base, overrides: [{ utc_end: 0 }] }, 'overrides[0].utc_end', 'must differ from utc_start (0000)'],
    [{ ...base, overrides: [{ utc_start: 9.5 }] }, 'overrides[0].utc_start', 'HHMM'],
    [{ ...base, overrides: [{ utc_days: [] }] }, 'overrides[0].utc_days', 'non-empty'],
    [{ ...base, overrides: [{ utc_days: ['Monday'] }] }, 'overrides[0].utc_days[0]', 'must be one of monday'],
    [{ ...base, overrides: [{ min_prompt_tokens: -1 }] }, 'overrides[0].min_prompt_tokens', 'non-negative'],
    [{ ...base, overrides: [{ request: '0.1' }] }, 'overrides[0].request', 'cannot be overridden'],
    [{ ...base, overrides: [{ when: 'night' }] }, 'overrides[0].when', 'not a price key or condition'],
    [{ ...base, overrides: [{ prompt: '1E3' }] }, 'overrides[0].prompt', 'exponent'],
  ])('reports %j at %s', (pricing, path, message) => {
    const issues = validatePricing(pricing)
    expect(issues.map((i) => i.path)).toContain(path)
    expect(issues.find((i) => i.path === path)?.message).toContain(message)
  })

  it('reports every problem, not just the first', () => {
    const issues = validatePricing({ prompt: '1e-6', completion: '-1', discount: 2, overrides: [{ utc_start: 2500, utc_days: ['noday'] }] })
    expect(issues.map((i) => i.path)).toEqual(['prompt', 'completion', 'discount', 'overrides[0].utc_start', 'overrides[0].utc_days[0]'])
  })

  it('never throws, whatever it is given', () => {
    for (const value of [null, undefined, 42, 'x', [], { overrides: [null, 1, 'x'] }]) {
      expect(() => validatePricing(value)).not.toThrow()
      expect(validatePricing(value).length).toBeGreaterThan(0)
    }
  })
})
