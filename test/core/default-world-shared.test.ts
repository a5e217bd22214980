// The default world is loaded once per process and shared (decisions/0057): a simulator made after
// the first gets a copy of the loaded tables and the seeded stream where the load left it. Nothing
// observable may change: the same seed gives the same bytes whether the world was read from its
// spec or copied, writes in one simulator never show in another (the shared rows included), and
// snapshot, restore and reset behave as before.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'

type Sim = ReturnType<typeof createSimulator>

/** A seed no other test of this file uses, so that its first simulator reads the spec. */
let nextSeed = 7_000_001
const freshSeed = (): number => nextSeed++

const post = (sim: Sim, secret: string, path: string, body: unknown) => sim.handle({ method: 'POST', path, authorization: `Bearer ${secret}`, body: JSON.stringify(body) })

/** Requests whose answers depend on the store, the seeded stream and the clock: their bodies as text. */
function transcript(sim: Sim): string[] {
  const out: string[] = []
  const text = (res: { status: number; body: unknown }) => out.push(`${res.status} ${JSON.stringify(res.body)}`)
  text(post(sim, sim.world.apiKey, '/chat/completions', { model: sim.world.models.paid, messages: [{ role: 'user', content: 'Hello there' }] }))
  text(post(sim, sim.world.managementKey, '/keys', { name: 'New key', limit: 5 }))
  text(post(sim, sim.world.managementKey, '/guardrails', { name: 'Fresh', allowed_models: [sim.world.models.paid] }))
  text(sim.handle({ method: 'GET', path: '/keys', authorization: `Bearer ${sim.world.managementKey}` }))
  text(sim.handle({ method: 'GET', path: '/credits', authorization: `Bearer ${sim.world.managementKey}` }))
  return out
}

/** A write of each kind a test makes to the default world's own records. */
const WRITES: readonly ((sim: Sim) => void)[] = [
  (sim) => void post(sim, sim.world.apiKey, '/chat/completions', { model: sim.world.models.paid, messages: [{ role: 'user', content: 'Spend' }] }),
  (sim) => void sim.usage.record({ keyHash: sim.world.apiKeyHash, cost: 1.25 }),
  (sim) => void sim.keys.update(sim.world.apiKeyHash, { name: 'Renamed', limit: 7 }),
  (sim) => void (sim.keys.get(sim.world.keys.expired) && sim.keys.delete(sim.world.keys.expired)),
  (sim) => void sim.guardrails.update(sim.workspaces.get(sim.world.workspaces.staging)!.default_guardrail_id, { limit_usd: 2, reset_interval: 'daily' }),
  (sim) => void sim.workspaces.update(sim.world.workspaces.research, { name: 'Research (renamed)' }),
  (sim) => void sim.credits.add({ userId: sim.world.userId, amount: 10 }),
  (sim) => void sim.budgets.set({ workspace: sim.world.workspaces.staging, interval: 'monthly', limitUsd: 40 }),
  (sim) => void sim.clock.advance(86_400_000),
]

describe('the default world, loaded once per process', () => {
  it('gives the same bytes whether a simulator read the spec or copied the load', () => {
    const seed = freshSeed()
    const read = createSimulator({ seed })
    const copied = createSimulator({ seed })
    expect(copied.world).toEqual(read.world)
    expect(copied.exportWorld()).toEqual(read.exportWorld())
    expect(transcript(copied)).toEqual(transcript(read))
    // A clock shift is a load of its own.
    const later = { seed, now: '2026-06-01T00:00:00.000Z' }
    expect(transcript(createSimulator(later))).toEqual(transcript(createSimulator(later)))
  })

  it('never shows one simulator\u2019s writes in another, the shared records included (fast-check)', () => {
    const seed = Number(process.env['FC_SEED'] ?? Date.now() % 2 ** 31)
    console.log(`default-world sharing fast-check seed ${seed} (FC_SEED=${seed} replays it)`)
    const worldSeed = freshSeed()
    const pristine = createSimulator({ seed: worldSeed }).exportWorld()
    const pristineText = JSON.stringify(pristine)
    // Compared as text first (a deep comparison of two exports of the default world is most of the
    // test's time), and deeply only when they differ, for the diff.
    const expectSame = (actual: unknown, expected: unknown, expectedText = JSON.stringify(expected)): void => {
      if (JSON.stringify(actual) !== expectedText) expect(actual).toEqual(expected)
    }
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: WRITES.length - 1 }), { minLength: 1, maxLength: 8 }), (writes) => {
        const before = createSimulator({ seed: worldSeed })
        const writer = createSimulator({ seed: worldSeed })
        for (const w of writes) (WRITES[w] as (sim: Sim) => void)(writer)
        const after = createSimulator({ seed: worldSeed })
        expectSame(before.exportWorld(), pristine, pristineText)
        expectSame(after.exportWorld(), pristine, pristineText)
        // And the other way: the writer's state is its own, made by the writes alone.
        for (const w of writes) (WRITES[w] as (sim: Sim) => void)(before)
        expectSame(before.exportWorld(), writer.exportWorld())
      }),
      { seed, numRuns: 40 },
    )
  })

  it('snapshot, restore and reset work as before on a copied load', () => {
    const seed = freshSeed()
    createSimulator({ seed })
    const sim = createSimulator({ seed })
    // A restore brings a deleted record back after the others (as it always has): compare as sets.
    const state = (s: Sim) => {
      const spec = s.exportWorld()
      return { ...spec, keys: [...(spec.keys ?? [])].sort((a, b) => (a.secret < b.secret ? -1 : 1)) }
    }
    const start = state(sim)
    const snap = sim.snapshot()
    for (const write of WRITES) write(sim)
    expect(state(sim)).not.toEqual(start)
    sim.restore(snap)
    expect(state(sim)).toEqual(start)
    for (const write of WRITES.slice(0, 3)) write(sim)
    sim.reset()
    expect(state(sim)).toEqual(start)
    expect(transcript(sim)).toEqual(transcript(createSimulator({ seed })))
  })
})
