import { AUTH_MESSAGES, type AuthFailure, ApiError } from './errors.js'
import type { KeyState } from './store/state.js'
import type { StoreContext } from './store/context.js'

/** Who is calling: the organisation, the key, and whether that key may manage. */
export interface Principal {
  userId: string
  keyHash: string
  management: boolean
}

/** `Bearer <secret>`, the only form of the Authorization header the service accepts. */
export const BEARER = /^Bearer +(\S+) *$/i

function unauthorized(reason: AuthFailure): ApiError {
  return new ApiError(401, { message: AUTH_MESSAGES[reason], metadata: { reason } })
}

/**
 * The secret an Authorization header carries: undefined without one (or a blank one, both
 * anonymous), null when it is not `Bearer <secret>` (a 401, {@link malformedBearer}).
 */
export function bearerSecret(authorization: string | null | undefined): string | null | undefined {
  if (authorization === null || authorization === undefined) return undefined
  const trimmed = authorization.trim()
  if (trimmed === '') return undefined
  const match = BEARER.exec(trimmed)
  return match ? (match[1] as string) : null
}

/** The caller whose secret belongs to the key of `hash` (undefined: no key has it), or the 401 saying why not: unknown, disabled, or expired (`expires_at` <= now). */
export function principalOfKey(ctx: StoreContext, hash: string | undefined): Principal {
  const key: KeyState | undefined = hash === undefined ? undefined : ctx.data.keys.get(hash)
  if (!key) throw unauthorized('unknown')
  if (key.disabled) throw unauthorized('disabled')
  if (key.expiresAt !== null && key.expiresAt <= ctx.clock.nowMs()) throw unauthorized('expired')
  return { userId: key.userId, keyHash: key.hash, management: key.management }
}

/** The malformed-header 401, for a caller that read the header with {@link bearerSecret}. */
export const malformedBearer = (): ApiError => unauthorized('malformed')

/** The management-only rule: anonymous callers get 401, regular keys 403. */
export function requireManagement(principal: Principal | null): Principal {
  if (principal === null) throw new ApiError(401, { message: AUTH_MESSAGES.missing })
  if (!principal.management) throw new ApiError(403)
  return principal
}
