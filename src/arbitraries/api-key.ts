import fc from 'fast-check'
import { fieldsOf } from '../core/store/check.js'
import { checkConstraints } from './internal/constraints.js'
import { KEY_NAMES } from '../core/store/defaults.js'
import { formatTimestamp } from '../core/time.js'
import type { ApiKey, LimitReset } from '../core/types.js'
import { UNITS_PER_USD, type UsageFigures, limitRemaining, toUsd } from '../core/usage.js'
import { fakerText } from './internal/faker.js'
import { hex64, maskedSecret, userId, uuid } from './internal/ids.js'
import { after, instantMs, instantRange, laterBy } from './internal/instant.js'
import { nullable } from './internal/stats.js'

/** The constraints this arbitrary takes; any other is refused. */
export const API_KEY_CONSTRAINT_NAMES = fieldsOf<ApiKeyConstraints>({ workspaceId: true, disabled: true, hasLimit: true, minCreatedAt: true, maxCreatedAt: true })

/** Options of {@link apiKey}. */
export interface ApiKeyConstraints {
  /** The workspace every key is in; default: a random UUID per key. */
  workspaceId?: string | undefined
  /** The `disabled` flag every key has; default: either. */
  disabled?: boolean | undefined
  /** `true`: every key has a limit; `false`: none has; default: either. */
  hasLimit?: boolean | undefined
  /** Earliest `created_at`; default four years before 2026-03-02. */
  minCreatedAt?: Date | number | undefined
  /** Latest `created_at`; default four years after 2026-03-02. */
  maxCreatedAt?: Date | number | undefined
}

/** Usage in 10^-10 USD, the simulator's exact unit: often none, up to 20,000 USD. */
const units: fc.Arbitrary<number> = fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 20_000 * UNITS_PER_USD }))

/**
 * Nested usage figures: daily <= weekly, daily <= monthly, weekly <= total, monthly <= total.
 * Drawn as the day's usage plus what the rest of the week, the rest of the month and the rest of
 * time add, so every part shrinks to 0 and the nesting holds without a filter.
 */
const figures: fc.Arbitrary<[daily: number, weekly: number, monthly: number, total: number]> = fc
  .tuple(units, units, units, units)
  .map(([daily, restOfWeek, restOfMonth, older]) => {
    const weekly = daily + restOfWeek
    const monthly = daily + restOfMonth
    return [daily, weekly, monthly, Math.max(weekly, monthly) + older]
  })

/** A limit: none, whole cents (0 included), or exactly what the period has spent (nothing remains). */
type LimitChoice = { type: 'none' } | { type: 'cents'; cents: number } | { type: 'spent' }
const limitChoices = {
  none: fc.constant<LimitChoice>({ type: 'none' }),
  some: fc.oneof(
    fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 10_000_000 })).map((cents): LimitChoice => ({ type: 'cents', cents })),
    fc.constant<LimitChoice>({ type: 'spent' }),
  ),
}

const limitReset: fc.Arbitrary<LimitReset | null> = nullable(fc.constantFrom('daily', 'weekly', 'monthly'))

/**
 * Arbitrary API key record as `GET /keys` and `GET /keys/{hash}` return it,
 * one the official SDK parses: a 64-hex hash, a masked `sk-or-v1-` label, nested usage figures,
 * `limit_remaining` computed from the limit and the usage of its reset period as the simulator does
 * (null without a limit, never below 0), and service-format timestamps with `updated_at` and
 * `expires_at` null or not before `created_at`. Biased toward zero usage, equal figures, limits of
 * 0 and limits used up (`limit_remaining` 0), null fields, and timestamps at 23:59 and 00:00.
 *
 * @example
 * import fc from 'fast-check'
 * import { apiKey } from 'model-access-sim/arbitraries'
 * const keys = fc.sample(apiKey({ hasLimit: false, workspaceId: '6f1d9b0e-8a3c-4c51-9e2f-1a2b3c4d5e6f' }), { seed: 1, numRuns: 3 })
 * console.log(keys.map((key) => [key.limit_remaining, key.workspace_id.slice(0, 8), key.hash.length]))
 * //=> [[null,"6f1d9b0e",64],[null,"6f1d9b0e",64],[null,"6f1d9b0e",64]]
 */
export function apiKey(constraints: ApiKeyConstraints = {}): fc.Arbitrary<ApiKey> {
  checkConstraints('apiKey', constraints, API_KEY_CONSTRAINT_NAMES)
  const created = instantMs(instantRange('apiKey', ['minCreatedAt', 'maxCreatedAt'], constraints.minCreatedAt, constraints.maxCreatedAt))
  const name = fc.oneof(
    fc.constantFrom(...KEY_NAMES),
    fakerText((f) => `${f.commerce.department()} ${f.helpers.arrayElement(['backend', 'worker', 'bot', 'app', 'pipeline', 'service'])}`),
  )
  const limit =
    constraints.hasLimit === undefined
      ? fc.oneof(limitChoices.none, limitChoices.some)
      : constraints.hasLimit
        ? limitChoices.some
        : limitChoices.none
  return fc
    .record({
      hash: hex64,
      name,
      label: maskedSecret,
      disabled: constraints.disabled === undefined ? fc.boolean() : fc.constant(constraints.disabled),
      limit,
      limitReset,
      includeByok: fc.boolean(),
      usage: figures,
      byok: figures,
      createdAt: created,
      updatedAfter: nullable(laterBy),
      expiresAfter: nullable(laterBy),
      creatorUserId: nullable(userId),
      workspaceId: constraints.workspaceId === undefined ? uuid : fc.constant(constraints.workspaceId),
    })
    .map((k): ApiKey => {
      const [daily, weekly, monthly, total] = k.usage
      const [byokDaily, byokWeekly, byokMonthly, byokTotal] = k.byok
      const f: UsageFigures = { total, daily, weekly, monthly, byokTotal, byokDaily, byokWeekly, byokMonthly }
      const period = k.limitReset === 'daily' ? [daily, byokDaily] : k.limitReset === 'weekly' ? [weekly, byokWeekly] : k.limitReset === 'monthly' ? [monthly, byokMonthly] : [total, byokTotal]
      const spent = (period[0] ?? 0) + (k.includeByok ? (period[1] ?? 0) : 0)
      const limitUsd = k.limit.type === 'none' ? null : k.limit.type === 'cents' ? k.limit.cents / 100 : toUsd(spent)
      return {
        hash: k.hash,
        name: k.name,
        label: k.label,
        disabled: k.disabled,
        limit: limitUsd,
        limit_remaining: limitRemaining(limitUsd, k.limitReset, k.includeByok, f),
        limit_reset: k.limitReset,
        include_byok_in_limit: k.includeByok,
        usage: toUsd(total),
        usage_daily: toUsd(daily),
        usage_weekly: toUsd(weekly),
        usage_monthly: toUsd(monthly),
        byok_usage: toUsd(byokTotal),
        byok_usage_daily: toUsd(byokDaily),
        byok_usage_weekly: toUsd(byokWeekly),
        byok_usage_monthly: toUsd(byokMonthly),
        created_at: formatTimestamp(k.createdAt),
        updated_at: k.updatedAfter === null ? null : formatTimestamp(after(k.createdAt, k.updatedAfter)),
        expires_at: k.expiresAfter === null ? null : formatTimestamp(after(k.createdAt, k.expiresAfter)),
        creator_user_id: k.creatorUserId,
        workspace_id: k.workspaceId,
        external_user: null,
      }
    })
}
