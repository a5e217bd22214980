/**
 * A million charged chat completions through `sim.handle`: the heap after GC stays bounded, and the
 * cost of a request does not grow with the requests made before it.
 *
 * Set up as a test would: an empty world, an organisation with credits, KEYS regular keys and a
 * model with three priced endpoints. Each request is `POST /chat/completions` (non-streamed) on one
 * of the keys in turn, so it is routed, priced, charged to the key and the organisation, journaled
 * and stored as a generation (generations are bounded at 10,000, the journal at 1,000). The clock
 * advances CLOCK_STEP_MS between requests (about 29 simulated days for the million), so the usage
 * windows roll over as they would in a long-running soak test. Every SEGMENT requests the heap is
 * measured after a forced GC, and the mean time per request of the segment is noted.
 *
 * Targets:
 * - the heap after GC, after the last request: at most 200 MiB;
 * - after the million, a request on that simulator costs at most 1.5x one on a fresh simulator set up
 *   the same way, timed in alternating batches (so the load of the shared machine falls on both
 *   alike): a cost that grew with the requests served before would show here.
 *
 * Also measured (informational): `sim.keys.create` cost per key against the number of keys stored.
 *
 *   npm run bench:million     (tsx --expose-gc benchmarks/million.ts; without --expose-gc the heap is not measured, and fails)
 *   REQUESTS=200000 npm run bench:million   a shorter run
 *
 * Writes benchmarks/results/million.md and million.json; exits 1 when a target is missed.
 */
import { type Figure, figure, fmtInt, gc, machine as describeMachine, machineLine, machineMarkdown, median, msSince, nowNs, table, writeReport } from './support.js'
import { pkg } from './package.js'

const { createSimulator } = pkg

const REQUESTS = Number(process.env.REQUESTS ?? 1_000_000)
const SEGMENTS = 10
const SEGMENT = Math.ceil(REQUESTS / SEGMENTS)
const KEYS = 4
/** 2.5 s of simulated time per request: a million requests span about 29 days. */
const CLOCK_STEP_MS = 2_500
const TARGET_HEAP_MIB = 200
const TARGET_GROWTH = 1.5
const MiB = 2 ** 20
const MODEL = 'bench/chat'

const heapAfterGc = (): number => {
  gc()
  gc()
  return process.memoryUsage().heapUsed / MiB
}

function setUp() {
  const sim = createSimulator({ world: 'empty', seed: 11, now: '2026-03-01T00:00:00Z' })
  const org = sim.users.create({ name: 'Soak', credits: { total: 1_000_000 } })
  const keys = Array.from({ length: KEYS }, (_, i) => sim.keys.create({ userId: org.id, name: `soak ${i}`, limit: 500_000, limitReset: 'monthly' }).key)
  sim.models.create({
    id: MODEL,
    endpoints: [
      { provider_name: 'Alpha', pricing: { prompt: '0.000001', completion: '0.000002' } },
      { provider_name: 'Beta', pricing: { prompt: '0.0000005', completion: '0.000001' } },
      { provider_name: 'Gamma', pricing: { prompt: '0.000003', completion: '0.000015' } },
    ],
  })
  return { sim, keys }
}

interface Segment {
  requests: number
  usPerRequest: number
  heapMiB: number
}

/** Times `count` requests on a simulator, the clock advancing as in the soak. */
function timeRequests(sim: ReturnType<typeof setUp>['sim'], keys: string[], count: number, body: string): number {
  const start = nowNs()
  for (let r = 0; r < count; r++) {
    const response = sim.handle({ method: 'POST', path: '/chat/completions', authorization: `Bearer ${keys[r % KEYS]}`, body })
    if (response.status !== 200) throw new Error(`answered ${response.status}`)
    sim.clock.advance(CLOCK_STEP_MS)
  }
  return (msSince(start) * 1000) / count
}

/** Alternating batches: per-request µs on the soaked simulator over a fresh one's, per pair. */
function againstFresh(soaked: ReturnType<typeof setUp>): number[] {
  const fresh = setUp()
  const body = JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'Hello there' }] })
  timeRequests(fresh.sim, fresh.keys, 20_000, body)
  const ratios: number[] = []
  for (let i = 0; i < 11; i++) {
    const a = i % 2 === 0 ? timeRequests(soaked.sim, soaked.keys, 2_000, body) : 0
    const b = timeRequests(fresh.sim, fresh.keys, 2_000, body)
    const c = i % 2 === 0 ? a : timeRequests(soaked.sim, soaked.keys, 2_000, body)
    ratios.push(c / b)
  }
  return ratios
}

function soak(): { segments: Segment[]; spent: number; keyUsage: number; ratios: number[] } {
  const baseline = heapAfterGc()
  const { sim, keys } = setUp()
  const bodies = ['Hello there', 'What is the weather like?', 'Summarise this paragraph for me, please.', 'Write a haiku about invoices.'].map((content) =>
    JSON.stringify({ model: MODEL, messages: [{ role: 'user', content }] }),
  )
  const segments: Segment[] = []
  let done = 0
  let spent = 0
  while (done < REQUESTS) {
    const n = Math.min(SEGMENT, REQUESTS - done)
    const start = nowNs()
    for (let i = 0; i < n; i++) {
      const r = done + i
      const response = sim.handle({ method: 'POST', path: '/chat/completions', authorization: `Bearer ${keys[r % KEYS]}`, body: bodies[r % bodies.length] as string })
      if (response.status !== 200) throw new Error(`request ${r} answered ${response.status}: ${JSON.stringify(response.body).slice(0, 300)}`)
      spent += (response.body as { usage: { cost: number } }).usage.cost
      sim.clock.advance(CLOCK_STEP_MS)
    }
    const ms = msSince(start)
    done += n
    segments.push({ requests: done, usPerRequest: (ms * 1000) / n, heapMiB: heapAfterGc() - baseline })
    const s = segments[segments.length - 1] as Segment
    console.log(`${fmtInt(done).padStart(9)} requests  ${s.usPerRequest.toFixed(1).padStart(6)} us/request  heap ${s.heapMiB.toFixed(1)} MiB  (clock ${sim.clock.now().toISOString()})`)
  }
  const keyUsage = keys.reduce((sum, key) => sum + (sim.handle({ method: 'GET', path: '/key', authorization: `Bearer ${key}` }).body as { data: { usage: number } }).data.usage, 0)
  const ratios = againstFresh({ sim, keys })
  return { segments, spent, keyUsage, ratios }
}

/** `sim.keys.create` per key, in batches, as the store grows to `total` keys. */
function keyCreateGrowth(total: number, batch: number): { keys: number; usPerCreate: number }[] {
  const sim = createSimulator({ world: 'empty', seed: 3 })
  const org = sim.users.create({ name: 'Many keys' })
  const authorization = `Bearer ${sim.keys.create({ userId: org.id, management: true }).key}`
  const rows: { keys: number; usPerCreate: number }[] = []
  for (let made = 0; made < total; made += batch) {
    const start = nowNs()
    for (let i = 0; i < batch; i++) sim.handle({ method: 'POST', path: '/keys', authorization, body: JSON.stringify({ name: `k${made + i}` }) })
    rows.push({ keys: made + batch, usPerCreate: (msSince(start) * 1000) / batch })
  }
  return rows
}

function main(): void {
  const m = describeMachine()
  console.log(`million — ${machineLine(m)}; ${fmtInt(REQUESTS)} requests, clock +${CLOCK_STEP_MS} ms each`)
  if (!m.gcExposed) console.error('global.gc is not exposed (run with --expose-gc): the heap figure is not measured')
  const started = nowNs()
  const { segments, spent, keyUsage, ratios } = soak()
  const seconds = msSince(started) / 1000
  // The keys' usage as GET /key reports it is what the responses' costs add up to (to rounding of the float sum).
  if (Math.abs(keyUsage - spent) > 1e-6 * Math.max(1, spent)) throw new Error(`the keys' usage (${keyUsage}) differs from the responses' costs (${spent})`)
  const last = segments[segments.length - 1] as Segment
  const growth = median(ratios)
  const spread = `${Math.min(...ratios).toFixed(2)}×–${Math.max(...ratios).toFixed(2)}×`
  const heap = m.gcExposed ? last.heapMiB : Number.NaN

  const segmentTable = table(
    ['requests', 'µs/request (segment mean)', 'heap after GC (MiB, above the empty process)'],
    segments.map((s) => [fmtInt(s.requests), s.usPerRequest.toFixed(1), s.heapMiB.toFixed(1)]),
    ['r', 'r', 'r'],
  )
  const creates = keyCreateGrowth(Number(process.env.KEYS_TOTAL ?? 21_000), 3_000)
  const createTable = table(
    ['keys stored', 'µs per POST /keys through sim.handle (batch of 3,000)'],
    creates.map((r) => [fmtInt(r.keys), r.usPerCreate.toFixed(1)]),
    ['r', 'r'],
  )
  console.log(`\n${segmentTable.text}\n\n${createTable.text}`)

  const figures: Figure[] = [
    figure({ id: 'heap-mib', what: `heap after GC after ${fmtInt(REQUESTS)} charged chat completions`, measured: heap, unit: 'MiB', runs: 1, op: '<=', bound: TARGET_HEAP_MIB }),
    figure({
      id: 'growth',
      what: `time per request after ${fmtInt(REQUESTS)} requests, against a fresh simulator (alternating batches of 2,000)`,
      measured: growth,
      unit: 'x',
      runs: ratios.length,
      display: `${growth.toFixed(2)}× (batches ${spread})`,
      op: '<=',
      bound: TARGET_GROWTH,
    }),
  ]
  const markdown = `# A million charged chat completions

Generated by \`npm run bench:million\` on ${new Date().toISOString()}, in ${seconds.toFixed(0)} s.

${machineMarkdown(m)}

${fmtInt(REQUESTS)} non-streamed \`POST /chat/completions\` through \`sim.handle\`, on ${KEYS} keys in turn,
each routed, priced, charged to its key and the organisation, journaled (the journal keeps 1,000) and
stored as a generation (the simulator keeps 10,000). The clock advances ${fmtInt(CLOCK_STEP_MS)} ms
after each request, so the run spans ${(REQUESTS * CLOCK_STEP_MS / 86_400_000).toFixed(1)} simulated days
and the usage windows roll over. The heap is measured after two forced GCs, above the process's
heap before the simulator was made. Median segment: ${median(segments.map((s) => s.usPerRequest)).toFixed(1)} µs/request.

## Per segment

${segmentTable.markdown}

## POST /keys through \`sim.handle\` as the store grows (informational)

${createTable.markdown}
`
  writeReport('million', markdown, figures)
}

main()
