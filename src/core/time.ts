import { describe } from './describe.js'
import { invalidArgument } from './errors.js'

/** An instant as the programmatic API accepts it: a Date, epoch milliseconds, or an ISO 8601 string. */
export type InstantInput = Date | number | string

// A date alone ('2026-03-02') is read as UTC midnight by Date.parse; require a time so that
// a timezone-less value is never read in the machine's local zone. Years outside 0000-9999 take the
// expanded form `toISOString` writes for them (`+010000-01-01T00:00:00.000Z`).
const ISO_INSTANT = /^(\d{4}|[+-]\d{6})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-](\d{2}):?(\d{2}))$/

/** Whether the fields of an ISO instant name a real calendar moment (Date.parse reads 2026-02-30 as 2 March). */
function onTheCalendar(match: RegExpExecArray): boolean {
  const [, year, month, day, hour, minute, second, , , offsetHours, offsetMinutes] = match.map(Number) as number[]
  // The calendar repeats every 400 years: a year of the same place in the cycle, so that the ends of
  // the Date range (+275760) still have their months. setUTCFullYear, not Date.UTC, which reads
  // years 0 to 99 as 1900 to 1999.
  const cycleYear = 2000 + ((((year as number) % 400) + 400) % 400)
  const daysInMonth = new Date(new Date(0).setUTCFullYear(cycleYear, month as number, 0)).getUTCDate()
  return (
    (month as number) >= 1 && (month as number) <= 12 && (day as number) >= 1 && (day as number) <= daysInMonth &&
    (hour as number) <= 23 && (minute as number) <= 59 && (Number.isNaN(second) || (second as number) <= 59) &&
    (Number.isNaN(offsetHours) || ((offsetHours as number) <= 23 && (offsetMinutes as number) <= 59))
  )
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
  return `${new Date(ms).toISOString().slice(0, -1)}000+00:00`
}

/** Unix seconds, as `created` fields of models carry them. */
export function toUnixSeconds(ms: number): number {
  return Math.floor(ms / 1000)
}
