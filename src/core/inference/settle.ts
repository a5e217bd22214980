// Billing a stream that did not reach its end (decisions/0026): a client that went away, or a
// mid-stream error. The prompt is always charged; the completion is charged for the tokens of the
// chunks that were sent. A disconnect is reported after the fact by the adapter that wrote the
// frames (`cancel(framesSent)` on the stream response), and corrects the charge and the generation
// in one step, at the instant of the original charge, so the money invariant holds exactly at
// every moment: the sum of generations' `total_cost` = the keys' usage added = `total_usage` added.
import { describe } from '../describe.js'
import { invalidArgument } from '../errors.js'
import type { StoreContext } from '../store/context.js'
import type { KeyState, GenerationState } from '../store/state.js'
import { put } from '../store/versions.js'
import { correctActivity } from '../store/activity.js'
import type { UsageRecord } from '../usage.js'

const DAY_MS = 86_400_000
import type { StreamPlan } from './stream.js'

/** The token counts a charge is made of. */
export interface StreamCounts {
  promptTokens: number
  completionTokens: number
  reasoningTokens: number
  cachedTokens: number
}

/**
 * The counts of the part of a reply that `framesSent` frames carried. The prompt (and its cached
 * part) is whole. The completion tokens are the reply's, in proportion to the estimator's tokens
 * of the chunks sent over those of the whole reply (`estimate`), rounded down; with the
 * estimator's own counts that is exactly the sent chunks' tokens. Reasoning comes first in a
 * stream, so the first completion tokens sent are its tokens.
 */
export function sentCounts(full: StreamCounts, shares: readonly number[], framesSent: number, estimate: number): StreamCounts {
  let sent = 0
  for (let i = 0; i < framesSent && i < shares.length; i++) sent += shares[i] as number
  const completionTokens = estimate === 0 ? 0 : Math.floor((full.completionTokens * Math.min(sent, estimate)) / estimate)
  return { promptTokens: full.promptTokens, completionTokens, reasoningTokens: Math.min(full.reasoningTokens, completionTokens), cachedTokens: full.cachedTokens }
}

/** What a streamed completion charged, kept so that a disconnect can correct it. */
export interface StreamCharge {
  keyHash: string
  /** The charge's usage record and its place in the key's log. */
  record: UsageRecord
  index: number
  /** The generation as it was recorded. */
  generation: GenerationState
  /** The counts charged (the whole reply, or the part before a mid-stream error). */
  counts: StreamCounts
  plan: StreamPlan
  /** The estimator's completion tokens of the whole reply (the plan's shares' sum without a cut). */
  estimate: number
  /** Tokens per second, for the generation's `generation_time`. */
  throughput: number
  /** The exact cost of counts at the charge's instant, and its units of 10^-10 USD; through a BYOK credential, also what the provider bills for them. */
  price(counts: StreamCounts): { cost: string; units: number; upstream?: { cost: string; units: number } }
  /** Through a BYOK credential (decisions/0054): the key's `byok: true` record of the upstream cost, and its place in the log. */
  byok?: { record: UsageRecord; index: number }
}

/**
 * Where the key's log holds the charge: at its own place, as it was written; or, once the log was
 * folded (decisions/0029: records summed per instant, per minute or per day), in the sum of its
 * group. Groups are disjoint spans of time, each dated at its latest record, so the group of the
 * charge is the first regular record of its UTC day dated at or after it. -1 when none can hold it.
 */
function recordHolding(usage: readonly UsageRecord[], record: UsageRecord, index: number): number {
  if (index < usage.length && usage[index] === record) return index
  const day = Math.floor(record.at / DAY_MS)
  let found = -1
  for (let i = 0; i < usage.length; i++) {
    const r = usage[i] as UsageRecord
    // A regular record is held by a regular one, a BYOK record by a BYOK one: folds keep the kinds apart.
    if (r.byok !== record.byok || r.at < record.at || Math.floor(r.at / DAY_MS) !== day || r.units < record.units) continue
    if (found === -1 || r.at < (usage[found] as UsageRecord).at) found = i
  }
  return found
}

/** What settling a stream left early came to: whether the charge changed, and what stands. */
export interface StreamSettlement {
  /** Whether the key's charge and the generation were corrected. */
  changed: boolean
  /**
   * What the request is charged in USD, as its generation's `total_cost` says: the sent part's
   * cost before the frame that ends the reply, the whole charge from it on (decisions/0044).
   */
  charged: number
  /** The generation's id. */
  generationId: string
}

/**
 * Settles a stream the client left after `framesSent` frames; undefined on every call after the first.
 * A frame count outside `0..frames` throws naming `framesSent`.
 */
export type StreamSettle = (framesSent: number) => StreamSettlement | undefined

/**
 * The settling behind the `cancel` of a stream response: the client went away after `framesSent`
 * frames. Before the frame that ends the reply, the key's usage record is replaced by the cost of
 * what was sent (at the same instant) and the generation says `cancelled: true` with the sent
 * tokens and cost; from that frame on, nothing changes. Only the first call counts. A charge that
 * is no longer in the store (a restore or reset since, the key deleted) is left alone.
 */
export function streamCanceller(ctx: StoreContext, charge: StreamCharge): StreamSettle {
  let settled = false
  const frames = charge.plan.frames.length
  const generationId = charge.generation.id
  return (framesSent: number): StreamSettlement | undefined => {
    if (typeof framesSent !== 'number' || !Number.isInteger(framesSent) || framesSent < 0 || framesSent > frames) {
      throw invalidArgument('cancel a stream', 'framesSent', `must be the number of frames sent, an integer from 0 to ${frames}, got ${describe(framesSent)}`)
    }
    if (settled) return undefined
    settled = true
    const whole = { changed: false, charged: charge.generation.wire.total_cost, generationId }
    if (framesSent > charge.plan.terminal) return whole
    const counts = sentCounts(charge.counts, charge.plan.shares, framesSent, charge.estimate)
    const { cost, units, upstream } = charge.price(counts)
    const left = { changed: false, charged: Number(cost), generationId }
    const key = ctx.data.keys.get(charge.keyHash) as KeyState | undefined
    const row = ctx.data.generations.get(charge.generation.id)
    if (key === undefined || row !== charge.generation) return left
    const usage = key.usage.slice(0, key.usageCount)
    const at = recordHolding(usage, charge.record, charge.index)
    if (at === -1) return left
    const holder = usage[at] as UsageRecord
    // The charge's own record, or the sum a fold made of it and others (decisions/0029): less by what was not sent.
    usage[at] = { ...holder, units: holder.units - (charge.record.units - units) }
    // Through a BYOK credential, what the provider bills is the sent part's too.
    const byok = charge.byok
    let byokLess = 0
    if (byok !== undefined && upstream !== undefined) {
      const held = recordHolding(usage, byok.record, byok.index)
      if (held !== -1) {
        byokLess = byok.record.units - upstream.units
        const was = usage[held] as UsageRecord
        usage[held] = { ...was, units: was.units - byokLess }
      }
    }
    put(ctx, 'keys', key.hash, { ...key, usage })
    const wire = row.wire
    put(ctx, 'generations', row.id, {
      seq: row.seq,
      id: row.id,
      userId: row.userId,
      keyHash: row.keyHash,
      cost,
      units,
      ...(row.activityKey !== undefined && { activityKey: row.activityKey }),
      ...(row.content !== undefined && { content: row.content }),
      ...(row.feedback !== undefined && { feedback: row.feedback }),
      wire: {
        ...wire,
        total_cost: Number(cost),
        usage: Number(cost),
        cancelled: true,
        // The client saw no finish reason: the reply never finished for it.
        finish_reason: null,
        native_finish_reason: null,
        tokens_completion: counts.completionTokens,
        native_tokens_completion: counts.completionTokens,
        native_tokens_reasoning: counts.reasoningTokens,
        generation_time: Math.round((counts.completionTokens / Math.max(charge.throughput, 1)) * 1000),
        ...(upstream !== undefined && { upstream_inference_cost: Number(upstream.cost) }),
      },
    })
    // The day's activity loses what the generation lost (decisions/0053).
    if (row.activityKey !== undefined) {
      correctActivity(ctx, row.activityKey, { units: row.units - units, byokUnits: byokLess, completionTokens: charge.counts.completionTokens - counts.completionTokens, reasoningTokens: charge.counts.reasoningTokens - counts.reasoningTokens })
    }
    return { changed: true, charged: Number(cost), generationId }
  }
}
