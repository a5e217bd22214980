// The money path's ledger: a key's limit, the organisation's credits (the 402s of chat and
// embeddings) and the charge (decisions/0021, decisions/0024). What an
// organisation spent is the sum of its keys' usage (deleted keys' included, store/credits.ts), so
// charging the key's usage record charges the credits too, in the same write: `total_usage` and
// the keys' added usage can never disagree. What is left is what it bought minus that sum.
import { ApiError, ERROR_MESSAGES } from '../errors.js'
import type { StoreContext } from '../store/context.js'
import { creditsAvailable, noteCharge } from '../store/credits.js'
import type { KeyState } from '../store/state.js'
import { put } from '../store/versions.js'
import { chargedKey } from '../store/keys.js'
import type { Endpoint } from '../types.js'
import { figuresAt, limitRemaining, type UsageRecord } from '../usage.js'
import { costToUnits, flatPricing, worstCaseUnits } from './price.js'
import type { CompiledPricing } from '../pricing/compile.js'
import { pricingOf } from './route.js'
import { BYOK_FEE_PERCENT } from './byok-fee.js'

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

/**
 * Records what the provider billed for a request served through a BYOK credential (decisions/0054)
 * as a `byok: true` usage record of the key at `now`. Such records are the key's `byok_usage`:
 * the credits never pay them; the key's limit counts them under `include_byok_in_limit`, a
 * workspace's budgets under `include_byok_in_budgets`.
 */
export function recordByokUsage(ctx: StoreContext, key: KeyState, units: number, now: number): UsageRecord {
  const record: UsageRecord = { at: now, units, byok: true }
  const before = ctx.indices.keysEpoch
  put(ctx, 'keys', key.hash, chargedKey(key, record, now))
  // Nothing of it is the credits': the organisation's sum moves by nothing.
  noteCharge(ctx, key.userId, before, now, 0)
  return record
}

/** The message of the 402 when the organisation's credits cannot cover the request's worst case. */
export function creditsMessage(requested: number, affordable: number): string {
  return `This request requires more credits, or fewer max_tokens. You requested up to ${requested} tokens, but can only afford ${affordable}. To increase, visit https://openrouter.ai/settings/credits and add more credits`
}

/** The 402 when the organisation's credits cannot pay for the request (the service's wording). */
export const EMBEDDINGS_CREDITS_MESSAGE = ERROR_MESSAGES[402]

/**
 * The 402 of step 3: when credits are tracked (see creditsAvailable) and the organisation cannot pay the
 * worst case on this endpoint (the prompt, and the completion cap at the completion price), with
 * how many completion tokens it could pay for. Free endpoints are never refused, unless `search`
 * (a web search's pricing and count) adds its price (decisions/0038). `byok`: the request is served
 * through a BYOK credential, and the credits pay only the fee, 5% of the cost (decisions/0054): the
 * worst case is the fee's.
 */
export function refuseWithoutCredits(
  ctx: StoreContext,
  userId: string,
  endpoint: Endpoint,
  maxTokens: number | null,
  promptTokens: number,
  at: number,
  search?: { pricing: CompiledPricing; webSearches: number },
  byok = false,
): void {
  const available = creditsAvailable(ctx, userId)
  if (available === null) return
  const pricing = search?.pricing ?? pricingOf(endpoint)
  const webSearches = search?.webSearches ?? 0
  const requested = maxTokens ?? endpoint.max_completion_tokens ?? Math.max(0, endpoint.context_length - promptTokens)
  // The fee is a twentieth of the cost (5%): the worst case's fee is compared with the credits
  // exactly, as the cost against twenty times the credits.
  const share = byok ? 100 / Number(BYOK_FEE_PERCENT) : 1
  const worst = worstCaseUnits(pricing, promptTokens, requested, at, webSearches)
  if (worst === 0 || worst <= available * share) return
  const base = costToUnits(pricing.cost({ promptTokens, completionTokens: 0, webSearches }, { at }))
  const perToken = costToUnits(flatPricing(pricing.resolve({ promptTokens, at })).cost({ completionTokens: 1, requests: 0 }, { at }))
  const affordable = perToken === 0 ? requested : Math.max(0, Math.floor((available * share - base) / perToken))
  throw new ApiError(402, { message: creditsMessage(requested, Math.min(affordable, requested)), metadata: { provider_name: null } })
}

/** The 402 when credits are tracked and cannot pay this request's exact cost on this endpoint. Free requests are never refused. */
export function refuseEmbeddingsWithoutCredits(ctx: StoreContext, userId: string, endpoint: Endpoint, promptTokens: number, at: number): void {
  const available = creditsAvailable(ctx, userId)
  if (available === null) return
  const cost = costToUnits(pricingOf(endpoint).cost({ promptTokens, completionTokens: 0 }, { at }))
  if (cost === 0 || cost <= available) return
  throw new ApiError(402, { message: EMBEDDINGS_CREDITS_MESSAGE, metadata: { provider_name: null } })
}
