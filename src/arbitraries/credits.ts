import fc from 'fast-check'
import { fieldsOf } from '../core/store/check.js'
import type { Credits } from '../core/types.js'
import { toUsd } from '../core/usage.js'
import { checkConstraints } from './internal/constraints.js'

/** The constraints {@link credits} takes; any other is refused. */
export const CREDITS_CONSTRAINT_NAMES = fieldsOf<CreditsConstraints>({ overspent: true })

/** Options of {@link credits}. */
export interface CreditsConstraints {
  /**
   * Whether `total_usage` may exceed `total_credits` (usage settled after the balance ran out, or
   * BYOK fees); default false: the usage is at most what was bought.
   */
  overspent?: boolean | undefined
}

/** Integers of 10^-10 USD in one micro-dollar. */
const MICRO = 10_000

/**
 * Arbitrary `data` of `GET /credits` the official SDK parses: `total_credits` bought (whole cents,
 * up to a million USD) and `total_usage` spent (whole micro-dollars), by default at most what was
 * bought. Biased toward a new account (0 and 0), nothing spent, and everything spent.
 *
 * @example
 * import fc from 'fast-check'
 * import { credits } from 'model-access-sim/arbitraries'
 * const samples = fc.sample(credits(), { seed: 4, numRuns: 20 })
 * console.log(samples.every((c) => c.total_usage <= c.total_credits))
 * //=> true
 */
export function credits(constraints: CreditsConstraints = {}): fc.Arbitrary<Credits> {
  checkConstraints('credits', constraints, CREDITS_CONSTRAINT_NAMES)
  const cents = fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 100_000_000 }))
  const share = fc.oneof(fc.constant(0), fc.constant(1), fc.double({ min: 0, max: constraints.overspent === true ? 2 : 1, noNaN: true }))
  return fc.record({ cents, share }).map(({ cents, share }): Credits => {
    const micros = Math.floor(cents * 10_000 * share)
    return { total_credits: cents / 100, total_usage: toUsd(micros * MICRO) }
  })
}
