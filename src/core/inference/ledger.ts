// The money path's view of an organisation's credits (decisions/0021, decisions/0024). What an
// organisation spent is the sum of its keys' usage (deleted keys' included, store/credits.ts), so
// charging the key's usage record charges the credits too, in the same write: `total_usage` and
// the keys' added usage can never disagree. What is left is what it bought minus that sum.
import { windowsNow } from '../store/context.js'
import type { StoreContext } from '../store/context.js'
import { organisationUsageUnits } from '../store/credits.js'

/**
 * What the organisation can still spend, in 10^-10 USD (the unit of usage records): its credits
 * less what its keys spent, never below 0; null for an organisation the store does not hold.
 */
export function creditsAvailable(ctx: StoreContext, userId: string): number | null {
  const user = ctx.data.users.get(userId)
  if (user === undefined) return null
  const left = user.creditUnits - organisationUsageUnits(ctx, user, windowsNow(ctx))
  return left <= 0n ? 0 : Number(left)
}

/**
 * Charges a request's cost to the organisation's credits. Nothing to write: the key's usage record,
 * written in the same step, is what `total_usage` sums, so the charge is already there.
 */
export function chargeCredits(_ctx: StoreContext, _userId: string, _units: number): void {}
