// Snapshots, restore and reset at a cost in proportion to what changed, not to the world's size
// (decisions/0015). The live store is plain Maps, read at full speed. Every write goes through
// `put`, which remembers the value an entry had before the first write since the last snapshot.
// A snapshot seals those changes into a version, a node of a tree whose edges are the changes
// between a version and its parent; restoring walks the tree from where the store is to the version
// asked for, undoing edges up to the common ancestor and redoing them down. Rows are values (a
// change stores a new row), so a version shares every row it did not change with the others.
import type { SimulatorClock } from '../clock.js'
import type { Random } from '../random.js'
import { type Row, type StoreData, StoreIndices, type Table, writableTable } from './state.js'

/**
 * What a history versions and what `put` writes to: the parts of a simulator's store context
 * (store/context.ts) this file reads, named here so that the context can hold a history.
 */
export interface VersionedStore {
  data: StoreData
  indices: StoreIndices
  readonly clock: SimulatorClock
  readonly random: Random
  history?: History
}

const TABLES: readonly Table[] = ['users', 'workspaces', 'keys', 'files', 'models', 'videoModels', 'rateBuckets', 'generations', 'endpointStats', 'freeRequests', 'oauthCodes', 'presets', 'budgets', 'members', 'workspaceMembers', 'guardrails', 'guardrailKeys', 'guardrailMembers', 'activity', 'byok']

/** The changes of one edge, per table: [id, value at the parent, value at the child] (undefined: absent). */
type Changes = Record<Table, (readonly [string, unknown, unknown])[]>

/** An edge that replaced the whole store (a restore from another simulator): both sides kept whole. */
interface Replacement {
  before: { data: StoreData; indices: StoreIndices }
  after: { data: StoreData; indices: StoreIndices }
}

/** A state the store was in: what changed since its parent, and the clock and random state then. */
export class Version {
  readonly depth: number
  /** The snapshot handle given out for this version, once one is. */
  handle: object | undefined

  constructor(
    /** The history this version belongs to: a simulator's own. */
    readonly history: History,
    readonly parent: Version | null,
    readonly edge: Changes | Replacement | null,
    readonly clockMs: number,
    readonly random: readonly number[],
  ) {
    this.depth = parent === null ? 0 : parent.depth + 1
  }
}

/** Per table, the entries written since `base`: a table's map is made on its first write (a simulator per test writes to few). */
type Touched = Partial<Record<Table, Map<string, unknown>>>
const emptyTouched = (): Touched => ({})
const NOTHING_TOUCHED: ReadonlyMap<string, unknown> = new Map()

/**
 * The version tree of one simulator's store. The live store is `base` plus the changes made since
 * (`touched`: each entry's value at `base`, recorded on its first write). Versions hold only their
 * parent, so a branch no snapshot reaches any more is garbage.
 */
export class History {
  private base: Version
  private touched = emptyTouched()
  private changed = false
  /**
   * Moves on whenever a version may have come to hold the live rows (a seal, a walk, a replace): a
   * row made in the current epoch is held by the live store alone, so it may be changed in place
   * (the endpoint statistics do, inference/statistics.ts).
   */
  epoch = 0

  constructor(private readonly ctx: VersionedStore) {
    this.base = new Version(this, null, null, ctx.clock.nowMs(), ctx.random.getState())
  }

  /** The live store. */
  get data(): StoreData {
    return this.ctx.data
  }

  /** The version the store was in when the history began: what `reset()` returns to. */
  get root(): Version {
    let version = this.base
    while (version.parent !== null) version = version.parent
    return version
  }

  /** Notes that `id` of `table` is about to change from `before`. */
  record(table: Table, id: string, before: unknown): void {
    const touched = (this.touched[table] ??= new Map())
    if (!touched.has(id)) touched.set(id, before)
    this.changed = true
  }

  /**
   * Forgets `id` of `table` when it was absent at `base`: it is absent again, so nothing about it
   * changed. A generation recorded and let go between two snapshots (or after the last) leaves no
   * entry behind, so a million of them take no memory once gone (decisions/0029).
   */
  removedAgain(table: Table, id: string): void {
    const touched = this.touched[table]
    if (touched !== undefined && touched.get(id) === undefined) touched.delete(id)
  }

  /** The current state as a version: `base` itself when nothing changed since, else a new child of it. */
  seal(): Version {
    const clockMs = this.ctx.clock.nowMs()
    const random = this.ctx.random.getState()
    this.epoch++
    if (!this.changed && this.base.clockMs === clockMs && sameState(this.base.random, random)) return this.base
    const edge = {} as Changes
    for (const table of TABLES) {
      const live = this.ctx.data[table] as Map<string, unknown>
      const rows: (readonly [string, unknown, unknown])[] = []
      for (const [id, before] of this.touched[table] ?? NOTHING_TOUCHED) {
        const after = live.get(id)
        if (after !== before) rows.push([id, before, after])
      }
      edge[table] = rows
    }
    this.base = new Version(this, this.base, edge, clockMs, random)
    this.touched = emptyTouched()
    this.changed = false
    return this.base
  }

  /** Puts the store's data in the state of `target`, a version of this history. */
  goTo(target: Version): void {
    this.epoch++
    this.discard()
    const down: Version[] = []
    let up = this.base
    let to = target
    while (up.depth > to.depth) up = this.undo(up)
    while (to.depth > up.depth) to = climb(to, down)
    while (up !== to) {
      up = this.undo(up)
      to = climb(to, down)
    }
    for (let i = down.length - 1; i >= 0; i--) this.redo(down[i] as Version)
    this.base = target
  }

  /** Replaces the whole store (with another simulator's state), as an edge that can be walked back. */
  replace(data: StoreData, clockMs: number, random: readonly number[]): void {
    const from = this.seal()
    this.epoch++
    const edge: Replacement = {
      before: { data: this.ctx.data, indices: this.ctx.indices },
      after: { data, indices: StoreIndices.build(data) },
    }
    this.ctx.data = data
    this.ctx.indices = edge.after.indices
    this.base = new Version(this, from, edge, clockMs, random)
  }

  /** Undoes the changes made since `base`. */
  private discard(): void {
    if (!this.changed) return
    for (const table of TABLES) for (const [id, before] of this.touched[table] ?? NOTHING_TOUCHED) this.set(table, id, before)
    this.touched = emptyTouched()
    this.changed = false
  }

  /** Walks from `version` to its parent. */
  private undo(version: Version): Version {
    const edge = version.edge
    if (edge !== null && 'before' in edge) this.swap(edge.before)
    else if (edge !== null) for (const table of TABLES) for (const [id, before] of edge[table]) this.set(table, id, before)
    return version.parent as Version
  }

  /** Walks from `version`'s parent to `version`. */
  private redo(version: Version): void {
    const edge = version.edge
    if (edge !== null && 'after' in edge) this.swap(edge.after)
    else if (edge !== null) for (const table of TABLES) for (const [id, , after] of edge[table]) this.set(table, id, after)
  }

  private swap(side: { data: StoreData; indices: StoreIndices }): void {
    this.ctx.data = side.data
    this.ctx.indices = side.indices
  }

  private set(table: Table, id: string, value: unknown): void {
    const current = (this.ctx.data[table] as Map<string, unknown>).get(id)
    if (current === value) return
    const live = writableTable(this.ctx.data, table)
    if (value === undefined) live.delete(id)
    else live.set(id, value)
    this.ctx.indices.changed(table, current, value)
  }
}

function climb(version: Version, path: Version[]): Version {
  path.push(version)
  return version.parent as Version
}

function sameState(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((n, i) => n === b[i])
}

/**
 * Writes one row: with {@link remove}, the one way the store changes after a simulator is created.
 */
export function put<T extends Table>(ctx: VersionedStore, table: T, id: string, row: Row<T>): void {
  const live = writableTable(ctx.data, table)
  const before = live.get(id)
  ctx.history?.record(table, id, before)
  live.set(id, row)
  ctx.indices.changed(table, before, row)
}

/**
 * Deletes one row (a deleted key, a deleted workspace). Recorded like a write, so a restore to a
 * snapshot taken before brings the row back, and one taken after keeps it gone.
 */
export function remove<T extends Table>(ctx: VersionedStore, table: T, id: string): void {
  if (!(ctx.data[table] as Map<string, unknown>).has(id)) return
  const live = writableTable(ctx.data, table)
  const before = live.get(id)
  ctx.history?.record(table, id, before)
  live.delete(id)
  ctx.history?.removedAgain(table, id)
  ctx.indices.changed(table, before, undefined)
}
