// The default world's models are built once per process and shared, frozen, by every simulator
// that loads it (decisions/0041). Nothing a test can see may differ from a world built afresh.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { defaultWorld } from '../../src/core/worlds/default.js'
import { runs } from '../support/runs.js'

const chat = (key: string, model: string) => ({
  method: 'POST' as const,
  path: '/chat/completions',
  authorization: `Bearer ${key}`,
  body: JSON.stringify({ model, messages: [{ role: 'user', content: 'Hello' }], max_tokens: 20 }),
})

/** What a simulator shows of its models and what it draws next: the catalog, a completion, a new key. */
function observe(sim: ReturnType<typeof createSimulator>): unknown {
  const answers = [
    sim.handle({ method: 'GET', path: '/models', query: 'output_modalities=all' }),
    sim.handle({ method: 'GET', path: `/models/${sim.world.models.paid}/endpoints`, authorization: `Bearer ${sim.world.apiKey}` }),
    sim.handle(chat(sim.world.apiKey, sim.world.models.timeWindowed)),
    sim.handle({ method: 'POST', path: '/keys', authorization: `Bearer ${sim.world.managementKey}`, headers: { 'content-type': 'application/json' }, body: '{"name":"next"}' }),
  ]
  expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 201])
  return { answers: answers.map((answer) => answer.body), world: sim.exportWorld() }
}

describe('the shared default world', () => {
  it('answers as a world built afresh from a copy of the same spec, at the spec instant and at another', () => {
    for (const at of [{}, { now: '2026-07-04T23:30:00Z' }]) {
      const shared = [createSimulator(at), createSimulator(at)]
      const fresh = createSimulator({ ...at, world: structuredClone(defaultWorld()) })
      const expected = observe(fresh)
      for (const sim of shared) expect(observe(sim)).toEqual(expected)
    }
  })

  it('holds every model as a checked load makes it, byte for byte, canonical slug and all', () => {
    const shared = createSimulator()
    const checked = createSimulator({ world: structuredClone(defaultWorld()) })
    const ids = checked.models.list().map((model) => model.id)
    expect(shared.models.list().map((model) => model.id)).toEqual(ids)
    for (const id of ids) {
      expect(JSON.stringify(shared.models.get(id)), id).toBe(JSON.stringify(checked.models.get(id)))
      const path = `/models/${id}/endpoints`
      expect(shared.handle({ method: 'GET', path }).body, id).toEqual(checked.handle({ method: 'GET', path }).body)
    }
    expect(shared.exportWorld().models).toEqual(checked.exportWorld().models)
  })

  it('keeps every write in the simulator that made it: models created, reset and restored', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('create', 'snapshot', 'restore', 'reset', 'chat'), { maxLength: 12 }), (steps) => {
        const a = createSimulator()
        const b = createSimulator()
        const before = JSON.stringify(b.models.list())
        const baseline = a.models.list().length
        let saved = a.snapshot()
        let created = 0
        for (const step of steps) {
          if (step === 'create') {
            a.models.create({ id: `acme/model-${created++}`, endpoints: [{ provider_name: 'OpenAI', pricing: { prompt: '0.000001', completion: '0.000002' } }] })
          } else if (step === 'snapshot') saved = a.snapshot()
          else if (step === 'restore') a.restore(saved)
          else if (step === 'reset') a.reset()
          else expect(a.handle(chat(a.world.apiKey, a.world.models.paid)).status).toBe(200)
          // After each step, cheaply (a list copies 323 models): nothing a made is in b or a new simulator.
          for (const other of [b, createSimulator()]) for (let i = 0; i < created; i++) expect(other.models.get(`acme/model-${i}`)).toBeUndefined()
        }
        // And b's models, whole, are what they were.
        expect(JSON.stringify(b.models.list())).toBe(before)
        a.reset()
        expect(a.models.list().length).toBe(baseline)
      }),
      { numRuns: runs(40) },
    )
  })

  it('hands out copies: changing what models.get or list returns changes no simulator', () => {
    const a = createSimulator()
    const id = a.world.models.paid
    const got = a.models.get(id)!
    got.endpoints[0]!.pricing.prompt = '1'
    got.name = 'changed'
    a.models.list()[0]!.endpoints.length = 0
    for (const sim of [a, createSimulator()]) {
      expect(sim.models.get(id)!.name).not.toBe('changed')
      expect(sim.models.get(id)!.endpoints[0]!.pricing.prompt).not.toBe('1')
      expect(sim.models.list()[0]!.endpoints.length).toBeGreaterThan(0)
    }
  })
})
