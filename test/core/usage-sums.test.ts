// Exact usage sums (core/usage.ts): USD to 10^-10 USD units and back near the top of the exact
// range, the running per-kind totals the exact-range check uses (across snapshots and restores),
// limit_remaining for limits beyond the exact range, and the record log a key version owns.
// The numbers near 2^52 units below were found by searching for them, then checked by hand against
// the rule: `toUnits(usd)` is the unit count whose `usd / 10^10` is `usd` exactly, the one nearest
// to `usd * 10^10` when several are.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { MAX_EXACT_USD, type UsageRecord, appendUsage, figuresAt, toUnits, toUsd, unitsOfKind, windowsAt } from '../../src/core/usage.js'
import { simulatorErrorOf } from '../support/server.js'
import { runs } from '../support/runs.js'

const NOW = Date.UTC(2026, 2, 11, 10) // Wednesday 2026-03-11T10:00Z

function setup(keyOptions: { limit?: number } = {}) {
  const sim = createSimulator({ world: 'empty', seed: 3, now: NOW })
  const org = sim.users.create({ name: 'Acme' })
  const { record } = sim.keys.create({ userId: org.id, ...keyOptions })
  return { sim, org, hash: record.hash }
}


describe('toUnits', () => {
  it('gives back every unit count up to 2^52 from its USD double, where exported records live', () => {
    // 2^52 units is the most one exported record carries. Half the draws come from
    // [2^18 USD, 2^52 units), where `usd * 10^10` rounds to the unit above about 7% of the time.
    const units = fc.oneof(fc.integer({ min: 0, max: 2 ** 52 }), fc.integer({ min: 2 ** 18 * 1e10, max: 2 ** 52 }))
    fc.assert(
      fc.property(units, (u) => toUnits(toUsd(u)) === u),
      { numRuns: runs(200), verbose: true },
    )
  })

  it('finds the unit below when usd * 10^10 rounds one unit too high', () => {
    // 2643215788206523 / 10^10 is the double 264321.5788206523; times 10^10 that makes
    // 2643215788206523.5 in floating point, which Math.round takes to ...524, whose USD is another double.
    expect(Math.round(264321.5788206523 * 1e10)).toBe(2643215788206524)
    expect(2643215788206524 / 1e10).not.toBe(264321.5788206523)
    expect(toUnits(264321.5788206523)).toBe(2643215788206523)
  })

  it('takes the nearest unit count when two share one USD double', () => {
    // Above 2^19 USD, doubles are 2^-33 USD (about 1.16 x 10^-10) apart: 6000000000000046 and
    // ...047 units are both 600000.0000000047 USD. The literal is nearest ...047.
    expect(6000000000000046 / 1e10).toBe(600000.0000000047)
    expect(toUnits(600000.0000000047)).toBe(6000000000000047)
  })

  it('rounds a USD amount with no exact unit count to the nearest unit', () => {
    // 0.1 + 0.2 is 0.30000000000000004, no count of 10^-10 USD; 3,000,000,000 units is nearest.
    expect(toUnits(0.1 + 0.2)).toBe(3_000_000_000)
    expect(toUnits(0.30000000000000004)).toBe(3_000_000_000)
  })
})

describe('recorded costs near the top of the exact range', () => {
  it('reads back a cost exactly as given where floating point rounds its unit count up', () => {
    const { sim, hash } = setup()
    expect(sim.usage.record({ keyHash: hash, cost: 264321.5788206523 }).usage).toBe(264321.5788206523)
  })

  it('adds 10^-10 USD to a cost whose USD double two unit counts share, to the next unit', () => {
    const { sim, hash } = setup()
    sim.usage.record({ keyHash: hash, cost: 600000.0000000047 })
    // 6000000000000047 + 1 units.
    expect(sim.usage.record({ keyHash: hash, cost: 0.0000000001 }).usage).toBe(600000.0000000048)
  })

  it('records 0.1 + 0.2 as 0.3, the nearest 10^-10 USD', () => {
    const { sim, hash } = setup()
    expect(sim.usage.record({ keyHash: hash, cost: 0.1 + 0.2 }).usage).toBe(0.3)
  })
})

describe('the exact-range check on each kind of usage', () => {
  it('refuses BYOK usage past the exact range, with a message naming BYOK usage', () => {
    const { sim, hash } = setup()
    sim.usage.record({ keyHash: hash, cost: 600_000, byok: true })
    // 600,000 + 400,000 BYOK USD is past 2^53 - 1 units (about 900,719.93 USD).
    const error = simulatorErrorOf(() => sim.usage.record({ keyHash: hash, cost: 400_000, byok: true }))
    expect(error.argument).toBe('cost')
    expect(error.message).toBe(
      `Failed to record usage: "cost" would take the key's BYOK usage past ${MAX_EXACT_USD} USD, the most kept exactly (to 10^-10 USD); got 400000.`,
    )
    expect(sim.keys.get(hash)?.byok_usage).toBe(600_000)
  })

  it('keeps regular and BYOK usage apart: each may come near the top of the range', () => {
    const { sim, hash } = setup()
    sim.usage.record({ keyHash: hash, cost: 600_000, byok: true })
    const key = sim.usage.record({ keyHash: hash, cost: 600_000 })
    expect([key.usage, key.byok_usage]).toEqual([600_000, 600_000])
    expect(sim.usage.record({ keyHash: hash, cost: 300_000, byok: true }).byok_usage).toBe(900_000)
    // 600,000 + 400,000 regular USD is past the range, whatever the BYOK total.
    expect(() => sim.usage.record({ keyHash: hash, cost: 400_000 })).toThrowError(expect.objectContaining({ argument: 'cost' }))
  })

  it('counts only the usage of the restored version of a key after a restore', () => {
    const { sim, hash } = setup()
    const empty = sim.snapshot()
    sim.usage.record({ keyHash: hash, cost: 600_000 })
    sim.usage.record({ keyHash: hash, cost: 0 })
    sim.restore(empty)
    // The restored key has no usage: 600,000 USD fits again.
    expect(sim.usage.record({ keyHash: hash, cost: 600_000 }).usage).toBe(600_000)
    const first = sim.snapshot()
    sim.usage.record({ keyHash: hash, cost: 200_000 })
    sim.usage.record({ keyHash: hash, cost: 100_000 })
    sim.restore(first)
    // 600,000 + 300,000 fits; the 300,000 recorded after the snapshot are gone with it.
    expect(sim.usage.record({ keyHash: hash, cost: 300_000 }).usage).toBe(900_000)
  })
})

describe('unitsOfKind', () => {
  const log: UsageRecord[] = [
    { at: NOW - 3, units: 5, byok: false },
    { at: NOW - 2, units: 70, byok: true },
    { at: NOW - 1, units: 300, byok: false },
    { at: NOW + 1, units: 4000, byok: true }, // not due yet: all-time sums still count it
  ]

  it('sums one kind over the first `count` records, however the counts asked for go up and down', () => {
    const records = log.map((r) => ({ ...r }))
    expect([unitsOfKind(records, 4, false), unitsOfKind(records, 4, true)]).toEqual([305, 4070])
    expect([unitsOfKind(records, 1, false), unitsOfKind(records, 1, true)]).toEqual([5, 0])
    expect([unitsOfKind(records, 2, true), unitsOfKind(records, 2, false)]).toEqual([70, 5])
    expect([unitsOfKind(records, 3, false), unitsOfKind(records, 3, true)]).toEqual([305, 70])
    expect([unitsOfKind(records, 0, false), unitsOfKind(records, 0, true)]).toEqual([0, 0])
  })
})

describe('the sums cached on a record log', () => {
  it('stay out of sight: the log still equals, and spreads like, a plain copy of its records', () => {
    const records = twoRecords()
    const plain = twoRecords()
    figuresAt(records, records.length, windowsAt(NOW))
    unitsOfKind(records, records.length, false)
    expect(records).toStrictEqual(plain)
    expect({ ...records }).toStrictEqual({ ...plain })
    expect(Object.getOwnPropertySymbols(Object.assign({}, records))).toEqual([])
  })

  function twoRecords(): UsageRecord[] {
    return [
      { at: NOW - 1, units: 5, byok: false },
      { at: NOW, units: 7, byok: true },
    ]
  }
})

describe('appendUsage', () => {
  const a: UsageRecord = { at: 1, units: 1, byok: false }
  const b: UsageRecord = { at: 2, units: 2, byok: false }
  const c: UsageRecord = { at: 3, units: 3, byok: true }

  it('appends to the log itself when the version owns all of it', () => {
    const log = [a, b]
    const out = appendUsage(log, 2, c)
    expect(out).toBe(log)
    expect(out).toEqual([a, b, c])
  })

  it('copies the prefix a version owns, leaving the records past it to the versions that own them', () => {
    const log = [a, b]
    const out = appendUsage(log, 1, c)
    expect(out).toEqual([a, c])
    expect(log).toEqual([a, b])
  })
})

describe('limit_remaining for a limit beyond the exact range', () => {
  it('is the limit less the usage in USD for a limit of 1,000,000 USD', () => {
    // 1,000,000 USD is more than the 900,719 USD kept exactly: compared in USD, 1,000,000 - 10.
    const { sim, hash } = setup({ limit: 1_000_000 })
    expect(sim.usage.record({ keyHash: hash, cost: 10 }).limit_remaining).toBe(999_990)
  })

  it('is the limit itself, not Infinity (null on the wire), for a limit of 1e300 USD', () => {
    const { sim, org, hash } = setup({ limit: 1e300 })
    expect(sim.usage.record({ keyHash: hash, cost: 5 }).limit_remaining).toBe(1e300)
    const admin = sim.keys.create({ userId: org.id, management: true }).key
    const res = sim.handle({ method: 'GET', path: `/keys/${hash}`, authorization: `Bearer ${admin}` })
    expect(res.status).toBe(200)
    expect((res.body as { data: { limit_remaining: number | null } }).data.limit_remaining).toBe(1e300)
  })
})
