// Members on the wire (decisions/0051): an organisation's members, and the members of each of its
// workspaces, read and changed with a management key. Another organisation's workspace is as absent
// as one that never existed (404); a user id that is no member of the caller's organisation is a
// 400 naming its place in `user_ids`, and nothing is changed.
import { BodyReader, fieldError } from '../body.js'
import { ApiError } from '../errors.js'
import { offsetParam } from '../params.js'
import { atomically, type StoreContext } from '../store/context.js'
import { findMember, hasActiveKeysIn, memberWire, membersOf, newPlace, removePlace, workspaceMemberWire, workspaceMembersOf, writePlace } from '../store/members.js'
import { type WorkspaceMemberState, workspaceMemberScopeKey } from '../store/state.js'
import { findWorkspace } from '../store/workspaces.js'
import type { WorkspaceState } from '../store/state.js'
import { type Operation, jsonAnswer } from './operation.js'
import { limitParam } from './workspaces.js'

/** At most this many user ids in one bulk request. */
export const MEMBER_BULK_MAX = 100
const BULK_FIELDS: ReadonlySet<string> = new Set(['user_ids'])

/** The caller's workspace named by the path (UUID or slug), or 404. */
function ownWorkspace(ctx: StoreContext, userId: string, idOrSlug: string): WorkspaceState {
  const workspace = findWorkspace(ctx, userId, idOrSlug)
  if (!workspace) throw ApiError.notFound({ resource: 'workspace' })
  return workspace
}

/** A page of `items` by the query's `offset` and `limit`, with the count of all. */
function page<T>(query: URLSearchParams, items: readonly T[]): { data: T[]; total_count: number } {
  const offset = offsetParam(query, 'offset') ?? 0
  const limit = limitParam(query)
  return { data: items.slice(offset, offset + limit), total_count: items.length }
}

/** `user_ids`: 1 to {@link MEMBER_BULK_MAX} user ids, each a member of the organisation; a 400 names the first that is not. */
function readUserIds(ctx: StoreContext, userId: string, json: Record<string, unknown>): string[] {
  const body = new BodyReader(json).known(BULK_FIELDS)
  if (!body.has('user_ids')) body.fail('user_ids', 'is required: the user ids of members of the organisation')
  const ids = body.optionalArray('user_ids', { minLength: 1, maxLength: MEMBER_BULK_MAX }) as unknown[]
  return [
    ...new Set(
      ids.map((id: unknown, i): string => {
        const at = `${body.at('user_ids')}[${i}]`
        if (typeof id !== 'string' || id === '') body.fail(at, 'must be a user id such as "user_2dHFtVWx2n56w6HkM0000000000"', id)
        const text = id as string
        if (findMember(ctx, userId, text) === undefined) body.fail(at, 'is not a member of the organisation', text)
        return text
      }),
    ),
  ]
}

/** A bulk route: the caller's workspace and the body's `user_ids`, then `apply`'s answer as the 200. */
function bulkRow(
  name: 'bulkAddWorkspaceMembers' | 'bulkRemoveWorkspaceMembers',
  template: string,
  apply: (ctx: StoreContext, workspace: WorkspaceState, ids: readonly string[], userId: string) => unknown,
): Operation {
  return {
    name,
    method: 'POST',
    template,
    auth: 'management',
    run: ({ ctx, params, principal, json }) => {
      const workspace = ownWorkspace(ctx, principal.userId, params['id'] as string)
      return jsonAnswer(200, apply(ctx, workspace, readUserIds(ctx, principal.userId, json()), principal.userId))
    },
  }
}

export const MEMBER_OPERATIONS: readonly Operation[] = [
  {
    name: 'listOrganizationMembers',
    method: 'GET',
    template: '/organization/members',
    auth: 'management',
    run: ({ ctx, query, principal }) => jsonAnswer(200, page(query, membersOf(ctx, principal.userId).map(memberWire))),
  },
  {
    name: 'listWorkspaceMembers',
    method: 'GET',
    template: '/workspaces/{id}/members',
    auth: 'management',
    run: ({ ctx, params, query, principal }) => {
      const workspace = ownWorkspace(ctx, principal.userId, params['id'] as string)
      return jsonAnswer(200, page(query, workspaceMembersOf(ctx, workspace.record.id).map((place) => workspaceMemberWire(ctx, principal.userId, place))))
    },
  },
  bulkRow('bulkAddWorkspaceMembers', '/workspaces/{id}/members/add', (ctx, workspace, ids, userId) => {
    // Checked whole before any write; a member already there is left as it is and not counted.
    const added = atomically(ctx, () => {
      const taken = new Set<string>()
      const made: WorkspaceMemberState[] = []
      for (const id of ids) if (!ctx.data.workspaceMembers.has(workspaceMemberScopeKey(workspace.record.id, id))) made.push(newPlace(ctx, workspace.record.id, id, taken))
      for (const place of made) writePlace(ctx, place)
      return made
    })
    return { added_count: added.length, data: added.map((place) => workspaceMemberWire(ctx, userId, place)) }
  }),
  bulkRow('bulkRemoveWorkspaceMembers', '/workspaces/{id}/members/remove', (ctx, workspace, ids) => {
    // A member with an enabled key of the workspace stays, as the service documents: the whole request is refused.
    ids.forEach((id) => {
      const there = ctx.data.workspaceMembers.has(workspaceMemberScopeKey(workspace.record.id, id))
      if (there && hasActiveKeysIn(ctx, workspace.record.id, id)) throw fieldError('user_ids', `names "${id}", who has active API keys in this workspace (disable or delete them first)`, JSON.stringify(id))
    })
    let removed = 0
    for (const id of ids) if (removePlace(ctx, workspace.record.id, id)) removed++
    return { removed_count: removed }
  }),
]
