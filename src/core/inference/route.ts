// Steps 2 and 4 of the money path: which model a request names, and in which order its endpoints
// are tried (decisions/0024 gives the rules and why).
import { ApiError } from '../errors.js'
import { compilePricing, type CompiledPricing } from '../pricing/compile.js'
import { type ResolvedPricing } from '../pricing/rules.js'
import { parseDecimal, rescale } from '../pricing/decimal.js'
import type { Random } from '../random.js'
import type { StoreContext } from '../store/context.js'
import type { Endpoint, ModelWithEndpoints, Pricing } from '../types.js'
import { memoByRecord } from '../memo.js'
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
  /** The id as the request gave it (`meta-llama/llama-3.3-70b-instruct:free`). */
  id: string
  model: ModelWithEndpoints
  endpoints: readonly Endpoint[]
  /** A variant that sorts by itself: `:nitro` (throughput), `:floor` (price). */
  sort: ProviderSort | null
}

/** Whether every price of an endpoint is "0": a free endpoint (the `:free` variant's). */
export function isFree(pricing: Pricing): boolean {
  return freeByPricing(pricing)
}

// Pricing objects are values that never change (see `compiled`): whether one is free is kept beside it.
const freeByPricing = memoByRecord((pricing: Pricing): boolean => Object.entries(pricing).every(([key, value]) => key === 'overrides' || key === 'discount' || value === '0'))

/**
 * The model of an id: the stored model of that exact id; else, for a variant the store has no
 * model of, the base model's endpoints that the variant selects (`:free`: those whose every price
 * is "0"; `:nitro` and `:floor`: all, sorted by throughput or price). Undefined: no such model.
 */
export function resolveModel(ctx: StoreContext, id: string): ResolvedModel | undefined {
  const exact = ctx.data.models.get(id)
  if (exact !== undefined) return { id, model: exact, endpoints: exact.endpoints, sort: null }
  const colon = id.lastIndexOf(':')
  if (colon === -1) return undefined
  const base = ctx.data.models.get(id.slice(0, colon))
  if (base === undefined) return undefined
  const variant = id.slice(colon + 1)
  if (variant === 'free') {
    const endpoints = base.endpoints.filter((e) => isFree(e.pricing))
    return endpoints.length === 0 ? undefined : { id, model: base, endpoints, sort: null }
  }
  if (variant === 'nitro') return { id, model: base, endpoints: base.endpoints, sort: 'throughput' }
  if (variant === 'floor') return { id, model: base, endpoints: base.endpoints, sort: 'price' }
  return undefined
}

/** The first of the request's models the catalog has, and the ones after it; 400 naming the first unknown one. */
export function resolveModels(ctx: StoreContext, input: Pick<ChatInput, 'models' | 'modelFields'>): ResolvedModel[] {
  const resolved: ResolvedModel[] = []
  const ids = input.models
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i] as string
    const model = resolveModel(ctx, id)
    if (model === undefined) {
      // The service names the model it does not know; a fallback list is checked whole, like `model`.
      throw new ApiError(400, {
        message: `${id} is not a valid model ID`,
        metadata: { parameter: input.modelFields[i] ?? 'model', reason: 'is not a valid model ID', value: id },
      })
    }
    resolved.push(model)
  }
  return resolved
}

/** How a provider preference names an endpoint: its provider name or its tag's provider, any case. */
function names(endpoint: Endpoint, list: readonly string[]): boolean {
  const provider = endpoint.provider_name.toLowerCase()
  const tag = (endpoint.tag.split('/')[0] ?? '').toLowerCase()
  return list.some((name) => {
    const wanted = name.toLowerCase()
    return wanted === provider || wanted === tag || wanted === endpoint.tag.toLowerCase()
  })
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
}

/**
 * The endpoints of one model in the order they are tried (only the first without fallbacks), or
 * the 404 of the last filter that left none.
 */
export function routeEndpoints(model: ResolvedModel, input: Pick<ChatInput, 'provider' | 'maxTokens' | 'parameters'>, route: RouteContext): Endpoint[] | ApiError {
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
  // Parallel arrays, not an object per endpoint: this runs for every request.
  const pool = endpoints.slice()
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
