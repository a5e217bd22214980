// Guardrails on the money path (decisions/0055): the guardrails that govern a key's request (its
// workspace's default guardrail, its member's, its own), and the rules they apply at the admit and
// route steps: the models and providers it may use, zero data retention, data regions, training,
// a spend limit per interval on the key and on its member, and content filters over the prompt.
// Several guardrails combine so that the strictest wins: every one must allow a model or an
// endpoint, each limit is checked on its own, and a block beats a redaction beats a flag. A refusal
// is a 403 naming the guardrail and the rule; it charges nothing.
import { ApiError } from '../errors.js'
import { spentIn } from '../store/budgets.js'
import { providerSlug } from '../store/catalog.js'
import type { StoreContext } from '../store/context.js'
import { canonicalSlugOf } from '../store/models.js'
import type { GuardrailFlag } from '../protocol.js'
import type { GuardrailRules, GuardrailState, KeyState } from '../store/state.js'
import { QUANTIZATIONS, type Endpoint, type ModelWithEndpoints } from '../types.js'
import { figuresAt, limitUnits, toUnits, type UsageFigures, type UsageWindows } from '../usage.js'
import { memberGroup, type SpendGroup } from '../store/spend-groups.js'
import type { InputMessage } from './request.js'
import { type CompiledFilter, type FilterFlag, compileFilters, scanMessages } from './content-filters.js'
import { isFree } from './route.js'

/** How a guardrail came to govern a request. */
export type GuardrailVia = 'workspace' | 'member' | 'key'

/** A guardrail that governs a request, and how: through the key's workspace, its member or itself. */
export interface Governing {
  readonly guardrail: GuardrailState
  readonly via: GuardrailVia
}

/** No guardrail: shared, never written to. */
const NONE: readonly Governing[] = Object.freeze([])

/**
 * The guardrails that govern a key's requests, in the order a refusal looks for the one to name:
 * its workspace's default guardrail, then its member's (the member named by the key's
 * `creator_user_id`), then its own. Empty (the shared empty list) when none does: a few map
 * lookups, a workspace's untouched default guardrail skipped by a check kept per rules object.
 */
export function governing(ctx: StoreContext, key: KeyState): readonly Governing[] {
  const table = ctx.data.guardrails
  if (table.size === 0) return NONE
  let found: Governing[] | undefined
  const workspace = ctx.data.workspaces.get(key.workspaceId)
  const fallback = workspace === undefined ? undefined : table.get(workspace.record.default_guardrail_id)
  if (fallback !== undefined && fallback.userId === key.userId && !inert(fallback.rules)) (found ??= []).push({ guardrail: fallback, via: 'workspace' })
  const member = key.creatorUserId
  if (member !== null && ctx.data.guardrailMembers.size > 0) {
    for (const a of ctx.data.guardrailMembers.values()) {
      if (a.userId !== key.userId || a.memberId !== member) continue
      const guardrail = table.get(a.guardrailId)
      if (guardrail !== undefined && !inert(guardrail.rules)) (found ??= []).push({ guardrail, via: 'member' })
    }
  }
  const own = ctx.data.guardrailKeys.get(key.hash)
  const guardrail = own === undefined ? undefined : table.get(own.guardrailId)
  if (guardrail !== undefined && !inert(guardrail.rules)) (found ??= []).push({ guardrail, via: 'key' })
  return found ?? NONE
}

/** Whether a guardrail's rules restrict nothing (a workspace's untouched default guardrail): it is then skipped. */
const inertRules = new WeakMap<Readonly<GuardrailRules>, boolean>()
function inert(rules: Readonly<GuardrailRules>): boolean {
  let known = inertRules.get(rules)
  if (known === undefined) {
    known =
      rules.allowed_models === null &&
      rules.ignored_models === null &&
      rules.allowed_providers === null &&
      rules.ignored_providers === null &&
      rules.allowed_data_regions === null &&
      (rules.content_filters === null || rules.content_filters.length === 0) &&
      (rules.content_filter_builtins === null || rules.content_filter_builtins.length === 0) &&
      rules.enable_free_model_training !== false &&
      rules.enforce_zdr !== true &&
      rules.enforce_zdr_anthropic !== true &&
      rules.enforce_zdr_google !== true &&
      rules.enforce_zdr_openai !== true &&
      rules.enforce_zdr_other !== true &&
      rules.enforce_zdr_xai !== true &&
      rules.limit_usd === null
    inertRules.set(rules, known)
  }
  return known
}

/** The 403 of a guardrail's rule: the message names the guardrail and the rule; `metadata` says more (its `reason` replaces `guardrail_refused`). */
function refusal(guardrail: GuardrailState, rule: string, why: string, metadata: Record<string, unknown> = {}): ApiError {
  return new ApiError(403, {
    message: `Guardrail "${guardrail.rules.name}" (${guardrail.id}) refused the request: ${rule} ${why}`,
    metadata: { reason: 'guardrail_refused', guardrail_id: guardrail.id, guardrail_name: guardrail.rules.name, rule, ...metadata },
  })
}

// ---- models ----------------------------------------------------------------------------------------

/** Whether a guardrail's list of models names a model: by its id, its canonical slug, or the id the request gave. */
function listsModel(list: readonly string[], model: ModelWithEndpoints, requested: string): boolean {
  return list.includes(model.id) || list.includes(requested) || list.includes(canonicalSlugOf(model))
}

/**
 * The 403 of the first guardrail that does not let the request use a model (`allowed_models`
 * without it, `ignored_models` with it), or null when every one does. `requested`: the id the
 * request gave (a variant such as `:free` may be listed by itself).
 */
export function modelRefusal(guards: readonly Governing[], model: ModelWithEndpoints, requested: string): ApiError | null {
  for (const { guardrail } of guards) {
    const { allowed_models: allowed, ignored_models: ignored } = guardrail.rules
    if (allowed !== null && allowed.length > 0 && !listsModel(allowed, model, requested)) {
      return refusal(guardrail, 'allowed_models', `does not list ${requested}`, { model: requested })
    }
    if (ignored !== null && listsModel(ignored, model, requested)) return refusal(guardrail, 'ignored_models', `lists ${requested}`, { model: requested })
  }
  return null
}

// ---- endpoints --------------------------------------------------------------------------------------

/**
 * Whether an endpoint keeps no data. The catalog carries no retention policy; the one data policy
 * it tells is the price: on the service, free endpoints are the ones whose providers may keep and
 * train on prompts (decisions/0024, `data_collection: "deny"`), so a paid endpoint is zero-retention.
 */
export const isZdrEndpoint = (endpoint: Endpoint): boolean => !isFree(endpoint.pricing)

/** An endpoint's names a provider list may use, lower case: its provider's name and slug, its tag. Kept per endpoint (a pure function of it). */
const endpointNames = new WeakMap<Endpoint, readonly [string, string, string]>()

/** Whether a provider list names an endpoint: its provider's name or slug, or its tag or a tag above it, in any case. */
function listsProvider(list: readonly string[], endpoint: Endpoint): boolean {
  let known = endpointNames.get(endpoint)
  if (known === undefined) {
    known = [endpoint.provider_name.toLowerCase(), providerSlug(endpoint.provider_name), endpoint.tag.toLowerCase()]
    endpointNames.set(endpoint, known)
  }
  const [name, slug, tag] = known
  for (const item of list) {
    const wanted = item.toLowerCase()
    if (wanted === name || wanted === slug || wanted === tag || tag.startsWith(wanted + '/')) return true
  }
  return false
}

/** The ZDR flag of a model's group, by its author: `openai`, `anthropic`, `google`, `x-ai`; any other is `other`. */
function zdrGroupRule(modelId: string): 'enforce_zdr_openai' | 'enforce_zdr_anthropic' | 'enforce_zdr_google' | 'enforce_zdr_xai' | 'enforce_zdr_other' {
  const author = modelId.slice(0, modelId.indexOf('/'))
  if (author === 'openai') return 'enforce_zdr_openai'
  if (author === 'anthropic') return 'enforce_zdr_anthropic'
  if (author === 'google') return 'enforce_zdr_google'
  if (author === 'x-ai') return 'enforce_zdr_xai'
  return 'enforce_zdr_other'
}

/**
 * An endpoint's data region: the region its tag names after the provider (`google-vertex/europe`
 * is `europe`, `…/us` is `us`), else `global`. A quantization after the `/` is no region.
 */
export function endpointRegion(endpoint: Endpoint): string {
  const slash = endpoint.tag.indexOf('/')
  if (slash === -1) return 'global'
  const suffix = endpoint.tag.slice(slash + 1)
  return (QUANTIZATIONS as readonly string[]).includes(suffix) ? 'global' : suffix
}

/**
 * The 403 of the first guardrail that keeps the request off an endpoint of `model`, or null when
 * every one lets it on: `allowed_providers` without its provider, `ignored_providers` with it,
 * `enforce_zdr` or the model group's `enforce_zdr_*` on an endpoint that keeps data (a free one),
 * `allowed_data_regions` without its region, `enable_free_model_training: false` on a free
 * endpoint (whose providers may train on prompts).
 */
export function endpointRefusal(guards: readonly Governing[], model: ModelWithEndpoints, endpoint: Endpoint): ApiError | null {
  // Made once per endpoint, not per guardrail: the metadata of a refusal, and the model's ZDR group.
  const at = (): Record<string, unknown> => ({ provider: endpoint.provider_name, endpoint: endpoint.tag })
  const group = zdrGroupRule(model.id)
  for (const { guardrail } of guards) {
    const rules = guardrail.rules
    if (rules.allowed_providers !== null && rules.allowed_providers.length > 0 && !listsProvider(rules.allowed_providers, endpoint)) {
      return refusal(guardrail, 'allowed_providers', `does not list ${endpoint.provider_name}`, at())
    }
    if (rules.ignored_providers !== null && listsProvider(rules.ignored_providers, endpoint)) return refusal(guardrail, 'ignored_providers', `lists ${endpoint.provider_name}`, at())
    if (rules.enforce_zdr === true && !isZdrEndpoint(endpoint)) {
      return refusal(guardrail, 'enforce_zdr', `requires zero data retention, which ${endpoint.provider_name}'s free endpoint does not give`, at())
    }
    if (rules[group] === true && !isZdrEndpoint(endpoint)) {
      return refusal(guardrail, group, `requires zero data retention for ${model.id}, which ${endpoint.provider_name}'s free endpoint does not give`, at())
    }
    if (rules.allowed_data_regions !== null && rules.allowed_data_regions.length > 0) {
      const region = endpointRegion(endpoint)
      if (!(rules.allowed_data_regions as readonly string[]).includes(region)) return refusal(guardrail, 'allowed_data_regions', `does not list ${region}, where ${endpoint.tag} keeps data`, { ...at(), region })
    }
    if (rules.enable_free_model_training === false && isFree(endpoint.pricing)) {
      return refusal(guardrail, 'enable_free_model_training', `is false, and ${endpoint.provider_name}'s free endpoint may train on prompts`, at())
    }
  }
  return null
}

// ---- spend limits -----------------------------------------------------------------------------------

/** A guardrail's limit as a budget's interval: null (no reset) is the key's whole spend. */
const intervalOf = (rules: Readonly<GuardrailRules>): 'daily' | 'weekly' | 'monthly' | 'lifetime' => rules.reset_interval ?? 'lifetime'

/** What the keys of an organisation naming `memberId` as their creator spent, figure by figure. */
export function memberFigures(ctx: StoreContext, userId: string, memberId: string, windows: UsageWindows): Readonly<UsageFigures> {
  // Kept as the member's keys spend (decisions/0060): the keys written since the last check are read again, not every key.
  const group: SpendGroup = {
    id: memberGroup(userId, memberId),
    counts: (key) => !key.management && key.userId === userId && key.creatorUserId === memberId,
    candidates: function* () {
      for (const workspace of ctx.data.workspaces.values()) {
        if (workspace.userId !== userId) continue
        const index = ctx.indices.listableKeys.get(workspace.record.id)
        if (index !== undefined) for (const order of index.all.pageFromEnd(0, index.all.size)) yield order.hash
      }
    },
  }
  return ctx.indices.spendGroups.at(group, ctx.data.keys, windows)
}

/**
 * Refuses with 403 a request when a governing guardrail's `limit_usd` is spent, by the key's rule
 * (a request that starts under the limit completes; the next is refused). A guardrail's limit is
 * per entity, never shared: the key's own guardrail and its workspace's default count what the
 * key spent; a member's guardrail counts what the member's keys spent together. The window is the
 * guardrail's `reset_interval` (null: all time); BYOK spend counts under `include_byok_in_budgets`.
 */
export function refuseAtGuardrailLimits(ctx: StoreContext, key: KeyState, guards: readonly Governing[], now: number): void {
  if (guards.length === 0) return
  let windows: UsageWindows | undefined
  for (const { guardrail, via } of guards) {
    const rules = guardrail.rules
    if (rules.limit_usd === null) continue
    windows ??= ctx.windows.at(now)
    const byMember = via === 'member'
    const figures = byMember ? memberFigures(ctx, key.userId, key.creatorUserId as string, windows) : figuresAt(key.usage, key.usageCount, windows)
    const interval = intervalOf(rules)
    if (spentIn(figures, interval, rules.include_byok_in_budgets) < limitUnits(rules.limit_usd)) continue
    const span = rules.reset_interval === null ? 'all-time' : rules.reset_interval
    const who = byMember ? `member ${key.creatorUserId}` : `key ${key.name}`
    throw refusal(guardrail, 'limit_usd', `is reached: ${who} has spent its ${span} limit of ${rules.limit_usd} USD`, {
      reason: 'guardrail_limit_exceeded',
      limit_usd: rules.limit_usd,
      reset_interval: rules.reset_interval,
      ...(byMember ? { user_id: key.creatorUserId } : { key_hash: key.hash }),
    })
  }
}

// ---- content filters --------------------------------------------------------------------------------

/** What the content filters made of a request's messages: the messages the model sees, and the flags raised. */
export interface FilteredMessages {
  messages: InputMessage[]
  /** For the journal's `guardrailFlags`; the shared empty list when nothing was flagged. */
  flags: GuardrailFlag[]
}

const NO_FILTERS: readonly CompiledFilter[] = Object.freeze([])

/** No flags: shared, never written to. */
const NO_FLAGS: GuardrailFlag[] = Object.freeze([]) as unknown as GuardrailFlag[]

const journalFlag = (flag: FilterFlag): GuardrailFlag => ({ guardrailId: flag.guardrailId, guardrail: flag.guardrailName, rule: flag.rule, label: flag.label, message: flag.message, matches: flag.matches })

/**
 * Runs the governing guardrails' content filters over a request's messages: a block is a 403
 * naming the guardrail and the filter (nothing charged); redactions change the text the model sees
 * (and the prompt tokens counted); flags are returned for the journal. `messages` is returned as
 * it is when nothing was redacted.
 */
export function filterMessages(guards: readonly Governing[], messages: InputMessage[]): FilteredMessages {
  if (guards.length === 0) return { messages, flags: NO_FLAGS }
  // Most guardrails have no filter: nothing is made for them.
  let filters: readonly CompiledFilter[] = NO_FILTERS
  for (const { guardrail } of guards) {
    const own = compileFilters(guardrail)
    if (own.length > 0) filters = filters.length === 0 ? own : [...filters, ...own]
  }
  if (filters.length === 0) return { messages, flags: NO_FLAGS }
  const given = messages.map((m) => m.text)
  const scan = scanMessages(filters, messages, given)
  if (scan.block !== null) {
    const { guardrailId, rule, label, message } = scan.block
    const guardrail = guards.find((g) => g.guardrail.id === guardrailId)?.guardrail as GuardrailState
    throw refusal(guardrail, rule, `blocks the request: messages[${message}] matches ${label}`, { reason: 'guardrail_content_blocked', label, message })
  }
  const texts = scan.texts
  // The same texts (nothing redacted): the same messages.
  const filtered = texts === given ? messages : messages.map((m, i) => (m.text === texts[i] ? m : { ...m, text: texts[i] as string }))
  return { messages: filtered, flags: scan.flags.length === 0 ? NO_FLAGS : scan.flags.map(journalFlag) }
}
