import fc from 'fast-check'
import { fieldsOf } from '../core/store/check.js'
import { keyFiguresOf } from '../core/store/keys.js'
import { maskSecret } from '../core/store/mask.js'
import { formatTimestamp } from '../core/time.js'
import { type ApiKey, type CreatedKeyResponse, type CurrentKey, DATA_REGIONS } from '../core/types.js'
import { apiKey } from './api-key.js'
import { checkConstraints } from './internal/constraints.js'
import { hex64 } from './internal/ids.js'

/** The constraints {@link createdKey} takes; any other is refused. */
export const CREATED_KEY_CONSTRAINT_NAMES = fieldsOf<CreatedKeyConstraints>({ workspaceId: true, hasLimit: true })
/** The constraints {@link currentKey} takes; any other is refused. */
export const CURRENT_KEY_CONSTRAINT_NAMES = fieldsOf<CurrentKeyConstraints>({ management: true, freeTier: true })

/** Options of {@link createdKey}. */
export interface CreatedKeyConstraints {
  /** The workspace every key is made in; default: a random UUID per key. */
  workspaceId?: string | undefined
  /** `true`: every key has a limit; `false`: none has; default: either. */
  hasLimit?: boolean | undefined
}

/** Options of {@link currentKey}. */
export interface CurrentKeyConstraints {
  /** Whether every key is a management key; default: either. */
  management?: boolean | undefined
  /** Whether every organisation is on the free tier (never bought credits); default: either. */
  freeTier?: boolean | undefined
}

/** A bearer secret as the service makes them: `sk-or-v1-` and 64 hex digits. */
const secret: fc.Arbitrary<string> = hex64.map((body) => `sk-or-v1-${body}`)

/**
 * Arbitrary answer of `POST /keys` (201) the official SDK parses: a bearer secret and the record of
 * a key just made from it, labelled with the secret masked as the service masks it, enabled, never
 * updated, with nothing spent (`limit_remaining` is the whole limit, or null without one).
 *
 * @example
 * import fc from 'fast-check'
 * import { createdKey } from 'model-access-sim/arbitraries'
 * const [answer] = fc.sample(createdKey({ hasLimit: true }), { seed: 2, numRuns: 1 })
 * console.log(answer.key.startsWith('sk-or-v1-'), answer.data.limit_remaining === answer.data.limit, answer.data.usage, answer.data.updated_at)
 * //=> true true 0 null
 */
export function createdKey(constraints: CreatedKeyConstraints = {}): fc.Arbitrary<CreatedKeyResponse> {
  checkConstraints('createdKey', constraints, CREATED_KEY_CONSTRAINT_NAMES)
  const records = apiKey({
    disabled: false,
    ...(constraints.workspaceId !== undefined && { workspaceId: constraints.workspaceId }),
    ...(constraints.hasLimit !== undefined && { hasLimit: constraints.hasLimit }),
  })
  return fc.record({ key: secret, record: records }).map(({ key, record }): CreatedKeyResponse => {
    const data: ApiKey = {
      ...record,
      label: maskSecret(key),
      limit_remaining: record.limit,
      usage: 0,
      usage_daily: 0,
      usage_weekly: 0,
      usage_monthly: 0,
      byok_usage: 0,
      byok_usage_daily: 0,
      byok_usage_weekly: 0,
      byok_usage_monthly: 0,
      updated_at: null,
    }
    return { data, key }
  })
}

/**
 * Arbitrary `data` of `GET /key` the official SDK parses: the usage figures, limit and
 * `limit_remaining` of an {@link apiKey} record, `is_management_key` and `is_provisioning_key`
 * agreeing, a free-model allowance of 50 a day on the free tier and 1,000 otherwise with
 * `remaining + used = limit`, a legacy `rate_limit` (`requests: -1` when none applies, as the
 * service writes it, or a real bucket), and a non-empty set of data regions. Biased toward nothing
 * used and everything used.
 *
 * @example
 * import fc from 'fast-check'
 * import { currentKey } from 'model-access-sim/arbitraries'
 * const keys = fc.sample(currentKey({ management: true, freeTier: false }), { seed: 5, numRuns: 3 })
 * console.log(keys.map((key) => [key.is_management_key, key.is_provisioning_key, key.free_model_daily_requests.limit]))
 * //=> [[true,true,1000],[true,true,1000],[true,true,1000]]
 */
export function currentKey(constraints: CurrentKeyConstraints = {}): fc.Arbitrary<CurrentKey> {
  checkConstraints('currentKey', constraints, CURRENT_KEY_CONSTRAINT_NAMES)
  const rateLimit = fc.oneof(
    fc.constant({ interval: '10s', requests: -1 }),
    fc.record({ interval: fc.constantFrom('500ms', '1s', '10s', '1m', '1h'), requests: fc.integer({ min: 1, max: 100_000 }) }),
  )
  return fc
    .record({
      record: apiKey(),
      management: constraints.management === undefined ? fc.boolean() : fc.constant(constraints.management),
      freeTier: constraints.freeTier === undefined ? fc.boolean() : fc.constant(constraints.freeTier),
      usedShare: fc.oneof(fc.constant(0), fc.constant(1), fc.double({ min: 0, max: 1, noNaN: true })),
      rateLimit,
      regions: fc.subarray([...DATA_REGIONS], { minLength: 1 }),
    })
    .map(({ record, management, freeTier, usedShare, rateLimit: limit, regions }): CurrentKey => {
      const allowance = freeTier ? 50 : 1000
      const used = Math.floor(usedShare * allowance)
      return {
        ...keyFiguresOf(record),
        is_free_tier: freeTier,
        is_management_key: management,
        is_provisioning_key: management,
        rate_limit: { ...limit, note: 'This field is deprecated and safe to ignore.' },
        free_model_daily_requests: { limit: allowance, remaining: allowance - used, used },
        allowed_data_regions: regions,
        expires_at: record.expires_at === null ? null : formatTimestamp(Date.parse(record.expires_at)),
        creator_user_id: record.creator_user_id,
        workspace_id: record.workspace_id,
        organization_id: null,
      }
    })
}
