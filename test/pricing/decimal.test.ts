// The scaled-decimal helpers of the pricing engine, called directly. Their results through the
// public functions are in examples.test.ts and cost-exact.test.ts; these are the cases the public
// functions reach only through a formatted explanation: every notation of a discount, and formatDecimal.
import { describe, expect, it } from 'vitest'
import { formatDecimal, formatUnits, parseDiscount } from '../../src/core/pricing/decimal.js'

describe('parseDiscount', () => {
  it('reads negative exponents and plain notation as the decimal they show', () => {
    expect(parseDiscount(1e-7)).toEqual({ units: 1n, scale: 7 })
    expect(parseDiscount(1.5e-7)).toEqual({ units: 15n, scale: 8 })
    expect(parseDiscount(0.1)).toEqual({ units: 1n, scale: 1 })
    expect(parseDiscount(1)).toEqual({ units: 1n, scale: 0 })
  })
})

describe('formatDecimal', () => {
  it('writes plain notation without trailing zeros, and "0" for zero', () => {
    expect(formatDecimal({ units: 1200n, scale: 3 })).toBe('1.2')
    expect(formatDecimal({ units: 5n, scale: 8 })).toBe('0.00000005')
    expect(formatDecimal({ units: 1000n, scale: 0 })).toBe('1000')
    expect(formatDecimal({ units: 1000n, scale: 2 })).toBe('10')
    expect(formatDecimal({ units: 0n, scale: 5 })).toBe('0')
  })
})

describe('formatUnits', () => {
  it('keeps the zeros of the whole part once the fraction is gone', () => {
    expect(formatUnits(100, 0)).toBe('100')
    expect(formatUnits(1000, 2)).toBe('10')
    expect(formatUnits(0, 3)).toBe('0')
  })
})
