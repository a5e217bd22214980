import { type InstantInput, toEpochMs } from '../time.js'
import type { ApiKey } from '../types.js'
import { MAX_EXACT_USD, toUnits, unitsOfKind } from '../usage.js'
import { ArgumentChecker, fieldsOf } from './check.js'
import { type StoreContext, windowsNow } from './context.js'
import { chargedKey, keyToWire, requireKey } from './keys.js'
import { put } from './versions.js'

export interface RecordUsageOptions {
  /** The key the cost is charged to. */
  keyHash: string
  /** Cost in USD, a non-negative finite number (kept exactly to 10^-10 USD). */
  cost: number
  /** Bring-your-own-key usage counts in the `byok_*` figures instead. Default false. */
  byok?: boolean | undefined
  /** When the usage happened. Default: the simulator clock's now. */
  at?: InstantInput | undefined
}

/**
 * `sim.usage`: charges to keys, which their usage figures and `limit_remaining` follow as the
 * simulator clock moves.
 *
 * @example
 * import { createSimulator } from 'model-access-sim'
 * const sim = createSimulator({ world: 'empty', now: '2026-03-01T23:00:00Z' })
 * const org = sim.users.create({ name: 'Acme' })
 * const { record } = sim.keys.create({ userId: org.id, limit: 10, limitReset: 'daily' })
 * const after = sim.usage.record({ keyHash: record.hash, cost: 9.99 })
 * console.log(after.usage_daily, after.limit_remaining)
 * sim.clock.advance(3_600_000) // Monday 00:00 UTC: a new day and a new ISO week
 * const monday = sim.keys.get(record.hash)
 * console.log(monday?.usage_daily, monday?.usage_monthly, monday?.limit_remaining)
 * //=> 9.99 0.01
 * //=> 0 9.99 10
 */
export interface UsageCollection {
  /**
   * Charges a cost to a key and returns the key's wire record as of the clock's now: `usage`,
   * `usage_daily`, `usage_weekly`, `usage_monthly` (or their `byok_` twins), `limit_remaining` and
   * `updated_at` all follow. A record dated after the clock's now counts once the clock reaches it.
   * A field that is not one of {@link RecordUsageOptions} throws an INVALID_ARGUMENT SimulatorError
   * naming it, and charges nothing.
   */
  record(options: RecordUsageOptions): ApiKey
}

export const USAGE_FIELDS = fieldsOf<RecordUsageOptions>({ keyHash: true, cost: true, byok: true, at: true })

export function createUsageCollection(ctx: StoreContext): UsageCollection {
  const operation = 'record usage'
  return {
    record(options) {
      const check: ArgumentChecker = new ArgumentChecker(operation)
      check.knownFields(check.object(options, 'options'), USAGE_FIELDS, '', 'a usage record')
      const key = requireKey(ctx, options.keyHash, operation, 'keyHash')
      const cost = check.nonNegative(options.cost, 'cost')
      // Sums stay exact while every key's total, of either kind, stays a safe integer of 10^-10 USD.
      const units = toUnits(cost) + unitsOfKind(key.usage, key.usageCount, options.byok === true)
      if (!Number.isSafeInteger(units)) {
        check.fail('cost', `would take the key's ${options.byok === true ? 'BYOK ' : ''}usage past ${MAX_EXACT_USD} USD, the most kept exactly (to 10^-10 USD); got ${cost}`)
      }
      const byok = options.byok === undefined ? false : check.boolean(options.byok, 'byok')
      const at = options.at === undefined ? ctx.clock.nowMs() : toEpochMs(options.at, operation, 'at')
      const charged = chargedKey(key, { at, units: toUnits(cost), byok }, ctx.clock.nowMs())
      put(ctx, 'keys', key.hash, charged)
      return keyToWire(charged, windowsNow(ctx))
    },
  }
}
