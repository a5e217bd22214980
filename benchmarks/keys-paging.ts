/**
 * Cost of serving one page of GET /keys as the number of keys grows (1,000 / 10,000 / 100,000).
 *
 * Design target: a page at 100,000 keys costs about what it costs at 1,000 (the per-workspace
 * SortedIndex makes a page O(log n + page size), with no scan or sort per request). Target: the
 * worst 100k/1k page-cost ratio over the six page configurations is at most 1.5x.
 *
 *   npm run bench:paging        (tsx benchmarks/keys-paging.ts)
 *
 * Prints a table and writes benchmarks/results/keys-paging.md and keys-paging.json. Every page
 * served is also checked once against an independently sorted copy of the keys, so a fast but wrong
 * index fails loudly. Exits 1 when the target is missed.
 */
import type { EmptyWorld, Simulator } from '../src/index.js'
import { figure, fmtInt, fmtMs, fmtNs, fmtRatio, gc, machine as describeMachine, machineLine, machineMarkdown, median, msSince, prng, nowNs, table, writeReport, ratioSpread } from './support.js'
import { pkg } from './package.js'

const { createSimulator } = pkg

const SIZES = [1_000, 10_000, 100_000] as const
const PAGE_SIZE = 100
/** Share of keys held back and inserted afterwards in shuffled order (out-of-order inserts). */
const OUT_OF_ORDER_SHARE = 0.05
/** Measured rounds; each round runs one timed batch of every configuration, interleaved. */
const ROUNDS = 25
const WARMUP_ROUNDS = 3
/** A batch runs at least this long, so timer resolution does not matter. */
const TARGET_BATCH_MS = 10
const SNAPSHOT_REPS = 5
const TARGET_WORST_RATIO = 1.5
const BASE_MS = Date.parse('2024-01-01T00:00:00Z')
const SPAN_MS = 2 * 365 * 86_400_000

// ---------------------------------------------------------------------------------------------
// Helpers

function shuffle<T>(items: T[], rand: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1))
    const tmp = items[i] as T
    items[i] = items[j] as T
    items[j] = tmp
  }
  return items
}


// ---------------------------------------------------------------------------------------------
// World building

interface ExpectedKey {
  hash: string
  createdAt: number
  disabled: boolean
}

interface World {
  size: number
  sim: Simulator<EmptyWorld>
  authorization: string
  /** Expected GET /keys order (created_at desc, hash asc), computed independently of the simulator. */
  expectedAll: string[]
  expectedEnabled: string[]
  disabledCount: number
  outOfOrderCount: number
  buildMs: number
  orderedPhaseMs: number
  outOfOrderPhaseMs: number
  heapMB: number
}

function expectedOrder(keys: readonly ExpectedKey[]): string[] {
  return [...keys]
    .sort((a, b) => b.createdAt - a.createdAt || (a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : 0))
    .map((k) => k.hash)
}

function buildWorld(size: number): World {
  const rand = prng(size)
  // Every 50th key shares its created_at with the one before it, so the hash tie-break is exercised.
  const createdAtOf = (i: number): number => BASE_MS + Math.floor(((i % 50 === 1 ? i - 1 : i) * SPAN_MS) / size)
  const disabledOf = (i: number): boolean => i % 7 === 3
  const inOrder: number[] = []
  const heldBack: number[] = []
  for (let i = 0; i < size; i++) (rand() < OUT_OF_ORDER_SHARE ? heldBack : inOrder).push(i)
  shuffle(heldBack, rand)

  gc()
  const heapBefore = process.memoryUsage().heapUsed
  const start = nowNs()
  const sim = createSimulator({ world: 'empty', journalLimit: 0 })
  const org = sim.users.create({ name: 'Bench Org' })
  const admin = sim.keys.create({ userId: org.id, management: true, name: 'Bench admin' })
  const created: ExpectedKey[] = []
  const add = (i: number): void => {
    const { record } = sim.keys.create({ userId: org.id, name: `key ${i}`, createdAt: createdAtOf(i), disabled: disabledOf(i) })
    created.push({ hash: record.hash, createdAt: createdAtOf(i), disabled: record.disabled })
  }
  const orderedStart = nowNs()
  for (const i of inOrder) add(i)
  const orderedPhaseMs = msSince(orderedStart)
  const outOfOrderStart = nowNs()
  for (const i of heldBack) add(i)
  const outOfOrderPhaseMs = msSince(outOfOrderStart)
  const buildMs = msSince(start)
  gc()
  const heapMB = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20

  return {
    size,
    sim,
    authorization: `Bearer ${admin.key}`,
    expectedAll: expectedOrder(created),
    expectedEnabled: expectedOrder(created.filter((k) => !k.disabled)),
    disabledCount: created.filter((k) => k.disabled).length,
    outOfOrderCount: heldBack.length,
    buildMs,
    orderedPhaseMs,
    outOfOrderPhaseMs,
    heapMB,
  }
}

// ---------------------------------------------------------------------------------------------
// Paging configurations

type Position = 'start' | 'middle' | 'end'
const POSITIONS: readonly Position[] = ['start', 'middle', 'end']

interface Config {
  world: World
  includeDisabled: boolean
  position: Position
  offset: number
  query: string
  batch: number
  samplesNs: number[]
}

function offsetFor(listSize: number, position: Position): number {
  if (position === 'start') return 0
  if (position === 'middle') return Math.floor(listSize / 2)
  return Math.max(0, listSize - PAGE_SIZE) // the last full page
}

let sink = 0

function serve(config: Config): unknown[] {
  const res = config.world.sim.handle({ method: 'GET', path: '/keys', query: config.query, authorization: config.world.authorization })
  if (res.status !== 200 || res.type !== 'json') throw new Error(`GET /keys?${config.query} answered ${res.status}: ${JSON.stringify(res.body)}`)
  return (res.body as { data: unknown[] }).data
}

function check(config: Config, label: string): void {
  const expected = (config.includeDisabled ? config.world.expectedAll : config.world.expectedEnabled).slice(config.offset, config.offset + PAGE_SIZE)
  const got = serve(config).map((k) => (k as { hash: string }).hash)
  if (got.length !== expected.length || got.some((h, i) => h !== expected[i])) {
    throw new Error(`${label}: N=${config.world.size} ${config.query} served a page that differs from the expected order`)
  }
}

function runBatch(config: Config): number {
  const start = nowNs()
  for (let i = 0; i < config.batch; i++) sink += serve(config).length
  return Number(nowNs() - start) / config.batch
}

function calibrate(config: Config): void {
  let batch = 1
  for (;;) {
    config.batch = batch
    const start = nowNs()
    runBatch(config)
    if (msSince(start) >= TARGET_BATCH_MS || batch >= 1 << 20) break
    batch *= 2
  }
}

// ---------------------------------------------------------------------------------------------
// Main

function main(): void {
  const startedAt = new Date()
  const machine = describeMachine()
  console.log(`keys-paging benchmark — ${machineLine(machine)}`)

  const worlds: World[] = []
  for (const size of SIZES) {
    const world = buildWorld(size)
    worlds.push(world)
    console.log(
      `built N=${fmtInt(size)}: ${fmtMs(world.buildMs)} ms (ordered ${fmtMs(world.orderedPhaseMs)} ms, ` +
        `${fmtInt(world.outOfOrderCount)} out-of-order ${fmtMs(world.outOfOrderPhaseMs)} ms), ${fmtInt(world.disabledCount)} disabled, ~${world.heapMB.toFixed(0)} MiB heap`,
    )
  }

  const configs: Config[] = []
  for (const world of worlds) {
    for (const includeDisabled of [true, false]) {
      const listSize = includeDisabled ? world.expectedAll.length : world.expectedEnabled.length
      for (const position of POSITIONS) {
        const offset = offsetFor(listSize, position)
        configs.push({ world, includeDisabled, position, offset, query: `offset=${offset}&include_disabled=${includeDisabled}`, batch: 1, samplesNs: [] })
      }
    }
  }
  for (const config of configs) check(config, 'before timing')
  console.log(`checked ${configs.length} pages against the expected order; timing ${ROUNDS} rounds (+${WARMUP_ROUNDS} warm-up), interleaved…`)

  for (const config of configs) calibrate(config)
  for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round++) {
    for (const config of configs) {
      const ns = runBatch(config)
      if (round >= WARMUP_ROUNDS) config.samplesNs.push(ns)
    }
  }

  const medianOf = (c: Config): number => median(c.samplesNs)
  const find = (size: number, includeDisabled: boolean, position: Position): Config =>
    configs.find((c) => c.world.size === size && c.includeDisabled === includeDisabled && c.position === position) as Config

  const pageRows = configs.map((c) => [
    fmtInt(c.world.size),
    String(c.includeDisabled),
    c.position,
    fmtInt(c.offset),
    fmtNs(medianOf(c)),
    `${fmtNs(Math.min(...c.samplesNs))}–${fmtNs(Math.max(...c.samplesNs))}`,
    fmtInt(c.batch),
  ])
  const pages = table(['N keys', 'include_disabled', 'position', 'offset', 'ns/op (median)', 'min–max of batches', 'ops/batch'], pageRows, [
    'r',
    'l',
    'l',
    'r',
    'r',
    'r',
    'r',
  ])

  const ratioRows: string[][] = []
  const bigRatios: number[] = []
  // Per round, the 100k/1k ratio of each configuration (the sizes ran in the same rounds): the spread of the worst one.
  const roundRatios: number[][] = []
  for (const includeDisabled of [true, false]) {
    for (const position of POSITIONS) {
      const small = medianOf(find(1_000, includeDisabled, position))
      const mid = medianOf(find(10_000, includeDisabled, position))
      const big = medianOf(find(100_000, includeDisabled, position))
      bigRatios.push(big / small)
      const smallRounds = find(1_000, includeDisabled, position).samplesNs
      roundRatios.push(find(100_000, includeDisabled, position).samplesNs.map((ns, r) => ns / (smallRounds[r] as number)))
      ratioRows.push([String(includeDisabled), position, fmtNs(small), fmtNs(mid), fmtNs(big), fmtRatio(mid / small), fmtRatio(big / small)])
    }
  }
  const ratios = table(['include_disabled', 'position', '1k ns/op', '10k ns/op', '100k ns/op', '10k/1k', '100k/1k'], ratioRows, ['l', 'l', 'r', 'r', 'r', 'r', 'r'])

  const buildRows = worlds.map((w) => [
    fmtInt(w.size),
    fmtMs(w.buildMs),
    fmtMs(w.orderedPhaseMs),
    `${fmtMs(w.outOfOrderPhaseMs)} (${fmtInt(w.outOfOrderCount)} keys)`,
    fmtNs((w.buildMs * 1e6) / w.size),
    fmtInt(w.disabledCount),
    w.heapMB.toFixed(0),
  ])
  const builds = table(
    ['N keys', 'build ms', 'in-order inserts ms', 'out-of-order inserts ms', 'ns/key', 'disabled', 'heap MiB (approx.)'],
    buildRows,
    ['r', 'r', 'r', 'r', 'r', 'r', 'r'],
  )

  // Snapshot + restore, on every world (100k is the one the brief asks about); each restore is
  // followed by re-checking the pages, since restore rebuilds the indices.
  const snapRows: string[][] = []
  for (const world of worlds) {
    const snapMs: number[] = []
    const restoreMs: number[] = []
    for (let rep = 0; rep < SNAPSHOT_REPS; rep++) {
      gc()
      let start = nowNs()
      const snap = world.sim.snapshot()
      snapMs.push(msSince(start))
      gc()
      start = nowNs()
      world.sim.restore(snap)
      restoreMs.push(msSince(start))
    }
    for (const config of configs.filter((c) => c.world === world)) check(config, 'after restore')
    const snapMed = median(snapMs)
    const restoreMed = median(restoreMs)
    snapRows.push([
      fmtInt(world.size),
      fmtMs(snapMed),
      fmtMs(restoreMed),
      fmtMs(snapMed + restoreMed),
      `${fmtMs(Math.min(...snapMs.map((s, i) => s + (restoreMs[i] as number))))}–${fmtMs(Math.max(...snapMs.map((s, i) => s + (restoreMs[i] as number))))}`,
    ])
  }
  const snaps = table(['N keys', 'snapshot() ms', 'restore() ms', 'snapshot + restore ms', 'min–max (sum)'], snapRows, ['r', 'r', 'r', 'r', 'r'])

  const big = (pos: Position): number => medianOf(find(100_000, true, pos)) / medianOf(find(1_000, true, pos))
  const worstRatio = Math.max(...bigRatios)
  const worstRounds = roundRatios[bigRatios.indexOf(worstRatio)] as number[]
  const verdict = `Worst 100k/1k ratio over the six page configurations: ${worstRatio.toFixed(2)}× (include_disabled=true: start ${big('start').toFixed(2)}×, middle ${big('middle').toFixed(2)}×, end ${big('end').toFixed(2)}×).`

  console.log('\nPage cost (one GET /keys through sim.handle, 100 keys per page)\n')
  console.log(pages.text)
  console.log('\nScaling (median ns/op; target: 100k/1k ≈ 1)\n')
  console.log(ratios.text)
  console.log(`\n${verdict}`)
  console.log('\nWorld build (createSimulator + 1 org + 1 management key + N keys)\n')
  console.log(builds.text)
  console.log(`\nsnapshot() + restore() (median of ${SNAPSHOT_REPS})\n`)
  console.log(snaps.text)
  if (sink === 0) console.log('(sink)') // keeps the served pages observable

  const markdown = `# GET /keys paging benchmark

Generated by \`npm run bench:paging\` (\`tsx benchmarks/keys-paging.ts\`) on ${startedAt.toISOString()}.

${machineMarkdown(machine)}

## Method

- One simulator per size (\`createSimulator({ world: 'empty', journalLimit: 0 })\`), one organisation, one management key and N regular keys in its default workspace.
  The journal is off: kept responses make garbage collection, not the index, the cost being measured (decisions/0010).
- \`createdAt\` is spread evenly over two years from 2024-01-01; every 50th key shares its timestamp with the previous key (hash tie-break).
  One key in seven is disabled. About ${(OUT_OF_ORDER_SHARE * 100).toFixed(0)} % of the keys are held back and created last, in shuffled order, so they are out-of-order inserts.
- A page is one \`sim.handle({ method: 'GET', path: '/keys', query: 'offset=…&include_disabled=…', authorization })\`: routing, auth, query parsing, the index read and the wire mapping of ${PAGE_SIZE} keys.
  Offsets: 0, the middle of the list, and its last full page (\`size - ${PAGE_SIZE}\`), of the list being paged (all keys, or enabled keys only).
- Every page is checked once against an independently sorted copy of the keys (before timing and after restore).
- Timing: each configuration runs batches of at least ${TARGET_BATCH_MS} ms; ${WARMUP_ROUNDS} warm-up rounds, then ${ROUNDS} measured rounds, all configurations interleaved within each round so drift affects every size alike. ns/op is the median batch.

## Page cost

${pages.markdown}

## Scaling

Design target: a page at 100,000 keys costs about what it costs at 1,000; the worst 100k/1k ratio (each a ratio of medians of ${ROUNDS} batches) at most ${TARGET_WORST_RATIO}×.

${ratios.markdown}

${verdict}

## World build

${builds.markdown}

## snapshot() + restore()

Median of ${SNAPSHOT_REPS} repetitions (\`restore\` re-reads the snapshot and rebuilds every index).

${snaps.markdown}
`
  writeReport('keys-paging', markdown, [
    figure({
      id: 'worst-100k-1k-ratio',
      what: 'GET /keys page cost at 100,000 keys / at 1,000 keys, worst of the six page configurations',
      measured: worstRatio,
      unit: 'x',
      runs: ROUNDS,
      op: '<=',
      bound: TARGET_WORST_RATIO,
      display: `${fmtRatio(worstRatio)} (rounds ${ratioSpread(worstRounds)})`,
    }),
  ])
}

main()
