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

/** Minutes per page of the count ring: a page is made when the first attempt of its hour is counted. */
export const PAGE_MINUTES = 60

/**
 * One endpoint's traffic: a row of the store's `endpointStats` table. Changed in place only while
 * it belongs to the live store alone (`owner` and `epoch` say so); see trafficFor in inference/statistics.ts.
 *
 * The rings are made as they fill, not whole (decisions/0025): a test that sends a few requests
 * makes one page of counts and one minute of samples, about 2 KB, where the whole rings are 38 KB.
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
  /**
   * The count ring of the last day, DAY_MINUTES slots in pages of PAGE_MINUTES, each page made on
   * its first count. A page holds, for each of its slots, the minute it counts (NaN: none), then
   * the successes in each, then the errors: `page[i]`, `page[PAGE_MINUTES + i]`, `page[2 * PAGE_MINUTES + i]`.
   */
  readonly pages: (Float64Array | undefined)[]
  /** The sample ring of the last 30 minutes: each slot's minute (NaN: none), then the successes seen in it (`SAMPLE_MINUTES + s`). */
  readonly sampleSlots: Float64Array
  /** Each sample slot's kept samples, made on its first: latencies, then throughputs (`SAMPLES_PER_MINUTE + j`). */
  readonly samples: (Float64Array | undefined)[]
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
      this.pages = new Array<Float64Array | undefined>(DAY_MINUTES / PAGE_MINUTES).fill(undefined)
      this.sampleSlots = new Float64Array(2 * SAMPLE_MINUTES).fill(Number.NaN, 0, SAMPLE_MINUTES)
      this.samples = new Array<Float64Array | undefined>(SAMPLE_MINUTES).fill(undefined)
    } else {
      this.writes = from.writes
      this.lastErrorMinute = from.lastErrorMinute
      this.pages = from.pages.map((page) => page?.slice())
      this.sampleSlots = from.sampleSlots.slice()
      this.samples = from.samples.map((kept) => kept?.slice())
    }
  }

  /** The page of the count ring that holds `slot` (0 to DAY_MINUTES - 1), made if it is not yet. */
  pageOf(slot: number): Float64Array {
    const p = Math.floor(slot / PAGE_MINUTES)
    let page = this.pages[p]
    if (page === undefined) this.pages[p] = page = new Float64Array(3 * PAGE_MINUTES).fill(Number.NaN, 0, PAGE_MINUTES)
    return page
  }

  /** The kept samples of sample slot `s`, made if it has none yet. */
  samplesOf(s: number): Float64Array {
    return (this.samples[s] ??= new Float64Array(2 * SAMPLES_PER_MINUTE))
  }
}
