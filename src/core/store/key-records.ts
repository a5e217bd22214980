// A key record as GET /keys shows it (or as the official SDK parsed it) turned into the options of
// a key that shows the same record: what `sim.keys.load` stores.
import { describe } from '../describe.js'
import { SimulatorError, SimulatorErrorCode } from '../errors.js'
import type { RateLimit } from './state.js'
import type { InstantInput } from '../time.js'
import type { ApiKey, LimitReset } from '../types.js'
import { ArgumentChecker, fieldsOf } from './check.js'
import type { CreateKeyOptions } from './key-options.js'

/**
 * A key record as the official SDK returns it (`sdk.apiKeys.list`, `get`): the wire record with
 * camelCase names, and `expiresAt` as a `Date`.
 */
export interface SdkKeyRecord {
  hash: string
  name: string
  label: string
  disabled: boolean
  limit: number | null
  limitRemaining?: number | null | undefined
  limitReset: string | null
  includeByokInLimit: boolean
  usage: number
  usageDaily: number
  usageWeekly: number
  usageMonthly: number
  byokUsage: number
  byokUsageDaily: number
  byokUsageWeekly: number
  byokUsageMonthly: number
  createdAt: string
  updatedAt: string | null
  expiresAt?: Date | string | null | undefined
  creatorUserId: string | null
  workspaceId: string
  externalUser?: string | null | undefined
}

/** What `sim.keys.load` needs besides the record: whose key it is, and what the record cannot say. */
export interface LoadKeyOptions {
  /** The organisation that owns the key; the record's `workspace_id` must be one of its workspaces. */
  userId: string
  /** The bearer secret to accept; default: a fresh one. The record's label is kept either way. */
  secret?: string | undefined
  /** Whether it is a management key (a record does not say). Default false. */
  management?: boolean | undefined
  /** This key's own rate limit, instead of the simulator's `rateLimit` option. */
  rateLimit?: RateLimit | null | undefined
}

export const LOAD_FIELDS = fieldsOf<LoadKeyOptions>({ userId: true, secret: true, management: true, rateLimit: true })

/** Wire name of every field, and the option of `create` it becomes (derived fields have none). */
const FIELDS: readonly { wire: keyof ApiKey; sdk: keyof SdkKeyRecord; option?: string }[] = [
  { wire: 'hash', sdk: 'hash', option: 'hash' },
  { wire: 'name', sdk: 'name', option: 'name' },
  { wire: 'label', sdk: 'label', option: 'label' },
  { wire: 'disabled', sdk: 'disabled', option: 'disabled' },
  { wire: 'limit', sdk: 'limit', option: 'limit' },
  { wire: 'limit_remaining', sdk: 'limitRemaining' },
  { wire: 'limit_reset', sdk: 'limitReset', option: 'limitReset' },
  { wire: 'include_byok_in_limit', sdk: 'includeByokInLimit', option: 'includeByokInLimit' },
  { wire: 'usage', sdk: 'usage', option: 'usage.total' },
  { wire: 'usage_daily', sdk: 'usageDaily', option: 'usage.daily' },
  { wire: 'usage_weekly', sdk: 'usageWeekly', option: 'usage.weekly' },
  { wire: 'usage_monthly', sdk: 'usageMonthly', option: 'usage.monthly' },
  { wire: 'byok_usage', sdk: 'byokUsage', option: 'byokUsage.total' },
  { wire: 'byok_usage_daily', sdk: 'byokUsageDaily', option: 'byokUsage.daily' },
  { wire: 'byok_usage_weekly', sdk: 'byokUsageWeekly', option: 'byokUsage.weekly' },
  { wire: 'byok_usage_monthly', sdk: 'byokUsageMonthly', option: 'byokUsage.monthly' },
  { wire: 'created_at', sdk: 'createdAt', option: 'createdAt' },
  { wire: 'updated_at', sdk: 'updatedAt', option: 'updatedAt' },
  { wire: 'expires_at', sdk: 'expiresAt', option: 'expiresAt' },
  { wire: 'creator_user_id', sdk: 'creatorUserId', option: 'creatorUserId' },
  { wire: 'workspace_id', sdk: 'workspaceId', option: 'workspaceId' },
  { wire: 'external_user', sdk: 'externalUser', option: 'externalUser' },
]
const BY_WIRE = new Map(FIELDS.map((f) => [f.wire, f]))
/** Fields a record may lack: the SDK leaves out `expiresAt` when the wire's is null. */
const OPTIONAL = new Set<string>(['limit_remaining', 'expires_at', 'external_user'])

/** The key to store for a record, as `create` options. */
export interface KeyFromRecord {
  options: CreateKeyOptions
  /** The record's name of each option, for errors: `usage.daily` is `record.usage_daily`. */
  rename: (argument: string | undefined) => string | undefined
}

/** Reads a wire or SDK key record into the key that shows it; throws naming the bad field. */
export function keyFromRecord(record: unknown, options: unknown, operation: string): KeyFromRecord {
  const check = new ArgumentChecker(operation)
  const fields = check.object(record, 'record')
  const given = check.object(options, 'options')
  check.knownFields(given, LOAD_FIELDS, 'options', 'the options of load')
  const sdk = !('created_at' in fields) && 'createdAt' in fields
  const own = (f: (typeof FIELDS)[number]): string => (sdk ? f.sdk : f.wire)
  const nameOf = (wire: keyof ApiKey): string => `record.${own(BY_WIRE.get(wire) as (typeof FIELDS)[number])}`
  const read = (wire: keyof ApiKey): unknown => fields[own(BY_WIRE.get(wire) as (typeof FIELDS)[number])]
  const known = new Set<string>(FIELDS.map(own))
  for (const key of Object.keys(fields)) {
    if (!known.has(key)) check.fail(`record.${key}`, `is not a field of a key record (GET /keys returns ${FIELDS.map(own).join(', ')})`)
  }
  for (const field of FIELDS) {
    if (fields[own(field)] === undefined && !OPTIONAL.has(field.wire)) check.fail(`record.${own(field)}`, 'is missing: a key record has every field GET /keys returns')
  }
  const external = read('external_user')
  const externalUser = external === undefined || external === null ? null : check.string(external, nameOf('external_user'))
  const label = check.string(read('label'), nameOf('label'))
  const creator = read('creator_user_id')
  const creatorUserId = creator === null ? null : check.string(creator, nameOf('creator_user_id'))
  const usage = (prefix: 'usage' | 'byok_usage') => ({
    total: read(prefix) as number,
    daily: read(`${prefix}_daily`) as number,
    weekly: read(`${prefix}_weekly`) as number,
    monthly: read(`${prefix}_monthly`) as number,
  })
  const expires = read('expires_at')
  const createOptions: CreateKeyOptions = {
    userId: given['userId'] as string,
    hash: read('hash') as string,
    name: read('name') as string,
    workspaceId: read('workspace_id') as string,
    disabled: read('disabled') as boolean,
    limit: read('limit') as number | null,
    limitReset: read('limit_reset') as LimitReset | null,
    includeByokInLimit: read('include_byok_in_limit') as boolean,
    createdAt: read('created_at') as string,
    updatedAt: read('updated_at') as string | null,
    expiresAt: (expires === undefined ? null : expires) as InstantInput | null,
    usage: usage('usage'),
    byokUsage: usage('byok_usage'),
    label,
    creatorUserId,
    externalUser,
  }
  if (given['secret'] !== undefined) createOptions.secret = given['secret'] as string
  if (given['management'] !== undefined) createOptions.management = given['management'] as boolean
  if (given['rateLimit'] !== undefined) createOptions.rateLimit = given['rateLimit'] as RateLimit | null
  const byOption = new Map(FIELDS.filter((f) => f.option !== undefined).map((f) => [f.option as string, `record.${own(f)}`]))
  const rename = (argument: string | undefined): string | undefined =>
    argument === undefined ? undefined : (byOption.get(argument) ?? (['userId', 'secret', 'management', 'rateLimit'].includes(argument) ? `options.${argument}` : argument))
  return { options: createOptions, rename }
}

/** The same error, naming the record's field (or `options.x`) instead of the create option. */
export function renamed(error: unknown, rename: KeyFromRecord['rename'], operation: string): unknown {
  if (!(error instanceof SimulatorError)) return error
  const argument = rename(error.argument)
  let message = error.message.replace('Failed to create API key:', `Failed to ${operation}:`)
  if (error.argument !== undefined && argument !== error.argument) message = message.replace(`"${error.argument}"`, `"${argument}"`)
  const options: { argument?: string; details?: unknown } = { details: error.details }
  if (argument !== undefined) options.argument = argument
  return new SimulatorError(error.code as SimulatorErrorCode, message, options)
}
