import { BEARER, type Principal, authenticate, requireManagement } from './auth.js'
import { type Controls, faultError, takeToken } from './controls.js'
import { ApiError, errorEnvelope } from './errors.js'
import type { JournalStore } from './journal.js'
import { pageOf } from './pagination.js'
import { booleanParam, decodeSegment, enumParam, offsetParam, uuidParam } from './params.js'
import type { StoreContext } from './store/context.js'
import { FILE_ID } from './store/files.js'
import { copyKeyWire, wireKey } from './store/keys.js'
import { type JsonPayload, cachedJson, dataPayload, listPayload } from './json-text.js'
import { windowsNow } from './store/context.js'
import { anonymousJson } from './store/models.js'
import { type FileProvider, type KeyState, fileScopeKey } from './store/state.js'
import { defaultWorkspaceId, findWorkspace } from './store/workspaces.js'

/** A request as an adapter hands it to the core, relative to the base URL. */
export interface SimRequest {
  method: string
  /** Path below the base URL, still percent-encoded, starting with `/`: `/models/openai/gpt-4%3Afree/endpoints`. */
  path: string
  query?: URLSearchParams | string
  /** The raw `Authorization` header, if any. */
  authorization?: string | null
}

/** Simulated latency on a response: the adapters wait `delayMs` for real only when `realDelay` is set. */
interface Timing {
  /** Milliseconds of simulated latency, already passed on the simulator clock. Absent when 0. */
  delayMs?: number
  /** The latency rule asked for a real wait too. */
  realDelay?: true
}

/**
 * A response as the core produces it; adapters only translate it. A fault may make it a network
 * error (`type: 'network-error'`, status 0) or a request never answered (`type: 'never'`).
 */
export type SimResponse = Timing &
  (
    | { status: number; headers: Record<string, string>; type: 'json'; body: unknown }
    | { status: number; headers: Record<string, string>; type: 'bytes'; body: Uint8Array }
    | { status: 0; headers: Record<string, string>; type: 'network-error' | 'never'; body: null }
  )

/** Names of the simulated operations, as faults, journals and errors refer to them. */
export type OperationName = 'listKeys' | 'getKey' | 'listEndpoints' | 'getFileContent' | 'getWorkspace' | 'listVideoModels'

interface Call<Caller> {
  ctx: StoreContext
  params: Record<string, string>
  query: URLSearchParams
  principal: Caller
}

interface OperationBase {
  name: OperationName
  /** Path template; `{name}` captures one segment. */
  template: string
}

/** A management operation runs only for a management key, so it is handed the principal itself. */
type Operation =
  | (OperationBase & { management: true; run(call: Call<Principal>): SimResponse })
  | (OperationBase & { management: false; run(call: Call<Principal | null>): SimResponse })

const JSON_HEADERS = { 'content-type': 'application/json' } as const

/** A cached response's body: the payload until `body` is read or set, then the object. */
interface BodyState {
  payload: JsonPayload | undefined
  body: unknown
}

const BODY = Symbol('body')
type WithBody = { [BODY]: BodyState }

// One accessor pair for every cached response (not a closure each: this runs on every request).
function readBody(this: WithBody): unknown {
  const state = this[BODY]
  if (state.payload !== undefined) {
    state.body = state.payload.value()
    state.payload = undefined
  }
  return state.body
}
function writeBody(this: WithBody, value: unknown): void {
  const state = this[BODY]
  state.body = value
  state.payload = undefined
}
const BODY_ACCESSOR: PropertyDescriptor = { get: readBody, set: writeBody, enumerable: true, configurable: true }

/**
 * A 200 whose body is made from cached JSON: the adapters send the payload's text, and `body` is
 * built from the same records on first read (so a caller that never reads it never pays for it).
 * Once `body` is read or set, the payload is withdrawn: an edited body is what gets sent.
 */
function payloadResponse(payload: JsonPayload): SimResponse {
  const response = { status: 200, headers: { ...JSON_HEADERS }, type: 'json' as const }
  Object.defineProperty(response, BODY, { value: { payload, body: undefined } satisfies BodyState })
  Object.defineProperty(response, 'body', BODY_ACCESSOR)
  return response as unknown as SimResponse
}

/** The cached payload of a response, while its body has not been read or replaced; else undefined. */
export function payloadOf(response: SimResponse): JsonPayload | undefined {
  return (response as Partial<WithBody>)[BODY]?.payload
}

const clone = <T>(value: T): T => structuredClone(value)

const FILE_PROVIDERS: readonly FileProvider[] = ['openai', 'anthropic']

/**
 * `attachment; filename="..."`, with an RFC 8187 `filename*` when the name is not plain ASCII.
 * encodeURIComponent leaves `'()*` (and `!`) as they are; RFC 8187's attr-char allows `!` but not
 * the others, and a parser splits the value at a bare `'`.
 */
function contentDisposition(filename: string): string {
  if (/^[\x20-\x7e]*$/.test(filename) && !/["\\]/.test(filename)) return `attachment; filename="${filename}"`
  const fallback = filename.replace(/[^\x20-\x7e]|["\\]/g, '_')
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`
}

/** The one table of simulated operations. */
export const OPERATIONS: readonly Operation[] = [
  {
    name: 'listKeys',
    template: '/keys',
    management: true,
    run({ ctx, query, principal }) {
      const userId = principal.userId
      const includeDisabled = booleanParam(query, 'include_disabled') ?? false
      const offset = offsetParam(query, 'offset') ?? 0
      let workspaceId = uuidParam(query, 'workspace_id')
      if (workspaceId === undefined) {
        workspaceId = defaultWorkspaceId(ctx, userId)
      } else if (ctx.data.workspaces.get(workspaceId)?.userId !== userId) {
        throw ApiError.badParameter('workspace_id', 'is not a workspace of the caller', workspaceId)
      }
      const index = ctx.indices.listableKeys.get(workspaceId)
      const windows = windowsNow(ctx)
      const list = `keys ${workspaceId} ${includeDisabled} ${offset}`
      // The index orders keys; the store holds each one's current state.
      const payload = ctx.keyPages.page(
        list,
        ctx,
        windows,
        () => pageOf(includeDisabled ? index?.all : index?.enabled, offset),
        (entries) => listPayload(entries, copyKeyWire, { texts: ctx.listTexts, list }),
      )
      return payloadResponse(payload)
    },
  },
  {
    name: 'getKey',
    template: '/keys/{hash}',
    management: true,
    run({ ctx, params, principal }) {
      const key = ctx.data.keys.get(params['hash'] as string)
      // Another organisation's key is as absent as a key that never existed.
      if (!key || key.userId !== principal.userId) throw ApiError.notFound({ resource: 'key' })
      return payloadResponse(dataPayload(wireKey(key, windowsNow(ctx)), copyKeyWire))
    },
  },
  {
    name: 'listEndpoints',
    template: '/models/{author}/{slug}/endpoints',
    management: false,
    run({ ctx, params, principal }) {
      const id = `${params['author']}/${params['slug']}`
      const model = ctx.data.models.get(id)
      if (!model) throw ApiError.notFound({ resource: 'model', model: id })
      return payloadResponse(dataPayload(principal ? cachedJson(model) : anonymousJson(model), clone))
    },
  },
  {
    name: 'getFileContent',
    template: '/files/{file_id}/content',
    management: true,
    run({ ctx, params, query, principal }) {
      const userId = principal.userId
      const fileId = params['file_id'] as string
      if (!FILE_ID.test(fileId)) throw ApiError.badParameter('file_id', 'must be 1 to 256 characters of [A-Za-z0-9_-]', fileId)
      const workspaceId = uuidParam(query, 'workspace_id') ?? defaultWorkspaceId(ctx, userId)
      const provider = enumParam(query, 'provider', FILE_PROVIDERS) ?? null
      const file = ctx.data.files.get(fileScopeKey(workspaceId, provider, fileId))
      if (!file || file.userId !== userId) throw ApiError.notFound({ resource: 'file' })
      if (file.origin !== 'server') {
        throw ApiError.badParameter('file_id', 'the file was uploaded; only server-created files can be downloaded', fileId)
      }
      return {
        status: 200,
        headers: {
          'content-type': 'application/octet-stream',
          'content-length': String(file.bytes.byteLength),
          'content-disposition': contentDisposition(file.filename),
        },
        type: 'bytes',
        // The store's own bytes: the router hands the caller a copy, and the journal shares these.
        body: file.bytes,
      }
    },
  },
  {
    name: 'getWorkspace',
    template: '/workspaces/{id}',
    management: true,
    run({ ctx, params, principal }) {
      const workspace = findWorkspace(ctx, principal.userId, params['id'] as string)
      if (!workspace) throw ApiError.notFound({ resource: 'workspace' })
      return payloadResponse(dataPayload(cachedJson(workspace.record), clone))
    },
  },
  {
    name: 'listVideoModels',
    template: '/videos/models',
    management: false,
    run({ ctx }) {
      return payloadResponse(listPayload(Array.from(ctx.data.videoModels.values(), cachedJson), clone, { texts: ctx.listTexts, list: 'video models' }))
    },
  },
]

const ROUTES = OPERATIONS.map((operation) => ({ operation, segments: operation.template.split('/').slice(1) }))
const SIMULATED = OPERATIONS.map((o) => `GET ${o.template}`).join(', ')

function match(path: string): { operation: Operation; params: Record<string, string> } | undefined {
  const segments = path.split('/').slice(1)
  for (const { operation, segments: template } of ROUTES) {
    if (template.length !== segments.length) continue
    const params: Record<string, string> = {}
    const matched = template.every((part, i) => {
      const segment = segments[i] as string
      if (part.startsWith('{')) {
        params[part.slice(1, -1)] = segment
        return true
      }
      return part === segment
    })
    if (matched) return { operation, params }
  }
  return undefined
}

function errorResponse(error: ApiError, principal: Principal | null): SimResponse {
  return {
    status: error.status,
    headers: { ...JSON_HEADERS, ...error.headers },
    type: 'json',
    body: errorEnvelope(error.status, { message: error.message, metadata: error.metadata, userId: principal?.userId }),
  }
}

/** The caller's key hash if the bearer names a known key, whatever its state; never throws. */
function bearerKeyHash(ctx: StoreContext, authorization: string | null | undefined): string | null {
  const found = BEARER.exec(authorization?.trim() ?? '')
  return (found && ctx.indices.keyHashBySecret.get(found[1] as string)) ?? null
}

/** The caller, or the 401 to answer with: read once per request, used by the journal and the operation. */
type Caller = { principal: Principal | null } | { failure: ApiError }

function callerOf(ctx: StoreContext, authorization: string | null | undefined): Caller {
  try {
    return { principal: authenticate(ctx, authorization) }
  } catch (error) {
    if (error instanceof ApiError) return { failure: error }
    throw error
  }
}

/** The query as the journal shows it; a request whose query cannot be read shows none. */
function queryText(request: SimRequest): string {
  try {
    return request.query instanceof URLSearchParams ? request.query.toString() : String(request.query ?? '').replace(/^\?/, '')
  } catch {
    return ''
  }
}

/** The operation a request names (any method but GET, or an unknown path, names none). */
function routeOf(request: SimRequest): { method: string; path: string; matched: ReturnType<typeof match> } {
  const method = request.method.toUpperCase()
  const path = request.path.startsWith('/') ? request.path : `/${request.path}`
  return { method, path, matched: method === 'GET' ? match(path) : undefined }
}

/** The operation a request names, or null (another method, an unknown path); never throws. */
export function operationOf(request: SimRequest): OperationName | null {
  try {
    return routeOf(request).matched?.operation.name ?? null
  } catch {
    return null
  }
}

/** The six operations and the catch-all, after faults and rate limits have let the request through. */
function serve(ctx: StoreContext, request: SimRequest, method: string, path: string, matched: ReturnType<typeof match>, caller: Caller): SimResponse {
  // Known only once the request names an operation: the catch-all answers without a user_id.
  let principal: Principal | null = null
  try {
    if (!matched) {
      throw new ApiError(404, {
        message: `${method} ${path} is not simulated by model-access-sim; it simulates ${SIMULATED}`,
        metadata: { reason: 'not_simulated', method, path },
      })
    }
    const { operation } = matched
    if ('failure' in caller) throw caller.failure
    principal = caller.principal
    const allowed = operation.management ? requireManagement(principal) : principal
    const params: Record<string, string> = {}
    for (const [name, raw] of Object.entries(matched.params)) params[name] = decodeSegment(raw, name)
    const query = request.query instanceof URLSearchParams ? request.query : new URLSearchParams(request.query ?? '')
    return operation.management ? operation.run({ ctx, params, query, principal: allowed as Principal }) : operation.run({ ctx, params, query, principal: allowed })
  } catch (error) {
    if (error instanceof ApiError) return errorResponse(error, principal)
    return errorResponse(new ApiError(500, { metadata: { reason: error instanceof Error ? error.message : String(error) } }), principal)
  }
}

/** What the router needs besides the store: the controls and the journal of one simulator. */
export interface RouterContext {
  controls: Controls
  journal: JournalStore
}

const bad = (field: string, expected: string): ApiError =>
  new ApiError(400, { message: `Malformed request: "${field}" must be ${expected}`, metadata: { parameter: field, reason: `must be ${expected}` } })

/** A request's field that is not what a SimRequest holds: the 400 to answer, naming it. */
function malformed(request: unknown): ApiError | null {
  if (typeof request !== 'object' || request === null) return bad('request', 'an object { method, path, query?, authorization? }')
  const { method, path, query, authorization } = request as Record<string, unknown>
  if (typeof method !== 'string') return bad('method', 'a string such as "GET"')
  if (typeof path !== 'string') return bad('path', 'a string such as "/keys"')
  if (query !== undefined && query !== null && typeof query !== 'string' && !(query instanceof URLSearchParams)) return bad('query', 'a string or URLSearchParams')
  if (authorization !== undefined && authorization !== null && typeof authorization !== 'string') return bad('authorization', 'a string or null')
  return null
}

/**
 * The router: one request in, one response out, never a throw. In order: faults, then the rate
 * limiter, then the operation (auth, validation, lookup), then latency; every request is journaled.
 * An internal failure becomes a 500 envelope; anything not simulated becomes a 404 envelope naming it.
 */
export function handleRequest(ctx: StoreContext, router: RouterContext, request: SimRequest, shareBytes = false): SimResponse {
  const arrivedMs = ctx.clock.nowMs()
  let response: SimResponse
  let operation: OperationName | null = null
  let fault: string | null = null
  let rateLimited = false
  let principal: Principal | null = null
  // What the journal shows of the request; empty for a request too malformed to read.
  let shown = { method: '', path: '', query: '' }
  try {
    const refused = malformed(request)
    if (refused !== null) throw refused
    shown = { method: request.method.toUpperCase(), path: request.path, query: queryText(request) }
    const { method, path, matched } = routeOf(request)
    operation = matched?.operation.name ?? null
    const keyHash = bearerKeyHash(ctx, request.authorization)
    const caller = callerOf(ctx, request.authorization)
    principal = 'principal' in caller ? caller.principal : null
    const picked = router.controls.pickFault({ operation, path, keyHash })
    const retryAfter = picked === null ? takeToken(ctx, keyHash, router.controls.defaultRateLimit) : null
    if (picked !== null) {
      fault = picked.name
      response =
        picked.respond === 'network-error' || picked.respond === 'never'
          ? { status: 0, headers: {}, type: picked.respond, body: null }
          : errorResponse(faultError(picked.respond), principal)
    } else if (retryAfter !== null) {
      rateLimited = true
      response = errorResponse(new ApiError(429, { headers: { 'retry-after': String(retryAfter) } }), principal)
    } else {
      response = serve(ctx, request, method, path, matched, caller)
    }
  } catch (error) {
    response =
      error instanceof ApiError ? errorResponse(error, principal) : errorResponse(new ApiError(500, { metadata: { reason: error instanceof Error ? error.message : String(error) } }), principal)
  }
  const delay = router.controls.delayFor(operation)
  if (delay.ms > 0) {
    // The router never throws: at the very end of the Date range the clock stays where it is. A
    // real clock is moved by a real wait itself; jumping it too would count the delay twice.
    const waitsForReal = delay.real && ctx.clock.mode === 'real'
    if (!waitsForReal && ctx.clock.nowMs() + delay.ms <= 8.64e15) ctx.clock.advance(delay.ms)
    // The response is this request's own object: set, not spread, which would build a cached body.
    response.delayMs = delay.ms
    if (delay.real) response.realDelay = true
  }
  router.journal.add({
    arrivedMs,
    ...shown,
    operation,
    status: response.status,
    outcome: response.type === 'network-error' || response.type === 'never' ? response.type : 'response',
    principal,
    fault,
    rateLimited,
    delayMs: delay.ms,
    response,
  })
  // The caller gets its own copy of a file's bytes (unless it is an adapter that asked to share
  // them, src/core/internals.ts); the journal keeps the store's, shared.
  return response.type === 'bytes' && !shareBytes ? { ...response, body: response.body.slice() } : response
}
