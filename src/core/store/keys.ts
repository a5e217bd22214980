import { describe } from '../describe.js'
import { invalidArgument, SimulatorError, SimulatorErrorCode } from '../errors.js'
import { type InstantInput, formatTimestamp, toEpochMs } from '../time.js'
import type { RateLimit, KeyState } from './state.js'
import { checkRateLimit } from './rate-limits.js'
import type { ApiKey, LimitReset } from '../types.js'
import { type CachedJson, utf8Length } from '../json-text.js'
import { MAX_EXACT_USD, NO_FIGURES, type SeedFigures, type UsageFigures, type UsageRecord, type UsageWindows, chargeUsage, figuresAt, limitRemaining, seedRecords, toUsd, windowsAt } from '../usage.js'
import { ArgumentChecker, fieldsOf } from './check.js'
import type { CreateKeyOptions, KeyUsageInput } from './key-options.js'
import { keyFromRecord, type LoadKeyOptions, renamed, type SdkKeyRecord } from './key-records.js'
import { type StoreContext, atomically, windowsNow } from './context.js'
import { KEY_NAMES } from './defaults.js'
import { put, remove } from './versions.js'
import { requireUser, resolveWorkspaceId } from './workspaces.js'
import { maskSecret } from './mask.js'

/** What `sim.keys.create` returns: the bearer secret (shown only here) and the wire record. */
export interface CreatedKey {
  key: string
  record: ApiKey
}

/** What `sim.keys.update` may change; `updated_at` becomes the clock's now (unless a record is dated later). */
export interface UpdateKeyOptions {
  name?: string | undefined
  disabled?: boolean | undefined
  limit?: number | null | undefined
  limitReset?: LimitReset | null | undefined
  includeByokInLimit?: boolean | undefined
  expiresAt?: InstantInput | null | undefined
  /** This key's own rate limit; null: back to the simulator's default. */
  rateLimit?: RateLimit | null | undefined
}

/** What an update of a key may change: every other field of a key stays as it was made. */
export type KeyChanges = Partial<Pick<KeyState, 'name' | 'disabled' | 'limit' | 'limitReset' | 'includeByokInLimit' | 'expiresAt' | 'rateLimit'>>

/**
 * Stores a key with `changes` applied (already validated) and returns it. `updated_at` becomes the
 * clock's now, or stays where it is when a usage record dated later already moved it there: it is
 * the latest instant anything happened to the key, records included (decisions/0009).
 */
export function writeKeyUpdate(ctx: StoreContext, key: KeyState, changes: KeyChanges): KeyState {
  const updated: KeyState = { ...key, ...changes, updatedAt: Math.max(key.updatedAt ?? Number.NEGATIVE_INFINITY, ctx.clock.nowMs()) }
  put(ctx, 'keys', key.hash, updated)
  return updated
}

/**
 * Deletes a key: its secret and hash are unknown from now on. What it had spent as of the clock's
 * now (its `usage`, regular records only) moves to its organisation's retired usage, which
 * `GET /credits` keeps counting in `total_usage` (decisions/0021).
 */
export function deleteKeyState(ctx: StoreContext, key: KeyState): void {
  const spent = figuresAt(key.usage, key.usageCount, windowsNow(ctx)).total
  const user = ctx.data.users.get(key.userId)
  if (user !== undefined && spent > 0) put(ctx, 'users', user.id, { ...user, retiredUnits: user.retiredUnits + BigInt(spent) })
  remove(ctx, 'keys', key.hash)
}

/** Stores a key made by {@link buildKey} or {@link newKey} (which indexes it). */
export function insertKey(ctx: StoreContext, key: KeyState): KeyState {
  put(ctx, 'keys', key.hash, key)
  return key
}

export interface KeyCollection {
  /**
   * Creates a key and returns its bearer secret and wire record. A field that is not one of
   * {@link CreateKeyOptions} (or, in `usage` and `byokUsage`, of {@link KeyUsageInput}) throws an
   * INVALID_ARGUMENT SimulatorError naming it (`disabeld`), and stores nothing.
   */
  create(options: CreateKeyOptions): CreatedKey
  /**
   * Stores a key that shows `record` (as `GET /keys` returns it, or as the official SDK parsed it):
   * its hash, name, label, limits, dates and usage figures, the figures as of the simulator clock's
   * now. Its `workspace_id` must be a workspace of `options.userId`. Returns the bearer secret
   * (`options.secret`, or a fresh one) and the record as the simulator shows it. A bad or unknown
   * field throws a `SimulatorError` naming it (`record.usage_daily`, `options.secrte`), and stores nothing.
   */
  load(record: ApiKey | SdkKeyRecord, options: LoadKeyOptions): CreatedKey
  /**
   * Changes a key in place (disable it, give it a limit...) and returns its wire record. A field
   * that is not one of {@link UpdateKeyOptions} throws an INVALID_ARGUMENT SimulatorError naming it,
   * and changes nothing.
   */
  update(hash: string, changes: UpdateKeyOptions): ApiKey
  /**
   * Deletes a key, as `DELETE /keys/{hash}` does: its secret gets 401 and its hash 404 from now on,
   * while what it spent stays in its organisation's `total_usage` (`sim.credits.get`). An unknown
   * hash throws an UNKNOWN_KEY SimulatorError.
   */
  delete(hash: string): void
  /** Every key, management keys included, as the wire shows them. */
  list(): ApiKey[]
  /** One key by hash, or undefined. */
  get(hash: string): ApiKey | undefined
}

const SECRET = /^\S{8,512}$/
const HASH = /^[0-9a-f]{64}$/
const LIMIT_RESETS: readonly LimitReset[] = ['daily', 'weekly', 'monthly']
export const UPDATABLE = fieldsOf<UpdateKeyOptions>({
  name: true,
  disabled: true,
  limit: true,
  limitReset: true,
  includeByokInLimit: true,
  expiresAt: true,
  rateLimit: true,
})
/** The fields of {@link CreateKeyOptions}, in the order its type lists them. */
export const KEY_FIELDS = fieldsOf<CreateKeyOptions>({
  userId: true,
  management: true,
  name: true,
  workspaceId: true,
  disabled: true,
  limit: true,
  limitReset: true,
  expiresAt: true,
  includeByokInLimit: true,
  createdAt: true,
  updatedAt: true,
  usage: true,
  byokUsage: true,
  secret: true,
  hash: true,
  rateLimit: true,
  label: true,
  creatorUserId: true,
  externalUser: true,
})
export const USAGE_FIELDS = fieldsOf<KeyUsageInput>({ total: true, daily: true, weekly: true, monthly: true })

/** A key by hash, or a SimulatorError naming `hash`. */
export function requireKey(ctx: StoreContext, hash: unknown, operation: string, argument = 'hash'): KeyState {
  const key = typeof hash === 'string' ? ctx.data.keys.get(hash) : undefined
  if (!key) {
    throw new SimulatorError(SimulatorErrorCode.UnknownKey, `Failed to ${operation}: "${argument}" is not the hash of a key in this simulator, got ${describe(hash)}.`, { argument })
  }
  return key
}

/** A key's wire record and its JSON, for the usage figures it was made with. */
interface WireCache extends CachedJson<ApiKey> {
  readonly figures: UsageFigures
}

const WIRE = Symbol('wire record')
type CachedKey = KeyState & { [WIRE]?: WireCache }

/** Whether two sets of figures are the same (field by field: this runs for every key of every page). */
function sameFigures(a: UsageFigures, b: UsageFigures): boolean {
  return (
    a.total === b.total && a.daily === b.daily && a.weekly === b.weekly && a.monthly === b.monthly &&
    a.byokTotal === b.byokTotal && a.byokDaily === b.byokDaily && a.byokWeekly === b.byokWeekly && a.byokMonthly === b.byokMonthly
  )
}

/**
 * A key's wire record as of an instant, with its JSON: made once per KeyState (a value, so nothing
 * else about it can change) and made again only when the usage figures for the instant differ
 * from those it was made with. Kept on the key under a symbol that spreads and structuredClone skip,
 * unless `keep` is false: a key's answer to POST /keys is its only read until it is listed, and a
 * key created and never listed need not hold its JSON for good (decisions/0033).
 * Shared: hand out copies of `value`, never `value` itself.
 */
export function wireKey(key: KeyState, windows: UsageWindows, keep = true): WireCache {
  const f = figuresAt(key.usage, key.usageCount, windows)
  const cached = (key as CachedKey)[WIRE]
  if (cached !== undefined && sameFigures(cached.figures, f)) return cached
  const entry = new KeyWire(key, f)
  if (keep) Object.defineProperty(key, WIRE, { value: entry, configurable: true, writable: true, enumerable: false })
  return entry
}

/** The eight usage fields of a key's JSON, in their order. */
function usageJson(f: UsageFigures): string {
  return (
    `"usage":${toUsd(f.total)},"usage_daily":${toUsd(f.daily)},"usage_weekly":${toUsd(f.weekly)},"usage_monthly":${toUsd(f.monthly)},` +
    `"byok_usage":${toUsd(f.byokTotal)},"byok_usage_daily":${toUsd(f.byokDaily)},"byok_usage_weekly":${toUsd(f.byokWeekly)},"byok_usage_monthly":${toUsd(f.byokMonthly)}`
  )
}

/** Those of a key without usage (every new key), written once. */
const NO_USAGE_JSON = usageJson(NO_FIGURES)

/**
 * A key's wire record: its JSON written field by field (what the wire needs, and all a write's
 * answer needs), the object built only when a body is read. The text is JSON.stringify of the
 * object, byte for byte: strings through JSON.stringify, numbers and booleans as JSON writes them.
 */
class KeyWire implements WireCache {
  readonly figures: UsageFigures
  readonly json: string
  readonly bytes: number
  private built: ApiKey | undefined

  constructor(
    private readonly key: KeyState,
    f: UsageFigures,
  ) {
    // Figures that can still change (a cache's, folded in place as records come) are copied, field
    // by field; a new key's are the shared frozen zeros, kept as they are.
    const none = f === NO_FIGURES
    this.figures = none
      ? f
      : { total: f.total, daily: f.daily, weekly: f.weekly, monthly: f.monthly, byokTotal: f.byokTotal, byokDaily: f.byokDaily, byokWeekly: f.byokWeekly, byokMonthly: f.byokMonthly }
    const limitLeft = limitRemaining(key.limit, key.limitReset, key.includeByokInLimit, f)
    const updated = key.updatedAt === null ? 'null' : `"${formatTimestamp(key.updatedAt)}"`
    const expires = key.expiresAt === null ? 'null' : `"${formatTimestamp(key.expiresAt)}"`
    this.json =
      `{"hash":${JSON.stringify(key.hash)},"name":${JSON.stringify(key.name)},"label":${JSON.stringify(key.label)},"disabled":${key.disabled},` +
      `"limit":${key.limit},"limit_remaining":${limitLeft},"limit_reset":${JSON.stringify(key.limitReset)},"include_byok_in_limit":${key.includeByokInLimit},` +
      `${none ? NO_USAGE_JSON : usageJson(f)},"created_at":"${formatTimestamp(key.createdAt)}","updated_at":${updated},"expires_at":${expires},` +
      `"creator_user_id":${JSON.stringify(key.creatorUserId)},"workspace_id":${JSON.stringify(key.workspaceId)},"external_user":${JSON.stringify(key.externalUser)}}`
    // utf8Length's scan also makes the kept text one flat string, not a chain of its pieces.
    this.bytes = utf8Length(this.json)
  }

  /** Shared: hand out copies, never this object itself. */
  get value(): ApiKey {
    if (this.built !== undefined) return this.built
    const key = this.key
    const f = this.figures
    this.built = {
      hash: key.hash,
      name: key.name,
      label: key.label,
      disabled: key.disabled,
      limit: key.limit,
      limit_remaining: limitRemaining(key.limit, key.limitReset, key.includeByokInLimit, f),
      limit_reset: key.limitReset,
      include_byok_in_limit: key.includeByokInLimit,
      usage: toUsd(f.total),
      usage_daily: toUsd(f.daily),
      usage_weekly: toUsd(f.weekly),
      usage_monthly: toUsd(f.monthly),
      byok_usage: toUsd(f.byokTotal),
      byok_usage_daily: toUsd(f.byokDaily),
      byok_usage_weekly: toUsd(f.byokWeekly),
      byok_usage_monthly: toUsd(f.byokMonthly),
      created_at: formatTimestamp(key.createdAt),
      updated_at: key.updatedAt === null ? null : formatTimestamp(key.updatedAt),
      expires_at: key.expiresAt === null ? null : formatTimestamp(key.expiresAt),
      creator_user_id: key.creatorUserId,
      workspace_id: key.workspaceId,
      external_user: key.externalUser,
    }
    return this.built
  }
}

/** The fields `GET /key` shares with a key's wire record: its label, limit and usage figures. */
export type KeyFigures = Pick<
  ApiKey,
  | 'label' | 'limit' | 'limit_remaining' | 'limit_reset' | 'include_byok_in_limit'
  | 'usage' | 'usage_daily' | 'usage_weekly' | 'usage_monthly'
  | 'byok_usage' | 'byok_usage_daily' | 'byok_usage_weekly' | 'byok_usage_monthly'
>

/** What `GET /key` shows of a key's wire record (the fixtures and arbitraries of `CurrentKey` read it too). */
export function keyFiguresOf(record: ApiKey): KeyFigures {
  return {
    label: record.label,
    limit: record.limit,
    limit_remaining: record.limit_remaining,
    limit_reset: record.limit_reset,
    include_byok_in_limit: record.include_byok_in_limit,
    usage: record.usage,
    usage_daily: record.usage_daily,
    usage_weekly: record.usage_weekly,
    usage_monthly: record.usage_monthly,
    byok_usage: record.byok_usage,
    byok_usage_daily: record.byok_usage_daily,
    byok_usage_weekly: record.byok_usage_weekly,
    byok_usage_monthly: record.byok_usage_monthly,
  }
}

/** A key's wire record is flat: a spread is a whole copy. */
export const copyKeyWire = (wire: ApiKey): ApiKey => ({ ...wire })

/** The wire record of a key as of an instant: its usage figures are the sums for that instant's windows. A fresh copy. */
export function keyToWire(key: KeyState, windows: UsageWindows): ApiKey {
  return copyKeyWire(wireKey(key, windows).value)
}

/** Seeded usage as records that reproduce it at the clock's now; throws naming an impossible figure. */
function readUsage(check: ArgumentChecker, input: unknown, argument: string, byok: boolean, windows: UsageWindows): UsageRecord[] {
  if (input === undefined) return []
  const usage = check.object(input, argument)
  check.knownFields(usage, USAGE_FIELDS, argument, 'usage figures')
  const figures: SeedFigures = {}
  for (const field of ['total', 'daily', 'weekly', 'monthly'] as const) {
    if (usage[field] === undefined) continue
    figures[field] = check.nonNegative(usage[field], `${argument}.${field}`)
    if (figures[field] > MAX_EXACT_USD) check.fail(`${argument}.${field}`, `must be at most ${MAX_EXACT_USD} USD, the most kept exactly (to 10^-10 USD)`)
  }
  const seeded = seedRecords(figures, byok, windows)
  if (Array.isArray(seeded)) return seeded
  return check.fail(`${argument}.${seeded.field}`, `${seeded.problem} (the figures are as of the simulator clock's now)`)
}

/**
 * A key's fields, checked, before what is drawn: `secret`, `hash` and `name` undefined are drawn by
 * {@link newKey}, and `label` undefined is the secret masked. What {@link buildKey} makes of create
 * options, and what `POST /keys` makes of a body it has read (which checks as it reads).
 */
export interface KeyDraft extends Omit<KeyState, 'secret' | 'hash' | 'name' | 'label'> {
  secret: string | undefined
  hash: string | undefined
  name: string | undefined
  label: string | undefined
}

/**
 * Validates create options into a key without storing it; throws a SimulatorError naming the bad
 * option. The names of the options are the caller's to check ({@link checkKeyFields}): the world
 * loader builds them itself, from a spec key it has checked.
 */
export function buildKey(ctx: StoreContext, options: CreateKeyOptions): KeyState {
  const operation = 'create API key'
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
  // Windows cost a calendar computation; most keys (all of a loaded world's) seed no figures.
  const windows = options.usage === undefined && options.byokUsage === undefined ? undefined : windowsAt(ctx.clock.nowMs())
  const usage = windows === undefined ? [] : [...readUsage(check, options.usage, 'usage', false, windows), ...readUsage(check, options.byokUsage, 'byokUsage', true, windows)]
  let secret: string | undefined
  if (options.secret !== undefined) {
    secret = check.string(options.secret, 'secret', SECRET, '8 to 512 characters without white space')
    if (ctx.indices.keyHashBySecret.has(secret)) {
      throw new SimulatorError(SimulatorErrorCode.DuplicateId, `Failed to ${operation}: "secret" is already the secret of another key.`, {
        argument: 'secret',
      })
    }
  }
  let hash: string | undefined
  if (options.hash !== undefined) {
    hash = check.string(options.hash, 'hash', HASH, '64 lower-case hexadecimal digits')
    if (ctx.data.keys.has(hash)) {
      throw new SimulatorError(SimulatorErrorCode.DuplicateId, `Failed to ${operation}: "hash" ${hash} is already the hash of another key.`, { argument: 'hash' })
    }
  }
  return newKey(ctx, {
    hash,
    secret,
    userId,
    workspaceId,
    management,
    name: options.name === undefined ? undefined : check.string(options.name, 'name'),
    label: options.label === undefined ? undefined : check.string(options.label, 'label'),
    disabled,
    limit,
    limitReset,
    includeByokInLimit,
    usage,
    usageCount: usage.length,
    rateLimit: options.rateLimit === undefined || options.rateLimit === null ? null : checkRateLimit(options.rateLimit, operation, 'rateLimit'),
    createdAt,
    updatedAt,
    expiresAt,
    creatorUserId: options.creatorUserId === undefined ? userId : options.creatorUserId === null ? null : check.string(options.creatorUserId, 'creatorUserId'),
    externalUser: options.externalUser === undefined || options.externalUser === null ? null : check.string(options.externalUser, 'externalUser'),
  })
}

/**
 * The key of a checked draft, without storing it: a secret (`sk-or-v1-` and 64 hex digits), then a
 * hash, then (for a key without a name) a name, each drawn when the draft has none and in that
 * order, so that the same seed gives the same keys however the draft was made. A given secret or
 * hash is the caller's to have checked (unique, well-formed); a drawn one is unique.
 */
export function newKey(ctx: StoreContext, draft: KeyDraft): KeyState {
  let secret = draft.secret
  if (secret === undefined) {
    do secret = `sk-or-v1-${ctx.random.hex(64)}`
    while (ctx.indices.keyHashBySecret.has(secret))
  }
  let hash = draft.hash
  if (hash === undefined) {
    do hash = ctx.random.hex(64)
    while (ctx.data.keys.has(hash))
  }
  return {
    hash,
    secret,
    userId: draft.userId,
    workspaceId: draft.workspaceId,
    management: draft.management,
    name: draft.name ?? (draft.management ? 'Management key' : ctx.random.pick(KEY_NAMES)),
    label: draft.label ?? maskSecret(secret),
    disabled: draft.disabled,
    limit: draft.limit,
    limitReset: draft.limitReset,
    includeByokInLimit: draft.includeByokInLimit,
    usage: draft.usage,
    usageCount: draft.usageCount,
    rateLimit: draft.rateLimit,
    createdAt: draft.createdAt,
    updatedAt: draft.updatedAt,
    expiresAt: draft.expiresAt,
    creatorUserId: draft.creatorUserId,
    externalUser: draft.externalUser,
  }
}

/**
 * The key after a charge of `record` (its usage log appended, and folded when due at `nowMs`;
 * `updatedAt` moved on to the record's instant), written out field by field: a spread of the key
 * was a measurable part of every charged request.
 */
export function chargedKey(key: KeyState, record: UsageRecord, nowMs: number): KeyState {
  const { usage, usageCount } = chargeUsage(key.usage, key.usageCount, record, nowMs)
  return {
    hash: key.hash,
    secret: key.secret,
    userId: key.userId,
    workspaceId: key.workspaceId,
    management: key.management,
    name: key.name,
    label: key.label,
    disabled: key.disabled,
    limit: key.limit,
    limitReset: key.limitReset,
    includeByokInLimit: key.includeByokInLimit,
    usage,
    usageCount,
    rateLimit: key.rateLimit,
    createdAt: key.createdAt,
    updatedAt: key.updatedAt === null ? record.at : Math.max(key.updatedAt, record.at),
    expiresAt: key.expiresAt,
    creatorUserId: key.creatorUserId,
    externalUser: key.externalUser,
  }
}

/** Refuses a field of `options` that is not one of {@link CreateKeyOptions}. */
export function checkKeyFields(options: unknown, operation: string): void {
  const check = new ArgumentChecker(operation)
  check.knownFields(check.object(options, 'options'), KEY_FIELDS, '', 'a key')
}

export function createKeyCollection(ctx: StoreContext): KeyCollection {
  return {
    create: (options) =>
      atomically(ctx, () => {
        checkKeyFields(options, 'create API key')
        const key = insertKey(ctx, buildKey(ctx, options))
        return { key: key.secret, record: keyToWire(key, windowsNow(ctx)) }
      }),
    load: (record, options) =>
      atomically(ctx, () => {
        const operation = 'load API key'
        const from = keyFromRecord(record, options, operation)
        let built: KeyState
        try {
          built = buildKey(ctx, from.options)
        } catch (error) {
          throw renamed(error, from.rename, operation)
        }
        const key = insertKey(ctx, built)
        return { key: key.secret, record: keyToWire(key, windowsNow(ctx)) }
      }),
    update: (hash, changes) => {
      const operation = 'update API key'
      const key = requireKey(ctx, hash, operation)
      const check: ArgumentChecker = new ArgumentChecker(operation)
      check.knownFields(check.object(changes, 'changes'), UPDATABLE, '', 'a key update', 'changes')
      // Read everything before writing anything, so a bad field changes nothing.
      const next = {
        name: changes.name === undefined ? key.name : check.string(changes.name, 'name'),
        disabled: changes.disabled === undefined ? key.disabled : check.boolean(changes.disabled, 'disabled'),
        limit: changes.limit === undefined ? key.limit : changes.limit === null ? null : check.nonNegative(changes.limit, 'limit'),
        limitReset:
          changes.limitReset === undefined ? key.limitReset : changes.limitReset === null ? null : check.oneOf(changes.limitReset, LIMIT_RESETS, 'limitReset'),
        includeByokInLimit: changes.includeByokInLimit === undefined ? key.includeByokInLimit : check.boolean(changes.includeByokInLimit, 'includeByokInLimit'),
        expiresAt:
          changes.expiresAt === undefined ? key.expiresAt : changes.expiresAt === null ? null : toEpochMs(changes.expiresAt, operation, 'expiresAt'),
        rateLimit:
          changes.rateLimit === undefined ? key.rateLimit : changes.rateLimit === null ? null : checkRateLimit(changes.rateLimit, operation, 'rateLimit'),
      }
      return keyToWire(writeKeyUpdate(ctx, key, next), windowsNow(ctx))
    },
    delete: (hash) => {
      deleteKeyState(ctx, requireKey(ctx, hash, 'delete API key'))
    },
    list: () => {
      const windows = windowsNow(ctx)
      return [...ctx.data.keys.values()].map((key) => keyToWire(key, windows))
    },
    get: (hash) => {
      const key = ctx.data.keys.get(hash)
      return key && keyToWire(key, windowsNow(ctx))
    },
  }
}
