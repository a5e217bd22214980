// Doors into a simulator for the package's own adapters (the server), not part of the public API:
// a simulator registers them when it is created, and an adapter finds them by the simulator object.
import type { SimRequest, SimResponse } from './protocol.js'
import type { JournalStore } from './journal.js'
import type { StoredFile } from './store/files.js'
import type { WorldFile, WorldKey, WorldModel, WorldUser, WorldPreset, WorldVideoModel, WorldWorkspace } from './worlds/spec.js'

/** How a world is written: files' bytes encoded by `encode`, or left out when `bodies` is false. */
export interface ExportOptions {
  encode?: ((bytes: Uint8Array) => string) | undefined
  bodies?: boolean | undefined
}

export interface SimulatorInternals {
  /**
   * `sim.handle` without the copy of a download's bytes: the answer holds the store's own, for an
   * adapter that writes them out at once and never changes them (a copy per request held 1.6 GB for
   * forty stalled downloads of a 40 MiB file).
   */
  handleShared(request: SimRequest): SimResponse
  /** The journal's storage, for pages built an entry at a time. */
  journal: JournalStore
  /** The world as `exportWorld` writes it, as JSON text in parts (worlds/export.ts): the rows are taken at the call. */
  exportWorldParts(options: ExportOptions): Iterable<string>
  /**
   * One entity as a world spec holds it (camelCase, instants as ISO strings), by its id: what the
   * control API answers, so that what it answers is what it takes. Undefined when there is none.
   */
  worldEntry: {
    user(id: string): WorldUser | undefined
    workspace(id: string): WorldWorkspace | undefined
    key(hash: string): WorldKey | undefined
    model(id: string): WorldModel | undefined
    videoModel(id: string): WorldVideoModel | undefined
    preset(id: string): WorldPreset | undefined
  }
  /** A file, without its content, as a world spec holds it. */
  worldFile(file: StoredFile): WorldFile
  /**
   * Loads one key given as a world spec holds it (its usage as records), through the world loader,
   * and returns its hash. A problem throws a SimulatorError whose argument is its path below the key.
   */
  loadKey(key: Record<string, unknown>): string
  /** How many generations the store holds (tests check that a refused request records none). */
  generationCount(): number
}

const REGISTRY = new WeakMap<object, SimulatorInternals>()

export function registerInternals(sim: object, internals: SimulatorInternals): void {
  REGISTRY.set(sim, internals)
}

/** The internals of a simulator made by createSimulator; undefined for any other object. */
export function internalsOf(sim: object): SimulatorInternals | undefined {
  return REGISTRY.get(sim)
}
