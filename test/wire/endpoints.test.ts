import { beforeEach, describe, expect, it } from 'vitest'
import { generateWorld } from '../../src/fixtures/index.js'
import { type Endpoint, createSimulator } from '../../src/index.js'
import { call, callJson, useSimulatorServer } from '../support/server.js'

const harness = useSimulatorServer()

describe('GET /models/{author}/{slug}/endpoints', () => {
  let sim: ReturnType<typeof createSimulator>
  beforeEach(() => {
    sim = createSimulator()
    harness.serve(sim)
  })

  it('lists endpoints without credentials, with null latency and throughput and no per-workload figures', async () => {
    const { status, body, res } = await callJson(`/models/${sim.world.models.paid}/endpoints`)
    expect(status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/json')
    expect(body.data.id).toBe(sim.world.models.paid)
    expect(body.data.endpoints.length).toBeGreaterThan(0)
    for (const endpoint of body.data.endpoints) {
      expect(endpoint.latency_last_30m).toBeNull()
      expect(endpoint.throughput_last_30m).toBeNull()
      expect(endpoint).not.toHaveProperty('perf_last_30m_by_workload')
    }
  })

  it.each(['apiKey', 'managementKey'] as const)('shows latency and throughput to a caller with a valid %s', async (which) => {
    // The default world's endpoints that publish per-workload figures: each is served exactly as stored.
    const withFigures = sim.models.list().filter((m) => m.endpoints.some((e) => e.perf_last_30m_by_workload !== undefined))
    expect(withFigures.length).toBeGreaterThan(0)
    for (const model of withFigures) {
      const { body } = await callJson(`/models/${model.id}/endpoints`, { key: sim.world[which] })
      expect(body.data).toEqual(JSON.parse(JSON.stringify(model)))
      const shown = body.data.endpoints.find((e: Endpoint) => e.perf_last_30m_by_workload !== undefined)
      expect(shown.perf_last_30m_by_workload.text_generation.request_count).toBeGreaterThan(0)
    }
    const { body } = await callJson(`/models/${sim.world.models.timeWindowed}/endpoints`, { key: sim.world[which] })
    const [first] = body.data.endpoints
    expect(first.latency_last_30m).toEqual(sim.models.get(sim.world.models.timeWindowed)?.endpoints[0]?.latency_last_30m)
    expect(first.latency_last_30m.p50).toBeGreaterThan(0)
    expect(first.throughput_last_30m.p99).toBeGreaterThan(0)
  })

  it('serves a variant slug such as :free, percent-encoded or not', async () => {
    const { free } = sim.world.models
    for (const path of [`/models/${free}/endpoints`, `/models/${free.replace(':', '%3A')}/endpoints`]) {
      const { status, body } = await callJson(path)
      expect(status).toBe(200)
      expect(body.data.id).toBe(free)
      for (const endpoint of body.data.endpoints) for (const price of Object.values(endpoint.pricing)) expect(price).toBe('0')
    }
  })

  it('keeps a variant apart from its base model', async () => {
    const { paid, free } = sim.world.models
    expect(free).toBe(`${paid}:free`)
    const base = await callJson(`/models/${paid}/endpoints`)
    const variant = await callJson(`/models/${free}/endpoints`)
    expect(base.body.data.id).toBe(paid)
    expect(variant.body.data.id).toBe(free)
    expect(base.body.data.endpoints.map((e: Endpoint) => e.pricing)).toEqual(sim.models.get(paid)?.endpoints.map((e) => e.pricing))
    expect(variant.body.data.endpoints.map((e: Endpoint) => e.pricing.prompt)).toEqual(variant.body.data.endpoints.map(() => '0'))
    expect(base.body.data.endpoints.every((e: Endpoint) => e.pricing.prompt !== '0')).toBe(true)
  })

  it('answers 404 for an unknown model or an unknown variant', async () => {
    for (const path of ['/models/acme/nothing/endpoints', `/models/${sim.world.models.longContext}:free/endpoints`]) {
      const { status, body } = await callJson(path)
      expect(status).toBe(404)
      expect(body.error.code).toBe(404)
      expect(body.error.message).toBe('Resource not found')
    }
  })

  it('serves a model created after the handlers were mounted', async () => {
    sim.models.create({ id: 'acme/fast-1', endpoints: [{ provider_name: 'Together', pricing: { prompt: '0.000001', completion: '0.000002' } }] })
    const { status, body } = await callJson('/models/acme/fast-1/endpoints')
    expect(status).toBe(200)
    expect(body.data.endpoints[0]).toMatchObject({ provider_name: 'Together', tag: 'together', model_id: 'acme/fast-1' })
  })

  it('serves an empty description as written (the wire allows it), and refuses a description that is not a string', async () => {
    sim.models.create({ id: 'acme/quiet-1', description: '' })
    const { body } = await callJson('/models/acme/quiet-1/endpoints')
    expect(body.data.description).toBe('')
    expect(() => sim.models.create({ id: 'acme/quiet-2', description: 42 as never })).toThrow(/"description" must be a string, got 42/)
  })

  it('answers 401 to a bad credential instead of serving it anonymously', async () => {
    const res = await call(`/models/${sim.world.models.paid}/endpoints`, { key: 'sk-or-v1-not-a-real-key' })
    expect(res.status).toBe(401)
  })

  it('keeps time-window overrides that tile the day on the wire', async () => {
    const { body } = await callJson(`/models/${sim.world.models.timeWindowed}/endpoints`)
    const [peak, offPeak] = body.data.endpoints[0].pricing.overrides
    expect(body.data.endpoints[0].pricing.overrides).toHaveLength(2)
    // [start, end) at the base price and [end, start) cheaper: together, the whole UTC day.
    expect(peak.utc_end).toBe(offPeak.utc_start)
    expect(offPeak.utc_end).toBe(peak.utc_start)
    expect(peak.prompt).toBe(body.data.endpoints[0].pricing.prompt)
    expect(Number(offPeak.prompt)).toBeLessThan(Number(peak.prompt))
    expect(body.data.endpoints[0].pricing).toEqual(sim.models.get(sim.world.models.timeWindowed)?.endpoints[0]?.pricing)
  })
})

describe('GET /videos/models', () => {
  it('lists every video model without credentials', async () => {
    const sim = createSimulator()
    harness.serve(sim)
    const { status, body } = await callJson('/videos/models')
    expect(status).toBe(200)
    expect(body.data).toEqual(sim.videoModels.list())
    // In the order the world lists them.
    expect(body.data.map((m: { id: string }) => m.id)).toEqual(generateWorld({ seed: 42 }).videoModels?.map((m) => m.id))
    expect(body.data.length).toBeGreaterThan(1)
  })

  it('lists an empty array in an empty world', async () => {
    harness.serve(createSimulator({ world: 'empty' }))
    const { status, body } = await callJson('/videos/models')
    expect(status).toBe(200)
    expect(body).toEqual({ data: [] })
  })
})
