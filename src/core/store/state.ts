import { SimulatorError, SimulatorErrorCode } from '../errors.js'
import { isJsonData } from '../json-data.js'
import type { Random } from '../random.js'
import { SortedIndex } from '../sorted-index.js'
import type { LimitReset, ModelWithEndpoints, VideoModel, Workspace } from '../types.js'
import type { RateLimit } from '../controls.js'
import type { UsageRecord } from '../usage.js'

/** An organisation: the tenant that owns workspaces, keys and files. */
export interface UserState {
  id: string
  name: string
  defaultWorkspaceId: string
  createdAt: number
}

export interface WorkspaceState {
  userId: string
  record: Workspace
}

/** An API key as the store holds it; the wire record is derived from it on every read. */
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
  /** Every usage record, in the order recorded; the wire figures are sums over them (core/usage.ts). */
  usage: UsageRecord[]
  /** This key's own rate limit; null: the simulator's default (if any). */
  rateLimit: RateLimit | null
  createdAt: number
  updatedAt: number | null
  expiresAt: number | null
  creatorUserId: string | null
}

export type FileProvider = 'openai' | 'anthropic'
export type FileOrigin = 'server' | 'upload'

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

/** Everything a simulator holds. Snapshots copy exactly this. */
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
}

/** A token bucket's level at the instant it was last updated. */
export interface RateBucket {
  tokens: number
  updatedMs: number
}

/** Page order of GET /keys is created_at desc, then hash asc; indices hold the reverse and read from the end. */
export function compareKeysAscending(a: KeyState, b: KeyState): number {
  if (a.createdAt !== b.createdAt) return a.createdAt - b.createdAt
  return a.hash < b.hash ? 1 : a.hash > b.hash ? -1 : 0
}

/** Lookups derived from {@link StoreData}; rebuilt on restore, never snapshotted. */
export class StoreIndices {
  readonly keyHashBySecret = new Map<string, string>()
  readonly workspaceIdBySlug = new Map<string, Map<string, string>>()
  /** Listable (non-management) keys per workspace, all of them and the enabled ones. */
  readonly listableKeys = new Map<string, { all: SortedIndex<KeyState>; enabled: SortedIndex<KeyState> }>()

  addWorkspace(state: WorkspaceState): void {
    let bySlug = this.workspaceIdBySlug.get(state.userId)
    if (!bySlug) this.workspaceIdBySlug.set(state.userId, (bySlug = new Map()))
    bySlug.set(state.record.slug, state.record.id)
  }

  addKey(key: KeyState): void {
    this.keyHashBySecret.set(key.secret, key.hash)
    if (key.management) return
    const index = this.keyIndex(key.workspaceId)
    index.all.insert(key)
    if (!key.disabled) index.enabled.insert(key)
  }

  keyIndex(workspaceId: string): { all: SortedIndex<KeyState>; enabled: SortedIndex<KeyState> } {
    let index = this.listableKeys.get(workspaceId)
    if (!index) {
      index = { all: new SortedIndex(compareKeysAscending), enabled: new SortedIndex(compareKeysAscending) }
      this.listableKeys.set(workspaceId, index)
    }
    return index
  }

  static build(data: StoreData): StoreIndices {
    const indices = new StoreIndices()
    for (const workspace of data.workspaces.values()) indices.addWorkspace(workspace)
    // Sorting once and appending in order keeps a 100,000-key restore at O(n log n), not O(n^2).
    const keys = [...data.keys.values()].sort(compareKeysAscending)
    for (const key of keys) indices.addKey(key)
    return indices
  }
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
  }
}

/**
 * A copy of a simulator's whole state: store, clock and random state. Structured-cloneable
 * (it holds Uint8Arrays), so it can cross a worker boundary; treat it as opaque.
 */
export interface SimulatorSnapshot {
  readonly format: 'model-access-sim/snapshot@2'
  readonly seed: number
  readonly clockMs: number
  readonly random: readonly number[]
  readonly users: readonly UserState[]
  readonly workspaces: readonly WorkspaceState[]
  readonly keys: readonly KeyState[]
  readonly files: readonly FileState[]
  readonly models: readonly ModelWithEndpoints[]
  readonly videoModels: readonly VideoModel[]
  readonly rateBuckets: readonly (readonly [string, RateBucket])[]
}

export const SNAPSHOT_FORMAT = 'model-access-sim/snapshot@2'

export function takeSnapshot(data: StoreData, clockMs: number, random: Random, seed: number): SimulatorSnapshot {
  return structuredClone({
    format: SNAPSHOT_FORMAT,
    seed,
    clockMs,
    random: [...random.getState()],
    users: [...data.users.values()],
    workspaces: [...data.workspaces.values()],
    keys: [...data.keys.values()],
    files: [...data.files.values()],
    models: [...data.models.values()],
    videoModels: [...data.videoModels.values()],
    rateBuckets: [...data.rateBuckets.entries()],
  })
}

const LIMIT_RESETS: readonly unknown[] = ['daily', 'weekly', 'monthly']
const PROVIDERS: readonly unknown[] = ['openai', 'anthropic']
const ORIGINS: readonly unknown[] = ['server', 'upload']

type Fields = Record<string, unknown>
const isObject = (value: unknown): value is Fields => typeof value === 'object' && value !== null && !Array.isArray(value)
const isString = (value: unknown): value is string => typeof value === 'string'
const isInstant = (value: unknown): boolean => typeof value === 'number' && Number.isInteger(value) && Math.abs(value) <= 8.64e15
const isAmount = (value: unknown): boolean => typeof value === 'number' && Number.isFinite(value) && value >= 0
const isRateLimit = (value: unknown): boolean => isObject(value) && Number.isSafeInteger(value['requests']) && (value['requests'] as number) >= 1 && isAmount(value['intervalMs']) && (value['intervalMs'] as number) > 0

/** Whether every item passes, holes of a sparse array included (every() skips them). */
function everyItem(items: readonly unknown[], valid: (item: unknown) => boolean): boolean {
  for (let i = 0; i < items.length; i++) if (!valid(items[i])) return false
  return true
}

function isUsageRecord(record: unknown): boolean {
  return isObject(record) && isInstant(record['at']) && Number.isSafeInteger(record['units']) && (record['units'] as number) >= 0 && typeof record['byok'] === 'boolean'
}

function isKey(key: unknown): key is KeyState {
  return (
    isObject(key) &&
    ['hash', 'secret', 'userId', 'workspaceId', 'name', 'label'].every((field) => isString(key[field])) &&
    ['management', 'disabled', 'includeByokInLimit'].every((field) => typeof key[field] === 'boolean') &&
    (key['limit'] === null || isAmount(key['limit'])) &&
    (key['limitReset'] === null || LIMIT_RESETS.includes(key['limitReset'])) &&
    Array.isArray(key['usage']) &&
    everyItem(key['usage'], isUsageRecord) &&
    (key['rateLimit'] === null || isRateLimit(key['rateLimit'])) &&
    isInstant(key['createdAt']) &&
    (key['updatedAt'] === null || isInstant(key['updatedAt'])) &&
    (key['expiresAt'] === null || isInstant(key['expiresAt'])) &&
    (key['creatorUserId'] === null || isString(key['creatorUserId']))
  )
}

function isFile(file: unknown): file is FileState {
  return (
    isObject(file) &&
    ['id', 'userId', 'workspaceId', 'filename'].every((field) => isString(file[field])) &&
    (file['provider'] === null || PROVIDERS.includes(file['provider'])) &&
    ORIGINS.includes(file['origin']) &&
    // A snapshot through JSON has plain objects here, not bytes.
    file['bytes'] instanceof Uint8Array &&
    isInstant(file['createdAt'])
  )
}

const isUser = (user: unknown): user is UserState =>
  isObject(user) && isString(user['id']) && isString(user['name']) && isString(user['defaultWorkspaceId']) && isInstant(user['createdAt'])
const isWorkspace = (workspace: unknown): workspace is WorkspaceState => {
  if (!isObject(workspace) || !isString(workspace['userId']) || !isObject(workspace['record'])) return false
  const record = workspace['record']
  return (
    ['id', 'name', 'slug', 'created_at', 'default_guardrail_id'].every((field) => isString(record[field])) &&
    Number.isFinite(Date.parse(record['created_at'] as string)) &&
    isJsonData(record)
  )
}
// Models are wire records: JSON data throughout, or a request (or an export) would trip on them.
const isModel = (model: unknown): boolean =>
  isObject(model) && isString(model['id']) && isString(model['name']) && isInstant(model['created']) && Array.isArray(model['endpoints']) &&
  model['endpoints'].every((e) => isObject(e) && isObject(e['pricing'])) && isJsonData(model)
const isVideoModel = (model: unknown): boolean => isObject(model) && isString(model['id']) && isInstant(model['created']) && isJsonData(model)
const isBucket = (entry: unknown): boolean =>
  Array.isArray(entry) && entry.length === 2 && isString(entry[0]) && isObject(entry[1]) && typeof entry[1]['tokens'] === 'number' && Number.isFinite(entry[1]['tokens']) && isInstant(entry[1]['updatedMs'])

/** A random state the generator can run from: four 32-bit integers, not all zero (which would repeat 0 forever). */
export const isRandomState = (state: unknown): state is number[] =>
  Array.isArray(state) && state.length === 4 && state.every((n) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 32) && state.some((n) => n !== 0)

/** What is wrong with a value given as a snapshot, or null when it is one this library made, intact. */
function snapshotProblem(snapshot: unknown): string | null {
  if (!isObject(snapshot) || snapshot['format'] !== SNAPSHOT_FORMAT) return `it is not a value returned by sim.snapshot() (expected format "${SNAPSHOT_FORMAT}")`
  if (!Number.isSafeInteger(snapshot['seed'])) return 'its seed is not an integer'
  if (!isInstant(snapshot['clockMs'])) return 'its clock is not an instant'
  if (!isRandomState(snapshot['random'])) return 'its random state is not one the generator can run from'
  const lists: [string, (item: unknown) => boolean][] = [
    ['users', isUser],
    ['workspaces', isWorkspace],
    ['keys', isKey],
    ['files', isFile],
    ['models', isModel],
    ['videoModels', isVideoModel],
    ['rateBuckets', isBucket],
  ]
  for (const [list, valid] of lists) {
    const items = snapshot[list]
    if (!Array.isArray(items)) return `its ${list} are not a list`
    const bad = items.findIndex((item) => !valid(item))
    if (bad !== -1) return `${list}[${bad}] is not as sim.snapshot() wrote it${list === 'files' ? ' (a snapshot through JSON loses the files\' bytes)' : ''}`
  }
  // Every reference between entities holds, so no request can meet a dangling one.
  const users = new Set((snapshot['users'] as UserState[]).map((u) => u.id))
  const workspaces = new Map((snapshot['workspaces'] as WorkspaceState[]).map((w) => [w.record.id, w.userId]))
  const keys = snapshot['keys'] as KeyState[]
  const distinct = (values: unknown[]): boolean => new Set(values).size === values.length
  if (users.size !== (snapshot['users'] as unknown[]).length || workspaces.size !== (snapshot['workspaces'] as unknown[]).length || !distinct(keys.map((k) => k.hash)) || !distinct(keys.map((k) => k.secret))) {
    return 'it holds an id or a secret twice'
  }
  const owned = (userId: string, workspaceId: string): boolean => workspaces.get(workspaceId) === userId
  if ([...workspaces.values()].some((userId) => !users.has(userId))) return 'a workspace belongs to no user'
  if ((snapshot['users'] as UserState[]).some((u) => !owned(u.id, u.defaultWorkspaceId))) return "a user's default workspace is missing"
  if (keys.some((k) => !owned(k.userId, k.workspaceId))) return 'a key belongs to no workspace of its user'
  if ((snapshot['files'] as FileState[]).some((f) => !owned(f.userId, f.workspaceId))) return 'a file belongs to no workspace of its user'
  return null
}

/** Reads a snapshot back into fresh store data; throws before touching anything if it is not one. */
export function dataFromSnapshot(snapshot: SimulatorSnapshot): StoreData {
  const problem = snapshotProblem(snapshot)
  if (problem !== null) {
    throw new SimulatorError(SimulatorErrorCode.InvalidSnapshot, `Failed to restore: "snapshot" is not a snapshot to restore: ${problem}. Nothing was changed.`, {
      argument: 'snapshot',
    })
  }
  let copy: SimulatorSnapshot
  try {
    copy = structuredClone(snapshot)
  } catch (error) {
    // A field this check does not know holds something that cannot be copied (a function, a symbol).
    throw new SimulatorError(SimulatorErrorCode.InvalidSnapshot, `Failed to restore: "snapshot" is not a snapshot to restore: ${error instanceof Error ? error.message : String(error)}. Nothing was changed.`, {
      argument: 'snapshot',
    })
  }
  return {
    users: new Map(copy.users.map((u) => [u.id, u])),
    workspaces: new Map(copy.workspaces.map((w) => [w.record.id, w])),
    keys: new Map(copy.keys.map((k) => [k.hash, k])),
    files: new Map(copy.files.map((f) => [fileScopeKey(f.workspaceId, f.provider, f.id), f])),
    models: new Map(copy.models.map((m) => [m.id, m])),
    videoModels: new Map(copy.videoModels.map((v) => [v.id, v])),
    rateBuckets: new Map(copy.rateBuckets.map(([id, bucket]) => [id, { ...bucket }])),
  }
}
