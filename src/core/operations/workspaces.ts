// Workspaces on the wire: an organisation's workspaces, read and managed with a management key
// (decisions/0022). Another organisation's workspace, by id or slug, is as absent as one that never
// existed: 404 on every method.
import { BodyReader, fieldError } from '../body.js'
import { ApiError, ERROR_MESSAGES } from '../errors.js'
import { type CachedJson, type JsonPayload, cachedJson, dataPayload, listPayload } from '../json-text.js'
import { booleanParam, offsetParam, single } from '../params.js'
import { atomically } from '../store/context.js'
import { UUID } from '../store/check.js'
import type { StoreContext } from '../store/context.js'
import type { WorkspaceState } from '../store/state.js'
import { parseInstant } from '../time.js'
import type { Workspace } from '../types.js'
import {
  type WorkspaceChanges,
  SLUG,
  buildWorkspace,
  deleteWorkspace,
  findWorkspace,
  insertWorkspace,
  isDefaultWorkspace,
  slugHolder,
  updateWorkspace,
  workspaceKeyCount,
} from '../store/workspaces.js'
import { type Operation, clone, jsonAnswer, payloadResponse } from './operation.js'

/** Page size of `GET /workspaces` when no `limit` is given: the official SDK's default. */
export const WORKSPACE_PAGE_DEFAULT = 50
/** The largest `limit` of `GET /workspaces`, as the SDK documents it. */
export const WORKSPACE_PAGE_MAX = 100

/** The fields of the body of `POST /workspaces` (the SDK's CreateWorkspaceRequest). */
const CREATE_FIELDS: ReadonlySet<string> = new Set([
  'name',
  'slug',
  'description',
  'default_text_model',
  'default_image_model',
  'default_provider_sort',
  'disabled_server_tools',
  'io_logging_api_key_ids',
  'io_logging_sampling_rate',
  'is_data_discount_logging_enabled',
  'is_observability_broadcast_enabled',
  'is_observability_io_logging_enabled',
])
/** `PATCH /workspaces/{id}` takes the same fields, every one optional (the SDK's UpdateWorkspaceRequest). */
const UPDATE_FIELDS = CREATE_FIELDS

const SLUG_RULE = { minLength: 1, pattern: SLUG, expected: 'lower-case letters and digits in words joined by single "-" (such as "production")' }

/**
 * The body's fields as changes to a record, every one checked (a 400 naming the first bad one).
 * `disabled_server_tools` is checked and then dropped: the simulator keeps no server tools.
 */
function readChanges(body: BodyReader): WorkspaceChanges {
  const changes: WorkspaceChanges = {}
  const name = body.optionalString('name', { minLength: 1 })
  if (name !== undefined) changes.name = name
  const slug = body.optionalString('slug', SLUG_RULE)
  if (slug !== undefined) {
    if (UUID.test(slug)) body.fail('slug', 'must not look like a UUID: GET /workspaces/{id} reads a UUID as an id', slug)
    changes.slug = slug
  }
  // Null clears one of these; an empty string is refused, as the programmatic API refuses it.
  for (const field of ['description', 'default_text_model', 'default_image_model', 'default_provider_sort'] as const) {
    const value = body.optionalString(field, { nullable: true, minLength: 1 })
    if (value !== undefined) changes[field] = value
  }
  const tools = body.optionalArray('disabled_server_tools', { nullable: true })
  tools?.forEach((tool, i) => {
    if (typeof tool !== 'string' || tool === '') body.fail(body.at('disabled_server_tools') + `[${i}]`, 'must be a server tool name such as "openrouter:web_search"', tool)
  })
  const keyIds = body.optionalArray('io_logging_api_key_ids', { nullable: true })
  if (keyIds !== undefined) {
    changes.io_logging_api_key_ids = keyIds === null ? null : keyIds.map((id, i) => body.checkNumber(`${body.at('io_logging_api_key_ids')}[${i}]`, id, { integer: true }))
  }
  // The SDK documents 0.0001 to 1; 0 would log nothing, which is_observability_io_logging_enabled says.
  const rate = body.optionalNumber('io_logging_sampling_rate', { min: 0.0001, max: 1 })
  if (rate !== undefined) changes.io_logging_sampling_rate = rate
  for (const field of ['is_data_discount_logging_enabled', 'is_observability_broadcast_enabled', 'is_observability_io_logging_enabled'] as const) {
    const value = body.optionalBoolean(field)
    if (value !== undefined) changes[field] = value
  }
  return changes
}

/** The 400 of a slug another workspace of the organisation has; the value shown as JSON, as every body field's refusal shows it. */
function slugTaken(slug: string): ApiError {
  return fieldError('slug', 'is already the slug of another workspace of this organisation', JSON.stringify(slug))
}

/** The caller's workspace named by the path (UUID or slug), or 404. */
function ownWorkspace(ctx: StoreContext, userId: string, idOrSlug: string): WorkspaceState {
  const workspace = findWorkspace(ctx, userId, idOrSlug)
  if (!workspace) throw ApiError.notFound({ resource: 'workspace' })
  return workspace
}

/** An organisation's workspaces in the order `sim.workspaces.list()` has them: oldest first, then by id. */
function workspacesOf(ctx: StoreContext, userId: string): Workspace[] {
  const own: { ms: number; record: Workspace }[] = []
  for (const state of ctx.data.workspaces.values()) {
    if (state.userId === userId) own.push({ ms: parseInstant(state.record.created_at) ?? 0, record: state.record })
  }
  own.sort((a, b) => a.ms - b.ms || (a.record.id < b.record.id ? -1 : a.record.id > b.record.id ? 1 : 0))
  return own.map((w) => w.record)
}

/** `limit`: an integer from 1 to {@link WORKSPACE_PAGE_MAX}; 0 would make the SDK's paging ask for the same page forever. */
export function limitParam(query: URLSearchParams): number {
  const value = single(query, 'limit')
  if (value === undefined) return WORKSPACE_PAGE_DEFAULT
  const n = Number(value)
  if (!/^\d+$/.test(value) || n < 1 || n > WORKSPACE_PAGE_MAX) {
    throw ApiError.badParameter('limit', `must be an integer from 1 to ${WORKSPACE_PAGE_MAX}`, value)
  }
  return n
}

/** `{"data":[...],"total_count":n}`: a list payload (its text cached like other lists) with the total after it. */
class CountedPayload implements JsonPayload {
  readonly byteLength: number
  private readonly tail: string

  constructor(
    private readonly list: JsonPayload,
    private readonly total: number,
  ) {
    this.tail = `,"total_count":${total}}`
    this.byteLength = list.byteLength - 1 + this.tail.length
  }

  text(): string {
    return this.list.text().slice(0, -1) + this.tail
  }

  value(): unknown {
    return { ...(this.list.value() as object), total_count: this.total }
  }
}

export const WORKSPACE_OPERATIONS: readonly Operation[] = [
  {
    name: 'getWorkspace',
    method: 'GET',
    template: '/workspaces/{id}',
    auth: 'management',
    run({ ctx, params, principal }) {
      const workspace = ownWorkspace(ctx, principal.userId, params['id'] as string)
      return payloadResponse(dataPayload(cachedJson(workspace.record), clone))
    },
  },
  {
    name: 'listWorkspaces',
    method: 'GET',
    template: '/workspaces',
    auth: 'management',
    run({ ctx, query, principal }) {
      const offset = offsetParam(query, 'offset') ?? 0
      const limit = limitParam(query)
      const all = workspacesOf(ctx, principal.userId)
      const entries: CachedJson<Workspace>[] = all.slice(offset, offset + limit).map((record) => cachedJson(record))
      const list = `workspaces ${principal.userId} ${offset} ${limit}`
      return payloadResponse(new CountedPayload(listPayload(entries, clone, { texts: ctx.listTexts, list }), all.length))
    },
  },
  {
    name: 'createWorkspace',
    method: 'POST',
    template: '/workspaces',
    auth: 'management',
    run({ ctx, principal, json }) {
      const body = new BodyReader(json()).known(CREATE_FIELDS)
      const name = body.string('name', { minLength: 1 })
      const slug = body.string('slug', SLUG_RULE)
      const changes = readChanges(body)
      if (slugHolder(ctx, principal.userId, slug) !== undefined) throw slugTaken(slug)
      // Everything is checked: the store's own checks pass, and only the ids are drawn.
      const state = atomically(ctx, () => {
        const built = buildWorkspace(ctx, {
          userId: principal.userId,
          name,
          slug,
          description: changes.description ?? null,
          defaultTextModel: changes.default_text_model ?? null,
          defaultImageModel: changes.default_image_model ?? null,
          defaultProviderSort: changes.default_provider_sort ?? null,
          ioLoggingApiKeyIds: changes.io_logging_api_key_ids ?? null,
          ...(changes.io_logging_sampling_rate !== undefined && { ioLoggingSamplingRate: changes.io_logging_sampling_rate }),
          ...(changes.is_data_discount_logging_enabled !== undefined && { isDataDiscountLoggingEnabled: changes.is_data_discount_logging_enabled }),
          ...(changes.is_observability_broadcast_enabled !== undefined && { isObservabilityBroadcastEnabled: changes.is_observability_broadcast_enabled }),
          ...(changes.is_observability_io_logging_enabled !== undefined && { isObservabilityIoLoggingEnabled: changes.is_observability_io_logging_enabled }),
        })
        insertWorkspace(ctx, built)
        return built
      })
      return payloadResponse(dataPayload(cachedJson(state.record), clone), 201)
    },
  },
  {
    name: 'updateWorkspace',
    method: 'PATCH',
    template: '/workspaces/{id}',
    auth: 'management',
    run({ ctx, params, principal, json }) {
      const workspace = ownWorkspace(ctx, principal.userId, params['id'] as string)
      const body = new BodyReader(json()).known(UPDATE_FIELDS)
      const changes = readChanges(body)
      if (changes.slug !== undefined && slugHolder(ctx, principal.userId, changes.slug, workspace.record.id) !== undefined) throw slugTaken(changes.slug)
      const updated = updateWorkspace(ctx, workspace, changes)
      return payloadResponse(dataPayload(cachedJson(updated.record), clone))
    },
  },
  {
    name: 'deleteWorkspace',
    method: 'DELETE',
    template: '/workspaces/{id}',
    auth: 'management',
    run({ ctx, params, query, principal }) {
      const workspace = ownWorkspace(ctx, principal.userId, params['id'] as string)
      const confirmed = booleanParam(query, 'confirm_default_workspace_deletion') ?? false
      // The request's own flag first, then what the workspace holds.
      if (isDefaultWorkspace(ctx, workspace) && !confirmed) {
        throw ApiError.badParameter('confirm_default_workspace_deletion', 'must be true to delete the default workspace')
      }
      const keys = workspaceKeyCount(ctx, workspace.record.id)
      if (keys > 0) {
        // Not a malformed parameter but the workspace's state: the reason is in the message too,
        // which is all most clients show (decisions/0036).
        const reason = `the workspace holds ${keys} API key${keys === 1 ? '' : 's'}; delete them first (DELETE /keys/{hash})`
        throw new ApiError(400, { message: `${ERROR_MESSAGES[400]}: ${reason}`, metadata: { parameter: 'id', reason, key_count: keys } })
      }
      deleteWorkspace(ctx, workspace)
      return jsonAnswer(200, { deleted: true })
    },
  },
]
