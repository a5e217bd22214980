// What a key is made from: the options of `sim.keys.create` and of a world's keys, shared by the
// key collection (keys.ts) and the reading of SDK records (key-records.ts).
import type { InstantInput } from '../time.js'
import type { LimitReset } from '../types.js'
import type { RateLimit } from './state.js'

/** Usage of a key in USD: all time and in the current UTC day, ISO week and calendar month. */
export interface KeyUsageInput {
  total?: number | undefined
  daily?: number | undefined
  weekly?: number | undefined
  monthly?: number | undefined
}

export interface CreateKeyOptions {
  /** The organisation that owns the key. */
  userId: string
  /** A management key may call every operation; a regular key only the public ones. Default false. */
  management?: boolean | undefined
  name?: string | undefined
  /** UUID of one of the organisation's workspaces; default: its default workspace. */
  workspaceId?: string | undefined
  disabled?: boolean | undefined
  /** Spending limit in USD, or null for none. */
  limit?: number | null | undefined
  limitReset?: LimitReset | null | undefined
  /** An instant at or before the clock's now makes an already expired key. */
  expiresAt?: InstantInput | null | undefined
  includeByokInLimit?: boolean | undefined
  /** Default: the simulator clock's now. */
  createdAt?: InstantInput | undefined
  updatedAt?: InstantInput | null | undefined
  usage?: KeyUsageInput | undefined
  byokUsage?: KeyUsageInput | undefined
  /** The bearer secret to accept for this key; default: a fresh `sk-or-v1-` + 64 hex secret. */
  secret?: string | undefined
  /** The key's hash (64 lower-case hex digits), for `GET /keys/{hash}`; default: a fresh one. */
  hash?: string | undefined
  /** This key's own rate limit, instead of the simulator's `rateLimit` option. */
  rateLimit?: RateLimit | null | undefined
  /** The key's label on the wire; default: the secret masked as the service masks it (`sk-or-v1-abc...wxyz`). */
  label?: string | undefined
  /** The member of the organisation who made the key (`creator_user_id`); default: `userId`. */
  creatorUserId?: string | null | undefined
  /** The partner-defined user the key is for (`external_user`, `external.user` of `POST /keys`); default null. */
  externalUser?: string | null | undefined
}
