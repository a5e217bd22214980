// BYOK provider credentials on the wire (decisions/0054): an organisation's own provider keys,
// managed with a management key. Another organisation's credential is as absent as one that never
// existed: 404 on get, update and delete, as for keys.
import { BodyReader } from '../body.js'
import { ApiError } from '../errors.js'
import { offsetParam, single, uuidParam } from '../params.js'
import { PROVIDER_SLUG, byokOf, byokWire, deleteByok, freshByokId, nextSortOrder, writeByok } from '../store/byok.js'
import { atomically, type StoreContext } from '../store/context.js'
import type { ByokState } from '../store/state.js'
import { defaultWorkspaceParam } from '../store/workspaces.js'
import { type Operation, jsonAnswer } from './operation.js'

/** The fields of `POST /byok` (the SDK's CreateBYOKKeyRequest). */
const CREATE_FIELDS: ReadonlySet<string> = new Set(['provider', 'key', 'workspace_id', 'name', 'allowed_api_key_hashes', 'allowed_models', 'allowed_user_ids', 'declared_zdr', 'disabled', 'is_byok_only', 'is_fallback', 'is_required'])
/** The fields of `PATCH /byok/{id}` (the SDK's UpdateBYOKKeyRequest). */
const UPDATE_FIELDS: ReadonlySet<string> = new Set(['key', 'name', 'allowed_api_key_hashes', 'allowed_models', 'allowed_user_ids', 'declared_zdr', 'disabled', 'is_byok_only', 'is_fallback', 'is_required'])

const MAX_PAGE = 100

/** A list field: absent undefined, null, or an array of non-empty strings; else a 400 naming it (or its element). */
function optionalList(body: BodyReader, name: string): string[] | null | undefined {
  const value = body.raw(name)
  if (value === undefined || value === null) return value as null | undefined
  if (!Array.isArray(value)) body.fail(body.at(name), 'must be an array of strings or null', value)
  return value.map((item, i) => {
    if (typeof item !== 'string' || item.length === 0) body.fail(`${body.at(name)}[${i}]`, 'must be a non-empty string', item)
    return item
  })
}

/** A nullable boolean field: absent undefined. */
function optionalNullableBoolean(body: BodyReader, name: string): boolean | null | undefined {
  if (body.raw(name) === null) return null
  return body.optionalBoolean(name)
}

/** The changes a create or update body asks for, read field by field (400 naming the field). */
function readChanges(body: BodyReader, base: ByokState): ByokState {
  const next = { ...base } as { -readonly [K in keyof ByokState]: ByokState[K] }
  const key = body.optionalString('key', { minLength: 1 })
  if (key !== undefined) next.key = key
  const name = body.optionalString('name', { nullable: true, maxLength: 200 })
  if (name !== undefined) next.name = name
  for (const [field, prop] of [['allowed_api_key_hashes', 'allowedApiKeyHashes'], ['allowed_models', 'allowedModels'], ['allowed_user_ids', 'allowedUserIds']] as const) {
    const list = optionalList(body, field)
    if (list !== undefined) next[prop] = list
  }
  const zdr = optionalNullableBoolean(body, 'declared_zdr')
  if (zdr !== undefined) next.declaredZdr = zdr
  for (const [field, prop] of [['disabled', 'disabled'], ['is_byok_only', 'isByokOnly'], ['is_fallback', 'isFallback'], ['is_required', 'isRequired']] as const) {
    const flag = body.optionalBoolean(field)
    if (flag !== undefined) next[prop] = flag
  }
  return next
}

/** The caller's credential named by the path, or 404 (another organisation's too). */
function ownCredential(ctx: StoreContext, userId: string, id: string): ByokState {
  const found = ctx.data.byok.get(id.toLowerCase())
  if (found === undefined || found.userId !== userId) throw ApiError.notFound({ resource: 'byok_key' })
  return found
}

export const BYOK_OPERATIONS: readonly Operation[] = [
  {
    name: 'createBYOKKey',
    method: 'POST',
    template: '/byok',
    auth: 'management',
    run: ({ ctx, principal, json }) => {
      const body = new BodyReader(json()).known(CREATE_FIELDS)
      const provider = body.string('provider', { pattern: PROVIDER_SLUG, expected: 'a lowercase provider slug such as "openai"' })
      const key = body.string('key', { minLength: 1 })
      // Absent: the default workspace (a 400 naming workspace_id once it is deleted); null: every workspace (decisions/0054).
      let workspaceId: string | null
      if (body.raw('workspace_id') === null) workspaceId = null
      else {
        const given = body.optionalString('workspace_id', { expected: 'a workspace UUID' })
        if (given === undefined) workspaceId = defaultWorkspaceParam(ctx, principal.userId)
        else {
          workspaceId = given.toLowerCase()
          if (ctx.data.workspaces.get(workspaceId)?.userId !== principal.userId) body.fail('workspace_id', 'is not a workspace of the caller', given)
        }
      }
      const base: ByokState = {
        id: '', userId: principal.userId, workspaceId, provider, key, name: null, allowedApiKeyHashes: null, allowedModels: null, allowedUserIds: null,
        declaredZdr: null, disabled: false, isByokOnly: false, isFallback: false, isRequired: false, sortOrder: nextSortOrder(ctx, principal.userId, workspaceId, provider), createdAt: ctx.clock.nowMs(),
      }
      const changes = readChanges(body, base)
      const stored = atomically(ctx, () => writeByok(ctx, { ...changes, id: freshByokId(ctx) }))
      return jsonAnswer(201, { data: byokWire(stored) })
    },
  },
  {
    name: 'listBYOKKeys',
    method: 'GET',
    template: '/byok',
    auth: 'management',
    run: ({ ctx, principal, query }) => {
      const offset = offsetParam(query, 'offset') ?? 0
      const limit = offsetParam(query, 'limit') ?? MAX_PAGE
      if (limit < 1 || limit > MAX_PAGE) throw ApiError.badParameter('limit', `must be between 1 and ${MAX_PAGE}`, single(query, 'limit'))
      const provider = single(query, 'provider')
      if (provider !== undefined && !PROVIDER_SLUG.test(provider)) throw ApiError.badParameter('provider', 'must be a lowercase provider slug such as "openai"', provider)
      let workspaceId = uuidParam(query, 'workspace_id')
      if (workspaceId === undefined) workspaceId = defaultWorkspaceParam(ctx, principal.userId)
      else if (ctx.data.workspaces.get(workspaceId)?.userId !== principal.userId) throw ApiError.badParameter('workspace_id', 'is not a workspace of the caller', workspaceId)
      // The workspace's own credentials and the organisation's global ones, which apply there too.
      const all = byokOf(ctx, principal.userId).filter((c) => (c.workspaceId === workspaceId || c.workspaceId === null) && (provider === undefined || c.provider === provider))
      return jsonAnswer(200, { data: all.slice(offset, offset + limit).map(byokWire), total_count: all.length })
    },
  },
  {
    name: 'getBYOKKey',
    method: 'GET',
    template: '/byok/{id}',
    auth: 'management',
    run: ({ ctx, principal, params }) => jsonAnswer(200, { data: byokWire(ownCredential(ctx, principal.userId, params['id'] as string)) }),
  },
  {
    name: 'updateBYOKKey',
    method: 'PATCH',
    template: '/byok/{id}',
    auth: 'management',
    run: ({ ctx, principal, params, json }) => {
      const found = ownCredential(ctx, principal.userId, params['id'] as string)
      const body = new BodyReader(json()).known(UPDATE_FIELDS)
      const changed = readChanges(body, found)
      return jsonAnswer(200, { data: byokWire(atomically(ctx, () => writeByok(ctx, changed))) })
    },
  },
  {
    name: 'deleteBYOKKey',
    method: 'DELETE',
    template: '/byok/{id}',
    auth: 'management',
    run: ({ ctx, principal, params }) => {
      const found = ownCredential(ctx, principal.userId, params['id'] as string)
      atomically(ctx, () => deleteByok(ctx, found.id))
      return jsonAnswer(200, { deleted: true })
    },
  },
]

