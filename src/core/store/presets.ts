// Presets: an organisation's named request settings (decisions/0050). Each holds versions, oldest
// first; every change of config or system prompt adds one, and the latest is the current one. The
// store keys a preset by its organisation and slug, so `@preset/<slug>` costs one lookup.
import { describe } from '../describe.js'
import { invalidArgument, SimulatorError, SimulatorErrorCode } from '../errors.js'
import { deepFreeze } from '../json-data.js'
import { type InstantInput, formatTimestamp, toEpochMs } from '../time.js'
import type { Preset, PresetVersion, PresetWithVersion } from '../types.js'
import { ArgumentChecker, fieldsOf, UUID } from './check.js'
import { type StoreContext, atomically } from './context.js'
import { type PresetState, type PresetVersionState, presetScopeKey } from './state.js'
import { put, remove } from './versions.js'
import { requireUser } from './workspaces.js'

/**
 * A preset's slug: lower-case letters and digits, words joined by single `-` or `_`, at most 64
 * characters, as a path segment carries it without escaping.
 */
export const PRESET_SLUG = /^(?=.{1,64}$)[a-z0-9]+(?:[-_][a-z0-9]+)*$/
/** What {@link PRESET_SLUG} allows, in words, for the messages that refuse a slug. */
export const PRESET_SLUG_RULE = 'lower-case letters and digits in words joined by single "-" or "_", at most 64 characters (such as "email-writer")'

/**
 * What `sim.presets.create` takes. `config` holds request fields as a chat completion names them;
 * a request with `model: "@preset/<slug>"` takes those it does not give itself (decisions/0050).
 *
 * @example
 * import { createSimulator } from 'model-access-sim'
 * const sim = createSimulator({ world: 'empty' })
 * const org = sim.users.create({ name: 'Acme' })
 * const preset = sim.presets.create({
 *   userId: org.id,
 *   slug: 'support',
 *   name: 'Support replies',
 *   config: { model: 'openai/gpt-4.1-mini', temperature: 0.2 },
 *   systemPrompt: 'You answer support tickets in two sentences.',
 * })
 * console.log(preset.slug, preset.designated_version?.version, preset.designated_version?.config.temperature)
 * //=> support 1 0.2
 */
export interface CreatePresetOptions {
  /** The organisation that owns the preset. */
  userId: string
  /** Unique within the organisation; never changes. See {@link PRESET_SLUG_RULE}. */
  slug: string
  /** Default: the slug. */
  name?: string | undefined
  description?: string | null | undefined
  /**
   * Request fields, as `POST /chat/completions` takes them: `model` or `models`, `provider`,
   * `temperature`, `top_p`, `max_tokens`, `reasoning`, `stop`, `tools`... (decisions/0050 lists
   * them). Each is checked as the chat route checks it. Default `{}`.
   */
  config?: Record<string, unknown> | undefined
  /** Prepended to the messages of a request that uses the preset. Default null. */
  systemPrompt?: string | null | undefined
  /** A UUID; generated when absent. */
  id?: string | undefined
  createdAt?: InstantInput | undefined
}

/**
 * What `sim.presets.update` may change. A new `config` or `systemPrompt` makes a new version (the
 * other carried over from the current one); `name` and `description` change the preset alone.
 *
 * @example
 * import { createSimulator } from 'model-access-sim'
 * const sim = createSimulator({ world: 'empty' })
 * const org = sim.users.create({ name: 'Acme' })
 * sim.presets.create({ userId: org.id, slug: 'support', config: { model: 'openai/gpt-4.1-mini' } })
 * const updated = sim.presets.update({ userId: org.id, slug: 'support' }, { config: { model: 'openai/gpt-4.1' } })
 * console.log(updated.designated_version?.version, sim.presets.versions({ userId: org.id, slug: 'support' }).map((v) => v.config.model))
 * //=> 2 ["openai/gpt-4.1-mini","openai/gpt-4.1"]
 */
export interface UpdatePresetOptions {
  name?: string | undefined
  description?: string | null | undefined
  /** The whole config of the new version (not merged with the current one's). */
  config?: Record<string, unknown> | undefined
  systemPrompt?: string | null | undefined
}

/** A preset as the programmatic API names it: its id (a UUID), or its organisation and slug. */
export type PresetRef = string | { userId: string; slug: string }

/** `sim.presets`: an organisation's presets, as `GET /presets` and the preset routes show them. */
export interface PresetCollection {
  /**
   * Creates a preset with its first version and returns it as `GET /presets/{slug}` shows it. A
   * slug the organisation already has throws DUPLICATE_SLUG; a bad or unknown field
   * INVALID_ARGUMENT naming it (`config.temperature`, `slgu`); an unknown user UNKNOWN_USER.
   */
  create(options: CreatePresetOptions): PresetWithVersion
  /**
   * Changes a preset and returns it as `GET /presets/{slug}` shows it: a new `config` or
   * `systemPrompt` makes a new version, which becomes the current one. An unknown preset throws
   * UNKNOWN_PRESET (argument `preset`); a refused update changes nothing.
   */
  update(preset: PresetRef, changes: UpdatePresetOptions): PresetWithVersion
  /** Deletes a preset and every version of it; `@preset/<slug>` is then a 404. Unknown: UNKNOWN_PRESET. */
  delete(preset: PresetRef): void
  /** One preset with its current version, or undefined. */
  get(preset: PresetRef): PresetWithVersion | undefined
  /** Every preset of every organisation, most recently updated first (as `GET /presets` orders one organisation's). */
  list(): Preset[]
  /** A preset's versions, oldest first, as `GET /presets/{slug}/versions` lists them. Unknown: UNKNOWN_PRESET. */
  versions(preset: PresetRef): PresetVersion[]
}

/** Checks a config for a preset: the request fields it may hold, each checked as a chat request's; throws naming `config.<field>`. */
export type PresetConfigCheck = (config: unknown, operation: string, argument: string) => Record<string, unknown>

export const CREATE_FIELDS = fieldsOf<CreatePresetOptions>({ userId: true, slug: true, name: true, description: true, config: true, systemPrompt: true, id: true, createdAt: true })
export const UPDATE_FIELDS = fieldsOf<UpdatePresetOptions>({ name: true, description: true, config: true, systemPrompt: true })
const REF_FIELDS: ReadonlySet<string> = new Set(['userId', 'slug'])

/** A preset of an organisation by slug, or undefined: another organisation's is not found. */
export function findPreset(ctx: StoreContext, userId: string, slug: string): PresetState | undefined {
  return ctx.data.presets.get(presetScopeKey(userId, slug))
}

/** The presets of an organisation, most recently updated first, then by slug. */
export function presetsOf(ctx: StoreContext, userId: string | null): PresetState[] {
  const own: PresetState[] = []
  for (const preset of ctx.data.presets.values()) if (userId === null || preset.userId === userId) own.push(preset)
  return own.sort((a, b) => b.updatedAt - a.updatedAt || (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0))
}

/** Stores a preset (new or changed). */
export function writePreset(ctx: StoreContext, preset: PresetState): PresetState {
  put(ctx, 'presets', presetScopeKey(preset.userId, preset.slug), preset)
  return preset
}

/** The current version of a preset: its latest. */
export const currentVersion = (preset: PresetState): PresetVersionState => preset.versions[preset.versions.length - 1] as PresetVersionState

/** A version as the wire shows it: a fresh object, its config a copy. */
export function versionWire(preset: PresetState, version: PresetVersionState): PresetVersion {
  const at = formatTimestamp(version.createdAt)
  return {
    id: version.id,
    preset_id: preset.id,
    version: version.version,
    config: structuredClone(version.config) as Record<string, unknown>,
    system_prompt: version.systemPrompt,
    creator_id: preset.userId,
    created_at: at,
    updated_at: at,
  }
}

/** A preset as `GET /presets` lists it. */
export function presetWire(preset: PresetState): Preset {
  return {
    id: preset.id,
    name: preset.name,
    slug: preset.slug,
    description: preset.description,
    status: 'active',
    status_updated_at: null,
    created_at: formatTimestamp(preset.createdAt),
    updated_at: formatTimestamp(preset.updatedAt),
    creator_user_id: preset.userId,
    workspace_id: preset.workspaceId,
    designated_version_id: currentVersion(preset).id,
  }
}

/** A preset with its current version, as `GET /presets/{slug}` shows it. */
export function presetWithVersion(preset: PresetState): PresetWithVersion {
  return { ...presetWire(preset), designated_version: versionWire(preset, currentVersion(preset)) }
}

/** A fresh UUID no preset or version of this store has (ids are drawn from the seeded stream). */
function freshId(ctx: StoreContext, taken: (id: string) => boolean): string {
  let id: string
  do id = ctx.random.uuid()
  while (taken(id))
  return id
}

const presetIdTaken = (ctx: StoreContext) => (id: string): boolean => {
  for (const preset of ctx.data.presets.values()) if (preset.id === id || preset.versions.some((v) => v.id === id)) return true
  return false
}

/**
 * The preset after `config` and `systemPrompt` (both checked already) become its next version at
 * the clock's now; its id drawn from the seeded stream. Not stored.
 */
export function withNewVersion(ctx: StoreContext, preset: PresetState, config: Readonly<Record<string, unknown>>, systemPrompt: string | null): PresetState {
  const now = ctx.clock.nowMs()
  const version: PresetVersionState = { id: freshId(ctx, presetIdTaken(ctx)), version: currentVersion(preset).version + 1, config: deepFreeze(config), systemPrompt, createdAt: now }
  return { ...preset, versions: [...preset.versions, version], updatedAt: Math.max(preset.updatedAt, now) }
}

/** A new preset with one version (fields checked already), dated `createdAt`; its ids drawn unless given. Not stored. */
export function newPreset(
  ctx: StoreContext,
  fields: { userId: string; slug: string; name: string; description: string | null; config: Readonly<Record<string, unknown>>; systemPrompt: string | null; id?: string; createdAt: number },
): PresetState {
  const taken = presetIdTaken(ctx)
  const id = fields.id ?? freshId(ctx, taken)
  const versionId = freshId(ctx, (candidate) => candidate === id || taken(candidate))
  const workspaceId = ctx.data.users.get(fields.userId)?.defaultWorkspaceId ?? null
  return {
    id,
    userId: fields.userId,
    slug: fields.slug,
    name: fields.name,
    description: fields.description,
    workspaceId,
    createdAt: fields.createdAt,
    updatedAt: fields.createdAt,
    versions: [{ id: versionId, version: 1, config: deepFreeze(fields.config), systemPrompt: fields.systemPrompt, createdAt: fields.createdAt }],
  }
}

/** A slug checked for the programmatic API. */
export function checkPresetSlug(check: ArgumentChecker, value: unknown, argument = 'slug'): string {
  return check.string(value, argument, PRESET_SLUG, PRESET_SLUG_RULE)
}

/** A system prompt: a string, or null for none. */
function checkSystemPrompt(check: ArgumentChecker, value: unknown, argument: string): string | null {
  if (value === null) return null
  if (typeof value !== 'string') check.fail(argument, `must be a string or null, got ${describe(value)}`)
  return value
}

/** The preset a programmatic call names, or UNKNOWN_PRESET naming `preset`. */
function requirePreset(ctx: StoreContext, preset: unknown, operation: string): PresetState {
  let found: PresetState | undefined
  if (typeof preset === 'string') {
    if (UUID.test(preset)) for (const candidate of ctx.data.presets.values()) if (candidate.id === preset.toLowerCase()) found = candidate
  } else if (typeof preset === 'object' && preset !== null && !Array.isArray(preset)) {
    const check = new ArgumentChecker(operation)
    check.knownFields(preset, REF_FIELDS, 'preset', 'a preset reference')
    const { userId, slug } = preset as Record<string, unknown>
    found = findPreset(ctx, check.string(userId, 'preset.userId'), check.string(slug, 'preset.slug'))
  } else {
    throw invalidArgument(operation, 'preset', `must be a preset id (a UUID) or { userId, slug }, got ${describe(preset)}`)
  }
  if (found === undefined) {
    throw new SimulatorError(SimulatorErrorCode.UnknownPreset, `Failed to ${operation}: "preset" ${describe(preset)} names no preset.`, { argument: 'preset' })
  }
  return found
}

/**
 * Validates create options into a preset without storing it; throws a SimulatorError naming the
 * bad option. What `sim.presets.create` and the world loader share.
 */
export function buildPreset(ctx: StoreContext, options: CreatePresetOptions, checkConfig: PresetConfigCheck, operation = 'create preset'): PresetState {
  const check: ArgumentChecker = new ArgumentChecker(operation)
  check.knownFields(check.object(options, 'options'), CREATE_FIELDS, '', 'a preset')
  const userId = requireUser(ctx, options.userId, operation)
  const slug = checkPresetSlug(check, options.slug)
  if (findPreset(ctx, userId, slug) !== undefined) {
    throw new SimulatorError(SimulatorErrorCode.DuplicateSlug, `Failed to ${operation}: slug "${slug}" is already used by another preset of user "${userId}".`, { argument: 'slug' })
  }
  const name = options.name === undefined ? slug : check.string(options.name, 'name')
  const description = options.description === undefined || options.description === null ? null : check.string(options.description, 'description')
  const config = checkConfig(options.config === undefined ? {} : options.config, operation, 'config')
  const systemPrompt = options.systemPrompt === undefined ? null : checkSystemPrompt(check, options.systemPrompt, 'systemPrompt')
  let id: string | undefined
  if (options.id !== undefined) {
    id = check.string(options.id, 'id', UUID, 'a UUID such as "550e8400-e29b-41d4-a716-446655440000"').toLowerCase()
    if (presetIdTaken(ctx)(id)) throw new SimulatorError(SimulatorErrorCode.DuplicateId, `Failed to ${operation}: id "${id}" is already taken.`, { argument: 'id' })
  }
  const createdAt = options.createdAt === undefined ? ctx.clock.nowMs() : toEpochMs(options.createdAt, operation, 'createdAt')
  return newPreset(ctx, { userId, slug, name, description, config, systemPrompt, ...(id !== undefined && { id }), createdAt })
}

/** One version of a preset loaded from a world spec, instants already read. */
export interface LoadedPresetVersion {
  id?: string
  config?: Record<string, unknown>
  systemPrompt?: string | null
  createdAt?: number
}

const VERSION_FIELDS = fieldsOf<LoadedPresetVersion>({ id: true, config: true, systemPrompt: true, createdAt: true })

/**
 * A preset of a world spec, with its whole history: `versions` oldest first (numbered 1, 2, 3...
 * in that order), or, without them, one version of `config` and `systemPrompt`. `updatedAt`
 * defaults to its latest version's instant. Throws naming the bad field (`versions[1].config.top_p`).
 */
export function buildLoadedPreset(
  ctx: StoreContext,
  options: CreatePresetOptions & { updatedAt?: number },
  versions: readonly LoadedPresetVersion[] | undefined,
  checkConfig: PresetConfigCheck,
  operation: string,
): PresetState {
  const check: ArgumentChecker = new ArgumentChecker(operation)
  const { updatedAt, ...create } = options
  if (versions === undefined) {
    const built = buildPreset(ctx, create, checkConfig, operation)
    return updatedAt === undefined ? built : { ...built, updatedAt }
  }
  if (!Array.isArray(versions) || versions.length === 0) check.fail('versions', `must be a non-empty array of versions, oldest first, got ${describe(versions)}`)
  if (create.config !== undefined || create.systemPrompt !== undefined) check.fail(create.config !== undefined ? 'config' : 'systemPrompt', 'must not be given with "versions": each version carries its own')
  const built: PresetVersionState[] = []
  const taken = presetIdTaken(ctx)
  let first: PresetState | undefined
  for (const [i, entry] of versions.entries()) {
    const at = `versions[${i}]`
    check.knownFields(check.object(entry, at), VERSION_FIELDS, at, 'a preset version')
    const config = checkConfig(entry.config === undefined ? {} : entry.config, operation, `${at}.config`)
    const systemPrompt = entry.systemPrompt === undefined ? null : checkSystemPrompt(check, entry.systemPrompt, `${at}.systemPrompt`)
    if (i === 0) first = buildPreset(ctx, { ...create, config, systemPrompt, ...(entry.createdAt !== undefined && create.createdAt === undefined && { createdAt: entry.createdAt }) }, checkConfig, operation)
    const base = first as PresetState
    const createdAt = entry.createdAt ?? base.createdAt
    let id: string
    if (entry.id !== undefined) {
      id = check.string(entry.id, `${at}.id`, UUID, 'a UUID').toLowerCase()
      if (id === base.id || taken(id) || built.some((v) => v.id === id)) throw new SimulatorError(SimulatorErrorCode.DuplicateId, `Failed to ${operation}: "${at}.id" ${id} is already taken.`, { argument: `${at}.id` })
    } else id = i === 0 ? (base.versions[0] as PresetVersionState).id : freshId(ctx, (candidate) => candidate === base.id || taken(candidate) || built.some((v) => v.id === candidate))
    built.push({ id, version: i + 1, config: deepFreeze(config), systemPrompt, createdAt })
  }
  const base = first as PresetState
  const latest = Math.max(...built.map((v) => v.createdAt))
  return { ...base, versions: built, updatedAt: updatedAt ?? Math.max(base.createdAt, latest) }
}

export function createPresetCollection(ctx: StoreContext, checkConfig: PresetConfigCheck): PresetCollection {
  return {
    create: (options) => atomically(ctx, () => presetWithVersion(writePreset(ctx, buildPreset(ctx, options, checkConfig)))),
    update: (ref, changes) =>
      atomically(ctx, () => {
        const operation = 'update preset'
        const preset = requirePreset(ctx, ref, operation)
        const check: ArgumentChecker = new ArgumentChecker(operation)
        check.knownFields(check.object(changes, 'changes'), UPDATE_FIELDS, '', 'a preset update', 'changes')
        // Everything is read before anything is written: a refused update changes nothing.
        const name = changes.name === undefined ? preset.name : check.string(changes.name, 'name')
        const description = changes.description === undefined ? preset.description : changes.description === null ? null : check.string(changes.description, 'description')
        const config = changes.config === undefined ? undefined : checkConfig(changes.config, operation, 'config')
        const systemPrompt = changes.systemPrompt === undefined ? undefined : checkSystemPrompt(check, changes.systemPrompt, 'systemPrompt')
        let next: PresetState = { ...preset, name, description, updatedAt: Math.max(preset.updatedAt, ctx.clock.nowMs()) }
        if (config !== undefined || systemPrompt !== undefined) {
          const current = currentVersion(preset)
          next = withNewVersion(ctx, next, config ?? current.config, systemPrompt === undefined ? current.systemPrompt : systemPrompt)
        }
        return presetWithVersion(writePreset(ctx, next))
      }),
    delete: (ref) => {
      const preset = requirePreset(ctx, ref, 'delete preset')
      remove(ctx, 'presets', presetScopeKey(preset.userId, preset.slug))
    },
    get: (ref) => {
      try {
        return presetWithVersion(requirePreset(ctx, ref, 'get preset'))
      } catch (error) {
        if (error instanceof SimulatorError && error.code === SimulatorErrorCode.UnknownPreset) return undefined
        throw error
      }
    },
    list: () => presetsOf(ctx, null).map(presetWire),
    versions: (ref) => {
      const preset = requirePreset(ctx, ref, 'list preset versions')
      return preset.versions.map((version) => versionWire(preset, version))
    },
  }
}
