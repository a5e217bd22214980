// Guardrails (decisions/0051): an organisation's rules for the requests of the keys and members
// they are assigned to. The fields are kept as the service names them (`allowed_models`...), read
// by one reader shared by the wire and `sim.guardrails`, so a bad field is refused alike on both.
import { invalidArgument, SimulatorError, SimulatorErrorCode } from '../errors.js'
import { type InstantInput, formatTimestamp, toEpochMs } from '../time.js'
import { ArgumentChecker, fieldsOf, UUID } from './check.js'
import { type StoreContext, atomically } from './context.js'
import type { SomeFields } from '../types.js'
import type { GuardrailKeyState, GuardrailMemberState, GuardrailRules, GuardrailState, StoreData, WorkspaceState } from './state.js'
import { findMember } from './members.js'
import { put, remove } from './versions.js'
import { deleteGuardrail, untouchedDefault, writeGuardrail } from './guardrail-rows.js'
import { requireUser } from './workspaces.js'

/** A guardrail as `GET /guardrails/{id}` shows it. */
export interface Guardrail extends GuardrailRules {
  id: string
  workspace_id: string | null
  created_at: string
  updated_at: string | null
}

/** A key's assignment to a guardrail, as the assignment lists show it. */
export interface GuardrailKeyAssignment {
  id: string
  guardrail_id: string
  key_hash: string
  key_name: string
  key_label: string
  assigned_by: string | null
  created_at: string
}

/** A member's assignment to a guardrail, as the assignment lists show it. */
export interface GuardrailMemberAssignment {
  id: string
  guardrail_id: string
  user_id: string
  organization_id: string
  assigned_by: string | null
  created_at: string
}

/** The store's key of a member's assignment: the guardrail and the member. */
export const guardrailMemberScopeKey = (guardrailId: string, memberId: string): string => `${guardrailId}\u0000${memberId}`

/** The builtin content filters the service names. */
export const GUARDRAIL_BUILTINS = ['email', 'phone', 'ssn', 'credit-card', 'ip-address', 'secrets', 'person-name', 'address', 'regex-prompt-injection'] as const
/** The rules that are a boolean or null. */
export const GUARDRAIL_BOOLEANS = [
  'enable_free_model_publication',
  'enable_free_model_training',
  'enable_paid_model_training',
  'enforce_zdr',
  'enforce_zdr_anthropic',
  'enforce_zdr_google',
  'enforce_zdr_openai',
  'enforce_zdr_other',
  'enforce_zdr_xai',
] as const
/** The rules that are a list of model or provider names. */
export const GUARDRAIL_LISTS = ['allowed_models', 'ignored_models', 'allowed_providers', 'ignored_providers'] as const

/** The body fields of `PATCH /guardrails/{id}`: the SDK's UpdateGuardrailRequest. */
export const GUARDRAIL_UPDATE_FIELDS: ReadonlySet<string> = new Set([
  'name',
  'description',
  ...GUARDRAIL_LISTS,
  'allowed_data_regions',
  'content_filters',
  'content_filter_builtins',
  ...GUARDRAIL_BOOLEANS,
  'include_byok_in_budgets',
  'limit_usd',
  'reset_interval',
])
/** `POST /guardrails` takes those and `workspace_id`. */
export const GUARDRAIL_CREATE_FIELDS: ReadonlySet<string> = new Set([...GUARDRAIL_UPDATE_FIELDS, 'workspace_id'])

/** The workspace whose default guardrail `guardrail` is, if it is one. */
export function workspaceDefaulting(ctx: StoreContext, guardrail: GuardrailState): WorkspaceState | undefined {
  if (guardrail.workspaceId === null) return undefined
  const workspace = ctx.data.workspaces.get(guardrail.workspaceId)
  return workspace?.record.default_guardrail_id === guardrail.id ? workspace : undefined
}

/** Why a workspace's default guardrail cannot be deleted: the refusal's words, on the wire and in code. */
export function defaultGuardrailDeletion(workspace: WorkspaceState): string {
  return `is the default guardrail of workspace "${workspace.record.slug}", which goes only with its workspace; clear its rules with an update instead`
}

/** A guardrail as the wire shows it: a fresh object. */
export function guardrailWire(guardrail: GuardrailState): Guardrail {
  return {
    id: guardrail.id,
    ...structuredClone(guardrail.rules),
    workspace_id: guardrail.workspaceId,
    created_at: formatTimestamp(guardrail.createdAt),
    updated_at: guardrail.updatedAt === null ? null : formatTimestamp(guardrail.updatedAt),
  }
}

/** The guardrails of an organisation, oldest first, then by id. */
export function guardrailsOf(ctx: StoreContext, userId: string | null, workspaceId?: string): GuardrailState[] {
  const own: GuardrailState[] = []
  for (const g of ctx.data.guardrails.values()) if ((userId === null || g.userId === userId) && (workspaceId === undefined || g.workspaceId === workspaceId)) own.push(g)
  return own.sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1))
}

/** The key assignments of an organisation (of one guardrail when given), oldest first; a deleted key's is gone. */
export function keyAssignmentsOf(ctx: StoreContext, userId: string, guardrailId?: string): GuardrailKeyState[] {
  const own: GuardrailKeyState[] = []
  for (const a of ctx.data.guardrailKeys.values()) {
    if (guardrailId !== undefined && a.guardrailId !== guardrailId) continue
    if (ctx.data.guardrails.get(a.guardrailId)?.userId !== userId || !ctx.data.keys.has(a.keyHash)) continue
    own.push(a)
  }
  return own.sort((a, b) => a.createdAt - b.createdAt || (a.keyHash < b.keyHash ? -1 : 1))
}

/** The member assignments of an organisation (of one guardrail when given), oldest first; a removed member's is gone. */
export function memberAssignmentsOf(ctx: StoreContext, userId: string, guardrailId?: string): GuardrailMemberState[] {
  const own: GuardrailMemberState[] = []
  for (const a of ctx.data.guardrailMembers.values()) {
    if (a.userId !== userId || (guardrailId !== undefined && a.guardrailId !== guardrailId)) continue
    if (findMember(ctx, userId, a.memberId) === undefined) continue
    own.push(a)
  }
  return own.sort((a, b) => a.createdAt - b.createdAt || (a.memberId < b.memberId ? -1 : 1))
}

export function keyAssignmentWire(ctx: StoreContext, a: GuardrailKeyState): GuardrailKeyAssignment {
  const key = ctx.data.keys.get(a.keyHash)
  return { id: a.id, guardrail_id: a.guardrailId, key_hash: a.keyHash, key_name: key?.name ?? '', key_label: key?.label ?? '', assigned_by: null, created_at: formatTimestamp(a.createdAt) }
}

export function memberAssignmentWire(a: GuardrailMemberState): GuardrailMemberAssignment {
  return { id: a.id, guardrail_id: a.guardrailId, user_id: a.memberId, organization_id: a.userId, assigned_by: null, created_at: formatTimestamp(a.createdAt) }
}

function idTaken(ctx: StoreContext, id: string): boolean {
  if (ctx.data.guardrails.has(id)) return true
  for (const a of ctx.data.guardrailKeys.values()) if (a.id === id) return true
  for (const a of ctx.data.guardrailMembers.values()) if (a.id === id) return true
  return false
}

/** A fresh UUID no guardrail or assignment has, drawn from the seeded stream. */
export function freshGuardrailId(ctx: StoreContext, taken: Set<string> = new Set()): string {
  let id: string
  do id = ctx.random.uuid()
  while (taken.has(id) || idTaken(ctx, id))
  taken.add(id)
  return id
}

/** Assigns keys (hashes checked already) to a guardrail, replacing what they held; the count newly assigned to it. */
export function assignKeys(ctx: StoreContext, guardrail: GuardrailState, hashes: readonly string[]): number {
  let count = 0
  const taken = new Set<string>()
  const made: GuardrailKeyState[] = []
  for (const hash of new Set(hashes)) {
    if (ctx.data.guardrailKeys.get(hash)?.guardrailId === guardrail.id) continue
    made.push({ id: freshGuardrailId(ctx, taken), guardrailId: guardrail.id, keyHash: hash, createdAt: ctx.clock.nowMs() })
    count++
  }
  for (const a of made) put(ctx, 'guardrailKeys', a.keyHash, a)
  return count
}

export function unassignKeys(ctx: StoreContext, guardrail: GuardrailState, hashes: readonly string[]): number {
  let count = 0
  for (const hash of new Set(hashes)) {
    if (ctx.data.guardrailKeys.get(hash)?.guardrailId !== guardrail.id) continue
    remove(ctx, 'guardrailKeys', hash)
    count++
  }
  return count
}

export function assignMembers(ctx: StoreContext, guardrail: GuardrailState, memberIds: readonly string[]): number {
  const taken = new Set<string>()
  const made: GuardrailMemberState[] = []
  for (const memberId of new Set(memberIds)) {
    if (ctx.data.guardrailMembers.has(guardrailMemberScopeKey(guardrail.id, memberId))) continue
    made.push({ id: freshGuardrailId(ctx, taken), guardrailId: guardrail.id, userId: guardrail.userId, memberId, createdAt: ctx.clock.nowMs() })
  }
  for (const a of made) put(ctx, 'guardrailMembers', guardrailMemberScopeKey(guardrail.id, a.memberId), a)
  return made.length
}

export function unassignMembers(ctx: StoreContext, guardrail: GuardrailState, memberIds: readonly string[]): number {
  let count = 0
  for (const memberId of new Set(memberIds)) {
    const scope = guardrailMemberScopeKey(guardrail.id, memberId)
    if (!ctx.data.guardrailMembers.has(scope)) continue
    remove(ctx, 'guardrailMembers', scope)
    count++
  }
  return count
}

// ---- the programmatic API ------------------------------------------------------------------------

/**
 * What `sim.guardrails.create` takes: the organisation, and the rules as `POST /guardrails` names
 * them (`allowed_models`, `limit_usd`...), each checked as the wire checks it.
 *
 * @example
 * import { createSimulator } from 'model-access-sim'
 * const sim = createSimulator()
 * const guardrail = sim.guardrails.create({ userId: sim.world.userId, rules: { name: 'Cheap', allowed_models: [sim.world.models.paid], limit_usd: 5, reset_interval: 'daily' } })
 * const key = sim.keys.create({ userId: sim.world.userId, name: 'Guarded' })
 * console.log(sim.guardrails.assignKeys(guardrail.id, [key.record.hash]), guardrail.limit_usd, guardrail.reset_interval)
 * //=> 1 5 daily
 */
export interface CreateGuardrailOptions {
  userId: string
  /** The rules, as the wire names them; `name` is required. */
  rules: SomeFields<GuardrailRules> & { name: string }
  /** The workspace it is placed in (a UUID of the organisation's); default: its default workspace, or null. */
  workspaceId?: string | null | undefined
  /** A UUID; generated when absent. */
  id?: string | undefined
  createdAt?: InstantInput | undefined
  updatedAt?: InstantInput | null | undefined
}

/** `sim.guardrails`: an organisation's guardrails and their assignments (decisions/0051). */
export interface GuardrailCollection {
  /** Creates a guardrail; a bad rule throws INVALID_ARGUMENT naming it (`rules.allowed_models[0]`). */
  create(options: CreateGuardrailOptions): Guardrail
  /** Changes a guardrail's rules (lists are replaced whole). Unknown: UNKNOWN_GUARDRAIL. */
  update(id: string, rules: SomeFields<GuardrailRules>): Guardrail
  /** Deletes a guardrail and its assignments. Unknown: UNKNOWN_GUARDRAIL. */
  delete(id: string): void
  get(id: string): Guardrail | undefined
  /** Every guardrail of every organisation, oldest first. */
  list(): Guardrail[]
  /** Assigns keys of the guardrail's organisation (a key holds one guardrail: this replaces its own); the count newly assigned. */
  assignKeys(id: string, keyHashes: readonly string[]): number
  unassignKeys(id: string, keyHashes: readonly string[]): number
  /** Assigns members of the guardrail's organisation; the count newly assigned. */
  assignMembers(id: string, memberIds: readonly string[]): number
  unassignMembers(id: string, memberIds: readonly string[]): number
  /** The key assignments of one guardrail, oldest first. */
  keyAssignments(id: string): GuardrailKeyAssignment[]
  /** The member assignments of one guardrail, oldest first. */
  memberAssignments(id: string): GuardrailMemberAssignment[]
}

export const CREATE_OPTIONS = fieldsOf<CreateGuardrailOptions>({ userId: true, rules: true, workspaceId: true, id: true, createdAt: true, updatedAt: true })

function requireGuardrail(ctx: StoreContext, id: unknown, operation: string): GuardrailState {
  const found = typeof id === 'string' ? ctx.data.guardrails.get(id.toLowerCase()) : undefined
  if (found === undefined) throw new SimulatorError(SimulatorErrorCode.UnknownGuardrail, `Failed to ${operation}: "id" ${JSON.stringify(id)} names no guardrail.`, { argument: 'id' })
  return found
}

/** Validates create options into a guardrail without storing it. What `sim.guardrails.create` and the world loader share. */
export function buildGuardrail(ctx: StoreContext, options: CreateGuardrailOptions, readers: GuardrailReaders, operation = 'create guardrail'): GuardrailState {
  const check = new ArgumentChecker(operation)
  check.knownFields(check.object(options, 'options'), CREATE_OPTIONS, '', 'a guardrail')
  const userId = requireUser(ctx, options.userId, operation)
  const given = check.object(options.rules, 'rules')
  const rules = readers.rules(given, undefined, operation)
  let workspaceId: string | null = ctx.data.users.get(userId)?.defaultWorkspaceId ?? null
  if (options.workspaceId !== undefined) {
    if (options.workspaceId === null) workspaceId = null
    else {
      workspaceId = check.string(options.workspaceId, 'workspaceId', UUID, 'a UUID').toLowerCase()
      if (ctx.data.workspaces.get(workspaceId)?.userId !== userId) check.fail('workspaceId', `names no workspace of user "${userId}"`)
    }
  }
  let id: string
  if (options.id !== undefined) {
    id = check.string(options.id, 'id', UUID, 'a UUID').toLowerCase()
    // A workspace's default guardrail as it was made may be given its rules this way (a world spec's does).
    const existing = ctx.data.guardrails.get(id)
    const replaces = existing !== undefined && existing.userId === userId && untouchedDefault(ctx.data, existing)
    if (!replaces && idTaken(ctx, id)) throw new SimulatorError(SimulatorErrorCode.DuplicateId, `Failed to ${operation}: id "${id}" is already taken.`, { argument: 'id' })
  } else id = freshGuardrailId(ctx)
  const createdAt = options.createdAt === undefined ? ctx.clock.nowMs() : toEpochMs(options.createdAt, operation, 'createdAt')
  const updatedAt = options.updatedAt === undefined || options.updatedAt === null ? null : toEpochMs(options.updatedAt, operation, 'updatedAt')
  return { id, userId, workspaceId, rules, createdAt, updatedAt }
}

/** What the collection reads its arguments with (core/guardrail-rules.ts): the wire's readers, their 400 an INVALID_ARGUMENT. */
export interface GuardrailReaders {
  /** The rules after `given` (wire field names) change `base` (undefined: a new guardrail); throws naming `rules.<field>`. */
  rules(given: Record<string, unknown>, base: GuardrailRules | undefined, operation: string): GuardrailRules
  /** Hashes of keys of `userId`; throws naming `<argument>[i]`. */
  keyHashes(userId: string, hashes: unknown, operation: string): string[]
  /** Members of `userId`; throws naming `<argument>[i]`. */
  memberIds(userId: string, ids: unknown, operation: string): string[]
}

/** A key's or member's assignment as a world spec holds it. */
export interface LoadedAssignment {
  /** The key's hash (`keys`) or the member's user id (`members`). */
  ref: string
  id?: string
  createdAt?: number
}

/**
 * A guardrail of a world spec with its assignments, checked whole and then stored: the keys and
 * members must be the organisation's (throws naming `keys[1].keyHash`, `members[0].memberId`).
 */
export function loadGuardrail(ctx: StoreContext, options: CreateGuardrailOptions, keys: readonly LoadedAssignment[], members: readonly LoadedAssignment[], readers: GuardrailReaders, operation: string): void {
  const guardrail = buildGuardrail(ctx, options, readers, operation)
  const check = new ArgumentChecker(operation)
  const taken = new Set<string>([guardrail.id])
  const assignment = (given: LoadedAssignment, at: string): { id: string; createdAt: number } => {
    let id: string
    if (given.id !== undefined) {
      id = check.string(given.id, `${at}.id`, UUID, 'a UUID').toLowerCase()
      if (taken.has(id) || idTaken(ctx, id)) throw new SimulatorError(SimulatorErrorCode.DuplicateId, `Failed to ${operation}: id "${id}" is already taken.`, { argument: `${at}.id` })
      taken.add(id)
    } else id = freshGuardrailId(ctx, taken)
    return { id, createdAt: given.createdAt ?? guardrail.createdAt }
  }
  const keyRows = keys.map((given, i) => {
    const key = ctx.data.keys.get(given.ref)
    if (key === undefined || key.userId !== guardrail.userId || key.management) check.fail(`keys[${i}].keyHash`, `names no key of user "${guardrail.userId}"`)
    return { ...assignment(given, `keys[${i}]`), guardrailId: guardrail.id, keyHash: given.ref }
  })
  const memberRows = members.map((given, i) => {
    if (findMember(ctx, guardrail.userId, given.ref) === undefined) check.fail(`members[${i}].memberId`, `names no member of user "${guardrail.userId}"`)
    return { ...assignment(given, `members[${i}]`), guardrailId: guardrail.id, userId: guardrail.userId, memberId: given.ref }
  })
  writeGuardrail(ctx, guardrail)
  for (const row of keyRows) put(ctx, 'guardrailKeys', row.keyHash, row)
  for (const row of memberRows) put(ctx, 'guardrailMembers', guardrailMemberScopeKey(row.guardrailId, row.memberId), row)
}

export function createGuardrailCollection(ctx: StoreContext, readers: GuardrailReaders): GuardrailCollection {
  /** An assignment change: the guardrail, the ids read by `read`, then `apply`; a refusal changes nothing. */
  const change = (
    id: string,
    ids: unknown,
    operation: string,
    read: (userId: string, ids: unknown, operation: string) => string[],
    apply: (ctx: StoreContext, guardrail: GuardrailState, ids: readonly string[]) => number,
  ): number =>
    atomically(ctx, () => {
      const guardrail = requireGuardrail(ctx, id, operation)
      return apply(ctx, guardrail, read(guardrail.userId, ids, operation))
    })
  return {
    create: (options) =>
      atomically(ctx, () => guardrailWire(writeGuardrail(ctx, buildGuardrail(ctx, options, readers)))),
    update: (id, changes) => {
      const operation = 'update guardrail'
      const guardrail = requireGuardrail(ctx, id, operation)
      const given = new ArgumentChecker(operation).object(changes, 'rules')
      const rules = readers.rules(given, guardrail.rules, operation)
      return guardrailWire(writeGuardrail(ctx, { ...guardrail, rules, updatedAt: ctx.clock.nowMs() }))
    },
    delete: (id) => {
      const guardrail = requireGuardrail(ctx, id, 'delete guardrail')
      const workspace = workspaceDefaulting(ctx, guardrail)
      if (workspace !== undefined) throw invalidArgument('delete guardrail', 'id', defaultGuardrailDeletion(workspace))
      deleteGuardrail(ctx, guardrail)
    },
    get: (id) => {
      const found = typeof id === 'string' ? ctx.data.guardrails.get(id.toLowerCase()) : undefined
      return found && guardrailWire(found)
    },
    list: () => guardrailsOf(ctx, null).map(guardrailWire),
    assignKeys: (id, hashes) => change(id, hashes, 'assign keys', readers.keyHashes, assignKeys),
    unassignKeys: (id, hashes) => change(id, hashes, 'unassign keys', readers.keyHashes, unassignKeys),
    assignMembers: (id, memberIds) => change(id, memberIds, 'assign members', readers.memberIds, assignMembers),
    unassignMembers: (id, memberIds) => change(id, memberIds, 'unassign members', readers.memberIds, unassignMembers),
    keyAssignments: (id) => {
      const guardrail = requireGuardrail(ctx, id, 'list key assignments')
      return keyAssignmentsOf(ctx, guardrail.userId, guardrail.id).map((a) => keyAssignmentWire(ctx, a))
    },
    memberAssignments: (id) => {
      const guardrail = requireGuardrail(ctx, id, 'list member assignments')
      return memberAssignmentsOf(ctx, guardrail.userId, guardrail.id).map(memberAssignmentWire)
    },
  }
}

