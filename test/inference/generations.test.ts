// Step 9: generations, kept per simulator in a bounded store that snapshots, restore and reset cover.
import { describe, expect, it } from 'vitest'
import { GENERATION_LIMIT, generationOf, recordGeneration } from '../../src/core/store/generations.js'
import type { StoreContext } from '../../src/core/store/context.js'
import { StoreIndices, emptyStoreData } from '../../src/core/store/state.js'
import { createSimulator } from '../../src/index.js'
import { MODEL, chat, chatWorld, generation } from './support.js'

describe('generations', () => {
  it('come back from GET /generation with the answer\'s figures, to any key of the organisation only', () => {
    const { sim, key, org } = chatWorld()
    const answer = chat(sim, key, { model: MODEL, user: 'customer-7' })
    const { data } = generation(sim, sim.keys.create({ userId: org.id }).key, answer.body.id).body
    expect(data).toMatchObject({
      id: answer.body.id,
      model: MODEL,
      provider_name: answer.body.provider,
      total_cost: answer.body.usage.cost,
      usage: answer.body.usage.cost,
      tokens_prompt: answer.body.usage.prompt_tokens,
      tokens_completion: answer.body.usage.completion_tokens,
      streamed: false,
      cancelled: false,
      finish_reason: 'stop',
      external_user: 'customer-7',
      created_at: '2026-03-02T10:00:00.000000+00:00',
    })
    expect(data.latency).toBeGreaterThan(0)
    expect(data.generation_time).toBeGreaterThan(0)
    const otherOrg = sim.users.create({ name: 'Globex', credits: { total: 10_000 } })
    const stranger = sim.keys.create({ userId: otherOrg.id }).key
    expect(generation(sim, stranger, answer.body.id).body.error).toEqual({ code: 404, message: 'Resource not found', metadata: { resource: 'generation' } })
    expect(generation(sim, key, '').body.error.metadata).toMatchObject({ parameter: 'id' })
  })

  it('follow snapshots, restores and reset, like every other row of the store', () => {
    const sim = createSimulator()
    const key = sim.world.apiKey
    const model = sim.world.models.paid
    const first = chat(sim, key, { model }).body.id
    const saved = sim.snapshot()
    const second = chat(sim, key, { model }).body.id
    sim.restore(saved)
    expect(generation(sim, key, first).status).toBe(200)
    expect(generation(sim, key, second).status).toBe(404)
    // The same request again draws the same id: the random state was restored too.
    expect(chat(sim, key, { model }).body.id).toBe(second)
    const other = createSimulator({ world: 'empty' })
    other.restore(sim.snapshot())
    expect(generation(other, key, second).status).toBe(200)
    sim.reset()
    expect(generation(sim, key, first).status).toBe(404)
    expect(generation(other, key, first).status).toBe(200)
  })

  it('keep the latest GENERATION_LIMIT, letting the oldest go first', () => {
    expect(GENERATION_LIMIT).toBe(10_000)
    const data = emptyStoreData()
    const ctx = { data, indices: StoreIndices.build(data) } as unknown as StoreContext
    const facts = (id: string) => ({ id }) as never
    for (let i = 1; i <= 5; i++) recordGeneration(ctx, { userId: 'u', keyHash: 'k', cost: '0', units: 0, facts: facts(`gen-${i}`) }, 3)
    expect([...data.generations.keys()].sort()).toEqual(['gen-3', 'gen-4', 'gen-5'])
    expect(generationOf(ctx, 'gen-2', 'u')).toBeUndefined()
    expect(generationOf(ctx, 'gen-5', 'u')?.seq).toBe(5)
    expect(generationOf(ctx, 'gen-5', 'someone else')).toBeUndefined()
  })

  it('read long after the completion, show what they would have shown at once', () => {
    // The wire record is made on first read, from facts kept at the completion: whatever happens
    // between (the clock, the key's workspace and name, other completions, faults), it is the same.
    const now = chatWorld()
    const later = chatWorld()
    const ids = [now, later].map(({ sim, key }) => [chat(sim, key, { model: MODEL, user: 'u-1' }).body.id, chat(sim, key, { model: MODEL, stream: false }).body.id])
    expect(ids[0]).toEqual(ids[1])
    const read = (w: typeof now) => (ids[0] as string[]).map((id) => generation(w.sim, w.key, id).body)
    const atOnce = read(now)
    const hash = later.sim.keys.list().find((k) => k.label !== undefined && later.key.endsWith(k.label.slice(-3)))?.hash
    later.sim.clock.advance(3 * 86_400_000)
    if (hash !== undefined) later.sim.keys.update(hash, { name: 'renamed' })
    later.sim.faults.providerDown({ provider: 'Beta' })
    for (let i = 0; i < 5; i++) chat(later.sim, later.key, { model: MODEL })
    expect(read(later)).toStrictEqual(atOnce)
  })
})
