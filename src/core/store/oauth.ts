// OAuth PKCE authorization codes (decisions/0049): made by `POST /auth/keys/code` or, standing in
// for a user who approves an app on the service's consent page, by `sim.oauth.codes.create`;
// exchanged once by `POST /auth/keys` for a regular key of the organisation. Rows of the store, so
// snapshots, restore and reset cover them; a world spec does not carry them (they live minutes).
import { describe } from '../describe.js'
import { type InstantInput, toEpochMs } from '../time.js'
import type { LimitReset } from '../types.js'
import { ArgumentChecker, fieldsOf } from './check.js'
import { type StoreContext, atomically } from './context.js'
import type { CodeChallengeMethod, OAuthCodeState } from './state.js'
import { put } from './versions.js'
import { requireUser, resolveWorkspaceId } from './workspaces.js'
import { OAUTH_CODE_LIFETIME_MS } from './oauth-lifetime.js'

/** The methods a code challenge may be made with. */
export const CODE_CHALLENGE_METHODS: readonly CodeChallengeMethod[] = ['S256', 'plain']

/** A verifier, and a plain challenge: 43 to 128 of RFC 7636's unreserved characters. */
export const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/
const VERIFIER_TEXT = '43 to 128 characters of A-Z, a-z, 0-9, "-", ".", "_", "~" (RFC 7636)'
/** An S256 challenge: base64url of a SHA-256 digest, unpadded, always 43 characters. */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/

/** What a `code_challenge` must be for its method, or undefined when it is that. */
export function challengeProblem(challenge: string, method: CodeChallengeMethod): string | undefined {
  if (method === 'S256') {
    return S256_CHALLENGE.test(challenge) ? undefined : 'must be the base64url SHA-256 of the verifier for S256: 43 characters of A-Z, a-z, 0-9, "-", "_", unpadded'
  }
  return VERIFIER.test(challenge) ? undefined : `must be the verifier itself for plain: ${VERIFIER_TEXT}`
}

/** What a `code_verifier` must be, or undefined when it is that. */
export function verifierProblem(verifier: string): string | undefined {
  return VERIFIER.test(verifier) ? undefined : `must be ${VERIFIER_TEXT}`
}

/**
 * What a `callback_url` must be, or undefined when it is that: an https URL, or an http one on
 * localhost or 127.0.0.1 (for local tools), as the service's reference says.
 */
export function callbackUrlProblem(text: string): string | undefined {
  const url = URL.canParse(text) ? new URL(text) : undefined
  if (url === undefined) return 'must be an absolute URL'
  if (url.protocol === 'https:') return undefined
  if (url.protocol === 'http:' && (url.hostname === 'localhost' || url.hostname === '127.0.0.1')) return undefined
  return 'must be an https URL, or an http URL on localhost or 127.0.0.1'
}

/** The app of a callback URL: a number from its origin (FNV-1a, 31 bits), the same in every simulator. */
export function appIdOf(callbackUrl: string): number {
  const origin = new URL(callbackUrl).origin
  let hash = 0x811c9dc5
  for (let i = 0; i < origin.length; i++) hash = Math.imul(hash ^ origin.charCodeAt(i), 0x01000193)
  return (hash >>> 1) || 1
}

/** The app's name, for a key made without `key_label`: the callback's host (`myapp.example.com`, `localhost:3000`). */
export const appNameOf = (callbackUrl: string): string => new URL(callbackUrl).host

/** A code's fields, checked, before its code is drawn. */
export type OAuthCodeDraft = Omit<OAuthCodeState, 'code' | 'appId' | 'keyName' | 'createdAt' | 'expiresAt' | 'usedAt' | 'keyHash'> & { keyLabel: string | undefined }

/** Draws a code for a checked draft and stores it, accepted for {@link OAUTH_CODE_LIFETIME_MS} from now. */
export function insertCode(ctx: StoreContext, draft: OAuthCodeDraft): OAuthCodeState {
  let code: string
  do code = ctx.random.uuid()
  while (ctx.data.oauthCodes.has(code))
  const now = ctx.clock.nowMs()
  const { keyLabel, ...fields } = draft
  const state: OAuthCodeState = {
    ...fields,
    code,
    appId: appIdOf(draft.callbackUrl),
    keyName: keyLabel ?? appNameOf(draft.callbackUrl),
    createdAt: now,
    expiresAt: now + OAUTH_CODE_LIFETIME_MS,
    usedAt: null,
    keyHash: null,
  }
  put(ctx, 'oauthCodes', code, state)
  return state
}

/** Marks a code exchanged, for the key of `keyHash`: a second exchange is refused. */
export function useCode(ctx: StoreContext, code: OAuthCodeState, keyHash: string): void {
  put(ctx, 'oauthCodes', code.code, { ...code, usedAt: ctx.clock.nowMs(), keyHash })
}

/** What `sim.oauth.codes.create` takes: a code as if the organisation's user had approved an app. */
export interface CreateOAuthCodeOptions {
  /** The organisation whose key the code is exchanged for. */
  userId: string
  /** The workspace of that key; default: the organisation's default workspace. */
  workspaceId?: string | undefined
  /** Where the service would send the user back; it names the app. Default `https://app.example.com/callback`. */
  callbackUrl?: string | undefined
  /** The PKCE challenge; absent: the code is exchanged without a verifier. */
  codeChallenge?: string | undefined
  /** How the challenge was made; default `plain` when there is a challenge (RFC 7636). */
  codeChallengeMethod?: CodeChallengeMethod | undefined
  /** The name of the key to make; default: the app's name (the callback URL's host). */
  keyLabel?: string | undefined
  /** The key's spending limit in USD; default none. */
  limit?: number | null | undefined
  /** When the key's limit resets; default never. */
  usageLimitType?: LimitReset | null | undefined
  /** When the key expires; default never. */
  keyExpiresAt?: InstantInput | null | undefined
}

/** An authorization code as `sim.oauth.codes` shows it; instants are ISO 8601. */
export interface OAuthCode {
  /** The code (the `id` that `POST /auth/keys/code` answers, the `code` that `POST /auth/keys` takes). */
  code: string
  appId: number
  userId: string
  workspaceId: string
  callbackUrl: string
  codeChallenge: string | null
  codeChallengeMethod: CodeChallengeMethod | null
  /** The name the key will have. */
  keyLabel: string
  limit: number | null
  usageLimitType: LimitReset | null
  keyExpiresAt: string | null
  createdAt: string
  /** When the code stops being accepted: {@link OAUTH_CODE_LIFETIME_MS} after `createdAt`. */
  expiresAt: string
  /** When it was exchanged, and the hash of the key that made; null while unused. */
  usedAt: string | null
  keyHash: string | null
}

/** Authorization codes: `sim.oauth.codes`. */
export interface OAuthCodeCollection {
  /**
   * Makes a code as `POST /auth/keys/code` does, standing in for the user who approves an app on
   * the service's consent page: hand it to the code under test as its callback would receive it.
   * A bad or unknown option throws a SimulatorError naming it, and stores nothing.
   */
  create(options: CreateOAuthCodeOptions): OAuthCode
  /** Every code, used and expired ones too, oldest first. */
  list(): OAuthCode[]
  /** One code, or undefined. */
  get(code: string): OAuthCode | undefined
}

/** What `sim.oauth` holds. */
export interface OAuthControls {
  readonly codes: OAuthCodeCollection
}

export const CODE_FIELDS = fieldsOf<CreateOAuthCodeOptions>({
  userId: true,
  workspaceId: true,
  callbackUrl: true,
  codeChallenge: true,
  codeChallengeMethod: true,
  keyLabel: true,
  limit: true,
  usageLimitType: true,
  keyExpiresAt: true,
})

const LIMIT_RESETS: readonly LimitReset[] = ['daily', 'weekly', 'monthly']
const iso = (ms: number): string => new Date(ms).toISOString()

/** A stored code as `sim.oauth.codes` shows it. */
export function codeView(state: OAuthCodeState): OAuthCode {
  return {
    code: state.code,
    appId: state.appId,
    userId: state.userId,
    workspaceId: state.workspaceId,
    callbackUrl: state.callbackUrl,
    codeChallenge: state.challenge,
    codeChallengeMethod: state.method,
    keyLabel: state.keyName,
    limit: state.limit,
    usageLimitType: state.limitReset,
    keyExpiresAt: state.keyExpiresAt === null ? null : iso(state.keyExpiresAt),
    createdAt: iso(state.createdAt),
    expiresAt: iso(state.expiresAt),
    usedAt: state.usedAt === null ? null : iso(state.usedAt),
    keyHash: state.keyHash,
  }
}

/** Create options checked into a draft; throws a SimulatorError naming the bad option. */
function codeDraft(ctx: StoreContext, options: CreateOAuthCodeOptions): OAuthCodeDraft {
  const operation = 'create OAuth code'
  const check = new ArgumentChecker(operation)
  check.knownFields(check.object(options, 'options'), CODE_FIELDS, '', 'an OAuth code')
  const userId = requireUser(ctx, options.userId, operation)
  const workspaceId = resolveWorkspaceId(ctx, userId, options.workspaceId, operation)
  const callbackUrl = options.callbackUrl === undefined ? 'https://app.example.com/callback' : check.string(options.callbackUrl, 'callbackUrl')
  const urlProblem = callbackUrlProblem(callbackUrl)
  if (urlProblem !== undefined) check.fail('callbackUrl', `${urlProblem}, got ${describe(callbackUrl)}`)
  let challenge: string | null = null
  let method: CodeChallengeMethod | null = null
  if (options.codeChallenge !== undefined) {
    challenge = check.string(options.codeChallenge, 'codeChallenge')
    method = options.codeChallengeMethod === undefined ? 'plain' : check.oneOf(options.codeChallengeMethod, CODE_CHALLENGE_METHODS, 'codeChallengeMethod')
    const problem = challengeProblem(challenge, method)
    if (problem !== undefined) check.fail('codeChallenge', `${problem}, got ${describe(challenge)}`)
  } else if (options.codeChallengeMethod !== undefined) {
    check.fail('codeChallengeMethod', 'is given without codeChallenge')
  }
  const keyLabel = options.keyLabel === undefined ? undefined : check.string(options.keyLabel, 'keyLabel')
  if (keyLabel !== undefined && keyLabel.length > 100) check.fail('keyLabel', `must be at most 100 characters, got ${keyLabel.length}`)
  return {
    userId,
    workspaceId,
    callbackUrl,
    challenge,
    method,
    keyLabel,
    limit: options.limit === undefined || options.limit === null ? null : check.nonNegative(options.limit, 'limit'),
    limitReset: options.usageLimitType === undefined || options.usageLimitType === null ? null : check.oneOf(options.usageLimitType, LIMIT_RESETS, 'usageLimitType'),
    keyExpiresAt: options.keyExpiresAt === undefined || options.keyExpiresAt === null ? null : toEpochMs(options.keyExpiresAt, operation, 'keyExpiresAt'),
  }
}

export function createOAuthControls(ctx: StoreContext): OAuthControls {
  return {
    codes: {
      create: (options) => atomically(ctx, () => codeView(insertCode(ctx, codeDraft(ctx, options)))),
      list: () => [...ctx.data.oauthCodes.values()].sort((a, b) => a.createdAt - b.createdAt).map(codeView),
      get: (code) => {
        const state = typeof code === 'string' ? ctx.data.oauthCodes.get(code) : undefined
        return state && codeView(state)
      },
    },
  }
}
