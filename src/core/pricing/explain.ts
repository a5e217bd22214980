import { PRICE_KEYS } from '../types.js'
import type { OverridablePriceKey, PriceKey, Weekday } from '../types.js'
import { type PricingTiers, type ResolvedPricing, type Rule, type Tier, inWindow } from './rules.js'
import { formatBigUnits, formatDecimal } from './decimal.js'
import { clockText, utcMinuteOfDay, utcWeekday, UTC_DAY_NAMES } from './instant.js'

/** How one condition of an override fared, with the values compared. */
export type ConditionExplanation =
  | { condition: 'min_prompt_tokens'; holds: boolean; threshold: number; promptTokens: number; text: string }
  | {
      condition: 'utc_window'
      holds: boolean
      /** The window as HHMM numbers, with a missing side filled in (0000 or 2400). */
      utcStart: number
      utcEnd: number
      wraps: boolean
      /** The request's UTC time of day, `HH:MM`. */
      utcTime: string
      text: string
    }
  | { condition: 'utc_days'; holds: boolean; days: readonly Weekday[]; utcDay: Weekday; text: string }

/** Whether one override applied, and why. */
export interface OverrideExplanation {
  /** `overrides[i]`, the override's path in the pricing. */
  path: string
  index: number
  applies: boolean
  /** Every condition the override has, in the order min_prompt_tokens, utc_window, utc_days; empty when it has none. */
  conditions: ConditionExplanation[]
  /** The prices the override sets. */
  sets: Partial<Record<OverridablePriceKey, string>>
  text: string
}

/** Which entry won one price key. */
export interface PriceExplanation {
  /** The effective price, identical to the winning source string. */
  value: string
  /** `base` or the winning override's path, such as `overrides[1]`. */
  from: string
  /** The winning override's index, or null when the base price stands. */
  override: number | null
  /** The base price of this key, or null when only an override sets it. */
  base: string | null
  /** Earlier overrides that applied and set this key too, but lost to a later one (rule 5). */
  outranked: number[]
}

/** What `explainPricing` reports: the request as the engine read it, each override, each price. */
export interface PricingExplanation {
  promptTokens: number
  /** The request instant, ISO 8601 in UTC. */
  at: string
  utcTime: string
  utcDay: Weekday
  overrides: OverrideExplanation[]
  prices: Partial<Record<PriceKey, PriceExplanation>>
  /** The discount (0 without one); every price is multiplied by (1 - discount) when costing. */
  discount: number
  /** The same object `resolvePricing` returns for this request. */
  resolved: ResolvedPricing
  /** All of the above as lines a person reads. */
  text: string
}

function hhmmText(hhmm: number): string {
  return `${String(Math.floor(hhmm / 100)).padStart(2, '0')}:${String(hhmm % 100).padStart(2, '0')}`
}

/** "1 prompt token", "2 prompt tokens". */
function tokensText(promptTokens: number): string {
  return `${promptTokens} prompt token${promptTokens === 1 ? '' : 's'}`
}

function conditionsOf(rule: Rule, promptTokens: number, minute: number, weekday: number): ConditionExplanation[] {
  const conditions: ConditionExplanation[] = []
  const { source } = rule
  if (source.min_prompt_tokens !== undefined) {
    const threshold = source.min_prompt_tokens
    const holds = promptTokens > threshold
    const text = holds
      ? `${tokensText(promptTokens)} is more than min_prompt_tokens ${threshold}`
      : `${tokensText(promptTokens)} is not more than min_prompt_tokens ${threshold}`
    conditions.push({ condition: 'min_prompt_tokens', holds, threshold, promptTokens, text })
  }
  if (rule.hasWindow) {
    const utcStart = source.utc_start ?? 0
    const utcEnd = source.utc_end ?? 2400
    const utcTime = clockText(minute)
    const holds = inWindow(rule, minute)
    const window = `[${hhmmText(utcStart)}, ${hhmmText(utcEnd)})${rule.wraps ? ', which wraps past midnight' : ''}`
    const text = `${utcTime} UTC is ${holds ? 'inside' : 'outside'} the window ${window}`
    conditions.push({ condition: 'utc_window', holds, utcStart, utcEnd, wraps: rule.wraps, utcTime, text })
  }
  if (source.utc_days !== undefined) {
    const utcDay = UTC_DAY_NAMES[weekday] as Weekday
    const holds = source.utc_days.includes(utcDay)
    const text = `${utcDay} (UTC) is ${holds ? '' : 'not '}one of utc_days [${source.utc_days.join(', ')}]`
    conditions.push({ condition: 'utc_days', holds, days: source.utc_days, utcDay, text })
  }
  return conditions
}

/** Builds the explanation of one request against a compiled pricing; `tier` is the request's tier. */
export function explain(engine: PricingTiers, promptTokens: number, ms: number, tier: Tier): PricingExplanation {
  const minute = utcMinuteOfDay(ms)
  const weekday = utcWeekday(ms)
  const overrides = engine.rules.map((rule): OverrideExplanation => {
    const conditions = conditionsOf(rule, promptTokens, minute, weekday)
    const applies = conditions.every((c) => c.holds)
    const path = `overrides[${rule.index}]`
    const reasons = conditions.length === 0 ? 'it has no conditions' : conditions.filter((c) => c.holds === applies).map((c) => c.text).join('; ')
    return { path, index: rule.index, applies, conditions, sets: Object.fromEntries(rule.prices), text: `${path} ${applies ? 'applies' : 'does not apply'}: ${reasons}` }
  })
  const prices: Partial<Record<PriceKey, PriceExplanation>> = {}
  const lines = [`${tokensText(promptTokens)} at ${new Date(ms).toISOString()} (${UTC_DAY_NAMES[weekday]} ${clockText(minute)} UTC)`, ...overrides.map((o) => o.text)]
  for (const key of PRICE_KEYS) {
    const winner = tier.winners[key]
    if (winner === undefined) continue
    const value = tier.prices[key] as string
    const base = engine.base[key] ?? null
    const outranked = overrides.filter((o) => o.applies && o.index !== winner && key in o.sets).map((o) => o.index)
    const from = winner === -1 ? 'base' : `overrides[${winner}]`
    prices[key] = { value, from, override: winner === -1 ? null : winner, base, outranked }
    const notes = [
      ...(winner !== -1 ? [base === null ? 'no base price' : `base "${base}"`] : []),
      ...(outranked.length > 0 ? [`outranks ${outranked.map((i) => `overrides[${i}]`).join(', ')}`] : []),
    ]
    lines.push(`${key} = "${value}" from ${from}${notes.length > 0 ? ` (${notes.join('; ')})` : ''}`)
  }
  const discount = engine.discount ?? 0
  if (discount !== 0) {
    const { units, scale } = engine.discountDecimal
    lines.push(`discount ${formatDecimal(engine.discountDecimal)}: every price is multiplied by ${formatBigUnits(10n ** BigInt(scale) - units, scale)} when costing`)
  }
  return {
    promptTokens,
    at: new Date(ms).toISOString(),
    utcTime: clockText(minute),
    utcDay: UTC_DAY_NAMES[weekday] as Weekday,
    overrides,
    prices,
    discount,
    resolved: tier.prices,
    text: lines.join('\n'),
  }
}
