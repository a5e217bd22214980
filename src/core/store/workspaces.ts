import { describe } from '../describe.js'
import { SimulatorError, SimulatorErrorCode } from '../errors.js'
import { type InstantInput, formatTimestamp, parseInstant, toEpochMs } from '../time.js'
import type { Workspace } from '../types.js'
import { ArgumentChecker, fieldsOf, UUID, withoutFields } from './check.js'
import { type StoreContext, atomically } from './context.js'
import { put } from './versions.js'
import type { UserState, WorkspaceState } from './state.js'

export interface CreateWorkspaceOptions {
  /** The organisation that owns the workspace. */
  userId: string
  name: string
  /** Lower-case words joined by `-`; derived from `name` when absent. Unique within the organisation. */
  slug?: string
  /** A UUID; generated when absent. */
  id?: string
  description?: string | null
  defaultTextModel?: string | null
  defaultImageModel?: string | null
  defaultProviderSort?: string | null
  /** UUID of the workspace's default guardrail; generated when absent. */
  defaultGuardrailId?: string
  createdAt?: InstantInput
  /** Default null: never updated. */
  updatedAt?: InstantInput | null
  /** The member who made it (`created_by`); default: `userId`. */
  createdBy?: string | null
  /** Default false. */
  includeByokInBudgets?: boolean
  /** Default null. */
  ioLoggingApiKeyIds?: number[] | null
  /** From 0 to 1; default 1. */
  ioLoggingSamplingRate?: number
  /** Default true. */
  isDataDiscountLoggingEnabled?: boolean
  /** Default false. */
  isObservabilityBroadcastEnabled?: boolean
  /** Default false. */
  isObservabilityIoLoggingEnabled?: boolean
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

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/

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
  /** One workspace by UUID, or undefined. */
  get(id: string): Workspace | undefined
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
  }
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

/** The default workspace of a user the caller has already found (every user has one). */
export function defaultWorkspaceId(ctx: StoreContext, userId: string): string {
  return (ctx.data.users.get(userId) as UserState).defaultWorkspaceId
}

/** The workspace a create targets: `workspaceId` if it is one of the user's, else the user's default. */
export function resolveWorkspaceId(ctx: StoreContext, userId: string, workspaceId: unknown, operation: string): string {
  if (workspaceId === undefined) return defaultWorkspaceId(ctx, userId)
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
