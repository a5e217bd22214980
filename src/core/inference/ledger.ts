// The money path's ledger: a key's limit, the organisation's credits and the charge (decisions/0021, decisions/0024). What an
// organisation spent is the sum of its keys' usage (deleted keys' included, store/credits.ts), so
// charging the key's usage record charges the credits too, in the same write: `total_usage` and
// the keys' added usage can never disagree. What is left is what it bought minus that sum.
import { ApiError } from '../errors.js'
import { windowsNow } from '../store/context.js'
import type { StoreContext } from '../store/context.js'
import { noteCharge, organisationUsageUnits } from '../store/credits.js'
import type { KeyState } from '../store/state.js'
import { put } from '../store/versions.js'
import { chargedKey } from '../store/keys.js'
import { figuresAt, limitRemaining, type UsageRecord } from '../usage.js'

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

/** The message of a key limit's 403, naming the period as the service does. */
export function keyLimitMessage(limitReset: KeyState['limitReset']): string {
  return `Key limit exceeded (${limitReset ?? 'total'} limit). Manage it using https://openrouter.ai/settings/keys`
}

/**
 * Admission by the key's limit (decisions/0024): a key with a limit and nothing of it left at `now`
 * is refused with 403; any remainder admits the request, whose whole cost is then charged.
 */
export function refuseAtKeyLimit(ctx: StoreContext, key: KeyState, now: number): void {
  if (key.limit === null) return
  const remaining = limitRemaining(key.limit, key.limitReset, key.includeByokInLimit, figuresAt(key.usage, key.usageCount, ctx.windows.at(now)))
  if (remaining === 0) throw new ApiError(403, { message: keyLimitMessage(key.limitReset), metadata: { reason: 'key_limit_exceeded', limit: key.limit, limit_reset: key.limitReset } })
}

/**
 * Charges a request's cost, in 10^-10 USD, to the key as one usage record at `now` (folded as the
 * log grows, decisions/0029), and so to the organisation's credits: `total_usage` sums the keys'
 * usage, so the key's record is the credits' charge too, in the same write. Returns the record
 * (a stream's disconnect corrects it, decisions/0026).
 */
export function chargeKey(ctx: StoreContext, key: KeyState, units: number, now: number): UsageRecord {
  const record: UsageRecord = { at: now, units, byok: false }
  const before = ctx.indices.keysEpoch
  put(ctx, 'keys', key.hash, chargedKey(key, record, now))
  noteCharge(ctx, key.userId, before, now, units)
  return record
}
