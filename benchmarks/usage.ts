/**
 * Cost of charging a key and reading it back (`sim.usage.record` then `sim.keys.get`) as the key's
 * usage history grows: 10 records against 50,000. Target: at most 2x the cost at 10 records (the
 * figures are cached per key and new records folded in, instead of re-summing every record). Since
 * decisions/0029 the 50,000 charges, spread over 60 days, fold into about 120 per-day records.
 *
 *   npm run bench:usage
 *
 * Prints a table, writes benchmarks/results/usage.md and usage.json, and exits 1 when the target is missed.
 */
import { figure, fmtRatio, machine as describeMachine, machineLine, machineMarkdown, median, msSince, nowNs, table, writeReport, ratioSpread } from './support.js'
import { pkg } from './package.js'

const { createSimulator } = pkg

const SIZES = [10, 50_000] as const
const ROUNDS = 15
const OPS_PER_ROUND = 2_000
const TARGET_RATIO = 2

function setUp(records: number) {
  const sim = createSimulator({ world: 'empty', now: '2026-03-02T10:00:00Z', journalLimit: 0 })
  const org = sim.users.create({ name: 'Acme' })
  const { record } = sim.keys.create({ userId: org.id, limit: 1_000_000, limitReset: 'monthly' })
  // History over the last 60 days, some of it BYOK.
  for (let i = 0; i < records; i++) sim.usage.record({ keyHash: record.hash, cost: 0.0001, byok: i % 7 === 0, at: Date.parse('2026-03-02T10:00:00Z') - (i % 60) * 86_400_000 })
  return { sim, hash: record.hash }
}

function round(setup: ReturnType<typeof setUp>): number {
  const start = nowNs()
  for (let i = 0; i < OPS_PER_ROUND; i++) {
    setup.sim.usage.record({ keyHash: setup.hash, cost: 0.0001 })
    setup.sim.keys.get(setup.hash)
  }
  return (msSince(start) * 1e6) / OPS_PER_ROUND
}

const m = describeMachine()
console.log(machineLine(m))
const setups = SIZES.map(setUp)
for (const setup of setups) round(setup)
const samples: number[][] = SIZES.map(() => [])
for (let r = 0; r < ROUNDS; r++) setups.forEach((setup, i) => samples[i]?.push(round(setup)))
const medians = samples.map(median)
const ratio = (medians[1] as number) / (medians[0] as number)
// Each round's pair (the sizes ran side by side): the spread of the ratio from round to round.
const roundRatios = (samples[1] as number[]).map((ns, r) => ns / ((samples[0] as number[])[r] as number))
const rows = SIZES.map((size, i) => [size.toLocaleString('en-US'), Math.round(medians[i] as number).toLocaleString('en-US')])
const { text, markdown } = table(['charges recorded on the key', 'record + read (ns, median)'], rows, ['r', 'r'])
console.log(`\n${text}`)
writeReport(
  'usage',
  `# Usage accrual as history grows\n\n${machineMarkdown(m)}\n\n\`sim.usage.record\` then \`sim.keys.get\` on one key, ${OPS_PER_ROUND.toLocaleString('en-US')} pairs a round, median of ${ROUNDS} rounds (the sizes interleaved within each round).\n\n${markdown}\n\nRatio 50,000 / 10: ${fmtRatio(ratio)} (rounds ${ratioSpread(roundRatios)}).\n`,
  [
    figure({
      id: 'history-ratio',
      what: '`sim.usage.record` + `sim.keys.get` after 50,000 charges on the key (folded per day) / after 10',
      measured: ratio,
      unit: 'x',
      runs: ROUNDS,
      op: '<=',
      bound: TARGET_RATIO,
      display: `${fmtRatio(ratio)} (rounds ${ratioSpread(roundRatios)})`,
    }),
  ],
)
