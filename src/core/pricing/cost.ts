import { describe } from '../describe.js'
import type { PriceKey } from '../types.js'
import { formatBigUnits, formatUnits, parseDecimal, rescale } from './decimal.js'
import type { ScaledDecimal } from './decimal.js'
import { PricingError } from './errors.js'
import type { PricingTiers, Rates, ResolvedPricing } from './rules.js'
import type { PricingIssue } from './validate.js'

/**
 * What one request used, in the shape of the service's usage report: totals include their parts.
 * Every field is a non-negative integer and defaults to 0, except `requests` (default 1). The
 * billing rules are in decisions/0007 in the repository.
 */
export interface CostUsage {
  /** Total prompt tokens: text, cached, cache-write and audio input tokens together. Decides `min_prompt_tokens`. */
  promptTokens?: number | undefined
  /** Total completion tokens: text, reasoning and audio output tokens together. */
  completionTokens?: number | undefined
  /** Prompt tokens read from the cache, billed at `input_cache_read` (else `prompt`). */
  cachedTokens?: number | undefined
  /** Prompt tokens written to the 5-minute cache, billed at `input_cache_write` (else `prompt`). */
  cacheWriteTokens?: number | undefined
  /** Prompt tokens written to the 1-hour cache, billed at `input_cache_write_1h` (else `input_cache_write`, else `prompt`). */
  cacheWrite1hTokens?: number | undefined
  /** Audio prompt tokens, billed at `audio` (else `prompt`). */
  audioTokens?: number | undefined
  /** Cached audio prompt tokens, billed at `input_audio_cache` (else `audio`, else `prompt`). */
  cachedAudioTokens?: number | undefined
  /** Completion tokens spent reasoning, billed at `internal_reasoning` when it is not zero (else `completion`). */
  reasoningTokens?: number | undefined
  /** Audio completion tokens, billed at `audio_output` (else `completion`). */
  audioOutputTokens?: number | undefined
  /** Input images, billed at `image` each (free without it). */
  images?: number | undefined
  /** Image tokens, counted apart from prompt and completion, billed at `image_token` (free without it). */
  imageTokens?: number | undefined
  /** Generated images, billed at `image_output` each (free without it). */
  outputImages?: number | undefined
  /** Web searches, billed at `web_search` each (free without it). */
  webSearches?: number | undefined
  /** Requests, billed at `request` each (free without it). Default 1. */
  requests?: number | undefined
}

type UsageField = keyof CostUsage

/** The billed units in a fixed order: the usage count, then the price keys tried in turn. */
const UNITS: readonly (readonly [UsageField | 'textPrompt' | 'textCompletion', readonly PriceKey[]])[] = [
  ['textPrompt', ['prompt']],
  ['textCompletion', ['completion']],
  ['cachedTokens', ['input_cache_read', 'prompt']],
  ['cacheWriteTokens', ['input_cache_write', 'prompt']],
  ['cacheWrite1hTokens', ['input_cache_write_1h', 'input_cache_write', 'prompt']],
  ['audioTokens', ['audio', 'prompt']],
  ['cachedAudioTokens', ['input_audio_cache', 'audio', 'prompt']],
  ['reasoningTokens', ['internal_reasoning', 'completion']],
  ['audioOutputTokens', ['audio_output', 'completion']],
  ['images', ['image']],
  ['imageTokens', ['image_token']],
  ['outputImages', ['image_output']],
  ['webSearches', ['web_search']],
  ['requests', ['request']],
]

const PROMPT_PARTS = ['cachedTokens', 'cacheWriteTokens', 'cacheWrite1hTokens', 'audioTokens', 'cachedAudioTokens'] as const
const COMPLETION_PARTS = ['reasoningTokens', 'audioOutputTokens'] as const
export const USAGE_FIELDS: ReadonlySet<string> = new Set<UsageField>([
  'promptTokens',
  'completionTokens',
  ...PROMPT_PARTS,
  ...COMPLETION_PARTS,
  'images',
  'imageTokens',
  'outputImages',
  'webSearches',
  'requests',
])

/** The rates of one tier: each unit's price at the pricing's common scale, times (1 - discount). */
export function buildRates(prices: ResolvedPricing, scale: number, discount: ScaledDecimal): Rates {
  const factor = 10n ** BigInt(discount.scale) - discount.units
  const big = UNITS.map(([, keys]) => {
    // A zero `internal_reasoning` is how the service lists "no price of its own": reasoning is then
    // billed as completion tokens (decisions/0048). Every other zero price is a price of zero.
    const key = keys.find((k) => prices[k] !== undefined && !(k === 'internal_reasoning' && /^0*\.?0*$/.test(prices[k] as string)))
    return key === undefined ? 0n : rescale(parseDecimal(prices[key] as string), scale) * factor
  })
  const safe = big.every((rate) => rate <= BigInt(Number.MAX_SAFE_INTEGER))
  return { scale: scale + discount.scale, big, small: safe ? big.map(Number) : undefined }
}

const isCount = (value: number): boolean => Number.isSafeInteger(value) && value >= 0
/** A missing count is 0; null is not missing, and fails the count check like any other non-number. */
const orZero = (value: number | undefined): number => (value === undefined ? 0 : value)

function usageIssues(usage: CostUsage): PricingIssue[] {
  const issues: PricingIssue[] = []
  for (const key in usage) {
    if (!USAGE_FIELDS.has(key)) issues.push({ path: key, message: `is not a usage field; use ${[...USAGE_FIELDS].join(', ')}` })
  }
  for (const field of USAGE_FIELDS) {
    const value = usage[field as UsageField]
    if (value !== undefined && !(typeof value === 'number' && isCount(value))) {
      issues.push({ path: field, message: `must be a non-negative integer, got ${describe(value)}` })
    }
  }
  if (issues.length > 0) return issues
  const sum = (parts: readonly UsageField[]): number => parts.reduce((total, part) => total + (usage[part] ?? 0), 0)
  for (const [total, parts] of [['promptTokens', PROMPT_PARTS], ['completionTokens', COMPLETION_PARTS]] as const) {
    const whole = usage[total] ?? 0
    if (sum(parts) > whole) issues.push({ path: total, message: `must be at least ${parts.join(' + ')} (${sum(parts)}), which it includes; got ${whole}` })
  }
  return issues
}

function hasUnknownField(usage: object): boolean {
  for (const key in usage) if (!USAGE_FIELDS.has(key)) return true
  return false
}

/**
 * The exact cost of a usage at an instant, as a plain decimal string. The usage is read once into
 * locals and checked with one condition; only a bad usage takes the slow path that lists its issues.
 */
export function costAt(engine: PricingTiers, usage: CostUsage, ms: number, operation: string): string {
  if (typeof usage !== 'object' || usage === null) {
    throw new PricingError(operation, 'usage', [{ path: '', message: `must be an object such as { promptTokens, completionTokens }, got ${usage === null ? 'null' : typeof usage}` }])
  }
  const prompt = orZero(usage.promptTokens)
  const completion = orZero(usage.completionTokens)
  const cached = orZero(usage.cachedTokens)
  const write = orZero(usage.cacheWriteTokens)
  const write1h = orZero(usage.cacheWrite1hTokens)
  const audio = orZero(usage.audioTokens)
  const cachedAudio = orZero(usage.cachedAudioTokens)
  const reasoning = orZero(usage.reasoningTokens)
  const audioOutput = orZero(usage.audioOutputTokens)
  const images = orZero(usage.images)
  const imageTokens = orZero(usage.imageTokens)
  const outputImages = orZero(usage.outputImages)
  const webSearches = orZero(usage.webSearches)
  const requests = usage.requests === undefined ? 1 : usage.requests
  const numeric =
    isCount(prompt) && isCount(completion) && isCount(cached) && isCount(write) && isCount(write1h) && isCount(audio) &&
    isCount(cachedAudio) && isCount(reasoning) && isCount(audioOutput) && isCount(images) && isCount(imageTokens) &&
    isCount(outputImages) && isCount(webSearches) && isCount(requests)
  // Subtracted only once every count is a number: a BigInt would throw a TypeError here.
  const textPrompt = numeric ? prompt - cached - write - write1h - audio - cachedAudio : -1
  const textCompletion = numeric ? completion - reasoning - audioOutput : -1
  const valid = numeric && textPrompt >= 0 && textCompletion >= 0 && !hasUnknownField(usage)
  if (!valid) throw new PricingError(operation, 'usage', usageIssues(usage))

  const rates = engine.ratesOf(engine.tierAt(prompt, ms))
  const r = rates.small
  if (r !== undefined) {
    // With non-negative terms, a final sum below 2^53 proves every product and partial sum was
    // exact in a double (rounding is monotonic); past that, recompute in bigint.
    const total =
      textPrompt * (r[0] as number) + textCompletion * (r[1] as number) + cached * (r[2] as number) + write * (r[3] as number) +
      write1h * (r[4] as number) + audio * (r[5] as number) + cachedAudio * (r[6] as number) + reasoning * (r[7] as number) +
      audioOutput * (r[8] as number) + images * (r[9] as number) + imageTokens * (r[10] as number) +
      outputImages * (r[11] as number) + webSearches * (r[12] as number) + requests * (r[13] as number)
    if (total <= Number.MAX_SAFE_INTEGER) return formatUnits(total, rates.scale)
  }
  // The order of UNITS.
  const counts = [textPrompt, textCompletion, cached, write, write1h, audio, cachedAudio, reasoning, audioOutput, images, imageTokens, outputImages, webSearches, requests]
  let total = 0n
  for (let i = 0; i < counts.length; i++) total += BigInt(counts[i] as number) * (rates.big[i] as bigint)
  return formatBigUnits(total, rates.scale)
}
