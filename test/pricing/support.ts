// Helpers shared by the pricing tests.
import { PricingError } from '../../src/pricing/index.js'

/** The PricingError `fn` throws; any other error is thrown again, and nothing thrown fails. */
export function pricingErrorOf(fn: () => unknown): PricingError {
  try {
    fn()
  } catch (error) {
    if (error instanceof PricingError) return error
    throw error
  }
  throw new Error('expected a PricingError, but nothing was thrown')
}
