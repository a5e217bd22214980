// Steps 2 and 4 of the money path: which model a request names, and in which order its endpoints
// are tried (decisions/0024 gives the rules and why).
import { ApiError } from '../errors.js'
import { compilePricing, type CompiledPricing } from '../pricing/compile.js'
import { type ResolvedPricing } from '../pricing/rules.js'
import { parseDecimal, rescale } from '../pricing/decimal.js'
import type { Random } from '../random.js'
import type { StoreContext } from '../store/context.js'
import { canonicalSlugOf } from '../store/models.js'
import { QUANTIZATIONS, type Endpoint, type ModelWithEndpoints, type Pricing } from '../types.js'
import { memoByRecord } from '../memo.js'
import { BodyReader } from '../body.js'
import { nearestIds } from './nearest-ids.js'
import type { ChatInput, ProviderSort } from './request.js'

// Compiled pricings by pricing object: store rows are values, so a pricing object never changes
// and its compiled form can be kept beside it (core/memo.ts).
const compiled = memoByRecord((pricing: Pricing): CompiledPricing => compilePricing(pricing))

/** The compiled form of an endpoint's pricing (validated when the model was stored). */
export function pricingOf(endpoint: Endpoint): CompiledPricing {
  return compiled(endpoint.pricing)
}

/** A model a request names, with the endpoints that serve it. */
export interface ResolvedModel {
  /** The id as the request gave it (`meta-llama/llama-3.3-70b-instruct:free`); for `openrouter/auto`, the id it picked. */
  id: string
  model: ModelWithEndpoints
  endpoints: readonly Endpoint[]
  /** A variant that sorts by itself: `:nitro` (throughput), `:floor` (price), `:exacto`. */
  sort: ProviderSort | null
  /** What answers and generations name the model by: the serving model's canonical slug (dated in the real catalog), with `:free`, `:online` or `:thinking` when asked for; a routing variant's base model; `openrouter/auto`'s pick. */
  reported: string
  /** `:online`: the request searches the web, billed with it (decisions/0038). */
  webSearch: boolean
  /** `:thinking`: reasoning on, served by the endpoints that support it. */
  reasoning: boolean
  /** Why this entry cannot be served (`openrouter/auto` with no model that fits): answered if nothing after it answers. */
  failure?: ApiError
}

/** Whether every price of an endpoint is "0": a free endpoint (the `:free` variant's). */
export function isFree(pricing: Pricing): boolean {
  return freeByPricing(pricing)
}

// Pricing objects are values that never change (see `compiled`): whether one is free is kept beside it.
const freeByPricing = memoByRecord((pricing: Pricing): boolean => Object.entries(pricing).every(([key, value]) => key === 'overrides' || key === 'discount' || value === '0'))

/** The variants the simulator knows (decisions/0038), in the order its messages list them. */
const MODEL_VARIANTS = ['free', 'nitro', 'floor', 'online', 'thinking', 'exacto', 'extended'] as const

/** The routing variants: a provider sort, as `provider.sort` names it. */
const ROUTING_VARIANTS: Readonly<Record<string, ProviderSort>> = { nitro: 'throughput', floor: 'price', exacto: 'exacto' }

/**
 * The web plugin's price of one result (Exa, $4 per 1,000) and the results it fetches without
 * `max_results`: $0.02 a request (decisions/0038).
 */
const PLUGIN_RESULT_PRICE = '0.004'
const PLUGIN_DEFAULT_RESULTS = 5

/** A request's web search (`:online`, or a `{ id: "web" }` plugin): the results the plugin fetches. */
export interface WebSearch {
  results: number
}

/** `:online` without a plugin entry: the plugin's defaults. */
export const DEFAULT_WEB_SEARCH: WebSearch = Object.freeze({ results: PLUGIN_DEFAULT_RESULTS })

const pluginPricings = memoByRecord((pricing: Pricing): CompiledPricing => compilePricing({ ...pricing, web_search: PLUGIN_RESULT_PRICE }))

/**
 * What a request's web search bills on an endpoint (decisions/0038): an endpoint whose pricing
 * lists a `web_search` price above 0 searches natively, one search at that price; any other uses the
 * plugin, each result at {@link PLUGIN_RESULT_PRICE}. The pricing to charge with, and the count of
 * `webSearches` at its `web_search` price.
 */
export function searchBilling(endpoint: Endpoint, search: WebSearch): { pricing: CompiledPricing; webSearches: number } {
  const own = endpoint.pricing.web_search
  if (own !== undefined && Number(own) > 0) return { pricing: pricingOf(endpoint), webSearches: 1 }
  return { pricing: pluginPricings(endpoint.pricing), webSearches: search.results }
}

/**
 * The web plugin a chat or Responses body asks for: its first `{ id: "web" }` entry of `plugins`
 * that is not `enabled: false`, with its `max_results` (a positive integer; 400 naming it
 * otherwise), else null.
 */
export function webPluginOf(body: Record<string, unknown>): WebSearch | null {
  const plugins = body['plugins']
  if (!Array.isArray(plugins)) return null
  for (let i = 0; i < plugins.length; i++) {
    const plugin = plugins[i] as Record<string, unknown> | null
    if (typeof plugin !== 'object' || plugin === null || plugin['id'] !== 'web' || plugin['enabled'] === false) continue
    const max = plugin['max_results']
    if (max === undefined || max === null) return DEFAULT_WEB_SEARCH
    if (typeof max !== 'number' || !Number.isSafeInteger(max) || max < 1) new BodyReader(body).fail(`plugins[${i}].max_results`, 'must be a positive integer: the web results to fetch', max)
    return { results: max as number }
  }
  return null
}

/** Parameters whose support means an endpoint can reason (`:thinking`). */
const REASONING_PARAMETERS: readonly string[] = ['reasoning', 'include_reasoning']

/** A variant the store has no model of and that cannot be derived: why, for the 400. */
interface Refusal {
  refused: string
}

/**
 * What answers name a stored model by (`model`): its canonical slug, dated in the real catalog
 * (`openai/gpt-5-2025-08-07`, decisions/0037), with the variant of its id kept (`...:free`), since
 * the variant is part of what was asked for.
 */
function reportedSlug(model: ModelWithEndpoints): string {
  const colon = model.id.indexOf(':')
  return colon < 0 ? canonicalSlugOf(model) : `${canonicalSlugOf(model)}${model.id.slice(colon)}`
}

function stored(id: string, model: ModelWithEndpoints): ResolvedModel {
  return { id, model, endpoints: model.endpoints, sort: null, reported: reportedSlug(model), webSearch: false, reasoning: false }
}

/**
 * An id as the store resolves it (decisions/0038): the stored model of that exact id; else a
 * variant applied to the model its id before the last `:` resolves to (so variants stack:
 * `x:free:online`): `:free` keeps the endpoints whose every price is "0", `:thinking` those that
 * support reasoning, `:nitro`, `:floor` and `:exacto` sort, `:online` searches. Undefined: the
 * base id is unknown; a Refusal: the base is known, the variant is not or cannot be derived.
 */
function resolveId(ctx: StoreContext, id: string): ResolvedModel | Refusal | undefined {
  const exact = ctx.data.models.get(id)
  if (exact !== undefined) return stored(id, exact)
  const colon = id.lastIndexOf(':')
  if (colon === -1) return undefined
  const baseId = id.slice(0, colon)
  const base = resolveId(ctx, baseId)
  if (base === undefined || 'refused' in base) return base
  const variant = id.slice(colon + 1)
  const sort = ROUTING_VARIANTS[variant]
  if (sort !== undefined) return { ...base, id, sort }
  switch (variant) {
    case 'free': {
      const endpoints = base.endpoints.filter((e) => isFree(e.pricing))
      if (endpoints.length === 0) return { refused: `${baseId} has no free endpoints` }
      return { ...base, id, endpoints, reported: `${base.reported}:free` }
    }
    case 'online':
      return { ...base, id, webSearch: true, reported: `${base.reported}:online` }
    case 'thinking': {
      const endpoints = base.endpoints.filter((e) => e.supported_parameters.some((p) => REASONING_PARAMETERS.includes(p)))
      if (endpoints.length === 0) return { refused: `${baseId} has no endpoint that supports reasoning, which :thinking turns on` }
      return { ...base, id, endpoints, reasoning: true, reported: `${base.reported}:thinking` }
    }
    case 'extended':
      return { refused: 'the :extended variant (a larger context window) is not simulated; create a model with this exact id to serve it' }
    default:
      return { refused: `:${variant} is not a model variant; the variants are ${MODEL_VARIANTS.map((v) => `:${v}`).join(', ')}` }
  }
}

/** The id of the auto router: a model the simulator picks per request (decisions/0038). */
const AUTO_ROUTER = 'openrouter/auto'

/** What `openrouter/auto` weighs a model against: the request's size and the parameters it uses. */
export interface AutoFacts {
  promptTokens: number
  maxTokens: number | null
  parameters: readonly string[]
}

/** Whether an endpoint is open and holds a request of `promptTokens` plus `cap` tokens (routing's context rule). */
function holdsRequest(e: Endpoint, promptTokens: number, cap: number): boolean {
  return (e.status ?? 0) >= 0 && promptTokens + cap <= e.context_length && (e.max_prompt_tokens === null || promptTokens <= e.max_prompt_tokens)
}

/** A list price: exact, and as a double for the quick comparisons. */
interface ListPrice {
  exact: { units: bigint; scale: number }
  approx: number
}

/** A pricing's prompt plus completion list price; kept beside the pricing object, which never changes. */
const listPrice = memoByRecord((pricing: Pricing): ListPrice => {
  const prompt = parseDecimal(pricing.prompt)
  const completion = parseDecimal(pricing.completion)
  const scale = Math.max(prompt.scale, completion.scale)
  const exact = { units: rescale(prompt, scale) + rescale(completion, scale), scale }
  return { exact, approx: Number(pricing.prompt) + Number(pricing.completion) }
})

/** List prices compared: by their doubles when those are far apart (every pair a pick compares, nearly), else exactly. */
function compareListPrices(a: ListPrice, b: ListPrice): number {
  const gap = a.approx - b.approx
  if (Math.abs(gap) > 1e-9 * Math.max(Math.abs(a.approx), Math.abs(b.approx))) return gap < 0 ? -1 : 1
  return compareCosts(a.exact, b.exact)
}

/**
 * `openrouter/auto` (decisions/0038): of the store's text models that are not free (no `:free` id,
 * a first endpoint that is not free) and have an endpoint that holds the request's context and
 * lists every parameter it uses, the one whose first endpoint's prompt plus completion list price
 * is lowest, ties by id. It is served by those endpoints, and answers name it. With none, a
 * ResolvedModel carrying the 400 that says so.
 */
function resolveAuto(ctx: StoreContext, facts: AutoFacts, field: string): ResolvedModel {
  const cap = facts.maxTokens ?? 1
  let best: { model: ModelWithEndpoints; endpoints: Endpoint[]; price: ListPrice } | undefined
  for (const model of ctx.data.models.values()) {
    const first = model.endpoints[0]
    if (first === undefined || model.id === AUTO_ROUTER || model.id.endsWith(':free') || isFree(first.pricing)) continue
    if (!model.architecture.output_modalities.includes('text')) continue
    // The price first: only a model that would beat the best so far is worth checking for fit.
    const price = listPrice(first.pricing)
    if (best !== undefined && (compareListPrices(price, best.price) || (model.id < best.model.id ? -1 : 1)) > 0) continue
    const endpoints = model.endpoints.filter((e) => holdsRequest(e, facts.promptTokens, cap) && facts.parameters.every((p) => (e.supported_parameters as readonly string[]).includes(p)))
    if (endpoints.length > 0) best = { model, endpoints, price }
  }
  if (best !== undefined) return { ...stored(best.model.id, best.model), endpoints: best.endpoints }
  const wants = facts.parameters.length === 0 ? '' : ` and supports ${facts.parameters.join(', ')}`
  const failure = new ApiError(400, {
    message: `No model fits this request for ${AUTO_ROUTER}: none holds ${facts.promptTokens} prompt tokens plus ${cap} completion tokens${wants}`,
    metadata: { parameter: field, reason: 'no model fits the request', value: AUTO_ROUTER },
  })
  // No model stands behind a failure: routeEndpoints answers it before reading anything else of this entry.
  const none = { id: AUTO_ROUTER, endpoints: [] } as unknown as ModelWithEndpoints
  return { id: AUTO_ROUTER, model: none, endpoints: [], sort: null, reported: AUTO_ROUTER, webSearch: false, reasoning: false, failure }
}

/** The 400 of an id the store cannot serve: unknown (with the nearest known ids), or a variant it cannot derive. */
function invalidModel(ctx: StoreContext, id: string, field: string, refusal: Refusal | undefined): ApiError {
  if (refusal !== undefined) {
    return new ApiError(400, { message: `${id} is not a valid model ID: ${refusal.refused}`, metadata: { parameter: field, reason: refusal.refused, value: id } })
  }
  // A known variant on an unknown base: suggest bases, with the variant kept.
  const colon = id.lastIndexOf(':')
  const variant = colon === -1 ? '' : id.slice(colon)
  const kept = (MODEL_VARIANTS as readonly string[]).includes(variant.slice(1)) ? variant : ''
  const suggestions = nearestIds(id.slice(0, id.length - kept.length), ctx.data.models.keys()).map((s) => s + kept)
  const metadata: Record<string, unknown> = { parameter: field, reason: 'is not a valid model ID', value: id }
  if (suggestions.length > 0) metadata['suggestions'] = suggestions
  const hint = suggestions.length === 0 ? '' : `. Did you mean ${suggestions.join(', ')}?`
  return new ApiError(400, { message: `${id} is not a valid model ID${hint}`, metadata })
}

/**
 * The request's models, in order; 400 naming the first the store cannot serve, before anything is
 * tried. `auto`: the request's facts, for `openrouter/auto` (without them, as on embeddings, that
 * id is refused).
 */
export function resolveModels(ctx: StoreContext, input: Pick<ChatInput, 'models' | 'modelFields'>, auto?: AutoFacts): ResolvedModel[] {
  const resolved: ResolvedModel[] = []
  const ids = input.models
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i] as string
    const field = input.modelFields[i] ?? 'model'
    // The auto router picks even when the catalog lists it: the service's listing of it is no model to serve.
    if (id === AUTO_ROUTER) {
      if (auto === undefined) throw invalidModel(ctx, id, field, { refused: `${AUTO_ROUTER} picks among chat models, not on this route` })
      resolved.push(resolveAuto(ctx, auto, field))
      continue
    }
    const found = resolveId(ctx, id)
    if (found !== undefined && !('refused' in found)) {
      resolved.push(found)
      continue
    }
    // The service names the model it does not know; a fallback list is checked whole, like `model`.
    throw invalidModel(ctx, id, field, found)
  }
  return resolved
}

/**
 * Whether a provider preference names an endpoint (decisions/0038), in any case: its provider name
 * (`Google Vertex`); a slug without a `/` (`google-vertex`), its tag or any tag under it
 * (`google-vertex/europe`, `deepinfra/fp8`); a slug with a quantization after the `/`
 * (`deepinfra/fp8`), that provider's endpoints of that quantization; a slug with anything else after
 * the `/` (a region: `google-vertex/europe`), that tag only.
 */
function namesEndpoint(endpoint: Endpoint, wanted: string): boolean {
  const name = wanted.toLowerCase()
  if (name === endpoint.provider_name.toLowerCase()) return true
  const tag = endpoint.tag.toLowerCase()
  if (tag === name) return true
  const slash = name.indexOf('/')
  if (slash === -1) return tag.startsWith(name + '/')
  const suffix = name.slice(slash + 1)
  if (!(QUANTIZATIONS as readonly string[]).includes(suffix)) return false
  const slug = name.slice(0, slash)
  return (tag === slug || tag.startsWith(slug + '/')) && (endpoint.quantization ?? 'unknown') === suffix
}

function names(endpoint: Endpoint, list: readonly string[]): boolean {
  return list.some((name) => namesEndpoint(endpoint, name))
}

/** Why the last endpoints were dropped, for the 404 when none is left. */
type Drop = 'context' | 'provider' | 'quantization' | 'parameters' | 'price' | 'data_policy' | 'status'

const NO_ENDPOINT: Record<Drop, string> = {
  status: 'No endpoints available for this model right now',
  context: 'No endpoints found that support the requested context length',
  provider: 'No endpoints found matching your provider preferences',
  quantization: 'No endpoints found matching your quantization preferences',
  parameters: 'No endpoints found that can handle the requested parameters',
  price: 'No endpoints found within your max_price',
  data_policy: 'No endpoints found matching your data policy',
}

/** The request's price on an endpoint for `sort: "price"`: its prompt plus its completion cap (1,000 without one), exact. */
function rankingCost(endpoint: Endpoint, promptTokens: number, completionTokens: number, at: number): { units: bigint; scale: number } {
  const cost = pricingOf(endpoint).cost({ promptTokens, completionTokens }, { at })
  return parseDecimal(cost)
}

function compareCosts(a: { units: bigint; scale: number }, b: { units: bigint; scale: number }): number {
  const scale = Math.max(a.scale, b.scale)
  const x = rescale(a, scale)
  const y = rescale(b, scale)
  return x < y ? -1 : x > y ? 1 : 0
}

/** The price per token an endpoint resolves to for this request (prompt plus completion), for weights. */
function unitPrice(endpoint: Endpoint, promptTokens: number, at: number): number {
  return unitPrices(pricingOf(endpoint).resolve({ promptTokens, at }))
}

// A resolved tier is a frozen object shared by every request that resolves to it: its unit price is kept beside it.
const unitPrices = memoByRecord((prices: ResolvedPricing): number => Number(prices.prompt) + Number(prices.completion))

/** What routing needs besides the request. */
export interface RouteContext {
  promptTokens: number
  at: number
  random: Random
  sort: ProviderSort | null
  /** Whether an endpoint had a recent outage: the unsorted draw tries those last (decisions/0025). */
  outage?: (endpoint: Endpoint) => boolean
  /** The tokens the context window must hold, when not the prompt's (embeddings: the longest input). */
  contextTokens?: number
  /** The governing guardrails' refusal of an endpoint, or null (decisions/0055); absent: no guardrail governs. */
  guard?: ((endpoint: Endpoint) => ApiError | null) | undefined
}

/**
 * The endpoints of one model in the order they are tried (only the first without fallbacks), or
 * the 404 of the last filter that left none.
 */
export function routeEndpoints(model: ResolvedModel, input: Pick<ChatInput, 'provider' | 'maxTokens' | 'parameters'>, route: RouteContext): Endpoint[] | ApiError {
  if (model.failure !== undefined) return model.failure
  const prefs = input.provider
  const { promptTokens, at } = route
  let drop: Drop = 'status'
  const keep = (endpoints: Endpoint[], reason: Drop, test: (endpoint: Endpoint) => boolean): Endpoint[] => {
    if (endpoints.length === 0) return endpoints
    // Most requests drop nothing: the list is then kept as it is, not copied.
    if (endpoints.every(test)) return endpoints
    const kept = endpoints.filter(test)
    if (kept.length === 0) drop = reason
    return kept
  }
  const held = route.contextTokens ?? promptTokens
  const cap = input.maxTokens ?? 1
  const holds = (e: Endpoint): boolean => held + cap <= e.context_length && (e.max_prompt_tokens === null || held <= e.max_prompt_tokens)
  // One pass for the two filters every request goes through (status, context); a copy only when one drops an endpoint.
  let endpoints = model.endpoints as Endpoint[]
  let open = 0
  let fits = 0
  for (const e of endpoints) {
    if ((e.status ?? 0) < 0) continue
    open++
    if (holds(e)) fits++
  }
  if (fits !== endpoints.length) {
    endpoints = endpoints.filter((e) => (e.status ?? 0) >= 0)
    if (open === 0) drop = 'status'
    else endpoints = keep(endpoints, 'context', holds)
  }
  // A guardrail that keeps the request off every endpoint left is a 403 naming it, not a 404.
  const guard = route.guard
  if (guard !== undefined && endpoints.length > 0) {
    let refusal: ApiError | null = null
    let kept: Endpoint[] | undefined
    for (let i = 0; i < endpoints.length; i++) {
      const e = endpoints[i] as Endpoint
      const refused = guard(e)
      // A copy only once one is refused: most governed requests keep every endpoint.
      if (refused !== null) {
        refusal ??= refused
        kept ??= endpoints.slice(0, i)
      } else kept?.push(e)
    }
    if (kept !== undefined) endpoints = kept
    if (endpoints.length === 0) return refusal as unknown as ApiError
  }
  if (prefs.only !== null) endpoints = keep(endpoints, 'provider', (e) => names(e, prefs.only as string[]))
  if (prefs.ignore !== null) endpoints = keep(endpoints, 'provider', (e) => !names(e, prefs.ignore as string[]))
  if (prefs.quantizations !== null) endpoints = keep(endpoints, 'quantization', (e) => (prefs.quantizations as string[]).includes(e.quantization ?? 'unknown'))
  if (prefs.requireParameters) endpoints = keep(endpoints, 'parameters', (e) => input.parameters.every((p) => e.supported_parameters.includes(p)))
  const max = prefs.maxPrice
  if (max.prompt !== undefined || max.completion !== undefined || max.request !== undefined || max.image !== undefined || max.audio !== undefined) {
    endpoints = keep(endpoints, 'price', (e) => {
      const prices = pricingOf(e).resolve({ promptTokens, at })
      const within = (limit: number | undefined, price: string | undefined, scale: number): boolean => limit === undefined || (price === undefined ? 0 : Number(price) * scale) <= limit
      return within(max.prompt, prices.prompt, 1e6) && within(max.completion, prices.completion, 1e6) && within(max.request, prices.request, 1) && within(max.image, prices.image, 1) && within(max.audio, prices.audio, 1e6)
    })
  }
  // Free endpoints are the ones whose providers may keep and train on prompts (decisions/0024).
  if (prefs.dataCollection === 'deny') endpoints = keep(endpoints, 'data_policy', (e) => !isFree(e.pricing))
  if (endpoints.length === 0) return new ApiError(404, { message: NO_ENDPOINT[drop], metadata: { reason: `no_endpoint_${drop}`, model: model.id } })

  const sort = prefs.sort ?? route.sort ?? model.sort
  let ordered: Endpoint[]
  // The sorts below sort in place: never the model's own list, which `keep` may have passed on.
  if (sort !== null && endpoints === model.endpoints) endpoints = [...endpoints]
  if (sort === 'price') {
    const completion = input.maxTokens ?? 1000
    const costs = new Map(endpoints.map((e) => [e, rankingCost(e, promptTokens, completion, at)]))
    ordered = endpoints.sort((a, b) => compareCosts(costs.get(a) as { units: bigint; scale: number }, costs.get(b) as { units: bigint; scale: number }))
  } else if (sort === 'throughput') {
    ordered = endpoints.sort((a, b) => (b.throughput_last_30m?.p50 ?? -1) - (a.throughput_last_30m?.p50 ?? -1))
  } else if (sort === 'latency') {
    ordered = endpoints.sort((a, b) => (a.latency_last_30m?.p50 ?? Number.POSITIVE_INFINITY) - (b.latency_last_30m?.p50 ?? Number.POSITIVE_INFINITY))
  } else if (sort === 'exacto') {
    // Quality first (decisions/0038): the service ranks by tool-call success, which uptime stands for, then throughput.
    ordered = endpoints.sort((a, b) => (b.uptime_last_30m ?? -1) - (a.uptime_last_30m ?? -1) || (b.throughput_last_30m?.p50 ?? -1) - (a.throughput_last_30m?.p50 ?? -1))
  } else {
    // Endpoints with a recent outage go after the others, each group drawn as below (decisions/0025).
    const outage = route.outage
    // An array only when an endpoint is failing, which most requests see none of.
    let failing: Endpoint[] | undefined
    if (outage !== undefined) {
      for (let i = 0; i < endpoints.length; i++) {
        const e = endpoints[i] as Endpoint
        if (outage(e)) (failing ??= []).push(e)
      }
    }
    if (failing === undefined || failing.length === endpoints.length) ordered = weightedOrder(endpoints, promptTokens, at, route.random)
    else {
      const down = failing
      const stable = endpoints.filter((e) => !down.includes(e))
      ordered = [...weightedOrder(stable, promptTokens, at, route.random), ...weightedOrder(failing, promptTokens, at, route.random)]
    }
  }
  if (prefs.order !== null) {
    const order = prefs.order
    const rank = (e: Endpoint): number => {
      const i = order.findIndex((name) => names(e, [name]))
      return i === -1 ? order.length : i
    }
    // Stable: the listed providers first, in the order listed; the rest keep their order after them.
    const listed = ordered.filter((e) => rank(e) < order.length).sort((a, b) => rank(a) - rank(b))
    const rest = ordered.filter((e) => rank(e) === order.length)
    ordered = prefs.allowFallbacks ? [...listed, ...rest] : listed
    if (ordered.length === 0) return new ApiError(404, { message: NO_ENDPOINT.provider, metadata: { reason: 'no_endpoint_provider', model: model.id } })
    return ordered
  }
  return prefs.allowFallbacks ? ordered : ordered.slice(0, 1)
}

/**
 * The service's default load balancing: endpoints drawn one after another without replacement,
 * each with a weight of 1 / price² (price: prompt plus completion per token at this request's prompt
 * size and instant). Free endpoints come first, drawn evenly among themselves.
 */
function weightedOrder(endpoints: readonly Endpoint[], promptTokens: number, at: number, random: Random): Endpoint[] {
  // Parallel arrays, not an object per endpoint: this runs for every request. Copied by index, not
  // with slice(): a shared default-world model's endpoints are frozen, and V8's slice() of a frozen
  // array takes a slow path (0.7-1.5 µs here, against 0.05).
  const pool: Endpoint[] = []
  for (let i = 0; i < endpoints.length; i++) pool.push(endpoints[i] as Endpoint)
  const prices = new Array<number>(pool.length)
  for (let i = 0; i < pool.length; i++) prices[i] = unitPrice(pool[i] as Endpoint, promptTokens, at)
  const order: Endpoint[] = []
  while (pool.length > 1) {
    let free = 0
    for (let i = 0; i < prices.length; i++) if (prices[i] === 0) free++
    // Among free endpoints (when there are any) evenly; else by 1 / price², summed in pool order.
    let total = 0
    if (free > 0) total = free
    else {
      for (let i = 0; i < prices.length; i++) {
        const price = prices[i] as number
        total += 1 / (price * price)
      }
    }
    let draw = random.float() * total
    let chosen = -1
    let last = -1
    for (let i = 0; i < pool.length; i++) {
      const price = prices[i] as number
      if (free > 0 && price !== 0) continue
      last = i
      draw -= free > 0 ? 1 : 1 / (price * price)
      if (draw < 0) {
        chosen = i
        break
      }
    }
    if (chosen === -1) chosen = last
    order.push(pool[chosen] as Endpoint)
    pool.splice(chosen, 1)
    prices.splice(chosen, 1)
  }
  if (pool[0] !== undefined) order.push(pool[0])
  return order
}
