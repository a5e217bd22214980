// Activity on the wire (decisions/0053): `GET /activity`, the organisation's last 30 completed UTC
// days by day and endpoint, read off the daily rows the money path keeps (store/activity.ts).
import { ApiError } from '../errors.js'
import { enumParam, single, uuidParam } from '../params.js'
import { activityOf, dayOf, dayText } from '../store/activity.js'
import type { ActivityState } from '../store/state.js'
import type { StoreContext } from '../store/context.js'
import type { ActivityItem } from '../types.js'
import type { Operation } from './operation.js'
import { jsonAnswer } from './operation.js'
import { toUsd } from '../usage.js'

/** How many completed UTC days `GET /activity` covers: the days before the clock's today. */
export const ACTIVITY_DAYS = 30

/** The first and last day (days since the epoch) of the window: the 30 completed UTC days before the clock's today. */
export function activityWindow(nowMs: number): { from: number; to: number } {
  const today = dayOf(nowMs)
  return { from: today - ACTIVITY_DAYS, to: today - 1 }
}

/** The query's `date`: a `YYYY-MM-DD` day of the window, else a 400 naming `date`. */
function dateParam(query: URLSearchParams, window: { from: number; to: number }): number | undefined {
  const text = single(query, 'date')
  if (text === undefined) return undefined
  const ms = /^\d{4}-\d{2}-\d{2}$/.test(text) ? Date.parse(`${text}T00:00:00Z`) : Number.NaN
  if (!Number.isFinite(ms) || dayText(dayOf(ms)) !== text) throw ApiError.badParameter('date', 'must be a UTC date in YYYY-MM-DD format', text)
  const day = dayOf(ms)
  if (day < window.from || day > window.to) throw ApiError.badParameter('date', `must be one of the last ${ACTIVITY_DAYS} completed UTC days`, text)
  return day
}

/** The filters and grouping of a `GET /activity` query, each checked. */
export interface ActivityQuery {
  from: number
  to: number
  keyHash: string | undefined
  creatorUserId: string | undefined
  workspaceId: string | undefined
  byWorkspace: boolean
}

/** Reads a `GET /activity` query: 400 naming a parameter it refuses, 404 for a workspace not the caller's. */
function readQuery(ctx: StoreContext, userId: string, query: URLSearchParams): ActivityQuery {
  const window = activityWindow(ctx.clock.nowMs())
  const day = dateParam(query, window)
  const keyHash = single(query, 'api_key_hash')
  if (keyHash !== undefined && !/^[0-9a-f]{64}$/i.test(keyHash)) throw ApiError.badParameter('api_key_hash', 'must be a key hash: 64 hexadecimal digits', keyHash)
  const creatorUserId = single(query, 'user_id')
  if (creatorUserId === '') throw ApiError.badParameter('user_id', 'must not be empty', creatorUserId)
  const workspaceId = uuidParam(query, 'workspace_id')
  if (workspaceId !== undefined && ctx.data.workspaces.get(workspaceId)?.userId !== userId) throw ApiError.notFound({ resource: 'workspace' })
  const byWorkspace = enumParam(query, 'group_by', ['workspace'] as const) === 'workspace'
  return { from: day ?? window.from, to: day ?? window.to, keyHash: keyHash?.toLowerCase(), creatorUserId, workspaceId, byWorkspace }
}

/** Sums per row of the answer, in units and tokens. */
interface Sum {
  first: ActivityState
  units: number
  byokUnits: number
  requests: number
  promptTokens: number
  completionTokens: number
  reasoningTokens: number
}

/**
 * The organisation's activity as `GET /activity` answers it: one item per day and endpoint (and
 * workspace, by `group_by`), newest day first, then by model, provider and workspace.
 */
export function activityItems(ctx: StoreContext, userId: string, q: ActivityQuery): ActivityItem[] {
  const sums = new Map<string, Sum>()
  for (const row of activityOf(ctx, userId, q.from, q.to)) {
    if (q.keyHash !== undefined && row.keyHash !== q.keyHash) continue
    if (q.creatorUserId !== undefined && row.creatorUserId !== q.creatorUserId) continue
    if (q.workspaceId !== undefined && row.workspaceId !== q.workspaceId) continue
    const id = `${row.day}\u0000${row.endpointId}${q.byWorkspace ? `\u0000${row.workspaceId}` : ''}`
    const sum = sums.get(id)
    if (sum === undefined) {
      sums.set(id, { first: row, units: row.units, byokUnits: row.byokUnits, requests: row.requests, promptTokens: row.promptTokens, completionTokens: row.completionTokens, reasoningTokens: row.reasoningTokens })
      continue
    }
    sum.units += row.units
    sum.byokUnits += row.byokUnits
    sum.requests += row.requests
    sum.promptTokens += row.promptTokens
    sum.completionTokens += row.completionTokens
    sum.reasoningTokens += row.reasoningTokens
  }
  const items = [...sums.values()].map((sum): ActivityItem => {
    const row = sum.first
    const item: ActivityItem = {
      date: dayText(row.day),
      model: row.model,
      model_permaslug: row.permaslug,
      endpoint_id: row.endpointId,
      provider_name: row.provider,
      usage: toUsd(sum.units),
      byok_usage_inference: toUsd(sum.byokUnits),
      requests: sum.requests,
      prompt_tokens: sum.promptTokens,
      completion_tokens: sum.completionTokens,
      reasoning_tokens: sum.reasoningTokens,
    }
    if (q.byWorkspace) item.workspace_id = row.workspaceId
    return item
  })
  const text = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)
  return items.sort((a, b) => text(b.date, a.date) || text(a.model, b.model) || text(a.provider_name, b.provider_name) || text(a.endpoint_id, b.endpoint_id) || text(a.workspace_id ?? '', b.workspace_id ?? ''))
}

export const ACTIVITY_OPERATIONS: readonly Operation[] = [
  {
    name: 'getUserActivity',
    method: 'GET',
    template: '/activity',
    auth: 'management',
    run({ ctx, query, principal }) {
      return jsonAnswer(200, { data: activityItems(ctx, principal.userId, readQuery(ctx, principal.userId, query)) })
    },
  },
]
