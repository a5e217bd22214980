import { type SimRequest, type SimResponse, handleRequest } from './api.js'
import { type SimulatorClock, createClock } from './clock.js'
import { Controls, type FaultControls, type LatencyControls, type RateLimit, checkRateLimit } from './controls.js'
import { invalidArgument } from './errors.js'
import { type Journal, JournalStore } from './journal.js'
import { Random } from './random.js'
import type { StoreContext } from './store/context.js'
import { type FileCollection, createFileCollection } from './store/files.js'
import { type KeyCollection, createKeyCollection } from './store/keys.js'
import { type ModelCollection, createModelCollection } from './store/models.js'
import {
  type SimulatorSnapshot,
  StoreIndices,
  dataFromSnapshot,
  emptyStoreData,
  takeSnapshot,
} from './store/state.js'
import { type UsageCollection, createUsageCollection } from './store/usage.js'
import { type UserCollection, createUserCollection } from './store/users.js'
import { type VideoModelCollection, createVideoModelCollection } from './store/video-models.js'
import { type WorkspaceCollection, createWorkspaceCollection } from './store/workspaces.js'
import { type InstantInput, toEpochMs } from './time.js'
import { type DefaultWorld, DEFAULT_WORLD } from './worlds/default.js'
import { type WorldSpec, isWorldSpec, loadWorld, worldNow } from './worlds/spec.js'

/**
 * Default seed: the one the embedded default world is documented with.
 *
 * @example
 * import { createSimulator, DEFAULT_SEED } from 'model-access-sim'
 * console.log(createSimulator().seed === DEFAULT_SEED)
 * //=> true
 */
export const DEFAULT_SEED = 42
/**
 * Default start of the simulator clock: a Monday morning, UTC.
 *
 * @example
 * import { createSimulator, DEFAULT_NOW } from 'model-access-sim'
 * console.log(createSimulator({ world: 'empty' }).clock.now().toISOString() === DEFAULT_NOW)
 * //=> true
 */
export const DEFAULT_NOW = '2026-03-02T10:00:00.000Z'

export interface SimulatorOptions {
  /**
   * Seed of every id, secret and default value the simulator generates. Same seed, same responses.
   * A loaded world (the default one included) brings its own ids, whatever the seed. Default 42.
   */
  seed?: number
  /**
   * Start of the simulator clock. Default: the world spec's `now`, else `2026-03-02T10:00:00Z`. A
   * world spec with a `now` moves with it: every instant in it shifts by the difference.
   */
  now?: InstantInput
  /**
   * `'default'` (the embedded realistic world, `generateWorld({ seed: 42 })`), `'empty'`, or a world
   * spec such as `generateWorld` returns. Default `'default'`.
   */
  world?: 'default' | 'empty' | WorldSpec<object>
  /**
   * A token bucket per key (and one shared by anonymous callers), on the simulator clock: over it,
   * 429 "Rate limit exceeded" with `Retry-After` in seconds. Keys may have their own. Default: none.
   */
  rateLimit?: RateLimit | null
  /** How many of the latest requests `sim.journal` keeps (0: none). Default 1,000. */
  journalLimit?: number
}

/** What an empty world documents: nothing. */
export type EmptyWorld = Record<string, never>

/** A stateful, deterministic model-access service. Every piece of state lives in the instance. */
export interface Simulator<World = DefaultWorld> {
  readonly seed: number
  /** Handles into the loaded world: documented keys and ids. */
  readonly world: World
  readonly clock: SimulatorClock
  readonly users: UserCollection
  readonly workspaces: WorkspaceCollection
  readonly keys: KeyCollection
  readonly files: FileCollection
  readonly models: ModelCollection
  readonly videoModels: VideoModelCollection
  /** Usage accrual: `sim.usage.record({ keyHash, cost, byok?, at? })`. */
  readonly usage: UsageCollection
  /** Fault rules: errors, network errors or silence for the requests they match. */
  readonly faults: FaultControls
  /** Simulated latency per operation, on the simulator clock (real waits only when asked). */
  readonly latency: LatencyControls
  /** Every request and its response, in order. */
  readonly journal: Journal
  /** A copy of the whole service state: store (usage included), clock, random state and rate-limit buckets. Faults, latency and the journal are not in it. */
  snapshot(): SimulatorSnapshot
  /** Puts the state back exactly as a snapshot of this or another simulator held it. */
  restore(snapshot: SimulatorSnapshot): void
  /** Back to the state right after creation: the seeded world at the initial clock, no faults, no latency, an empty journal. */
  reset(): void
  /** The core router: what the MSW and HTTP adapters call. Never throws. */
  handle(request: SimRequest): SimResponse
}

/**
 * Creates a simulator. With no options it serves the embedded default world
 * (`generateWorld({ seed: 42 })`, clock at 2026-03-02T10:00:00Z); `world: 'empty'` starts with
 * nothing in it, and `world: spec` loads a world spec (see `WORLD_FORMAT`).
 *
 * @example
 * import { createSimulator } from 'model-access-sim'
 * const sim = createSimulator({ seed: 7, now: '2026-03-02T10:00:00Z', world: 'empty' })
 * const org = sim.users.create({ name: 'Acme' })
 * const admin = sim.keys.create({ userId: org.id, management: true })
 * const res = sim.handle({ method: 'GET', path: '/keys', authorization: `Bearer ${admin.key}` })
 * console.log(res.status)
 * //=> 200
 */
export function createSimulator(options?: SimulatorOptions & { world?: 'default' }): Simulator<DefaultWorld>
export function createSimulator(options: SimulatorOptions & { world: 'empty' }): Simulator<EmptyWorld>
export function createSimulator<Handles extends object>(options: SimulatorOptions & { world: WorldSpec<Handles> }): Simulator<Handles>
export function createSimulator(options?: SimulatorOptions): Simulator<DefaultWorld | EmptyWorld>
export function createSimulator(options: SimulatorOptions = {}): Simulator<object> {
  if (typeof options !== 'object' || options === null) throw invalidArgument('create simulator', 'options', 'must be an options object')
  const seed = options.seed ?? DEFAULT_SEED
  if (typeof seed !== 'number' || !Number.isSafeInteger(seed)) {
    throw invalidArgument('create simulator', 'seed', `must be a safe integer, got ${String(seed)}`)
  }
  const worldOption = options.world === undefined ? 'default' : options.world
  if (worldOption !== 'default' && worldOption !== 'empty' && !isWorldSpec(worldOption)) {
    throw invalidArgument('create simulator', 'world', `must be "default", "empty" or a world spec, got ${JSON.stringify(worldOption)}`)
  }
  const spec = worldOption === 'default' ? DEFAULT_WORLD : worldOption === 'empty' ? undefined : worldOption
  // A world written for an instant starts the clock there, or moves with the clock when `now` is given.
  const specNow = spec && worldNow(spec)
  const clockState = { ms: options.now === undefined ? (specNow ?? toEpochMs(DEFAULT_NOW, 'create simulator', 'now')) : toEpochMs(options.now, 'create simulator', 'now') }
  const rateLimit = options.rateLimit === undefined || options.rateLimit === null ? null : checkRateLimit(options.rateLimit, 'create simulator', 'rateLimit')
  const journalLimit = options.journalLimit ?? 1_000
  if (typeof journalLimit !== 'number' || !Number.isSafeInteger(journalLimit) || journalLimit < 0) {
    throw invalidArgument('create simulator', 'journalLimit', `must be a non-negative integer, got ${String(journalLimit)}`)
  }
  const router = { controls: new Controls(seed, rateLimit), journal: new JournalStore(journalLimit) }
  const data = emptyStoreData()
  const ctx: StoreContext = {
    data,
    indices: StoreIndices.build(data),
    random: new Random(seed >>> 0),
    clock: createClock(clockState),
  }
  const collections = {
    users: createUserCollection(ctx),
    workspaces: createWorkspaceCollection(ctx),
    keys: createKeyCollection(ctx),
    files: createFileCollection(ctx),
    models: createModelCollection(ctx),
    videoModels: createVideoModelCollection(ctx),
    usage: createUsageCollection(ctx),
  }
  const world = spec === undefined ? {} : loadWorld(ctx, collections, spec, specNow === undefined ? 0 : clockState.ms - specNow)

  const snapshot = (): SimulatorSnapshot => takeSnapshot(ctx.data, clockState.ms, ctx.random, seed)
  const restore = (saved: SimulatorSnapshot): void => {
    const restored = dataFromSnapshot(saved)
    ctx.data = restored
    ctx.indices = StoreIndices.build(restored)
    ctx.random.setState(saved.random)
    clockState.ms = saved.clockMs
  }
  const baseline = snapshot()

  return {
    seed,
    world,
    clock: ctx.clock,
    ...collections,
    snapshot,
    restore,
    faults: router.controls.faults,
    latency: router.controls.latency,
    journal: router.journal.view,
    reset: () => {
      restore(baseline)
      router.controls.reset()
      router.journal.reset()
    },
    handle: (request) => handleRequest(ctx, router, request),
  }
}
