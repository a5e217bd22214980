// OAuth on the wire (decisions/0049): the PKCE flow that gives an app a key of the user's
// organisation (`POST /auth/keys/code`, then `POST /auth/keys`), and the workload identity token
// exchange (`POST /oauth/token`) with its signing keys (`GET /oauth/jwks`), which answer as an
// organisation with no federation policy would: the simulator has none.
import type { Principal } from '../auth.js'
import { toBase64Url } from '../base64.js'
import { BodyReader, refuseOverCap, strictUtf8 } from '../body.js'
import { ApiError } from '../errors.js'
import type { SimRequest, SimResponse } from '../protocol.js'
import { sha256 } from '../sha256.js'
import { type StoreContext, atomically } from '../store/context.js'
import { insertKey, newKey } from '../store/keys.js'
import { CODE_CHALLENGE_METHODS, callbackUrlProblem, challengeProblem, insertCode, useCode, verifierProblem } from '../store/oauth.js'
import { OAUTH_CODE_LIFETIME_MS } from '../store/oauth-lifetime.js'
import type { CodeChallengeMethod, KeyState, OAuthCodeState } from '../store/state.js'
import { defaultWorkspaceParam } from '../store/workspaces.js'
import { formatTimestamp } from '../time.js'
import type { LimitReset } from '../types.js'
import { readCallersWorkspace, readKeyExpiry, regularKeyDraft } from './keys.js'
import { type Call, type Operation, jsonAnswer } from './operation.js'

const LIMIT_RESETS: readonly LimitReset[] = ['daily', 'weekly', 'monthly']

/** The body fields of `POST /auth/keys/code`: the SDK's request, every one of them. */
const CODE_FIELDS: ReadonlySet<string> = new Set(['callback_url', 'code_challenge', 'code_challenge_method', 'expires_at', 'key_label', 'limit', 'usage_limit_type', 'workspace_id'])
/** The body fields of `POST /auth/keys`. */
const EXCHANGE_FIELDS: ReadonlySet<string> = new Set(['code', 'code_verifier', 'code_challenge_method'])

/** The S256 challenge of a verifier: base64url(sha256(verifier)), as RFC 7636 section 4.2 makes it. */
export function s256Challenge(verifier: string): string {
  return toBase64Url(sha256(new TextEncoder().encode(verifier)))
}

/** Whether `verifier` is the one `challenge` was made from with `method`. */
export function verifies(verifier: string, challenge: string, method: CodeChallengeMethod): boolean {
  return (method === 'S256' ? s256Challenge(verifier) : verifier) === challenge
}

/** A refused exchange: 403, saying which of the code's facts refused it (`metadata.reason`). */
function refused(reason: string, message: string): ApiError {
  return new ApiError(403, { message, metadata: { reason } })
}

/** `POST /auth/keys/code`: a code for a key of the caller's organisation, in the workspace asked. */
function createCode({ ctx, principal, json }: Call<Principal>): SimResponse {
  const body: BodyReader = new BodyReader(json()).known(CODE_FIELDS)
  const callbackUrl = body.string('callback_url', { expected: 'an https URL' })
  const urlProblem = callbackUrlProblem(callbackUrl)
  if (urlProblem !== undefined) body.fail('callback_url', urlProblem, callbackUrl)
  const challenge = body.optionalString('code_challenge', { minLength: 1 })
  const method = body.optionalEnum('code_challenge_method', CODE_CHALLENGE_METHODS)
  if (challenge === undefined && method !== undefined) body.fail('code_challenge_method', 'is given without code_challenge', method)
  // RFC 7636 section 4.3: a challenge without a method is a plain one.
  const challengeMethod = challenge === undefined ? null : (method ?? 'plain')
  if (challenge !== undefined) {
    const problem = challengeProblem(challenge, challengeMethod ?? 'plain')
    if (problem !== undefined) body.fail('code_challenge', problem, challenge)
  }
  const keyExpiresAt = readKeyExpiry(ctx, body)
  const keyLabel = body.optionalString('key_label', { minLength: 1, maxLength: 100 })
  const limit = body.optionalNumber('limit', { min: 0 })
  const limitReset = body.optionalEnum('usage_limit_type', LIMIT_RESETS)
  const asked = readCallersWorkspace(ctx, body, principal)
  // A regular key stays in its own workspace: only a management key asks for a key elsewhere.
  const own = (ctx.data.keys.get(principal.keyHash) as KeyState).workspaceId
  if (!principal.management && asked !== undefined && asked !== own) {
    throw new ApiError(403, { message: 'A regular API key can ask for keys only in its own workspace; use a management key for another', metadata: { reason: 'other_workspace' } })
  }
  const workspaceId = asked ?? (principal.management ? defaultWorkspaceParam(ctx, principal.userId) : own)
  const code = atomically(ctx, () =>
    insertCode(ctx, {
      userId: principal.userId,
      workspaceId,
      callbackUrl,
      challenge: challenge ?? null,
      method: challengeMethod,
      keyLabel,
      limit: limit ?? null,
      limitReset: limitReset ?? null,
      keyExpiresAt,
    }),
  )
  return jsonAnswer(200, { data: { id: code.code, app_id: code.appId, created_at: formatTimestamp(code.createdAt) } })
}

/** The code a `POST /auth/keys` may still exchange, or the 403 saying why not. */
function usableCode(ctx: StoreContext, text: string): OAuthCodeState {
  const code = ctx.data.oauthCodes.get(text)
  if (code === undefined) throw refused('unknown_code', 'Invalid code: no authorization code matches it')
  if (code.usedAt !== null) throw refused('code_used', `Invalid code: it was already exchanged for a key at ${formatTimestamp(code.usedAt)}, and a code is used once`)
  if (code.expiresAt <= ctx.clock.nowMs()) {
    throw refused('code_expired', `Invalid code: it expired at ${formatTimestamp(code.expiresAt)}, ${OAUTH_CODE_LIFETIME_MS / 60_000} minutes after it was made`)
  }
  if (!ctx.data.workspaces.has(code.workspaceId)) throw refused('workspace_deleted', 'Invalid code: the workspace it was made for has been deleted')
  return code
}

/** `POST /auth/keys`: the code's key, made once, for whoever holds the code (and its verifier). */
function exchangeCode({ ctx, json }: Call<Principal | null>): SimResponse {
  const body: BodyReader = new BodyReader(json()).known(EXCHANGE_FIELDS)
  const text = body.string('code', { minLength: 1 })
  const verifier = body.optionalString('code_verifier', {})
  if (verifier !== undefined) {
    const problem = verifierProblem(verifier)
    if (problem !== undefined) body.fail('code_verifier', problem, verifier)
  }
  const method = body.optionalEnum('code_challenge_method', CODE_CHALLENGE_METHODS, true)
  const code = usableCode(ctx, text)
  if (code.challenge !== null && code.method !== null) {
    if (verifier === undefined) body.fail('code_verifier', `is required: the code was made with a ${code.method} code_challenge`)
    if (method !== undefined && method !== null && method !== code.method) body.fail('code_challenge_method', `must be ${code.method}, the method the code's challenge was made with`, method)
    if (!verifies(verifier, code.challenge, code.method)) {
      throw refused('verifier_mismatch', `Invalid code_verifier: its ${code.method} challenge is not the code_challenge the code was made with`)
    }
  }
  const key = atomically(ctx, () => {
    const draft = regularKeyDraft(ctx, code.userId, code.workspaceId, code.keyName)
    draft.limit = code.limit
    draft.limitReset = code.limitReset
    draft.expiresAt = code.keyExpiresAt
    const made = insertKey(ctx, newKey(ctx, draft))
    useCode(ctx, code, made.hash)
    return made
  })
  return jsonAnswer(200, { key: key.secret, user_id: code.userId })
}

/** RFC 8693's values, as `POST /oauth/token` takes them. */
const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange'
const JWT_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:jwt'
const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token'

/** An RFC 6749 (section 5.2) refusal of `POST /oauth/token`: {@link oauthErrorResponse} writes it. */
function tokenError(error: string, description: string): ApiError {
  return new ApiError(400, { message: description, metadata: { error } })
}

/** The content type of a request, by name in any case; undefined without one. */
function contentTypeOf(request: SimRequest): string | undefined {
  const headers = request.headers ?? {}
  for (const name in headers) if (name.toLowerCase() === 'content-type') return headers[name]
  return undefined
}

/** The fields of a form body (`application/x-www-form-urlencoded`, as RFC 8693 sends them). */
function formOf(request: SimRequest): URLSearchParams {
  // The one cap on every body the service reads (413), first, as for a JSON body.
  if (request.body !== null && request.body !== undefined) refuseOverCap(request.body)
  const type = contentTypeOf(request)
  if (type !== undefined && type.split(';')[0]?.trim().toLowerCase() !== 'application/x-www-form-urlencoded') {
    throw tokenError('invalid_request', `The body must be sent as application/x-www-form-urlencoded, got ${JSON.stringify(type)}`)
  }
  const raw = request.body
  const text = raw instanceof Uint8Array ? strictUtf8(raw) : (raw ?? '')
  if (text === undefined) throw tokenError('invalid_request', 'The body is not UTF-8')
  return new URLSearchParams(text)
}

/** A required form field, or the `invalid_request` naming it. */
function formField(form: URLSearchParams, name: string): string {
  const value = form.get(name)
  if (value === null || value === '') throw tokenError('invalid_request', `${name} is required`)
  return value
}

/** `POST /oauth/token`: the request checked as the service checks it, then refused as no policy trusts it. */
function exchangeToken({ request }: Call<Principal | null>): SimResponse {
  const form = formOf(request)
  const grantType = formField(form, 'grant_type')
  if (grantType !== TOKEN_EXCHANGE) throw tokenError('unsupported_grant_type', `grant_type must be ${TOKEN_EXCHANGE}, got ${JSON.stringify(grantType)}`)
  formField(form, 'subject_token')
  const subjectType = formField(form, 'subject_token_type')
  if (subjectType !== JWT_TOKEN_TYPE) throw tokenError('invalid_request', `subject_token_type must be ${JWT_TOKEN_TYPE}, got ${JSON.stringify(subjectType)}`)
  const requested = form.get('requested_token_type')
  if (requested !== null && requested !== ACCESS_TOKEN_TYPE) throw tokenError('invalid_request', `requested_token_type must be ${ACCESS_TOKEN_TYPE}, got ${JSON.stringify(requested)}`)
  const scope = form.get('scope')
  if (scope !== null && scope !== 'inference') throw tokenError('invalid_scope', `scope must be inference, got ${JSON.stringify(scope)}`)
  const policy = formField(form, 'federation_policy_id')
  // Federation policies are made on the dashboard (Settings, Workload identity), which the simulator has no counterpart of.
  throw tokenError('invalid_grant', `No federation policy ${JSON.stringify(policy)} trusts the subject token: workload identity federation is not simulated, so no organisation has a policy`)
}

/** The RFC 6749 error codes of the statuses the service declares for `POST /oauth/token`. */
function oauthErrorCode(status: number): string {
  if (status === 429 || status === 503) return 'temporarily_unavailable'
  if (status >= 500) return 'server_error'
  return 'invalid_request'
}

/**
 * An error answer of `POST /oauth/token` in the RFC 6749 shape its clients read
 * (`{ error, error_description }`), from the simulator's error envelope: its own refusals, and a
 * fault's or the rate limiter's alike. Any other response is returned as it is.
 */
export function oauthErrorResponse(response: SimResponse): SimResponse {
  if (response.type !== 'json' || response.status < 400) return response
  const envelope = (response.body as { error?: { message?: unknown; metadata?: { error?: unknown } } } | null)?.error
  if (envelope === undefined) return response
  const error = typeof envelope.metadata?.error === 'string' ? envelope.metadata.error : oauthErrorCode(response.status)
  return { ...response, body: { error, error_description: String(envelope.message) } }
}

export const OAUTH_OPERATIONS: readonly Operation[] = [
  { name: 'createAuthKeysCode', method: 'POST', template: '/auth/keys/code', auth: 'key', run: createCode },
  // Called by the app with the code its callback received: the service asks for no key.
  { name: 'exchangeAuthCodeForAPIKey', method: 'POST', template: '/auth/keys', auth: 'public', run: exchangeCode },
  { name: 'createOauthToken', method: 'POST', template: '/oauth/token', auth: 'public', run: exchangeToken },
  // No token is ever issued (see exchangeToken), so there is no key that signs one: an empty set.
  { name: 'listOauthJwks', method: 'GET', template: '/oauth/jwks', auth: 'public', run: () => jsonAnswer(200, { keys: [] }) },
]
