import { SimulatorError, SimulatorErrorCode } from '../errors.js'
import { type InstantInput, toEpochMs } from '../time.js'
import { ArgumentChecker, fieldsOf, UUID } from './check.js'
import { type StoreContext, atomically } from './context.js'
import { put } from './versions.js'
import { toBigUnits } from '../usage.js'
import { withoutUndefinedFields } from '../json-data.js'
import { DEFAULT_WORKSPACE } from './defaults.js'
import type { UserState } from './state.js'
import { buildWorkspace, DEFAULT_WORKSPACE_FIELDS, type DefaultWorkspaceOptions, insertWorkspace } from './workspaces.js'

export interface CreateUserOptions {
  /** Display name of the organisation. */
  name?: string | undefined
  /** An id such as `user_2dHFtVWx2n56w6HkM0000000000`; generated when absent. */
  id?: string | undefined
  createdAt?: InstantInput | undefined
  /**
   * UUID of the default workspace created with the user; generated when absent. Null: the
   * organisation has no default workspace, as after it was deleted (decisions/0022); then
   * `defaultWorkspace` and `defaultWorkspaceGuardrailId` must be absent.
   */
  defaultWorkspaceId?: string | null | undefined
  /** UUID of that default workspace's default guardrail; generated when absent. */
  defaultWorkspaceGuardrailId?: string | undefined
  /** The default workspace's other fields; default: "Default Workspace", slug `default`, made with the user. */
  defaultWorkspace?: DefaultWorkspaceOptions | undefined
  /**
   * The organisation's credits: `total` USD bought (default 0, as a new account has), and
   * `retiredUsage`, USD spent by keys since deleted, which `GET /credits` still counts in `total_usage`.
   */
  credits?: UserCreditsOptions | undefined
}

/** An organisation's credits as `sim.users.create` and world specs take them, in USD (kept exactly to 10^-10 USD). */
export interface UserCreditsOptions {
  /** USD bought; default 0. */
  total?: number | undefined
  /** USD spent by keys that have since been deleted; default 0. */
  retiredUsage?: number | undefined
}

/** An organisation (tenant): it owns workspaces, keys and files. */
export interface User {
  id: string
  name: string
  /**
   * The workspace that `GET /keys` and file downloads use when no `workspace_id` is given; null
   * once it has been deleted (those requests must then name a workspace).
   */
  defaultWorkspaceId: string | null
  createdAt: string
}

export interface UserCollection {
  /**
   * Creates an organisation together with its default workspace (slug `default`). A field that is
   * not one of {@link CreateUserOptions} (or, in `defaultWorkspace`, of the default workspace's
   * options) throws an INVALID_ARGUMENT SimulatorError naming it (`nmae`, `defaultWorkspace.slgu`).
   */
  create(options?: CreateUserOptions): User
  list(): User[]
  get(id: string): User | undefined
}

export const USER_FIELDS = fieldsOf<CreateUserOptions>({
  name: true,
  id: true,
  createdAt: true,
  defaultWorkspaceId: true,
  defaultWorkspaceGuardrailId: true,
  defaultWorkspace: true,
  credits: true,
})
export const CREDIT_FIELDS = fieldsOf<UserCreditsOptions>({ total: true, retiredUsage: true })

/** One figure of `credits`, in 10^-10 USD (any size); throws naming it when it is negative or not finite. */
export function creditFigure(check: ArgumentChecker, value: unknown, argument: string): bigint {
  if (value === undefined) return 0n
  return toBigUnits(check.nonNegative(value, argument))
}

const USER_ID = /^user_[A-Za-z0-9]{1,64}$/

function toUser(state: UserState): User {
  return { id: state.id, name: state.name, defaultWorkspaceId: state.defaultWorkspaceId, createdAt: new Date(state.createdAt).toISOString() }
}

export function createUserCollection(ctx: StoreContext): UserCollection {
  return {
    create: (options = {}) =>
      atomically(ctx, () => {
        const check: ArgumentChecker = new ArgumentChecker('create user')
        check.object(options, 'options')
        check.knownFields(options, USER_FIELDS, '', 'a user')
        if (options.defaultWorkspace !== undefined) {
          check.knownFields(check.object(options.defaultWorkspace, 'defaultWorkspace'), DEFAULT_WORKSPACE_FIELDS, 'defaultWorkspace', 'a default workspace')
        }
        let creditUnits = 0n
        let retiredUnits = 0n
        if (options.credits !== undefined) {
          const credits = check.object(options.credits, 'credits')
          check.knownFields(credits, CREDIT_FIELDS, 'credits', 'credits')
          creditUnits = creditFigure(check, credits['total'], 'credits.total')
          retiredUnits = creditFigure(check, credits['retiredUsage'], 'credits.retiredUsage')
        }
        const name = options.name === undefined ? 'Acme Inc.' : check.string(options.name, 'name')
        const createdAt = options.createdAt === undefined ? ctx.clock.nowMs() : toEpochMs(options.createdAt, 'create user', 'createdAt')
        let id: string
        if (options.id !== undefined) {
          id = check.string(options.id, 'id', USER_ID, '"user_" followed by letters and digits')
          if (ctx.data.users.has(id)) {
            throw new SimulatorError(SimulatorErrorCode.DuplicateId, `Failed to create user: id "${id}" is already taken.`, { argument: 'id' })
          }
        } else {
          // A loaded world may hold the ids this seed draws: draw again until one is free, as keys do.
          do id = `user_${ctx.random.alphanumeric(27)}`
          while (ctx.data.users.has(id))
        }
        if (options.defaultWorkspaceId === null) {
          for (const field of ['defaultWorkspace', 'defaultWorkspaceGuardrailId'] as const) {
            if (options[field] !== undefined) check.fail(field, 'must be absent when "defaultWorkspaceId" is null (a user without a default workspace)')
          }
          const state: UserState = { id, name, defaultWorkspaceId: null, createdAt, creditUnits, retiredUnits }
          put(ctx, 'users', id, state)
          return toUser(state)
        }
        if (options.defaultWorkspaceId !== undefined) {
          const wanted = check.string(options.defaultWorkspaceId, 'defaultWorkspaceId', UUID, 'a UUID such as "550e8400-e29b-41d4-a716-446655440000"')
          if (ctx.data.workspaces.has(wanted.toLowerCase())) {
            throw new SimulatorError(SimulatorErrorCode.DuplicateId, `Failed to create user: workspace id "${wanted}" is already taken.`, { argument: 'defaultWorkspaceId' })
          }
        }
        if (options.defaultWorkspaceGuardrailId !== undefined) {
          check.string(options.defaultWorkspaceGuardrailId, 'defaultWorkspaceGuardrailId', UUID, 'a UUID such as "550e8400-e29b-41d4-a716-446655440000"')
        }
        const workspace = buildWorkspace(
          ctx,
          {
            userId: id,
            ...DEFAULT_WORKSPACE,
            // A field given as undefined is left out, not spread over the default.
            ...(withoutUndefinedFields(options.defaultWorkspace ?? {}) as DefaultWorkspaceOptions),
            // A world spec's loader passes `createdAt: undefined` through: the user's instant, not the clock's.
            createdAt: options.defaultWorkspace?.createdAt ?? createdAt,
            ...(options.defaultWorkspaceId === undefined ? {} : { id: options.defaultWorkspaceId as string }),
            ...(options.defaultWorkspaceGuardrailId === undefined ? {} : { defaultGuardrailId: options.defaultWorkspaceGuardrailId }),
          },
          'create user',
        )
        const state: UserState = { id, name, defaultWorkspaceId: workspace.record.id, createdAt, creditUnits, retiredUnits }
        put(ctx, 'users', id, state)
        insertWorkspace(ctx, workspace)
        return toUser(state)
      }),
    list: () => [...ctx.data.users.values()].map(toUser),
    get: (id) => {
      const state = ctx.data.users.get(id)
      return state && toUser(state)
    },
  }
}
