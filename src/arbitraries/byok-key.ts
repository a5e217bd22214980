import fc from 'fast-check'
import type { ByokKey } from '../core/store/byok.js'
import { fieldsOf } from '../core/store/check.js'
import { maskSecret } from '../core/store/mask.js'
import { formatTimestamp } from '../core/time.js'
import { BYOK_PROVIDERS, GOVERNED_MODELS } from '../fixtures/internal/governance.js'
import { hex64, userId, uuid } from './internal/ids.js'
import { type CreatedAtConstraints, createdAtMs } from './internal/instant.js'
import { nullable } from './internal/stats.js'

/** Options of {@link byokKey}. */
export type ByokKeyConstraints = CreatedAtConstraints
export const BYOK_CONSTRAINT_NAMES = fieldsOf<ByokKeyConstraints>({ minCreatedAt: true, maxCreatedAt: true })

const KEY_CHARACTERS = [...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz']
/** The part of a raw key after its provider's prefix: at least 21 characters, so the mask shows 3 and 4 of them. */
const keyBody = fc.string({ unit: fc.constantFrom(...KEY_CHARACTERS), minLength: 21, maxLength: 64 })

/**
 * Arbitrary BYOK provider credential as `GET /byok/{id}` returns it (`data`, decisions/0054), one
 * the official SDK parses and the simulator would answer: a provider slug of the default world's
 * catalog, a `label` that is `maskSecret` of a raw key in that provider's form (`sk-proj-...`,
 * `gsk_...`), a name or none, a workspace or none (every workspace), lists of key hashes, models
 * and user ids or null (empty ones included), every switch either way, a `sort_order` of 0, 1 or
 * any, and a version 4 UUID. Shrinks toward an enabled OpenAI credential of every workspace with
 * no limits.
 *
 * @example
 * import fc from 'fast-check'
 * import { byokKey } from 'model-access-sim/arbitraries'
 * const credentials = fc.sample(byokKey(), { seed: 1, numRuns: 100 })
 * console.log(credentials.every((k) => k.label.includes('...') && k.sort_order >= 0))
 * //=> true
 */
export function byokKey(constraints: ByokKeyConstraints = {}): fc.Arbitrary<ByokKey> {
  const created = createdAtMs('byokKey', constraints, BYOK_CONSTRAINT_NAMES)
  return fc
    .record({
      id: uuid,
      provider: fc.constantFrom(...BYOK_PROVIDERS),
      body: keyBody,
      name: nullable(fc.constantFrom('Production key', 'Staging key', 'Fallback key')),
      workspace_id: nullable(uuid),
      allowed_api_key_hashes: nullable(fc.array(hex64, { maxLength: 3 })),
      allowed_models: nullable(fc.subarray([...GOVERNED_MODELS])),
      allowed_user_ids: nullable(fc.array(userId, { maxLength: 3 })),
      declared_zdr: nullable(fc.boolean()),
      disabled: fc.boolean(),
      is_byok_only: fc.boolean(),
      is_fallback: fc.boolean(),
      is_required: fc.boolean(),
      sort_order: fc.oneof(fc.constantFrom(0, 1), fc.nat({ max: 1000 })),
      createdAt: created,
    })
    .map(({ provider, body, createdAt, ...credential }): ByokKey => ({
      ...credential,
      provider: provider.slug,
      label: maskSecret(`${provider.prefix}${body}`),
      created_at: formatTimestamp(createdAt),
    }))
}
