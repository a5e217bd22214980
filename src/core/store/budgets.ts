// Workspace budgets (decisions/0052): a spending limit per workspace and interval (daily, weekly,
// monthly, lifetime) on what all the workspace's keys spend, the windows those of the keys' limits
// (UTC days, ISO weeks from Monday, calendar months). The store keys a budget by its workspace and
// interval ({@link budgetScopeKey}), so admission costs at most four lookups.
import { SimulatorError, SimulatorErrorCode } from '../errors.js'
import { type InstantInput, formatTimestamp, toEpochMs } from '../time.js'
import { MAX_EXACT_USD, limitUnits, toUnits, toUsd, type UsageFigures, type UsageWindows } from '../usage.js'
import { ArgumentChecker, fieldsOf, UUID } from './check.js'
import { type StoreContext, atomically } from './context.js'
import type { BudgetInterval, BudgetState, WorkspaceState } from './state.js'
import { type SpendGroup, workspaceGroup } from './spend-groups.js'
import { put, remove } from './versions.js'
import { type WorkspaceRef, requireWorkspace, updateWorkspace } from './workspaces.js'

/** The intervals a workspace budget may have, narrowest first: `lifetime` never resets. */
export const BUDGET_INTERVALS: readonly BudgetInterval[] = ['daily', 'weekly', 'monthly', 'lifetime']

/**
 * A workspace budget as `GET /workspaces/{workspace_ref}/budgets/{interval}` answers it (`data`).
 *
 * @example
 * import { createSimulator } from 'model-access-sim'
 * const sim = createSimulator()
 * const res = sim.handle({
 *   method: 'PUT',
 *   path: '/workspaces/staging/budgets/lifetime',
 *   authorization: `Bearer ${sim.world.managementKey}`,
 *   body: JSON.stringify({ limit_usd: 250 }),
 * })
 * const { data } = res.body as { data: { reset_interval: string | null; limit_usd: number } }
 * console.log(res.status, data.reset_interval, data.limit_usd)
 * //=> 200 null 250
 */
export interface WorkspaceBudget {
  id: string
  workspace_id: string
  limit_usd: number
  /** Null for a lifetime budget. */
  reset_interval: 'daily' | 'weekly' | 'monthly' | null
  created_at: string
  updated_at: string
}

/** The store's key of a budget: its workspace and its interval. */
export function budgetScopeKey(workspaceId: string, interval: BudgetInterval): string {
  return `${workspaceId}\u0000${interval}`
}

/**
 * What `sim.budgets.set` takes: the workspace, the interval and its limit in USD (above 0); and,
 * optionally, the workspace-wide `includeByokInBudgets`.
 *
 * @example
 * import { createSimulator } from 'model-access-sim'
 * const sim = createSimulator()
 * const budget = sim.budgets.set({ workspace: sim.world.workspaces.staging, interval: 'daily', limitUsd: 5 })
 * console.log(budget.reset_interval, budget.limit_usd)
 * //=> daily 5
 */
export interface SetBudgetOptions {
  /** The workspace: its UUID, or `{ userId, slug }`. */
  workspace: WorkspaceRef
  interval: BudgetInterval
  /** Above 0; limits must strictly decrease as the interval narrows (lifetime > monthly > weekly > daily). */
  limitUsd: number
  /** The workspace's `include_byok_in_budgets`, for all its budgets; absent: left as it is. */
  includeByokInBudgets?: boolean | undefined
  /** A UUID for a new budget; generated when absent. */
  id?: string | undefined
  /** When a new budget was made; default the clock's now. */
  createdAt?: InstantInput | undefined
}

/**
 * `sim.budgets`: workspace budgets, as `GET /workspaces/{workspace_ref}/budgets` shows them.
 *
 * @example
 * import { createSimulator } from 'model-access-sim'
 * const sim = createSimulator()
 * const workspace = sim.workspaces.create({ userId: sim.world.userId, name: 'Agents', slug: 'agents' }).id
 * sim.budgets.set({ workspace, interval: 'monthly', limitUsd: 100 })
 * sim.budgets.set({ workspace, interval: 'daily', limitUsd: 10 })
 * console.log(sim.budgets.list(workspace).map((b) => b.reset_interval), sim.budgets.spent(workspace, 'daily'))
 * //=> ["daily","monthly"] 0
 */
export interface BudgetCollection {
  /**
   * Creates or changes the budget of a workspace for an interval and returns it. An unknown
   * workspace throws UNKNOWN_WORKSPACE; a bad interval, a limit not above 0, or one that breaks
   * the order of the workspace's other budgets, INVALID_ARGUMENT naming it.
   */
  set(options: SetBudgetOptions): WorkspaceBudget
  /** The workspace's budget for `interval`, or undefined. */
  get(workspace: WorkspaceRef, interval: BudgetInterval): WorkspaceBudget | undefined
  /** The workspace's budgets, narrowest interval first; without a workspace, every workspace's. */
  list(workspace?: WorkspaceRef): WorkspaceBudget[]
  /** Deletes the workspace's budget for `interval`; returns whether there was one. */
  delete(workspace: WorkspaceRef, interval: BudgetInterval): boolean
  /** What the workspace's keys spent in the interval's current window, in USD, as its budget counts it. */
  spent(workspace: WorkspaceRef, interval: BudgetInterval): number
}

export const SET_FIELDS = fieldsOf<SetBudgetOptions>({ workspace: true, interval: true, limitUsd: true, includeByokInBudgets: true, id: true, createdAt: true })

/** The budget as the wire shows it. */
export function budgetWire(budget: BudgetState): WorkspaceBudget {
  return {
    id: budget.id,
    workspace_id: budget.workspaceId,
    limit_usd: budget.limitUsd,
    reset_interval: budget.interval === 'lifetime' ? null : budget.interval,
    created_at: formatTimestamp(budget.createdAt),
    updated_at: formatTimestamp(budget.updatedAt),
  }
}

/** The budgets of a workspace, narrowest interval first. */
export function budgetsOf(ctx: StoreContext, workspaceId: string): BudgetState[] {
  const own: BudgetState[] = []
  // Indexed: a governed request asks on every charge, mostly before the JIT has compiled this (decisions/0033).
  for (let i = 0; i < BUDGET_INTERVALS.length; i++) {
    const budget = ctx.data.budgets.get(budgetScopeKey(workspaceId, BUDGET_INTERVALS[i] as BudgetInterval))
    if (budget !== undefined) own.push(budget)
  }
  return own
}

/**
 * Why `limitUsd` for `interval` cannot join the workspace's other budgets, or null: limits must
 * strictly decrease as the interval narrows (the service's rule: lifetime > monthly > weekly > daily).
 */
export function budgetOrderProblem(ctx: StoreContext, workspaceId: string, interval: BudgetInterval, limitUsd: number): string | null {
  const at = BUDGET_INTERVALS.indexOf(interval)
  for (const other of budgetsOf(ctx, workspaceId)) {
    const there = BUDGET_INTERVALS.indexOf(other.interval)
    if (there < at && !(other.limitUsd < limitUsd)) return `must be more than the ${other.interval} budget's ${other.limitUsd}: limits must strictly decrease as the interval narrows (lifetime > monthly > weekly > daily)`
    if (there > at && !(other.limitUsd > limitUsd)) return `must be less than the ${other.interval} budget's ${other.limitUsd}: limits must strictly decrease as the interval narrows (lifetime > monthly > weekly > daily)`
  }
  return null
}

/** A fresh UUID no budget has (drawn from the seeded stream). */
function freshId(ctx: StoreContext): string {
  let id: string
  do id = ctx.random.uuid()
  while (budgetIdTaken(ctx, id))
  return id
}

function budgetIdTaken(ctx: StoreContext, id: string): boolean {
  for (const budget of ctx.data.budgets.values()) if (budget.id === id) return true
  return false
}

/**
 * Stores the budget of `workspace` for `interval` at `limitUsd` (checked already): a new one (id
 * drawn unless given) or the existing one changed, its id and creation kept. Returns it.
 */
export function writeBudget(ctx: StoreContext, workspace: WorkspaceState, interval: BudgetInterval, limitUsd: number, fields: { id?: string; createdAt?: number; updatedAt?: number } = {}): BudgetState {
  const now = ctx.clock.nowMs()
  const scope = budgetScopeKey(workspace.record.id, interval)
  const existing = ctx.data.budgets.get(scope)
  const budget: BudgetState =
    existing === undefined
      ? { id: fields.id ?? freshId(ctx), userId: workspace.userId, workspaceId: workspace.record.id, interval, limitUsd, createdAt: fields.createdAt ?? now, updatedAt: fields.updatedAt ?? fields.createdAt ?? now }
      : { ...existing, limitUsd, updatedAt: fields.updatedAt ?? now }
  put(ctx, 'budgets', scope, budget)
  return budget
}

/** Sets the workspace-wide `include_byok_in_budgets`, when it changes. */
export function setIncludeByok(ctx: StoreContext, workspace: WorkspaceState, include: boolean): void {
  if (workspace.record.include_byok_in_budgets !== include) updateWorkspace(ctx, workspace, { include_byok_in_budgets: include })
}

/** Deletes a budget; returns whether there was one. */
export function deleteBudget(ctx: StoreContext, workspaceId: string, interval: BudgetInterval): boolean {
  const scope = budgetScopeKey(workspaceId, interval)
  if (!ctx.data.budgets.has(scope)) return false
  remove(ctx, 'budgets', scope)
  return true
}



/** The figure of `f` an interval's budget counts, in 10^-10 USD: regular spend, and BYOK spend when `includeByok`. */
export function spentIn(f: Readonly<UsageFigures>, interval: BudgetInterval, includeByok: boolean): number {
  switch (interval) {
    case 'daily':
      return f.daily + (includeByok ? f.byokDaily : 0)
    case 'weekly':
      return f.weekly + (includeByok ? f.byokWeekly : 0)
    case 'monthly':
      return f.monthly + (includeByok ? f.byokMonthly : 0)
    case 'lifetime':
      return f.total + (includeByok ? f.byokTotal : 0)
  }
}

/**
 * What the workspace's keys spent in each interval's window at `windows`, in 10^-10 USD: the sum
 * over its present keys (a deleted key's spend leaves with it, decisions/0052), kept as they spend
 * (decisions/0060).
 */
export function workspaceSpend(ctx: StoreContext, workspace: WorkspaceState, windows: UsageWindows): Record<BudgetInterval, number> {
  const includeByok = workspace.record.include_byok_in_budgets === true
  const f = ctx.indices.spendGroups.at(workspaceKeys(ctx, workspace.record.id), ctx.data.keys, windows)
  return { daily: spentIn(f, 'daily', includeByok), weekly: spentIn(f, 'weekly', includeByok), monthly: spentIn(f, 'monthly', includeByok), lifetime: spentIn(f, 'lifetime', includeByok) }
}

/** The group of a workspace's listable keys (management keys are not), for its kept spend. */
function workspaceKeys(ctx: StoreContext, workspaceId: string): SpendGroup {
  return {
    id: workspaceGroup(workspaceId),
    counts: (key) => !key.management && key.workspaceId === workspaceId,
    candidates: function* () {
      const index = ctx.indices.listableKeys.get(workspaceId)
      if (index !== undefined) for (const order of index.all.pageFromEnd(0, index.all.size)) yield order.hash
    },
  }
}

/** The first budget of the workspace with nothing left at `windows` (spend at or over its limit), or undefined. */
export function exhaustedBudget(ctx: StoreContext, workspaceId: string, windows: UsageWindows): BudgetState | undefined {
  // A world without budgets (most) makes no scope keys for every request.
  if (ctx.data.budgets.size === 0) return undefined
  const budgets = budgetsOf(ctx, workspaceId)
  if (budgets.length === 0) return undefined
  const workspace = ctx.data.workspaces.get(workspaceId)
  if (workspace === undefined) return undefined
  // Each budget's window read from the sums as workspaceSpend reads them, without its record of all four.
  const includeByok = workspace.record.include_byok_in_budgets === true
  const f = ctx.indices.spendGroups.at(workspaceKeys(ctx, workspaceId), ctx.data.keys, windows)
  for (let i = 0; i < budgets.length; i++) {
    const budget = budgets[i] as BudgetState
    if (spentIn(f, budget.interval, includeByok) >= limitUnits(budget.limitUsd)) return budget
  }
  return undefined
}

/** Checks a limit for the programmatic API: above 0, within the exact range. */
function checkLimit(check: ArgumentChecker, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > MAX_EXACT_USD) check.fail('limitUsd', `must be a number above 0 and at most ${MAX_EXACT_USD}, got ${JSON.stringify(value)}`)
  return value
}

/**
 * Validates `sim.budgets.set`'s options and stores the budget: what the programmatic API and the
 * world loader share. Throws a SimulatorError naming the bad option.
 */
export function setBudgetFromOptions(ctx: StoreContext, options: SetBudgetOptions, operation = 'set budget', updatedAt?: number): BudgetState {
  const check = new ArgumentChecker(operation)
  check.knownFields(check.object(options, 'options'), SET_FIELDS, '', 'a budget')
  const workspace = requireWorkspace(ctx, options.workspace, operation)
  const interval = check.oneOf(options.interval, BUDGET_INTERVALS, 'interval')
  const limitUsd = checkLimit(check, options.limitUsd)
  const problem = budgetOrderProblem(ctx, workspace.record.id, interval, limitUsd)
  if (problem !== null) check.fail('limitUsd', problem)
  const include = options.includeByokInBudgets === undefined ? undefined : check.boolean(options.includeByokInBudgets, 'includeByokInBudgets')
  let id: string | undefined
  if (options.id !== undefined) {
    id = check.string(options.id, 'id', UUID, 'a UUID such as "550e8400-e29b-41d4-a716-446655440000"').toLowerCase()
    if (budgetIdTaken(ctx, id)) throw new SimulatorError(SimulatorErrorCode.DuplicateId, `Failed to ${operation}: id "${id}" is already taken.`, { argument: 'id' })
  }
  const createdAt = options.createdAt === undefined ? undefined : toEpochMs(options.createdAt, operation, 'createdAt')
  if (include !== undefined) setIncludeByok(ctx, workspace, include)
  return writeBudget(ctx, ctx.data.workspaces.get(workspace.record.id) as WorkspaceState, interval, limitUsd, {
    ...(id !== undefined && { id }),
    ...(createdAt !== undefined && { createdAt }),
    ...(updatedAt !== undefined && { updatedAt }),
  })
}

export function createBudgetCollection(ctx: StoreContext): BudgetCollection {
  const interval = (value: unknown, operation: string): BudgetInterval => new ArgumentChecker(operation).oneOf(value, BUDGET_INTERVALS, 'interval')
  return {
    set: (options) => atomically(ctx, () => budgetWire(setBudgetFromOptions(ctx, options))),
    get: (workspace, which) => {
      const state = requireWorkspace(ctx, workspace, 'get budget')
      const budget = ctx.data.budgets.get(budgetScopeKey(state.record.id, interval(which, 'get budget')))
      return budget === undefined ? undefined : budgetWire(budget)
    },
    list: (workspace) => {
      if (workspace !== undefined) return budgetsOf(ctx, requireWorkspace(ctx, workspace, 'list budgets').record.id).map(budgetWire)
      return [...ctx.data.budgets.values()].map(budgetWire)
    },
    delete: (workspace, which) => deleteBudget(ctx, requireWorkspace(ctx, workspace, 'delete budget').record.id, interval(which, 'delete budget')),
    spent: (workspace, which) => {
      const state = requireWorkspace(ctx, workspace, 'read budget spend')
      const units = workspaceSpend(ctx, state, ctx.windows.at(ctx.clock.nowMs()))[interval(which, 'read budget spend')]
      return toUsd(units)
    },
  }
}
