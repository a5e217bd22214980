// Members (decisions/0051): the users of an organisation, each with a role, and their places in its
// workspaces. The organisation's own id is its owner: always a member, an admin, with no row of its
// own. A key's `creator_user_id` names the member it spends for.
import { describe } from '../describe.js'
import { SimulatorError, SimulatorErrorCode } from '../errors.js'
import { type InstantInput, formatTimestamp, toEpochMs } from '../time.js'
import { ArgumentChecker, fieldsOf, UUID } from './check.js'
import { type StoreContext, atomically } from './context.js'
import { type MemberState, type WorkspaceMemberState, memberScopeKey, workspaceMemberScopeKey } from './state.js'
import { put, remove } from './versions.js'
import { requireUser, requireWorkspace } from './workspaces.js'

/** A member of an organisation as `GET /organization/members` lists it. */
export interface OrganizationMember {
  id: string
  email: string
  first_name: string | null
  last_name: string | null
  /** `org:admin` or `org:member`. */
  role: 'org:admin' | 'org:member'
}

/** A member's place in a workspace as `GET /workspaces/{id}/members` lists it. */
export interface WorkspaceMember {
  id: string
  user_id: string
  workspace_id: string
  /** The role the member holds in the organisation: `admin` or `member`. */
  role: 'admin' | 'member'
  created_at: string
}

/** A member's place in a workspace, as `sim.members.add` and world specs take it. */
export interface MemberWorkspaceOptions {
  /** The workspace's UUID: one of the member's organisation. */
  workspaceId: string
  /** The membership's UUID; generated when absent. */
  id?: string | undefined
  /** Default: the member's `createdAt`. */
  createdAt?: InstantInput | undefined
}

/**
 * What `sim.members.add` takes: a user of the organisation `userId`, with a role.
 *
 * @example
 * import { createSimulator } from 'model-access-sim'
 * const sim = createSimulator({ world: 'empty' })
 * const org = sim.users.create({ name: 'Acme' })
 * const ada = sim.members.add({ userId: org.id, id: 'user_ada', email: 'ada@acme.example', firstName: 'Ada' })
 * console.log(ada.role, sim.members.list(org.id).map((m) => m.role).join(' '))
 * //=> org:member org:admin org:member
 */
export interface CreateMemberOptions {
  /** The organisation. */
  userId: string
  /** The member's user id, `user_` and letters or digits; generated when absent. */
  id?: string | undefined
  /** Default: `<id in lower case>@example.com`. */
  email?: string | undefined
  firstName?: string | null | undefined
  lastName?: string | null | undefined
  /** Default `member`. */
  role?: 'admin' | 'member' | undefined
  /** The workspaces the member belongs to. Default none. */
  workspaces?: MemberWorkspaceOptions[] | undefined
  createdAt?: InstantInput | undefined
}

/** `sim.members`: organisation members and their workspaces (decisions/0051). */
export interface MemberCollection {
  /**
   * Adds a member to an organisation and returns it as `GET /organization/members` lists it. An id
   * the organisation already has (its own id included: the owner) throws DUPLICATE_ID; a bad or
   * unknown field INVALID_ARGUMENT naming it; an unknown user UNKNOWN_USER; a workspace of
   * another organisation UNKNOWN_WORKSPACE. A refused add changes nothing.
   */
  add(options: CreateMemberOptions): OrganizationMember
  /** The members of an organisation, the owner first, then oldest first, then by id. */
  list(userId: string): OrganizationMember[]
  /** One member, or undefined. */
  get(userId: string, memberId: string): OrganizationMember | undefined
  /**
   * Removes a member from the organisation and its workspaces. The owner cannot be removed
   * (INVALID_ARGUMENT); a member that keys name as creator throws MEMBER_HAS_KEYS; an unknown
   * member UNKNOWN_MEMBER.
   */
  remove(userId: string, memberId: string): void
  /**
   * Adds members of the workspace's organisation to it (as `POST /workspaces/{id}/members/add`),
   * returning the places made; a member already there is left as it is. An id that is no member
   * throws UNKNOWN_MEMBER naming it (`memberIds[1]`), and nothing is added.
   */
  addToWorkspace(workspace: string, memberIds: readonly string[]): WorkspaceMember[]
  /** Takes members out of a workspace (as `POST /workspaces/{id}/members/remove`); returns how many were in it. */
  removeFromWorkspace(workspace: string, memberIds: readonly string[]): number
  /** A workspace's members, oldest first, then by user id. */
  ofWorkspace(workspace: string): WorkspaceMember[]
}

const MEMBER_ID = /^user_[A-Za-z0-9_]{1,64}$/
export const CREATE_FIELDS = fieldsOf<CreateMemberOptions>({ userId: true, id: true, email: true, firstName: true, lastName: true, role: true, workspaces: true, createdAt: true })
export const WORKSPACE_FIELDS = fieldsOf<MemberWorkspaceOptions>({ workspaceId: true, id: true, createdAt: true })
const UUID_HINT = 'a UUID such as "550e8400-e29b-41d4-a716-446655440000"'

/** The default email of a member: made from its id. */
const defaultEmail = (id: string): string => `${id.toLowerCase()}@example.com`

/** The owner of an organisation as a member: its own id, an admin. */
function ownerOf(userId: string): MemberState {
  return { userId, id: userId, email: defaultEmail(userId), firstName: null, lastName: null, role: 'admin', createdAt: 0 }
}

/** A member of an organisation by user id (the owner included), or undefined. */
export function findMember(ctx: StoreContext, userId: string, memberId: string): MemberState | undefined {
  if (memberId === userId && ctx.data.users.has(userId)) return ownerOf(userId)
  return ctx.data.members.get(memberScopeKey(userId, memberId))
}

/** The members of an organisation: the owner first, then oldest first, then by id. */
export function membersOf(ctx: StoreContext, userId: string): MemberState[] {
  const own: MemberState[] = []
  for (const member of ctx.data.members.values()) if (member.userId === userId) own.push(member)
  own.sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  return [ownerOf(userId), ...own]
}

/** The places of a workspace's members, oldest first, then by user id. */
export function workspaceMembersOf(ctx: StoreContext, workspaceId: string): WorkspaceMemberState[] {
  const own: WorkspaceMemberState[] = []
  for (const place of ctx.data.workspaceMembers.values()) if (place.workspaceId === workspaceId) own.push(place)
  return own.sort((a, b) => a.createdAt - b.createdAt || (a.memberId < b.memberId ? -1 : a.memberId > b.memberId ? 1 : 0))
}

/** A member as `GET /organization/members` lists it. */
export function memberWire(member: MemberState): OrganizationMember {
  return { id: member.id, email: member.email, first_name: member.firstName, last_name: member.lastName, role: member.role === 'admin' ? 'org:admin' : 'org:member' }
}

/** A workspace place as `GET /workspaces/{id}/members` lists it; the role is the member's in the organisation. */
export function workspaceMemberWire(ctx: StoreContext, userId: string, place: WorkspaceMemberState): WorkspaceMember {
  const role = findMember(ctx, userId, place.memberId)?.role ?? 'member'
  return { id: place.id, user_id: place.memberId, workspace_id: place.workspaceId, role, created_at: formatTimestamp(place.createdAt) }
}

/** Whether an enabled key of the workspace names the member as its creator: such a member stays. */
export function hasActiveKeysIn(ctx: StoreContext, workspaceId: string, memberId: string): boolean {
  for (const key of ctx.data.keys.values()) if (key.workspaceId === workspaceId && key.creatorUserId === memberId && !key.disabled) return true
  return false
}

/** A fresh membership UUID (drawn from the seeded stream). */
function freshPlaceId(ctx: StoreContext, taken: ReadonlySet<string>): string {
  let id: string
  do id = ctx.random.uuid()
  while (taken.has(id) || placeIdTaken(ctx, id))
  return id
}

function placeIdTaken(ctx: StoreContext, id: string): boolean {
  for (const place of ctx.data.workspaceMembers.values()) if (place.id === id) return true
  return false
}

/** Stores a workspace place made by {@link newPlace}. */
export function writePlace(ctx: StoreContext, place: WorkspaceMemberState): void {
  put(ctx, 'workspaceMembers', workspaceMemberScopeKey(place.workspaceId, place.memberId), place)
}

/** A new place of `memberId` in `workspaceId` at the clock's now, its id drawn. Not stored. */
export function newPlace(ctx: StoreContext, workspaceId: string, memberId: string, taken: Set<string> = new Set()): WorkspaceMemberState {
  const id = freshPlaceId(ctx, taken)
  taken.add(id)
  return { id, workspaceId, memberId, createdAt: ctx.clock.nowMs() }
}

/** Takes a member out of a workspace; whether it was in it. */
export function removePlace(ctx: StoreContext, workspaceId: string, memberId: string): boolean {
  const scope = workspaceMemberScopeKey(workspaceId, memberId)
  if (!ctx.data.workspaceMembers.has(scope)) return false
  remove(ctx, 'workspaceMembers', scope)
  return true
}

function unknownMember(operation: string, argument: string, memberId: unknown, userId: string): SimulatorError {
  return new SimulatorError(SimulatorErrorCode.UnknownMember, `Failed to ${operation}: "${argument}" ${describe(memberId)} is not a member of user "${userId}".`, { argument })
}

/**
 * Validates add options into a member and its places without storing them; throws naming the bad
 * option. What `sim.members.add` and the world loader share.
 */
export function buildMember(ctx: StoreContext, options: CreateMemberOptions, operation = 'add member', allowOwner = false): { member: MemberState; places: WorkspaceMemberState[] } {
  const check = new ArgumentChecker(operation)
  check.knownFields(check.object(options, 'options'), CREATE_FIELDS, '', 'a member')
  const userId = requireUser(ctx, options.userId, operation)
  let id: string
  // The owner's entry of a world spec carries its workspace places alone: the owner is a member without a row.
  const owner = options.id === userId && allowOwner
  if (owner) {
    for (const field of ['email', 'firstName', 'lastName', 'role'] as const) if (options[field] !== undefined) check.fail(field, `must be absent for the organisation's owner "${userId}", whose entry holds only its workspaces`)
  }
  if (options.id !== undefined) {
    id = check.string(options.id, 'id', MEMBER_ID, '"user_" followed by letters, digits and "_"')
    if (!owner && findMember(ctx, userId, id) !== undefined) throw new SimulatorError(SimulatorErrorCode.DuplicateId, `Failed to ${operation}: "${id}" is already a member of user "${userId}".`, { argument: 'id' })
  } else {
    do id = `user_${ctx.random.alphanumeric(27)}`
    while (findMember(ctx, userId, id) !== undefined)
  }
  const email = options.email === undefined ? defaultEmail(id) : check.string(options.email, 'email', /^[^\s@]+@[^\s@]+$/, 'an email address such as "ada@example.com"')
  const name = (value: unknown, argument: string): string | null => (value === undefined || value === null ? null : check.string(value, argument))
  const firstName = name(options.firstName, 'firstName')
  const lastName = name(options.lastName, 'lastName')
  let role: 'admin' | 'member' = 'member'
  if (options.role !== undefined) {
    if (options.role !== 'admin' && options.role !== 'member') check.fail('role', `must be "admin" or "member", got ${describe(options.role)}`)
    role = options.role
  }
  const createdAt = options.createdAt === undefined ? ctx.clock.nowMs() : toEpochMs(options.createdAt, operation, 'createdAt')
  const places: WorkspaceMemberState[] = []
  const taken = new Set<string>()
  if (options.workspaces !== undefined) {
    if (!Array.isArray(options.workspaces)) check.fail('workspaces', `must be an array, got ${describe(options.workspaces)}`)
    options.workspaces.forEach((given, i) => {
      const at = `workspaces[${i}]`
      check.knownFields(check.object(given, at), WORKSPACE_FIELDS, at, 'a workspace place')
      const workspace = requireWorkspace(ctx, check.string(given.workspaceId, `${at}.workspaceId`, UUID, UUID_HINT), operation)
      if (workspace.userId !== userId) check.fail(`${at}.workspaceId`, `names a workspace of another organisation than "${userId}"`)
      if (places.some((place) => place.workspaceId === workspace.record.id)) check.fail(`${at}.workspaceId`, 'names a workspace already listed')
      let placeId: string
      if (given.id !== undefined) {
        placeId = check.string(given.id, `${at}.id`, UUID, UUID_HINT).toLowerCase()
        if (taken.has(placeId) || placeIdTaken(ctx, placeId)) throw new SimulatorError(SimulatorErrorCode.DuplicateId, `Failed to ${operation}: id "${placeId}" is already taken.`, { argument: `${at}.id` })
        taken.add(placeId)
      } else placeId = freshPlaceId(ctx, taken)
      taken.add(placeId)
      const placedAt = given.createdAt === undefined ? createdAt : toEpochMs(given.createdAt, operation, `${at}.createdAt`)
      places.push({ id: placeId, workspaceId: workspace.record.id, memberId: id, createdAt: placedAt })
    })
  }
  return { member: owner ? ownerOf(userId) : { userId, id, email, firstName, lastName, role, createdAt }, places }
}

/** Stores a member and its places made by {@link buildMember}. */
export function writeMember(ctx: StoreContext, built: { member: MemberState; places: readonly WorkspaceMemberState[] }): void {
  if (built.member.id !== built.member.userId) put(ctx, 'members', memberScopeKey(built.member.userId, built.member.id), built.member)
  for (const place of built.places) writePlace(ctx, place)
}

/** The member ids of a programmatic call, each a member of `userId`; throws naming the first that is not. */
function checkMemberIds(ctx: StoreContext, userId: string, memberIds: unknown, operation: string): string[] {
  const check = new ArgumentChecker(operation)
  if (!Array.isArray(memberIds)) check.fail('memberIds', `must be an array of member user ids, got ${describe(memberIds)}`)
  return (memberIds as unknown[]).map((memberId: unknown, i: number) => {
    const id = check.string(memberId, `memberIds[${i}]`)
    if (findMember(ctx, userId, id) === undefined) throw unknownMember(operation, `memberIds[${i}]`, id, userId)
    return id
  })
}

export function createMemberCollection(ctx: StoreContext): MemberCollection {
  return {
    add: (options) =>
      atomically(ctx, () => {
        const built = buildMember(ctx, options)
        writeMember(ctx, built)
        return memberWire(built.member)
      }),
    list: (userId) => membersOf(ctx, requireUser(ctx, userId, 'list members')).map(memberWire),
    get: (userId, memberId) => {
      const member = typeof userId === 'string' && typeof memberId === 'string' ? findMember(ctx, userId, memberId) : undefined
      return member && memberWire(member)
    },
    remove: (userId, memberId) => {
      const operation = 'remove member'
      const org = requireUser(ctx, userId, operation)
      const member = typeof memberId === 'string' ? findMember(ctx, org, memberId) : undefined
      if (member === undefined) throw unknownMember(operation, 'memberId', memberId, org)
      if (member.id === org) new ArgumentChecker(operation).fail('memberId', `names the organisation's owner "${org}", who is always a member`)
      for (const key of ctx.data.keys.values()) {
        if (key.userId === org && key.creatorUserId === member.id) {
          throw new SimulatorError(SimulatorErrorCode.MemberHasKeys, `Failed to ${operation}: keys of user "${org}" name "${member.id}" as their creator; delete them first.`, { argument: 'memberId' })
        }
      }
      for (const [scope, place] of ctx.data.workspaceMembers) if (place.memberId === member.id && ctx.data.workspaces.get(place.workspaceId)?.userId === org) remove(ctx, 'workspaceMembers', scope)
      remove(ctx, 'members', memberScopeKey(org, member.id))
    },
    addToWorkspace: (workspace, memberIds) =>
      atomically(ctx, () => {
        const operation = 'add workspace members'
        const state = requireWorkspace(ctx, workspace, operation)
        const ids = checkMemberIds(ctx, state.userId, memberIds, operation)
        const taken = new Set<string>()
        const added: WorkspaceMemberState[] = []
        for (const id of new Set(ids)) {
          if (ctx.data.workspaceMembers.has(workspaceMemberScopeKey(state.record.id, id))) continue
          added.push(newPlace(ctx, state.record.id, id, taken))
        }
        for (const place of added) writePlace(ctx, place)
        return added.map((place) => workspaceMemberWire(ctx, state.userId, place))
      }),
    removeFromWorkspace: (workspace, memberIds) => {
      const operation = 'remove workspace members'
      const state = requireWorkspace(ctx, workspace, operation)
      const ids = checkMemberIds(ctx, state.userId, memberIds, operation)
      let removed = 0
      for (const id of new Set(ids)) if (removePlace(ctx, state.record.id, id)) removed++
      return removed
    },
    ofWorkspace: (workspace) => {
      const state = requireWorkspace(ctx, workspace, 'list workspace members')
      return workspaceMembersOf(ctx, state.record.id).map((place) => workspaceMemberWire(ctx, state.userId, place))
    },
  }
}
