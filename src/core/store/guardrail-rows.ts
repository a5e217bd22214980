// The rows of guardrails (decisions/0051, 0055): writing and deleting one with its assignments,
// and each workspace's default guardrail, made with the workspace. Apart from store/guardrails.ts
// so that store/workspaces.ts, which makes and deletes default guardrails, needs nothing above it.
import type { GuardrailRules, GuardrailState, StoreData, WorkspaceState } from './state.js'
import type { StoreContext } from './context.js'
import { put, remove } from './versions.js'

/** The rules of a guardrail nothing was given for. */
export const EMPTY_RULES: Omit<GuardrailRules, 'name'> = {
  description: null,
  allowed_models: null,
  ignored_models: null,
  allowed_providers: null,
  ignored_providers: null,
  allowed_data_regions: null,
  content_filters: null,
  content_filter_builtins: null,
  enable_free_model_publication: null,
  enable_free_model_training: null,
  enable_paid_model_training: null,
  enforce_zdr: null,
  enforce_zdr_anthropic: null,
  enforce_zdr_google: null,
  enforce_zdr_openai: null,
  enforce_zdr_other: null,
  enforce_zdr_xai: null,
  include_byok_in_budgets: false,
  limit_usd: null,
  reset_interval: null,
}

/**
 * The rules of a workspace's default guardrail as it is made: none, under one name. One shared,
 * frozen object: a default guardrail whose rules are this object has never been changed, which is
 * how `exportWorld()` leaves it out (the workspace makes it again) and how enforcement skips it.
 */
export const DEFAULT_GUARDRAIL_RULES: Readonly<GuardrailRules> = Object.freeze({ name: 'Default guardrail', ...EMPTY_RULES })

/** The default guardrail a new workspace gets, with the id its `default_guardrail_id` names (decisions/0055). */
export function defaultGuardrailOf(workspace: WorkspaceState, createdAt: number): GuardrailState {
  return { id: workspace.record.default_guardrail_id, userId: workspace.userId, workspaceId: workspace.record.id, rules: DEFAULT_GUARDRAIL_RULES, createdAt, updatedAt: null }
}

/** Whether a guardrail is a workspace's default as it was made: no rules given, no key or member assigned. */
export function untouchedDefault(data: Pick<StoreData, 'guardrailKeys' | 'guardrailMembers'>, guardrail: GuardrailState): boolean {
  if (guardrail.rules !== DEFAULT_GUARDRAIL_RULES) return false
  for (const a of data.guardrailKeys.values()) if (a.guardrailId === guardrail.id) return false
  for (const a of data.guardrailMembers.values()) if (a.guardrailId === guardrail.id) return false
  return true
}

export function writeGuardrail(ctx: StoreContext, guardrail: GuardrailState): GuardrailState {
  put(ctx, 'guardrails', guardrail.id, guardrail)
  return guardrail
}

/** Deletes a guardrail and its assignments. */
export function deleteGuardrail(ctx: StoreContext, guardrail: GuardrailState): void {
  for (const [hash, a] of ctx.data.guardrailKeys) if (a.guardrailId === guardrail.id) remove(ctx, 'guardrailKeys', hash)
  for (const [scope, a] of ctx.data.guardrailMembers) if (a.guardrailId === guardrail.id) remove(ctx, 'guardrailMembers', scope)
  remove(ctx, 'guardrails', guardrail.id)
}
