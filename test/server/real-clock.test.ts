// A simulator clock that follows wall time: `createSimulator({ clock: 'real' })`, or a wall-time
// source of the test's own. The rate limiter, key expiry and usage windows then move by themselves.
import { afterEach, describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { type SimulatorServer, startServer } from '../../src/server/index.js'
import { simulatorErrorOf } from '../support/server.js'

/** A wall clock the test moves by hand. */
function fakeWall(startMs = 1_000_000): { now: () => number; tick(ms: number): void } {
  let ms = startMs
  return { now: () => ms, tick: (by) => void (ms += by) }
}

describe('a real clock', () => {
  let server: SimulatorServer | undefined
  afterEach(async () => {
    await server?.close()
    server = undefined
  })

  it('lets a client through again once it has waited the Retry-After of a 429, in real time', async () => {
    const sim = createSimulator({ clock: 'real', rateLimit: { requests: 2, intervalMs: 1_000 } })
    server = await startServer(sim, { port: 0 })
    const call = (): Promise<Response> => fetch(`${server?.url}/videos/models`)
    expect((await call()).status).toBe(200)
    expect((await call()).status).toBe(200)
    const limited = await call()
    expect(limited.status).toBe(429)
    const retryAfter = Number(limited.headers.get('retry-after'))
    expect(retryAfter).toBe(1)
    await new Promise((done) => setTimeout(done, retryAfter * 1_000 + 50))
    expect((await call()).status).toBe(200)
  })

  it('starts at the given instant and moves as wall time does', () => {
    const wall = fakeWall()
    const sim = createSimulator({ world: 'empty', now: '2026-03-02T10:00:00Z', clock: wall.now })
    expect(sim.clock.mode).toBe('real')
    wall.tick(1_500)
    expect(sim.clock.now().toISOString()).toBe('2026-03-02T10:00:01.500Z')
  })

  it('still jumps with set and advance, and goes on from there', () => {
    const wall = fakeWall()
    const sim = createSimulator({ world: 'empty', now: '2026-03-02T10:00:00Z', clock: wall.now })
    sim.clock.set('2026-03-02T23:59:59Z')
    wall.tick(2_000)
    expect(sim.clock.now().toISOString()).toBe('2026-03-03T00:00:01.000Z')
    sim.clock.advance(60_000)
    wall.tick(1)
    expect(sim.clock.now().toISOString()).toBe('2026-03-03T00:01:01.001Z')
  })

  it('expires a key and rolls the usage day as wall time passes', () => {
    const wall = fakeWall()
    const sim = createSimulator({ world: 'empty', now: '2026-03-02T23:59:00Z', clock: wall.now })
    const org = sim.users.create({ name: 'Acme' })
    const admin = sim.keys.create({ userId: org.id, management: true, expiresAt: '2026-03-03T00:00:30Z' })
    const app = sim.keys.create({ userId: org.id })
    sim.usage.record({ keyHash: app.record.hash, cost: 2 })
    const list = () => sim.handle({ method: 'GET', path: `/keys/${app.record.hash}`, authorization: `Bearer ${admin.key}` })
    expect((list().body as { data: { usage_daily: number } }).data.usage_daily).toBe(2)
    wall.tick(60_000) // 00:00:00 the next day
    expect((list().body as { data: { usage_daily: number; usage: number } }).data).toMatchObject({ usage_daily: 0, usage: 2 })
    wall.tick(30_000) // 00:00:30: the key's expiry
    expect(list().status).toBe(401)
  })

  it('goes on from a restored snapshot and from a reset, rather than jumping back to wall time', () => {
    const wall = fakeWall()
    const sim = createSimulator({ world: 'empty', now: '2026-03-02T10:00:00Z', clock: wall.now })
    wall.tick(5_000)
    const saved = sim.snapshot()
    expect(saved.clockMs).toBe(Date.parse('2026-03-02T10:00:05Z'))
    wall.tick(60_000)
    sim.restore(saved)
    expect(sim.clock.now().toISOString()).toBe('2026-03-02T10:00:05.000Z')
    wall.tick(1_000)
    expect(sim.clock.now().toISOString()).toBe('2026-03-02T10:00:06.000Z')
    sim.reset()
    expect(sim.clock.now().toISOString()).toBe('2026-03-02T10:00:00.000Z')
    wall.tick(10)
    expect(sim.clock.now().toISOString()).toBe('2026-03-02T10:00:00.010Z')
  })

  it('never runs backwards when wall time does', () => {
    const wall = fakeWall()
    const sim = createSimulator({ world: 'empty', now: '2026-03-02T10:00:00Z', clock: wall.now })
    wall.tick(-5_000)
    expect(sim.clock.now().toISOString()).toBe('2026-03-02T10:00:00.000Z')
  })

  it('counts a real latency once: the wait moves the clock, the router does not jump it too', () => {
    const wall = fakeWall()
    const sim = createSimulator({ now: '2026-03-02T10:00:00Z', clock: wall.now })
    sim.latency.set({ ms: 500, real: true })
    const res = sim.handle({ method: 'GET', path: '/videos/models' })
    expect([res.delayMs, res.realDelay]).toEqual([500, true])
    expect(sim.clock.now().toISOString()).toBe('2026-03-02T10:00:00.000Z')
    // A simulated delay still jumps a real clock.
    sim.latency.set({ ms: 500 })
    sim.handle({ method: 'GET', path: '/videos/models' })
    expect(sim.clock.now().toISOString()).toBe('2026-03-02T10:00:00.500Z')
  })

  it('is virtual by default, and refuses an unknown mode naming "clock"', () => {
    const sim = createSimulator({ world: 'empty' })
    expect(sim.clock.mode).toBe('virtual')
    const before = sim.clock.nowMs()
    expect(sim.clock.nowMs()).toBe(before)
    expect(simulatorErrorOf(() => createSimulator({ clock: 'wall' as never })).argument).toBe('clock')
    expect(createSimulator({ world: 'empty', clock: 'real' }).clock.mode).toBe('real')
  })
})
