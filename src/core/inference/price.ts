// A request's price: the exact cost of its token counts on its endpoint's pricing at the clock's
// instant (overrides resolved by the pricing engine), the usage object the wire shows, and the
// charge in whole 10^-10 USD (decisions/0007, decisions/0024). Chat, Responses and embeddings all
// price here; the ledger (ledger.ts) charges what this returns.
import { memoByRecord } from '../memo.js'
import { compilePricing, type CompiledPricing } from '../pricing/compile.js'
import { parseDecimal } from '../pricing/decimal.js'
import type { ResolvedPricing } from '../pricing/rules.js'
import type { ChatUsage } from './wire.js'

/** 10^0 to 10^10, each exact. */
const TENS = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10]

/** A decimal cost in USD as whole 10^-10 USD, rounded half up past the tenth decimal (decisions/0024). */
export function costToUnits(cost: string): number {
  // Most costs have few enough digits (15 at most) to read exactly as a double: no BigInt then.
  const dot = cost.indexOf('.')
  const decimals = dot === -1 ? 0 : cost.length - dot - 1
  if ((dot === -1 ? cost.length : cost.length - 1) <= 15 && decimals <= 10) {
    const whole = dot === -1 ? cost : cost.slice(0, dot) + cost.slice(dot + 1)
    return Number(whole) * (TENS[10 - decimals] as number)
  }
  const { units, scale } = parseDecimal(cost)
  if (scale <= 10) return Number(units * 10n ** BigInt(10 - scale))
  const divisor = 10n ** BigInt(scale - 10)
  return Number((units + divisor / 2n) / divisor)
}

/** A completion's price on a tier: its cost and the prompt and completion parts `usage` shows. */
interface Priced {
  cost: string
  promptCost: number
  completionCost: number
  /** The usage's JSON text for these counts, made on first use: its five decimals cost more to write than the rest of an answer. */
  usageJson: string | undefined
}

/**
 * Prices already worked out, per resolved tier (a frozen object shared by every request that
 * resolves to it) and counts: a cost is a function of the tier and the counts alone, so a kept
 * one is always right. Requests that repeat (a suite's same prompts, the same replies) skip three
 * exact computations. At most MEMO_SIZE per tier; the lot is dropped when full.
 */
const pricedOf = memoByRecord((_: ResolvedPricing) => new Map<string, Priced | number>())
const MEMO_SIZE = 256

function remember(memo: Map<string, Priced | number>, id: string, value: Priced | number): void {
  if (memo.size >= MEMO_SIZE) memo.clear()
  memo.set(id, value)
}

// Flat pricings of resolved tiers (frozen, shared per tier), for the prompt and completion parts of a cost.
export const flatPricing: (prices: ResolvedPricing) => CompiledPricing = memoByRecord((prices: ResolvedPricing) => compilePricing(prices))

/**
 * The exact cost of a completion's counts on a pricing at an instant (overrides and tier resolved),
 * and its `usage` as the wire shows it: the cost, and its prompt and completion parts at the tier.
 */
export function priceCounts(
  pricing: CompiledPricing,
  counts: { promptTokens: number; completionTokens: number; reasoningTokens: number; cachedTokens: number },
  at: number,
  webSearches = 0,
): { cost: string; usage: ChatUsage; usageJson: string } {
  const resolved = pricing.resolve({ promptTokens: counts.promptTokens, at })
  const memo = pricedOf(resolved)
  const id = `${counts.promptTokens}:${counts.completionTokens}:${counts.reasoningTokens}:${counts.cachedTokens}:${webSearches}`
  let priced = memo.get(id) as Priced | undefined
  if (priced === undefined) {
    const tier = flatPricing(resolved)
    priced = {
      // Web searches (`:online`, the web plugin) are in the cost, not in its prompt and completion parts.
      cost: pricing.cost(webSearches === 0 ? counts : { ...counts, webSearches }, { at }),
      promptCost: Number(tier.cost({ promptTokens: counts.promptTokens, cachedTokens: counts.cachedTokens, requests: 0 }, { at })),
      completionCost: Number(tier.cost({ completionTokens: counts.completionTokens, reasoningTokens: counts.reasoningTokens, requests: 0 }, { at })),
      usageJson: undefined,
    }
    remember(memo, id, priced)
  }
  const { cost, promptCost, completionCost } = priced
  // Each answer its own usage object (a caller may change what it is handed); the text is shared.
  const usage: ChatUsage = {
    prompt_tokens: counts.promptTokens,
    completion_tokens: counts.completionTokens,
    total_tokens: counts.promptTokens + counts.completionTokens,
    cost: Number(cost),
    is_byok: false,
    prompt_tokens_details: { cached_tokens: counts.cachedTokens, cache_write_tokens: 0, audio_tokens: 0, video_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: counts.reasoningTokens, image_tokens: 0, audio_tokens: 0 },
    cost_details: { upstream_inference_cost: null, upstream_inference_prompt_cost: promptCost, upstream_inference_completions_cost: completionCost },
  }
  return { cost, usage, usageJson: (priced.usageJson ??= usageText(usage)) }
}

/**
 * The units of a request's worst case on a pricing at an instant: the prompt, and `requested`
 * completion tokens (the 402's test, ledger.ts). Kept with the tier's prices, as `priceCounts` keeps costs.
 */
export function worstCaseUnits(pricing: CompiledPricing, promptTokens: number, requested: number, at: number, webSearches = 0): number {
  const memo = pricedOf(pricing.resolve({ promptTokens, at }))
  const id = `worst:${promptTokens}:${requested}:${webSearches}`
  let worst = memo.get(id) as number | undefined
  if (worst === undefined) {
    worst = costToUnits(pricing.cost({ promptTokens, completionTokens: requested, webSearches }, { at }))
    remember(memo, id, worst)
  }
  return worst
}

/** A ChatUsage's JSON, as JSON.stringify writes the object priceCounts makes (every number finite). */
export function usageText(u: ChatUsage): string {
  const { prompt_tokens_details: p, completion_tokens_details: d, cost_details: c } = u
  return (
    `{"prompt_tokens":${u.prompt_tokens},"completion_tokens":${u.completion_tokens},"total_tokens":${u.total_tokens},"cost":${u.cost},"is_byok":${u.is_byok},` +
    `"prompt_tokens_details":{"cached_tokens":${p.cached_tokens},"cache_write_tokens":${p.cache_write_tokens},"audio_tokens":${p.audio_tokens},"video_tokens":${p.video_tokens}},` +
    `"completion_tokens_details":{"reasoning_tokens":${d.reasoning_tokens},"image_tokens":${d.image_tokens},"audio_tokens":${d.audio_tokens}},` +
    `"cost_details":{"upstream_inference_cost":${c.upstream_inference_cost},"upstream_inference_prompt_cost":${c.upstream_inference_prompt_cost},"upstream_inference_completions_cost":${c.upstream_inference_completions_cost}}}`
  )
}
