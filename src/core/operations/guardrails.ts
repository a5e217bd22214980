// Guardrails on the wire (decisions/0051): an organisation's guardrails and their assignments to its
// keys and members, read and changed with a management key. Another organisation's guardrail is as
// absent as one never made (404); a body's bad field, or a key or member not the organisation's, a
// 400 naming it, and nothing is changed.
import { BodyReader, fieldError } from '../body.js'
import { ApiError } from '../errors.js'
import { readGuardrailRules, readKeyHashes, readMemberIds } from '../guardrail-rules.js'
import { offsetParam, single } from '../params.js'
import { UUID } from '../store/check.js'
import { atomically, type StoreContext } from '../store/context.js'
import {
  GUARDRAIL_CREATE_FIELDS,
  GUARDRAIL_UPDATE_FIELDS,
  assignKeys,
  assignMembers,
  defaultGuardrailDeletion,
  freshGuardrailId,
  guardrailWire,
  guardrailsOf,
  keyAssignmentWire,
  keyAssignmentsOf,
  memberAssignmentWire,
  memberAssignmentsOf,
  unassignKeys,
  unassignMembers,
  workspaceDefaulting,
} from '../store/guardrails.js'
import { deleteGuardrail, writeGuardrail } from '../store/guardrail-rows.js'
import type { GuardrailState } from '../store/state.js'
import { type Operation, jsonAnswer } from './operation.js'
import { limitParam } from './workspaces.js'

/** The caller's guardrail named by the path, or 404. */
function ownGuardrail(ctx: StoreContext, userId: string, id: string): GuardrailState {
  const guardrail = UUID.test(id) ? ctx.data.guardrails.get(id.toLowerCase()) : undefined
  if (guardrail === undefined || guardrail.userId !== userId) throw ApiError.notFound({ resource: 'guardrail' })
  return guardrail
}

/** A page of `items` by the query's `offset` and `limit`, with the count of all. */
function page<T>(query: URLSearchParams, items: readonly T[]): { data: T[]; total_count: number } {
  const offset = offsetParam(query, 'offset') ?? 0
  const limit = limitParam(query)
  return { data: items.slice(offset, offset + limit), total_count: items.length }
}

type Name = Operation['name']

/** A management row of `method` and `template` answering `answer`'s body with `status`. */
function row(name: Name, method: Operation['method'], template: string, answer: (call: Parameters<Extract<Operation, { auth: 'management' }>['run']>[0]) => unknown, status = 200): Operation {
  return { name, method, template, auth: 'management', run: (call) => jsonAnswer(status, answer(call)) }
}

export const GUARDRAIL_OPERATIONS: readonly Operation[] = [
  row('listGuardrails', 'GET', '/guardrails', ({ ctx, query, principal }) => {
    const workspace = single(query, 'workspace_id')
    if (workspace !== undefined && !UUID.test(workspace)) throw ApiError.badParameter('workspace_id', 'must be a UUID', workspace)
    // As `GET /keys` and `GET /byok` answer: a typo is not "no guardrails".
    if (workspace !== undefined && ctx.data.workspaces.get(workspace.toLowerCase())?.userId !== principal.userId) throw ApiError.badParameter('workspace_id', 'is not a workspace of the caller', workspace)
    return page(query, guardrailsOf(ctx, principal.userId, workspace?.toLowerCase()).map(guardrailWire))
  }),
  row(
    'createGuardrail',
    'POST',
    '/guardrails',
    ({ ctx, principal, json }) => {
      const body = new BodyReader(json()).known(GUARDRAIL_CREATE_FIELDS)
      const rules = readGuardrailRules(ctx, body, undefined)
      let workspaceId = ctx.data.users.get(principal.userId)?.defaultWorkspaceId ?? null
      const given = body.optionalString('workspace_id', { pattern: UUID, expected: 'a UUID' })
      if (given !== undefined) {
        if (ctx.data.workspaces.get(given.toLowerCase())?.userId !== principal.userId) body.fail('workspace_id', 'is not a workspace of the caller', given)
        workspaceId = given.toLowerCase()
      }
      const guardrail = atomically(ctx, () => writeGuardrail(ctx, { id: freshGuardrailId(ctx), userId: principal.userId, workspaceId, rules, createdAt: ctx.clock.nowMs(), updatedAt: null }))
      return { data: guardrailWire(guardrail) }
    },
    201,
  ),
  row('listKeyAssignments', 'GET', '/guardrails/assignments/keys', ({ ctx, query, principal }) => page(query, keyAssignmentsOf(ctx, principal.userId).map((a) => keyAssignmentWire(ctx, a)))),
  row('listMemberAssignments', 'GET', '/guardrails/assignments/members', ({ ctx, query, principal }) => page(query, memberAssignmentsOf(ctx, principal.userId).map(memberAssignmentWire))),
  row('getGuardrail', 'GET', '/guardrails/{id}', ({ ctx, params, principal }) => ({ data: guardrailWire(ownGuardrail(ctx, principal.userId, params['id'] as string)) })),
  row('updateGuardrail', 'PATCH', '/guardrails/{id}', ({ ctx, params, principal, json }) => {
    // The body first: one over the cap is a 413 whatever the path names, as on every write.
    const body = json()
    const guardrail = ownGuardrail(ctx, principal.userId, params['id'] as string)
    const rules = readGuardrailRules(ctx, new BodyReader(body).known(GUARDRAIL_UPDATE_FIELDS), guardrail.rules)
    return { data: guardrailWire(writeGuardrail(ctx, { ...guardrail, rules, updatedAt: ctx.clock.nowMs() })) }
  }),
  row('deleteGuardrail', 'DELETE', '/guardrails/{id}', ({ ctx, params, principal }) => {
    const guardrail = ownGuardrail(ctx, principal.userId, params['id'] as string)
    // A workspace's default guardrail goes with its workspace only (decisions/0055).
    const workspace = workspaceDefaulting(ctx, guardrail)
    if (workspace !== undefined) throw fieldError('id', defaultGuardrailDeletion(workspace), guardrail.id)
    deleteGuardrail(ctx, guardrail)
    return { deleted: true }
  }),
  row('listGuardrailKeyAssignments', 'GET', '/guardrails/{id}/assignments/keys', ({ ctx, params, query, principal }) => {
    const guardrail = ownGuardrail(ctx, principal.userId, params['id'] as string)
    return page(query, keyAssignmentsOf(ctx, principal.userId, guardrail.id).map((a) => keyAssignmentWire(ctx, a)))
  }),
  row('listGuardrailMemberAssignments', 'GET', '/guardrails/{id}/assignments/members', ({ ctx, params, query, principal }) => {
    const guardrail = ownGuardrail(ctx, principal.userId, params['id'] as string)
    return page(query, memberAssignmentsOf(ctx, principal.userId, guardrail.id).map(memberAssignmentWire))
  }),
  row('bulkAssignKeysToGuardrail', 'POST', '/guardrails/{id}/assignments/keys', ({ ctx, params, principal, json }) => {
    const body = json()
    const guardrail = ownGuardrail(ctx, principal.userId, params['id'] as string)
    const hashes = readKeyHashes(ctx, principal.userId, body)
    return { assigned_count: atomically(ctx, () => assignKeys(ctx, guardrail, hashes)) }
  }),
  row('bulkUnassignKeysFromGuardrail', 'POST', '/guardrails/{id}/assignments/keys/remove', ({ ctx, params, principal, json }) => {
    const body = json()
    const guardrail = ownGuardrail(ctx, principal.userId, params['id'] as string)
    return { unassigned_count: unassignKeys(ctx, guardrail, readKeyHashes(ctx, principal.userId, body)) }
  }),
  row('bulkAssignMembersToGuardrail', 'POST', '/guardrails/{id}/assignments/members', ({ ctx, params, principal, json }) => {
    const body = json()
    const guardrail = ownGuardrail(ctx, principal.userId, params['id'] as string)
    const ids = readMemberIds(ctx, principal.userId, body)
    return { assigned_count: atomically(ctx, () => assignMembers(ctx, guardrail, ids)) }
  }),
  row('bulkUnassignMembersFromGuardrail', 'POST', '/guardrails/{id}/assignments/members/remove', ({ ctx, params, principal, json }) => {
    const body = json()
    const guardrail = ownGuardrail(ctx, principal.userId, params['id'] as string)
    return { unassigned_count: unassignMembers(ctx, guardrail, readMemberIds(ctx, principal.userId, body)) }
  }),
]
