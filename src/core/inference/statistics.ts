// Endpoint statistics from simulated traffic (decisions/0025): every attempt the money path makes on
// an endpoint feeds that endpoint's uptime (5 minutes, 30 minutes, 1 day), time to first token and
// throughput percentiles (30 minutes), on the simulator clock. Until a window holds enough traffic
// the world's seeded figure stands.
//
// Memory is bounded whatever the traffic: per endpoint, a ring of one day of per-minute counts and a
// ring of 30 minutes of at most SAMPLES_PER_MINUTE samples per minute (a deterministic reservoir).
// The traffic of an endpoint is a row of the store (table `endpointStats`), so snapshots, restore
// and reset cover it. A row is changed in place while no version of the store holds it, and copied
// first otherwise (see `trafficFor`), so recording an attempt is O(1), and allocates only the first
// of an hour's counts or of a minute's samples (store/traffic.ts makes the rings as they fill).
import { memoByRecord } from '../memo.js'
import type { StoreContext } from '../store/context.js'
import { put } from '../store/versions.js'
import { type Figures, DAY_MINUTES, EndpointTraffic, MINUTE_MS, PAGE_MINUTES, SAMPLE_MINUTES, SAMPLES_PER_MINUTE } from '../store/traffic.js'
import type { Endpoint, ModelWithEndpoints, PercentileStats } from '../types.js'

/**
 * Attempts a window needs before its figure replaces the seeded one: counted attempts (successful
 * plus errors) for an uptime, successful attempts for the percentiles.
 */
export const TRAFFIC_THRESHOLD = 10
/** Below this traffic uptime over 5 minutes (once its threshold is met), the unsorted draw tries an endpoint last. */
export const OUTAGE_UPTIME = 90

// The id of an endpoint's row: its model's id and its place among the model's endpoints. Derived
// from the model row alone (rows never change), so it can be kept beside it.
const idsOf = memoByRecord((model: ModelWithEndpoints): string[] => model.endpoints.map((_, i) => `${model.id}\u0000${i}`))

/** The traffic row of `endpoint` (one of `model`'s), if any attempt was recorded on it. */
export function trafficOf(ctx: StoreContext, model: ModelWithEndpoints, endpoint: Endpoint): EndpointTraffic | undefined {
  const i = model.endpoints.indexOf(endpoint)
  if (i === -1) return undefined
  const row = ctx.data.endpointStats.get(idsOf(model)[i] as string)
  return row !== undefined && row.endpoint === endpoint ? row : undefined
}

/**
 * The row to record into: the live one when no version of the store can hold it (made in this
 * history's current epoch), else a copy of it (or a new row), written through `put` so that
 * snapshots and restores see the change.
 */
function trafficFor(ctx: StoreContext, model: ModelWithEndpoints, endpoint: Endpoint): EndpointTraffic | undefined {
  const i = model.endpoints.indexOf(endpoint)
  if (i === -1) return undefined
  const id = idsOf(model)[i] as string
  const history = ctx.history
  const epoch = history?.epoch ?? 0
  const row = ctx.data.endpointStats.get(id)
  if (row !== undefined && row.endpoint === endpoint && row.owner === history && row.epoch === epoch) return row
  const fresh = new EndpointTraffic(endpoint, history, epoch, row !== undefined && row.endpoint === endpoint ? row : undefined)
  put(ctx, 'endpointStats', id, fresh)
  return fresh
}

/** A 32-bit mix (Murmur3's finaliser) of two numbers: the reservoir's deterministic draw. */
function mix(a: number, b: number): number {
  let h = (Math.imul(a | 0, 0x9e3779b1) ^ (b | 0)) >>> 0
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  h ^= h >>> 16
  return h >>> 0
}

/**
 * Records one attempt on `endpoint` (of `model`) at the clock's now: `status` 200 for a success,
 * with its time to first token (ms) and tokens per second, else the error status. O(1), and no
 * allocation unless a snapshot was taken since the endpoint's last attempt, or this is the first
 * attempt counted in its hour's page or sampled in its minute. Rate-limited attempts
 * (429) are not counted, as the service's uptime leaves them out.
 */
export function recordAttempt(ctx: StoreContext, model: ModelWithEndpoints, endpoint: Endpoint, status: number, latencyMs = 0, tokensPerSecond = 0): void {
  if (status === 429) return
  const row = trafficFor(ctx, model, endpoint)
  if (row === undefined) return
  const minute = Math.floor(ctx.clock.nowMs() / MINUTE_MS)
  const slot = ((minute % DAY_MINUTES) + DAY_MINUTES) % DAY_MINUTES
  const page = row.pageOf(slot)
  // The slot's place in its page: its minute, then (a page further each) its successes and errors.
  const i = slot % PAGE_MINUTES
  if (page[i] !== minute) {
    // The slot held another day's minute (or one after the clock was moved back): it starts again.
    page[i] = minute
    page[PAGE_MINUTES + i] = 0
    page[2 * PAGE_MINUTES + i] = 0
  }
  row.writes++
  if (status !== 200) {
    page[2 * PAGE_MINUTES + i] = (page[2 * PAGE_MINUTES + i] as number) + 1
    if (minute > row.lastErrorMinute) row.lastErrorMinute = minute
    return
  }
  page[PAGE_MINUTES + i] = (page[PAGE_MINUTES + i] as number) + 1
  const s = ((minute % SAMPLE_MINUTES) + SAMPLE_MINUTES) % SAMPLE_MINUTES
  const slots = row.sampleSlots
  if (slots[s] !== minute) {
    slots[s] = minute
    slots[SAMPLE_MINUTES + s] = 0
  }
  const n = slots[SAMPLE_MINUTES + s] as number
  slots[SAMPLE_MINUTES + s] = n + 1
  // Reservoir sampling (Vitter's algorithm R) with a hash of the minute and the sample's number
  // for its draw: the same traffic keeps the same samples on every run, and the seeded stream is untouched.
  const j = n < SAMPLES_PER_MINUTE ? n : mix(minute, n) % (n + 1)
  if (j < SAMPLES_PER_MINUTE) {
    const kept = row.samplesOf(s)
    kept[j] = latencyMs
    kept[SAMPLES_PER_MINUTE + j] = tokensPerSecond
  }
}

/** successful / (successful + errors) x 100, to 2 decimals, over the last `minutes` minutes; undefined below the threshold. */
function uptime(row: EndpointTraffic, now: number, minutes: number): number | undefined {
  let ok = 0
  let errors = 0
  for (let m = now - minutes + 1; m <= now; m++) {
    const slot = ((m % DAY_MINUTES) + DAY_MINUTES) % DAY_MINUTES
    const page = row.pages[Math.floor(slot / PAGE_MINUTES)]
    const i = slot % PAGE_MINUTES
    // A page not made yet has counted nothing: skip to its end.
    if (page === undefined) m += PAGE_MINUTES - 1 - i
    else if (page[i] === m) {
      ok += page[PAGE_MINUTES + i] as number
      errors += page[2 * PAGE_MINUTES + i] as number
    }
  }
  const total = ok + errors
  if (total < TRAFFIC_THRESHOLD) return undefined
  return Math.round((ok / total) * 10_000) / 100
}

const PERCENTILES = [50, 75, 90, 99] as const

/**
 * Nearest-rank percentiles of weighted samples: for p, the first value (in `order`) at which the
 * samples' cumulative weight reaches p% of the total. With every weight 1 that is the value of rank
 * ceil(p/100 x n). `descending`: throughput, whose higher percentiles are the slower tail.
 */
function percentilesOf(values: number[], weights: number[], descending: boolean): PercentileStats {
  const order = values.map((_, i) => i).sort((a, b) => (descending ? (values[b] as number) - (values[a] as number) : (values[a] as number) - (values[b] as number)) || a - b)
  const total = weights.reduce((sum, w) => sum + w, 0)
  const result = { p50: 0, p75: 0, p90: 0, p99: 0 }
  let k = 0
  let cumulative = 0
  for (const p of PERCENTILES) {
    const target = (p / 100) * total - 1e-9
    while (k < order.length - 1 && cumulative + (weights[order[k] as number] as number) < target) cumulative += weights[order[k++] as number] as number
    result[`p${p}`] = values[order[k] as number] as number
  }
  return result
}

/** The figures of a row at `minute`, computed once per minute and write count. */
function figuresOf(row: EndpointTraffic, minute: number): Figures {
  const cached = row.cached
  if (cached !== undefined && cached.minute === minute && cached.writes === row.writes) return cached
  const latency: number[] = []
  const throughput: number[] = []
  const weights: number[] = []
  let successes = 0
  for (let m = minute - SAMPLE_MINUTES + 1; m <= minute; m++) {
    const s = ((m % SAMPLE_MINUTES) + SAMPLE_MINUTES) % SAMPLE_MINUTES
    if (row.sampleSlots[s] !== m) continue
    const seen = row.sampleSlots[SAMPLE_MINUTES + s] as number
    const kept = Math.min(seen, SAMPLES_PER_MINUTE)
    // A slot whose minute is set has seen a success, so its samples were made.
    const samples = row.samples[s] as Float64Array
    successes += seen
    // Each kept sample stands for seen / kept attempts of its minute.
    for (let j = 0; j < kept; j++) {
      latency.push(samples[j] as number)
      throughput.push(samples[SAMPLES_PER_MINUTE + j] as number)
      weights.push(seen / kept)
    }
  }
  const enough = successes >= TRAFFIC_THRESHOLD
  const figures: Figures = {
    minute,
    writes: row.writes,
    uptime5m: uptime(row, minute, 5),
    uptime30m: uptime(row, minute, 30),
    uptime1d: uptime(row, minute, DAY_MINUTES),
    latency: enough ? percentilesOf(latency, weights, false) : undefined,
    throughput: enough ? percentilesOf(throughput, weights, true) : undefined,
  }
  row.cached = figures
  return figures
}

/** The endpoint as the service shows it in the clock's `minute`: traffic figures where a window has enough traffic, else the seeded ones. */
function endpointAt(endpoint: Endpoint, row: EndpointTraffic | undefined, minute: number): Endpoint {
  if (row === undefined) return endpoint
  const f = figuresOf(row, minute)
  if (f.uptime5m === undefined && f.uptime30m === undefined && f.uptime1d === undefined && f.latency === undefined) return endpoint
  return {
    ...endpoint,
    uptime_last_5m: f.uptime5m ?? endpoint.uptime_last_5m,
    uptime_last_30m: f.uptime30m ?? endpoint.uptime_last_30m,
    uptime_last_1d: f.uptime1d ?? endpoint.uptime_last_1d,
    latency_last_30m: f.latency ?? endpoint.latency_last_30m,
    throughput_last_30m: f.throughput ?? endpoint.throughput_last_30m,
  }
}

/** What a model's view was made from: each endpoint's row and its write count, and the minute. */
export interface ModelView {
  minute: number
  rows: (EndpointTraffic | undefined)[]
  writes: number[]
  model: ModelWithEndpoints
}

/**
 * The last view of each model, per simulator (its InferenceRuntime holds one). A view checks
 * itself on every read against the rows and minute it was made from, so it is never stale.
 */
export type StatisticsViews = WeakMap<ModelWithEndpoints, ModelView>

/**
 * `model` with the figures its endpoints show at the clock's now (decisions/0025): the stored
 * model itself while no endpoint has enough traffic in any window, so its cached JSON serves. A
 * view is kept per model and made again only when a row changed or the clock entered another minute.
 */
export function modelWithStatistics(ctx: StoreContext, views: StatisticsViews, model: ModelWithEndpoints): ModelWithEndpoints {
  const table = ctx.data.endpointStats
  if (table.size === 0) return model
  const ids = idsOf(model)
  const minute = Math.floor(ctx.clock.nowMs() / MINUTE_MS)
  const view = views.get(model)
  let same = view !== undefined && view.minute === minute
  const rows: (EndpointTraffic | undefined)[] = []
  let any = false
  for (let i = 0; i < ids.length; i++) {
    const row = table.get(ids[i] as string)
    const own = row !== undefined && row.endpoint === model.endpoints[i] ? row : undefined
    if (own !== undefined) any = true
    rows.push(own)
    if (same && (view?.rows[i] !== own || (own !== undefined && view?.writes[i] !== own.writes))) same = false
  }
  if (!any) return model
  if (same) return (view as ModelView).model
  const endpoints = model.endpoints.map((endpoint, i) => endpointAt(endpoint, rows[i], minute))
  let shown = endpoints.every((e, i) => e === model.endpoints[i]) ? model : { ...model, endpoints }
  // Figures that came out as they were (steady traffic) keep the view, and with it its cached JSON.
  if (view !== undefined && shown !== model && view.model !== model && endpoints.every((e, i) => sameFigures(e, view.model.endpoints[i] as Endpoint))) shown = view.model
  views.set(model, { minute, rows, writes: rows.map((row) => row?.writes ?? 0), model: shown })
  return shown
}

const samePercentiles = (a: PercentileStats | null, b: PercentileStats | null): boolean =>
  a === b || (a !== null && b !== null && a.p50 === b.p50 && a.p75 === b.p75 && a.p90 === b.p90 && a.p99 === b.p99)

/** Whether two views of one endpoint show the same figures. */
function sameFigures(a: Endpoint, b: Endpoint): boolean {
  return (
    a.uptime_last_5m === b.uptime_last_5m &&
    a.uptime_last_30m === b.uptime_last_30m &&
    a.uptime_last_1d === b.uptime_last_1d &&
    samePercentiles(a.latency_last_30m, b.latency_last_30m) &&
    samePercentiles(a.throughput_last_30m, b.throughput_last_30m)
  )
}

/**
 * Whether `endpoint` had a significant outage lately: its traffic uptime over the last 5 minutes,
 * once that window has enough traffic, is below {@link OUTAGE_UPTIME}. The unsorted draw tries such
 * endpoints after the others (decisions/0025). Seeded figures never count.
 */
export function hadOutage(ctx: StoreContext, model: ModelWithEndpoints, endpoint: Endpoint): boolean {
  if (ctx.data.endpointStats.size === 0) return false
  const row = trafficOf(ctx, model, endpoint)
  if (row === undefined) return false
  const now = Math.floor(ctx.clock.nowMs() / MINUTE_MS)
  // No error in the window's 5 minutes: nothing below 100%. (A clock moved back sees a later error: it reads the slots.)
  if (row.lastErrorMinute < now - 4) return false
  const up = uptime(row, now, 5)
  return up !== undefined && up < OUTAGE_UPTIME
}
