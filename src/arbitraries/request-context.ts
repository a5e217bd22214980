import fc from 'fast-check'
import { fieldsOf } from '../core/store/check.js'
import type { PricingRequest } from '../core/pricing/compile.js'
import { countRange, invalidConstraint, checkConstraints } from './internal/constraints.js'
import { instantMs, instantRange } from './internal/instant.js'

/** The constraints this arbitrary takes; any other is refused. */
export const REQUEST_CONTEXT_CONSTRAINT_NAMES = fieldsOf<RequestContextConstraints>({ minPromptTokens: true, maxPromptTokens: true, minAt: true, maxAt: true, atType: true })

/** How `at` is given: epoch milliseconds, a Date, or either (the pricing engine takes both). */
export type RequestInstantType = 'number' | 'date' | 'any'

/** Options of {@link requestContext}. */
export interface RequestContextConstraints {
  /** Fewest prompt tokens; default 0. */
  minPromptTokens?: number | undefined
  /** Most prompt tokens; default 300000 (or `minPromptTokens`, when that is larger). */
  maxPromptTokens?: number | undefined
  /** Earliest instant; default four years before 2026-03-02 (or `maxAt`, when that is earlier). */
  minAt?: Date | number | undefined
  /** Latest instant; default four years after 2026-03-02 (or `minAt`, when that is later). */
  maxAt?: Date | number | undefined
  /** How `at` is given; default `'any'`. */
  atType?: RequestInstantType | undefined
}

/** Prompt-token counts one either side of the thresholds real endpoints use. */
const TOKEN_EDGES = [0, 1, 999, 1000, 1001, 127999, 128000, 128001, 199999, 200000, 200001] as const
const AT_TYPES: readonly RequestInstantType[] = ['number', 'date', 'any']

/**
 * Arbitrary pricing request `{ promptTokens, at }`, as `resolvePricing`, `explainPricing` and
 * `compilePricing(...).resolve` take it. Biased toward prompt tokens one either side of 1000,
 * 128000 and 200000 (and 0 and 1), and toward instants on minute edges of the UTC day (00:00, 23:59,
 * 00:30, 16:30, 02:00, 22:00) on their first or last millisecond. Instants are drawn around Monday
 * 2026-03-02 and shrink toward its midnight.
 *
 * @example
 * import fc from 'fast-check'
 * import { requestContext } from 'model-access-sim/arbitraries'
 * const minAt = Date.UTC(2026, 2, 2)
 * const maxAt = Date.UTC(2026, 2, 3) - 1
 * const requests = fc.sample(requestContext({ minAt, maxAt, maxPromptTokens: 1000, atType: 'date' }), { seed: 1, numRuns: 100 })
 * console.log(requests.every(({ promptTokens, at }) => promptTokens <= 1000 && at.getUTCDate() === 2))
 * //=> true
 */
export function requestContext(constraints: RequestContextConstraints & { atType: 'number' }): fc.Arbitrary<PricingRequest & { at: number }>
export function requestContext(constraints: RequestContextConstraints & { atType: 'date' }): fc.Arbitrary<PricingRequest & { at: Date }>
export function requestContext(constraints?: RequestContextConstraints): fc.Arbitrary<PricingRequest>
export function requestContext(constraints: RequestContextConstraints = {}): fc.Arbitrary<PricingRequest> {
  checkConstraints('requestContext', constraints, REQUEST_CONTEXT_CONSTRAINT_NAMES)
  const [minTokens, maxTokens] = countRange('requestContext', ['minPromptTokens', 'maxPromptTokens'], [constraints.minPromptTokens, constraints.maxPromptTokens], [0, 300_000])
  const atType = constraints.atType ?? 'any'
  if (!AT_TYPES.includes(atType)) {
    throw invalidConstraint('requestContext', 'atType', `atType must be one of ${AT_TYPES.join(', ')}, got ${JSON.stringify(atType)}`, `pass atType: 'number', 'date' or 'any'`)
  }
  const ms = instantMs(instantRange('requestContext', ['minAt', 'maxAt'], constraints.minAt, constraints.maxAt))
  const edges = TOKEN_EDGES.filter((n) => n >= minTokens && n <= maxTokens)
  const anyTokens = fc.integer({ min: minTokens, max: maxTokens })
  const promptTokens = edges.length > 0 ? fc.oneof(fc.constantFrom(...edges), anyTokens) : anyTokens
  const date = ms.map((t) => new Date(t))
  const at: fc.Arbitrary<number | Date> = atType === 'number' ? ms : atType === 'date' ? date : fc.oneof(ms, date)
  return fc.record({ promptTokens, at }, { noNullPrototype: true })
}
