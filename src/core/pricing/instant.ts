import type { Weekday } from '../types.js'
import { PricingError } from './errors.js'

const MS_PER_MINUTE = 60_000
const MINUTES_PER_DAY = 1440
/** The range of a JavaScript Date: 100,000,000 days either side of the epoch. */
const MAX_EPOCH_MS = 8.64e15

/** Weekday names indexed like `Date.prototype.getUTCDay` (0 = Sunday). */
export const UTC_DAY_NAMES: readonly Weekday[] = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday']

/** Epoch milliseconds of a request's `at` (a Date or epoch milliseconds); throws naming `at`. */
export function instantOf(at: unknown, operation: string): number {
  const ms = typeof at === 'number' ? at : at instanceof Date ? at.getTime() : Number.NaN
  if (Math.abs(ms) <= MAX_EPOCH_MS) return ms
  const got = at instanceof Date ? 'an invalid Date' : typeof at === 'number' ? String(at) : at === undefined ? 'nothing' : typeof at
  throw new PricingError(operation, 'request', [{ path: 'at', message: `must be a valid Date or epoch milliseconds within the Date range, got ${got}` }])
}

/** Minute of the UTC day (0..1439) of an instant, at minute resolution. */
export function utcMinuteOfDay(ms: number): number {
  const minutes = Math.floor(ms / MS_PER_MINUTE)
  return minutes - Math.floor(minutes / MINUTES_PER_DAY) * MINUTES_PER_DAY
}

/** UTC weekday of an instant, 0 = Sunday (1970-01-01 was a Thursday). */
export function utcWeekday(ms: number): number {
  const day = Math.floor(ms / (MS_PER_MINUTE * MINUTES_PER_DAY))
  return (((day + 4) % 7) + 7) % 7
}

/** A minute of the day as `HH:MM`. */
export function clockText(minute: number): string {
  return `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`
}

/** An HHMM clock number as minutes after midnight (2400 is 1440). */
export function hhmmToMinutes(hhmm: number): number {
  return Math.floor(hhmm / 100) * 60 + (hhmm % 100)
}
