import { SortedIndex } from '../sorted-index.js'
import { CatalogCache } from './catalog.js'
import { copyModelTable } from './model-table.js'
import type { LimitReset, ModelWithEndpoints, VideoModel, Workspace } from '../types.js'
import type { UsageRecord } from '../usage.js'
import type { Generation } from '../inference/wire.js'
import type { EndpointTraffic } from './traffic.js'
import { SpendGroups } from './spend-groups.js'

/** An organisation: the tenant that owns workspaces, keys and files. */
export interface UserState {
  id: string
  name: string
  /** Null once the default workspace has been deleted (decisions/0022). */
  defaultWorkspaceId: string | null
  createdAt: number
  /** Credits bought, in 10^-10 USD (core/usage.ts), a BigInt: `total_credits` of `GET /credits`. */
  creditUnits: bigint
  /**
   * What the organisation's deleted keys spent (their regular, not BYOK, records), in 10^-10 USD:
   * part of `total_usage` after the keys are gone (decisions/0021). A BigInt, as `creditUnits`.
   */
  retiredUnits: bigint
}

export interface WorkspaceState {
  userId: string
  record: Workspace
}

/**
 * An API key as the store holds it; the wire record is derived from it on every read. A KeyState is
 * a value: a change stores a new one (snapshots share the old), never edits it in place.
 */
export interface KeyState {
  hash: string
  secret: string
  userId: string
  workspaceId: string
  management: boolean
  name: string
  label: string
  disabled: boolean
  limit: number | null
  limitReset: LimitReset | null
  includeByokInLimit: boolean
  /**
   * The key's usage records are the first `usageCount` of this log, in the order recorded; the wire
   * figures are sums over them (core/usage.ts). The log is append-only and may be shared with
   * other versions of the key, which see a shorter prefix of it (see `appendUsage`); a charge that
   * folds it (`chargeUsage`, decisions/0029) makes a new log, so those versions keep theirs.
   */
  readonly usage: UsageRecord[]
  readonly usageCount: number
  /** This key's own rate limit; null: the simulator's default (if any). */
  rateLimit: RateLimit | null
  createdAt: number
  updatedAt: number | null
  expiresAt: number | null
  creatorUserId: string | null
  /** The partner-defined user the key was made for (`external_user`), or null. */
  externalUser: string | null
}

export type FileProvider = 'openai' | 'anthropic'
export type FileOrigin = 'server' | 'upload'

/** One version of a preset as the store holds it (a value: a new version is a new row of the preset). */
export interface PresetVersionState {
  readonly id: string
  readonly version: number
  /** Request fields, checked as a chat request's (store/presets.ts); frozen, shared by every read. */
  readonly config: Readonly<Record<string, unknown>>
  readonly systemPrompt: string | null
  readonly createdAt: number
}

/**
 * A preset of an organisation (decisions/0050), keyed in the store by {@link presetScopeKey}: its
 * slug is unique within its organisation and never changes. A value: a change stores a new one.
 */
export interface PresetState {
  readonly id: string
  readonly userId: string
  readonly slug: string
  readonly name: string
  readonly description: string | null
  readonly workspaceId: string | null
  readonly createdAt: number
  /** The latest change: of its name or description, or its latest version. */
  readonly updatedAt: number
  /** Oldest first; the last is the current (designated) version. Never empty. */
  readonly versions: readonly PresetVersionState[]
}

/**
 * A workspace budget's interval (decisions/0052): `daily` from 00:00 UTC, `weekly` from Monday
 * 00:00 UTC, `monthly` from the first of the month; `lifetime` never resets.
 *
 * @example
 * import { createSimulator, type BudgetInterval } from 'model-access-sim'
 * const sim = createSimulator()
 * const interval: BudgetInterval = 'weekly'
 * console.log(sim.budgets.set({ workspace: sim.world.workspaces.research, interval, limitUsd: 20 }).reset_interval)
 * //=> weekly
 */
export type BudgetInterval = 'daily' | 'weekly' | 'monthly' | 'lifetime'

/** A workspace budget (decisions/0052), keyed in the store by workspace and interval. A value: a change stores a new one. */
export interface BudgetState {
  readonly id: string
  readonly userId: string
  readonly workspaceId: string
  readonly interval: BudgetInterval
  readonly limitUsd: number
  readonly createdAt: number
  readonly updatedAt: number
}

/** A BYOK provider credential (decisions/0054), keyed by id. A value: a change stores a new one. */
export interface ByokState {
  readonly id: string
  readonly userId: string
  /** Null: a credential of every workspace of the organisation. */
  readonly workspaceId: string | null
  readonly provider: string
  /** The raw key: never answered. */
  readonly key: string
  readonly name: string | null
  readonly allowedApiKeyHashes: readonly string[] | null
  readonly allowedModels: readonly string[] | null
  readonly allowedUserIds: readonly string[] | null
  readonly declaredZdr: boolean | null
  readonly disabled: boolean
  readonly isByokOnly: boolean
  readonly isFallback: boolean
  readonly isRequired: boolean
  readonly sortOrder: number
  readonly createdAt: number
}

/** The store's key of a preset: its organisation and its slug. */
export function presetScopeKey(userId: string, slug: string): string {
  return `${userId}\u0000${slug}`
}

/**
 * A member of an organisation (decisions/0051): a user id with a role. The organisation's own id
 * is its owner, a member (`org:admin`) without a row. Keyed by {@link memberScopeKey}. A value.
 */
export interface MemberState {
  readonly userId: string
  readonly id: string
  readonly email: string
  readonly firstName: string | null
  readonly lastName: string | null
  readonly role: 'admin' | 'member'
  readonly createdAt: number
}

/** A member's place in a workspace (decisions/0051), keyed by {@link workspaceMemberScopeKey}. A value. */
export interface WorkspaceMemberState {
  readonly id: string
  readonly workspaceId: string
  readonly memberId: string
  readonly createdAt: number
}

/** The store's key of a member: its organisation and its user id. */
export function memberScopeKey(userId: string, memberId: string): string {
  return `${userId}\u0000${memberId}`
}

/** The store's key of a workspace membership: the workspace and the member's user id. */
export function workspaceMemberScopeKey(workspaceId: string, memberId: string): string {
  return `${workspaceId}\u0000${memberId}`
}

/** A content filter of a guardrail: a regular expression and what a match does. */
export interface GuardrailContentFilter {
  action: 'redact' | 'block' | 'flag'
  label?: string | null | undefined
  pattern: string
}

/** A builtin content filter of a guardrail. */
export interface GuardrailBuiltinFilter {
  action: 'redact' | 'block' | 'flag'
  label?: string | undefined
  scan_scope?: 'user_only' | 'all_messages' | undefined
  slug: string
}

/** A guardrail's rules, as the wire names them. Every one null (or false) when unset. */
export interface GuardrailRules {
  name: string
  description: string | null
  allowed_models: string[] | null
  ignored_models: string[] | null
  allowed_providers: string[] | null
  ignored_providers: string[] | null
  allowed_data_regions: ('global' | 'europe' | 'us')[] | null
  content_filters: GuardrailContentFilter[] | null
  content_filter_builtins: GuardrailBuiltinFilter[] | null
  enable_free_model_publication: boolean | null
  enable_free_model_training: boolean | null
  enable_paid_model_training: boolean | null
  enforce_zdr: boolean | null
  enforce_zdr_anthropic: boolean | null
  enforce_zdr_google: boolean | null
  enforce_zdr_openai: boolean | null
  enforce_zdr_other: boolean | null
  enforce_zdr_xai: boolean | null
  include_byok_in_budgets: boolean
  limit_usd: number | null
  reset_interval: 'daily' | 'weekly' | 'monthly' | null
}

/** A guardrail as the store holds it (a value: a change stores a new one). */
export interface GuardrailState {
  readonly id: string
  readonly userId: string
  readonly workspaceId: string | null
  readonly rules: Readonly<GuardrailRules>
  readonly createdAt: number
  readonly updatedAt: number | null
}

/** A key's assignment: a key holds at most one guardrail, so the store keys it by the key's hash. */
export interface GuardrailKeyState {
  readonly id: string
  readonly guardrailId: string
  readonly keyHash: string
  readonly createdAt: number
}

/** A member's assignment, keyed by {@link guardrailMemberScopeKey}. */
export interface GuardrailMemberState {
  readonly id: string
  readonly guardrailId: string
  readonly userId: string
  readonly memberId: string
  readonly createdAt: number
}

export interface FileState {
  id: string
  userId: string
  workspaceId: string
  provider: FileProvider | null
  origin: FileOrigin
  filename: string
  bytes: Uint8Array
  createdAt: number
}

/** Everything a simulator holds. Snapshots keep exactly this (core/store/versions.ts). */
export interface StoreData {
  users: Map<string, UserState>
  workspaces: Map<string, WorkspaceState>
  keys: Map<string, KeyState>
  /** Keyed by {@link fileScopeKey}. */
  files: Map<string, FileState>
  models: Map<string, ModelWithEndpoints>
  videoModels: Map<string, VideoModel>
  /** Token buckets of the rate limiter, by key hash (and one for anonymous callers). */
  rateBuckets: Map<string, RateBucket>
  /** The latest generations of the money path, by `gen-...` id; bounded (store/generations.ts). */
  generations: Map<string, GenerationState>
  /** Each endpoint's traffic for its statistics, by model id and endpoint place (store/traffic.ts, recorded by inference/statistics.ts). */
  endpointStats: Map<string, EndpointTraffic>
  /** Free-model requests, a count per organisation per UTC day (inference/free-quota.ts). */
  freeRequests: Map<string, number>
  /** OAuth PKCE authorization codes, by code, used and expired ones kept (store/oauth.ts, decisions/0049). */
  oauthCodes: Map<string, OAuthCodeState>
  /** Presets, keyed by {@link presetScopeKey} (store/presets.ts). */
  presets: Map<string, PresetState>
  /** Workspace budgets, keyed by workspace and interval (store/budgets.ts, decisions/0052). */
  budgets: Map<string, BudgetState>
  /** Organisation members, keyed by {@link memberScopeKey} (store/members.ts). */
  members: Map<string, MemberState>
  /** Workspace memberships, keyed by {@link workspaceMemberScopeKey} (store/members.ts). */
  workspaceMembers: Map<string, WorkspaceMemberState>
  /** Guardrails by id (store/guardrails.ts, decisions/0051). */
  guardrails: Map<string, GuardrailState>
  /** Key assignments by key hash: a key holds at most one guardrail. */
  guardrailKeys: Map<string, GuardrailKeyState>
  /** Member assignments, keyed by guardrail and member (store/guardrails.ts). */
  guardrailMembers: Map<string, GuardrailMemberState>
  /** Daily activity per organisation, day, key and endpoint (store/activity.ts, decisions/0053). */
  activity: Map<string, ActivityState>
  /** BYOK provider credentials, keyed by id (store/byok.ts, decisions/0054). */
  byok: Map<string, ByokState>
}

/** How a PKCE code challenge was made from its verifier. */
export type CodeChallengeMethod = 'S256' | 'plain'

/**
 * An OAuth PKCE authorization code and the key it is exchanged for (a value: a use stores a new one).
 * The key's fields are asked for when the code is made and given to the key at the exchange.
 */
export interface OAuthCodeState {
  readonly code: string
  readonly userId: string
  readonly workspaceId: string
  /** The app, a number drawn from the callback URL's origin (store/oauth.ts). */
  readonly appId: number
  readonly callbackUrl: string
  readonly challenge: string | null
  readonly method: CodeChallengeMethod | null
  /** The name of the key to make: `key_label`, else the app's name (the callback's host). */
  readonly keyName: string
  readonly limit: number | null
  readonly limitReset: LimitReset | null
  readonly keyExpiresAt: number | null
  readonly createdAt: number
  /** When the code itself stops being accepted. */
  readonly expiresAt: number
  /** When it was exchanged, and the hash of the key it made; null while unused. */
  readonly usedAt: number | null
  readonly keyHash: string | null
}

/** A token bucket: `requests` per `intervalMs` (at most a year), refilled continuously on the simulator clock. */
export interface RateLimit {
  requests: number
  intervalMs: number
}

/** A generation as the store holds it (a value: never changed in place). */
export interface GenerationState {
  /** Order of recording: the smallest is the oldest. */
  readonly seq: number
  /** Its `gen-...` id: the store's key, and `wire.id`. */
  readonly id: string
  readonly userId: string
  readonly keyHash: string
  /** The exact cost, as `estimateCost` gives it. */
  readonly cost: string
  /** The cost charged to the key, in 10^-10 USD. */
  readonly units: number
  readonly wire: Generation
  /** The key of the `activity` row its charge was added to (store/activity.ts), for a stream settled short. */
  readonly activityKey?: string | undefined
  /** Its prompt and reply, for `GET /generation/content` (decisions/0053); absent for embeddings. */
  readonly content?: GenerationContent | undefined
  /** Feedback on it (`POST /generation/feedback`), oldest first. */
  readonly feedback?: readonly GenerationFeedback[] | undefined
}

/** A generation's stored prompt (a legacy completion's `prompt`, else the messages) and reply. */
export interface GenerationContent {
  readonly input: { readonly prompt: string } | { readonly messages: readonly { readonly role: string; readonly content: string }[] }
  readonly completion: string | null
  readonly reasoning: string | null
}

/** One feedback on a generation, as `POST /generation/feedback` took it. */
export interface GenerationFeedback {
  readonly category: string
  readonly comment: string | null
  /** Epoch milliseconds on the simulator clock. */
  readonly at: number
}

/** A day's activity of one key on one endpoint: a row of the store's `activity` table (a value: a change stores a new row). */
export interface ActivityState {
  readonly userId: string
  /** The UTC day, as days since the epoch. */
  readonly day: number
  readonly keyHash: string
  readonly workspaceId: string
  /** The key's `creator_user_id` when it was charged (the `user_id` filter). */
  readonly creatorUserId: string | null
  /** The model's id (`openai/gpt-4o`), its canonical slug (`openai/gpt-4o-2024-05-13`), the endpoint's provider and its id. */
  readonly model: string
  readonly permaslug: string
  readonly provider: string
  readonly endpointId: string
  readonly requests: number
  /** The cost, in units of 10^-10 USD (exact sums: the money invariant holds to the unit). */
  readonly units: number
  readonly promptTokens: number
  readonly completionTokens: number
  readonly reasoningTokens: number
  /** What providers billed through BYOK credentials (`byok_usage_inference`), in 10^-10 USD. */
  readonly byokUnits: number
}

/** A token bucket's level at the instant it was last updated. */
export interface RateBucket {
  tokens: number
  updatedMs: number
}

/** What orders keys on a GET /keys page: neither changes over a key's life. */
export interface KeyOrder {
  readonly createdAt: number
  readonly hash: string
}

/** Page order of GET /keys is created_at desc, then hash asc; indices hold the reverse and read from the end. */
export function compareKeysAscending(a: KeyOrder, b: KeyOrder): number {
  if (a.createdAt !== b.createdAt) return a.createdAt - b.createdAt
  return a.hash < b.hash ? 1 : a.hash > b.hash ? -1 : 0
}

/** The listable keys of one workspace, all of them and the enabled ones, in page order. */
export interface KeyIndex {
  all: SortedIndex<KeyOrder>
  enabled: SortedIndex<KeyOrder>
}

/**
 * Lookups derived from {@link StoreData}, never snapshotted: kept in step with every change to the
 * data ({@link StoreIndices.changed}), and built afresh only when a restore replaces the data whole.
 */
export class StoreIndices {
  readonly keyHashBySecret = new Map<string, string>()
  readonly workspaceIdBySlug = new Map<string, Map<string, string>>()
  /** Listable (non-management) keys per workspace. Pages read the current KeyState by hash. */
  readonly listableKeys = new Map<string, KeyIndex>()
  /**
   * Counts the changes to keys these indices have followed (a restore from another simulator swaps
   * the indices object, so a count is only ever compared with one of the same object). A page of
   * keys made at one count is still that page while no key on it changed since.
   */
  keysEpoch = 0
  /**
   * Per workspace, the `keysEpoch` of the last change that can change which keys its pages hold: a
   * key of it made, deleted, undone, disabled or enabled. A write to one workspace's keys leaves
   * the pages of every other workspace as they are.
   */
  private readonly shapeEpochs = new Map<string, number>()
  /** Hashes of the latest key changes, oldest first: `recentKeys[i]` is change `recentBase + i + 1`. */
  readonly recentKeys: string[] = []
  recentBase = 0
  /** The catalog's sorted models, pages and providers: dropped whenever a model changes. */
  readonly catalog = new CatalogCache()
  /** What groups of keys spent (a workspace's, a member's), for their limits: told of every write to a key. */
  readonly spendGroups = new SpendGroups()

  /** The hashes of the keys changed after change `epoch`, or undefined when they are no longer kept. */
  /** Generations by their sequence number, oldest first: the oldest is the one a full store lets go. */
  readonly generationOrder = new SortedIndex<GenerationState>((a, b) => a.seq - b.seq)

  keysChangedSince(epoch: number): readonly string[] | undefined {
    if (epoch < this.recentBase) return undefined
    return this.recentKeys.slice(epoch - this.recentBase)
  }

  /** The `keysEpoch` of the last change to which keys the pages of `workspaceId` hold (0: none since these indices were made). */
  keysShapeEpoch(workspaceId: string): number {
    return this.shapeEpochs.get(workspaceId) ?? 0
  }

  private noteKeyChange(key: KeyState, shape: boolean): void {
    const hash = key.hash
    this.keysEpoch++
    if (shape) this.shapeEpochs.set(key.workspaceId, this.keysEpoch)
    this.recentKeys.push(hash)
    if (this.recentKeys.length > 128) {
      this.recentKeys.splice(0, 64)
      this.recentBase += 64
    }
  }

  addWorkspace(state: WorkspaceState): void {
    let bySlug = this.workspaceIdBySlug.get(state.userId)
    if (!bySlug) this.workspaceIdBySlug.set(state.userId, (bySlug = new Map()))
    bySlug.set(state.record.slug, state.record.id)
  }

  addKey(key: KeyState): void {
    this.noteKeyChange(key, true)
    this.keyHashBySecret.set(key.secret, key.hash)
    if (key.management) return
    const index = this.keyIndex(key.workspaceId)
    const order: KeyOrder = { createdAt: key.createdAt, hash: key.hash }
    index.all.insert(order)
    if (!key.disabled) index.enabled.insert(order)
  }

  /**
   * What {@link addKey} does for each of `keys` in page order, for keys a world load has already
   * registered by secret: in a 100,000-key load, sorting and indexing key by key took a fifth of
   * the time (see {@link pageOrder}; nor is each secret registered again). A key serves as its own
   * {@link KeyOrder}: a loaded KeyState is kept for good (the history's baseline holds it), so
   * this saves an object a key without holding anything longer.
   */
  addLoadedKeys(keys: readonly KeyState[]): void {
    this.spendGroups.forgetAll()
    const order = pageOrder(keys)
    for (let i = 0; i < order.length; i++) {
      const key = keys[order[i] as number] as KeyState
      this.noteKeyChange(key, true)
      if (key.management) continue
      const index = this.keyIndex(key.workspaceId)
      index.all.insert(key)
      if (!key.disabled) index.enabled.insert(key)
    }
  }

  keyIndex(workspaceId: string): KeyIndex {
    let index = this.listableKeys.get(workspaceId)
    if (!index) {
      index = { all: new SortedIndex(compareKeysAscending), enabled: new SortedIndex(compareKeysAscending) }
      this.listableKeys.set(workspaceId, index)
    }
    return index
  }

  /** Follows one entry of the data from `before` to `after` (undefined: absent). */
  changed(table: Table, before: unknown, after: unknown): void {
    if (table === 'models') this.catalog.invalidate()
    else if (table === 'keys') this.keyChanged(before as KeyState | undefined, after as KeyState | undefined)
    else if (table === 'generations') {
      if (before !== undefined) this.generationOrder.remove(before as GenerationState)
      if (after !== undefined) this.generationOrder.insert(after as GenerationState)
    }
    else if (table === 'workspaces') {
      const old = before as WorkspaceState | undefined
      const now = after as WorkspaceState | undefined
      // A slug change (PATCH /workspaces/{id}) moves the entry; the owner and id never change. A
      // restore sets entries in any order, so the slug may already name the workspace that took it
      // since: only this workspace's own entry is dropped.
      if (old !== undefined && (now === undefined || now.record.slug !== old.record.slug)) {
        const bySlug = this.workspaceIdBySlug.get(old.userId)
        if (bySlug?.get(old.record.slug) === old.record.id) bySlug.delete(old.record.slug)
      }
      if (now !== undefined && (old === undefined || now.record.slug !== old.record.slug)) this.addWorkspace(now)
    }
  }

  private keyChanged(before: KeyState | undefined, after: KeyState | undefined): void {
    if (before !== undefined) this.spendGroups.keyChanged(before)
    if (after !== undefined && after.creatorUserId !== before?.creatorUserId) this.spendGroups.keyChanged(after)
    if (before === undefined) {
      if (after !== undefined) this.addKey(after)
      return
    }
    if (after === undefined) {
      this.noteKeyChange(before, true)
      this.keyHashBySecret.delete(before.secret)
      if (before.management) return
      const index = this.keyIndex(before.workspaceId)
      index.all.remove(before)
      if (!before.disabled) index.enabled.remove(before)
      return
    }
    // Hash, secret, owner, workspace, management and createdAt never change; `disabled` may.
    this.noteKeyChange(after, before.disabled !== after.disabled)
    if (after.management || before.disabled === after.disabled) return
    const enabled = this.keyIndex(after.workspaceId).enabled
    if (after.disabled) enabled.remove(after)
    else enabled.insert({ createdAt: after.createdAt, hash: after.hash })
  }

  static build(data: StoreData): StoreIndices {
    const indices = new StoreIndices()
    for (const workspace of data.workspaces.values()) indices.addWorkspace(workspace)
    // Sorting once and appending in order keeps a 100,000-key rebuild at O(n log n), not O(n^2).
    const keys = [...data.keys.values()].sort(compareKeysAscending)
    for (const key of keys) indices.addKey(key)
    for (const generation of data.generations.values()) indices.generationOrder.insert(generation)
    return indices
  }
}

/**
 * The indices of `keys` in the order of {@link compareKeysAscending}. A merge sort of their
 * createdAt in a typed array, which reads a key (its hash) only on a tie: Array#sort calls a
 * comparator 1.7 million times for 100,000 keys, and took about twice as long as this sort.
 */
function pageOrder(keys: readonly KeyState[]): Uint32Array {
  const n = keys.length
  let times = new Float64Array(n)
  let order = new Uint32Array(n)
  for (let i = 0; i < n; i++) {
    times[i] = (keys[i] as KeyState).createdAt
    order[i] = i
  }
  let nextTimes = new Float64Array(n)
  let nextOrder = new Uint32Array(n)
  // Bottom up: sorted runs of `width` merged in pairs, from runs of one key to a single run.
  for (let width = 1; width < n; width *= 2) {
    for (let low = 0; low < n; low += 2 * width) {
      const middle = Math.min(low + width, n)
      const high = Math.min(low + 2 * width, n)
      let i = low
      let j = middle
      let k = low
      while (i < middle && j < high) {
        const a = times[i] as number
        const b = times[j] as number
        if (a < b || (a === b && compareKeysAscending(keys[order[i] as number] as KeyState, keys[order[j] as number] as KeyState) <= 0)) {
          nextTimes[k] = a
          nextOrder[k++] = order[i++] as number
        } else {
          nextTimes[k] = b
          nextOrder[k++] = order[j++] as number
        }
      }
      for (; i < middle; i++, k++) {
        nextTimes[k] = times[i] as number
        nextOrder[k] = order[i] as number
      }
      for (; j < high; j++, k++) {
        nextTimes[k] = times[j] as number
        nextOrder[k] = order[j] as number
      }
    }
    const mergedTimes = nextTimes
    const mergedOrder = nextOrder
    nextTimes = times
    nextOrder = order
    times = mergedTimes
    order = mergedOrder
  }
  return order
}

export function fileScopeKey(workspaceId: string, provider: FileProvider | null, id: string): string {
  return `${workspaceId}\u0000${provider ?? ''}\u0000${id}`
}

export function emptyStoreData(): StoreData {
  return {
    users: new Map(),
    workspaces: new Map(),
    keys: new Map(),
    files: new Map(),
    models: new Map(),
    videoModels: new Map(),
    rateBuckets: new Map(),
    generations: new Map(),
    endpointStats: new Map(),
    freeRequests: new Map(),
    oauthCodes: new Map(),
    presets: new Map(),
    budgets: new Map(),
    members: new Map(),
    workspaceMembers: new Map(),
    guardrails: new Map(),
    guardrailKeys: new Map(),
    guardrailMembers: new Map(),
    activity: new Map(),
    byok: new Map(),
  }
}


/** The tables of {@link StoreData}. */
export type Table = keyof StoreData

/** What a table holds. */
export type Row<T extends Table> = StoreData[T] extends Map<string, infer V> ? V : never

/**
 * Tables that several simulators hold at once (the process's loads of the default world,
 * decisions/0057): never changed in place. The first write to one in a simulator copies it there
 * ({@link writableTable}), so a simulator that only reads a table, as most tests do with the 323
 * models, never pays for a copy of it.
 */
const SHARED_TABLES = new WeakSet<Map<string, unknown>>()

/** Marks every table of `data` shared: from now on nothing changes them in place. */
export function shareStoreData(data: StoreData): StoreData {
  for (const table of Object.values(data) as Map<string, unknown>[]) SHARED_TABLES.add(table)
  return data
}

/** `data`'s table, made the simulator's own first when it is shared: the one door to writing a table. */
export function writableTable(data: StoreData, table: Table): Map<string, unknown> {
  const live = data[table] as Map<string, unknown>
  if (!SHARED_TABLES.has(live)) return live
  const own = table === 'models' ? copyModelTable(live as StoreData['models']) : new Map(live)
  ;(data as unknown as Record<Table, Map<string, unknown>>)[table] = own
  return own
}

/** A copy of every table (the rows themselves are values, shared). */
export function copyStoreData(data: StoreData): StoreData {
  return {
    users: new Map(data.users),
    workspaces: new Map(data.workspaces),
    keys: new Map(data.keys),
    files: new Map(data.files),
    models: copyModelTable(data.models),
    videoModels: new Map(data.videoModels),
    rateBuckets: new Map(data.rateBuckets),
    generations: new Map(data.generations),
    endpointStats: new Map(data.endpointStats),
    freeRequests: new Map(data.freeRequests),
    oauthCodes: new Map(data.oauthCodes),
    presets: new Map(data.presets),
    budgets: new Map(data.budgets),
    members: new Map(data.members),
    workspaceMembers: new Map(data.workspaceMembers),
    guardrails: new Map(data.guardrails),
    guardrailKeys: new Map(data.guardrailKeys),
    guardrailMembers: new Map(data.guardrailMembers),
    activity: new Map(data.activity),
    byok: new Map(data.byok),
  }
}
