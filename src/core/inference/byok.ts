// BYOK on the money path (decisions/0054): which of the organisation's provider credentials serves
// an endpoint, whether an endpoint may be served without one, and the service's fee.
import type { StoreContext } from '../store/context.js'
import type { ByokState, KeyState } from '../store/state.js'
import type { Endpoint } from '../types.js'

/**
 * Whether a credential's provider slug names the endpoint's provider: the endpoint's tag before
 * any `/` (`google-vertex` of `google-vertex/europe`), or its provider name in lowercase with
 * every run of other characters a `-` (`Google Vertex` as `google-vertex`).
 */
export function providerMatches(provider: string, endpoint: Endpoint): boolean {
  const tag = endpoint.tag.toLowerCase()
  const slash = tag.indexOf('/')
  if ((slash === -1 ? tag : tag.slice(0, slash)) === provider) return true
  return endpoint.provider_name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') === provider
}

/** The organisation's enabled credentials that reach the key's workspace (its own, and the global ones) for the endpoint's provider. */
function inScope(ctx: StoreContext, key: KeyState, endpoint: Endpoint): ByokState[] {
  const found: ByokState[] = []
  for (const c of ctx.data.byok.values()) {
    if (c.userId !== key.userId || c.disabled || (c.workspaceId !== null && c.workspaceId !== key.workspaceId)) continue
    if (providerMatches(c.provider, endpoint)) found.push(c)
  }
  return found
}

/**
 * The credential that serves `endpoint` for `key` and `modelId`, or undefined: of the credentials in
 * scope, those whose set lists allow the key's hash, the model and the key's creator; non-fallback
 * ones before fallback ones, then by `sort_order`, then oldest first.
 */
export function credentialFor(ctx: StoreContext, key: KeyState, modelId: string, endpoint: Endpoint): ByokState | undefined {
  if (ctx.data.byok.size === 0) return undefined
  const applicable = inScope(ctx, key, endpoint).filter(
    (c) =>
      (c.allowedApiKeyHashes === null || c.allowedApiKeyHashes.includes(key.hash)) &&
      (c.allowedModels === null || c.allowedModels.includes(modelId)) &&
      (c.allowedUserIds === null || (key.creatorUserId !== null && c.allowedUserIds.includes(key.creatorUserId))),
  )
  applicable.sort((a, b) => Number(a.isFallback) - Number(b.isFallback) || a.sortOrder - b.sortOrder || a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1))
  return applicable[0]
}

/**
 * Whether `endpoint` may only be served through a credential (one in scope says `is_byok_only`)
 * and none applies: such an endpoint is passed over as if the request's preferences excluded it.
 */
export function byokOnlyWithout(ctx: StoreContext, key: KeyState, endpoint: Endpoint, credential: ByokState | undefined): boolean {
  if (credential !== undefined || ctx.data.byok.size === 0) return false
  return inScope(ctx, key, endpoint).some((c) => c.isByokOnly)
}

/** An endpoint without a credential is tried once, on the organisation's credits: shared, never written to. */
const CREDITS_ONLY: readonly (ByokState | undefined)[] = Object.freeze([undefined])

/**
 * The ways an endpoint is tried for `key`, in order, each through a credential or (undefined) on the
 * organisation's credits, as the service documents "Use this key as a fallback": a prioritized
 * credential first, then the credits when it fails (unless a credential in scope says
 * `is_byok_only`); a fallback credential after the credits, when they fail or cannot pay; without a
 * credential, the credits alone.
 */
export function byokTries(ctx: StoreContext, key: KeyState, endpoint: Endpoint, credential: ByokState | undefined): readonly (ByokState | undefined)[] {
  if (credential === undefined) return CREDITS_ONLY
  if (credential.isFallback) return [undefined, credential]
  return inScope(ctx, key, endpoint).some((c) => c.isByokOnly) ? [credential] : [credential, undefined]
}
