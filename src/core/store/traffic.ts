// The traffic state of an endpoint, a row of the store's `endpointStats` table: a ring of one day
// of per-minute counts and a ring of 30 minutes of samples (decisions/0025). inference/statistics.ts
// records attempts into these rows and reads the figures out of them.
import type { Endpoint, PercentileStats } from '../types.js'

/** The minutes of the longest window (1 day): the length of the count ring. */
export const DAY_MINUTES = 1440
/** The minutes of the percentile window (30 minutes). */
export const SAMPLE_MINUTES = 30
/** Samples kept per minute for the percentiles; beyond, a deterministic reservoir keeps this many. */
export const SAMPLES_PER_MINUTE = 32

/** A minute in milliseconds. */
export const MINUTE_MS = 60_000

/** The figures of one endpoint's traffic, as last computed at a minute and a write count. */
export interface Figures {
  minute: number
  writes: number
  uptime5m: number | undefined
  uptime30m: number | undefined
  uptime1d: number | undefined
  latency: PercentileStats | undefined
  throughput: PercentileStats | undefined
}

/**
 * One endpoint's traffic: a row of the store's `endpointStats` table. Changed in place only while
 * it belongs to the live store alone (`owner` and `epoch` say so); see trafficFor in inference/statistics.ts.
 */
export class EndpointTraffic {
  /** Changes so far: what cached views compare. */
  writes = 0
  /**
   * The history (store/versions.ts) and its epoch this row was made in; another epoch means a
   * version may hold it. Only compared by identity, so typed as any object here.
   */
  owner: object | undefined
  epoch: number
  /** Per-minute slots of the last day: the minute each holds (NaN: none), its successes and errors. */
  readonly minutes: Float64Array
  readonly ok: Uint32Array
  readonly errors: Uint32Array
  /** Per-minute sample slots of the last 30 minutes: the minute, the successes seen in it, their samples. */
  readonly sampleMinutes: Float64Array
  readonly seen: Float64Array
  readonly latency: Float64Array
  readonly throughput: Float64Array
  /** The figures last computed, for the minute and write count they were computed at. */
  cached: Figures | undefined
  /**
   * The latest minute an error was counted in (-Infinity: none yet). A window that ends more than
   * its length after it holds no error, so its uptime is 100% or unknown: `hadOutage` answers
   * without reading the slots, which on most requests (no provider failing) it then never does.
   */
  lastErrorMinute = Number.NEGATIVE_INFINITY

  constructor(
    /** The endpoint row this traffic belongs to: a different row under the same id starts afresh. */
    readonly endpoint: Endpoint,
    owner: object | undefined,
    epoch: number,
    from?: EndpointTraffic,
  ) {
    this.owner = owner
    this.epoch = epoch
    if (from === undefined) {
      this.minutes = new Float64Array(DAY_MINUTES).fill(Number.NaN)
      this.ok = new Uint32Array(DAY_MINUTES)
      this.errors = new Uint32Array(DAY_MINUTES)
      this.sampleMinutes = new Float64Array(SAMPLE_MINUTES).fill(Number.NaN)
      this.seen = new Float64Array(SAMPLE_MINUTES)
      this.latency = new Float64Array(SAMPLE_MINUTES * SAMPLES_PER_MINUTE)
      this.throughput = new Float64Array(SAMPLE_MINUTES * SAMPLES_PER_MINUTE)
    } else {
      this.writes = from.writes
      this.lastErrorMinute = from.lastErrorMinute
      this.minutes = from.minutes.slice()
      this.ok = from.ok.slice()
      this.errors = from.errors.slice()
      this.sampleMinutes = from.sampleMinutes.slice()
      this.seen = from.seen.slice()
      this.latency = from.latency.slice()
      this.throughput = from.throughput.slice()
    }
  }
}
