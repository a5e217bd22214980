// API keys on the wire: the management operations on an organisation's keys.
import type { Principal } from '../auth.js'
import type { SimResponse } from '../protocol.js'
import { BodyReader } from '../body.js'
import type { RateLimit, KeyState, UserState } from '../store/state.js'
import { ApiError } from '../errors.js'
import { freeQuotaOf } from '../inference/free-quota.js'
import { createdPayload, dataPayload, listPayload } from '../json-text.js'
import { pageOf } from '../pagination.js'
import { booleanParam, offsetParam, uuidParam } from '../params.js'
import { UUID } from '../store/check.js'
import { type StoreContext, atomically, windowsNow } from '../store/context.js'
import { type KeyChanges, type KeyDraft, copyKeyWire, keyFiguresOf, deleteKeyState, insertKey, newKey, wireKey, writeKeyUpdate } from '../store/keys.js'
import { defaultWorkspaceId, defaultWorkspaceParam } from '../store/workspaces.js'
import { formatTimestamp, parseInstant } from '../time.js'
import type { CurrentKey, CurrentKeyRateLimit, DeletedKeyResponse, LimitReset } from '../types.js'
import { bigUnitsToUsd } from '../usage.js'
import { type Call, type Operation, jsonAnswer, payloadResponse } from './operation.js'

const LIMIT_RESETS: readonly LimitReset[] = ['daily', 'weekly', 'monthly']

/** The body fields of `POST /keys`: the SDK's create-key request, every one of them (decisions/0020). */
const CREATE_FIELDS: ReadonlySet<string> = new Set(['name', 'limit', 'limit_reset', 'include_byok_in_limit', 'expires_at', 'workspace_id', 'creator_user_id', 'external'])
/** The body fields of `PATCH /keys/{hash}`: the SDK's update-key request. */
const UPDATE_FIELDS: ReadonlySet<string> = new Set(['name', 'disabled', 'limit', 'limit_reset', 'include_byok_in_limit'])
const EXTERNAL_FIELDS: ReadonlySet<string> = new Set(['user', 'api_key'])

/** A key name: what the dashboard accepts, one to 256 characters. */
const NAME_RULE = { minLength: 1, maxLength: 256 } as const
/** A spending limit in USD: zero or more (a limit of 0 stops every paid request). */
const LIMIT_RULE = { min: 0, nullable: true } as const
/** The other fields of a create, each rule made once. */
const EXPIRES_RULE = { nullable: true, expected: 'an ISO 8601 instant with a time and an offset, such as 2026-12-31T23:59:59Z' } as const
const WORKSPACE_RULE = { pattern: UUID, expected: 'a UUID' } as const
const CREATOR_RULE = { minLength: 1, maxLength: 256, nullable: true } as const

/** One of the caller's keys by the path's hash; another organisation's key is as absent as one never made (decisions/0002). */
function callersKey(ctx: StoreContext, hash: string, principal: Principal): KeyState {
  const key = ctx.data.keys.get(hash)
  if (!key || key.userId !== principal.userId) throw ApiError.notFound({ resource: 'key' })
  return key
}

/** `10s`, `1m`, `1h`, `500ms`: a rate-limit interval as the service writes it. */
export function formatInterval(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`
  if (ms % 60_000 === 0) return `${ms / 60_000}m`
  if (ms % 1000 === 0) return `${ms / 1000}s`
  return `${ms}ms`
}

/** The service's note on the legacy `rate_limit` field. */
export const RATE_LIMIT_NOTE = 'This field is deprecated and safe to ignore.'

/** `rate_limit` of `GET /key`: the key's own, else the simulator's default, else none (`requests: -1`). */
function rateLimitOf(limit: RateLimit | null): CurrentKeyRateLimit {
  if (limit === null) return { interval: '10s', note: RATE_LIMIT_NOTE, requests: -1 }
  return { interval: formatInterval(limit.intervalMs), note: RATE_LIMIT_NOTE, requests: limit.requests }
}

/** The calling key's figures, as `GET /key` shows them (decisions/0021 says where each value comes from). */
function currentKey(ctx: StoreContext, key: KeyState, defaultRateLimit: RateLimit | null): CurrentKey {
  // Only what was bought: the organisation's usage (a sum over all its keys) is not needed here.
  const user = ctx.data.users.get(key.userId) as UserState
  const totalCredits = bigUnitsToUsd(user.creditUnits)
  return {
    ...keyFiguresOf(wireKey(key, windowsNow(ctx)).value),
    is_free_tier: totalCredits === 0,
    is_management_key: key.management,
    is_provisioning_key: key.management,
    rate_limit: rateLimitOf(key.rateLimit ?? defaultRateLimit),
    free_model_daily_requests: freeQuotaOf(ctx, user, ctx.clock.nowMs()),
    allowed_data_regions: ['global'],
    expires_at: key.expiresAt === null ? null : formatTimestamp(key.expiresAt),
    creator_user_id: key.creatorUserId,
    workspace_id: key.workspaceId,
    organization_id: null,
  }
}

/** `limit_reset` of a body: one of daily, weekly, monthly, or null. */
function limitResetOf(body: BodyReader): LimitReset | null | undefined {
  return body.optionalEnum('limit_reset', LIMIT_RESETS, true)
}

/**
 * The draft of a regular key made over the wire in `workspaceId` for the organisation `userId`
 * (`POST /keys`, the PKCE exchange of `POST /auth/keys`): the body's fields are set on it after.
 */
export function regularKeyDraft(ctx: StoreContext, userId: string, workspaceId: string, name: string): KeyDraft {
  return {
    hash: undefined,
    secret: undefined,
    userId,
    workspaceId,
    management: false,
    name,
    label: undefined,
    disabled: false,
    limit: null,
    limitReset: null,
    includeByokInLimit: false,
    usage: [],
    usageCount: 0,
    rateLimit: null,
    createdAt: ctx.clock.nowMs(),
    updatedAt: null,
    expiresAt: null,
    creatorUserId: userId,
    externalUser: null,
  }
}

/**
 * The key a `POST /keys` body asks for, checked; throws the 400 of the first field that is wrong,
 * naming it. Reads nothing twice and draws nothing: the key is drawn from the draft after.
 */
export function readCreateKeyBody(ctx: StoreContext, principal: Principal, value: Record<string, unknown>): KeyDraft {
  return readPlainCreateKeyBody(ctx, principal, value) ?? readAnyCreateKeyBody(ctx, principal, value)
}

/**
 * A create body read in one pass over the fields it has, when they are among `name`, `limit`,
 * `limit_reset`, `include_byok_in_limit`, `expires_at`, `workspace_id` and `creator_user_id` and
 * the field-by-field reader would take every value. Undefined otherwise (`external`, an unknown
 * field, any wrong value), and that reader then reads the body again and names the field. Both give
 * the same draft (test/core/create-key-body.test.ts compares them over random bodies): a create's
 * code mostly runs before the JIT compiles it, where each of that reader's lookups costs (decisions/0033).
 * Exported for that test.
 */
export function readPlainCreateKeyBody(ctx: StoreContext, principal: Principal, value: Record<string, unknown>): KeyDraft | undefined {
  let name: unknown
  let limit: unknown
  let limitReset: unknown
  let includeByokInLimit: unknown
  let expires: unknown
  let workspace: unknown
  let creator: unknown
  for (const field in value) {
    if (!Object.hasOwn(value, field)) return undefined
    const given = value[field]
    if (field === 'name') name = given
    else if (field === 'limit') limit = given
    else if (field === 'workspace_id') workspace = given
    else if (field === 'limit_reset') limitReset = given
    else if (field === 'include_byok_in_limit') includeByokInLimit = given
    else if (field === 'expires_at') expires = given
    else if (field === 'creator_user_id') creator = given
    else return undefined
  }
  if (typeof name !== 'string' || name.length < NAME_RULE.minLength || name.length > NAME_RULE.maxLength) return undefined
  if (limit !== undefined && limit !== null && !(typeof limit === 'number' && Number.isFinite(limit) && limit >= LIMIT_RULE.min)) return undefined
  if (limitReset !== undefined && limitReset !== null && !LIMIT_RESETS.includes(limitReset as LimitReset)) return undefined
  if (includeByokInLimit !== undefined && typeof includeByokInLimit !== 'boolean') return undefined
  let expiresAt: number | null = null
  if (expires !== undefined && expires !== null) {
    const ms = typeof expires === 'string' ? parseInstant(expires) : undefined
    if (ms === undefined || ms <= ctx.clock.nowMs()) return undefined
    expiresAt = ms
  }
  let workspaceId: string | null
  if (workspace === undefined) workspaceId = defaultWorkspaceId(ctx, principal.userId)
  else {
    workspaceId = typeof workspace === 'string' && WORKSPACE_RULE.pattern.test(workspace) ? workspace.toLowerCase() : null
    if (workspaceId !== null && ctx.data.workspaces.get(workspaceId)?.userId !== principal.userId) workspaceId = null
  }
  if (workspaceId === null) return undefined
  if (creator !== undefined && creator !== null && !(typeof creator === 'string' && creator.length >= CREATOR_RULE.minLength && creator.length <= CREATOR_RULE.maxLength)) return undefined
  const draft = regularKeyDraft(ctx, principal.userId, workspaceId, name)
  if (typeof limit === 'number') draft.limit = limit
  if (typeof limitReset === 'string') draft.limitReset = limitReset as LimitReset
  if (includeByokInLimit === true) draft.includeByokInLimit = true
  draft.expiresAt = expiresAt
  if (creator !== undefined) draft.creatorUserId = creator as string | null
  return draft
}

/**
 * The `expires_at` of a body that makes a key (`POST /keys`, `POST /auth/keys/code`): an instant
 * later than now, or null (absent or null: never); a 400 naming it otherwise.
 */
export function readKeyExpiry(ctx: StoreContext, body: BodyReader): number | null {
  const expiresText = body.optionalString('expires_at', EXPIRES_RULE)
  if (typeof expiresText !== 'string') return null
  const ms = parseInstant(expiresText)
  if (ms === undefined) body.fail('expires_at', 'must be an ISO 8601 instant with a time and an offset, such as 2026-12-31T23:59:59Z', expiresText)
  // A key born expired could never be used: a caller's mistake (a date in seconds, a past year), refused.
  if (ms <= ctx.clock.nowMs()) body.fail('expires_at', `must be later than now (${formatTimestamp(ctx.clock.nowMs())})`, expiresText)
  return ms
}

/**
 * The `workspace_id` of a body, lower-cased: a UUID of one of the caller's workspaces, else a 400
 * naming it; undefined when absent. Another organisation's workspace gets the answer an unknown
 * one gets, as for GET /keys (decisions/0002).
 */
export function readCallersWorkspace(ctx: StoreContext, body: BodyReader, principal: Principal): string | undefined {
  const workspaceText = body.optionalString('workspace_id', WORKSPACE_RULE)
  if (workspaceText === undefined) return undefined
  const workspaceId = workspaceText.toLowerCase()
  if (ctx.data.workspaces.get(workspaceId)?.userId !== principal.userId) body.fail('workspace_id', 'is not a workspace of the caller', workspaceText)
  return workspaceId
}

/** Any create body, field by field (see readCreateKeyBody); exported for the test that compares the two readers. */
export function readAnyCreateKeyBody(ctx: StoreContext, principal: Principal, value: Record<string, unknown>): KeyDraft {
  const body: BodyReader = new BodyReader(value).known(CREATE_FIELDS)
  const name = body.string('name', NAME_RULE)
  const limit = body.optionalNumber('limit', LIMIT_RULE)
  const limitReset = limitResetOf(body)
  const includeByokInLimit = body.optionalBoolean('include_byok_in_limit')
  const expiresAt = readKeyExpiry(ctx, body)
  // Without one, the default workspace; an organisation that deleted its default must name one (decisions/0022).
  const workspaceId = readCallersWorkspace(ctx, body, principal) ?? defaultWorkspaceParam(ctx, principal.userId)
  const creatorUserId = body.optionalString('creator_user_id', CREATOR_RULE)
  const external = body.optionalObject('external')
  let externalUser: string | undefined
  if (external) {
    external.known(EXTERNAL_FIELDS)
    externalUser = external.string('user', { minLength: 1, maxLength: 256 })
    // The partner's lookup key is checked and not kept: nothing the simulator answers shows it.
    external.optionalString('api_key', { minLength: 1, maxLength: 256 })
  }
  const draft = regularKeyDraft(ctx, principal.userId, workspaceId, name)
  if (limit !== undefined && limit !== null) draft.limit = limit
  if (limitReset !== undefined && limitReset !== null) draft.limitReset = limitReset
  if (includeByokInLimit !== undefined) draft.includeByokInLimit = includeByokInLimit
  draft.expiresAt = expiresAt
  if (creatorUserId !== undefined) draft.creatorUserId = creatorUserId
  if (externalUser !== undefined) draft.externalUser = externalUser
  return draft
}

/** `GET /key` and `GET /auth/key`: the calling key's figures. */
function currentKeyAnswer({ ctx, principal, defaultRateLimit }: Call<Principal>): SimResponse {
  const key = ctx.data.keys.get(principal.keyHash) as KeyState
  return jsonAnswer(200, { data: currentKey(ctx, key, defaultRateLimit) })
}

export const KEY_OPERATIONS: readonly Operation[] = [
  {
    name: 'listKeys',
    method: 'GET',
    template: '/keys',
    auth: 'management',
    run({ ctx, query, principal }) {
      const userId = principal.userId
      const includeDisabled = booleanParam(query, 'include_disabled') ?? false
      const offset = offsetParam(query, 'offset') ?? 0
      let workspaceId = uuidParam(query, 'workspace_id')
      if (workspaceId === undefined) {
        workspaceId = defaultWorkspaceParam(ctx, userId)
      } else if (ctx.data.workspaces.get(workspaceId)?.userId !== userId) {
        throw ApiError.badParameter('workspace_id', 'is not a workspace of the caller', workspaceId)
      }
      const index = ctx.indices.listableKeys.get(workspaceId)
      const windows = windowsNow(ctx)
      const list = `keys ${workspaceId} ${includeDisabled} ${offset}`
      // The index orders keys; the store holds each one's current state.
      const payload = ctx.keyPages.page(
        list,
        workspaceId,
        ctx,
        windows,
        () => pageOf(includeDisabled ? index?.all : index?.enabled, offset),
        wireKey,
        (entries) => listPayload(entries, copyKeyWire, { texts: ctx.listTexts, list }),
      )
      return payloadResponse(payload)
    },
  },
  {
    name: 'getKey',
    method: 'GET',
    template: '/keys/{hash}',
    auth: 'management',
    run({ ctx, params, principal }) {
      const key = ctx.data.keys.get(params['hash'] as string)
      // Another organisation's key is as absent as a key that never existed.
      if (!key || key.userId !== principal.userId) throw ApiError.notFound({ resource: 'key' })
      return payloadResponse(dataPayload(wireKey(key, windowsNow(ctx)), copyKeyWire))
    },
  },
  {
    name: 'createKey',
    method: 'POST',
    template: '/keys',
    auth: 'management',
    run({ ctx, principal, json }) {
      // The whole body is read before anything is drawn or written: a refusal changes nothing.
      const draft = readCreateKeyBody(ctx, principal, json())
      const key = atomically(ctx, () => insertKey(ctx, newKey(ctx, draft)))
      // `{ data, key }` from the record's cached JSON: the answer is not serialised twice.
      return payloadResponse(createdPayload(wireKey(key, windowsNow(ctx), false), copyKeyWire, key.secret), 201)
    },
  },
  {
    name: 'updateKey',
    method: 'PATCH',
    template: '/keys/{hash}',
    auth: 'management',
    run({ ctx, params, principal, json }) {
      const key = callersKey(ctx, params['hash'] as string, principal)
      const body = new BodyReader(json()).known(UPDATE_FIELDS)
      const changes: KeyChanges = {}
      const name = body.optionalString('name', NAME_RULE)
      if (name !== undefined) changes.name = name
      const disabled = body.optionalBoolean('disabled')
      if (disabled !== undefined) changes.disabled = disabled
      const limit = body.optionalNumber('limit', LIMIT_RULE)
      if (limit !== undefined) changes.limit = limit
      const limitReset = limitResetOf(body)
      if (limitReset !== undefined) changes.limitReset = limitReset
      const includeByokInLimit = body.optionalBoolean('include_byok_in_limit')
      if (includeByokInLimit !== undefined) changes.includeByokInLimit = includeByokInLimit
      // An empty body changes nothing, updated_at included: the key as it is (decisions/0021).
      const updated = Object.keys(changes).length === 0 ? key : writeKeyUpdate(ctx, key, changes)
      return payloadResponse(dataPayload(wireKey(updated, windowsNow(ctx)), copyKeyWire))
    },
  },
  {
    name: 'deleteKey',
    method: 'DELETE',
    template: '/keys/{hash}',
    auth: 'management',
    run({ ctx, params, principal }) {
      deleteKeyState(ctx, callersKey(ctx, params['hash'] as string, principal))
      const answer: DeletedKeyResponse = { deleted: true }
      return jsonAnswer(200, answer)
    },
  },
  {
    name: 'getCurrentKey',
    method: 'GET',
    template: '/key',
    auth: 'key',
    run: currentKeyAnswer,
  },
  // The older name of `GET /key`, still called by much code: the same answer, rules and errors,
  // under its own operation name so the journal and fault rules can tell them apart (decisions/0039).
  {
    name: 'getCurrentKeyLegacy',
    method: 'GET',
    template: '/auth/key',
    auth: 'key',
    run: currentKeyAnswer,
  },
]
