// Whole pages of GET /keys are kept while nothing they show can differ (store/keys.ts, KeyPages).
// Each case here changes one thing a kept page depends on, and checks the page follows it.
import { describe, expect, it } from 'vitest'
import { payloadOf } from '../../src/core/operations/operation.js'
import { createSimulator } from '../../src/index.js'

const page = (sim: ReturnType<typeof createSimulator>) =>
  (sim.handle({ method: 'GET', path: '/keys', authorization: `Bearer ${sim.world.managementKey}`, query: 'include_disabled=true' }).body as { data: { hash: string; usage_daily: number; name: string }[] }).data

describe('kept pages of GET /keys', () => {
  it('follow a record dated later falling due as the clock reaches it, and going back before it', () => {
    const sim = createSimulator()
    const hash = page(sim)[0]!.hash
    sim.usage.record({ keyHash: hash, cost: 2, at: new Date(sim.clock.now().getTime() + 60_000) })
    const before = page(sim).find((k) => k.hash === hash)!.usage_daily
    expect(page(sim).find((k) => k.hash === hash)!.usage_daily).toBe(before) // kept
    sim.clock.advance(60_000)
    expect(page(sim).find((k) => k.hash === hash)!.usage_daily).toBe(before + 2)
    sim.clock.set(new Date(sim.clock.now().getTime() - 30_000))
    expect(page(sim).find((k) => k.hash === hash)!.usage_daily).toBe(before)
  })

  it('follow every kind of change to a listed key, and a new day', () => {
    const sim = createSimulator({ now: '2026-03-02T23:59:00Z' })
    const hash = page(sim)[0]!.hash
    sim.usage.record({ keyHash: hash, cost: 1 })
    expect(page(sim).find((k) => k.hash === hash)!.usage_daily).toBeGreaterThanOrEqual(1)
    sim.clock.advance(120_000) // past midnight UTC: today's usage is 0 again
    expect(page(sim).find((k) => k.hash === hash)!.usage_daily).toBe(0)
    sim.keys.update(hash, { name: 'renamed' })
    expect(page(sim).find((k) => k.hash === hash)!.name).toBe('renamed')
    const made = sim.keys.create({ userId: sim.world.userId, name: 'newest' })
    expect(page(sim)[0]!.hash).toBe(made.record.hash)
  })

  it('follow snapshots, resets and a restore of another simulator’s state', () => {
    const sim = createSimulator()
    const first = page(sim)
    const snap = sim.snapshot()
    sim.keys.update(first[0]!.hash, { name: 'changed here' })
    expect(page(sim)[0]!.name).toBe('changed here')
    sim.restore(snap)
    expect(page(sim)).toEqual(first)
    // Another simulator with the same number of changes, but other ones.
    const other = createSimulator()
    other.keys.update(first[0]!.hash, { name: 'changed there' })
    sim.keys.update(first[1]!.hash, { name: 'changed here too' })
    page(sim)
    sim.restore(other.snapshot())
    expect(page(sim)[0]!.name).toBe('changed there')
    expect(page(sim)[1]!.name).toBe(first[1]!.name)
    sim.reset()
    expect(page(sim)).toEqual(first)
  })

  it('make again only the keys that changed, and follow a key leaving the enabled list', () => {
    const sim = createSimulator()
    const enabled = () =>
      (sim.handle({ method: 'GET', path: '/keys', authorization: `Bearer ${sim.world.managementKey}` }).body as { data: { hash: string; usage: number }[] }).data
    const first = enabled()
    const [a, b] = [first[0]!.hash, first[1]!.hash]
    for (let i = 1; i <= 5; i++) {
      sim.usage.record({ keyHash: a, cost: 0.5 })
      const now = enabled()
      expect(now.find((k) => k.hash === a)!.usage).toBeCloseTo(first[0]!.usage + 0.5 * i, 6)
      expect(now.slice(1)).toEqual(first.slice(1))
    }
    // A key elsewhere (another workspace) changes: the page is the same.
    const elsewhere = sim.keys.create({ userId: sim.world.userId, workspaceId: sim.world.workspaces.staging, name: 'staging key' })
    const before = enabled()
    sim.usage.record({ keyHash: elsewhere.record.hash, cost: 3 })
    expect(enabled()).toEqual(before)
    // Disabled: it leaves the enabled list, and the next key moves up.
    sim.keys.update(b, { disabled: true })
    expect(enabled().map((k) => k.hash)).not.toContain(b)
    sim.keys.update(b, { disabled: false })
    expect(enabled().map((k) => k.hash)).toContain(b)
  })

  it('stay kept, the very same payload, while only another workspace\'s keys are made, disabled or deleted', () => {
    const sim = createSimulator()
    const get = () => sim.handle({ method: 'GET', path: '/keys', authorization: `Bearer ${sim.world.managementKey}` })
    const first = payloadOf(get())
    expect(first).toBeDefined()
    const staging = sim.world.workspaces.staging
    const made = sim.keys.create({ userId: sim.world.userId, workspaceId: staging, name: 'staging key' })
    sim.keys.update(made.record.hash, { disabled: true })
    sim.keys.update(made.record.hash, { disabled: false })
    expect(payloadOf(get())).toBe(first)
    // The same kinds of change in the page's own workspace make it again.
    const here = sim.keys.create({ userId: sim.world.userId, name: 'default key' })
    const second = get()
    expect(payloadOf(second)).not.toBe(first)
    expect((second.body as { data: { hash: string }[] }).data[0]!.hash).toBe(here.record.hash)
  })
})
