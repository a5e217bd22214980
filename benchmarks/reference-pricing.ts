// A straightforward reading of DESIGN.md section 4: interprets the overrides on every call, with
// Date's UTC getters and a fresh result object. The pricing benchmark measures the engine against it,
// and the pricing property tests use it as an independent oracle.
// Constants only, from the source: the tests use this oracle, and run without a build.
import { OVERRIDABLE_PRICE_KEYS, PRICE_KEYS, type Pricing, type Weekday } from '../src/index.js'

const DAY_NAMES: readonly Weekday[] = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday']

const minutesOf = (hhmm: number): number => Math.floor(hhmm / 100) * 60 + (hhmm % 100)

/** Which overrides apply to a request, by index. */
export function referenceApplicable(pricing: Pricing, request: { promptTokens: number; at: Date | number }): number[] {
  const date = new Date(request.at)
  const minute = date.getUTCHours() * 60 + date.getUTCMinutes()
  const day = DAY_NAMES[date.getUTCDay()] as Weekday
  const applicable: number[] = []
  ;(pricing.overrides ?? []).forEach((o, index) => {
    if (o.min_prompt_tokens !== undefined && !(request.promptTokens > o.min_prompt_tokens)) return
    if (o.utc_start !== undefined || o.utc_end !== undefined) {
      const start = minutesOf(o.utc_start ?? 0)
      const end = minutesOf(o.utc_end ?? 2400)
      const inside = start < end ? minute >= start && minute < end : minute >= start || minute < end
      if (!inside) return
    }
    if (o.utc_days !== undefined && !o.utc_days.includes(day)) return
    applicable.push(index)
  })
  return applicable
}

/** The effective prices of a request: base keys, overwritten in order by each applicable override. */
export function referenceResolve(pricing: Pricing, request: { promptTokens: number; at: Date | number }): Record<string, string | number> {
  const result: Record<string, string | number> = {}
  for (const key of PRICE_KEYS) {
    const value = pricing[key]
    if (value !== undefined) result[key] = value
  }
  for (const index of referenceApplicable(pricing, request)) {
    const override = pricing.overrides?.[index] ?? {}
    for (const key of OVERRIDABLE_PRICE_KEYS) {
      const value = override[key]
      if (value !== undefined) result[key] = value
    }
  }
  if (pricing.discount !== undefined) result['discount'] = pricing.discount
  return result
}
