import { describe } from '../describe.js'
import { OVERRIDABLE_PRICE_KEYS, PRICE_KEYS, WEEKDAYS } from '../types.js'

/** One problem found in a pricing object: where it is, and what is wrong. */
export interface PricingIssue {
  /** Path into the pricing object, such as `overrides[2].utc_end`. */
  path: string
  message: string
}

// Plain decimal notation only: no sign, no exponent, no leading dot, no trailing dot.
const DECIMAL = /^\d+(\.\d+)?$/
const CONDITION_KEYS = ['min_prompt_tokens', 'utc_start', 'utc_end', 'utc_days'] as const
const PRICE_KEY_SET: ReadonlySet<string> = new Set(PRICE_KEYS)
const OVERRIDABLE_SET: ReadonlySet<string> = new Set(OVERRIDABLE_PRICE_KEYS)
const CONDITION_SET: ReadonlySet<string> = new Set(CONDITION_KEYS)
const WEEKDAY_SET: ReadonlySet<string> = new Set(WEEKDAYS)

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function checkPrice(value: unknown, path: string, issues: PricingIssue[]): void {
  if (typeof value !== 'string') {
    issues.push({ path, message: `must be a decimal string (USD per unit), got ${typeof value}` })
  } else if (value.startsWith('-')) {
    issues.push({ path, message: `must not be negative, got "${value}"` })
  } else if (/e/i.test(value)) {
    issues.push({ path, message: `must be plain decimal notation without an exponent, got "${value}"` })
  } else if (!DECIMAL.test(value)) {
    issues.push({ path, message: `must be a decimal string such as "0.000001", got "${value}"` })
  }
}

/** HHMM clock value: 0..2359 with minutes below 60, and 2400 where `allow2400`. */
function checkHhmm(value: unknown, path: string, allow2400: boolean, issues: PricingIssue[]): value is number {
  const valid =
    typeof value === 'number' &&
    Number.isInteger(value) &&
    ((value >= 0 && value <= 2359 && value % 100 < 60) || (allow2400 && value === 2400))
  if (!valid) {
    const range = allow2400 ? '0000..2359 or 2400' : '0000..2359'
    issues.push({ path, message: `must be an HHMM clock number in ${range} with minutes below 60, got ${describe(value)}` })
  }
  return valid
}

function checkOverride(override: unknown, path: string, issues: PricingIssue[]): void {
  if (!isRecord(override)) {
    issues.push({ path, message: 'must be an object' })
    return
  }
  for (const [key, value] of Object.entries(override)) {
    // A field given as undefined is absent, as in the JSON the object stands for.
    if (value === undefined) continue
    if (OVERRIDABLE_SET.has(key)) checkPrice(value, `${path}.${key}`, issues)
    else if (PRICE_KEY_SET.has(key)) {
      issues.push({ path: `${path}.${key}`, message: `cannot be overridden; an override may set ${OVERRIDABLE_PRICE_KEYS.join(', ')}` })
    } else if (!CONDITION_SET.has(key)) {
      issues.push({ path: `${path}.${key}`, message: 'is not a price key or condition of an override' })
    }
  }
  const threshold = override['min_prompt_tokens']
  if (threshold !== undefined && (typeof threshold !== 'number' || !Number.isFinite(threshold) || threshold < 0)) {
    issues.push({ path: `${path}.min_prompt_tokens`, message: `must be a non-negative number, got ${describe(threshold)}` })
  }
  const start = override['utc_start']
  const end = override['utc_end']
  const startOk = start === undefined || checkHhmm(start, `${path}.utc_start`, false, issues)
  const endOk = end === undefined || checkHhmm(end, `${path}.utc_end`, true, issues)
  if ((start !== undefined || end !== undefined) && startOk && endOk) {
    const s = start ?? 0
    const e = end ?? 2400
    if (s === e) {
      issues.push({ path: `${path}.utc_end`, message: `must differ from utc_start (${String(s).padStart(4, '0')}); an empty window never applies` })
    }
  }
  const days = override['utc_days']
  if (days !== undefined) {
    if (!Array.isArray(days) || days.length === 0) {
      issues.push({ path: `${path}.utc_days`, message: 'must be a non-empty array of weekday names (monday..sunday)' })
    } else {
      // Array.from visits the holes of a sparse array, which forEach would skip.
      Array.from(days as unknown[], (day, i) => {
        if (typeof day !== 'string' || !WEEKDAY_SET.has(day)) {
          issues.push({ path: `${path}.utc_days[${i}]`, message: `must be one of ${WEEKDAYS.join(', ')}, got ${describe(day)}` })
        }
      })
    }
  }
}

/**
 * Checks a pricing object against the wire's pricing fields and the override rules, and returns every
 * problem found (an empty list when the pricing is valid). It never throws.
 *
 * @example
 * import { validatePricing } from 'model-access-sim/pricing'
 * const issues = validatePricing({ prompt: '0.000001', completion: '1e-6', overrides: [{ utc_start: 2200, utc_end: 2200 }] })
 * console.log(issues.map((issue) => issue.path))
 * //=> ["completion","overrides[0].utc_end"]
 */
export function validatePricing(pricing: unknown): PricingIssue[] {
  const issues: PricingIssue[] = []
  if (!isRecord(pricing)) return [{ path: '', message: 'pricing must be an object' }]
  for (const required of ['prompt', 'completion'] as const) {
    if (pricing[required] === undefined) issues.push({ path: required, message: 'is required' })
  }
  for (const [key, value] of Object.entries(pricing)) {
    // A field given as undefined is absent, as in the JSON the object stands for.
    if (value === undefined) continue
    if (PRICE_KEY_SET.has(key)) checkPrice(value, key, issues)
    else if (key === 'discount') {
      if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1) {
        issues.push({ path: 'discount', message: `must be a number in [0, 1], got ${describe(value)}` })
      }
    } else if (key === 'overrides') {
      if (!Array.isArray(value)) issues.push({ path: 'overrides', message: 'must be an array (never null)' })
      // A for loop, not forEach, which skips the holes of a sparse array.
      else for (let i = 0; i < value.length; i++) checkOverride(value[i], `overrides[${i}]`, issues)
    } else {
      issues.push({ path: key, message: 'is not a pricing key' })
    }
  }
  return issues
}
