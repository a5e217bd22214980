import fc from 'fast-check'
import type { WorkspaceBudget } from '../core/store/budgets.js'
import { fieldsOf } from '../core/store/check.js'
import { formatTimestamp } from '../core/time.js'
import { MAX_EXACT_USD } from '../core/usage.js'
import { uuid } from './internal/ids.js'
import { type CreatedAtConstraints, after, createdAtMs, laterBy } from './internal/instant.js'

/** Options of {@link workspaceBudget}. */
export type WorkspaceBudgetConstraints = CreatedAtConstraints
export const BUDGET_CONSTRAINT_NAMES = fieldsOf<WorkspaceBudgetConstraints>({ minCreatedAt: true, maxCreatedAt: true })

/** A limit above 0: a cent, round amounts, the largest exact one, or any number of cents. */
const limitUsd = fc.oneof(fc.constantFrom(0.01, 1, 25, 100, MAX_EXACT_USD), fc.integer({ min: 1, max: MAX_EXACT_USD * 100 }).map((cents) => cents / 100))

/**
 * Arbitrary workspace budget as `GET /workspaces/{id}/budgets/{interval}` returns it (`data`,
 * decisions/0052), one the official SDK parses and the simulator would answer: version 4 UUIDs for
 * the budget and its workspace, a daily, weekly or monthly `reset_interval` or null (lifetime), a
 * limit above 0 (a cent, round amounts, the largest the simulator keeps exactly), and `updated_at`
 * at or after `created_at`. Shrinks toward a daily budget of one cent never changed.
 *
 * @example
 * import fc from 'fast-check'
 * import { workspaceBudget } from 'model-access-sim/arbitraries'
 * const budgets = fc.sample(workspaceBudget(), { seed: 1, numRuns: 100 })
 * console.log(budgets.every((b) => b.limit_usd > 0 && b.updated_at >= b.created_at))
 * //=> true
 */
export function workspaceBudget(constraints: WorkspaceBudgetConstraints = {}): fc.Arbitrary<WorkspaceBudget> {
  const created = createdAtMs('workspaceBudget', constraints, BUDGET_CONSTRAINT_NAMES)
  return fc
    .record({
      id: uuid,
      workspace_id: uuid,
      limit_usd: limitUsd,
      reset_interval: fc.constantFrom('daily', 'weekly', 'monthly', null) as fc.Arbitrary<WorkspaceBudget['reset_interval']>,
      createdAt: created,
      updatedAfter: laterBy,
    })
    .map(({ createdAt, updatedAfter, ...budget }): WorkspaceBudget => ({
      ...budget,
      created_at: formatTimestamp(createdAt),
      updated_at: formatTimestamp(after(createdAt, updatedAfter)),
    }))
}
