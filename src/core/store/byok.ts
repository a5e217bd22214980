// BYOK provider credentials (decisions/0054): an organisation's own keys for an upstream provider,
// in one workspace or (workspace null) in every workspace of the organisation. The raw key is kept
// as state, so a rotation is visible to a test, and never answered: the wire shows `label`, its
// masked form. The money path serves an endpoint through the first credential that applies
// (inference/byok.ts).
import { SimulatorError, SimulatorErrorCode } from '../errors.js'
import { type InstantInput, formatTimestamp, toEpochMs } from '../time.js'
import { ArgumentChecker, fieldsOf, UUID } from './check.js'
import { type StoreContext, atomically } from './context.js'
import { maskSecret } from './mask.js'
import type { ByokState } from './state.js'
import { put, remove } from './versions.js'
import { requireUser, resolveWorkspaceId } from './workspaces.js'

/** A provider slug as the service writes one: lowercase letters, digits, `-`, `.` and `_` (`google-vertex`, `z-ai`). */
export const PROVIDER_SLUG = /^[a-z0-9]+(?:[-._][a-z0-9]+)*$/

/**
 * A BYOK credential as `GET /byok/{id}` answers it (`data`): never the raw key, only `label`.
 *
 * @example
 * import { createSimulator } from 'model-access-sim'
 * const sim = createSimulator()
 * const res = sim.handle({
 *   method: 'POST',
 *   path: '/byok',
 *   authorization: `Bearer ${sim.world.managementKey}`,
 *   body: JSON.stringify({ provider: 'openai', key: 'sk-proj-0123456789abcdef' }),
 * })
 * const { data } = res.body as { data: { provider: string; label: string; sort_order: number } }
 * console.log(res.status, data.provider, data.label, data.sort_order)
 * //=> 201 openai sk-...cdef 0
 */
export interface ByokKey {
  id: string
  provider: string
  /** The raw key, masked. */
  label: string
  name?: string | null
  /** Null: a credential of every workspace of the organisation. */
  workspace_id: string | null
  allowed_api_key_hashes: string[] | null
  allowed_models: string[] | null
  allowed_user_ids: string[] | null
  declared_zdr: boolean | null
  disabled: boolean
  is_byok_only: boolean
  is_fallback: boolean
  is_required: boolean
  sort_order: number
  created_at: string
}

/**
 * What `sim.byok.create` takes. `workspace`: a workspace UUID, `null` for a credential of every
 * workspace of the organisation, absent for the organisation's default workspace.
 *
 * @example
 * import { createSimulator } from 'model-access-sim'
 * const sim = createSimulator()
 * const credential = sim.byok.create({ userId: sim.world.userId, provider: 'anthropic', key: 'sk-ant-0123456789', workspace: null })
 * console.log(credential.workspace_id, credential.is_fallback)
 * //=> null false
 */
export interface CreateByokOptions {
  /** The organisation. */
  userId: string
  provider: string
  /** The raw provider key: kept, never answered. */
  key: string
  workspace?: string | null | undefined
  name?: string | null | undefined
  allowedApiKeyHashes?: string[] | null | undefined
  allowedModels?: string[] | null | undefined
  allowedUserIds?: string[] | null | undefined
  declaredZdr?: boolean | null | undefined
  disabled?: boolean | undefined
  isByokOnly?: boolean | undefined
  isFallback?: boolean | undefined
  isRequired?: boolean | undefined
  /** Default: one past the highest of the same provider in the same scope (0 for the first). */
  sortOrder?: number | undefined
  /** A UUID; generated when absent. */
  id?: string | undefined
  /** Default: the clock's now. */
  createdAt?: InstantInput | undefined
}

/**
 * What `sim.byok.update` changes: `key` rotates the raw key (and so `label`); `null` clears a list.
 *
 * @example
 * import { createSimulator } from 'model-access-sim'
 * const sim = createSimulator()
 * const { id } = sim.byok.create({ userId: sim.world.userId, provider: 'openai', key: 'sk-old-0000000000' })
 * console.log(sim.byok.update(id, { key: 'sk-new-1111111111', isFallback: true }).label)
 * //=> sk...111
 */
export type UpdateByokOptions = Partial<Pick<CreateByokOptions, 'key' | 'name' | 'allowedApiKeyHashes' | 'allowedModels' | 'allowedUserIds' | 'declaredZdr' | 'disabled' | 'isByokOnly' | 'isFallback' | 'isRequired' | 'sortOrder'>>

/**
 * `sim.byok`: the organisations' BYOK provider credentials (decisions/0054).
 *
 * @example
 * import { createSimulator } from 'model-access-sim'
 * const sim = createSimulator()
 * const made = sim.byok.create({ userId: sim.world.userId, provider: 'openai', key: 'sk-proj-0123456789' })
 * console.log(sim.byok.list().length, sim.byok.secret(made.id), sim.byok.delete(made.id), sim.byok.get(made.id))
 * //=> 1 sk-proj-0123456789 true undefined
 */
export interface ByokCollection {
  /** Stores a credential and returns it as the wire shows it; a bad option throws INVALID_ARGUMENT naming it. */
  create(options: CreateByokOptions): ByokKey
  get(id: string): ByokKey | undefined
  /** Every credential, oldest first; with `userId`, that organisation's only. */
  list(filter?: { userId?: string | undefined }): ByokKey[]
  /** Changes a credential; an unknown id throws UNKNOWN_BYOK. */
  update(id: string, changes: UpdateByokOptions): ByokKey
  /** Deletes a credential; returns whether there was one. */
  delete(id: string): boolean
  /** The raw key the credential holds (what the provider would be called with). */
  secret(id: string): string | undefined
}

export const CREATE_FIELDS = fieldsOf<CreateByokOptions>({
  userId: true, provider: true, key: true, workspace: true, name: true, allowedApiKeyHashes: true, allowedModels: true, allowedUserIds: true,
  declaredZdr: true, disabled: true, isByokOnly: true, isFallback: true, isRequired: true, sortOrder: true, id: true, createdAt: true,
})
export const UPDATE_FIELDS = fieldsOf<UpdateByokOptions>({
  key: true, name: true, allowedApiKeyHashes: true, allowedModels: true, allowedUserIds: true, declaredZdr: true, disabled: true, isByokOnly: true, isFallback: true, isRequired: true, sortOrder: true,
})

/** The credential as the wire shows it. */
export function byokWire(state: ByokState): ByokKey {
  return {
    id: state.id,
    provider: state.provider,
    label: maskSecret(state.key),
    name: state.name,
    workspace_id: state.workspaceId,
    allowed_api_key_hashes: state.allowedApiKeyHashes === null ? null : [...state.allowedApiKeyHashes],
    allowed_models: state.allowedModels === null ? null : [...state.allowedModels],
    allowed_user_ids: state.allowedUserIds === null ? null : [...state.allowedUserIds],
    declared_zdr: state.declaredZdr,
    disabled: state.disabled,
    is_byok_only: state.isByokOnly,
    is_fallback: state.isFallback,
    is_required: state.isRequired,
    sort_order: state.sortOrder,
    created_at: formatTimestamp(state.createdAt),
  }
}

/** An organisation's credentials, oldest first (then by id, so a reloaded world lists them alike). */
export function byokOf(ctx: StoreContext, userId: string | undefined): ByokState[] {
  const own = [...ctx.data.byok.values()].filter((c) => userId === undefined || c.userId === userId)
  return own.sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
}

/** The next `sort_order` of `provider` in the scope `workspaceId` of the organisation: one past the highest, 0 for the first. */
export function nextSortOrder(ctx: StoreContext, userId: string, workspaceId: string | null, provider: string): number {
  let next = 0
  for (const c of ctx.data.byok.values()) if (c.userId === userId && c.workspaceId === workspaceId && c.provider === provider) next = Math.max(next, c.sortOrder + 1)
  return next
}

function idTaken(ctx: StoreContext, id: string): boolean {
  return ctx.data.byok.has(id)
}

/** A fresh UUID no credential has (drawn from the seeded stream). */
export function freshByokId(ctx: StoreContext): string {
  let id: string
  do id = ctx.random.uuid()
  while (idTaken(ctx, id))
  return id
}

/** Stores a credential (checked already). */
export function writeByok(ctx: StoreContext, state: ByokState): ByokState {
  put(ctx, 'byok', state.id, state)
  return state
}

/** Deletes a credential; returns whether there was one. */
export function deleteByok(ctx: StoreContext, id: string): boolean {
  if (!ctx.data.byok.has(id)) return false
  remove(ctx, 'byok', id)
  return true
}

/** A list option: null, or an array of non-empty strings. */
function list(check: ArgumentChecker, value: unknown, argument: string): string[] | null {
  if (value === null) return null
  if (!Array.isArray(value)) check.fail(argument, 'must be an array of strings or null')
  return value.map((item, i) => check.string(item, `${argument}[${i}]`))
}

function sortOrder(check: ArgumentChecker, value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) check.fail('sortOrder', `must be a non-negative integer, got ${JSON.stringify(value)}`)
  return value
}

/** Applies checked `changes` to a credential: what update and create share. */
function applyChanges(check: ArgumentChecker, base: ByokState, changes: UpdateByokOptions): ByokState {
  const next = { ...base } as { -readonly [K in keyof ByokState]: ByokState[K] }
  if (changes.key !== undefined) next.key = check.string(changes.key, 'key')
  if (changes.name !== undefined) next.name = changes.name === null ? null : check.string(changes.name, 'name')
  if (changes.allowedApiKeyHashes !== undefined) next.allowedApiKeyHashes = list(check, changes.allowedApiKeyHashes, 'allowedApiKeyHashes')
  if (changes.allowedModels !== undefined) next.allowedModels = list(check, changes.allowedModels, 'allowedModels')
  if (changes.allowedUserIds !== undefined) next.allowedUserIds = list(check, changes.allowedUserIds, 'allowedUserIds')
  if (changes.declaredZdr !== undefined) next.declaredZdr = changes.declaredZdr === null ? null : check.boolean(changes.declaredZdr, 'declaredZdr')
  if (changes.disabled !== undefined) next.disabled = check.boolean(changes.disabled, 'disabled')
  if (changes.isByokOnly !== undefined) next.isByokOnly = check.boolean(changes.isByokOnly, 'isByokOnly')
  if (changes.isFallback !== undefined) next.isFallback = check.boolean(changes.isFallback, 'isFallback')
  if (changes.isRequired !== undefined) next.isRequired = check.boolean(changes.isRequired, 'isRequired')
  if (changes.sortOrder !== undefined) next.sortOrder = sortOrder(check, changes.sortOrder)
  return next
}

/**
 * Validates `sim.byok.create`'s options and stores the credential: what the programmatic API and
 * the world loader share. Throws a SimulatorError naming the bad option.
 */
export function createByokFromOptions(ctx: StoreContext, options: CreateByokOptions, operation = 'create BYOK credential'): ByokState {
  const check = new ArgumentChecker(operation)
  check.knownFields(check.object(options, 'options'), CREATE_FIELDS, '', 'a BYOK credential')
  const userId = requireUser(ctx, options.userId, operation)
  const provider = check.string(options.provider, 'provider', PROVIDER_SLUG, 'a lowercase provider slug such as "openai" or "google-vertex"')
  const key = check.string(options.key, 'key')
  const workspaceId = options.workspace === null ? null : resolveWorkspaceId(ctx, userId, options.workspace, operation)
  let id: string
  if (options.id !== undefined) {
    id = check.string(options.id, 'id', UUID, 'a UUID such as "550e8400-e29b-41d4-a716-446655440000"').toLowerCase()
    if (idTaken(ctx, id)) throw new SimulatorError(SimulatorErrorCode.DuplicateId, `Failed to ${operation}: id "${id}" is already taken.`, { argument: 'id' })
  } else id = freshByokId(ctx)
  const createdAt = options.createdAt === undefined ? ctx.clock.nowMs() : toEpochMs(options.createdAt, operation, 'createdAt')
  const base: ByokState = {
    id, userId, workspaceId, provider, key, name: null, allowedApiKeyHashes: null, allowedModels: null, allowedUserIds: null, declaredZdr: null,
    disabled: false, isByokOnly: false, isFallback: false, isRequired: false, sortOrder: 0, createdAt,
  }
  const { userId: _u, provider: _p, key: _k, workspace: _w, id: _i, createdAt: _c, ...changes } = options
  const state = applyChanges(check, base, changes)
  return writeByok(ctx, options.sortOrder === undefined ? { ...state, sortOrder: nextSortOrder(ctx, userId, workspaceId, provider) } : state)
}

/** Validates `sim.byok.update`'s changes and stores the changed credential. */
export function updateByokFromOptions(ctx: StoreContext, state: ByokState, changes: UpdateByokOptions, operation = 'update BYOK credential'): ByokState {
  const check = new ArgumentChecker(operation)
  check.knownFields(check.object(changes, 'changes'), UPDATE_FIELDS, '', 'a BYOK credential update', 'changes')
  return writeByok(ctx, applyChanges(check, state, changes))
}

export function createByokCollection(ctx: StoreContext): ByokCollection {
  const found = (id: unknown, operation: string): ByokState => {
    const state = ctx.data.byok.get(new ArgumentChecker(operation).string(id, 'id').toLowerCase())
    if (state === undefined) throw new SimulatorError(SimulatorErrorCode.UnknownByok, `Failed to ${operation}: no BYOK credential "${String(id)}".`, { argument: 'id' })
    return state
  }
  return {
    create: (options) => atomically(ctx, () => byokWire(createByokFromOptions(ctx, options))),
    get: (id) => {
      const state = typeof id === 'string' ? ctx.data.byok.get(id.toLowerCase()) : undefined
      return state === undefined ? undefined : byokWire(state)
    },
    list: (filter = {}) => byokOf(ctx, filter.userId).map(byokWire),
    update: (id, changes) => atomically(ctx, () => byokWire(updateByokFromOptions(ctx, found(id, 'update BYOK credential'), changes))),
    delete: (id) => (typeof id === 'string' ? deleteByok(ctx, id.toLowerCase()) : false),
    secret: (id) => (typeof id === 'string' ? ctx.data.byok.get(id.toLowerCase())?.key : undefined),
  }
}
