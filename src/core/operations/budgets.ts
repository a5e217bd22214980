// Workspace budgets on the wire (decisions/0052): a workspace's spending limits per interval, read
// and managed with a management key. Another organisation's workspace, by id or slug, is as absent
// as one that never existed: 404 on every method, as for the workspace itself.
import { BodyReader, fieldError } from '../body.js'
import { ApiError } from '../errors.js'
import { atomically, type StoreContext } from '../store/context.js'
import { BUDGET_INTERVALS, budgetOrderProblem, budgetScopeKey, budgetsOf, budgetWire, deleteBudget, setIncludeByok, writeBudget } from '../store/budgets.js'
import type { BudgetInterval, WorkspaceState } from '../store/state.js'
import { findWorkspace } from '../store/workspaces.js'
import { MAX_EXACT_USD } from '../usage.js'
import { type Operation, jsonAnswer } from './operation.js'

/** The fields of the body of `PUT /workspaces/{workspace_ref}/budgets/{interval}` (the SDK's UpsertWorkspaceBudgetRequest). */
const UPSERT_FIELDS: ReadonlySet<string> = new Set(['limit_usd', 'include_byok_in_budgets'])

/** The caller's workspace named by the path (UUID or slug), or 404. */
function ownWorkspace(ctx: StoreContext, userId: string, ref: string): WorkspaceState {
  const workspace = findWorkspace(ctx, userId, ref)
  if (workspace === undefined) throw ApiError.notFound({ resource: 'workspace' })
  return workspace
}

/** The path's interval, or a 400 naming `interval`. */
function intervalParam(text: string): BudgetInterval {
  if (!(BUDGET_INTERVALS as readonly string[]).includes(text)) throw ApiError.badParameter('interval', `must be one of ${BUDGET_INTERVALS.join(', ')}`, text)
  return text as BudgetInterval
}

/** The answer's workspace-wide flag beside `data`. */
const includeByok = (workspace: WorkspaceState): boolean => workspace.record.include_byok_in_budgets === true

/** What a row of a management operation is handed. */
type Call = Parameters<Extract<Operation, { auth: 'management' }>['run']>[0]

/** A budget route's row: management only, the path's workspace the caller's (else 404), `answer` the 200's body. */
const row = (name: Operation['name'], method: 'GET' | 'PUT' | 'DELETE', template: string, answer: (workspace: WorkspaceState, call: Call) => unknown): Operation => ({
  name,
  method,
  template,
  auth: 'management',
  run: (call) => jsonAnswer(200, answer(ownWorkspace(call.ctx, call.principal.userId, call.params['workspace_ref'] as string), call)),
})

const ONE = '/workspaces/{workspace_ref}/budgets/{interval}'

export const BUDGET_OPERATIONS: readonly Operation[] = [
  row('listWorkspaceBudgets', 'GET', '/workspaces/{workspace_ref}/budgets', (workspace, { ctx }) => ({ data: budgetsOf(ctx, workspace.record.id).map(budgetWire), include_byok_in_budgets: includeByok(workspace) })),
  row('getWorkspaceBudget', 'GET', ONE, (workspace, { ctx, params }) => {
    const budget = ctx.data.budgets.get(budgetScopeKey(workspace.record.id, intervalParam(params['interval'] as string)))
    if (budget === undefined) throw ApiError.notFound({ resource: 'budget' })
    return { data: budgetWire(budget), include_byok_in_budgets: includeByok(workspace) }
  }),
  row('upsertWorkspaceBudget', 'PUT', ONE, (workspace, { ctx, params, json }) => {
    const interval = intervalParam(params['interval'] as string)
    const body = new BodyReader(json()).known(UPSERT_FIELDS)
    const limitUsd = body.number('limit_usd', { min: 0, exclusiveMin: true, max: MAX_EXACT_USD })
    const include = body.optionalBoolean('include_byok_in_budgets')
    const problem = budgetOrderProblem(ctx, workspace.record.id, interval, limitUsd)
    if (problem !== null) throw fieldError('limit_usd', problem, String(limitUsd))
    const budget = atomically(ctx, () => {
      if (include !== undefined) setIncludeByok(ctx, workspace, include)
      return writeBudget(ctx, workspace, interval, limitUsd)
    })
    return { data: budgetWire(budget), include_byok_in_budgets: includeByok(ctx.data.workspaces.get(workspace.record.id) as WorkspaceState) }
  }),
  row('deleteWorkspaceBudget', 'DELETE', ONE, (workspace, { ctx, params }) => {
    if (!deleteBudget(ctx, workspace.record.id, intervalParam(params['interval'] as string))) throw ApiError.notFound({ resource: 'budget' })
    return { deleted: true }
  }),
]
