import { invalidArgument } from './errors.js'

/** An instant as the programmatic API accepts it: a Date, epoch milliseconds, or an ISO 8601 string. */
export type InstantInput = Date | number | string

// A date alone ('2026-03-02') is read as UTC midnight by Date.parse; require a time so that
// a timezone-less value is never read in the machine's local zone.
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/

/**
 * Reads an instant into epoch milliseconds, or throws a SimulatorError naming `argument`.
 * Strings must carry a time and an offset (`2026-03-02T10:00:00Z`), so no local zone leaks in.
 */
export function toEpochMs(value: InstantInput, operation: string, argument: string): number {
  let ms: number
  if (value instanceof Date) ms = value.getTime()
  else if (typeof value === 'number') ms = value
  else if (typeof value === 'string') {
    if (!ISO_INSTANT.test(value)) {
      throw invalidArgument(operation, argument, `must be an ISO 8601 instant with a time and offset, got ${JSON.stringify(value)}`)
    }
    ms = Date.parse(value)
  } else {
    throw invalidArgument(operation, argument, `must be a Date, epoch milliseconds or an ISO 8601 string, got ${typeof value}`)
  }
  if (!Number.isFinite(ms) || Math.abs(ms) > 8.64e15) {
    throw invalidArgument(operation, argument, `is not a valid instant (${String(value)})`)
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
  return `${new Date(ms).toISOString().slice(0, -1)}000+00:00`
}

/** Unix seconds, as `created` fields of models carry them. */
export function toUnixSeconds(ms: number): number {
  return Math.floor(ms / 1000)
}
