import { type SimRequest, type SimResponse } from './protocol.js'
import { DEFAULT_REPLY_OPTIONS, type ReplyOptions } from './inference/compose.js'
import { handleRequest } from './router.js'
import { type SimulatorClock, type StoreClock, type WallTime, createClock } from './clock.js'
import { Controls, type FaultControls, type InferenceFacts, type LatencyControls } from './faults.js'
import { type RateLimit, type StoreData, StoreIndices, copyStoreData, emptyStoreData, shareStoreData } from './store/state.js'
import { checkRateLimit } from './store/rate-limits.js'
import { invalidArgument, SimulatorError, SimulatorErrorCode } from './errors.js'
import { describe } from './describe.js'
import { ArgumentChecker, fieldsOf } from './store/check.js'
import { registerInternals } from './internals.js'
import { DEFAULT_JOURNAL_BYTES, type Journal, JournalStore } from './journal.js'
import { Random } from './random.js'
import type { StoreContext } from './store/context.js'
import { type FileCollection, createFileCollection } from './store/files.js'
import { type KeyCollection, createKeyCollection } from './store/keys.js'
import { type OAuthControls, createOAuthControls } from './store/oauth.js'
import { KeyPages } from './store/key-pages.js'
import { type ModelCollection, catalogNames, createModelCollection } from './store/models.js'
import { type SimulatorSnapshot, snapshotHandle, versionOf } from './snapshot.js'
import { History } from './store/versions.js'
import { type InferenceControls, Responders } from './inference/responders.js'
import { EmbeddingsCache } from './inference/vectors.js'
import { WindowsMemo } from './usage.js'
import { ListTexts } from './json-text.js'
import { type UsageCollection, createUsageCollection } from './store/usage.js'
import { type CreditCollection, createCreditCollection } from './store/credits.js'
import { type UserCollection, createUserCollection } from './store/users.js'
import { type VideoModelCollection, createVideoModelCollection } from './store/video-models.js'
import { type WorkspaceCollection, createWorkspaceCollection } from './store/workspaces.js'
import { type PresetCollection, createPresetCollection } from './store/presets.js'
import { type BudgetCollection, createBudgetCollection } from './store/budgets.js'
import { type ActivityCollection, createActivityCollection } from './store/activity.js'
import { type GenerationReader, createGenerationReader } from './store/generations.js'
import { type ByokCollection, createByokCollection } from './store/byok.js'
import { checkPresetConfig } from './inference/presets.js'
import { type MemberCollection, createMemberCollection } from './store/members.js'
import { type GuardrailCollection, createGuardrailCollection } from './store/guardrails.js'
import { guardrailReaders } from './guardrail-rules.js'
import { type InstantInput, toEpochMs } from './time.js'
import { DEFAULT_NOW, DEFAULT_SEED, SIMULATOR_OPTION_NAMES } from './simulator-constants.js'
import { type DefaultWorld, defaultWorldForLoad, DEFAULT_WORLD_MODELS } from './worlds/default.js'
import { exportWorld, exportWorldParts, worldFile, worldKey, worldModel, worldPreset, worldUser, worldWorkspace } from './worlds/export.js'
import { type WorldKey, type WorldSpec, isWorldSpec, loadWorld, worldNow } from './worlds/spec.js'
import { WORLD_FORMAT } from './worlds/format.js'
import { type WorldProblem } from './worlds/problems.js'
import { worldResponders } from './worlds/responders.js'

export interface SimulatorOptions {
  /**
   * Seed of every id, secret and default value the simulator generates. Same seed, same responses.
   * A loaded world (the default one included) brings its own ids, whatever the seed. Default 42.
   */
  seed?: number | undefined
  /**
   * Start of the simulator clock. Default: the world spec's `now`, else `2026-03-02T10:00:00Z`. A
   * world spec with a `now` moves with it: every instant in it shifts by the difference.
   */
  now?: InstantInput | undefined
  /**
   * `'default'` (the embedded realistic world, `generateWorld({ seed: 42 })`), `'empty'`, or a world
   * spec such as `generateWorld` returns. Default `'default'`.
   */
  world?: 'default' | 'empty' | WorldSpec<object> | undefined
  /**
   * A token bucket per key (and one shared by anonymous callers), on the simulator clock: over it,
   * 429 "Rate limit exceeded" with `Retry-After` in seconds. Keys may have their own. Default: none.
   */
  rateLimit?: RateLimit | null | undefined
  /** How many of the latest requests `sim.journal` keeps (0: none). Default 1,000. */
  journalLimit?: number | undefined
  /**
   * How many bytes the entries `sim.journal` keeps may count (0: none). Default 64 MiB
   * (67,108,864). Whichever of this and `journalLimit` is reached first applies: the oldest entries
   * are dropped, and the newest is always kept whole, even alone over the budget. An entry counts
   * the request body it keeps (a refused or unauthenticated request's only up to 4 KiB), a
   * download's bytes, and 256 plus its path and query for its other fields; an answer made from
   * the simulator's records counts nothing of its own (`sim.journal.bytes()`, decisions/0043 in
   * the repository).
   */
  journalBytes?: number | undefined
  /**
   * `'virtual'` (the default): the clock moves only with `sim.clock.set` and `advance`. `'real'`:
   * it also moves with wall time (`Date.now()`), from `now` on, so rate limits refill, keys expire and
   * usage windows roll while a server runs; `set` and `advance` still jump it. A function is a wall
   * time source of your own, in epoch milliseconds (a fake timer's, say); a reading that is not a
   * finite number, or a call that throws, counts as no time passing.
   */
  clock?: 'virtual' | 'real' | WallTime | undefined
  /**
   * Whether an inference request (`/chat/completions`, `/responses`, `/embeddings`) with a field
   * that neither the official SDK's request schema nor real clients send is refused: a 400 naming
   * the field, for suites that want a typo (`temprature`) to fail. Default `false`: such a field is
   * accepted and ignored, as the real service does, and listed on the journal entry's
   * `ignoredFields`. Management bodies (keys, workspaces, ...) refuse unknown fields either way
   * (decisions/0036).
   */
  strictRequests?: boolean | undefined
  /**
   * How default replies (those no responder rule makes) behave. `toolRounds` (default 1): with
   * tools and `tool_choice` "auto" or none, the model calls a tool while the conversation since the
   * last user turn holds fewer than this many assistant turns, and answers text after; so by
   * default an agent loop gets one call, then text after the tool's result. 0: a call only when
   * the request requires one (decisions/0048).
   */
  replies?: { toolRounds?: number | undefined } | undefined
}

export const REPLY_OPTION_FIELDS: ReadonlySet<string> = new Set(['toolRounds'])

/** `replies`, checked; absent: the defaults. */
function checkReplyOptions(given: unknown): ReplyOptions {
  if (given === undefined) return DEFAULT_REPLY_OPTIONS
  if (typeof given !== 'object' || given === null || Array.isArray(given)) throw invalidArgument('create simulator', 'replies', `must be an object such as { toolRounds: 1 }, got ${describe(given)}`)
  for (const name of Object.keys(given)) if (!REPLY_OPTION_FIELDS.has(name)) throw invalidArgument('create simulator', `replies.${name}`, `is not a reply option (known: ${[...REPLY_OPTION_FIELDS].join(', ')})`)
  const toolRounds = (given as { toolRounds?: unknown }).toolRounds ?? DEFAULT_REPLY_OPTIONS.toolRounds
  if (typeof toolRounds !== 'number' || !Number.isSafeInteger(toolRounds) || toolRounds < 0) {
    throw invalidArgument('create simulator', 'replies.toolRounds', `must be a non-negative integer, got ${describe(toolRounds)}`)
  }
  return toolRounds === DEFAULT_REPLY_OPTIONS.toolRounds ? DEFAULT_REPLY_OPTIONS : Object.freeze({ toolRounds })
}

/** The fields of {@link SimulatorOptions}: any other is refused (a misspelt `rateLimt` must not be ignored). */
export const SIMULATOR_OPTION_FIELDS = fieldsOf<SimulatorOptions>(SIMULATOR_OPTION_NAMES)

/** What an empty world documents: nothing, so `sim.world.managementKey` does not compile. */
export type EmptyWorld = Record<never, never>

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
  /** An organisation's credits: `sim.credits.add({ userId, amount })`, `sim.credits.get(userId)`. */
  readonly credits: CreditCollection
  /**
   * OAuth PKCE authorization codes: `sim.oauth.codes.create({ userId })` makes one as if a user had
   * approved an app on the service's consent page; `list()` and `get(code)` read them (decisions/0049).
   */
  readonly oauth: OAuthControls
  /** Presets: named request settings a request uses with `model: "@preset/<slug>"` (decisions/0050). */
  readonly presets: PresetCollection
  /** Workspace budgets: daily, weekly, monthly and lifetime spending limits of a workspace (decisions/0052). */
  readonly budgets: BudgetCollection
  /** Organisation members and their workspaces: `sim.members.add({ userId, id })`, `sim.members.addToWorkspace(...)` (decisions/0051). */
  readonly members: MemberCollection
  /** Guardrails and their assignments to keys and members: `sim.guardrails.create({ userId, rules })` (decisions/0051). */
  readonly guardrails: GuardrailCollection
  /** The generations the store keeps: their stored content and feedback (decisions/0053). */
  readonly generations: GenerationReader
  /** BYOK provider credentials: an organisation's own provider keys, which inference is served through (decisions/0054). */
  readonly byok: ByokCollection
  /**
   * Daily activity, what `GET /activity` and analytics read: `sim.activity.record({ userId, date,
   * keyHash, model, provider, requests, usage, ... })` adds history without sending the requests (decisions/0053).
   */
  readonly activity: ActivityCollection
  /** Fault rules: errors, network errors or silence for the requests they match. */
  readonly faults: FaultControls
  /** Simulated latency per operation, on the simulator clock (real waits only when asked). */
  readonly latency: LatencyControls
  /** Every request and its response, in order. */
  readonly journal: Journal
  /** What the simulated models answer: responder rules (decisions/0024). `sim.reset()` clears them. */
  readonly inference: InferenceControls
  /**
   * The whole service state as it is now: store (usage included), clock, random state and
   * rate-limit buckets; faults, latency and the journal are not in it. An opaque handle, cheap to
   * take: it costs what changed since the last one, not the world's size.
   */
  snapshot(): SimulatorSnapshot
  /**
   * Puts the state back exactly as a snapshot held it, at a cost in proportion to what changed
   * since (a snapshot of another simulator costs a full copy of its state).
   */
  restore(snapshot: SimulatorSnapshot): void
  /** Back to the state right after creation: the seeded world at the initial clock, no faults, no latency, an empty journal. */
  reset(): void
  /**
   * The current state as a world spec: users, workspaces, keys (with their secrets and usage
   * records), files (as base64), models and video models, presets, budgets, members, guardrails,
   * BYOK credentials and daily activity, the clock as `now` and `sim.world` as the
   * handles. `createSimulator({ world: sim.exportWorld() })` answers every request as `sim` does at
   * the same clock. Rate-limit buckets, faults, latency and the journal are not part of a world.
   */
  exportWorld(): WorldSpec<World & object>
  /** The core router: what the MSW and HTTP adapters call. Never throws. */
  handle(request: SimRequest): SimResponse
}

/** The default world as a load left it: its tables (rows are values, never changed in place), the seeded stream after it, its handles. */
interface LoadedWorld {
  data: StoreData
  random: readonly number[]
  world: object
}

/** How many loads of the default world a process keeps (each seed and clock shift is one). */
const LOADS_KEPT = 8

/**
 * Loads of the default world, by seed and clock shift, built once per process and shared by every
 * simulator that loads it again (decisions/0057): a simulator starts from the kept tables
 * themselves, shared, and copies a table (the map, not its rows) the first time it writes to it, so
 * a test that only reads the 323 models never copies them; it gets the stream where the load left
 * it, so it is in the very state a load would leave it in, without reading and checking the spec.
 */
const DEFAULT_WORLD_LOADS = new Map<string, LoadedWorld>()

/** Loads the embedded default world into a new simulator's store: from a load kept by the process, or by reading the spec (and keeping the load). */
function loadDefaultWorld(ctx: StoreContext, collections: Parameters<typeof loadWorld>[1], seed: number, shift: number): object {
  const name = `${seed}\u0000${shift}`
  const kept = DEFAULT_WORLD_LOADS.get(name)
  if (kept !== undefined) {
    // The shared tables themselves, in a store object of its own: a write copies the table it changes.
    ctx.data = { ...kept.data }
    ctx.indices = StoreIndices.build(ctx.data)
    ctx.random.setState([...kept.random])
    return structuredClone(kept.world)
  }
  const world = loadWorld(ctx, collections, defaultWorldForLoad(), shift, undefined, DEFAULT_WORLD_MODELS)
  if (DEFAULT_WORLD_LOADS.size >= LOADS_KEPT) DEFAULT_WORLD_LOADS.delete(DEFAULT_WORLD_LOADS.keys().next().value as string)
  DEFAULT_WORLD_LOADS.set(name, { data: shareStoreData(copyStoreData(ctx.data)), random: [...ctx.random.getState()], world: structuredClone(world) })
  return world
}

/** An empty store on a clock, and the collections that work on it. */
function createStore(seed: number, clock: StoreClock) {
  const data = emptyStoreData()
  const ctx: StoreContext = { data, indices: StoreIndices.build(data), random: new Random(seed >>> 0), clock, windows: new WindowsMemo(), listTexts: new ListTexts(), keyPages: new KeyPages() }
  const collections = {
    users: createUserCollection(ctx),
    workspaces: createWorkspaceCollection(ctx),
    keys: createKeyCollection(ctx),
    files: createFileCollection(ctx),
    models: createModelCollection(ctx),
    videoModels: createVideoModelCollection(ctx),
    usage: createUsageCollection(ctx),
    credits: createCreditCollection(ctx),
    oauth: createOAuthControls(ctx),
    presets: createPresetCollection(ctx, checkPresetConfig),
    budgets: createBudgetCollection(ctx),
    members: createMemberCollection(ctx),
    guardrails: createGuardrailCollection(ctx, guardrailReaders(ctx)),
    generations: createGenerationReader(ctx),
    byok: createByokCollection(ctx),
    activity: createActivityCollection(ctx),
  }
  return { ctx, collections }
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
export function createSimulator(options?: SimulatorOptions & { world?: 'default' | undefined }): Simulator<DefaultWorld>
export function createSimulator(options: SimulatorOptions & { world: 'empty' }): Simulator<EmptyWorld>
export function createSimulator<Handles extends object>(options: SimulatorOptions & { world: WorldSpec<Handles> }): Simulator<Handles>
export function createSimulator(options?: SimulatorOptions): Simulator<DefaultWorld | EmptyWorld>
// Again last, so that `ReturnType<typeof createSimulator>` is the default world's simulator.
export function createSimulator(options?: SimulatorOptions & { world?: 'default' | undefined }): Simulator<DefaultWorld>
export function createSimulator(options: SimulatorOptions = {}): Simulator<object> {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) throw invalidArgument('create simulator', 'options', 'must be an options object')
  new ArgumentChecker('create simulator').knownFields(options, SIMULATOR_OPTION_FIELDS, '', 'the simulator options')
  const seed = options.seed ?? DEFAULT_SEED
  if (typeof seed !== 'number' || !Number.isSafeInteger(seed)) {
    throw invalidArgument('create simulator', 'seed', `must be a safe integer, got ${describe(seed)}`)
  }
  const worldOption = options.world === undefined ? 'default' : options.world
  if (worldOption !== 'default' && worldOption !== 'empty' && !isWorldSpec(worldOption)) {
    throw invalidArgument('create simulator', 'world', `must be "default", "empty" or a world spec, got ${describe(worldOption)}`)
  }
  const spec = worldOption === 'default' ? defaultWorldForLoad() : worldOption === 'empty' ? undefined : worldOption
  // A world written for an instant starts the clock there, or moves with the clock when `now` is given.
  const specNow = spec && worldNow(spec)
  const startMs = options.now === undefined ? (specNow ?? toEpochMs(DEFAULT_NOW, 'create simulator', 'now')) : toEpochMs(options.now, 'create simulator', 'now')
  const clockOption = options.clock ?? 'virtual'
  if (clockOption !== 'virtual' && clockOption !== 'real' && typeof clockOption !== 'function') {
    throw invalidArgument('create simulator', 'clock', `must be "virtual", "real" or a function returning epoch milliseconds, got ${describe(clockOption)}`)
  }
  const clock = createClock(startMs, clockOption === 'virtual' ? undefined : clockOption === 'real' ? Date.now : clockOption)
  const rateLimit = options.rateLimit === undefined || options.rateLimit === null ? null : checkRateLimit(options.rateLimit, 'create simulator', 'rateLimit')
  const journalLimit = options.journalLimit ?? 1_000
  if (typeof journalLimit !== 'number' || !Number.isSafeInteger(journalLimit) || journalLimit < 0) {
    throw invalidArgument('create simulator', 'journalLimit', `must be a non-negative integer, got ${describe(journalLimit)}`)
  }
  const journalBytes = options.journalBytes ?? DEFAULT_JOURNAL_BYTES
  if (typeof journalBytes !== 'number' || !Number.isSafeInteger(journalBytes) || journalBytes < 0) {
    throw invalidArgument('create simulator', 'journalBytes', `must be a non-negative integer (bytes), got ${describe(journalBytes)}`)
  }
  const strictRequests = options.strictRequests ?? false
  if (typeof strictRequests !== 'boolean') throw invalidArgument('create simulator', 'strictRequests', `must be true or false, got ${describe(strictRequests)}`)
  const replies = checkReplyOptions(options.replies)
  const { ctx, collections } = createStore(seed, clock)
  const names = catalogNames(ctx)
  const controls = new Controls(seed, rateLimit, names)
  const responders = new Responders(names)
  const router = {
    controls,
    journal: new JournalStore(journalLimit, journalBytes),
    strictRequests,
    inference: { seed, replies, responders, embeddings: new EmbeddingsCache(), statisticsViews: new WeakMap(), providerFault: (facts: InferenceFacts) => controls.pickProviderFault(facts), streamFault: (facts: InferenceFacts) => controls.pickStreamFault(facts) },
  }
  const shift = specNow === undefined ? 0 : startMs - specNow
  const world = worldOption === 'default' ? loadDefaultWorld(ctx, collections, seed, shift) : spec === undefined ? {} : loadWorld(ctx, collections, spec, shift)
  // The world's responders, added in order now and again on every reset (decisions/0027).
  const worldRules = spec === undefined ? [] : worldResponders(spec, undefined, names)
  const addWorldResponders = (): void => {
    for (const rule of worldRules) responders.controls.respond(rule)
  }
  addWorldResponders()

  // From here on every write is recorded, so snapshots and restores cost what changed (decisions/0015).
  const history = new History(ctx)
  ctx.history = history
  const baseline = history.root
  const snapshot = (): SimulatorSnapshot => snapshotHandle(history.seal(), seed)
  const restore = (saved: SimulatorSnapshot): void => {
    const version = versionOf(saved)
    if (version.history === history) history.goTo(version)
    else {
      // Another simulator's state: a copy of it, read by walking that simulator there and back.
      const other = version.history
      const here = other.seal()
      other.goTo(version)
      const copy = copyStoreData(other.data)
      other.goTo(here)
      history.replace(copy, version.clockMs, version.random)
    }
    ctx.random.setState([...version.random])
    clock.jump(version.clockMs)
  }

  const sim: Simulator<object> = {
    seed,
    world,
    clock: ctx.clock,
    ...collections,
    snapshot,
    restore,
    faults: router.controls.faults,
    latency: router.controls.latency,
    journal: router.journal.view,
    inference: responders.controls,
    reset: () => {
      responders.reset()
      addWorldResponders()
      history.goTo(baseline)
      ctx.random.setState([...baseline.random])
      clock.jump(baseline.clockMs)
      router.controls.reset()
      router.journal.reset()
    },
    exportWorld: () => exportWorld(ctx.data, clock.nowMs(), world),
    handle: (request) => handleRequest(ctx, router, request),
  }
  registerInternals(sim, {
    handleShared: (request) => handleRequest(ctx, router, request, true),
    generationCount: () => ctx.data.generations.size,
    journal: router.journal,
    exportWorldParts: (exportOptions) => exportWorldParts(ctx.data, clock.nowMs(), world, exportOptions),
    worldEntry: {
      user: (id) => {
        const user = ctx.data.users.get(id)
        return user && worldUser(ctx.data, user)
      },
      workspace: (id) => {
        const workspace = ctx.data.workspaces.get(id.toLowerCase())
        return workspace && worldWorkspace(workspace.userId, workspace.record)
      },
      key: (hash) => {
        const key = ctx.data.keys.get(hash)
        return key && worldKey(key)
      },
      model: (id) => {
        const model = ctx.data.models.get(id)
        return model && worldModel(model)
      },
      videoModel: (id) => {
        const model = ctx.data.videoModels.get(id)
        return model && worldModel(model)
      },
      preset: (id) => {
        for (const preset of ctx.data.presets.values()) if (preset.id === id) return worldPreset(preset)
        return undefined
      },
    },
    worldFile: (file) => worldFile(file, undefined),
    loadKey: (key) => {
      try {
        loadWorld(ctx, collections, { format: WORLD_FORMAT, keys: [key as unknown as WorldKey] }, 0)
      } catch (error) {
        if (!(error instanceof SimulatorError)) throw error
        // The loader names the path in a world (`world.keys[0].limit`); a key on its own is `limit`,
        // and what failed is loading a key, not a world.
        const argument = error.argument?.startsWith('world.keys[0]') ? error.argument.replace(/^world\.keys\[0\]\.?/, '') || 'body' : error.argument
        let message = error.message.replaceAll('world.keys[0].', '').replaceAll('world.keys[0]', 'the key').replace(/^Failed to load world: /, 'Failed to load the key: ')
        if (argument === 'secret' && key['secret'] === undefined) {
          message += ' A key whose usage is a list of records is loaded as a world spec holds it, secret and hash included; give usage as figures ({ "daily": 0.5, "total": 2 }) to create a key with a new secret.'
        }
        throw new SimulatorError(error.code, message, { ...(argument !== undefined && { argument }), details: error.details })
      }
      return ctx.indices.keyHashBySecret.get(key['secret'] as string) as string
    },
  })
  return sim
}

/**
 * Every problem of a world spec, each with its path (`world.keys[3].limit`), without throwing: what
 * `createSimulator({ world })` would refuse, all at once. An empty list means the spec loads.
 * An entity that depends on a bad one (a key of a user that is refused) is not reported again.
 *
 * @example
 * import { validateWorld, WORLD_FORMAT } from 'model-access-sim'
 * const problems = validateWorld({
 *   format: WORLD_FORMAT,
 *   users: [{ id: 'user_acme' }],
 *   keys: [{ userId: 'user_acme', secret: 'sk-or-v1-admin', limit: -1 }, { userId: 'user_nobody', secret: 'sk-or-v1-other' }],
 * })
 * console.log(problems.map((p) => p.path))
 * //=> ["world.keys[0].limit","world.keys[1].userId"]
 */
export function validateWorld(spec: unknown): WorldProblem[] {
  if (!isWorldSpec(spec)) return [{ path: 'world', code: SimulatorErrorCode.InvalidArgument, message: `must be a world spec object, got ${describe(spec)}` }]
  const problems: WorldProblem[] = []
  const specNow = (() => {
    try {
      return worldNow(spec)
    } catch (error) {
      if (!(error instanceof SimulatorError)) throw error
      problems.push({ path: 'world.now', code: error.code, message: error.message.replace(/^Failed to [^:]+: /, '') })
      return undefined
    }
  })()
  const { ctx, collections } = createStore(DEFAULT_SEED, createClock(specNow ?? Date.parse(DEFAULT_NOW)))
  loadWorld(ctx, collections, spec, 0, problems)
  worldResponders(spec, problems, catalogNames(ctx))
  return problems
}
