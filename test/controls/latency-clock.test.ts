// Latency rules and the simulator clock: a delay passes on the clock exactly once. A virtual clock
// jumps by it (`real: true` or not); a real clock jumps by a simulated delay but not by a real one,
// which the adapter's own wait moves it through. At the end of the Date range (8.64e15 ms) the clock
// stays where it is rather than the request throwing.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createSimulator, type SimResponse } from '../../src/index.js'
import { runs } from '../support/runs.js'

type Sim = ReturnType<typeof createSimulator>

const LAST_INSTANT_MS = 8.64e15

const listVideoModels = (sim: Pick<Sim, 'handle'>): SimResponse => sim.handle({ method: 'GET', path: '/videos/models' })
const listKeys = (sim: Sim): SimResponse => sim.handle({ method: 'GET', path: '/keys', authorization: `Bearer ${sim.world.managementKey}` })

/** A wall clock the test moves by hand, standing in for the real waits an adapter makes. */
function fakeWall(startMs = 1_000_000): { now: () => number; tick(ms: number): void } {
  let ms = startMs
  return { now: () => ms, tick: (by) => void (ms += by) }
}

describe('a real latency on a virtual clock', () => {
  it('advances the clock by the delay too, as nothing else would move it', () => {
    const sim = createSimulator()
    sim.latency.set({ ms: 400, real: true })
    sim.latency.set({ operation: 'listKeys', ms: 1_000, real: true })
    const start = sim.clock.nowMs()
    const videos = listVideoModels(sim)
    expect([videos.status, videos.delayMs, videos.realDelay]).toEqual([200, 400, true])
    expect(sim.clock.nowMs()).toBe(start + 400)
    const keys = listKeys(sim)
    expect([keys.status, keys.delayMs, keys.realDelay]).toEqual([200, 1_000, true])
    expect(sim.clock.nowMs()).toBe(start + 1_400)
    expect(sim.journal.list().map((e) => [e.at, e.delayMs])).toEqual([
      [new Date(start).toISOString(), 400],
      [new Date(start + 400).toISOString(), 1_000],
    ])
  })

  it('advances it by each drawn delay of a ranged rule', () => {
    const sim = createSimulator()
    sim.latency.set({ ms: [5, 50], real: true })
    for (let i = 0; i < 20; i++) {
      const before = sim.clock.nowMs()
      const { delayMs } = listVideoModels(sim)
      expect(delayMs).toBeGreaterThanOrEqual(5)
      expect(sim.clock.nowMs() - before).toBe(delayMs)
    }
  })
})

describe('latency on a real clock', () => {
  it('counts a real delay once: after the wait the adapter makes, the clock is the delay ahead, not twice it', () => {
    const wall = fakeWall()
    const sim = createSimulator({ now: '2026-03-02T10:00:00Z', clock: wall.now })
    sim.latency.set({ ms: 750, real: true })
    for (let i = 1; i <= 3; i++) {
      const response = listVideoModels(sim)
      expect([response.delayMs, response.realDelay]).toEqual([750, true])
      // The router left the clock alone: the wait is the adapter's.
      expect(sim.clock.nowMs()).toBe(Date.parse('2026-03-02T10:00:00Z') + 750 * (i - 1))
      wall.tick(response.delayMs ?? 0)
      expect(sim.clock.nowMs()).toBe(Date.parse('2026-03-02T10:00:00Z') + 750 * i)
    }
  })

  it('jumps the clock by a simulated delay, which no one waits for', () => {
    const wall = fakeWall()
    const sim = createSimulator({ now: '2026-03-02T10:00:00Z', clock: wall.now })
    sim.latency.set({ ms: 250 })
    sim.latency.set({ operation: 'listKeys', ms: 600, real: true })
    const videos = listVideoModels(sim)
    expect([videos.delayMs, 'realDelay' in videos]).toEqual([250, false])
    expect(sim.clock.now().toISOString()).toBe('2026-03-02T10:00:00.250Z')
    // A real rule for one operation leaves the other operations' simulated delay as it was.
    expect(listKeys(sim).realDelay).toBe(true)
    expect(sim.clock.now().toISOString()).toBe('2026-03-02T10:00:00.250Z')
    wall.tick(600)
    expect(sim.clock.now().toISOString()).toBe('2026-03-02T10:00:00.850Z')
  })
})

describe('a wall time source that throws', () => {
  it('counts as no time passing: requests are answered, and the clock goes on once the source recovers', () => {
    let ms = 1_000_000
    let broken = false
    const sim = createSimulator({ now: '2026-03-02T10:00:00Z', clock: () => (broken ? (() => { throw new Error('no time source') })() : ms) })
    ms += 500
    expect(sim.clock.now().toISOString()).toBe('2026-03-02T10:00:00.500Z')
    broken = true
    ms += 300
    const response = listVideoModels(sim)
    expect(response.status).toBe(200)
    expect(sim.clock.now().toISOString()).toBe('2026-03-02T10:00:00.500Z')
    expect(sim.journal.list().at(-1)?.at).toBe('2026-03-02T10:00:00.500Z')
    broken = false
    expect(sim.clock.now().toISOString()).toBe('2026-03-02T10:00:00.800Z')
  })

  it('throwing from the start leaves the clock at now', () => {
    const sim = createSimulator({ now: '2026-03-02T10:00:00Z', clock: () => { throw new Error('no time source') } })
    expect(listKeys(sim).status).toBe(200)
    expect(sim.clock.now().toISOString()).toBe('2026-03-02T10:00:00.000Z')
  })
})

describe('latency at the end of the Date range', () => {
  it('reaches the last instant exactly when the delay ends there', () => {
    const sim = createSimulator()
    sim.clock.set(LAST_INSTANT_MS - 250)
    sim.latency.set({ ms: 250 })
    const response = listVideoModels(sim)
    expect([response.status, response.delayMs]).toEqual([200, 250])
    expect(sim.clock.nowMs()).toBe(LAST_INSTANT_MS)
    expect(sim.clock.now().toISOString()).toBe('+275760-09-13T00:00:00.000Z')
  })

  it('leaves the clock where it is, and still answers, when the delay would pass the last instant', () => {
    const sim = createSimulator()
    sim.clock.set(LAST_INSTANT_MS - 100)
    sim.latency.set({ ms: 250 })
    let response: SimResponse | undefined
    expect(() => (response = listVideoModels(sim))).not.toThrow()
    expect(response?.status).toBe(200)
    expect(response?.delayMs).toBe(250)
    expect(sim.clock.nowMs()).toBe(LAST_INSTANT_MS - 100)
    // At the last instant itself, every delayed request leaves it there, errors included.
    sim.clock.set(LAST_INSTANT_MS)
    expect(listKeys(sim).status).toBe(200)
    expect(sim.handle({ method: 'GET', path: '/keys' }).status).toBe(401)
    expect(sim.clock.nowMs()).toBe(LAST_INSTANT_MS)
    expect(sim.journal.list().map((e) => [e.status, e.delayMs])).toEqual([
      [200, 250],
      [200, 250],
      [401, 250],
    ])
  })

  it('moves the clock by the delay exactly when the result is a Date, for any instant near the end and any delay', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2_000 }), fc.integer({ min: 1, max: 2_000 }), fc.boolean(), (before, ms, real) => {
        const sim = createSimulator({ world: 'empty' })
        const start = LAST_INSTANT_MS - before
        sim.clock.set(start)
        sim.latency.set({ ms, real })
        const response = listVideoModels(sim)
        expect(response.status).toBe(200)
        expect(response.delayMs).toBe(ms)
        expect(sim.clock.nowMs()).toBe(ms <= before ? start + ms : start)
      }),
      { numRuns: runs(100) },
    )
  })
})
