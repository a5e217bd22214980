// Usage accrual and the UTC day, ISO week and calendar month windows.
// A key keeps every usage record; its figures are sums over the records in each window as of the
// simulator clock's now, so they roll over, and roll back, exactly as the clock moves
// (decisions/0009).
// Each function from its own module: date-fns' root re-exports all of it, and importing the root
// took some 140 ms of a cold start (most of what importing this package cost). The UTC context is
// made of UTCDateMini, not @date-fns/utc's `utc`, whose UTCDate module makes three
// Intl.DateTimeFormat at import (26 ms) for formatting this code never asks for (decisions/0056).
import { UTCDateMini } from '@date-fns/utc/date/mini'
import { startOfDay } from 'date-fns/startOfDay'
import { startOfISOWeek } from 'date-fns/startOfISOWeek'
import { startOfMonth } from 'date-fns/startOfMonth'
import type { LimitReset } from './types.js'

/** Usage amounts are integers of 10^-10 USD, so sums are exact and independent of their order. */
export const UNITS_PER_USD = 1e10

/** The largest usage, in whole USD, that sums of 10^-10 USD keep exactly (2^53 - 1 units). */
export const MAX_EXACT_USD = Math.floor(Number.MAX_SAFE_INTEGER / UNITS_PER_USD)

/** One usage record: when, how much (in 10^-10 USD), and whether it was BYOK. */
export interface UsageRecord {
  at: number
  units: number
  byok: boolean
}

/** Starts of the windows containing an instant, in epoch milliseconds (UTC). */
export interface UsageWindows {
  nowMs: number
  day: number
  week: number
  month: number
}

/** The UTC context the window functions compute in: a UTC date of any date-fns argument. */
const utcMini = (value: Date | number | string): Date => new UTCDateMini(+new Date(value))

export function windowsAt(nowMs: number): UsageWindows {
  const options = { in: utcMini }
  return {
    nowMs,
    day: startOfDay(nowMs, options).getTime(),
    week: startOfISOWeek(nowMs, options).getTime(),
    month: startOfMonth(nowMs, options).getTime(),
  }
}

const DAY_MS = 86_400_000

/**
 * {@link windowsAt}, remembering the last UTC day asked about: the week and month starts change
 * only where a day does, so every instant of that day shares them (UTC days are all 86,400,000 ms).
 */
export class WindowsMemo {
  private last: UsageWindows | undefined

  at(nowMs: number): UsageWindows {
    const last = this.last
    if (last !== undefined && nowMs >= last.day && nowMs < last.day + DAY_MS) {
      if (last.nowMs === nowMs) return last
      return (this.last = { nowMs, day: last.day, week: last.week, month: last.month })
    }
    return (this.last = windowsAt(nowMs))
  }
}

/** A key's figures as of a moment, in 10^-10 USD: all time and per window, regular and BYOK. */
export interface UsageFigures {
  total: number
  daily: number
  weekly: number
  monthly: number
  byokTotal: number
  byokDaily: number
  byokWeekly: number
  byokMonthly: number
}

/**
 * What the first `count` records of a key's log summed to at an instant, kept on the log itself
 * (under a symbol, which structuredClone and JSON leave behind). It holds for any later instant in
 * the same day, week and month until the next record dated after it comes due; records appended
 * since are folded in one by one. A version of the key that sees a shorter prefix of the log (a
 * snapshot's) sums its own afresh.
 */
interface FiguresCache {
  day: number
  week: number
  month: number
  /** The instant the figures are for: records at or before it are in them. */
  nowMs: number
  /** The earliest record dated after `nowMs` (Infinity when none): the figures hold until then. */
  next: number
  /** How many records are folded in. */
  count: number
  figures: UsageFigures
}

/** Running all-time sums of a key's records, due or not: what the exact-sum limit is checked against. */
interface TotalsCache {
  count: number
  regular: number
  byok: number
}

const FIGURES = Symbol('usage figures')
const TOTALS = Symbol('usage totals')

type CachedRecords = readonly UsageRecord[] & { [FIGURES]?: FiguresCache; [TOTALS]?: TotalsCache }

function fold(cache: FiguresCache, { at, units, byok }: UsageRecord): void {
  if (at > cache.nowMs) {
    cache.next = Math.min(cache.next, at)
    return
  }
  const f = cache.figures
  const inDay = at >= cache.day ? units : 0
  const inWeek = at >= cache.week ? units : 0
  const inMonth = at >= cache.month ? units : 0
  if (byok) {
    f.byokTotal += units
    f.byokDaily += inDay
    f.byokWeekly += inWeek
    f.byokMonthly += inMonth
  } else {
    f.total += units
    f.daily += inDay
    f.weekly += inWeek
    f.monthly += inMonth
  }
}

/**
 * Sums the records at or before `windows.nowMs`; a record dated later has not happened yet. The
 * sums are cached on the records (see {@link FiguresCache}), so reading a key costs the records
 * added since the last read, not all of them, until a window rolls or the clock goes back.
 * The result is shared with the cache: read it, never change it.
 */
export function figuresAt(records: readonly UsageRecord[], count: number, windows: UsageWindows): Readonly<UsageFigures> {
  // No records (every key just made): nothing to sum, and no cache to hang on its empty log.
  if (count === 0) return NO_FIGURES
  const holder = records as CachedRecords
  let cache = holder[FIGURES]
  const sameWindows = cache !== undefined && cache.day === windows.day && cache.week === windows.week && cache.month === windows.month
  // No record folded in falls due between the cache's now and this one (none lies in
  // (cache.nowMs, windows.nowMs]), so the sums hold at this now too: move the cache there first,
  // then fold in the records added since. A clock that advances between charges sums only those.
  if (cache !== undefined && sameWindows && windows.nowMs >= cache.nowMs && windows.nowMs < cache.next && count >= cache.count) {
    cache.nowMs = windows.nowMs
    for (let i = cache.count; i < count; i++) fold(cache, records[i] as UsageRecord)
    cache.count = count
    return cache.figures
  }
  cache = {
    day: windows.day,
    week: windows.week,
    month: windows.month,
    nowMs: windows.nowMs,
    next: Number.POSITIVE_INFINITY,
    count,
    figures: { total: 0, daily: 0, weekly: 0, monthly: 0, byokTotal: 0, byokDaily: 0, byokWeekly: 0, byokMonthly: 0 },
  }
  for (let i = 0; i < count; i++) fold(cache, records[i] as UsageRecord)
  Object.defineProperty(holder, FIGURES, { value: cache, configurable: true, writable: true, enumerable: false })
  return cache.figures
}

/** The figures of a key with no usage records (shared, frozen: {@link figuresAt} returns it for every such key). */
export const NO_FIGURES: Readonly<UsageFigures> = Object.freeze({ total: 0, daily: 0, weekly: 0, monthly: 0, byokTotal: 0, byokDaily: 0, byokWeekly: 0, byokMonthly: 0 })

/**
 * Until when (exclusive) the figures `figuresAt` last returned for these records hold: the instant
 * of the earliest record after the now they were made for (Infinity when there is none).
 */
export function figuresHoldUntil(records: readonly UsageRecord[]): number {
  return (records as CachedRecords)[FIGURES]?.next ?? Number.POSITIVE_INFINITY
}

/** All-time units of one kind (regular or BYOK) over the first `count` records, due or not; cached like the figures. */
export function unitsOfKind(records: readonly UsageRecord[], count: number, byok: boolean): number {
  const holder = records as CachedRecords
  let totals = holder[TOTALS]
  if (totals === undefined || totals.count > count) {
    totals = { count: 0, regular: 0, byok: 0 }
    Object.defineProperty(holder, TOTALS, { value: totals, configurable: true, writable: true, enumerable: false })
  }
  for (let i = totals.count; i < count; i++) {
    const record = records[i] as UsageRecord
    if (record.byok) totals.byok += record.units
    else totals.regular += record.units
  }
  totals.count = count
  return byok ? totals.byok : totals.regular
}

/**
 * A log holding the first `count` records of `log` and then `record`: `log` itself, appended to,
 * when nothing lies past `count` in it; else a copy of that prefix, so the versions that own the
 * rest (another branch's, restored away from) keep it. Records below a version's count never change.
 */
export function appendUsage(log: UsageRecord[], count: number, record: UsageRecord): UsageRecord[] {
  const own = log.length === count ? log : log.slice(0, count)
  own.push(record)
  return own
}

/** A key's log once a fold is due: at least this many records, and twice what the last fold left. */
export const FOLD_MIN_RECORDS = 1024

/** Distinct charged instants of the current UTC day a key keeps exact before they share minutes. */
export const EXACT_INSTANTS_PER_DAY = 8192

const MINUTE_MS = 60_000
const NEXT_FOLD = Symbol('usage log folds at')

type FoldableLog = UsageRecord[] & { [NEXT_FOLD]?: number }

/**
 * `appendUsage` for a charge made at the clock's `nowMs`, folding the log once it has grown to
 * {@link FOLD_MIN_RECORDS} records and twice what the last fold left (decisions/0029), so a key's
 * memory follows the simulated days it was charged on, not the requests: the records of each UTC day
 * before `nowMs`'s are summed into one per kind, dated at the day's latest; today's and later ones
 * with the same instant and kind are summed, which changes no figure; and when today still has more
 * than {@link EXACT_INSTANTS_PER_DAY} instants, today's up to `nowMs` are summed per minute.
 * Returns the new log and its count. Every figure at `nowMs` and after stays exact, and so do
 * all-time sums; only a clock moved back into a folded day (or minute) sees that day's records
 * count from its last one.
 */
export function chargeUsage(log: UsageRecord[], count: number, record: UsageRecord, nowMs: number): { usage: UsageRecord[]; usageCount: number } {
  const usage = appendUsage(log, count, record) as FoldableLog
  const due = usage[NEXT_FOLD] ?? FOLD_MIN_RECORDS
  if (usage.length < due) return { usage, usageCount: usage.length }
  const folded = foldUsage(usage, nowMs) as FoldableLog
  Object.defineProperty(folded, NEXT_FOLD, { value: Math.max(FOLD_MIN_RECORDS, 2 * folded.length), configurable: true, writable: true, enumerable: false })
  return { usage: folded, usageCount: folded.length }
}

/**
 * A new log with the same sums as `records` for every instant from `nowMs`'s UTC day on (or its
 * minute, when today is folded per minute too): see {@link chargeUsage}. Sorted by instant, regular
 * before BYOK at the same one. `records` is left as it is (other versions of the key may hold it).
 */
export function foldUsage(records: readonly UsageRecord[], nowMs: number): UsageRecord[] {
  const today = Math.floor(nowMs / DAY_MS) * DAY_MS
  const day = (at: number): string => `d${Math.floor(at / DAY_MS)}`
  let folded = groupRecords(records, (at) => (at < today ? day(at) : `i${at}`))
  let todayCount = 0
  for (const r of folded) if (r.at >= today && r.at <= nowMs) todayCount++
  if (todayCount > EXACT_INSTANTS_PER_DAY) {
    folded = groupRecords(folded, (at) => (at < today ? day(at) : at <= nowMs ? `m${Math.floor(at / MINUTE_MS)}` : `i${at}`))
  }
  return folded
}

/** Sums records sharing a kind and a group (`groupOf(at)`), each sum dated at its group's latest instant; sorted by instant, regular first. */
function groupRecords(records: readonly UsageRecord[], groupOf: (at: number) => string): UsageRecord[] {
  const groups = new Map<string, UsageRecord>()
  for (const { at, units, byok } of records) {
    const id = `${byok ? 'b' : 'r'}${groupOf(at)}`
    const group = groups.get(id)
    if (group === undefined) groups.set(id, { at, units, byok })
    else {
      group.units += units
      if (at > group.at) group.at = at
    }
  }
  return [...groups.values()].sort((a, b) => a.at - b.at || Number(a.byok) - Number(b.byok))
}

export const toUsd = (units: number): number => units / UNITS_PER_USD

const UNITS_BIG = 10_000_000_000n

/**
 * An organisation's sums (credits bought, what all its keys spent) in 10^-10 USD as a BigInt: a
 * large organisation's run past the 900,719 USD a safe integer of units holds. USD to units: as
 * {@link toUnits} reads it within that range; past it, the whole dollars exactly and the fraction
 * as the double carries it (a double that large holds no finer than about 10^-9 USD).
 */
export function toBigUnits(usd: number): bigint {
  if (Number.isInteger(usd)) return BigInt(usd) * UNITS_BIG
  const units = toUnits(usd)
  if (Number.isSafeInteger(units)) return BigInt(units)
  const whole = Math.trunc(usd)
  return BigInt(whole) * UNITS_BIG + BigInt(toUnits(usd - whole))
}

/** {@link toBigUnits}' units as USD: exactly {@link toUsd} in the safe range, the nearest double beyond. */
export function bigUnitsToUsd(units: bigint): number {
  if (units <= BigInt(Number.MAX_SAFE_INTEGER)) return toUsd(Number(units))
  const whole = units / UNITS_BIG
  const fraction = units % UNITS_BIG
  return fraction === 0n ? Number(whole) : Number(whole) + Number(fraction) / UNITS_PER_USD
}
/**
 * USD to units. Near 2^53 units the product can be a unit off, so the neighbours are tried:
 * the unit count whose {@link toUsd} is `usd` exactly wins, which makes `toUnits(toUsd(units))`
 * give `units` back (an exported world reloads to the last unit).
 */
export function toUnits(usd: number): number {
  const rounded = Math.round(usd * UNITS_PER_USD)
  if (rounded / UNITS_PER_USD === usd) return rounded
  for (const candidate of [rounded - 1, rounded + 1, rounded - 2, rounded + 2]) if (candidate / UNITS_PER_USD === usd) return candidate
  return rounded
}

/**
 * `limit_remaining`: the limit minus the usage of the current `limit_reset` period (all time
 * without one), BYOK included when the key says so; never below 0, and null without a limit.
 */
export function limitRemaining(
  limit: number | null,
  limitReset: LimitReset | null,
  includeByok: boolean,
  f: UsageFigures,
): number | null {
  if (limit === null) return null
  // Locals, not a destructured pair: this runs for every key read and every admission.
  let used = f.total
  let byok = f.byokTotal
  if (limitReset === 'daily') {
    used = f.daily
    byok = f.byokDaily
  } else if (limitReset === 'weekly') {
    used = f.weekly
    byok = f.byokWeekly
  } else if (limitReset === 'monthly') {
    used = f.monthly
    byok = f.byokMonthly
  }
  const spent = used + (includeByok ? byok : 0)
  const units = toUnits(limit)
  // A limit beyond the exact range, or finer than 10^-10 USD, is compared in USD (usage itself
  // never leaves that range): a spend a part of a unit under the limit leaves that part.
  if (!Number.isSafeInteger(units) || toUsd(units) !== limit) return Math.max(0, limit - toUsd(spent))
  return toUsd(Math.max(0, units - spent))
}

/**
 * A spend limit in USD as the units a spend must reach to be at it: `spent < limitUnits(limit)`
 * exactly when the spend is under the limit. A limit finer than 10^-10 USD (0.00008240001, 1e-11)
 * rounds up, so a spend a part of a unit under it is still under it: the key-limit rule, that a
 * request which starts under the limit completes, holds for every limit a client can send.
 */
export function limitUnits(limit: number): number {
  const units = toUnits(limit)
  return toUsd(units) < limit ? units + 1 : units
}

/** Seeded figures, as `sim.keys.create({ usage })` takes them, in USD; a missing one is the least the others allow. */
export interface SeedFigures {
  total?: number
  daily?: number
  weekly?: number
  monthly?: number
}

/**
 * Records that reproduce seeded figures at `windows.nowMs`: today's share at the start of the day,
 * the rest of the week and of the month at the start of the part of each not yet covered, and the
 * remainder just before both windows. Returns the name of the first figure the calendar makes
 * impossible (weekly above daily on a Monday, say) instead, with the reason.
 */
export function seedRecords(
  seed: SeedFigures,
  byok: boolean,
  windows: UsageWindows,
): UsageRecord[] | { field: keyof SeedFigures; problem: string } {
  // A window that began today holds nothing but today: its figure is also today's least figure.
  const sinceToday = (figure: number | undefined, start: number): number => (figure !== undefined && start === windows.day ? toUnits(figure) : 0)
  const daily = seed.daily !== undefined ? toUnits(seed.daily) : Math.max(sinceToday(seed.weekly, windows.week), sinceToday(seed.monthly, windows.month))
  // When the week so far lies within the month, the month holds all of the week, and the reverse.
  const weekWithinMonth = windows.week >= windows.month
  const monthWithinWeek = windows.month >= windows.week
  const weekly = seed.weekly !== undefined ? toUnits(seed.weekly) : monthWithinWeek && seed.monthly !== undefined ? toUnits(seed.monthly) : daily
  const monthly = seed.monthly !== undefined ? toUnits(seed.monthly) : weekWithinMonth ? weekly : daily
  const usd = (units: number): number => toUsd(units)
  if (weekly < daily) return { field: 'weekly', problem: `must be at least daily (${usd(daily)}): today is part of this week` }
  if (monthly < daily) return { field: 'monthly', problem: `must be at least daily (${usd(daily)}): today is part of this month` }
  // The week and the month overlap in [max(week, month), day); each also has a part the other lacks.
  const overlapStart = Math.max(windows.week, windows.month)
  const weekOnly = windows.week < windows.month ? [windows.week, windows.month] : null
  const monthOnly = windows.month < windows.week ? [windows.month, windows.week] : null
  const overlapEmpty = overlapStart === windows.day
  // Put as much as both windows allow in the overlap; what is left of each goes in its own part.
  const shared = overlapEmpty ? 0 : Math.min(weekly - daily, monthly - daily)
  const weekRest = weekly - daily - shared
  const monthRest = monthly - daily - shared
  if (weekRest > 0 && weekOnly === null) {
    const cap = overlapEmpty || monthly === daily ? `daily (${usd(daily)})` : `monthly (${usd(monthly)})`
    const why = windows.week === windows.day ? 'this week so far is today' : 'this week so far lies within this month'
    return { field: 'weekly', problem: `cannot exceed ${cap} here: ${why}` }
  }
  if (monthRest > 0 && monthOnly === null) {
    const cap = overlapEmpty || weekly === daily ? `daily (${usd(daily)})` : `weekly (${usd(weekly)})`
    const why = windows.month === windows.day ? 'this month so far is today' : 'this month so far lies within this week'
    return { field: 'monthly', problem: `cannot exceed ${cap} here: ${why}` }
  }
  const recent = daily + shared + weekRest + monthRest
  const earlier = seed.total === undefined ? 0 : toUnits(seed.total) - recent
  if (earlier < 0) return { field: 'total', problem: `must be at least the usage of this week and this month together (${usd(recent)})` }
  const records: UsageRecord[] = []
  const add = (at: number, units: number): void => {
    if (units > 0) records.push({ at, units, byok })
  }
  add(Math.min(windows.week, windows.month) - 1, earlier)
  if (weekOnly) add(weekOnly[0] as number, weekRest)
  if (monthOnly) add(monthOnly[0] as number, monthRest)
  add(overlapStart, shared)
  add(windows.day, daily)
  return records
}
