import type { PricingIssue } from './validate.js'

/** Which argument of a pricing function a {@link PricingError} is about. */
export type PricingArgument = 'pricing' | 'request' | 'usage'

function describe(issue: PricingIssue): string {
  return issue.path === '' ? issue.message : `${issue.path} ${issue.message}`
}

/**
 * Thrown by `compilePricing`, `resolvePricing`, `explainPricing` and `estimateCost` when an argument
 * is invalid. `argument` names the argument and `issues` lists every problem found in it, each with a
 * path relative to that argument (the same issues `validatePricing` returns, for a pricing).
 *
 * @example
 * import { PricingError, resolvePricing } from 'model-access-sim/pricing'
 * try {
 *   resolvePricing({ prompt: '-1', completion: '0.000002' }, { promptTokens: 10, at: 0 })
 * } catch (error) {
 *   if (error instanceof PricingError) console.log(error.argument, error.issues[0]?.path)
 *   console.log(error instanceof Error ? error.message : error)
 * }
 * //=> pricing prompt
 * //=> resolvePricing: invalid pricing: prompt must not be negative, got "-1"
 */
export class PricingError extends Error {
  override readonly name = 'PricingError'
  readonly argument: PricingArgument
  readonly issues: readonly PricingIssue[]

  constructor(operation: string, argument: PricingArgument, issues: readonly PricingIssue[]) {
    super(`${operation}: invalid ${argument}: ${issues.map(describe).join('; ')}`)
    this.argument = argument
    this.issues = Object.freeze(issues.map((issue) => Object.freeze({ ...issue })))
  }
}
