import { type Principal, bearerSecret, malformedBearer, principalOfKey, requireManagement } from './auth.js'
import { MAX_BODY_BYTES, readJsonObject, readSharedJsonObject, strictUtf8, type UnknownFields, unknownFieldsPolicy } from './body.js'
import { type Controls, faultError } from './faults.js'
import { takeToken } from './store/rate-limits.js'
import { ApiError, AUTH_MESSAGES, errorEnvelope, invalidArgument } from './errors.js'
import { describe } from './describe.js'
import type { JournalStore, KeptEntry } from './journal.js'
import { decodeSegment } from './params.js'
import type { StoreContext } from './store/context.js'
import { OPERATIONS } from './operations/index.js'
import { oauthErrorResponse } from './operations/oauth.js'
import { type Call, type Operation, JSON_HEADERS, guardrailFlagsOf, responderOf, settleOf, warningsOf, withResponder } from './operations/operation.js'

/** The warnings of a reply that had none: one shared list (the journal never writes to it). */
const NO_WARNINGS: string[] = Object.freeze([]) as unknown as string[]
import type { GuardrailFlag, OperationName, SimRequest, SimResponse } from './protocol.js'
import type { InferenceRuntime } from './inference/chat.js'
import { ResponderFailure, remainingUses } from './inference/responders.js'


const ROUTES = OPERATIONS.map((operation) => ({ operation, segments: operation.template.split('/').slice(1) }))

/** The routes by method, then by number of segments, in table order: a request tries only those of its shape. */
const ROUTES_BY_SHAPE = new Map<string, (typeof ROUTES)[number][][]>()
for (const route of ROUTES) {
  let byLength = ROUTES_BY_SHAPE.get(route.operation.method)
  if (byLength === undefined) ROUTES_BY_SHAPE.set(route.operation.method, (byLength = []))
  ;(byLength[route.segments.length] ??= []).push(route)
}

/** The parameters of a template without any (shared: read, never written). */
const NO_PARAMS: Record<string, string> = Object.freeze({}) as Record<string, string>
const SIMULATED = OPERATIONS.map((o) => `${o.method} ${o.template}`).join(', ')

type Matched = { operation: Operation; params: Record<string, string> }

function match(method: string, path: string): Matched | undefined {
  // `path` starts with '/': its first piece is empty.
  const segments = path.split('/')
  const candidates = ROUTES_BY_SHAPE.get(method)?.[segments.length - 1]
  if (candidates === undefined) return undefined
  for (let c = 0; c < candidates.length; c++) {
    const { operation, segments: template } = candidates[c] as (typeof candidates)[number]
    let params: Record<string, string> | undefined
    let matched = true
    for (let i = 0; i < template.length; i++) {
      const part = template[i] as string
      const segment = segments[i + 1] as string
      if (part.charCodeAt(0) === 0x7b) (params ??= {})[part.slice(1, -1)] = segment
      else if (part !== segment) {
        matched = false
        break
      }
    }
    if (matched) return { operation, params: params ?? NO_PARAMS }
  }
  return undefined
}

function errorResponse(error: ApiError, principal: Principal | null): SimResponse {
  const response: SimResponse = {
    status: error.status,
    headers: { ...JSON_HEADERS, ...error.headers },
    type: 'json',
    body: errorEnvelope(error.status, { message: error.message, metadata: error.metadata, userId: principal?.userId }),
  }
  return error instanceof ResponderFailure ? withResponder(response, error.by) : response
}

/** The caller, or the 401 to answer with: read once per request, used by the journal and the operation. */
type Caller = { principal: Principal | null } | { failure: ApiError }

const ANONYMOUS: Caller = Object.freeze({ principal: null })

/** The caller of a bearer secret (see `bearerSecret`) whose key, if any, has the hash `keyHash`. */
function callerOf(ctx: StoreContext, secret: string | null | undefined, keyHash: string | null): Caller {
  if (secret === undefined) return ANONYMOUS
  if (secret === null) return { failure: malformedBearer() }
  try {
    return { principal: principalOfKey(ctx, keyHash ?? undefined) }
  } catch (error) {
    if (error instanceof ApiError) return { failure: error }
    throw error
  }
}

/** The query as the journal shows it; a request whose query cannot be read shows none. */
function queryText(request: SimRequest): string {
  try {
    if (request.query instanceof URLSearchParams) return request.query.size === 0 ? '' : request.query.toString()
    return String(request.query ?? '').replace(/^\?/, '')
  } catch {
    return ''
  }
}

/** The operation a request names (an unknown path, or a method the path does not take, names none). */
function routeOf(request: SimRequest): { method: string; path: string; matched: Matched | undefined } {
  const method = request.method.toUpperCase()
  const path = request.path.startsWith('/') ? request.path : `/${request.path}`
  return { method, path, matched: match(method, path) }
}

/** A header of the request by name (lower case), or undefined. */
function headerOf(request: SimRequest, name: string): string | undefined {
  const headers = request.headers
  if (headers === undefined || headers === null) return undefined
  const direct = headers[name]
  if (direct !== undefined) return direct
  for (const key in headers) if (key.toLowerCase() === name) return headers[key]
  return undefined
}

/** The body's content type as the core reads it: undefined when the caller sent no headers or none of that name. */
function contentTypeOf(request: SimRequest): string | undefined {
  return headerOf(request, 'content-type')
}

/**
 * A bytes body read as UTF-8 once, for the journal and the operation alike: its text; undefined
 * when the body is not bytes, is over the cap (its 413 reads the bytes' size) or is not UTF-8.
 */
function decodedBody(body: SimRequest['body']): string | undefined {
  if (!(body instanceof Uint8Array) || body.byteLength > MAX_BODY_BYTES) return undefined
  return strictUtf8(body)
}

/** The body as a JSON object, read from the text decoded once when there is one; `shared`: {@link readSharedJsonObject}. */
function readBody(request: SimRequest, decoded: string | undefined, shared = false): Record<string, unknown> {
  const read = shared ? readSharedJsonObject : readJsonObject
  if (decoded === undefined) return read(request.body, contentTypeOf(request))
  return read(decoded, contentTypeOf(request), (request.body as Uint8Array).byteLength)
}

/** The operation a request names, or null (another method, an unknown path); never throws. */
export function operationOf(request: SimRequest): OperationName | null {
  try {
    return routeOf(request).matched?.operation.name ?? null
  } catch {
    return null
  }
}

/** The operations and the catch-all, after faults and rate limits have let the request through. */
function serve(ctx: StoreContext, router: RouterContext, request: SimRequest, method: string, path: string, matched: Matched | undefined, caller: Caller, decoded: string | undefined, unknownFields: UnknownFields): SimResponse {
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
    let allowed: Principal | null = principal
    if (operation.auth === 'management') allowed = requireManagement(principal)
    else if (operation.auth === 'key' && principal === null) throw new ApiError(401, { message: AUTH_MESSAGES.missing })
    const params: Record<string, string> = {}
    const raw = matched.params
    for (const name in raw) params[name] = decodeSegment(raw[name] as string, name)
    const query = request.query instanceof URLSearchParams ? request.query : new URLSearchParams(request.query ?? '')
    let body: Record<string, unknown> | undefined
    const call: Call<Principal | null> = {
      ctx,
      params,
      query,
      principal: allowed,
      request,
      defaultRateLimit: router.controls.defaultRateLimit,
      json: () => (body ??= readBody(request, decoded)),
      sharedJson: () => (body ??= readBody(request, decoded, true)),
      unknownFields,
      inference: router.inference,
    }
    return operation.auth === 'public' ? operation.run(call) : operation.run(call as Call<Principal>)
  } catch (error) {
    if (error instanceof ApiError) return errorResponse(error, principal)
    return errorResponse(new ApiError(500, { metadata: { reason: error instanceof Error ? error.message : String(error) } }), principal)
  }
}

/** What the router needs besides the store: the controls and the journal of one simulator. */
export interface RouterContext {
  controls: Controls
  journal: JournalStore
  inference: InferenceRuntime
  /** The simulator's `strictRequests`: an inference request's unknown field is a 400, not an ignored field (decisions/0036). */
  strictRequests: boolean
}

const bad = (field: string, expected: string): ApiError =>
  new ApiError(400, { message: `Malformed request: "${field}" must be ${expected}`, metadata: { parameter: field, reason: `must be ${expected}` } })

/** A request's field that is not what a SimRequest holds: the 400 to answer, naming it. */
function malformed(request: unknown): ApiError | null {
  if (typeof request !== 'object' || request === null) return bad('request', 'an object { method, path, query?, authorization?, body?, headers? }')
  const { method, path, query, authorization } = request as Record<string, unknown>
  if (typeof method !== 'string') return bad('method', 'a string such as "GET"')
  if (typeof path !== 'string') return bad('path', 'a string such as "/keys"')
  if (query !== undefined && query !== null && typeof query !== 'string' && !(query instanceof URLSearchParams)) return bad('query', 'a string or URLSearchParams')
  if (authorization !== undefined && authorization !== null && typeof authorization !== 'string') return bad('authorization', 'a string or null')
  const { body, headers } = request as Record<string, unknown>
  if (body !== undefined && body !== null && typeof body !== 'string' && !(body instanceof Uint8Array)) return bad('body', 'a string, a Uint8Array or null')
  if (headers !== undefined && headers !== null) {
    if (typeof headers !== 'object' || Array.isArray(headers)) return bad('headers', 'an object of header names to strings')
    for (const name in headers) {
      const value = (headers as Record<string, unknown>)[name]
      if (Object.hasOwn(headers, name) && value !== undefined && typeof value !== 'string') return bad(`headers.${name}`, 'a string')
    }
  }
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
  // What the journal shows of the request; empty for a request too malformed to read. The journal
  // reads the body itself: a refused one only up to its cap (decisions/0043).
  let shownMethod = ''
  let shownPath = ''
  let shownQuery = ''
  let requestBody: string | Uint8Array | null = null
  let decoded: string | undefined
  // The unknown fields an inference request's readers accepted, for the journal (decisions/0036).
  const unknownFields = unknownFieldsPolicy(router.strictRequests)
  try {
    const refused = malformed(request)
    if (refused !== null) throw refused
    shownMethod = request.method.toUpperCase()
    shownPath = request.path
    shownQuery = queryText(request)
    decoded = decodedBody(request.body)
    requestBody = request.body ?? null
    const { method, path, matched } = routeOf(request)
    operation = matched?.operation.name ?? null
    // The header is read once: the key's hash (for faults and the rate limiter, whatever its state) and the caller.
    const secret = bearerSecret(request.authorization)
    const keyHash = typeof secret === 'string' ? (ctx.indices.keyHashBySecret.get(secret) ?? null) : null
    const caller = callerOf(ctx, secret, keyHash)
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
      response = serve(ctx, router, request, method, path, matched, caller, decoded, unknownFields)
    }
    // The token endpoint's clients read RFC 6749 errors, whatever answered: the operation, a fault, the limiter.
    if (operation === 'createOauthToken') response = oauthErrorResponse(response)
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
  // The responder rule whose reply or error this is, if any (operations/operation.ts marks it).
  const answered = responderOf(response) ?? null
  const kept = router.journal.add({
    arrivedMs,
    method: shownMethod,
    path: shownPath,
    query: shownQuery,
    body: requestBody,
    decoded,
    operation,
    status: response.status,
    outcome: response.type === 'network-error' || response.type === 'never' ? response.type : 'response',
    principal,
    fault,
    responder: answered === null ? null : answered.name,
    responderRemaining: answered === null ? null : remainingUses(answered),
    rateLimited,
    delayMs: delay.ms,
    ignoredFields: unknownFields.ignored,
    warnings: warningsOf(response) ?? NO_WARNINGS,
    guardrailFlags: guardrailFlagsOf(response) ?? (NO_WARNINGS as unknown as GuardrailFlag[]),
    response,
  })
  // The caller gets its own copy of a file's bytes (unless it is an adapter that asked to share
  // them, src/core/internals.ts); the journal keeps the store's, shared.
  const out = response.type === 'bytes' && !shareBytes ? { ...response, body: response.body.slice() } : response
  return withCancel(router.journal, kept, out, delay.real)
}

/**
 * Gives a response the `cancel` an adapter calls when its client leaves early (decisions/0026,
 * 0044): a stream's settles the charge and journals the entry `'cut-short'`; an answered one's,
 * only when a `real` latency wait gives the client time to leave before it is sent, journals it
 * `'client-left'` and leaves the charge whole. Not enumerable: the response stays plain data.
 */
function withCancel(journal: JournalStore, kept: KeptEntry | undefined, response: SimResponse, realDelay: boolean): SimResponse {
  const settle = response.type === 'stream' ? settleOf(response) : undefined
  let cancel: ((framesSent: number) => boolean) | undefined
  if (settle !== undefined && response.type === 'stream') {
    const frames = response.body
    cancel = (framesSent) => {
      const settled = settle(framesSent)
      if (settled === undefined) return false
      if (kept !== undefined && framesSent < frames.length) journal.cutShort(kept, frames, { framesSent, charged: settled.charged, generationId: settled.generationId })
      return settled.changed
    }
  } else if (realDelay && (response.type === 'json' || response.type === 'bytes')) {
    let left = false
    cancel = (framesSent) => {
      if (framesSent !== 0) throw invalidArgument('cancel a response', 'framesSent', `must be 0 for an answer that is not a stream (it is sent whole or not at all), got ${describe(framesSent)}`)
      if (left) return false
      left = true
      if (kept !== undefined) journal.clientLeft(kept)
      return false
    }
  }
  if (cancel !== undefined) Object.defineProperty(response, 'cancel', { value: cancel, enumerable: false })
  return response
}
