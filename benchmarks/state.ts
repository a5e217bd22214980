/**
 * Cost of putting a 100,000-key world back between tests: `reset()`, `snapshot()` and
 * `restore(snapshot)` after a typical test's changes.
 *
 * The world is `generateWorld({ seed: 42, size: 'large' })` loaded once into
 * `createSimulator({ world: spec })` (its load time is world.ts's figure, not this one's). A "test"
 * creates 10 keys for `sim.world.userId`, records 100 usage events spread over those 10 keys and 5
 * existing ones, and advances the clock 60 seconds.
 *
 * Targets (this machine class), each the median of 31 repetitions:
 * - `reset()` after a test: at most 10 ms;
 * - `snapshot()` after a test: at most 10 ms;
 * - `restore(S0)` after a test, S0 taken right after the load: at most 10 ms.
 *
 *   npm run bench:state        (tsx --expose-gc benchmarks/state.ts)
 *
 * Prints a table, writes benchmarks/results/state.md and state.json. After timing, reset, restore
 * and a snapshot taken after a test are each checked to give back exactly the state they stand for
 * (key count, a GET /keys page, the clock), so a fast but wrong one fails loudly. Exits 1 when a
 * target is missed.
 */
import {
  type Figure,
  figure,
  fmtInt,
  fmtMs,
  gc,
  machine as describeMachine,
  machineLine,
  machineMarkdown,
  median,
  msSince,
  nowNs,
  table,
  writeReport,
} from './support.js'
import { pkg, pkgFixtures } from './package.js'

const { generateWorld } = pkgFixtures
const { createSimulator } = pkg

const SEED = 42
const REPS = 31
const WARMUP_REPS = 3
const TARGET_MS = 10
const TEST_KEYS = 10
const TEST_USAGE_EVENTS = 100
const EXISTING_KEYS_CHARGED = 5
const TEST_CLOCK_MS = 60_000
/** Heap growth that triggers a forced collection between repetitions. */
const GC_GROWTH = 64 * 2 ** 20

const spread = (values: readonly number[]): string => `${fmtMs(Math.min(...values))}–${fmtMs(Math.max(...values))}`

function load() {
  let start = nowNs()
  const spec = generateWorld({ seed: SEED, size: 'large' })
  const generateMs = msSince(start)
  const specKeys = spec.keys?.length ?? 0
  gc()
  start = nowNs()
  const sim = createSimulator({ world: spec })
  const loadMs = msSince(start)
  // The spec dies with this frame: only the simulator is kept.
  return { sim, specKeys, generateMs, loadMs }
}

async function main(): Promise<void> {
  const startedAt = new Date()
  const machine = describeMachine()
  console.log(`state benchmark — ${machineLine(machine)}`)
  if (!machine.gcExposed) console.log('global.gc is not exposed (run with --expose-gc): garbage is not collected between repetitions')

  const { sim, specKeys, generateMs, loadMs } = load()
  if (sim.keys.list().length !== specKeys) throw new Error(`the loaded simulator lists ${sim.keys.list().length} keys, its spec ${specKeys}`)
  gc()
  console.log(`generateWorld large ${fmtMs(generateMs)} ms, createSimulator({ world }) ${fmtMs(loadMs)} ms, ${fmtInt(specKeys)} keys, heap used ${fmtInt(Math.round(process.memoryUsage().heapUsed / 2 ** 20))} MiB`)

  const authorization = `Bearer ${sim.world.managementKey}`
  const page = (): string => {
    const res = sim.handle({ method: 'GET', path: '/keys', authorization })
    if (res.status !== 200 || res.type !== 'json') throw new Error(`GET /keys answered ${res.status}: ${JSON.stringify(res.body)}`)
    return JSON.stringify(res.body)
  }
  const loaded = { page: page(), now: sim.clock.nowMs() }
  const s0 = sim.snapshot()
  const atS0 = { page: page(), now: sim.clock.nowMs() }

  // Existing keys charged by every test: enabled, never expiring, spread over the list. Taken once, untimed.
  const all = sim.keys.list()
  const candidates = all.filter((k) => !k.disabled && k.expires_at === null && k.limit === null)
  const existing = Array.from({ length: EXISTING_KEYS_CHARGED }, (_, i) => (candidates[Math.floor((i * candidates.length) / EXISTING_KEYS_CHARGED)] as { hash: string }).hash)
  const usageOf = (hash: string): number => (sim.keys.get(hash) as { usage: number }).usage
  const existingUsageAtLoad = existing.map(usageOf)
  all.length = 0
  candidates.length = 0

  let testNumber = 0
  /** A test's changes: 10 keys, 100 usage events over them and 5 existing keys, the clock a minute on. */
  const runTest = (): void => {
    testNumber++
    const charged: string[] = [...existing]
    for (let i = 0; i < TEST_KEYS; i++) charged.push(sim.keys.create({ userId: sim.world.userId, name: `test ${testNumber} key ${i + 1}` }).record.hash)
    for (let i = 0; i < TEST_USAGE_EVENTS; i++) sim.usage.record({ keyHash: charged[i % charged.length] as string, cost: 0.0001 * (1 + (i % 7)) })
    sim.clock.advance(TEST_CLOCK_MS)
  }

  // Garbage is collected before a repetition's test (outside the timing), not right before the
  // timed call: the test's own allocations warm the young generation again, as in a test suite. A
  // full collection of this heap takes about a second, so only when the heap has grown by
  // GC_GROWTH since the last one (and before each loop).
  let heapAfterGc = 0
  const collect = (force: boolean): void => {
    if (!force && process.memoryUsage().heapUsed < heapAfterGc + GC_GROWTH) return
    gc()
    heapAfterGc = process.memoryUsage().heapUsed
  }
  // The test itself is timed too (informational): a state that defers copying to the first write
  // after a snapshot or restore would show its cost there.
  const testMs: Record<string, number[]> = {}
  const timedTest = (label: string): void => {
    const start = nowNs()
    runTest()
    ;(testMs[label] ??= []).push(msSince(start))
  }
  const timed = (label: string, rep: (samples: number[]) => void): number[] => {
    const samples: number[] = []
    const started = nowNs()
    for (let i = 0; i < WARMUP_REPS + REPS; i++) {
      collect(i === 0)
      const before = samples.length
      const testsBefore = testMs[label]?.length ?? 0
      rep(samples)
      if (i < WARMUP_REPS) {
        samples.length = before
        if (testMs[label]) testMs[label].length = testsBefore
      }
    }
    console.log(`${label}: median ${fmtMs(median(samples))} ms of ${REPS} (${spread(samples)}); the test before it ${fmtMs(median(testMs[label] ?? [Number.NaN]))} ms; loop ${(msSince(started) / 1000).toFixed(1)} s`)
    return samples
  }

  const resetMs = timed('reset() after a test', (samples) => {
    timedTest('reset() after a test')
    const start = nowNs()
    sim.reset()
    samples.push(msSince(start))
  })
  const afterReset = { keys: sim.keys.list().length, page: page(), now: sim.clock.nowMs(), usage: existing.map(usageOf) }

  const snapshotMs = timed('snapshot() after a test', (samples) => {
    timedTest('snapshot() after a test')
    const start = nowNs()
    const taken = sim.snapshot()
    samples.push(msSince(start))
    if (taken === undefined) throw new Error('snapshot() returned nothing')
    sim.restore(s0)
  })

  const restoreMs = timed('restore(S0) after a test', (samples) => {
    timedTest('restore(S0) after a test')
    const start = nowNs()
    sim.restore(s0)
    samples.push(msSince(start))
  })
  const afterRestore = { keys: sim.keys.list().length, page: page(), now: sim.clock.nowMs(), usage: existing.map(usageOf) }

  // Correctness, after timing.
  const problems: string[] = []
  const expect = (ok: boolean, what: string): void => {
    if (!ok) problems.push(what)
  }
  expect(afterReset.keys === specKeys, `after reset(): ${afterReset.keys} keys, the spec has ${specKeys}`)
  expect(afterReset.page === loaded.page, 'after reset(): GET /keys differs from the page served right after the load')
  expect(afterReset.now === loaded.now, 'after reset(): the clock is not back at the load time')
  expect(afterReset.usage.every((u, i) => u === existingUsageAtLoad[i]), 'after reset(): charged keys keep the test usage')
  expect(afterRestore.keys === specKeys, `after restore(S0): ${afterRestore.keys} keys, the spec has ${specKeys}`)
  expect(afterRestore.page === atS0.page, "after restore(S0): GET /keys differs from the page at S0's time")
  expect(afterRestore.now === atS0.now, "after restore(S0): the clock is not back at S0's time")
  expect(afterRestore.usage.every((u, i) => u === existingUsageAtLoad[i]), 'after restore(S0): charged keys keep the test usage')
  // A snapshot taken after a test restores to exactly that test's state.
  runTest()
  const afterTest = { keys: sim.keys.list().length, page: page(), now: sim.clock.nowMs(), usage: existing.map(usageOf) }
  const s1 = sim.snapshot()
  expect(afterTest.keys === specKeys + TEST_KEYS, `after a test: ${afterTest.keys} keys, expected ${specKeys + TEST_KEYS}`)
  expect(afterTest.page !== atS0.page, "after a test: GET /keys still serves S0's page (the test's keys are missing)")
  sim.restore(s0)
  expect(sim.keys.list().length === specKeys && page() === atS0.page, 'restore(S0) before restoring the test snapshot did not give S0 back')
  sim.restore(s1)
  expect(sim.keys.list().length === afterTest.keys, `restore(test snapshot): ${sim.keys.list().length} keys, the test left ${afterTest.keys}`)
  expect(page() === afterTest.page, "restore(test snapshot): GET /keys differs from the test's page")
  expect(sim.clock.nowMs() === afterTest.now, "restore(test snapshot): the clock differs from the test's")
  expect(existing.map(usageOf).every((u, i) => u === afterTest.usage[i]), "restore(test snapshot): charged keys' usage differs from the test's")
  if (problems.length > 0) throw new Error(`state benchmark: wrong state\n- ${problems.join('\n- ')}`)
  console.log('checked reset(), restore(S0) and a test snapshot against the states they stand for')

  const figures: Figure[] = [
    figure({ id: 'reset-ms', what: '`reset()` after a test, 100,000-key world', measured: median(resetMs), unit: 'ms', runs: REPS, op: '<=', bound: TARGET_MS }),
    figure({ id: 'snapshot-ms', what: '`snapshot()` after a test, 100,000-key world', measured: median(snapshotMs), unit: 'ms', runs: REPS, op: '<=', bound: TARGET_MS }),
    figure({ id: 'restore-ms', what: '`restore(S0)` after a test, 100,000-key world', measured: median(restoreMs), unit: 'ms', runs: REPS, op: '<=', bound: TARGET_MS }),
  ]
  const testCell = (label: string): string => fmtMs(median(testMs[label] ?? [Number.NaN]))
  const rows = [
    ['reset()', fmtMs(median(resetMs)), spread(resetMs), testCell('reset() after a test')],
    ['snapshot()', fmtMs(median(snapshotMs)), spread(snapshotMs), testCell('snapshot() after a test')],
    ['restore(S0)', fmtMs(median(restoreMs)), spread(restoreMs), testCell('restore(S0) after a test')],
  ]
  const results = table(['call after a test', `ms (median of ${REPS})`, 'min–max ms', 'the test before it, ms (median)'], rows, ['l', 'r', 'r', 'r'])
  console.log(`\n${results.text}`)

  writeReport(
    'state',
    `# reset / snapshot / restore in a 100,000-key world

Generated by \`npm run bench:state\` (\`tsx --expose-gc benchmarks/state.ts\`) on ${startedAt.toISOString()}.

${machineMarkdown(machine)}

## Method

- \`generateWorld({ seed: ${SEED}, size: 'large' })\` (${fmtInt(specKeys)} keys; ${fmtMs(generateMs)} ms here) loaded once into \`createSimulator({ world: spec })\`
  (${fmtMs(loadMs)} ms here, one load; the load's target is in the world benchmark). S0 is \`sim.snapshot()\` right after the load.
- A "test": ${TEST_KEYS} \`sim.keys.create({ userId: sim.world.userId })\`, ${TEST_USAGE_EVENTS} \`sim.usage.record\` calls spread over those ${TEST_KEYS} keys and
  ${EXISTING_KEYS_CHARGED} existing ones (their hashes taken from \`sim.keys.list()\` once, before timing), then \`sim.clock.advance(${fmtInt(TEST_CLOCK_MS)})\`.
- Each repetition runs a test (untimed), then times one call with \`process.hrtime\`: \`reset()\`; \`snapshot()\` (then \`restore(S0)\`, untimed);
  \`restore(S0)\`. ${WARMUP_REPS} warm-up repetitions, then ${REPS} measured; the figure is their median. Garbage is collected (\`global.gc\`) before the first
  repetition of each loop, and before a repetition's test when the heap has grown by ${GC_GROWTH / 2 ** 20} MiB since the last collection; never
  between the test and the timed call.
- After timing: after \`reset()\`, the key count equals the spec's and \`GET /keys\` (through \`sim.handle\`) equals the page served right after the load,
  at the load's clock; after \`restore(S0)\` the same against S0; a snapshot taken after a test, restored after \`restore(S0)\`, gives back that test's
  key count, page, clock and usage. Usage of the charged existing keys is checked each time.
- The test itself is timed too (informational, last column): it runs right after the previous repetition's \`reset()\` or \`restore(S0)\`, so
  a state that defers copying to the first write after one would show the cost there.

## Results

${results.markdown}
`,
    figures,
  )
}

await main()
