import { SimulatorError, SimulatorErrorCode } from '../errors.js'
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

/** Reads a snapshot back into fresh store data; throws before touching anything if it is not one. */
export function dataFromSnapshot(snapshot: SimulatorSnapshot): StoreData {
  const lists = ['users', 'workspaces', 'keys', 'files', 'models', 'videoModels', 'rateBuckets'] as const
  if (
    typeof snapshot !== 'object' ||
    snapshot === null ||
    snapshot.format !== SNAPSHOT_FORMAT ||
    typeof snapshot.clockMs !== 'number' ||
    !Array.isArray(snapshot.random) ||
    lists.some((list) => !Array.isArray(snapshot[list]))
  ) {
    throw new SimulatorError(
      SimulatorErrorCode.InvalidSnapshot,
      `Failed to restore: "snapshot" is not a value returned by sim.snapshot() (expected format "${SNAPSHOT_FORMAT}").`,
      { argument: 'snapshot' },
    )
  }
  const copy = structuredClone(snapshot)
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
