import { describe } from './describe.js'
import { invalidArgument } from './errors.js'

/** An instant as the programmatic API accepts it: a Date, epoch milliseconds, or an ISO 8601 string. */
export type InstantInput = Date | number | string

// A date alone ('2026-03-02') is read as UTC midnight by Date.parse; require a time so that
// a timezone-less value is never read in the machine's local zone. Years outside 0000-9999 take the
// expanded form `toISOString` writes for them (`+010000-01-01T00:00:00.000Z`).
const ISO_INSTANT = /^(\d{4}|[+-]\d{6})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-](\d{2}):?(\d{2}))$/

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const

/** Days in a month of the proleptic Gregorian calendar (the one Date uses, before 1582 too). */
function daysInMonth(year: number, month: number): number {
  if (month !== 2) return DAYS_IN_MONTH[month - 1] as number
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28
}

/** Whether the fields of an ISO instant name a real calendar moment (Date.parse reads 2026-02-30 as 2 March). */
function onTheCalendar(match: RegExpExecArray): boolean {
  const month = Number(match[2])
  const day = Number(match[3])
  return (
    month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(Number(match[1]), month) &&
    Number(match[4]) <= 23 && Number(match[5]) <= 59 && (match[6] === undefined || Number(match[6]) <= 59) &&
    (match[9] === undefined || (Number(match[9]) <= 23 && Number(match[10]) <= 59))
  )
}

/** The number written by `count` ASCII digits from `at`, or -1 when one of them is not a digit. */
function digitsAt(value: string, at: number, count: number): number {
  let n = 0
  for (let i = at; i < at + count; i++) {
    const digit = value.charCodeAt(i) - 48
    if (digit < 0 || digit > 9) return -1
    n = n * 10 + digit
  }
  return n
}

/** Days from 1970-01-01 to a date of the proleptic Gregorian calendar (H. Hinnant's days_from_civil). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year
  const era = Math.floor(y / 400)
  const yearOfEra = y - era * 400
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1
  return era * 146_097 + yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear - 719_468
}

/**
 * `YYYY-MM-DDTHH:MM:SS.mmmZ`, the form `toISOString` writes and world specs carry, read without a
 * regular expression or `Date.parse`; undefined for any other form, or a date not on the calendar.
 */
function parseCanonical(value: string): number | undefined {
  if (value.length !== 24 || value.charCodeAt(23) !== 0x5a) return undefined
  if (value.charCodeAt(4) !== 0x2d || value.charCodeAt(7) !== 0x2d || value.charCodeAt(10) !== 0x54) return undefined
  if (value.charCodeAt(13) !== 0x3a || value.charCodeAt(16) !== 0x3a || value.charCodeAt(19) !== 0x2e) return undefined
  const year = digitsAt(value, 0, 4)
  const month = digitsAt(value, 5, 2)
  const day = digitsAt(value, 8, 2)
  const hour = digitsAt(value, 11, 2)
  const minute = digitsAt(value, 14, 2)
  const second = digitsAt(value, 17, 2)
  const ms = digitsAt(value, 20, 3)
  if (year < 0 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59 || ms < 0) return undefined
  return daysFromCivil(year, month, day) * 86_400_000 + hour * 3_600_000 + minute * 60_000 + second * 1000 + ms
}

/**
 * Epoch milliseconds of an ISO 8601 instant string as {@link toEpochMs} reads it, or undefined when
 * it would refuse it: the loader's fast path, which names the argument only when there is a problem.
 */
export function parseInstant(value: string): number | undefined {
  const canonical = parseCanonical(value)
  if (canonical !== undefined) return canonical
  const match = ISO_INSTANT.exec(value)
  if (match === null || !onTheCalendar(match)) return undefined
  const ms = Date.parse(value)
  return Number.isFinite(ms) && Math.abs(ms) <= 8.64e15 ? Math.trunc(ms) : undefined
}

/**
 * Reads an instant into epoch milliseconds, or throws a SimulatorError naming `argument`.
 * Strings must carry a time and an offset (`2026-03-02T10:00:00Z`), so no local zone leaks in.
 */
export function toEpochMs(value: InstantInput, operation: string, argument: string): number {
  let ms: number
  if (value instanceof Date) ms = value.getTime()
  else if (typeof value === 'number') ms = value
  else if (typeof value === 'string') {
    const match = ISO_INSTANT.exec(value)
    if (!match) {
      throw invalidArgument(operation, argument, `must be an ISO 8601 instant with a time and offset, got ${JSON.stringify(value)}`)
    }
    if (!onTheCalendar(match)) throw invalidArgument(operation, argument, `is not a date on the calendar, got ${JSON.stringify(value)}`)
    ms = Date.parse(value)
  } else {
    throw invalidArgument(operation, argument, `must be a Date, epoch milliseconds or an ISO 8601 string, got ${typeof value}`)
  }
  if (!Number.isFinite(ms) || Math.abs(ms) > 8.64e15) {
    throw invalidArgument(operation, argument, `is not a valid instant (${value instanceof Date ? 'an invalid Date' : describe(value)})`)
  }
  return Math.trunc(ms)
}

const DAY_MS = 86_400_000
/** '00' to '99'. */
const TWO_DIGITS: readonly string[] = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0'))
/** '000000+00:00' to '999000+00:00': the milliseconds as microseconds, and the UTC offset. */
const FRACTION: readonly string[] = Array.from({ length: 1000 }, (_, i) => `${String(i).padStart(3, '0')}000+00:00`)

// The date part of the last day formatted: consecutive timestamps are mostly of one day.
let lastDay = Number.NaN
let lastDate = ''

/**
 * `YYYY-MM-DDT` of a day counted from 1970-01-01, as toISOString writes it: years outside 0000-9999
 * as a sign and six digits (`+010000`, `-000001`). Howard Hinnant's civil_from_days, on the
 * proleptic Gregorian calendar of Date, over 400-year eras that start on 1 March.
 */
function datePart(day: number): string {
  const z = day + 719_468 // days since 0000-03-01
  const era = Math.floor(z / 146_097)
  const dayOfEra = z - era * 146_097 // 0 to 146096
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  ) // 0 to 399
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100)) // 0 to 365, from 1 March
  const shiftedMonth = Math.floor((5 * dayOfYear + 2) / 153) // 0 (March) to 11 (February)
  const dayOfMonth = dayOfYear - Math.floor((153 * shiftedMonth + 2) / 5) + 1
  const month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
  const yearText =
    year >= 0 && year <= 9999
      ? (TWO_DIGITS[Math.floor(year / 100)] as string) + (TWO_DIGITS[year % 100] as string)
      : (year < 0 ? '-' : '+') + String(Math.abs(year)).padStart(6, '0')
  return `${yearText}-${TWO_DIGITS[month] as string}-${TWO_DIGITS[dayOfMonth] as string}T`
}

/**
 * Formats epoch milliseconds the way the service writes timestamps:
 * `2025-02-19T20:52:27.363000+00:00` (microseconds, explicit UTC offset).
 *
 * @example
 * import { formatTimestamp } from 'model-access-sim'
 * console.log(formatTimestamp(Date.UTC(2026, 2, 2, 10, 0, 0, 5)))
 * //=> 2026-03-02T10:00:00.005000+00:00
 */
export function formatTimestamp(ms: number): string {
  if (typeof ms !== 'number' || !Number.isFinite(ms) || Math.abs(ms) > 8.64e15) {
    throw invalidArgument('format a timestamp', 'ms', `must be epoch milliseconds of a valid instant, got ${describe(ms)}`)
  }
  // The string `${new Date(ms).toISOString().slice(0, -1)}000+00:00` gives, built from integers:
  // this runs for every timestamp of every response, and a Date per call was a fifth of a request.
  // Date truncates a fraction towards zero (-0.5 is the epoch, not a millisecond before it). The
  // day comes from the remainder, which % computes exactly, rather than from a rounded quotient.
  const whole = Math.trunc(ms)
  let rest = whole % DAY_MS
  if (rest < 0) rest += DAY_MS
  const day = (whole - rest) / DAY_MS
  const hours = Math.floor(rest / 3_600_000)
  rest -= hours * 3_600_000
  const minutes = Math.floor(rest / 60_000)
  rest -= minutes * 60_000
  const seconds = Math.floor(rest / 1000)
  if (day !== lastDay) {
    lastDay = day
    lastDate = datePart(day)
  }
  return (
    lastDate + (TWO_DIGITS[hours] as string) + ':' + (TWO_DIGITS[minutes] as string) + ':' + (TWO_DIGITS[seconds] as string) + '.' +
    (FRACTION[rest - seconds * 1000] as string)
  )
}

/** Unix seconds, as `created` fields of models carry them. */
export function toUnixSeconds(ms: number): number {
  return Math.floor(ms / 1000)
}
