// Daily activity (decisions/0053): what `GET /activity` and `POST /analytics/query` read. One row
// per organisation, UTC day, key and endpoint, kept as requests are charged: recordGeneration adds
// each generation's cost and tokens (store/generations.ts), and a stream settled short takes back
// what it did not send (inference/settle.ts). Rows are values in the store's `activity` table, so
// snapshots, restore and reset cover them; unlike the generations they are not let go, and they
// grow with the distinct days, keys and endpoints, not with the requests. They are world state: a
// world spec's `activity` list and `sim.activity.record` add entries to them (recordActivityFromOptions),
// and exportWorld writes them back (worlds/export.ts).
import { describe } from '../describe.js'
import { SimulatorError, SimulatorErrorCode } from '../errors.js'
import type { ActivityItem } from '../types.js'
import { MAX_EXACT_USD, toUnits, toUsd } from '../usage.js'
import { ArgumentChecker, UUID, fieldsOf } from './check.js'
import type { StoreContext } from './context.js'
import { canonicalSlugOf } from './models.js'
import type { ActivityState, KeyState, StoreData } from './state.js'
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
  const known = endpointIds.get(text)
  if (known !== undefined) return known
  const hex = [0x811c9dc5, 0x050c5d1f, 0x2b3c4d5e, 0x6a09e667].map((basis) => fnv1a(text, basis).toString(16).padStart(8, '0')).join('')
  const id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`
  // A function of its arguments alone, asked for on every charge: kept, up to a bound (a process that makes models without end does not grow it without end).
  if (endpointIds.size >= ENDPOINT_IDS_KEPT) endpointIds.clear()
  endpointIds.set(text, id)
  return id
}

/** Endpoint ids made, by model and tag: the same for every simulator. */
const endpointIds = new Map<string, string>()
const ENDPOINT_IDS_KEPT = 4096

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

/**
 * An entry of activity history, as `sim.activity.record` and a world spec's `activity` list take
 * it (decisions/0053): what one organisation's key spent on one endpoint on one UTC day. Entries
 * for the same day, key and endpoint add up, as requests do.
 *
 * `workspaceId` and `creatorUserId` are the key's and `permaslug` the model's canonical slug, and
 * `endpointId` is the id of the model's one endpoint of `provider`, when the key and the model are
 * in the simulator; given, a value stands (the export writes one only where it differs). A key that
 * is not in the simulator (a deleted key's history) must give its `workspaceId`; a model not in
 * the catalog, its `permaslug` and `endpointId`.
 *
 * @example
 * import { createSimulator } from 'model-access-sim'
 * const sim = createSimulator({ now: '2026-03-02T10:00:00Z' })
 * const keyHash = sim.world.apiKeyHash
 * sim.activity.record({ userId: sim.world.userId, date: '2026-02-27', keyHash, model: 'openai/gpt-4.1-mini', provider: 'OpenAI', requests: 120, usage: 1.25, promptTokens: 90_000, completionTokens: 30_000 })
 * const res = sim.handle({ method: 'GET', path: '/activity', authorization: `Bearer ${sim.world.managementKey}` })
 * const [item] = (res.body as { data: { date: string; requests: number; usage: number }[] }).data
 * console.log(item!.date, item!.requests, item!.usage)
 * //=> 2026-02-27 120 1.25
 */
export interface RecordActivityOptions {
  /** The organisation. */
  userId: string
  /** The UTC day, `YYYY-MM-DD`: a calendar day, not after the clock's today. */
  date: string
  /** The key's hash (64 hexadecimal digits). */
  keyHash: string
  /** The model's id, without a variant (`openai/gpt-4.1-mini`). */
  model: string
  /** The endpoint's provider, as the catalog names it (`OpenAI`). */
  provider: string
  /** The endpoint's id (a UUID); default the id of the model's one endpoint of `provider`. */
  endpointId?: string | undefined
  /** The model's canonical slug; default the catalog's. */
  permaslug?: string | undefined
  /** The key's workspace (a UUID); default the key's. */
  workspaceId?: string | undefined
  /** The key's creator (`user_id` filter); default the key's, null for a key not in the simulator. */
  creatorUserId?: string | null | undefined
  /** Requests: a non-negative integer. */
  requests: number
  /** What they cost, in USD (kept exactly to 10^-10 USD, at most `MAX_EXACT_USD`). */
  usage: number
  /** What providers billed through BYOK credentials, in USD; default 0. */
  byokUsage?: number | undefined
  promptTokens: number
  completionTokens: number
  /** Default 0. */
  reasoningTokens?: number | undefined
}

/**
 * `sim.activity`: history of `GET /activity` and analytics, added without sending the requests.
 *
 * @example
 * import { createSimulator } from 'model-access-sim'
 * const sim = createSimulator({ now: '2026-03-02T10:00:00Z' })
 * const keyHash = sim.world.apiKeyHash
 * const entry = { userId: sim.world.userId, keyHash, model: 'openai/gpt-4.1-mini', provider: 'OpenAI', requests: 2, usage: 0.5, promptTokens: 10, completionTokens: 5 }
 * sim.activity.record({ ...entry, date: '2026-03-01' })
 * const row = sim.activity.record({ ...entry, date: '2026-03-01' })
 * console.log(row.requests, row.usage, row.workspace_id === sim.keys.get(keyHash)?.workspace_id)
 * //=> 4 1 true
 */
export interface ActivityCollection {
  /**
   * Adds an entry to its day's row (a new row, or the sums of one already there) and returns the
   * row as `GET /activity?group_by=workspace` would list it alone. A bad field throws
   * INVALID_ARGUMENT naming it; an unknown organisation UNKNOWN_USER, an unknown key UNKNOWN_KEY.
   */
  record(entry: RecordActivityOptions): ActivityItem
}

export const ACTIVITY_ENTRY_FIELDS = fieldsOf<RecordActivityOptions>({
  userId: true,
  date: true,
  keyHash: true,
  model: true,
  provider: true,
  endpointId: true,
  permaslug: true,
  workspaceId: true,
  creatorUserId: true,
  requests: true,
  usage: true,
  byokUsage: true,
  promptTokens: true,
  completionTokens: true,
  reasoningTokens: true,
})

/** What an entry leaves out is taken from: the key (when it is the organisation's) and the model's catalog entry. */
export interface ActivityDefaults {
  /** The key, when it is in the store; it may be another organisation's. */
  key: KeyState | undefined
  workspaceId: string | undefined
  creatorUserId: string | null
  permaslug: string | undefined
  /** The ids of the model's endpoints of the provider (none when the model is not in the catalog). */
  endpointIds: string[]
}

/** The fields an entry of `userId`'s key and model may leave out, as the store has them: what the loader and the export agree on. */
export function activityDefaults(data: StoreData, userId: string, keyHash: string, model: string, provider: string): ActivityDefaults {
  const key = data.keys.get(keyHash)
  const own = key !== undefined && key.userId === userId ? key : undefined
  const row = data.models.get(model)
  const endpointIds = row === undefined ? [] : row.endpoints.filter((e) => e.provider_name === provider).map((e) => endpointIdOf(model, e.tag))
  return { key, workspaceId: own?.workspaceId, creatorUserId: own === undefined ? null : own.creatorUserId, permaslug: row === undefined ? undefined : canonicalSlugOf(row), endpointIds }
}

const DATE = /^\d{4}-\d{2}-\d{2}$/
const HASH = /^[0-9a-f]{64}$/

/** A non-negative safe integer, else INVALID_ARGUMENT naming `field`. */
function count(check: ArgumentChecker, value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) check.fail(field, `must be a non-negative integer, got ${describe(value)}`)
  return value
}

/** USD as units: a finite number from 0 to MAX_EXACT_USD, else INVALID_ARGUMENT naming `field`. */
function usd(check: ArgumentChecker, value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > MAX_EXACT_USD) check.fail(field, `must be a number of USD from 0 to ${MAX_EXACT_USD}, got ${describe(value)}`)
  return toUnits(value)
}

/**
 * Checks an entry and adds it to its day's row. `at` is the path of the entry (`world.activity[3]`,
 * or '' for `sim.activity.record`'s options), `dayShift` the days a world's dates move by. Every
 * check is made before anything is written.
 */
export function recordActivityFromOptions(ctx: StoreContext, options: RecordActivityOptions, operation = 'record activity', at = '', dayShift = 0): ActivityState {
  const check: ArgumentChecker = new ArgumentChecker(operation)
  const path = (field: string): string => (at === '' ? field : `${at}.${field}`)
  check.knownFields(check.object(options, at === '' ? 'options' : at), ACTIVITY_ENTRY_FIELDS, at, 'an activity entry')
  const userId = check.string(options.userId, path('userId'))
  if (!ctx.data.users.has(userId)) throw new SimulatorError(SimulatorErrorCode.UnknownUser, `Failed to ${operation}: "${path('userId')}" names an unknown user "${userId}".`, { argument: path('userId') })
  const date = check.string(options.date, path('date'), DATE, 'YYYY-MM-DD')
  const ms = Date.parse(`${date}T00:00:00Z`)
  if (!Number.isFinite(ms) || dayText(dayOf(ms)) !== date) check.fail(path('date'), `must be a calendar day (YYYY-MM-DD), got ${JSON.stringify(date)}`)
  const day = dayOf(ms) + dayShift
  const today = dayOf(ctx.clock.nowMs())
  if (day > today) check.fail(path('date'), `must not be after the clock's today (${dayText(today)}), got ${JSON.stringify(dayText(day))}`)
  const keyHash = check.string(options.keyHash, path('keyHash'), HASH, '64 lowercase hexadecimal digits')
  const model = check.string(options.model, path('model'))
  const provider = check.string(options.provider, path('provider'))
  const defaults = activityDefaults(ctx.data, userId, keyHash, model, provider)
  if (defaults.key !== undefined && defaults.key.userId !== userId) {
    throw new SimulatorError(SimulatorErrorCode.UnknownKey, `Failed to ${operation}: "${path('keyHash')}" is a key of another organisation than "${userId}".`, { argument: path('keyHash') })
  }
  let workspaceId = defaults.workspaceId
  if (options.workspaceId !== undefined) workspaceId = check.string(options.workspaceId, path('workspaceId'), UUID, 'a UUID').toLowerCase()
  if (workspaceId === undefined) {
    throw new SimulatorError(SimulatorErrorCode.UnknownKey, `Failed to ${operation}: "${path('keyHash')}" is not the hash of a key of "${userId}"; a deleted key's history gives its workspaceId.`, { argument: path('keyHash') })
  }
  const creatorUserId = options.creatorUserId === undefined ? defaults.creatorUserId : options.creatorUserId === null ? null : check.string(options.creatorUserId, path('creatorUserId'))
  const permaslug = options.permaslug === undefined ? defaults.permaslug : check.string(options.permaslug, path('permaslug'))
  if (permaslug === undefined) check.fail(path('permaslug'), `must be given: "${model}" is not a model of the catalog`)
  let endpointId: string
  if (options.endpointId !== undefined) endpointId = check.string(options.endpointId, path('endpointId'), UUID, 'a UUID').toLowerCase()
  else if (defaults.endpointIds.length === 1) endpointId = defaults.endpointIds[0] as string
  else if (defaults.permaslug === undefined) check.fail(path('endpointId'), `must be given: "${model}" is not a model of the catalog`)
  else if (defaults.endpointIds.length === 0) check.fail(path('provider'), `must be the provider of one of "${model}"'s endpoints, or endpointId given, got ${JSON.stringify(provider)}`)
  else check.fail(path('endpointId'), `must be given: "${model}" has ${defaults.endpointIds.length} endpoints of ${JSON.stringify(provider)} (${defaults.endpointIds.join(', ')})`)
  const requests = count(check, options.requests, path('requests'))
  const units = usd(check, options.usage, path('usage'))
  const byokUnits = options.byokUsage === undefined ? 0 : usd(check, options.byokUsage, path('byokUsage'))
  const promptTokens = count(check, options.promptTokens, path('promptTokens'))
  const completionTokens = count(check, options.completionTokens, path('completionTokens'))
  const reasoningTokens = options.reasoningTokens === undefined ? 0 : count(check, options.reasoningTokens, path('reasoningTokens'))
  const id = rowKey(userId, day, keyHash, endpointId)
  const row = ctx.data.activity.get(id)
  const next: ActivityState = { userId, day, keyHash, workspaceId, creatorUserId, model, permaslug, provider, endpointId, requests, units, promptTokens, completionTokens, reasoningTokens, byokUnits }
  if (row !== undefined) {
    // Entries of one row add up; what names the row must agree with it.
    for (const field of ['workspaceId', 'creatorUserId', 'model', 'permaslug', 'provider'] as const) {
      if (row[field] !== next[field]) check.fail(path(field), `must be ${JSON.stringify(row[field])}, as the row of that day, key and endpoint already has it, got ${JSON.stringify(next[field])}`)
    }
    const sums = { requests: 'requests', units: 'usage', promptTokens: 'promptTokens', completionTokens: 'completionTokens', reasoningTokens: 'reasoningTokens', byokUnits: 'byokUsage' } as const
    for (const [figure, field] of Object.entries(sums) as [keyof typeof sums, string][]) {
      const total = row[figure] + next[figure]
      if (!Number.isSafeInteger(total)) check.fail(path(field), `takes the row's ${field} past what is kept exactly`)
    }
  }
  const stored: ActivityState = row === undefined ? next : { ...row, requests: row.requests + requests, units: row.units + units, promptTokens: row.promptTokens + promptTokens, completionTokens: row.completionTokens + completionTokens, reasoningTokens: row.reasoningTokens + reasoningTokens, byokUnits: row.byokUnits + byokUnits }
  put(ctx, 'activity', id, stored)
  return stored
}

/** A row as `GET /activity?group_by=workspace` lists it alone. */
export function activityItemOf(row: ActivityState): ActivityItem {
  return {
    date: dayText(row.day),
    model: row.model,
    model_permaslug: row.permaslug,
    endpoint_id: row.endpointId,
    provider_name: row.provider,
    usage: toUsd(row.units),
    byok_usage_inference: toUsd(row.byokUnits),
    requests: row.requests,
    prompt_tokens: row.promptTokens,
    completion_tokens: row.completionTokens,
    reasoning_tokens: row.reasoningTokens,
    workspace_id: row.workspaceId,
  }
}

export function createActivityCollection(ctx: StoreContext): ActivityCollection {
  return { record: (entry) => activityItemOf(recordActivityFromOptions(ctx, entry)) }
}
