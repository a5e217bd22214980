// The usage figures are cached per key (on its records) and folded in as records arrive. This checks
// the cache against a plain evaluation over every record, through interleaved records (past, due
// and future), clock moves in both directions across day, week and month boundaries, snapshots and
// restores, and reads.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { runs } from '../support/runs.js'

const DAY = 86_400_000

interface Kept {
  at: number
  units: number
  byok: boolean
}

/** Window starts computed without date-fns, so the reference shares nothing with the code under test. */
function windows(nowMs: number): { day: number; week: number; month: number } {
  const day = Math.floor(nowMs / DAY) * DAY
  const week = day - ((new Date(day).getUTCDay() + 6) % 7) * DAY
  const date = new Date(nowMs)
  return { day, week, month: Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1) }
}

/** The key's figures from every record it has, summed afresh. */
function reference(records: readonly Kept[], nowMs: number): Record<string, number> {
  const w = windows(nowMs)
  const sum = (byok: boolean, from: number): number =>
    records.filter((r) => r.byok === byok && r.at <= nowMs && r.at >= from).reduce((total, r) => total + r.units, 0) / 1e10
  return {
    usage: sum(false, Number.NEGATIVE_INFINITY),
    usage_daily: sum(false, w.day),
    usage_weekly: sum(false, w.week),
    usage_monthly: sum(false, w.month),
    byok_usage: sum(true, Number.NEGATIVE_INFINITY),
    byok_usage_daily: sum(true, w.day),
    byok_usage_weekly: sum(true, w.week),
    byok_usage_monthly: sum(true, w.month),
  }
}

type Step =
  | { kind: 'record'; offsetMs: number; units: number; byok: boolean }
  | { kind: 'move'; byMs: number }
  | { kind: 'snapshot' }
  | { kind: 'restore' }
  | { kind: 'read' }

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    arbitrary: fc.record({
      kind: fc.constant('record' as const),
      offsetMs: fc.oneof(fc.integer({ min: -40 * DAY, max: 40 * DAY }), fc.constantFrom(0, -1, 1, -DAY, DAY)),
      units: fc.integer({ min: 0, max: 10_000_000_000 }),
      byok: fc.boolean(),
    }),
    weight: 4,
  },
  { arbitrary: fc.record({ kind: fc.constant('move' as const), byMs: fc.oneof(fc.integer({ min: -20 * DAY, max: 20 * DAY }), fc.constantFrom(1, -1, DAY, 7 * DAY, 31 * DAY)) }), weight: 3 },
  { arbitrary: fc.constant({ kind: 'snapshot' as const }), weight: 1 },
  { arbitrary: fc.constant({ kind: 'restore' as const }), weight: 1 },
  { arbitrary: fc.constant({ kind: 'read' as const }), weight: 3 },
)

describe('cached usage figures', () => {
  it('always equal a fresh sum over every record, whatever records, clock moves and restores come between reads', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(2025, 0, 1), max: Date.UTC(2027, 0, 1) }), fc.array(step, { maxLength: 60 }), (start, steps) => {
        const sim = createSimulator({ world: 'empty', now: start })
        const org = sim.users.create({ name: 'Acme' })
        const { record } = sim.keys.create({ userId: org.id })
        let records: Kept[] = []
        let saved: { snapshot: ReturnType<typeof sim.snapshot>; records: Kept[] } | undefined
        const check = (): void => {
          const key = sim.keys.get(record.hash)
          const expected = reference(records, sim.clock.nowMs())
          for (const [field, value] of Object.entries(expected)) expect(key?.[field as keyof typeof key], field).toBeCloseTo(value, 9)
        }
        for (const s of steps) {
          if (s.kind === 'record') {
            const at = sim.clock.nowMs() + s.offsetMs
            sim.usage.record({ keyHash: record.hash, cost: s.units / 1e10, byok: s.byok, at })
            records.push({ at, units: s.units, byok: s.byok })
            check()
          } else if (s.kind === 'move') {
            sim.clock.set(sim.clock.nowMs() + s.byMs)
          } else if (s.kind === 'snapshot') {
            saved = { snapshot: sim.snapshot(), records: [...records] }
          } else if (s.kind === 'restore' && saved !== undefined) {
            sim.restore(saved.snapshot)
            records = [...saved.records]
          } else {
            check()
          }
        }
        check()
      }),
      { numRuns: runs(200) },
    )
  })

  it('are not carried into a world export', () => {
    const sim = createSimulator()
    sim.keys.get(sim.world.apiKeyHash)
    expect(JSON.stringify(sim.exportWorld())).not.toContain('Symbol')
  })

  it('stay each simulator\'s own when two share a key\'s records after a restore from one to the other', () => {
    const sim = createSimulator()
    const hash = sim.world.apiKeyHash
    const before = sim.keys.get(hash)?.usage as number
    const twin = createSimulator({ world: 'empty' })
    // The twin takes the same rows, the same record log included; each then charges its own.
    twin.restore(sim.snapshot())
    sim.usage.record({ keyHash: hash, cost: 1 })
    twin.usage.record({ keyHash: hash, cost: 2 })
    sim.usage.record({ keyHash: hash, cost: 4 })
    expect(sim.keys.get(hash)?.usage).toBeCloseTo(before + 5, 9)
    expect(twin.keys.get(hash)?.usage).toBeCloseTo(before + 2, 9)
    // And a snapshot of the first, taken before its charges, still sums to what it was.
    const first = createSimulator()
    const saved = first.snapshot()
    first.usage.record({ keyHash: hash, cost: 8 })
    first.restore(saved)
    expect(first.keys.get(hash)?.usage).toBeCloseTo(before, 9)
    first.usage.record({ keyHash: hash, cost: 16 })
    expect(first.keys.get(hash)?.usage).toBeCloseTo(before + 16, 9)
  })
})
