import { describe } from '../describe.js'
import { ApiError, invalidArgument, SimulatorError, SimulatorErrorCode } from '../errors.js'
import { type InstantInput, formatTimestamp, parseInstant, toEpochMs } from '../time.js'
import type { Workspace } from '../types.js'
import { ArgumentChecker, fieldsOf, UUID, withoutFields } from './check.js'
import { type StoreContext, atomically } from './context.js'
import { put, remove } from './versions.js'
import { defaultGuardrailOf, deleteGuardrail, writeGuardrail } from './guardrail-rows.js'
import type { UserState, WorkspaceState } from './state.js'

export interface CreateWorkspaceOptions {
  /** The organisation that owns the workspace. */
  userId: string
  name: string
  /** Lower-case words joined by `-`; derived from `name` when absent. Unique within the organisation. */
  slug?: string | undefined
  /** A UUID; generated when absent. */
  id?: string | undefined
  description?: string | null | undefined
  defaultTextModel?: string | null | undefined
  defaultImageModel?: string | null | undefined
  defaultProviderSort?: string | null | undefined
  /** UUID of the workspace's default guardrail; generated when absent. */
  defaultGuardrailId?: string | undefined
  createdAt?: InstantInput | undefined
  /** Default null: never updated. */
  updatedAt?: InstantInput | null | undefined
  /** The member who made it (`created_by`); default: `userId`. */
  createdBy?: string | null | undefined
  /** Default false. */
  includeByokInBudgets?: boolean | undefined
  /** Default null. */
  ioLoggingApiKeyIds?: number[] | null | undefined
  /** From 0 to 1; default 1. */
  ioLoggingSamplingRate?: number | undefined
  /** Default true. */
  isDataDiscountLoggingEnabled?: boolean | undefined
  /** Default false. */
  isObservabilityBroadcastEnabled?: boolean | undefined
  /** Default false. */
  isObservabilityIoLoggingEnabled?: boolean | undefined
}

/** The fields of an organisation's default workspace that `sim.users.create` takes. */
export type DefaultWorkspaceOptions = Partial<Omit<CreateWorkspaceOptions, 'userId' | 'id' | 'defaultGuardrailId'>>

/** The fields of {@link CreateWorkspaceOptions}, in the order its type lists them. */
export const WORKSPACE_FIELDS = fieldsOf<CreateWorkspaceOptions>({
  userId: true,
  name: true,
  slug: true,
  id: true,
  description: true,
  defaultTextModel: true,
  defaultImageModel: true,
  defaultProviderSort: true,
  defaultGuardrailId: true,
  createdAt: true,
  updatedAt: true,
  createdBy: true,
  includeByokInBudgets: true,
  ioLoggingApiKeyIds: true,
  ioLoggingSamplingRate: true,
  isDataDiscountLoggingEnabled: true,
  isObservabilityBroadcastEnabled: true,
  isObservabilityIoLoggingEnabled: true,
})

/** The fields of {@link DefaultWorkspaceOptions}: a workspace's, less those `sim.users.create` sets itself. */
export const DEFAULT_WORKSPACE_FIELDS = withoutFields<CreateWorkspaceOptions>(WORKSPACE_FIELDS, 'userId', 'id', 'defaultGuardrailId')

/** Lower-case letters and digits in words joined by single `-`: what {@link slugify} makes. */
export const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/

/**
 * What `sim.workspaces.update` may change: the fields `PATCH /workspaces/{id}` takes, in camelCase,
 * and `includeByokInBudgets` (which the wire sets through the budgets). `updated_at` becomes the
 * clock's now.
 *
 * @example
 * import { createSimulator } from 'model-access-sim'
 * const sim = createSimulator({ world: 'empty' })
 * const org = sim.users.create({ name: 'Acme' })
 * const lab = sim.workspaces.create({ userId: org.id, name: 'Lab' })
 * sim.clock.advance(60_000)
 * const renamed = sim.workspaces.update({ userId: org.id, slug: 'lab' }, { name: 'Research Lab', slug: 'research' })
 * console.log(renamed.id === lab.id, renamed.slug, renamed.updated_at !== null)
 * //=> true research true
 * try {
 *   sim.workspaces.update(lab.id, { slug: 'default' })
 * } catch (error) {
 *   console.log(error.code, error.argument)
 * }
 * //=> DUPLICATE_SLUG slug
 */
export interface UpdateWorkspaceOptions {
  name?: string | undefined
  /** Lower-case words joined by `-`; unique within the organisation. */
  slug?: string | undefined
  description?: string | null | undefined
  defaultTextModel?: string | null | undefined
  defaultImageModel?: string | null | undefined
  defaultProviderSort?: string | null | undefined
  includeByokInBudgets?: boolean | undefined
  ioLoggingApiKeyIds?: number[] | null | undefined
  /** From 0 to 1. */
  ioLoggingSamplingRate?: number | undefined
  isDataDiscountLoggingEnabled?: boolean | undefined
  isObservabilityBroadcastEnabled?: boolean | undefined
  isObservabilityIoLoggingEnabled?: boolean | undefined
}

/**
 * How `sim.workspaces.delete` is asked.
 *
 * @example
 * import { createSimulator } from 'model-access-sim'
 * const sim = createSimulator({ world: 'empty' })
 * const org = sim.users.create({ name: 'Acme' })
 * const lab = sim.workspaces.create({ userId: org.id, name: 'Lab' })
 * sim.workspaces.delete(lab.id)
 * console.log(sim.workspaces.get(lab.id) === undefined)
 * //=> true
 * try {
 *   sim.workspaces.delete(org.defaultWorkspaceId)
 * } catch (error) {
 *   console.log(error.code, error.argument)
 * }
 * //=> INVALID_ARGUMENT confirmDefaultWorkspaceDeletion
 * sim.workspaces.delete(org.defaultWorkspaceId, { confirmDefaultWorkspaceDeletion: true })
 * console.log(sim.users.get(org.id)?.defaultWorkspaceId)
 * //=> null
 */
export interface DeleteWorkspaceOptions {
  /** Required to delete an organisation's default workspace, as the wire's `confirm_default_workspace_deletion=true`. */
  confirmDefaultWorkspaceDeletion?: boolean | undefined
}

/**
 * A workspace as the programmatic API names it: its UUID (any case), or its slug together with
 * the organisation (a slug is unique only within one).
 */
export type WorkspaceRef = string | { userId: string; slug: string }

export const UPDATABLE = fieldsOf<UpdateWorkspaceOptions>({
  name: true,
  slug: true,
  description: true,
  defaultTextModel: true,
  defaultImageModel: true,
  defaultProviderSort: true,
  includeByokInBudgets: true,
  ioLoggingApiKeyIds: true,
  ioLoggingSamplingRate: true,
  isDataDiscountLoggingEnabled: true,
  isObservabilityBroadcastEnabled: true,
  isObservabilityIoLoggingEnabled: true,
})

/** The fields of a workspace record an update may change. */
export type WorkspaceChanges = Partial<
  Pick<
    Workspace,
    | 'name'
    | 'slug'
    | 'description'
    | 'default_text_model'
    | 'default_image_model'
    | 'default_provider_sort'
    | 'include_byok_in_budgets'
    | 'io_logging_api_key_ids'
    | 'io_logging_sampling_rate'
    | 'is_data_discount_logging_enabled'
    | 'is_observability_broadcast_enabled'
    | 'is_observability_io_logging_enabled'
  >
>

export interface WorkspaceCollection {
  /**
   * Creates a workspace in an organisation and returns its wire record. A field that is not one of
   * {@link CreateWorkspaceOptions} throws an INVALID_ARGUMENT SimulatorError naming it.
   */
  create(options: CreateWorkspaceOptions): Workspace
  /**
   * Every workspace, as `GET /workspaces/{id}` shows it, oldest first: by `created_at`, then by id.
   * A simulator loaded from `exportWorld()` lists them in the same order.
   */
  list(): Workspace[]
  /** One workspace by UUID, or undefined (also for null: a user's deleted default). */
  get(id: string | null): Workspace | undefined
  /**
   * Changes a workspace as `PATCH /workspaces/{id}` does and returns its wire record, `updated_at`
   * at the clock's now. `workspace` is its UUID, or `{ userId, slug }`. An unknown workspace throws
   * UNKNOWN_WORKSPACE (argument `workspace`), a slug another workspace of the organisation has
   * throws DUPLICATE_SLUG (argument `slug`), a bad or unknown field INVALID_ARGUMENT naming it;
   * a refused update changes nothing.
   */
  update(workspace: WorkspaceRef, changes: UpdateWorkspaceOptions): Workspace
  /**
   * Deletes a workspace as `DELETE /workspaces/{id}` does, with the files it holds, and returns
   * its last wire record. Refused, changing nothing, with a SimulatorError: UNKNOWN_WORKSPACE
   * (argument `workspace`); WORKSPACE_HAS_KEYS (argument `workspace`) while any key, disabled or
   * management keys included, is in it; INVALID_ARGUMENT naming `confirmDefaultWorkspaceDeletion`
   * for the organisation's default workspace unless that option is true. Once the default is
   * deleted the organisation has none (`defaultWorkspaceId` null): creates and requests that
   * would fall back to it must name a workspace (decisions/0022).
   */
  delete(workspace: WorkspaceRef, options?: DeleteWorkspaceOptions): Workspace
}

/** Lower-case words joined by `-`, as workspace slugs are written; `workspace` when nothing is left. */
export function slugify(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
    .replace(/-+$/, '')
  return slug || 'workspace'
}

/**
 * Validates and builds a workspace without writing it; `insertWorkspace` commits it. The owner's
 * existence is the caller's to check: `users.create` builds the default workspace of a user that
 * does not exist yet.
 */
export function buildWorkspace(ctx: StoreContext, options: CreateWorkspaceOptions, operation = 'create workspace'): WorkspaceState {
  const check: ArgumentChecker = new ArgumentChecker(operation)
  check.object(options, 'options')
  const userId = check.string(options.userId, 'userId')
  const name = check.string(options.name, 'name')
  const taken = ctx.indices.workspaceIdBySlug.get(userId)
  let slug: string
  if (options.slug !== undefined) {
    slug = check.string(options.slug, 'slug', SLUG, 'lower-case words joined by "-" (such as "production")')
    if (UUID.test(slug)) check.fail('slug', 'must not look like a UUID, or GET /workspaces/{id} could not tell them apart')
    if (taken?.has(slug)) {
      throw new SimulatorError(
        SimulatorErrorCode.DuplicateSlug,
        `Failed to create workspace: slug "${slug}" is already used by another workspace of user "${userId}".`,
        { argument: 'slug' },
      )
    }
  } else {
    // A name that is a UUID would make a slug GET /workspaces/{id} reads as an id.
    const derived = slugify(name)
    const base = UUID.test(derived) ? `workspace-${derived}` : derived
    slug = base
    for (let n = 2; taken?.has(slug); n++) slug = `${base}-${n}`
  }
  let id: string
  if (options.id !== undefined) {
    id = check.string(options.id, 'id', UUID, 'a UUID such as "550e8400-e29b-41d4-a716-446655440000"').toLowerCase()
    if (ctx.data.workspaces.has(id)) {
      throw new SimulatorError(SimulatorErrorCode.DuplicateId, `Failed to create workspace: id "${id}" is already taken.`, { argument: 'id' })
    }
  } else {
    do id = ctx.random.uuid()
    while (ctx.data.workspaces.has(id))
  }
  const nullableString = (value: unknown, argument: string): string | null =>
    value === undefined || value === null ? null : check.string(value, argument)
  const description = nullableString(options.description, 'description')
  const defaultTextModel = nullableString(options.defaultTextModel, 'defaultTextModel')
  const defaultImageModel = nullableString(options.defaultImageModel, 'defaultImageModel')
  const defaultProviderSort = nullableString(options.defaultProviderSort, 'defaultProviderSort')
  const createdAt = options.createdAt === undefined ? ctx.clock.nowMs() : toEpochMs(options.createdAt, operation, 'createdAt')
  const updatedAt = options.updatedAt === undefined || options.updatedAt === null ? null : toEpochMs(options.updatedAt, operation, 'updatedAt')
  const flag = (value: unknown, argument: string, fallback: boolean): boolean => (value === undefined ? fallback : check.boolean(value, argument))
  const keyIds = options.ioLoggingApiKeyIds
  if (keyIds !== undefined && keyIds !== null && (!Array.isArray(keyIds) || !keyIds.every((id) => Number.isSafeInteger(id)))) {
    check.fail('ioLoggingApiKeyIds', `must be an array of integers or null, got ${describe(keyIds)}`)
  }
  const samplingRate = options.ioLoggingSamplingRate === undefined ? 1 : check.nonNegative(options.ioLoggingSamplingRate, 'ioLoggingSamplingRate')
  if (samplingRate > 1) check.fail('ioLoggingSamplingRate', `must be from 0 to 1, got ${samplingRate}`)
  const guardrailId =
    options.defaultGuardrailId === undefined
      ? ctx.random.uuid()
      : check.string(options.defaultGuardrailId, 'defaultGuardrailId', UUID, 'a UUID such as "550e8400-e29b-41d4-a716-446655440000"').toLowerCase()
  return {
    userId,
    record: {
      id,
      name,
      slug,
      description,
      created_at: formatTimestamp(createdAt),
      updated_at: updatedAt === null ? null : formatTimestamp(updatedAt),
      created_by: options.createdBy === undefined ? userId : nullableString(options.createdBy, 'createdBy'),
      default_guardrail_id: guardrailId,
      default_image_model: defaultImageModel,
      default_text_model: defaultTextModel,
      default_provider_sort: defaultProviderSort,
      include_byok_in_budgets: flag(options.includeByokInBudgets, 'includeByokInBudgets', false),
      io_logging_api_key_ids: keyIds === undefined || keyIds === null ? null : [...keyIds],
      io_logging_sampling_rate: samplingRate,
      is_data_discount_logging_enabled: flag(options.isDataDiscountLoggingEnabled, 'isDataDiscountLoggingEnabled', true),
      is_observability_broadcast_enabled: flag(options.isObservabilityBroadcastEnabled, 'isObservabilityBroadcastEnabled', false),
      is_observability_io_logging_enabled: flag(options.isObservabilityIoLoggingEnabled, 'isObservabilityIoLoggingEnabled', false),
    },
  }
}

export function insertWorkspace(ctx: StoreContext, state: WorkspaceState): void {
  put(ctx, 'workspaces', state.record.id, state)
  // The guardrail its `default_guardrail_id` names, with no rules until someone gives it some (decisions/0055).
  if (!ctx.data.guardrails.has(state.record.default_guardrail_id)) writeGuardrail(ctx, defaultGuardrailOf(state, parseInstant(state.record.created_at) ?? ctx.clock.nowMs()))
}

/** A workspace of `userId` by UUID (any case) or slug; another organisation's is not found. */
export function findWorkspace(ctx: StoreContext, userId: string, idOrSlug: string): WorkspaceState | undefined {
  const byId = UUID.test(idOrSlug) ? ctx.data.workspaces.get(idOrSlug.toLowerCase()) : undefined
  if (byId) return byId.userId === userId ? byId : undefined
  const id = ctx.indices.workspaceIdBySlug.get(userId)?.get(idOrSlug)
  return id === undefined ? undefined : ctx.data.workspaces.get(id)
}

export function createWorkspaceCollection(ctx: StoreContext): WorkspaceCollection {
  return {
    create: (options) =>
      atomically(ctx, () => {
        const check = new ArgumentChecker('create workspace')
        check.knownFields(check.object(options, 'options'), WORKSPACE_FIELDS, '', 'a workspace')
        requireUser(ctx, options.userId, 'create workspace')
        const state = buildWorkspace(ctx, options)
        insertWorkspace(ctx, state)
        return structuredClone(state.record)
      }),
    list: () => {
      // Not the store's insertion order: a world loads each user's default workspace before every
      // other workspace, wherever the user was created, so that order would change across a reload.
      const dated = [...ctx.data.workspaces.values()].map((w) => ({ ms: parseInstant(w.record.created_at) ?? 0, record: w.record }))
      dated.sort((a, b) => a.ms - b.ms || (a.record.id < b.record.id ? -1 : a.record.id > b.record.id ? 1 : 0))
      return dated.map((w) => structuredClone(w.record))
    },
    get: (id) => {
      const state = typeof id === 'string' ? ctx.data.workspaces.get(id.toLowerCase()) : undefined
      return state && structuredClone(state.record)
    },
    update: (workspace, changes) => {
      const operation = 'update workspace'
      const state = requireWorkspace(ctx, workspace, operation)
      const check: ArgumentChecker = new ArgumentChecker(operation)
      check.knownFields(check.object(changes, 'changes'), UPDATABLE, '', 'a workspace update', 'changes')
      // Read everything before writing anything, so a bad field changes nothing.
      const next: WorkspaceChanges = {}
      const nullableString = (value: unknown, argument: string): string | null => (value === null ? null : check.string(value, argument))
      if (changes.name !== undefined) next.name = check.string(changes.name, 'name')
      if (changes.slug !== undefined) next.slug = checkSlug(check, changes.slug)
      if (changes.description !== undefined) next.description = nullableString(changes.description, 'description')
      if (changes.defaultTextModel !== undefined) next.default_text_model = nullableString(changes.defaultTextModel, 'defaultTextModel')
      if (changes.defaultImageModel !== undefined) next.default_image_model = nullableString(changes.defaultImageModel, 'defaultImageModel')
      if (changes.defaultProviderSort !== undefined) next.default_provider_sort = nullableString(changes.defaultProviderSort, 'defaultProviderSort')
      if (changes.includeByokInBudgets !== undefined) next.include_byok_in_budgets = check.boolean(changes.includeByokInBudgets, 'includeByokInBudgets')
      if (changes.ioLoggingApiKeyIds !== undefined) next.io_logging_api_key_ids = checkKeyIds(check, changes.ioLoggingApiKeyIds)
      if (changes.ioLoggingSamplingRate !== undefined) next.io_logging_sampling_rate = checkSamplingRate(check, changes.ioLoggingSamplingRate)
      const flags = ['isDataDiscountLoggingEnabled', 'isObservabilityBroadcastEnabled', 'isObservabilityIoLoggingEnabled'] as const
      const wire = { isDataDiscountLoggingEnabled: 'is_data_discount_logging_enabled', isObservabilityBroadcastEnabled: 'is_observability_broadcast_enabled', isObservabilityIoLoggingEnabled: 'is_observability_io_logging_enabled' } as const
      for (const flag of flags) if (changes[flag] !== undefined) next[wire[flag]] = check.boolean(changes[flag], flag)
      if (next.slug !== undefined && slugHolder(ctx, state.userId, next.slug, state.record.id) !== undefined) throw duplicateSlug(operation, next.slug, state.userId)
      return structuredClone(updateWorkspace(ctx, state, next).record)
    },
    delete: (workspace, options = {}) => {
      const operation = 'delete workspace'
      const state = requireWorkspace(ctx, workspace, operation)
      const check: ArgumentChecker = new ArgumentChecker(operation)
      check.knownFields(check.object(options, 'options'), DELETE_FIELDS, '', 'the delete options')
      const confirmed = options.confirmDefaultWorkspaceDeletion === undefined ? false : check.boolean(options.confirmDefaultWorkspaceDeletion, 'confirmDefaultWorkspaceDeletion')
      if (isDefaultWorkspace(ctx, state) && !confirmed) {
        check.fail('confirmDefaultWorkspaceDeletion', `must be true to delete the default workspace of user "${state.userId}"`)
      }
      const keys = workspaceKeyCount(ctx, state.record.id)
      if (keys > 0) {
        throw new SimulatorError(
          SimulatorErrorCode.WorkspaceHasKeys,
          `Failed to ${operation}: workspace "${state.record.slug}" holds ${keys} API key${keys === 1 ? '' : 's'}; delete them first.`,
          { argument: 'workspace', details: { keyCount: keys } },
        )
      }
      deleteWorkspace(ctx, state)
      return structuredClone(state.record)
    },
  }
}

export const DELETE_FIELDS = fieldsOf<DeleteWorkspaceOptions>({ confirmDefaultWorkspaceDeletion: true })

/** The workspace a programmatic call names, or UNKNOWN_WORKSPACE naming `workspace`. */
export function requireWorkspace(ctx: StoreContext, workspace: unknown, operation: string): WorkspaceState {
  let found: WorkspaceState | undefined
  if (typeof workspace === 'string') found = UUID.test(workspace) ? ctx.data.workspaces.get(workspace.toLowerCase()) : undefined
  else if (typeof workspace === 'object' && workspace !== null && !Array.isArray(workspace)) {
    const check = new ArgumentChecker(operation)
    check.knownFields(workspace, REF_FIELDS, 'workspace', 'a workspace reference')
    const { userId, slug } = workspace as Record<string, unknown>
    found = findWorkspace(ctx, check.string(userId, 'workspace.userId'), check.string(slug, 'workspace.slug'))
    if (found?.record.slug !== slug) found = undefined
  } else {
    throw invalidArgument(operation, 'workspace', `must be a workspace UUID or { userId, slug }, got ${describe(workspace)}`)
  }
  if (!found) {
    // A slug alone names no workspace (two organisations may share one): say what does.
    const hint = typeof workspace === 'string' && !UUID.test(workspace) ? ': it is not a UUID; name a workspace by its id, or by { userId, slug }' : ''
    throw new SimulatorError(SimulatorErrorCode.UnknownWorkspace, `Failed to ${operation}: "workspace" ${describe(workspace)} names no workspace${hint}.`, { argument: 'workspace' })
  }
  return found
}

const REF_FIELDS = new Set(['userId', 'slug'])

function duplicateSlug(operation: string, slug: string, userId: string): SimulatorError {
  return new SimulatorError(
    SimulatorErrorCode.DuplicateSlug,
    `Failed to ${operation}: slug "${slug}" is already used by another workspace of user "${userId}".`,
    { argument: 'slug' },
  )
}

function checkSlug(check: ArgumentChecker, value: unknown): string {
  const slug = check.string(value, 'slug', SLUG, 'lower-case words joined by "-" (such as "production")')
  if (UUID.test(slug)) check.fail('slug', 'must not look like a UUID, or GET /workspaces/{id} could not tell them apart')
  return slug
}

function checkKeyIds(check: ArgumentChecker, keyIds: unknown): number[] | null {
  if (keyIds === null) return null
  if (!Array.isArray(keyIds) || !keyIds.every((id) => Number.isSafeInteger(id))) check.fail('ioLoggingApiKeyIds', `must be an array of integers or null, got ${describe(keyIds)}`)
  return [...(keyIds as number[])]
}

function checkSamplingRate(check: ArgumentChecker, value: unknown): number {
  const rate = check.nonNegative(value, 'ioLoggingSamplingRate')
  if (rate > 1) check.fail('ioLoggingSamplingRate', `must be from 0 to 1, got ${rate}`)
  return rate
}

/** The id of `userId`'s workspace that has `slug`, other than `exceptId`; undefined when it is free. */
export function slugHolder(ctx: StoreContext, userId: string, slug: string, exceptId?: string): string | undefined {
  const id = ctx.indices.workspaceIdBySlug.get(userId)?.get(slug)
  return id === exceptId ? undefined : id
}

/** Writes `changes` (already checked) to a workspace, `updated_at` at the clock's now, and returns the new state. */
export function updateWorkspace(ctx: StoreContext, state: WorkspaceState, changes: WorkspaceChanges): WorkspaceState {
  const updated: WorkspaceState = { userId: state.userId, record: { ...state.record, ...changes, updated_at: formatTimestamp(ctx.clock.nowMs()) } }
  put(ctx, 'workspaces', state.record.id, updated)
  return updated
}

/** Whether a workspace is its organisation's default. */
export function isDefaultWorkspace(ctx: StoreContext, state: WorkspaceState): boolean {
  return ctx.data.users.get(state.userId)?.defaultWorkspaceId === state.record.id
}

/**
 * How many keys a workspace holds: listable ones (enabled or disabled) from the page index, and
 * management keys, which no index holds by workspace, counted over the store (a delete is rare).
 */
export function workspaceKeyCount(ctx: StoreContext, workspaceId: string): number {
  let count = ctx.indices.listableKeys.get(workspaceId)?.all.size ?? 0
  for (const key of ctx.data.keys.values()) if (key.management && key.workspaceId === workspaceId) count++
  return count
}

/**
 * Deletes a workspace the caller has found deletable, with its files; deleting an organisation's
 * default leaves it without one (decisions/0022).
 */
export function deleteWorkspace(ctx: StoreContext, state: WorkspaceState): void {
  const id = state.record.id
  for (const [scope, file] of ctx.data.files) if (file.workspaceId === id) remove(ctx, 'files', scope)
  // Its budgets go with it, as the service deletes them (decisions/0052).
  for (const [scope, budget] of ctx.data.budgets) if (budget.workspaceId === id) remove(ctx, 'budgets', scope)
  // Its members stay members of the organisation; only their place in it goes (decisions/0051).
  for (const [scope, membership] of ctx.data.workspaceMembers) if (membership.workspaceId === id) remove(ctx, 'workspaceMembers', scope)
  // Its default guardrail too, with its assignments (decisions/0055); other guardrails placed in it stay.
  const guardrail = ctx.data.guardrails.get(state.record.default_guardrail_id)
  if (guardrail !== undefined && guardrail.workspaceId === id) deleteGuardrail(ctx, guardrail)
  // Its BYOK credentials too (a global one, workspace null, stays): none may name a workspace that is gone (decisions/0054).
  for (const [credentialId, credential] of ctx.data.byok) if (credential.workspaceId === id) remove(ctx, 'byok', credentialId)
  remove(ctx, 'workspaces', id)
  const user = ctx.data.users.get(state.userId)
  if (user !== undefined && user.defaultWorkspaceId === id) put(ctx, 'users', user.id, { ...user, defaultWorkspaceId: null })
}

/** Throws UNKNOWN_USER unless `userId` names an organisation of this simulator. */
export function requireUser(ctx: StoreContext, userId: unknown, operation: string): string {
  const id = new ArgumentChecker(operation).string(userId, 'userId')
  if (!ctx.data.users.has(id)) {
    throw new SimulatorError(
      SimulatorErrorCode.UnknownUser,
      `Failed to ${operation}: "userId" names an unknown user "${id}". Create it with sim.users.create() first.`,
      { argument: 'userId' },
    )
  }
  return id
}

/** The default workspace of a user the caller has already found; null once it has been deleted. */
export function defaultWorkspaceId(ctx: StoreContext, userId: string): string | null {
  return (ctx.data.users.get(userId) as UserState).defaultWorkspaceId
}

/**
 * The workspace a request without `workspace_id` means: the caller's default, or a 400 naming
 * `workspace_id` when the organisation has deleted its default (decisions/0022).
 */
export function defaultWorkspaceParam(ctx: StoreContext, userId: string): string {
  const id = defaultWorkspaceId(ctx, userId)
  if (id === null) throw ApiError.badParameter('workspace_id', "is required: the organisation's default workspace has been deleted")
  return id
}

/** The workspace a create targets: `workspaceId` if it is one of the user's, else the user's default. */
export function resolveWorkspaceId(ctx: StoreContext, userId: string, workspaceId: unknown, operation: string): string {
  if (workspaceId === undefined) {
    const fallback = defaultWorkspaceId(ctx, userId)
    if (fallback === null) {
      throw new SimulatorError(
        SimulatorErrorCode.UnknownWorkspace,
        `Failed to ${operation}: user "${userId}" has no default workspace (it was deleted); pass "workspaceId".`,
        { argument: 'workspaceId' },
      )
    }
    return fallback
  }
  const wanted = new ArgumentChecker(operation).string(workspaceId, 'workspaceId').toLowerCase()
  const workspace = ctx.data.workspaces.get(wanted)
  if (!workspace || workspace.userId !== userId) {
    throw new SimulatorError(
      SimulatorErrorCode.UnknownWorkspace,
      `Failed to ${operation}: "workspaceId" ${describe(workspaceId)} is not a workspace of user "${userId}".`,
      { argument: 'workspaceId' },
    )
  }
  return wanted
}
