import { beforeEach, describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { call, callJson, useSimulatorServer } from '../support/server.js'

const harness = useSimulatorServer()

describe('GET /models/{author}/{slug}/endpoints', () => {
  let sim: ReturnType<typeof createSimulator>
  beforeEach(() => {
    sim = createSimulator()
    harness.serve(sim)
  })

  it('lists endpoints without credentials, with null latency and throughput and no per-workload figures', async () => {
    const { status, body, res } = await callJson('/models/openai/gpt-4o/endpoints')
    expect(status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/json')
    expect(body.data.id).toBe('openai/gpt-4o')
    expect(body.data.endpoints.length).toBeGreaterThan(1)
    for (const endpoint of body.data.endpoints) {
      expect(endpoint.latency_last_30m).toBeNull()
      expect(endpoint.throughput_last_30m).toBeNull()
      expect(endpoint).not.toHaveProperty('perf_last_30m_by_workload')
    }
  })

  it.each(['apiKey', 'managementKey'] as const)('shows latency and throughput to a caller with a valid %s', async (which) => {
    const { body } = await callJson('/models/openai/gpt-4o/endpoints', { key: sim.world[which] })
    const [openai] = body.data.endpoints
    expect(openai.latency_last_30m).toEqual(sim.models.get('openai/gpt-4o')?.endpoints[0]?.latency_last_30m)
    expect(openai.latency_last_30m.p50).toBeGreaterThan(0)
    expect(openai.throughput_last_30m.p99).toBeGreaterThan(0)
    expect(openai.perf_last_30m_by_workload.text_generation.request_count).toBe(18234)
  })

  it('serves a variant slug such as :free, percent-encoded or not', async () => {
    for (const path of ['/models/meta-llama/llama-3.3-70b-instruct:free/endpoints', '/models/meta-llama/llama-3.3-70b-instruct%3Afree/endpoints']) {
      const { status, body } = await callJson(path)
      expect(status).toBe(200)
      expect(body.data.id).toBe('meta-llama/llama-3.3-70b-instruct:free')
      expect(body.data.endpoints[0].pricing).toEqual({ prompt: '0', completion: '0' })
    }
  })

  it('keeps a variant apart from its base model', async () => {
    const base = await callJson('/models/meta-llama/llama-3.3-70b-instruct/endpoints')
    const free = await callJson('/models/meta-llama/llama-3.3-70b-instruct:free/endpoints')
    expect(base.body.data.endpoints.length).toBe(5)
    expect(free.body.data.endpoints.length).toBe(1)
  })

  it('answers 404 for an unknown model or an unknown variant', async () => {
    for (const path of ['/models/acme/nothing/endpoints', '/models/openai/gpt-4o:free/endpoints']) {
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

  it('answers 401 to a bad credential instead of serving it anonymously', async () => {
    const res = await call('/models/openai/gpt-4o/endpoints', { key: 'sk-or-v1-not-a-real-key' })
    expect(res.status).toBe(401)
  })

  it('keeps time-window overrides that tile the day on the wire', async () => {
    const { body } = await callJson('/models/deepseek/deepseek-chat-v3.1/endpoints')
    const deepseek = body.data.endpoints.find((e: { tag: string }) => e.tag === 'deepseek')
    expect(deepseek.pricing.overrides).toEqual([
      { utc_start: 30, utc_end: 1630, prompt: '0.00000028', completion: '0.00000042' },
      { utc_start: 1630, utc_end: 30, prompt: '0.00000014', completion: '0.00000021' },
    ])
  })
})

describe('GET /videos/models', () => {
  it('lists every video model without credentials', async () => {
    const sim = createSimulator()
    harness.serve(sim)
    const { status, body } = await callJson('/videos/models')
    expect(status).toBe(200)
    expect(body.data).toEqual(sim.videoModels.list())
    expect(body.data.map((m: { id: string }) => m.id)).toEqual(['google/veo-3.1', 'openai/sora-2-pro', 'kwaivgi/kling-v3.0-pro', 'bytedance/seedance-2.0'])
  })

  it('lists an empty array in an empty world', async () => {
    harness.serve(createSimulator({ world: 'empty' }))
    const { status, body } = await callJson('/videos/models')
    expect(status).toBe(200)
    expect(body).toEqual({ data: [] })
  })
})
