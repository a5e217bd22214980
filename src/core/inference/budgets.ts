// Admission by the caller's workspace budgets (decisions/0052), beside the key's limit: the key-limit
// rule over what all the workspace's keys spent in each budget's window (a request that starts
// under every limit completes, whatever it costs; the next is refused, charging nothing).
import { ApiError } from '../errors.js'
import { exhaustedBudget } from '../store/budgets.js'
import type { StoreContext } from '../store/context.js'
import type { KeyState } from '../store/state.js'

/** The message of a workspace budget's 403, naming the interval as the key limit's names its period. */
export function budgetMessage(interval: string): string {
  return `Workspace budget exceeded (${interval} limit). Manage it using https://openrouter.ai/settings/workspaces`
}

/** Refuses with 403 a request of a key whose workspace has a budget with nothing left at `now`. */
export function refuseAtWorkspaceBudget(ctx: StoreContext, key: KeyState, now: number): void {
  const budget = exhaustedBudget(ctx, key.workspaceId, ctx.windows.at(now))
  if (budget === undefined) return
  throw new ApiError(403, {
    message: budgetMessage(budget.interval),
    metadata: { reason: 'workspace_budget_exceeded', workspace_id: budget.workspaceId, interval: budget.interval, limit_usd: budget.limitUsd },
  })
}
