/**
 * Speed of the pricing engine on a six-override pricing, next to a straightforward reference
 * evaluator that interprets the overrides on every call (benchmarks/reference-pricing.ts).
 *
 * Targets (issue 3, this machine class):
 * - compiled resolution: at least 20 million per second, and at least 20x the reference;
 * - `resolvePricing` on an already-seen pricing object: at least 10x the reference;
 * - `estimateCost`: at least 2 million per second.
 *
 *   npm run bench:pricing
 *
 * Prints a table and writes benchmarks/results/pricing.md and pricing.json. Before timing, every request is checked
 * against the reference, so a fast but wrong engine fails loudly. Exits 1 when a target is missed.
 */
import type { CostUsage, Pricing, PricingRequest } from '../src/pricing/index.js'
import { referenceResolve } from './reference-pricing.js'
import { type Figure, figure, fmtInt, fmtNs, fmtRatio, machine as describeMachine, machineLine, machineMarkdown, median, msSince, prng, nowNs, table, writeReport, ratioSpread } from './support.js'
import { pkgPricing } from './package.js'

const { compilePricing, estimateCost, explainPricing, resolvePricing } = pkgPricing

const ROUNDS = 21
const WARMUP_ROUNDS = 3
/** A batch runs at least this long, so timer resolution does not matter. */
const TARGET_BATCH_MS = 20
/** Requests cycled through, so branches and tiers vary the way real traffic makes them vary. */
const REQUEST_COUNT = 1024
const WEEK_MS = 7 * 86_400_000
const MONDAY_MS = Date.UTC(2026, 2, 2)

/** Peak/off-peak tiling, two long-context tiers, a weekend completion price, a Friday-night window. */
function sixOverridePricing(): Pricing {
  return {
    prompt: '0.00000028',
    completion: '0.00000042',
    input_cache_read: '0.000000028',
    input_cache_write: '0.00000035',
    request: '0.0001',
    web_search: '0.004',
    discount: 0.1,
    overrides: [
      { utc_start: 30, utc_end: 1630, prompt: '0.00000028', completion: '0.00000042' },
      { utc_start: 1630, utc_end: 30, prompt: '0.00000014', completion: '0.00000021' },
      { min_prompt_tokens: 128000, prompt: '0.00000056', completion: '0.00000084', input_cache_read: '0.000000056' },
      { min_prompt_tokens: 200000, prompt: '0.0000011' },
      { utc_days: ['saturday', 'sunday'], completion: '0.0000003' },
      { utc_start: 2200, utc_end: 200, utc_days: ['friday'], prompt: '0.0000001', input_cache_write: '0.0000002' },
    ],
  }
}

function inputs(): { requests: PricingRequest[]; usages: CostUsage[] } {
  const rand = prng(3)
  const requests: PricingRequest[] = []
  const usages: CostUsage[] = []
  for (let i = 0; i < REQUEST_COUNT; i++) {
    const promptTokens = Math.floor(rand() * 260_000)
    const cachedTokens = Math.floor(rand() * promptTokens * 0.5)
    requests.push({ promptTokens, at: MONDAY_MS + Math.floor(rand() * WEEK_MS) })
    usages.push({ promptTokens, cachedTokens, completionTokens: Math.floor(rand() * 8000), webSearches: i % 10 === 0 ? 1 : 0 })
  }
  return { requests, usages }
}

interface Case {
  name: string
  /** Runs `n` operations and returns something derived from their results. */
  run: (n: number) => number
  batch: number
  samples: number[]
}

function calibrate(c: Case): void {
  for (let batch = 1024; ; batch *= 2) {
    c.batch = batch
    const start = nowNs()
    c.run(batch)
    if (msSince(start) >= TARGET_BATCH_MS || batch >= 1 << 26) break
  }
}

function main(): void {
  const startedAt = new Date()
  const machine = describeMachine()
  console.log(`pricing benchmark — ${machineLine(machine)}`)

  const pricing = sixOverridePricing()
  const compiled = compilePricing(pricing)
  const { requests, usages } = inputs()
  const mask = REQUEST_COUNT - 1

  // Correctness first: the engine must agree with the reference on every request it is timed on.
  const tiers = new Set<unknown>()
  for (const request of requests) {
    const want = JSON.stringify(Object.entries(referenceResolve(pricing, request)).sort())
    for (const got of [compiled.resolve(request), resolvePricing(pricing, request), explainPricing(pricing, request).resolved]) {
      if (JSON.stringify(Object.entries(got).sort()) !== want) throw new Error(`engine disagrees with the reference at ${JSON.stringify(request)}`)
    }
    tiers.add(compiled.resolve(request))
  }
  usages.forEach((usage, i) => {
    const at = (requests[i] as PricingRequest).at
    if (estimateCost(pricing, usage, { at }) !== compiled.cost(usage, { at })) throw new Error('estimateCost and compiled cost disagree')
  })

  let sink = 0
  const definitions: Pick<Case, 'name' | 'run'>[] = [
    {
      name: 'reference evaluator',
      run: (n) => {
        let s = 0
        for (let i = 0; i < n; i++) s += (referenceResolve(pricing, requests[i & mask] as PricingRequest)['prompt'] as string).length
        return s
      },
    },
    {
      name: 'compiled resolve',
      run: (n) => {
        let s = 0
        for (let i = 0; i < n; i++) s += compiled.resolve(requests[i & mask] as PricingRequest).prompt.length
        return s
      },
    },
    {
      name: 'resolvePricing (seen object)',
      run: (n) => {
        let s = 0
        for (let i = 0; i < n; i++) s += resolvePricing(pricing, requests[i & mask] as PricingRequest).prompt.length
        return s
      },
    },
    {
      name: 'explainPricing',
      run: (n) => {
        let s = 0
        for (let i = 0; i < n; i++) s += explainPricing(pricing, requests[i & mask] as PricingRequest).text.length
        return s
      },
    },
    {
      name: 'compiled cost',
      run: (n) => {
        let s = 0
        for (let i = 0; i < n; i++) s += compiled.cost(usages[i & mask] as CostUsage, requests[i & mask] as PricingRequest).length
        return s
      },
    },
    {
      name: 'estimateCost (seen object)',
      run: (n) => {
        let s = 0
        for (let i = 0; i < n; i++) s += estimateCost(pricing, usages[i & mask] as CostUsage, requests[i & mask] as PricingRequest).length
        return s
      },
    },
  ]
  const cases: Case[] = definitions.map((c) => ({ ...c, batch: 0, samples: [] }))

  for (const c of cases) calibrate(c)
  for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round++) {
    for (const c of cases) {
      const start = nowNs()
      sink += c.run(c.batch)
      if (round >= WARMUP_ROUNDS) c.samples.push(Number(nowNs() - start) / c.batch)
    }
  }

  const nsOf = (name: string): number => median((cases.find((c) => c.name === name) as Case).samples)
  const reference = nsOf('reference evaluator')
  const rows = cases.map((c) => {
    const ns = median(c.samples)
    return [c.name, ns.toFixed(1), fmtInt(Math.round(1e9 / ns)), fmtRatio(reference / ns), `${fmtNs(Math.min(...c.samples))}–${fmtNs(Math.max(...c.samples))}`, fmtInt(c.batch)]
  })
  const results = table(['operation', 'ns/op (median)', 'ops/s', 'vs reference', 'min–max ns/op', 'ops/batch'], rows, ['l', 'r', 'r', 'r', 'r', 'r'])

  const perSecond = (name: string): number => 1e9 / nsOf(name)
  const vsReference = (name: string): number => reference / nsOf(name)
  /** The speed-up's spread: per round, the reference's ns/op over the operation's (they ran in the same rounds). */
  const vsReferenceRounds = (name: string): string => {
    const own = (cases.find((c) => c.name === name) as Case).samples
    const ref = (cases.find((c) => c.name === 'reference evaluator') as Case).samples
    return ratioSpread(own.map((ns, r) => (ref[r] as number) / ns))
  }
  const speedUp = (name: string): string => `${fmtRatio(vsReference(name))} (rounds ${vsReferenceRounds(name)})`
  const figures: Figure[] = [
    figure({ id: 'compiled-resolve-rate', what: 'compiled resolve, operations per second', measured: perSecond('compiled resolve'), unit: 'ops/s', runs: ROUNDS, op: '>=', bound: 20e6 }),
    figure({ id: 'compiled-resolve-vs-reference', what: 'compiled resolve, speed-up over the reference evaluator', measured: vsReference('compiled resolve'), unit: 'x', runs: ROUNDS, op: '>=', bound: 20, display: speedUp('compiled resolve') }),
    figure({ id: 'resolve-seen-vs-reference', what: '`resolvePricing` (seen object), speed-up over the reference evaluator', measured: vsReference('resolvePricing (seen object)'), unit: 'x', runs: ROUNDS, op: '>=', bound: 10, display: speedUp('resolvePricing (seen object)') }),
    figure({ id: 'estimate-cost-rate', what: '`estimateCost` (seen object), operations per second', measured: perSecond('estimateCost (seen object)'), unit: 'ops/s', runs: ROUNDS, op: '>=', bound: 2e6 }),
    figure({ id: 'compiled-cost-rate', what: 'compiled cost, operations per second', measured: perSecond('compiled cost'), unit: 'ops/s', runs: ROUNDS, op: '>=', bound: 2e6 }),
  ]

  console.log(`\n${results.text}`)
  if (sink === 0) console.log('(sink)')

  writeReport(
    'pricing',
    `# Pricing engine benchmark

Generated by \`npm run bench:pricing\` on ${startedAt.toISOString()}.

${machineMarkdown(machine)}

## Method

- One pricing with six overrides (\`sixOverridePricing\` in benchmarks/pricing.ts): peak/off-peak windows that tile the day,
  two long-context tiers, a weekend completion price and a Friday 22:00–02:00 window; six base prices and a discount of 0.1.
- ${fmtInt(REQUEST_COUNT)} requests from a seeded generator, cycled through: prompt tokens uniform in [0, 260,000), instants uniform over one week
  (${tiers.size} distinct price tiers are hit). Usages add cached tokens, completion tokens and a web search on every tenth request.
- Before timing, every request's prices from the compiled form, \`resolvePricing\` and \`explainPricing\`
  are checked against the reference evaluator, and both cost paths against each other.
- The reference evaluator (benchmarks/reference-pricing.ts) is what one writes first: a \`Date\` per call, UTC getters, a loop over the
  overrides and a fresh result object.
- "seen object" is the uncompiled function called again with the same pricing object: the first call compiled it and deep-froze it
  (decisions/0008), so later calls look the engine up in a WeakMap.
- Timing: batches of at least ${TARGET_BATCH_MS} ms; ${WARMUP_ROUNDS} warm-up rounds, then ${ROUNDS} measured rounds, all operations interleaved within each
  round. ns/op is the median batch.

## Results

${results.markdown}

"vs reference" is the reference evaluator's median ns/op over the operation's; a speed-up figure below is the same ratio.
`,
    figures,
  )
}

main()
