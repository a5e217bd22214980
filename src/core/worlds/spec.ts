import { fromBase64 } from '../base64.js'
import { deepFreeze, isJsonData } from '../json-data.js'
import { SimulatorError, SimulatorErrorCode } from '../errors.js'
import type { StoreContext } from '../store/context.js'
import type { CreateFileOptions, FileCollection } from '../store/files.js'
import { type CreateKeyOptions } from '../store/key-options.js'
import { KEY_FIELDS, buildKey } from '../store/keys.js'
import type { KeyState } from '../store/state.js'
import { type CreateModelOptions, type ModelCollection, insertModel, trustedModel } from '../store/models.js'
import type { CreateUserOptions, UserCollection, UserCreditsOptions } from '../store/users.js'
import type { CreateVideoModelOptions, VideoModelCollection } from '../store/video-models.js'
import type { CreateWorkspaceOptions, DefaultWorkspaceOptions, WorkspaceCollection } from '../store/workspaces.js'
import { MAX_EXACT_USD, type UsageRecord, toUnits } from '../usage.js'
import { parseInstant, toEpochMs } from '../time.js'
import { ArgumentChecker, fieldsOf, unknownField, withoutFields } from '../store/check.js'
import { describe } from '../describe.js'
import type { WorldProblem } from './problems.js'
import type { WorldResponder } from './responders.js'
import type { SharedModels } from './shared-models.js'
import { ModelTable } from '../store/model-table.js'
import type { ModelWithEndpoints } from '../types.js'
import { put } from '../store/versions.js'
import { type CreatePresetOptions, type LoadedPresetVersion, buildLoadedPreset, writePreset } from '../store/presets.js'
import { checkPresetConfig } from '../inference/presets.js'
import { type SetBudgetOptions, setBudgetFromOptions } from '../store/budgets.js'
import { type CreateMemberOptions, buildMember, writeMember } from '../store/members.js'
import { type CreateGuardrailOptions, loadGuardrail } from '../store/guardrails.js'
import { guardrailReaders } from '../guardrail-rules.js'
import { type CreateByokOptions, createByokFromOptions } from '../store/byok.js'
import { type RecordActivityOptions, dayOf, recordActivityFromOptions } from '../store/activity.js'
import { WORLD_FORMAT } from './format.js'

/** An ISO 8601 instant with a time and an offset: `2026-03-02T10:00:00Z`. */
export type WorldInstant = string

/** An organisation; its default workspace (slug `default`) is created with it. */
export interface WorldUser {
  id: string
  name?: string | undefined
  createdAt?: WorldInstant | undefined
  /** UUID of its default workspace; generated when absent. Null: it has none (its default was deleted). */
  defaultWorkspaceId?: string | null | undefined
  /** UUID of the default workspace's guardrail; generated when absent. */
  defaultWorkspaceGuardrailId?: string | undefined
  /** The default workspace's other fields, as `sim.users.create` takes them. */
  defaultWorkspace?: Omit<DefaultWorkspaceOptions, 'createdAt' | 'updatedAt'> & { createdAt?: WorldInstant | undefined; updatedAt?: WorldInstant | null | undefined } | undefined
  /**
   * The organisation's credits in USD: `total` bought (`total_credits` of `GET /credits`; default
   * 0), and `retiredUsage`, what its deleted keys spent, still counted in `total_usage`.
   */
  credits?: UserCreditsOptions | undefined
}

export type WorldWorkspace = Omit<CreateWorkspaceOptions, 'createdAt' | 'updatedAt'> & { id: string; createdAt?: WorldInstant | undefined; updatedAt?: WorldInstant | null | undefined }

/** A charge to a key, as `sim.usage.record` takes it. */
export interface WorldUsageRecord {
  at: WorldInstant
  /** USD, kept exactly to 10^-10 USD. */
  cost: number
  byok?: boolean | undefined
}

/** An API key with its bearer secret (so tests can call as it) and its usage as records. */
export type WorldKey = Omit<CreateKeyOptions, 'createdAt' | 'updatedAt' | 'expiresAt' | 'usage' | 'byokUsage' | 'secret'> & {
  secret: string
  createdAt?: WorldInstant | undefined
  updatedAt?: WorldInstant | null | undefined
  expiresAt?: WorldInstant | null | undefined
  usage?: WorldUsageRecord[] | undefined
}

/** A file; its content as UTF-8 `text` or as `base64`, exactly one of them. */
export type WorldFile = Omit<CreateFileOptions, 'bytes' | 'createdAt'> & { createdAt?: WorldInstant | undefined; text?: string | undefined; base64?: string | undefined }

/** One version of a world's preset: its config and system prompt, as `sim.presets.create` takes them. */
export interface WorldPresetVersion {
  /** A UUID; generated when absent. */
  id?: string | undefined
  config?: Record<string, unknown> | undefined
  systemPrompt?: string | null | undefined
  /** Default: the preset's `createdAt`. */
  createdAt?: WorldInstant | undefined
}

/**
 * A preset (decisions/0050): `sim.presets.create`'s options, and either `versions` (its whole
 * history, oldest first: version 1, 2, 3...) or one version's `config` and `systemPrompt`.
 */
export type WorldPreset = Omit<CreatePresetOptions, 'createdAt'> & { createdAt?: WorldInstant | undefined; updatedAt?: WorldInstant | undefined; versions?: WorldPresetVersion[] | undefined }

/**
 * A workspace budget (decisions/0052): `sim.budgets.set`'s options, and when it was made and last changed.
 *
 * @example
 * import { createSimulator } from 'model-access-sim'
 * const sim = createSimulator()
 * sim.budgets.set({ workspace: sim.world.workspaces.staging, interval: 'monthly', limitUsd: 40 })
 * const world = sim.exportWorld()
 * console.log(world.budgets?.map((b) => [b.interval, b.limitUsd]))
 * //=> [["monthly",40]]
 */
export type WorldBudget = Omit<SetBudgetOptions, 'createdAt'> & { createdAt?: WorldInstant | undefined; updatedAt?: WorldInstant | undefined }
/** A member of an organisation (decisions/0051): `sim.members.add`'s options, its instants as a world spec writes them. */
export type WorldMember = Omit<CreateMemberOptions, 'createdAt' | 'workspaces'> & { createdAt?: WorldInstant | undefined; workspaces?: { workspaceId: string; id?: string | undefined; createdAt?: WorldInstant | undefined }[] | undefined }

/** A guardrail (decisions/0051): `sim.guardrails.create`'s options, with its assignments to keys and members. */
export type WorldGuardrail = Omit<CreateGuardrailOptions, 'createdAt' | 'updatedAt'> & {
  createdAt?: WorldInstant | undefined
  updatedAt?: WorldInstant | null | undefined
  keys?: { keyHash: string; id?: string | undefined; createdAt?: WorldInstant | undefined }[] | undefined
  members?: { memberId: string; id?: string | undefined; createdAt?: WorldInstant | undefined }[] | undefined
}

/**
 * A BYOK provider credential (decisions/0054): `sim.byok.create`'s options, with its instant. The
 * raw key is part of the world, so a reloaded world serves requests through it alike.
 *
 * @example
 * import { createSimulator } from 'model-access-sim'
 * const sim = createSimulator()
 * sim.byok.create({ userId: sim.world.userId, provider: 'openai', key: 'sk-proj-0123456789', isByokOnly: true })
 * console.log(sim.exportWorld().byok?.map((c) => [c.provider, c.isByokOnly]))
 * //=> [["openai",true]]
 */
export type WorldByok = Omit<CreateByokOptions, 'createdAt'> & { createdAt?: WorldInstant | undefined }

/**
 * A day of a key's activity on one endpoint (decisions/0053): `sim.activity.record`'s entry. Its
 * `date` moves with the world's `now` by whole days, so "3 days ago" stays 3 days ago.
 *
 * @example
 * import { createSimulator } from 'model-access-sim'
 * const sim = createSimulator({ now: '2026-03-02T10:00:00Z' })
 * const keyHash = sim.world.apiKeyHash
 * sim.activity.record({ userId: sim.world.userId, date: '2026-03-01', keyHash, model: 'openai/gpt-4.1-mini', provider: 'OpenAI', requests: 3, usage: 0.75, promptTokens: 30, completionTokens: 12 })
 * console.log(sim.exportWorld().activity?.map((a) => [a.date, a.requests, a.usage]))
 * //=> [["2026-03-01",3,0.75]]
 */
export type WorldActivity = RecordActivityOptions

export type WorldModel = Omit<CreateModelOptions, 'created'> & { created?: WorldInstant | undefined }
export type WorldVideoModel = Omit<CreateVideoModelOptions, 'created'> & { created?: WorldInstant | undefined }

/**
 * A whole world as plain JSON: what `createSimulator({ world })` loads. `generateWorld` (in
 * `model-access-sim/fixtures`) writes one, you can write or edit one by hand, and it survives
 * `JSON.stringify` and `JSON.parse` unchanged. Every instant is an ISO 8601 string.
 *
 * When `now` is given, the world is relative to it: loaded into a simulator whose clock starts
 * elsewhere, every instant moves by the difference, so "created 3 days ago" stays 3 days ago.
 * `handles` is whatever the world wants to document; it becomes `sim.world`.
 */
export interface WorldSpec<Handles extends object = Record<string, unknown>> {
  format: typeof WORLD_FORMAT
  /** The instant the world was written for; the simulator's clock starts here unless `now` is given. */
  now?: WorldInstant | undefined
  users?: WorldUser[] | undefined
  workspaces?: WorldWorkspace[] | undefined
  keys?: WorldKey[] | undefined
  files?: WorldFile[] | undefined
  models?: WorldModel[] | undefined
  videoModels?: WorldVideoModel[] | undefined
  /** Presets of the world's organisations (decisions/0050). */
  presets?: WorldPreset[] | undefined
  /** Workspace budgets (decisions/0052): `sim.budgets.set`'s options, with their instants. */
  budgets?: WorldBudget[] | undefined
  /** BYOK provider credentials (decisions/0054): `sim.byok.create`'s options, with their instants. */
  byok?: WorldByok[] | undefined
  /**
   * Daily activity (decisions/0053): what `GET /activity` and analytics read, as
   * `sim.activity.record` takes it; entries of the same day, key and endpoint add up.
   */
  activity?: WorldActivity[] | undefined
  /**
   * Members of the world's organisations and their workspaces (decisions/0051). An owner is a member
   * without an entry; an entry `{ userId, id: userId, workspaces }` gives it places in workspaces.
   */
  members?: WorldMember[] | undefined
  /** Guardrails of the world's organisations and their assignments (decisions/0051). */
  guardrails?: WorldGuardrail[] | undefined
  /**
   * Responder rules, in the JSON form `POST /__sim/responders` takes (a regular expression as
   * `{ "regex": "...", "flags": "i" }`), added in order when the world loads and again on
   * `sim.reset()`: a later rule is newer, so it is tried first (decisions/0027).
   */
  responders?: WorldResponder[] | undefined
  handles?: Handles | undefined
}

export interface WorldCollections {
  users: UserCollection
  workspaces: WorkspaceCollection
  files: FileCollection
  models: ModelCollection
  videoModels: VideoModelCollection
}

const LISTS = ['users', 'workspaces', 'keys', 'files', 'models', 'videoModels', 'presets', 'budgets', 'members', 'guardrails', 'byok', 'activity'] as const
export const SPEC_FIELDS = fieldsOf<WorldSpec>({
  format: true,
  now: true,
  users: true,
  workspaces: true,
  keys: true,
  files: true,
  models: true,
  videoModels: true,
  presets: true,
  budgets: true,
  members: true,
  guardrails: true,
  byok: true,
  activity: true,
  responders: true,
  handles: true,
})
// Users, workspaces, models and video models have the fields of their creators' options, which
// refuse the others. Keys, their usage records and files differ from them, so the loader checks those.
// WorldKey is CreateKeyOptions without byokUsage (usage is records, BYOK ones included).
export const WORLD_KEY_FIELDS = withoutFields<CreateKeyOptions>(KEY_FIELDS, 'byokUsage')
export const USAGE_RECORD_FIELDS = fieldsOf<WorldUsageRecord>({ at: true, cost: true, byok: true })
export const FILE_FIELDS = fieldsOf<WorldFile>({
  userId: true,
  id: true,
  workspaceId: true,
  origin: true,
  text: true,
  base64: true,
  filename: true,
  provider: true,
  createdAt: true,
})
const OPERATION = 'load world'

/** Whether a value is shaped like a world spec (a format tag), as opposed to a world's name. */
export function isWorldSpec(value: unknown): value is WorldSpec<object> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The spec's reference instant in epoch ms, or undefined; throws naming `world.now`. */
export function worldNow(spec: WorldSpec<object>): number | undefined {
  return spec.now === undefined ? undefined : instant(spec.now, 'world.now', 0)
}

function instant(value: unknown, path: string, shift: number, operation = OPERATION): number {
  // The common case first: a valid string needs no message, so none is built.
  const ms = typeof value === 'string' ? parseInstant(value) : undefined
  if (ms !== undefined) return ms + shift
  if (typeof value !== 'string') {
    throw new SimulatorError(SimulatorErrorCode.InvalidArgument, `Failed to ${operation}: "${path}" must be an ISO 8601 instant string, got ${describe(value)}.`, {
      argument: path,
    })
  }
  return toEpochMs(value, operation, path) + shift
}

/** The spec path of an entity of a list: `world.keys[3]`. */
const itemPath = (list: string, index: number): string => `world.${list}[${index}]`

/** An error of a creator, to throw again: a SimulatorError is given the spec path of the entity it was given. */
function withPath(path: string, error: unknown): unknown {
  if (!(error instanceof SimulatorError)) return error
  const argument = error.argument === undefined || error.argument === 'options' ? path : `${path}.${error.argument}`
  return new SimulatorError(error.code, `Failed to ${OPERATION}: ${path}: ${error.message}`, { argument, details: error.details })
}

/** Runs a creator; its error is thrown again with the spec path of the entity it was given. */
function at<T>(path: string, create: () => T): T {
  try {
    return create()
  } catch (error) {
    throw withPath(path, error)
  }
}

/** The problem a load error stands for, its message without the prefixes that repeat the path. */
function toProblem(error: SimulatorError, fallbackPath: string): WorldProblem {
  const message = error.message.replace(/^Failed to load world: (?:world[\w.[\]]*: )?(?:Failed to [^:]+: )?/, '')
  return { path: error.argument ?? fallbackPath, code: error.code, message }
}

/**
 * Loads a world spec into an empty store through the same validation as the creators; a bad entity
 * throws a SimulatorError whose `argument` is its path (`world.keys[3].limit`). A field that is not
 * one of its type's, in the spec itself or in an entity or a key's usage record, is refused the same
 * way (`world.keys[3].disabeld`); only `handles` may hold anything. `shift` (ms) moves every
 * instant. Returns a copy of the spec's handles.
 *
 * With `problems`, nothing throws: each bad entity is reported there and left out, and the load
 * goes on, so that every problem of a spec is found in one pass. An entity that depends on one left
 * out (a key of a user that failed) is left out without a report of its own.
 */
export function loadWorld<Handles extends object>(
  ctx: StoreContext,
  sim: WorldCollections,
  spec: WorldSpec<Handles>,
  shift: number,
  problems?: WorldProblem[],
  shared?: SharedModels,
): Handles {
  const check: ArgumentChecker = new ArgumentChecker(OPERATION)
  /** Runs one step; in collecting mode a SimulatorError becomes a problem and the step is skipped. */
  const step = (path: string, run: () => void): boolean => {
    try {
      run()
      return true
    } catch (error) {
      if (problems === undefined || !(error instanceof SimulatorError)) throw error
      problems.push(toProblem(error, path))
      return false
    }
  }
  step('world.format', () => {
    if (spec.format !== WORLD_FORMAT) {
      check.fail('world.format', `must be ${JSON.stringify(WORLD_FORMAT)} (a world spec, such as generateWorld() returns), got ${describe(spec.format)}`)
    }
  })
  step('world', () => check.knownFields(spec, SPEC_FIELDS, 'world', 'a world spec'))
  const lists = new Set<(typeof LISTS)[number]>()
  for (const list of LISTS) {
    if (step(`world.${list}`, () => spec[list] === undefined || Array.isArray(spec[list]) || check.fail(`world.${list}`, `must be an array, got ${describe(spec[list])}`))) lists.add(list)
  }
  // `field` is joined to `path` only for a message: a 100,000-key world has no strings to spare.
  const when = (value: unknown, path: string, field: string): number | undefined => {
    if (value === undefined) return undefined
    const ms = typeof value === 'string' ? parseInstant(value) : undefined
    return ms === undefined ? instant(value, `${path}.${field}`, shift) : ms + shift
  }
  const whenOrNull = (value: unknown, path: string, field: string): number | null | undefined => (value === null ? null : when(value, path, field))
  /** {@link when} for the `index`th key, which names its path only in a message. */
  const keyWhen = (value: unknown, index: number, field: string): number | undefined => {
    if (value === undefined) return undefined
    const ms = typeof value === 'string' ? parseInstant(value) : undefined
    return ms === undefined ? instant(value, `${itemPath('keys', index)}.${field}`, shift) : ms + shift
  }
  // Ids of users and workspaces left out, so that what depends on them is left out quietly.
  const skippedUsers = new Set<unknown>()
  const skippedWorkspaces = new Set<unknown>()
  // A plain loop with its own try, and the path of an entity (`world.keys[3]`) built only where it
  // is used: for 100,000 keys, closures, iterator entries and strings were a fifth of the load's garbage.
  const each = <T extends object>(name: (typeof LISTS)[number], load: (item: T, index: number) => void): void => {
    if (!lists.has(name)) return
    const items = (spec[name] ?? []) as unknown[]
    for (let i = 0; i < items.length; i++) {
      const item = items[i]
      const entity = item as Record<string, unknown>
      const userId = entity?.['userId']
      const workspaceId = entity?.['workspaceId']
      if ((userId !== undefined && skippedUsers.has(userId)) || (workspaceId !== undefined && skippedWorkspaces.has(workspaceId))) continue
      try {
        if (typeof item !== 'object' || item === null || Array.isArray(item)) check.fail(itemPath(name, i), `must be an object, got ${describe(item)}`)
        load(item as T, i)
        continue
      } catch (error) {
        if (problems === undefined || !(error instanceof SimulatorError)) throw error
        problems.push(toProblem(error, itemPath(name, i)))
      }
      if (typeof entity !== 'object' || entity === null) continue
      // Only ids that did not load: a refused duplicate leaves the entity that has the id in place.
      const absentWorkspace = (id: unknown): boolean => id !== undefined && id !== null && !ctx.data.workspaces.has(String(id).toLowerCase())
      if (name === 'users' && entity['id'] !== undefined && !ctx.data.users.has(entity['id'] as string)) skippedUsers.add(entity['id'])
      if (name === 'users' && absentWorkspace(entity['defaultWorkspaceId'])) skippedWorkspaces.add(entity['defaultWorkspaceId'])
      if (name === 'workspaces' && absentWorkspace(entity['id'])) skippedWorkspaces.add(entity['id'])
    }
  }

  // Instants are read before an entity goes to its creator, whose errors `at` prefixes with the path.
  each<WorldUser>('users', (user, index) => {
    const path = itemPath('users', index)
    const own = user.defaultWorkspace
    const defaultWorkspace =
      typeof own === 'object' && own !== null
        ? { ...own, createdAt: when(own.createdAt, `${path}.defaultWorkspace`, 'createdAt'), updatedAt: whenOrNull(own.updatedAt, `${path}.defaultWorkspace`, 'updatedAt') }
        : own
    const options = { ...user, createdAt: when(user.createdAt, path, 'createdAt'), ...(own !== undefined && { defaultWorkspace }) } as CreateUserOptions
    at(path, () => sim.users.create(options))
  })
  each<WorldWorkspace>('workspaces', (workspace, index) => {
    const path = itemPath('workspaces', index)
    const options = { ...workspace, createdAt: when(workspace.createdAt, path, 'createdAt'), updatedAt: whenOrNull(workspace.updatedAt, path, 'updatedAt') } as CreateWorkspaceOptions
    at(path, () => sim.workspaces.create(options))
  })
  const loaded: KeyState[] = []
  // A key's path is built only for a message.
  each<WorldKey>('keys', (key, index) => {
    // Names the path only when a field is unknown: most keys have none.
    if (unknownField(key, WORLD_KEY_FIELDS) !== undefined) check.knownFields(key, WORLD_KEY_FIELDS, itemPath('keys', index), 'a key of a world spec')
    // Without its secret in the spec, nobody could call as the key.
    if (typeof key.secret !== 'string' || key.secret === '') check.string(key.secret, `${itemPath('keys', index)}.secret`)
    // Field by field, not a spread: spec keys come in many shapes, and a spread of each is slow.
    const options: CreateKeyOptions = {
      userId: key.userId,
      management: key.management,
      name: key.name,
      workspaceId: key.workspaceId,
      disabled: key.disabled,
      limit: key.limit,
      limitReset: key.limitReset,
      includeByokInLimit: key.includeByokInLimit,
      createdAt: keyWhen(key.createdAt, index, 'createdAt'),
      updatedAt: key.updatedAt === null ? null : keyWhen(key.updatedAt, index, 'updatedAt'),
      expiresAt: key.expiresAt === null ? null : keyWhen(key.expiresAt, index, 'expiresAt'),
      secret: key.secret,
      hash: key.hash,
      rateLimit: key.rateLimit,
      label: key.label,
      creatorUserId: key.creatorUserId,
      externalUser: key.externalUser,
    } as CreateKeyOptions
    let state: { -readonly [F in keyof KeyState]: KeyState[F] }
    try {
      state = buildKey(ctx, options)
    } catch (error) {
      throw withPath(itemPath('keys', index), error)
    }
    const records: unknown = key.usage
    if (records !== undefined && !Array.isArray(records)) check.fail(`${itemPath('keys', index)}.usage`, `must be an array of usage records, got ${describe(records)}`)
    let regular = 0
    let byokTotal = 0
    let latest: number | null = null
    const list = (records ?? []) as WorldUsageRecord[]
    // The key's records in an array of their number (buildKey's is empty: it is given no figures to
    // seed): pushed one by one, a key's first record would reserve room for 17.
    const usage: UsageRecord[] = list.length > 0 ? new Array<UsageRecord>(list.length) : state.usage
    for (let i = 0; i < list.length; i++) {
      // Each check names its field only when it fails.
      const record = list[i] as WorldUsageRecord
      if (typeof record !== 'object' || record === null || Array.isArray(record)) check.object(record, `${itemPath('keys', index)}.usage[${i}]`)
      if (unknownField(record, USAGE_RECORD_FIELDS) !== undefined) {
        check.knownFields(record, USAGE_RECORD_FIELDS, `${itemPath('keys', index)}.usage[${i}]`, 'a usage record of a world key')
      }
      const cost: unknown = record.cost
      if (typeof cost !== 'number' || !Number.isFinite(cost) || cost < 0) check.nonNegative(cost, `${itemPath('keys', index)}.usage[${i}].cost`)
      const byok: unknown = record.byok === undefined ? false : record.byok
      if (typeof byok !== 'boolean') check.boolean(byok, `${itemPath('keys', index)}.usage[${i}].byok`)
      const units = toUnits(cost as number)
      const total = byok ? (byokTotal += units) : (regular += units)
      if (!Number.isSafeInteger(total)) check.fail(`${itemPath('keys', index)}.usage[${i}].cost`, `takes the key's usage past ${MAX_EXACT_USD} USD, the most kept exactly`)
      const parsed = typeof record.at === 'string' ? parseInstant(record.at) : undefined
      const recordAt = parsed === undefined ? instant(record.at, `${itemPath('keys', index)}.usage[${i}].at`, shift) : parsed + shift
      usage[i] = { at: recordAt, units, byok: byok as boolean }
      if (latest === null || recordAt > latest) latest = recordAt
    }
    // The key is this loader's own until it is stored: completed in place, not copied.
    state.usage = usage
    state.usageCount = usage.length
    // Left out, updated_at is the latest record's instant; given (null included), it stands (decisions/0012).
    if (key.updatedAt === undefined) state.updatedAt = latest
    if (ctx.history !== undefined) {
      // Into a running simulator (the control API's POST /keys with usage as records): a write like
      // any other, recorded so that reset() and a restore to an earlier snapshot take it away.
      put(ctx, 'keys', state.hash, state)
      return
    }
    // Stored now, so a later key with the same hash or secret is refused; listed below.
    ctx.data.keys.set(state.hash, state)
    ctx.indices.keyHashBySecret.set(state.secret, state.hash)
    loaded.push(state)
  })
  // Indexed in page order, so the first GET /keys after a load does not sort 100,000 keys.
  ctx.indices.addLoadedKeys(loaded)
  each<WorldFile>('files', (file, index) => {
    const path = itemPath('files', index)
    const options = fileOptions(file, path, shift)
    at(path, () => sim.files.create(options))
  })
  let sharedModels = lists.has('models') ? shared?.get(shift) : undefined
  if (sharedModels === undefined && shared !== undefined && lists.has('models')) {
    // The embedded default world, written with every field: each model made as insertModel would
    // make it, unchecked (decisions/0041), and frozen, when it is first read (decisions/0066).
    // The spec's own `models` are left empty: the shared source has them (worlds/default.ts).
    const made = (read: () => object) => (): ModelWithEndpoints => {
      const model = read() as WorldModel
      return deepFreeze(trustedModel({ ...model, created: (parseInstant(model.created as string) as number) + shift }))
    }
    sharedModels = ModelTable.lazy(shared.models().map(([id, read]) => [id, made(read)] as const))
    shared.remember(shift, sharedModels)
  }
  if (sharedModels !== undefined && ctx.data.models.size === 0 && ctx.history === undefined) {
    // The shared table's rows, into a store with no model yet (rows are values).
    ctx.data.models = sharedModels.copy()
    ctx.indices.changed('models', undefined, undefined)
  } else if (sharedModels !== undefined) {
    for (const model of sharedModels.values()) put(ctx, 'models', model.id, model)
  } else {
    each<WorldModel>('models', (model, index) => {
      const path = itemPath('models', index)
      const options = modelOptions(model, path, shift)
      at(path, () => insertModel(ctx, options))
    })
  }
  each<WorldVideoModel>('videoModels', (model, index) => {
    const path = itemPath('videoModels', index)
    const options = videoModelOptions(model, path, shift)
    at(path, () => sim.videoModels.create(options))
  })
  each<WorldPreset>('presets', (preset, index) => {
    const path = itemPath('presets', index)
    at(path, () => {
      const { versions, createdAt, updatedAt, ...options } = preset
      const loaded = Array.isArray(versions)
        ? versions.map((version, i) => (typeof version === 'object' && version !== null ? { ...version, createdAt: when(version.createdAt, `${path}.versions[${i}]`, 'createdAt') } : version))
        : versions
      const built = buildLoadedPreset(ctx, { ...options, createdAt: when(createdAt, path, 'createdAt'), updatedAt: when(updatedAt, path, 'updatedAt') } as CreatePresetOptions, loaded as LoadedPresetVersion[] | undefined, checkPresetConfig, OPERATION)
      writePreset(ctx, built)
    })
  })
  each<WorldBudget>('budgets', (budget, index) => {
    const path = itemPath('budgets', index)
    at(path, () => {
      const { createdAt, updatedAt, ...options } = budget
      const made = when(createdAt, path, 'createdAt')
      setBudgetFromOptions(ctx, { ...options, ...(made !== undefined && { createdAt: made }) } as SetBudgetOptions, OPERATION, when(updatedAt, path, 'updatedAt'))
    })
  })
  each<WorldMember>('members', (member, index) => {
    const path = itemPath('members', index)
    at(path, () => {
      const { createdAt, workspaces, ...options } = member
      const places = Array.isArray(workspaces)
        ? workspaces.map((place, i) => (typeof place === 'object' && place !== null ? { ...place, createdAt: when(place.createdAt, `${path}.workspaces[${i}]`, 'createdAt') } : place))
        : workspaces
      writeMember(ctx, buildMember(ctx, { ...options, createdAt: when(createdAt, path, 'createdAt'), workspaces: places } as CreateMemberOptions, OPERATION, true))
    })
  })
  each<WorldGuardrail>('guardrails', (guardrail, index) => {
    const path = itemPath('guardrails', index)
    at(path, () => {
      const { createdAt, updatedAt, keys, members, ...options } = guardrail
      const list = <T extends { id?: string | undefined; createdAt?: unknown }>(given: T[] | undefined, field: 'keys' | 'members', ref: (item: T) => unknown) => {
        if (given === undefined) return []
        if (!Array.isArray(given)) check.fail(`${path}.${field}`, `must be an array, got ${describe(given)}`)
        return given.map((item, i) => {
          const at = `${path}.${field}[${i}]`
          if (typeof item !== 'object' || item === null) check.fail(at, `must be an object, got ${describe(item)}`)
          const created = when(item.createdAt, at, 'createdAt')
          return { ref: ref(item) as string, ...(item.id !== undefined && { id: item.id }), ...(created !== undefined && { createdAt: created }) }
        })
      }
      const updated = updatedAt === null ? null : when(updatedAt, path, 'updatedAt')
      loadGuardrail(
        ctx,
        { ...options, createdAt: when(createdAt, path, 'createdAt'), ...(updated !== undefined && { updatedAt: updated }) } as CreateGuardrailOptions,
        list(keys, 'keys', (item) => item.keyHash),
        list(members, 'members', (item) => item.memberId),
        guardrailReaders(ctx),
        OPERATION,
      )
    })
  })
  each<WorldByok>('byok', (credential, index) => {
    const path = itemPath('byok', index)
    at(path, () => {
      const { createdAt, ...options } = credential
      const made = when(createdAt, path, 'createdAt')
      createByokFromOptions(ctx, { ...options, ...(made !== undefined && { createdAt: made }) } as CreateByokOptions, OPERATION)
    })
  })
  // Dates move with the world's `now` by whole days: the days between the clock's today and the spec's.
  const specNow = shift === 0 ? undefined : worldNow(spec)
  const dayShift = specNow === undefined ? 0 : dayOf(specNow + shift) - dayOf(specNow)
  each<WorldActivity>('activity', (entry, index) => {
    recordActivityFromOptions(ctx, entry, OPERATION, itemPath('activity', index), dayShift)
  })
  let handles = {} as Handles
  step('world.handles', () => {
    if (spec.handles !== undefined && (typeof spec.handles !== 'object' || spec.handles === null || Array.isArray(spec.handles))) {
      check.fail('world.handles', `must be an object, got ${describe(spec.handles)}`)
    }
    // JSON data, as the rest of a spec: handles go out again in exportWorld and GET /__sim/world.
    if (spec.handles !== undefined && !isJsonData(spec.handles)) check.fail('world.handles', 'must be JSON data (no functions, BigInts, cycles or class instances)')
    handles = structuredClone(spec.handles ?? ({} as Handles))
  })
  return handles
}

/** `path.field`, or `field` alone for an entity given on its own (the control API's bodies). */
const within = (path: string, field: string): string => (path === '' ? field : `${path}.${field}`)

/** A world spec's file as `sim.files.create` takes it: its `text` or `base64` content read into bytes. */
export function fileOptions(file: WorldFile, path: string, shift = 0, operation = OPERATION): CreateFileOptions {
  const check: ArgumentChecker = new ArgumentChecker(operation)
  check.knownFields(check.object(file, path === '' ? 'options' : path), FILE_FIELDS, path, 'a file')
  const { text, base64, ...options } = file
  if ((text === undefined) === (base64 === undefined)) check.fail(path === '' ? 'text' : path, 'must give its content as exactly one of "text" and "base64"')
  const content = text ?? base64
  const contentPath = within(path, text === undefined ? 'base64' : 'text')
  if (typeof content !== 'string') check.fail(contentPath, `must be a string, got ${describe(content)}`)
  const bytes = text === undefined ? fromBase64(content) : new TextEncoder().encode(content)
  if (bytes === undefined) check.fail(contentPath, 'must be standard base64 (A-Z, a-z, 0-9, +, /, padded with =)')
  const createdAt = file.createdAt === undefined ? undefined : instant(file.createdAt, within(path, 'createdAt'), shift, operation)
  return { ...options, bytes, createdAt } as CreateFileOptions
}

/** A world spec's model as `sim.models.create` takes it: `created` read from its ISO string. */
export function modelOptions(model: WorldModel, path: string, shift = 0, operation = OPERATION): CreateModelOptions {
  new ArgumentChecker(operation).object(model, path === '' ? 'options' : path)
  const created = model.created === undefined ? undefined : instant(model.created, within(path, 'created'), shift, operation)
  return { ...model, created } as CreateModelOptions
}

/** A world spec's video model as `sim.videoModels.create` takes it: `created` read from its ISO string. */
export function videoModelOptions(model: WorldVideoModel, path: string, shift = 0, operation = OPERATION): CreateVideoModelOptions {
  new ArgumentChecker(operation).object(model, path === '' ? 'options' : path)
  const created = model.created === undefined ? undefined : instant(model.created, within(path, 'created'), shift, operation)
  return { ...model, created } as CreateVideoModelOptions
}
