// Daily activity (decisions/0053): what `GET /activity` and `POST /analytics/query` read. One row
// per organisation, UTC day, key and endpoint, kept as requests are charged: recordGeneration adds
// each generation's cost and tokens (store/generations.ts), and a stream settled short takes back
// what it did not send (inference/settle.ts). Rows are values in the store's `activity` table, so
// snapshots, restore and reset cover them; unlike the generations they are not let go, and they
// grow with the distinct days, keys and endpoints, not with the requests.
import type { StoreContext } from './context.js'
import type { ActivityState } from './state.js'
import { put } from './versions.js'

const DAY_MS = 86_400_000

/** The endpoint a charge was served by, as activity names it. */
export interface ActivityEndpoint {
  /** The model's id, without a variant. */
  model: string
  permaslug: string
  provider: string
  /** The endpoint's tag (`openai`, `deepinfra/fp8`): with the model, what makes its id. */
  tag: string
}

/** What one charge adds to its day's row (negative figures take back part of an earlier charge). */
export interface ActivityCharge {
  userId: string
  keyHash: string
  workspaceId: string
  creatorUserId: string | null
  at: number
  units: number
  requests: number
  promptTokens: number
  completionTokens: number
  reasoningTokens: number
  /** What the provider billed through a BYOK credential (decisions/0054), in 10^-10 USD; 0 otherwise. */
  byokUnits: number
}

/** The UTC day of an instant, as days since the epoch. */
export const dayOf = (ms: number): number => Math.floor(ms / DAY_MS)

/** `YYYY-MM-DD` of a day since the epoch. */
export const dayText = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10)

/** FNV-1a of `text` from `basis`: 32 bits. */
function fnv1a(text: string, basis: number): number {
  let hash = basis >>> 0
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0
  return hash
}

/**
 * The stable id of an endpoint (`endpoint_id`): a UUID made from its model and tag (four FNV-1a
 * hashes), the same in every simulator, since the catalog's endpoints carry no id of their own
 * (decisions/0053).
 */
export function endpointIdOf(model: string, tag: string): string {
  const text = `${model}\u0000${tag}`
  const hex = [0x811c9dc5, 0x050c5d1f, 0x2b3c4d5e, 0x6a09e667].map((basis) => fnv1a(text, basis).toString(16).padStart(8, '0')).join('')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`
}

/** The `activity` table's key of a row. */
const rowKey = (userId: string, day: number, keyHash: string, endpointId: string): string => `${userId}\u0000${day}\u0000${keyHash}\u0000${endpointId}`

/** Adds a charge to its day's row; returns the row's key, for a later correction of the same charge. */
export function addActivity(ctx: StoreContext, endpoint: ActivityEndpoint, charge: ActivityCharge): string {
  const endpointId = endpointIdOf(endpoint.model, endpoint.tag)
  const day = dayOf(charge.at)
  const id = rowKey(charge.userId, day, charge.keyHash, endpointId)
  const row = ctx.data.activity.get(id)
  put(ctx, 'activity', id, {
    userId: charge.userId,
    day,
    keyHash: charge.keyHash,
    workspaceId: charge.workspaceId,
    creatorUserId: row?.creatorUserId ?? charge.creatorUserId,
    model: endpoint.model,
    permaslug: endpoint.permaslug,
    provider: endpoint.provider,
    endpointId,
    requests: (row?.requests ?? 0) + charge.requests,
    units: (row?.units ?? 0) + charge.units,
    promptTokens: (row?.promptTokens ?? 0) + charge.promptTokens,
    completionTokens: (row?.completionTokens ?? 0) + charge.completionTokens,
    reasoningTokens: (row?.reasoningTokens ?? 0) + charge.reasoningTokens,
    byokUnits: (row?.byokUnits ?? 0) + charge.byokUnits,
  })
  return id
}

/** Takes part of a charge back from the row `id` holds it in (a stream settled short); nothing when the row is gone. */
export function correctActivity(ctx: StoreContext, id: string, less: { units: number; byokUnits: number; completionTokens: number; reasoningTokens: number }): void {
  const row = ctx.data.activity.get(id)
  if (row === undefined) return
  put(ctx, 'activity', id, {
    ...row,
    units: row.units - less.units,
    byokUnits: row.byokUnits - less.byokUnits,
    completionTokens: row.completionTokens - less.completionTokens,
    reasoningTokens: row.reasoningTokens - less.reasoningTokens,
  })
}

/** The organisation's rows of days `from` to `to` (inclusive), in no order. */
export function activityOf(ctx: StoreContext, userId: string, from: number, to: number): ActivityState[] {
  const rows: ActivityState[] = []
  for (const row of ctx.data.activity.values()) if (row.userId === userId && row.day >= from && row.day <= to) rows.push(row)
  return rows
}
