import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createSimulator, type SimRequest } from '../../src/index.js'
import { runs } from '../support/runs.js'

type Sim = ReturnType<typeof createSimulator>

/** Every read of the six operations a management caller can make in the default world. */
function everyRead(sim: Sim): unknown[] {
  const auth = `Bearer ${sim.world.managementKey}`
  const requests: SimRequest[] = [
    ...Object.values(sim.world.workspaces).map((id) => ({ method: 'GET', path: '/keys', query: `include_disabled=true&workspace_id=${id}`, authorization: auth })),
    ...sim.keys.list().map((k) => ({ method: 'GET', path: `/keys/${k.hash}`, authorization: auth })),
    ...sim.models.list().map((m) => ({ method: 'GET', path: `/models/${m.id}/endpoints`, authorization: auth })),
    ...sim.files.list().map((f) => ({ method: 'GET', path: `/files/${f.id}/content`, query: `workspace_id=${f.workspaceId}${f.provider ? `&provider=${f.provider}` : ''}`, authorization: auth })),
    ...Object.values(sim.world.workspaces).map((id) => ({ method: 'GET', path: `/workspaces/${id}`, authorization: auth })),
    { method: 'GET', path: '/videos/models' },
  ]
  return requests.map((request) => sim.handle(request))
}

describe('determinism', () => {
  it('gives byte-identical responses for the same seed', () => {
    expect(JSON.stringify(everyRead(createSimulator({ seed: 7 })))).toBe(JSON.stringify(everyRead(createSimulator({ seed: 7 }))))
  })

  it('gives different ids and secrets for a different seed, in the same default world', () => {
    const a = createSimulator({ seed: 1 })
    const b = createSimulator({ seed: 2 })
    // The embedded world is generateWorld({ seed: 42 }) whatever the simulator's seed...
    expect(a.world).toEqual(b.world)
    expect(a.keys.list()).toEqual(b.keys.list())
    // ...and the seed drives everything generated after it.
    const [keyA, keyB] = [a, b].map((sim) => sim.keys.create({ userId: sim.world.userId }))
    expect(keyA?.key).not.toBe(keyB?.key)
    expect(keyA?.record.hash).not.toBe(keyB?.record.hash)
    expect(a.workspaces.create({ userId: a.world.userId, name: 'New' }).id).not.toBe(b.workspaces.create({ userId: b.world.userId, name: 'New' }).id)
  })

  it('starts the clock at the documented default instant', () => {
    expect(createSimulator().clock.now().toISOString()).toBe('2026-03-02T10:00:00.000Z')
  })
})

describe('snapshot, restore and reset', () => {
  it('restores a snapshot exactly: store, clock and random state', () => {
    const sim = createSimulator()
    const saved = sim.snapshot()
    const before = JSON.stringify(everyRead(sim))
    const org = sim.users.create({ name: 'Later' })
    sim.keys.create({ userId: org.id })
    sim.keys.create({ userId: sim.world.userId, name: 'added after the snapshot' })
    sim.clock.advance(86_400_000)
    sim.restore(saved)
    // The state is the snapshot's again, so a snapshot now is the same handle.
    expect(sim.snapshot()).toBe(saved)
    expect(JSON.stringify(everyRead(sim))).toBe(before)
    expect(sim.clock.now().toISOString()).toBe('2026-03-02T10:00:00.000Z')
    expect(sim.keys.list().some((k) => k.name === 'added after the snapshot')).toBe(false)
  })

  it('replays the same ids after a restore', () => {
    const sim = createSimulator()
    const saved = sim.snapshot()
    const first = sim.keys.create({ userId: sim.world.userId })
    sim.restore(saved)
    expect(sim.keys.create({ userId: sim.world.userId })).toEqual(first)
  })

  it('keeps its state through later changes, other snapshots and restores on either side of it', () => {
    const sim = createSimulator()
    const read = (): string => JSON.stringify(everyRead(sim))
    const saved = sim.snapshot()
    const atSaved = read()
    sim.keys.create({ userId: sim.world.userId, name: 'branch one' })
    sim.usage.record({ keyHash: sim.world.apiKeyHash, cost: 1.5 })
    sim.clock.advance(3_600_000)
    const one = sim.snapshot()
    const atOne = read()
    sim.keys.create({ userId: sim.world.userId, name: 'branch one, later' })
    const later = sim.snapshot()
    const atLater = read()
    sim.restore(saved)
    expect(read()).toBe(atSaved)
    // A second branch from the same state, then back and forth between the branches.
    sim.keys.create({ userId: sim.world.userId, name: 'branch two' })
    sim.usage.record({ keyHash: sim.world.apiKeyHash, cost: 7 })
    const two = sim.snapshot()
    const atTwo = read()
    expect(atTwo).not.toBe(atOne)
    sim.restore(later)
    expect(read()).toBe(atLater)
    sim.restore(two)
    expect(read()).toBe(atTwo)
    sim.restore(one)
    expect(read()).toBe(atOne)
    sim.reset()
    sim.restore(later)
    expect(read()).toBe(atLater)
    expect(saved.clockMs).toBe(Date.parse('2026-03-02T10:00:00Z'))
  })

  it('resets to the seeded baseline, clock included', () => {
    const sim = createSimulator()
    const baseline = JSON.stringify(everyRead(sim))
    sim.clock.set('2030-01-01T00:00:00Z')
    sim.models.create({ id: 'acme/new' })
    sim.reset()
    expect(JSON.stringify(everyRead(sim))).toBe(baseline)
    expect(sim.models.get('acme/new')).toBeUndefined()
    expect(sim.clock.nowMs()).toBe(Date.parse('2026-03-02T10:00:00Z'))
  })

  it('moves a state from one simulator to another', () => {
    const source = createSimulator({ world: 'empty' })
    const org = source.users.create({ name: 'Moved' })
    const admin = source.keys.create({ userId: org.id, management: true })
    const target = createSimulator({ world: 'empty' })
    target.restore(source.snapshot())
    expect(target.handle({ method: 'GET', path: '/keys', authorization: `Bearer ${admin.key}` }).status).toBe(200)
  })

  it('serves pages from the rebuilt index after a restore', () => {
    const sim = createSimulator({ world: 'empty' })
    const org = sim.users.create()
    const admin = sim.keys.create({ userId: org.id, management: true })
    for (let i = 0; i < 150; i++) sim.keys.create({ userId: org.id, name: `k${i}`, createdAt: Date.parse('2026-01-01T00:00:00Z') + i })
    const saved = sim.snapshot()
    sim.reset()
    sim.restore(saved)
    const page = sim.handle({ method: 'GET', path: '/keys', query: 'offset=100', authorization: `Bearer ${admin.key}` })
    expect((page.body as { data: { name: string }[] }).data.map((k) => k.name)).toEqual(Array.from({ length: 50 }, (_, i) => `k${49 - i}`))
  })
})

describe('isolation', () => {
  it('shares nothing between two simulators in one process', () => {
    const a = createSimulator()
    const b = createSimulator()
    a.keys.create({ userId: a.world.userId, name: 'only in a' })
    a.clock.advance(1000)
    a.models.create({ id: 'only/in-a' })
    expect(b.keys.list().some((k) => k.name === 'only in a')).toBe(false)
    expect(b.models.get('only/in-a')).toBeUndefined()
    expect(b.clock.nowMs()).toBe(a.clock.nowMs() - 1000)
    // a's secrets mean nothing to b.
    const aOnly = a.keys.create({ userId: a.world.userId, management: true, secret: 'sk-or-v1-only-in-a' })
    expect(b.handle({ method: 'GET', path: '/keys', authorization: `Bearer ${aOnly.key}` }).status).toBe(401)
  })
})

describe('the router never throws', () => {
  it('answers a request without a method with a 400 envelope naming it and journals it, never throwing', () => {
    const sim = createSimulator()
    const res = sim.handle({ path: '/keys' } as unknown as SimRequest)
    expect(res.status).toBe(400)
    expect((res.body as { error: { metadata: unknown } }).error.metadata).toEqual({ parameter: 'method', reason: 'must be a string such as "GET"' })
    expect(sim.journal.list().map((entry) => [entry.method, entry.status])).toEqual([['', 400]])
  })

  it('turns an internal failure into a 500 envelope', () => {
    const sim = createSimulator()
    // A query that throws when an operation reads it stands in for any bug below the router.
    class Hostile extends URLSearchParams {
      override getAll(): string[] {
        throw new Error('boom')
      }
    }
    const res = sim.handle({ method: 'GET', path: '/keys', authorization: `Bearer ${sim.world.managementKey}`, query: new Hostile() })
    expect(res.status).toBe(500)
    expect(res.body).toEqual({ error: { code: 500, message: 'Internal Server Error', metadata: { reason: 'boom' } }, user_id: sim.world.userId })
  })
})

describe('the default world at any starting clock', () => {
  it('loads, and every key’s figures nest: daily within weekly and monthly, both within all-time usage', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2100, 0, 1) }), (nowMs) => {
        const sim = createSimulator({ now: nowMs })
        for (const key of sim.keys.list()) {
          expect(key.usage_daily).toBeLessThanOrEqual(key.usage_weekly)
          expect(key.usage_daily).toBeLessThanOrEqual(key.usage_monthly)
          expect(Math.max(key.usage_weekly, key.usage_monthly)).toBeLessThanOrEqual(key.usage)
          expect(key.byok_usage_daily).toBeLessThanOrEqual(Math.min(key.byok_usage_weekly, key.byok_usage_monthly))
        }
      }),
      // fast-check prints the seed and path of a failing run; pass them back as { seed, path } to replay it.
      { numRuns: runs(30), verbose: true },
    )
  })
})
