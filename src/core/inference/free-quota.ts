// The free-model daily quota (decisions/0027): free endpoints (every price "0") cost nothing and skip
// the credit check, but each completion one of them answers counts toward its organisation's daily
// quota: 50 a UTC day, 1,000 once the organisation has bought at least 10 USD of credits, as the
// service publishes. The store keeps one count per organisation per UTC day of the simulator clock
// (table `freeRequests`), never a record per request, so memory does not grow with traffic.
import { ApiError } from '../errors.js'
import type { StoreContext } from '../store/context.js'
import type { UserState } from '../store/state.js'
import { put } from '../store/versions.js'
import type { Endpoint } from '../types.js'
import { UNITS_PER_USD } from '../usage.js'
import { isFree } from './route.js'

const DAY_MS = 86_400_000

/** Credits (USD bought, all time) from which an organisation gets the larger free-model quota. */
export const FREE_MODEL_CREDITS_THRESHOLD = 10
/** Free-model requests a UTC day below the threshold. */
export const FREE_MODEL_DAILY_REQUESTS = 50
/** Free-model requests a UTC day from the threshold on. */
export const FREE_MODEL_DAILY_REQUESTS_WITH_CREDITS = 1000

const THRESHOLD_UNITS = BigInt(FREE_MODEL_CREDITS_THRESHOLD) * BigInt(UNITS_PER_USD)

/** The organisation's free-model requests a day, from the credits it bought (in 10^-10 USD). */
export function freeModelDailyLimitOf(creditUnits: bigint): number {
  return creditUnits >= THRESHOLD_UNITS ? FREE_MODEL_DAILY_REQUESTS_WITH_CREDITS : FREE_MODEL_DAILY_REQUESTS
}

/** The `freeRequests` row of an organisation's UTC day. */
const dayKey = (userId: string, at: number): string => `${userId}\u0000${Math.floor(at / DAY_MS)}`

/** `free_model_daily_requests` of `GET /key`: the organisation's quota for the UTC day of `at`. */
export interface FreeQuota {
  limit: number
  remaining: number
  used: number
}

/** The organisation's free-model quota on the UTC day of `at` (epoch ms). */
export function freeQuotaOf(ctx: StoreContext, user: UserState, at: number): FreeQuota {
  const limit = freeModelDailyLimitOf(user.creditUnits)
  const used = ctx.data.freeRequests.get(dayKey(user.id, at)) ?? 0
  return { limit, remaining: Math.max(0, limit - used), used }
}

/** The 429 of a used-up quota, in the service's words, with its `X-RateLimit-*` figures. */
export function freeQuotaError(quota: FreeQuota, at: number): ApiError {
  const reset = String((Math.floor(at / DAY_MS) + 1) * DAY_MS)
  const figures = { 'X-RateLimit-Limit': String(quota.limit), 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': reset }
  const message =
    quota.limit < FREE_MODEL_DAILY_REQUESTS_WITH_CREDITS
      ? `Rate limit exceeded: free-models-per-day. Add ${FREE_MODEL_CREDITS_THRESHOLD} credits to unlock ${FREE_MODEL_DAILY_REQUESTS_WITH_CREDITS} free model requests per day`
      : 'Rate limit exceeded: free-models-per-day-high-balance.'
  return new ApiError(429, {
    message,
    metadata: { headers: figures },
    headers: { 'x-ratelimit-limit': figures['X-RateLimit-Limit'], 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset },
  })
}

/**
 * The 429 to fail this attempt with when the endpoint is free and the organisation's quota for
 * today is used up; null when the attempt may go on (a paid endpoint, or quota left).
 */
export function freeQuotaRefusal(ctx: StoreContext, userId: string, endpoint: Endpoint, at: number): ApiError | null {
  if (!isFree(endpoint.pricing)) return null
  const user = ctx.data.users.get(userId)
  if (user === undefined) return null
  const quota = freeQuotaOf(ctx, user, at)
  return quota.remaining > 0 ? null : freeQuotaError(quota, at)
}

/** Counts a completion a free endpoint answered toward its organisation's quota for the day. */
export function countFreeRequest(ctx: StoreContext, userId: string, endpoint: Endpoint, at: number): void {
  if (!isFree(endpoint.pricing)) return
  const day = dayKey(userId, at)
  put(ctx, 'freeRequests', day, (ctx.data.freeRequests.get(day) ?? 0) + 1)
}
