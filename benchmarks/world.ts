/**
 * Cost of generated worlds: `generateWorld({ seed: 42, size })` for the three sizes, loading each
 * spec into `createSimulator({ world, journalLimit: 0 })`, the heap a loaded world takes, one
 * GET /keys page on it, and `createSimulator()` with the embedded default world.
 *
 * Targets (this machine class):
 * - `generateWorld({ size: 'large' })` (100,000 keys, 2,000 models): median within 5,000 ms;
 * - loading that 100,000-key spec, `createSimulator({ world: spec })`: median of 3 within 1,500 ms;
 * - `createSimulator()` with the embedded default world: median within 100 ms.
 *
 *   npm run bench:world        (tsx --expose-gc benchmarks/world.ts; without --expose-gc the heap figures are rough)
 *
 * Prints tables and writes benchmarks/results/world.md and world.json. Every generated spec is checked to be
 * byte-identical across runs, and every loaded simulator to hold as many users, keys and models as
 * its spec, so a fast but wrong load fails loudly. Exits 1 when a target is missed.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import os from 'node:os'
import type { DefaultWorld, WorldSize, WorldSpec } from '../src/fixtures/index.js'
import type { Simulator } from '../src/index.js'
import { type Figure, figure, fmtInt, fmtMs, gc, machine as describeMachine, machineLine, machineMarkdown, median, msSince, nowNs, table, writeReport } from './support.js'
import { pkg, pkgFixtures } from './package.js'

const { generateWorld } = pkgFixtures
const { createSimulator } = pkg

const SEED = 42
const SIZES: readonly WorldSize[] = ['small', 'default', 'large']
/** Runs per size, for generateWorld and for loading alike. */
const RUNS: Record<WorldSize, number> = { small: 15, default: 15, large: 3 }
/** Warm createSimulator() calls with the embedded default world, after the cold one. */
const DEFAULT_RUNS = 50
/** GET /keys pages timed per size, after the first (cold) one. */
const PAGE_RUNS = 25
/** Keys on a full GET /keys page (the service's page size). */
const PAGE_SIZE = 100
const TARGET_LARGE_GENERATE_MS = 5_000
const TARGET_DEFAULT_CREATE_MS = 100
const TARGET_LARGE_LOAD_MS = 1_500

// ---------------------------------------------------------------------------------------------
// Helpers

const MiB = 2 ** 20
const heapUsed = (): number => process.memoryUsage().heapUsed
/** Below 1 MiB the difference of two heap readings is noise, not a size. */
const fmtMiB = (bytes: number): string => (bytes < MiB ? '< 1' : (bytes / MiB).toFixed(bytes >= 10 * MiB ? 0 : 1))
const spread = (values: readonly number[]): string => `${fmtMs(Math.min(...values))}–${fmtMs(Math.max(...values))}`

function version(packageJson: string): string {
  return (JSON.parse(readFileSync(new URL(packageJson, import.meta.url), 'utf8')) as { version: string }).version
}

/** The loaded simulator holds what its spec holds. */
function checkLoaded(sim: Simulator<DefaultWorld>, spec: WorldSpec<DefaultWorld>, label: string): void {
  const want = { users: spec.users?.length ?? 0, keys: spec.keys?.length ?? 0, models: spec.models?.length ?? 0 }
  const got = { users: sim.users.list().length, keys: sim.keys.list().length, models: sim.models.list().length }
  if (got.users !== want.users || got.keys !== want.keys || got.models !== want.models) {
    throw new Error(`${label}: the loaded simulator holds ${JSON.stringify(got)}, its spec ${JSON.stringify(want)}`)
  }
}

/** One GET /keys page as the primary organisation's management key; throws unless it is a full 200. */
function keysPage(sim: Simulator<DefaultWorld>): number {
  const res = sim.handle({ method: 'GET', path: '/keys', authorization: `Bearer ${sim.world.managementKey}` })
  if (res.status !== 200 || res.type !== 'json') throw new Error(`GET /keys answered ${res.status}: ${JSON.stringify(res.body)}`)
  return (res.body as { data: unknown[] }).data.length
}

// ---------------------------------------------------------------------------------------------
// Measurements

interface DefaultResult {
  coldMs: number
  warmMs: number[]
}

/** createSimulator() with the embedded default world: the first call in the process, then warm ones. */
function measureDefault(): DefaultResult {
  let start = nowNs()
  const cold = createSimulator()
  const coldMs = msSince(start)
  if (keysPage(cold) === 0) throw new Error('the embedded default world serves no keys')
  const warmMs: number[] = []
  for (let i = 0; i < DEFAULT_RUNS; i++) {
    start = nowNs()
    const sim = createSimulator()
    warmMs.push(msSince(start))
    if (sim.seed !== SEED) throw new Error('createSimulator() did not use the default seed')
  }
  return { coldMs, warmMs }
}

interface SizeResult {
  size: WorldSize
  runs: number
  generateMs: number[]
  loadMs: number[]
  snapshotMs: number[]
  jsonChars: number
  users: number
  keys: number
  primaryKeys: number
  /** The primary organisation's enabled, non-management keys in its default workspace: what GET /keys pages through. */
  listedKeys: number
  models: number
  videoModels: number
  files: number
  usageRecords: number
  /** Heap the spec retains as generateWorld returns it, and after JSON.stringify has read it. */
  specHeap: number
  specHeapAfterUse: number
  /** Heap the loaded simulator retains beyond its spec, and one sim.snapshot() of it. */
  simHeap: number
  snapshotHeap: number
  /** Process heap used with the spec and the simulator both alive, and RSS. */
  heapAfterLoad: number
  rssAfterLoad: number
  pageColdMs: number
  pageMs: number[]
  pageKeys: number
}

/** The spec's JSON length and digest; the string itself dies with this frame. */
function jsonOf(spec: WorldSpec<DefaultWorld>): { chars: number; digest: string } {
  const text = JSON.stringify(spec)
  return { chars: text.length, digest: createHash('sha256').update(text).digest('hex') }
}

// Heap figures come from the first run of each loop: then nothing of that size is alive but what
// is being measured. (Later runs are not clean: a stale interpreter register of this frame can
// still hold the previous run's object when the heap is read.)

/**
 * Whether to collect garbage before a timed run: before the first (its heap is measured), and
 * before every large one, whose predecessor's 100+ MiB of garbage would otherwise be collected
 * inside it. Not before every small run: a forced full collection makes the next call slower by a
 * few ms (a cold young generation), more than such a call costs.
 */
const collectBefore = (size: WorldSize, run: number): boolean => run === 0 || size === 'large'

/** generateWorld runs; every run must write the same JSON. */
function generateRuns(size: WorldSize, runs: number): { spec: WorldSpec<DefaultWorld>; generateMs: number[]; specHeap: number; specHeapAfterUse: number; jsonChars: number } {
  const generateMs: number[] = []
  const held: { spec?: WorldSpec<DefaultWorld> | undefined } = {}
  let first: { chars: number; digest: string } | undefined
  let specHeap = 0
  let specHeapAfterUse = 0
  for (let run = 0; run < runs; run++) {
    held.spec = undefined
    if (collectBefore(size, run)) gc()
    const before = heapUsed()
    const start = nowNs()
    held.spec = generateWorld({ seed: SEED, size })
    generateMs.push(msSince(start))
    if (run === 0) {
      gc()
      specHeap = heapUsed() - before
    }
    const json = jsonOf(held.spec)
    if (first === undefined) {
      first = json
      gc()
      specHeapAfterUse = heapUsed() - before
    } else if (json.digest !== first.digest) {
      throw new Error(`generateWorld({ seed: ${SEED}, size: '${size}' }) wrote different JSON on run ${run + 1}`)
    }
  }
  return { spec: held.spec as WorldSpec<DefaultWorld>, generateMs, specHeap, specHeapAfterUse, jsonChars: (first as { chars: number }).chars }
}

/** createSimulator({ world }) runs; every run must hold what the spec holds. */
function loadRuns(spec: WorldSpec<DefaultWorld>, size: WorldSize, runs: number): { sim: Simulator<DefaultWorld>; loadMs: number[]; simHeap: number } {
  const loadMs: number[] = []
  const held: { sim?: Simulator<DefaultWorld> | undefined } = {}
  let simHeap = 0
  for (let run = 0; run < runs; run++) {
    held.sim = undefined
    if (collectBefore(size, run)) gc()
    const before = heapUsed()
    const start = nowNs()
    held.sim = createSimulator({ world: spec, journalLimit: 0 })
    loadMs.push(msSince(start))
    if (run === 0) {
      gc()
      simHeap = heapUsed() - before
    }
    checkLoaded(held.sim, spec, `size '${size}', run ${run + 1}`)
  }
  return { sim: held.sim as Simulator<DefaultWorld>, loadMs, simHeap }
}

/** sim.snapshot() runs: what the baseline snapshot taken by createSimulator (for reset) costs. */
function snapshotRuns(sim: Simulator<DefaultWorld>, size: WorldSize, runs: number): { snapshotMs: number[]; snapshotHeap: number } {
  const snapshotMs: number[] = []
  const held: { snapshot?: unknown } = {}
  let snapshotHeap = 0
  for (let run = 0; run < runs; run++) {
    held.snapshot = undefined
    if (collectBefore(size, run)) gc()
    const before = heapUsed()
    const start = nowNs()
    held.snapshot = sim.snapshot()
    snapshotMs.push(msSince(start))
    if (run === 0) {
      gc()
      snapshotHeap = heapUsed() - before
    }
  }
  return { snapshotMs, snapshotHeap }
}

function measureSize(size: WorldSize): SizeResult {
  const runs = RUNS[size]
  const { spec: world, generateMs, specHeap, specHeapAfterUse, jsonChars } = generateRuns(size, runs)
  const { sim: loaded, loadMs, simHeap } = loadRuns(world, size, runs)
  gc()
  const memory = process.memoryUsage()
  const { snapshotMs, snapshotHeap } = snapshotRuns(loaded, size, runs)

  // One GET /keys page as the primary organisation: the first, then warm ones.
  const handles = world.handles as DefaultWorld
  const listedKeys = (world.keys ?? []).filter((k) => k.userId === handles.userId && k.workspaceId === handles.workspaces.default && k.disabled !== true && k.management !== true).length
  gc()
  let start = nowNs()
  const pageKeys = keysPage(loaded)
  const pageColdMs = msSince(start)
  if (pageKeys !== Math.min(PAGE_SIZE, listedKeys)) throw new Error(`size '${size}': GET /keys served ${pageKeys} keys, expected ${Math.min(PAGE_SIZE, listedKeys)}`)
  const pageMs: number[] = []
  for (let i = 0; i < PAGE_RUNS; i++) {
    start = nowNs()
    if (keysPage(loaded) !== pageKeys) throw new Error('GET /keys served pages of different lengths')
    pageMs.push(msSince(start))
  }

  return {
    size,
    runs,
    generateMs,
    loadMs,
    snapshotMs,
    jsonChars,
    users: world.users?.length ?? 0,
    keys: world.keys?.length ?? 0,
    primaryKeys: (world.keys ?? []).filter((k) => k.userId === handles.userId).length,
    listedKeys,
    models: world.models?.length ?? 0,
    videoModels: world.videoModels?.length ?? 0,
    files: world.files?.length ?? 0,
    usageRecords: (world.keys ?? []).reduce((n, k) => n + (k.usage?.length ?? 0), 0),
    specHeap,
    specHeapAfterUse,
    simHeap,
    snapshotHeap,
    heapAfterLoad: memory.heapUsed,
    rssAfterLoad: memory.rss,
    pageColdMs,
    pageMs,
    pageKeys,
  }
}

// ---------------------------------------------------------------------------------------------
// Main

function main(): void {
  const startedAt = new Date()
  const machine = describeMachine()
  const loadAtStart = os.loadavg()[0] as number
  const versions = { sim: version('../package.json'), faker: version('../node_modules/@faker-js/faker/package.json') }
  console.log(`world benchmark — ${machineLine(machine)}, model-access-sim ${versions.sim}, @faker-js/faker ${versions.faker}`)
  if (!machine.gcExposed) console.log('global.gc is not exposed (run with --expose-gc): heap figures include uncollected garbage')

  // First, before anything else has created a simulator: the cold call is the one a test file pays.
  const defaults = measureDefault()
  const defaultMatches = JSON.stringify(createSimulator().snapshot()) === JSON.stringify(createSimulator({ world: generateWorld({ seed: SEED }) }).snapshot())
  console.log(`createSimulator(): cold ${fmtMs(defaults.coldMs)} ms, median of ${DEFAULT_RUNS} ${fmtMs(median(defaults.warmMs))} ms`)

  const results: SizeResult[] = []
  for (const size of SIZES) {
    const r = measureSize(size)
    results.push(r)
    console.log(
      `${size}: generate ${fmtMs(median(r.generateMs))} ms, load ${fmtMs(median(r.loadMs))} ms (median of ${r.runs}), ` +
        `${fmtInt(r.keys)} keys, ${fmtInt(r.models)} models, JSON ${fmtInt(r.jsonChars)} chars, simulator heap ${fmtMiB(r.simHeap)} MiB`,
    )
  }

  const generateRows = results.map((r) => [
    r.size,
    fmtInt(r.runs),
    fmtMs(median(r.generateMs)),
    spread(r.generateMs),
    fmtInt(r.jsonChars),
    fmtMiB(r.specHeap),
    fmtMiB(r.specHeapAfterUse),
    fmtInt(r.users),
    fmtInt(r.keys),
    fmtInt(r.primaryKeys),
    fmtInt(r.usageRecords),
    fmtInt(r.models),
    fmtInt(r.videoModels),
    fmtInt(r.files),
  ])
  const generated = table(
    ['size', 'runs', 'generate ms (median)', 'min–max ms', 'JSON chars', 'spec heap MiB', 'after JSON.stringify', 'orgs', 'keys', 'primary org keys', 'usage records', 'models', 'video models', 'files'],
    generateRows,
    ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
  )

  const loadRows = results.map((r) => [
    r.size,
    fmtInt(r.runs),
    fmtMs(median(r.loadMs)),
    spread(r.loadMs),
    fmtInt(Math.round((median(r.loadMs) * 1e6) / r.keys)),
    fmtMiB(r.simHeap),
    fmtMs(median(r.snapshotMs)),
    fmtMiB(r.snapshotHeap),
    fmtMiB(r.heapAfterLoad),
    fmtMiB(r.rssAfterLoad),
  ])
  const loads = table(
    ['size', 'runs', 'load ms (median)', 'min–max ms', 'ns/key (median)', 'simulator heap MiB', 'snapshot() ms (median)', 'snapshot heap MiB', 'process heap used MiB', 'RSS MiB'],
    loadRows,
    ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
  )

  const pageRows = results.map((r) => [r.size, fmtInt(r.primaryKeys), fmtInt(r.listedKeys), fmtInt(r.pageKeys), fmtMs(r.pageColdMs), fmtMs(median(r.pageMs)), spread(r.pageMs)])
  const pages = table(['size', 'primary org keys', 'listed (enabled, default workspace)', 'keys on the page', 'first page ms', `ms (median of ${PAGE_RUNS})`, 'min–max ms'], pageRows, ['l', 'r', 'r', 'r', 'r', 'r', 'r'])

  const defaultWarm = median(defaults.warmMs)
  const defaultTable = table(
    ['call', 'ms', 'min–max ms'],
    [
      ['first (cold) createSimulator()', fmtMs(defaults.coldMs), '—'],
      [`createSimulator(), median of ${DEFAULT_RUNS}`, fmtMs(defaultWarm), spread(defaults.warmMs)],
    ],
    ['l', 'r', 'r'],
  )

  const large = results.find((r) => r.size === 'large') as SizeResult
  const figures: Figure[] = [
    figure({
      id: 'generate-large-ms',
      what: "`generateWorld({ seed: 42, size: 'large' })` (100,000 keys)",
      measured: median(large.generateMs),
      unit: 'ms',
      runs: large.runs,
      op: '<=',
      bound: TARGET_LARGE_GENERATE_MS,
    }),
    figure({
      id: 'load-large-ms',
      what: 'loading a 100,000-key world spec, `createSimulator({ world: spec })`',
      measured: median(large.loadMs),
      unit: 'ms',
      runs: large.runs,
      op: '<=',
      bound: TARGET_LARGE_LOAD_MS,
    }),
    figure({
      id: 'create-default-ms',
      what: '`createSimulator()` with the embedded default world (warm)',
      measured: median(defaults.warmMs),
      unit: 'ms',
      runs: DEFAULT_RUNS,
      op: '<=',
      bound: TARGET_DEFAULT_CREATE_MS,
    }),
  ]
  console.log(`\ngenerateWorld({ seed: ${SEED}, size })\n`)
  console.log(generated.text)
  console.log(`\ncreateSimulator({ world: spec, journalLimit: 0 })\n`)
  console.log(loads.text)
  console.log(`\nGET /keys, first page, as the primary organisation's management key\n`)
  console.log(pages.text)
  console.log(`\ncreateSimulator() with the embedded default world\n`)
  console.log(defaultTable.text)
  console.log(`\nembedded default world loads to the same state as generateWorld({ seed: ${SEED} }): ${defaultMatches ? 'yes' : 'NO'}`)
  const loadAtEnd = os.loadavg()[0] as number
  console.log(`\nload average (1 min): ${loadAtStart.toFixed(2)} at the start, ${loadAtEnd.toFixed(2)} at the end`)

  writeReport(
    'world',
    `# Generated worlds benchmark

Generated by \`npm run bench:world\` (\`tsx --expose-gc benchmarks/world.ts\`) on ${startedAt.toISOString()}.

${machineMarkdown(machine)}
| model-access-sim | ${versions.sim} |
| @faker-js/faker | ${versions.faker} |
| Load average (1 min) | ${loadAtStart.toFixed(2)} at the start, ${loadAtEnd.toFixed(2)} at the end |

## Method

- \`generateWorld({ seed: ${SEED}, size })\` for each size, ${RUNS.small} runs for \`small\` and \`default\`, ${RUNS.large} for \`large\`; every run's \`JSON.stringify\` must equal
  the first's (SHA-256). "JSON chars" is the length of that string. "Spec heap" is the heap the returned spec retains, then again once \`JSON.stringify\` has
  read it (V8 flattens a string built by concatenation in place when it is read, which can free memory).
- \`createSimulator({ world: spec, journalLimit: 0 })\` on that spec, as many runs; each loaded simulator must list as many organisations, keys and models as its spec.
  A load validates every entity, builds the indices and takes the baseline snapshot \`reset()\` returns to; \`snapshot()\` is timed on its own (as many runs)
  to show that part. "Simulator heap" is what a simulator retains beyond its spec (its baseline snapshot included), "snapshot heap" what one \`snapshot()\`
  retains; "process heap used" and RSS are read with the spec and the simulator both alive.
- Heap figures come from the first run of each loop, with garbage collected before and after it (\`global.gc\`); without \`--expose-gc\` they are not meaningful.
- One \`GET /keys\` through \`sim.handle\` as the primary organisation's management key (\`sim.world.managementKey\`), no query: the first page, at most
  ${PAGE_SIZE} of the enabled, non-management keys of the default workspace (its length is checked). The first call, then the median of ${PAGE_RUNS}.
  The first call also merges into the workspace's index the keys that arrived out of \`created_at\` order (a world loads its keys in spec order): a one-off sort.
- \`createSimulator()\` with the embedded default world (\`generateWorld({ seed: ${SEED} })\`, committed as JSON): the first call in the process (before any other
  simulator is created: what the first test of a file pays), then the median of ${DEFAULT_RUNS}. The journal keeps its default limit here.
- Each timed call is one \`process.hrtime\` interval. Garbage is collected (outside the timing) before the first run of each loop and before every
  \`large\` run; \`small\` and \`default\` runs follow each other without it, since a forced full collection slows the next call by a few ms.
  The machine is shared (see the load average above): the large world's times move by tens of percent from one run to the next.
- The embedded default world loads to the same state (\`snapshot()\`) as \`generateWorld({ seed: ${SEED} })\`: ${defaultMatches ? 'yes' : '**no**'}.

## generateWorld

${generated.markdown}

## Loading a world

${loads.markdown}

## GET /keys on a loaded world

${pages.markdown}

## createSimulator() with the embedded default world

${defaultTable.markdown}
`,
    figures,
  )
  if (!defaultMatches) {
    console.error(`check failed: the embedded default world does not load to the same state as generateWorld({ seed: ${SEED} })`)
    process.exitCode = 1
  }
}

main()
