// Usage under many charges (decisions/0029): the figures cache sums only the records added since
// the last read while the clock moves forward, a key's log folds into per-day sums so its memory
// follows simulated days rather than requests, and every figure at and after the clock's now stays
// exact, through snapshots, restores and exported worlds.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import type { StoreContext } from '../../src/core/store/context.js'
import { History, put, remove } from '../../src/core/store/versions.js'
import { EXACT_INSTANTS_PER_DAY, FOLD_MIN_RECORDS, type UsageRecord, chargeUsage, figuresAt, foldUsage, windowsAt } from '../../src/core/usage.js'
import { runs } from '../support/runs.js'

const DAY = 86_400_000
const NOW = Date.UTC(2026, 2, 11, 10) // Wednesday 2026-03-11T10:00Z

/** A log whose element reads are counted. */
function counted(records: UsageRecord[]): { log: UsageRecord[]; reads: () => number } {
  let reads = 0
  const log = new Proxy(records, {
    get(target, property, receiver) {
      if (typeof property === 'string' && /^\d+$/.test(property)) reads++
      return Reflect.get(target, property, receiver)
    },
  })
  return { log, reads: () => reads }
}

describe('the figures cache as the clock advances between charges', () => {
  it('sums only the records added since the last read, not the whole log', () => {
    const records: UsageRecord[] = []
    const { log, reads } = counted(records)
    let now = NOW
    for (let i = 0; i < 500; i++) {
      records.push({ at: now, units: 1, byok: false })
      figuresAt(log, records.length, windowsAt(now))
      now += 1_000
    }
    // One read per record, plus the first sum: never the whole log again.
    expect(reads()).toBeLessThanOrEqual(501)
    expect(figuresAt(log, records.length, windowsAt(now)).daily).toBe(500)
  })

  it('sums afresh when a record dated between the cached now and the new one falls due', () => {
    const records: UsageRecord[] = [{ at: NOW + 5_000, units: 7, byok: false }]
    expect(figuresAt(records, 1, windowsAt(NOW)).total).toBe(0)
    records.push({ at: NOW + 1_000, units: 3, byok: false })
    expect(figuresAt(records, 2, windowsAt(NOW + 2_000)).total).toBe(3)
    expect(figuresAt(records, 2, windowsAt(NOW + 5_000)).total).toBe(10)
  })
})

const sums = (records: readonly UsageRecord[], now: number) => ({ ...figuresAt([...records], records.length, windowsAt(now)) })

const recordArb = (from: number, span: number) =>
  fc.record({ at: fc.integer({ min: from, max: from + span }), units: fc.integer({ min: 0, max: 1e9 }), byok: fc.boolean() })

describe('foldUsage', () => {
  it('keeps every figure exact at every instant from the start of the fold day on, and before the first record', () => {
    const start = NOW - 40 * DAY
    fc.assert(
      fc.property(
        fc.array(recordArb(start, 50 * DAY), { minLength: 1, maxLength: 200 }),
        fc.integer({ min: start, max: start + 50 * DAY }),
        fc.array(fc.integer({ min: 0, max: 60 * DAY }), { minLength: 1, maxLength: 8 }),
        (records, now, offsets) => {
          const folded = foldUsage(records, now)
          const today = Math.floor(now / DAY) * DAY
          for (const offset of offsets) expect(sums(folded, today + offset)).toEqual(sums(records, today + offset))
          const first = Math.min(...records.map((r) => r.at))
          expect(sums(folded, first - 1)).toEqual(sums(records, first - 1))
          expect(folded.length).toBeLessThanOrEqual(records.length)
        },
      ),
      { numRuns: runs(150), verbose: true },
    )
  })

  it('keeps one record per kind for each day before today, dated at its latest charge, and sums today per instant', () => {
    const records: UsageRecord[] = [
      { at: NOW - DAY - 5, units: 2, byok: false },
      { at: NOW - DAY, units: 3, byok: false },
      { at: NOW - DAY + 1, units: 4, byok: true },
      { at: NOW, units: 5, byok: false },
      { at: NOW, units: 6, byok: false },
      { at: NOW + 1, units: 7, byok: false },
    ]
    expect(foldUsage(records, NOW)).toEqual([
      { at: NOW - DAY, units: 5, byok: false },
      { at: NOW - DAY + 1, units: 4, byok: true },
      { at: NOW, units: 11, byok: false },
      { at: NOW + 1, units: 7, byok: false },
    ])
    expect(records).toHaveLength(6)
  })

  it('sums today per minute up to now once today has more distinct instants than it keeps exact, later records kept', () => {
    const today = Math.floor(NOW / DAY) * DAY
    const records: UsageRecord[] = Array.from({ length: EXACT_INSTANTS_PER_DAY + 10 }, (_, i) => ({ at: today + i * 1_000, units: 1, byok: false }))
    const now = today + (EXACT_INSTANTS_PER_DAY + 5) * 1_000
    const folded = foldUsage(records, now)
    expect(folded.length).toBeLessThanOrEqual(Math.ceil((EXACT_INSTANTS_PER_DAY + 5) / 60) + 1 + 5)
    for (const at of [now, now + 1_000, now + 5_000, now + DAY, now + 8 * DAY]) expect(sums(folded, at)).toEqual(sums(records, at))
  })
})

describe('chargeUsage', () => {
  it('keeps a key to a log that follows simulated days, not charges, and its figures exact at the clock', () => {
    // 200,000 charges, one a second: 2.3 days, each day more instants than are kept exact.
    let log: UsageRecord[] = []
    let count = 0
    let longest = 0
    let now = NOW
    const expected = { total: 0, byok: 0 }
    for (let i = 0; i < 200_000; i++) {
      const byok = i % 7 === 0
      ;({ usage: log, usageCount: count } = chargeUsage(log, count, { at: now, units: 3 + (i % 5), byok }, now))
      if (byok) expected.byok += 3 + (i % 5)
      else expected.total += 3 + (i % 5)
      longest = Math.max(longest, count)
      now += 1_000
    }
    expect(count).toBe(log.length)
    expect(longest).toBeLessThanOrEqual(2 * (EXACT_INSTANTS_PER_DAY + 2 * 60 * 24 + 10))
    const f = figuresAt(log, count, windowsAt(now))
    expect([f.total, f.byokTotal]).toEqual([expected.total, expected.byok])
  })

  it('leaves the log a snapshot holds as it was when it folds', () => {
    let log: UsageRecord[] = []
    let count = 0
    for (let i = 0; i < FOLD_MIN_RECORDS - 1; i++) ({ usage: log, usageCount: count } = chargeUsage(log, count, { at: NOW - DAY + i, units: 1, byok: false }, NOW))
    const held = log
    const heldCount = count
    const after = chargeUsage(log, count, { at: NOW, units: 1, byok: false }, NOW)
    expect(after.usage).not.toBe(held)
    expect(after.usage).toEqual([
      { at: NOW - DAY + FOLD_MIN_RECORDS - 2, units: FOLD_MIN_RECORDS - 1, byok: false },
      { at: NOW, units: 1, byok: false },
    ])
    expect(figuresAt(held, heldCount, windowsAt(NOW)).total).toBe(FOLD_MIN_RECORDS - 1)
  })
})

describe('a key charged thousands of times, through the simulator', () => {
  it('answers GET /key exactly after folds, through a snapshot and restore, and from its exported world', () => {
    const sim = createSimulator({ world: 'empty', seed: 3, now: NOW })
    const org = sim.users.create({ name: 'Acme' })
    const { key, record } = sim.keys.create({ userId: org.id, limit: 100, limitReset: 'weekly' })
    const getKey = (s: typeof sim) => s.handle({ method: 'GET', path: '/key', authorization: `Bearer ${key}` }).body
    const charge = (n: number) => {
      for (let i = 0; i < n; i++) {
        const cost = 0.0001 * (1 + (i % 3))
        sim.usage.record({ keyHash: record.hash, cost, byok: i % 11 === 0 })
        sim.clock.advance(97_000)
      }
    }
    charge(1_500)
    const before = getKey(sim)
    const saved = sim.snapshot()
    charge(2 * FOLD_MIN_RECORDS)
    const live = getKey(sim) as { data: { usage: number; usage_daily: number } }
    const exported = createSimulator({ world: sim.exportWorld() })
    expect(getKey(exported)).toEqual(live)
    // The exported world folded too: it holds far fewer records than charges.
    expect(sim.exportWorld().keys?.find((k) => k.hash === record.hash)?.usage?.length).toBeLessThan(FOLD_MIN_RECORDS)
    for (const later of [1, 3_600_000, 3 * DAY, 40 * DAY]) {
      sim.clock.advance(later)
      exported.clock.advance(later)
      expect(getKey(exported)).toEqual(getKey(sim))
    }
    sim.restore(saved)
    expect(getKey(sim)).toEqual(before)
  })
})

describe('the version history under a stream of generations', () => {
  it('keeps no entry for a row made and removed since the last snapshot, and restores exactly', () => {
    const data = { users: new Map(), workspaces: new Map(), keys: new Map(), files: new Map(), models: new Map(), videoModels: new Map(), rateBuckets: new Map(), generations: new Map() }
    let state = [0]
    const ctx = {
      data,
      indices: { changed() {} },
      clock: { nowMs: () => NOW },
      random: { getState: () => state, setState: (s: number[]) => (state = s) },
    } as unknown as StoreContext
    const history = new History(ctx)
    ctx.history = history
    put(ctx, 'generations', 'kept-before', { id: 'kept-before' } as never)
    const saved = history.seal()
    for (let i = 0; i < 5_000; i++) {
      put(ctx, 'generations', `gen-${i}`, { id: i } as never)
      if (i >= 10) remove(ctx, 'generations', `gen-${i - 10}`)
    }
    remove(ctx, 'generations', 'kept-before')
    const touched = (history as unknown as { touched: Record<string, Map<string, unknown>> }).touched.generations as Map<string, unknown>
    // The ten live generations and the row that was there at the snapshot, not 5,000.
    expect(touched.size).toBe(11)
    history.goTo(saved)
    expect([...data.generations.keys()]).toEqual(['kept-before'])
  })
})
