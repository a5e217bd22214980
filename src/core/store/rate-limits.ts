// Rate limits: a token bucket per key (or one shared by anonymous callers), refilled continuously
// on the simulator clock. The router takes a token before an operation runs; a key's own limit, or
// the simulator's default, decides the bucket's size.
import { describe } from '../describe.js'
import { invalidArgument } from '../errors.js'
import { ArgumentChecker, fieldsOf } from './check.js'
import type { StoreContext } from './context.js'
import type { RateBucket, RateLimit } from './state.js'
import { put } from './versions.js'

const RATE_LIMIT_FIELDS = fieldsOf<RateLimit>({ requests: true, intervalMs: true })

/**
 * The longest rate-limit interval: a year. With it, `Retry-After` stays a whole number of seconds
 * well inside what a header's integer can say (a 1e300 ms interval gave `9.999999999999999e+296`).
 */
const MAX_INTERVAL_MS = 365 * 86_400_000

/** Checks a rate limit given as an option; `argument` names it in the error. */
export function checkRateLimit(value: unknown, operation: string, argument: string): RateLimit {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidArgument(operation, argument, `must be { requests: a positive integer, intervalMs: milliseconds from 1 to a year (${MAX_INTERVAL_MS}) }, got ${describe(value)}`)
  }
  // A misspelt field first: `{ requests, interval }` is told that `interval` is not a field. Then the
  // field that is wrong is named, with what it was given.
  new ArgumentChecker(operation).knownFields(value, RATE_LIMIT_FIELDS, argument, 'a rate limit')
  const limit = value as Partial<RateLimit>
  if (typeof limit.requests !== 'number' || !Number.isSafeInteger(limit.requests) || limit.requests < 1) {
    throw invalidArgument(operation, `${argument}.requests`, `must be a whole number of requests from 1 to ${Number.MAX_SAFE_INTEGER}, got ${describe(limit.requests)}`)
  }
  if (typeof limit.intervalMs !== 'number' || !Number.isFinite(limit.intervalMs) || limit.intervalMs < 1 || limit.intervalMs > MAX_INTERVAL_MS) {
    throw invalidArgument(operation, `${argument}.intervalMs`, `must be milliseconds from 1 to a year (${MAX_INTERVAL_MS}), got ${describe(limit.intervalMs)}`)
  }
  return { requests: limit.requests as number, intervalMs: limit.intervalMs as number }
}

const ANONYMOUS_BUCKET = '*anonymous*'

/**
 * Takes one token from the caller's bucket (the key's, or the one shared by anonymous callers).
 * Returns null when the request may go on, or the whole seconds to wait before a token is back.
 */
export function takeToken(ctx: StoreContext, keyHash: string | null, defaultLimit: RateLimit | null): number | null {
  const limit = (keyHash === null ? null : ctx.data.keys.get(keyHash)?.rateLimit) ?? defaultLimit
  if (limit === null) return null
  const id = keyHash ?? ANONYMOUS_BUCKET
  const now = ctx.clock.nowMs()
  const perMs = limit.requests / limit.intervalMs
  const bucket: RateBucket = ctx.data.rateBuckets.get(id) ?? { tokens: limit.requests, updatedMs: now }
  // A clock moved backwards refills nothing; it never takes tokens away either.
  const tokens = Math.min(limit.requests, bucket.tokens + Math.max(0, now - bucket.updatedMs) * perMs)
  if (tokens >= 1) {
    put(ctx, 'rateBuckets', id, { tokens: tokens - 1, updatedMs: now })
    return null
  }
  put(ctx, 'rateBuckets', id, { tokens, updatedMs: now })
  return Math.max(1, Math.ceil((1 - tokens) / perMs / 1000))
}
