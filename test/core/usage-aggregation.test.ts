// Usage under many charges (decisions/0029): the figures cache sums only the records added since
// the last read while the clock moves forward, a key's log folds into per-day sums so its memory
// follows simulated days rather than requests, and every figure at and after the clock's now stays
// exact, through snapshots, restores and exported worlds.
import { describe, expect, it } from 'vitest'
import { type UsageRecord, figuresAt, windowsAt } from '../../src/core/usage.js'

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
