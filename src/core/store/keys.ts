import { SimulatorError, SimulatorErrorCode } from '../errors.js'
import { type InstantInput, formatTimestamp, toEpochMs } from '../time.js'
import type { ApiKey, LimitReset } from '../types.js'
import { ArgumentChecker } from './check.js'
import { type StoreContext, atomically } from './context.js'
import { KEY_NAMES } from './defaults.js'
import type { KeyState } from './state.js'
import { requireUser, resolveWorkspaceId } from './workspaces.js'

/** Usage of a key in USD: all time and in the current UTC day, ISO week and calendar month. */
export interface KeyUsageInput {
  total?: number
  daily?: number
  weekly?: number
  monthly?: number
}

export interface CreateKeyOptions {
  /** The organisation that owns the key. */
  userId: string
  /** A management key may call every operation; a regular key only the public ones. Default false. */
  management?: boolean
  name?: string
  /** UUID of one of the organisation's workspaces; default: its default workspace. */
  workspaceId?: string
  disabled?: boolean
  /** Spending limit in USD, or null for none. */
  limit?: number | null
  limitReset?: LimitReset | null
  /** An instant at or before the clock's now makes an already expired key. */
  expiresAt?: InstantInput | null
  includeByokInLimit?: boolean
  /** Default: the simulator clock's now. */
  createdAt?: InstantInput
  updatedAt?: InstantInput | null
  usage?: KeyUsageInput
  byokUsage?: KeyUsageInput
  /** The bearer secret to accept for this key; default: a fresh `sk-or-v1-` + 64 hex secret. */
  secret?: string
}

/** What `sim.keys.create` returns: the bearer secret (shown only here) and the wire record. */
export interface CreatedKey {
  key: string
  record: ApiKey
}

export interface KeyCollection {
  create(options: CreateKeyOptions): CreatedKey
  /** Every key, management keys included, as the wire shows them. */
  list(): ApiKey[]
  /** One key by hash, or undefined. */
  get(hash: string): ApiKey | undefined
}

const SECRET = /^\S{8,512}$/
const LIMIT_RESETS: readonly LimitReset[] = ['daily', 'weekly', 'monthly']

/**
 * Masks a secret the way the service labels keys.
 *
 * @example
 * import { maskSecret } from 'model-access-sim'
 * console.log(maskSecret('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'))
 * //=> sk-or-v1-0e6...1c96
 */
export function maskSecret(secret: string): string {
  const prefix = secret.startsWith('sk-or-v1-') ? 'sk-or-v1-' : ''
  const body = secret.slice(prefix.length)
  return `${prefix}${body.slice(0, 3)}...${body.slice(-4)}`
}

// Float sums such as 10 - 2.3 are rounded at a tenth of a nano-dollar so the wire never shows 7.699999999.
function roundUsd(value: number): number {
  return Math.round(value * 1e10) / 1e10
}

/** Limit minus the usage of the current reset period (BYOK included when asked), never below 0. */
export function limitRemaining(key: KeyState): number | null {
  if (key.limit === null) return null
  const [usage, byok] =
    key.limitReset === 'daily'
      ? [key.usageDaily, key.byokUsageDaily]
      : key.limitReset === 'weekly'
        ? [key.usageWeekly, key.byokUsageWeekly]
        : key.limitReset === 'monthly'
          ? [key.usageMonthly, key.byokUsageMonthly]
          : [key.usage, key.byokUsage]
  return Math.max(0, roundUsd(key.limit - usage - (key.includeByokInLimit ? byok : 0)))
}

export function keyToWire(key: KeyState): ApiKey {
  return {
    hash: key.hash,
    name: key.name,
    label: key.label,
    disabled: key.disabled,
    limit: key.limit,
    limit_remaining: limitRemaining(key),
    limit_reset: key.limitReset,
    include_byok_in_limit: key.includeByokInLimit,
    usage: key.usage,
    usage_daily: key.usageDaily,
    usage_weekly: key.usageWeekly,
    usage_monthly: key.usageMonthly,
    byok_usage: key.byokUsage,
    byok_usage_daily: key.byokUsageDaily,
    byok_usage_weekly: key.byokUsageWeekly,
    byok_usage_monthly: key.byokUsageMonthly,
    created_at: formatTimestamp(key.createdAt),
    updated_at: key.updatedAt === null ? null : formatTimestamp(key.updatedAt),
    expires_at: key.expiresAt === null ? null : formatTimestamp(key.expiresAt),
    creator_user_id: key.creatorUserId,
    workspace_id: key.workspaceId,
    external_user: null,
  }
}

function readUsage(check: ArgumentChecker, input: unknown, argument: string): Required<KeyUsageInput> {
  if (input === undefined) return { total: 0, daily: 0, weekly: 0, monthly: 0 }
  const usage = check.object(input, argument)
  const read = (field: keyof KeyUsageInput): number =>
    usage[field] === undefined ? 0 : check.nonNegative(usage[field], `${argument}.${field}`)
  return { total: read('total'), daily: read('daily'), weekly: read('weekly'), monthly: read('monthly') }
}

export function createKeyCollection(ctx: StoreContext): KeyCollection {
  const operation = 'create API key'

  function build(options: CreateKeyOptions): KeyState {
    const check: ArgumentChecker = new ArgumentChecker(operation)
    check.object(options, 'options')
    const userId = requireUser(ctx, options.userId, operation)
    const workspaceId = resolveWorkspaceId(ctx, userId, options.workspaceId, operation)
    const management = options.management === undefined ? false : check.boolean(options.management, 'management')
    const disabled = options.disabled === undefined ? false : check.boolean(options.disabled, 'disabled')
    const includeByokInLimit = options.includeByokInLimit === undefined ? false : check.boolean(options.includeByokInLimit, 'includeByokInLimit')
    const limit = options.limit === undefined || options.limit === null ? null : check.nonNegative(options.limit, 'limit')
    const limitReset =
      options.limitReset === undefined || options.limitReset === null ? null : check.oneOf(options.limitReset, LIMIT_RESETS, 'limitReset')
    const createdAt = options.createdAt === undefined ? ctx.clock.nowMs() : toEpochMs(options.createdAt, operation, 'createdAt')
    const updatedAt = options.updatedAt === undefined || options.updatedAt === null ? null : toEpochMs(options.updatedAt, operation, 'updatedAt')
    const expiresAt = options.expiresAt === undefined || options.expiresAt === null ? null : toEpochMs(options.expiresAt, operation, 'expiresAt')
    const usage = readUsage(check, options.usage, 'usage')
    const byok = readUsage(check, options.byokUsage, 'byokUsage')
    let secret: string
    if (options.secret !== undefined) {
      secret = check.string(options.secret, 'secret', SECRET, '8 to 512 characters without white space')
      if (ctx.indices.keyHashBySecret.has(secret)) {
        throw new SimulatorError(SimulatorErrorCode.DuplicateId, `Failed to ${operation}: "secret" is already the secret of another key.`, {
          argument: 'secret',
        })
      }
    } else {
      do secret = `sk-or-v1-${ctx.random.hex(64)}`
      while (ctx.indices.keyHashBySecret.has(secret))
    }
    let hash: string
    do hash = ctx.random.hex(64)
    while (ctx.data.keys.has(hash))
    const name =
      options.name === undefined ? (management ? 'Management key' : ctx.random.pick(KEY_NAMES)) : check.string(options.name, 'name')
    return {
      hash,
      secret,
      userId,
      workspaceId,
      management,
      name,
      label: maskSecret(secret),
      disabled,
      limit,
      limitReset,
      includeByokInLimit,
      usage: usage.total,
      usageDaily: usage.daily,
      usageWeekly: usage.weekly,
      usageMonthly: usage.monthly,
      byokUsage: byok.total,
      byokUsageDaily: byok.daily,
      byokUsageWeekly: byok.weekly,
      byokUsageMonthly: byok.monthly,
      createdAt,
      updatedAt,
      expiresAt,
      creatorUserId: userId,
    }
  }

  return {
    create: (options) =>
      atomically(ctx, () => {
        const key = build(options)
        ctx.data.keys.set(key.hash, key)
        ctx.indices.addKey(key)
        return { key: key.secret, record: keyToWire(key) }
      }),
    list: () => [...ctx.data.keys.values()].map(keyToWire),
    get: (hash) => {
      const key = ctx.data.keys.get(hash)
      return key && keyToWire(key)
    },
  }
}
