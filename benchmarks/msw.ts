/**
 * Per-request cost through MSW: the simulator's `createHandlers(sim)` against a bare msw handler
 * that answers the same body text, pre-serialised, taken side by side in one process.
 *
 * Set up as a new user would: `createSimulator()` (the embedded default world), plus 100 keys with
 * usage history in the default workspace of `sim.world.userId`, and a model with 5 endpoints. One
 * `setupServer(...createHandlers(sim), ...bareHandlers)` serves both arms; each request is
 * `await fetch(url, { headers })` then `await res.json()`.
 *
 * Targets (this machine class):
 * - every case: median ns/request through `createHandlers` <= 1.25x the bare handler's;
 * - the journal (default limit, 1,000) after 2,000 GET /keys pages of 100 keys, usage recorded
 *   between requests: at most 16 MiB of heap, and at most 1,000 entries.
 *
 *   npm run bench:msw        (tsx --expose-gc benchmarks/msw.ts; without --expose-gc the memory figure is not measured, and fails)
 *
 * Prints tables, writes benchmarks/results/msw.md and msw.json. Before timing, every case's body is
 * checked against `sim.handle` for the same request, so a fast but wrong answer fails loudly.
 * Exits 1 when a target is missed.
 */
import { deepStrictEqual } from 'node:assert/strict'
import os from 'node:os'
import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { type Figure, figure, fmtInt, fmtNs, fmtRatio, gc, machine as describeMachine, machineLine, machineMarkdown, median, nowNs, table, writeReport, ratioSpread } from './support.js'
import { pkg, pkgMsw } from './package.js'

const { createSimulator } = pkg
const { createHandlers } = pkgMsw

const EXTRA_KEYS = 100
const USAGE_PER_KEY = 3
const PAGE_SIZE = 100
/** Requests per timed batch, per arm. */
const BATCH = 25
const WARMUP_ROUNDS = 3
const ROUNDS = 75
const TARGET_RATIO = 1.25

const MEMORY_REQUESTS = 2_000
/** Runs of the variant with a target; the informational variants run once each. */
const MEMORY_RUNS = 3
const JOURNAL_LIMIT = 1_000
const TARGET_JOURNAL_MIB = 16

const DAY_MS = 86_400_000
const MiB = 2 ** 20
const SIM_ORIGIN = 'https://openrouter.ai/api/v1'
const BARE_ORIGIN = 'https://bare.test/api/v1'
const MODEL_ID = 'bench/five-endpoints'
const KEYS_PATH = '/keys'
const ENDPOINTS_PATH = `/models/${MODEL_ID}/endpoints`

// ---------------------------------------------------------------------------------------------
// Setup

type Sim = ReturnType<typeof createSimulator>

interface Setup {
  sim: Sim
  headers: { authorization: string }
  /** Hashes of the created keys, in creation order. */
  created: string[]
}

/** The default world, 100 more keys of the primary organisation with usage over the last 60 days, and a model with 5 endpoints. */
function setUp(baseUrl = SIM_ORIGIN): Setup & { baseUrl: string } {
  const sim = createSimulator()
  const now = sim.clock.now().getTime()
  const created: string[] = []
  for (let i = 0; i < EXTRA_KEYS; i++) {
    // Created over the last 90 days, so their usage (last 60 days) comes after them.
    const { record } = sim.keys.create({ userId: sim.world.userId, name: `bench key ${i + 1}`, createdAt: now - 90 * DAY_MS + i * 3_600_000 })
    created.push(record.hash)
    for (let j = 0; j < USAGE_PER_KEY; j++) {
      sim.usage.record({ keyHash: record.hash, cost: 0.001 * (1 + ((i + j) % 9)), at: now - (((i * 7 + j * 13) % 60) + 0.25) * DAY_MS })
    }
  }
  sim.models.create({ id: MODEL_ID, endpoints: [{}, {}, {}, {}, {}] })
  return { sim, headers: { authorization: `Bearer ${sim.world.managementKey}` }, created, baseUrl }
}

interface WireKey {
  hash: string
  usage: number
}

const serverCall = (sim: Sim, path: string, headers: { authorization: string }) => sim.handle({ method: 'GET', path, authorization: headers.authorization })

/** GET through MSW: status 200 and the body as text. */
async function fetchText(url: string, headers: { authorization: string }): Promise<string> {
  const res = await fetch(url, { headers })
  const text = await res.text()
  if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}: ${text.slice(0, 300)}`)
  return text
}

/** The body MSW served equals what sim.handle answers for the same request, in the same state. */
async function checkAgainstHandle(setup: Setup & { baseUrl: string }, path: string, label: string): Promise<unknown> {
  const text = await fetchText(`${setup.baseUrl}${path}`, setup.headers)
  const served = JSON.parse(text) as unknown
  const direct = serverCall(setup.sim, path, setup.headers)
  if (direct.status !== 200 || direct.type !== 'json') throw new Error(`${label}: sim.handle answered ${direct.status}`)
  deepStrictEqual(served, JSON.parse(JSON.stringify(direct.body)), `${label}: the body served through MSW differs from sim.handle's`)
  return served
}

const checkKeysPage = (body: unknown, label: string): WireKey[] => {
  const data = (body as { data?: WireKey[] }).data
  if (!Array.isArray(data) || data.length !== PAGE_SIZE) throw new Error(`${label}: GET /keys served ${Array.isArray(data) ? data.length : 'no'} keys, expected ${PAGE_SIZE}`)
  return data
}
const checkEndpoints = (body: unknown, label: string): void => {
  const data = (body as { data?: { id?: string; endpoints?: unknown[] } }).data
  if (data?.id !== MODEL_ID || data.endpoints?.length !== 5) throw new Error(`${label}: GET ${ENDPOINTS_PATH} did not serve ${MODEL_ID} with 5 endpoints`)
}

// ---------------------------------------------------------------------------------------------
// Cases

interface Case {
  id: string
  label: string
  what: string
  path: string
  /** Untimed, before every request of either arm. */
  between: (() => void) | undefined
  check: (body: unknown, label: string) => void
  simNs: number[]
  bareNs: number[]
  bodyChars: number
}

/** One timed request: fetch and read the body as JSON. Returns its ns and checks the body. */
async function timed(url: string, c: Case, headers: { authorization: string }): Promise<bigint> {
  const start = nowNs()
  const res = await fetch(url, { headers })
  const body: unknown = await res.json()
  const ns = nowNs() - start
  if (res.status !== 200) throw new Error(`${c.label}: GET ${url} answered ${res.status}`)
  c.check(body, c.label)
  return ns
}

/**
 * One timed batch of BATCH pairs: a simulator request and a bare one, back to back, the arm that
 * goes first alternating, so that whatever else the machine does falls on both arms alike. An
 * untimed request of each arm comes first (so a static case does not pay for the previous case's
 * changes); the `between` mutation runs before each pair, outside the timed region. Returns the
 * ns/request of each arm.
 */
async function batch(c: Case, headers: { authorization: string }): Promise<{ sim: number; bare: number }> {
  const urls = { sim: `${SIM_ORIGIN}${c.path}`, bare: `${BARE_ORIGIN}${c.path}` }
  for (const url of Object.values(urls)) c.check(await (await fetch(url, { headers })).json(), c.label)
  let sim = 0n
  let bare = 0n
  for (let i = 0; i < BATCH; i++) {
    c.between?.()
    if (i % 2 === 0) {
      sim += await timed(urls.sim, c, headers)
      bare += await timed(urls.bare, c, headers)
    } else {
      bare += await timed(urls.bare, c, headers)
      sim += await timed(urls.sim, c, headers)
    }
  }
  return { sim: Number(sim) / BATCH, bare: Number(bare) / BATCH }
}

// ---------------------------------------------------------------------------------------------
// Journal memory

type MemoryVariant = 'usage' | 'static' | 'clock'

const MEMORY_VARIANTS: { variant: MemoryVariant; label: string; runs: number }[] = [
  { variant: 'usage', label: 'usage recorded on one listed key between requests', runs: MEMORY_RUNS },
  { variant: 'static', label: 'static page (nothing between requests)', runs: 1 },
  { variant: 'clock', label: '`sim.clock.advance(86_400_000)` between requests', runs: 1 },
]

interface MemoryRun {
  mib: number
  entries: number
  /** Mean wall time per request over the run (informational). */
  msPerRequest: number
}

const heapUsed = (): number => process.memoryUsage().heapUsed

function fullGc(): void {
  gc()
  gc()
}

/** A fresh simulator with the default journal; MEMORY_REQUESTS pages through MSW; the heap the journal keeps. */
async function journalMemory(server: ReturnType<typeof setupServer>, variant: MemoryVariant, run: number): Promise<MemoryRun> {
  const setup = setUp(`https://journal-${variant}-${run}.test/api/v1`)
  server.use(...createHandlers(setup.sim, { baseUrl: setup.baseUrl }))
  try {
    const url = `${setup.baseUrl}${KEYS_PATH}`
    const first = checkKeysPage(await checkAgainstHandle(setup, KEYS_PATH, `journal memory (${variant})`), `journal memory (${variant})`)
    const listed = first.find((k) => setup.created.includes(k.hash))?.hash
    if (listed === undefined) throw new Error('none of the created keys is on the first page')
    const started = nowNs()
    for (let i = 0; i < MEMORY_REQUESTS; i++) {
      if (variant === 'usage') setup.sim.usage.record({ keyHash: listed, cost: 0.001 })
      else if (variant === 'clock') setup.sim.clock.advance(DAY_MS)
      const res = await fetch(url, { headers: setup.headers })
      const body: unknown = await res.json()
      if (res.status !== 200) throw new Error(`journal memory (${variant}): GET /keys answered ${res.status}`)
      if (i === MEMORY_REQUESTS - 1) checkKeysPage(body, `journal memory (${variant})`)
    }
    const msPerRequest = Number(nowNs() - started) / 1e6 / MEMORY_REQUESTS
    const entries = setup.sim.journal.list().length
    fullGc()
    const withJournal = heapUsed()
    setup.sim.journal.clear()
    fullGc()
    const without = heapUsed()
    if (setup.sim.journal.list().length !== 0) throw new Error('sim.journal.clear() left entries')
    return { mib: (withJournal - without) / MiB, entries, msPerRequest }
  } finally {
    server.resetHandlers()
  }
}

// ---------------------------------------------------------------------------------------------
// Main

async function main(): Promise<void> {
  const startedAt = new Date()
  const loadAtStart = os.loadavg()[0] as number
  const machine = describeMachine()
  console.log(`msw benchmark — ${machineLine(machine)}`)
  if (!machine.gcExposed) console.error('global.gc is not exposed (run with tsx --expose-gc): the journal memory figure will not be measured, and fails')

  const setup = setUp()
  const { sim, headers } = setup
  const texts = new Map<string, string>()
  const bareHandlers = [
    http.get(`${BARE_ORIGIN}${KEYS_PATH}`, () => new HttpResponse(texts.get(KEYS_PATH), { headers: { 'content-type': 'application/json' } })),
    http.get(`${BARE_ORIGIN}${ENDPOINTS_PATH}`, () => new HttpResponse(texts.get(ENDPOINTS_PATH), { headers: { 'content-type': 'application/json' } })),
  ]
  const server = setupServer(...createHandlers(sim), ...bareHandlers)
  server.listen({ onUnhandledRequest: 'error' })

  try {
    // The bare arm's bodies: exactly the text the simulator answers, fetched once through MSW.
    for (const path of [KEYS_PATH, ENDPOINTS_PATH]) texts.set(path, await fetchText(`${SIM_ORIGIN}${path}`, headers))
    const page = checkKeysPage(JSON.parse(texts.get(KEYS_PATH) as string), 'first page')
    checkEndpoints(JSON.parse(texts.get(ENDPOINTS_PATH) as string), 'endpoints')
    const onPage = page.map((k) => k.hash).filter((h) => setup.created.includes(h))
    if (onPage.length === 0) throw new Error('none of the created keys is on the first page')
    let usageTurn = 0

    const cases: Case[] = [
      { id: 'keys', label: 'a', what: 'GET /keys (a 100-key page)', path: KEYS_PATH, between: undefined, check: checkKeysPage },
      { id: 'endpoints', label: 'b', what: `GET ${ENDPOINTS_PATH} (5 endpoints)`, path: ENDPOINTS_PATH, between: undefined, check: checkEndpoints },
      { id: 'keys-clock', label: 'c', what: 'GET /keys, `sim.clock.advance(1000)` between requests', path: KEYS_PATH, between: () => sim.clock.advance(1000), check: checkKeysPage },
      {
        id: 'keys-usage',
        label: 'd',
        what: 'GET /keys, `sim.usage.record` on a listed key between requests',
        path: KEYS_PATH,
        between: () => void sim.usage.record({ keyHash: onPage[usageTurn++ % onPage.length] as string, cost: 0.001 }),
        check: checkKeysPage,
      },
      { id: 'endpoints-clock', label: 'e', what: 'GET endpoints, `sim.clock.advance(1000)` between requests', path: ENDPOINTS_PATH, between: () => sim.clock.advance(1000), check: checkEndpoints },
    ].map((c) => ({ ...c, simNs: [], bareNs: [], bodyChars: (texts.get(c.path) as string).length }))

    // Correctness, before timing: each case's body (after its mutation) equals what sim.handle answers.
    for (const c of cases) {
      c.between?.()
      c.check(await checkAgainstHandle(setup, c.path, `case ${c.label}`), `case ${c.label}`)
    }
    // A recorded charge shows on the page served next, and every key on it is what sim.keys.get says.
    {
      const hash = onPage[0] as string
      const before = (checkKeysPage(JSON.parse(await fetchText(`${SIM_ORIGIN}${KEYS_PATH}`, headers)), 'usage check').find((k) => k.hash === hash) as WireKey).usage
      sim.usage.record({ keyHash: hash, cost: 0.5 })
      const served = checkKeysPage(JSON.parse(await fetchText(`${SIM_ORIGIN}${KEYS_PATH}`, headers)), 'usage check')
      const after = (served.find((k) => k.hash === hash) as WireKey).usage
      if (Math.abs(after - before - 0.5) > 1e-9) throw new Error(`a charge of 0.5 moved the served usage from ${before} to ${after}`)
      for (const k of served) deepStrictEqual(k, JSON.parse(JSON.stringify(sim.keys.get(k.hash))), `GET /keys served key ${k.hash} unlike sim.keys.get`)
    }
    console.log(`checked ${cases.length} cases against sim.handle; timing ${ROUNDS} rounds (+${WARMUP_ROUNDS} warm-up) of ${BATCH} requests per arm, interleaved…`)

    const timingStart = nowNs()
    for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round++) {
      // The case that goes first rotates from round to round, as does the arm that goes first.
      for (const c of cases.map((_, i) => cases[(i + round) % cases.length] as Case)) {
        const ns = await batch(c, headers)
        if (round >= WARMUP_ROUNDS) {
          c.simNs.push(ns.sim)
          c.bareNs.push(ns.bare)
        }
      }
    }
    const timingS = Number(nowNs() - timingStart) / 1e9
    console.log(`timed in ${timingS.toFixed(1)} s`)

    const figures: Figure[] = []
    const rows: string[][] = []
    for (const c of cases) {
      const simMed = median(c.simNs)
      const bareMed = median(c.bareNs)
      // Each round's two arms ran interleaved: their ratio is the paired measurement, and the figure its median.
      const ratios = c.simNs.map((s, i) => s / (c.bareNs[i] as number))
      const ratio = median(ratios)
      rows.push([
        c.label,
        c.what,
        fmtInt(c.bodyChars),
        fmtNs(bareMed),
        fmtNs(simMed),
        fmtNs(simMed - bareMed),
        fmtRatio(ratio),
        ratioSpread(ratios),
      ])
      figures.push(figure({ id: `ratio-${c.id}`, what: `(${c.label}) ${c.what}: createHandlers / bare msw handler, ns/request`, measured: ratio, unit: 'x', runs: ROUNDS, op: '<=', bound: TARGET_RATIO, display: `${fmtRatio(ratio)} (rounds ${ratioSpread(ratios)})` }))
    }
    const perRequest = table(
      ['case', 'request', 'body chars', 'bare msw ns/req (median)', 'createHandlers ns/req (median)', 'difference ns', 'ratio', 'min–max ratio of rounds'],
      rows,
      ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'r'],
    )
    console.log(`\n${perRequest.text}`)

    // Journal memory.
    const memoryRows: string[][] = []
    const memoryResults = new Map<MemoryVariant, MemoryRun[]>()
    if (machine.gcExposed) {
      const memoryStart = nowNs()
      for (const { variant, label, runs: count } of MEMORY_VARIANTS) {
        const runs: MemoryRun[] = []
        for (let run = 0; run < count; run++) runs.push(await journalMemory(server, variant, run))
        memoryResults.set(variant, runs)
        const mibs = runs.map((r) => r.mib)
        memoryRows.push([
          label,
          String(count),
          median(mibs).toFixed(1),
          `${Math.min(...mibs).toFixed(1)}–${Math.max(...mibs).toFixed(1)}`,
          fmtInt(median(runs.map((r) => r.entries))),
          median(runs.map((r) => r.msPerRequest)).toFixed(2),
          variant === 'usage' ? `<= ${TARGET_JOURNAL_MIB} MiB` : 'informational',
        ])
        console.log(`journal memory, ${label}: ${median(mibs).toFixed(1)} MiB (median of ${count})`)
      }
      console.log(`journal memory measured in ${(Number(nowNs() - memoryStart) / 1e9).toFixed(1)} s`)
    }
    const usageRuns = memoryResults.get('usage')
    const notMeasured = 'not measured: run with tsx --expose-gc'
    figures.push(
      figure({
        id: 'journal-heap',
        what: `(f) heap the journal keeps after ${fmtInt(MEMORY_REQUESTS)} GET /keys 100-key pages through MSW, usage recorded between requests`,
        measured: usageRuns ? median(usageRuns.map((r) => r.mib)) : Number.NaN,
        unit: 'MiB',
        runs: MEMORY_RUNS,
        op: '<=',
        bound: TARGET_JOURNAL_MIB,
        ...(usageRuns ? {} : { display: notMeasured }),
      }),
      figure({
        id: 'journal-entries',
        what: `(f) \`sim.journal.list().length\` after ${fmtInt(MEMORY_REQUESTS)} requests (default journalLimit)`,
        measured: usageRuns ? median(usageRuns.map((r) => r.entries)) : Number.NaN,
        unit: 'entries',
        runs: MEMORY_RUNS,
        op: '<=',
        bound: JOURNAL_LIMIT,
        ...(usageRuns ? {} : { display: notMeasured }),
      }),
    )
    const memory = table(['between requests', 'runs', 'journal heap MiB (median)', 'min–max MiB', 'journal entries', 'ms/request (mean of a run)', 'target'], memoryRows, ['l', 'r', 'r', 'r', 'r', 'r', 'l'])
    if (memoryRows.length > 0) console.log(`\n${memory.text}`)

    writeReport(
      'msw',
      `# MSW per-request benchmark

Generated by \`npm run bench:msw\` (\`tsx --expose-gc benchmarks/msw.ts\`) on ${startedAt.toISOString()}.

${machineMarkdown(machine)}
| Load average (1 min) | ${loadAtStart.toFixed(2)} at the start, ${(os.loadavg()[0] as number).toFixed(2)} at the end |

## Method

- Setup as a new user would: \`createSimulator()\` (the embedded default world, default journal of ${fmtInt(JOURNAL_LIMIT)}), then ${EXTRA_KEYS} keys
  created with \`sim.keys.create({ userId: sim.world.userId, ... })\` in its default workspace, each with ${USAGE_PER_KEY} \`sim.usage.record\` calls at
  instants in the last 60 days, and \`sim.models.create({ id: '${MODEL_ID}', endpoints: [{}, {}, {}, {}, {}] })\`. Requests carry
  \`Bearer \${sim.world.managementKey}\`.
- One \`setupServer(...createHandlers(sim), ...bare)\` from \`msw/node\` (\`onUnhandledRequest: 'error'\`). The bare arm is an \`http.get\` handler on
  \`${BARE_ORIGIN}\` answering \`new HttpResponse(text, { headers: { 'content-type': 'application/json' } })\`, where \`text\` is the exact body the
  simulator served for the same request, fetched once through MSW before timing.
- Each request, in both arms, is \`await fetch(url, { headers })\` then \`await res.json()\`, timed with \`process.hrtime.bigint()\`. A batch is ${BATCH}
  pairs of requests, one of each arm back to back, the arm that goes first alternating, so that whatever else the machine does falls on both
  arms alike; each arm's times are summed. Each batch starts with one untimed request of each arm (so a static case does not pay for what the
  previous case changed). The mutation of cases c–e (\`sim.clock.advance(1000)\` or \`sim.usage.record({ keyHash, cost: 0.001 })\` on a key
  on the page, in turn) runs before every pair, outside the timed region (the bare arm's answer does not change with it).
- ${WARMUP_ROUNDS} warm-up rounds, then ${ROUNDS} measured rounds; each round runs one batch of each case, the case that goes first rotating from round
  to round. ns/request is the median of the ${ROUNDS} batches; the ratio is the median of the ${ROUNDS} paired ratios (each batch's simulator time over its bare time).
- Before timing, each case's body (after its mutation) is checked to equal what \`sim.handle\` answers for the same request; a charge of 0.5 must
  show on the next page served, and every key on the page must equal \`sim.keys.get\`. During timing, every body is checked to hold 100 keys
  (or the model's 5 endpoints).
- Journal memory (f): ${MEMORY_RUNS} runs of the variant with a target (usage recorded between requests), one of each informational variant; each run a fresh simulator set up as above with the default \`journalLimit\` (${fmtInt(JOURNAL_LIMIT)}), served
  ${fmtInt(MEMORY_REQUESTS)} \`GET /keys\` 100-key pages through MSW (its handlers added with \`server.use\` on a base URL of their own), then
  \`heapUsed\` after forced garbage collection minus \`heapUsed\` after \`sim.journal.clear()\` and another collection. Only the "usage" variant has a target.

## Per request through MSW

${perRequest.markdown}

"createHandlers ns/req" is the absolute cost of one request through the simulator's handlers; "difference" is what the simulator adds over msw itself.

## Journal memory

${memoryRows.length > 0 ? memory.markdown : `Not measured: \`global.gc\` is not exposed (run with \`tsx --expose-gc\`).`}
`,
      figures,
    )
  } finally {
    server.close()
  }
}

await main()
