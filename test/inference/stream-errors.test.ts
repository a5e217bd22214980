// A mid-stream error (decisions/0026): a fault rule with `afterChunks` lets a streamed completion
// start, sends that many content chunks, then one chunk with `error: { code, message, metadata }`
// and `finish_reason: "error"`, and ends. Only what was sent is charged.
import { describe, expect, it } from 'vitest'
import { createSimulator, estimateCost, type SimResponse } from '../../src/index.js'
import { startServer } from '../../src/server/index.js'
import { sdkClient, useSimulatorServer } from '../support/server.js'

type Stream = Extract<SimResponse, { type: 'stream' }>

const PRICING = { prompt: '0.000001', completion: '0.000002' }
const at = Date.parse('2026-03-02T10:00:00Z')
const REPLY = 'One two three four five six seven eight nine ten eleven twelve.'

function world() {
  const sim = createSimulator({ world: 'empty', seed: 11, now: at })
  const org = sim.users.create({ name: 'Acme', credits: { total: 100 } })
  const { key } = sim.keys.create({ userId: org.id })
  sim.models.create({ id: 'acme/fast', endpoints: [{ provider_name: 'Swift', pricing: PRICING }, { provider_name: 'Spare', pricing: { prompt: '0.00001', completion: '0.00002' } }] })
  sim.inference.respond({ reply: { content: REPLY } })
  return { sim, org, key }
}

const request = (key: string, stream: boolean) => ({
  method: 'POST',
  path: '/chat/completions',
  authorization: `Bearer ${key}`,
  body: JSON.stringify({ model: 'acme/fast', messages: [{ role: 'user', content: 'Count.' }], stream, provider: { sort: 'price' } }),
})

const chunksOf = (response: Stream): any[] => response.body.filter((f) => f.data.startsWith('data: {')).map((f) => JSON.parse(f.data.slice(6)))
const generationOf = (sim: ReturnType<typeof world>['sim'], key: string, id: string): any => (sim.handle({ method: 'GET', path: '/generation', query: `id=${id}`, authorization: `Bearer ${key}` }).body as { data: unknown }).data

describe('a mid-stream error fault', () => {
  it('sends its chunks, then an error chunk with the status, message and finish_reason "error", and ends', () => {
    const { sim, org, key } = world()
    const fault = sim.faults.providerDown({ provider: 'Swift', afterChunks: 2 })
    const response = sim.handle(request(key, true)) as Stream
    expect(response.status).toBe(200)
    expect(response.type).toBe('stream')
    expect(response.body[0]?.data).toBe(': OPENROUTER PROCESSING\n\n')
    // No usage chunk and no [DONE] after the error.
    expect(response.body.at(-1)?.data.startsWith('data: {')).toBe(true)
    const chunks = chunksOf(response)
    expect(chunks).toHaveLength(3)
    expect(chunks.slice(0, 2).map((c) => c.choices[0].delta.content).join('')).toBe(REPLY.slice(0, 32))
    expect(chunks[2]).toEqual({
      id: chunks[0].id,
      provider: 'Swift',
      model: 'acme/fast',
      object: 'chat.completion.chunk',
      created: chunks[0].created,
      choices: [{ index: 0, delta: { content: '' }, finish_reason: 'error', native_finish_reason: 'error', logprobs: null }],
      error: { code: 502, message: 'Provider returned error', metadata: { error_type: 'provider_unavailable' } },
    })
    expect(fault.fired).toBe(1)
    // Charged what was sent: the prompt and 8 completion tokens; no fallback once the stream started.
    const cost = estimateCost(PRICING, { promptTokens: 6, completionTokens: 8 }, { at })
    const generation = generationOf(sim, key, chunks[0].id)
    expect(generation).toMatchObject({ finish_reason: 'error', native_finish_reason: 'error', cancelled: false, tokens_completion: 8, total_cost: Number(cost), provider_name: 'Swift' })
    expect(generation.provider_responses.map((r: any) => [r.provider_name, r.status])).toEqual([['Swift', 502]])
    expect(sim.credits.get(org.id).total_usage).toBe(Number(cost))
  })

  it('takes its status, message and metadata from the rule, and after 0 chunks sends the error first', () => {
    const { sim, key } = world()
    sim.faults.add({ operation: 'createChatCompletion', afterChunks: 0, respond: { status: 529, message: 'Overloaded', metadata: { provider_code: 'busy' } } })
    const chunks = chunksOf(sim.handle(request(key, true)) as Stream)
    expect(chunks).toHaveLength(1)
    expect(chunks[0].error).toEqual({ code: 529, message: 'Overloaded', metadata: { error_type: 'provider_overloaded', provider_code: 'busy' } })
    expect(generationOf(sim, key, chunks[0].id).tokens_completion).toBe(0)
  })

  it('passes non-streamed completions and other providers by, and counts its timing like any fault', () => {
    const { sim, key } = world()
    const fault = sim.faults.providerDown({ provider: 'Spare', afterChunks: 1, once: true })
    expect(sim.handle(request(key, false)).status).toBe(200)
    expect(chunksOf(sim.handle(request(key, true)) as Stream).at(-2).choices[0].finish_reason).toBe('stop')
    expect(fault.matched).toBe(0)
    const once = sim.faults.add({ afterChunks: 1, once: true, respond: { status: 500 } })
    expect(chunksOf(sim.handle(request(key, true)) as Stream).at(-1).error.code).toBe(500)
    expect(chunksOf(sim.handle(request(key, true)) as Stream).at(-1).usage).toBeDefined()
    expect(once.fired).toBe(1)
  })

  it('is refused with a response that is not a status, or on an operation that does not stream', () => {
    const { sim } = world()
    expect(() => sim.faults.add({ afterChunks: 1, respond: 'network-error' })).toThrow(/"respond" must be \{ status, message\?, metadata\? \} with afterChunks/)
    expect(() => sim.faults.add({ afterChunks: -1, respond: { status: 502 } })).toThrow(/"afterChunks" must be an integer of at least 0/)
    expect(() => sim.faults.add({ operation: 'listKeys', afterChunks: 1, respond: { status: 502 } })).toThrow(/"afterChunks" applies to streamed completions only/)
  })

  it('is set over HTTP through POST /__sim/faults, as JSON', async () => {
    const { sim, key } = world()
    const server = await startServer(sim, { port: 0 })
    try {
      const origin = new URL(server.url).origin
      const added = await fetch(`${origin}/__sim/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ preset: 'serviceUnavailable', provider: 'Swift', afterChunks: 1 }) })
      expect(added.status).toBe(201)
      const bad = await fetch(`${origin}/__sim/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ afterChunks: 'two', respond: { status: 502 } }) })
      expect(bad.status).toBe(400)
      expect(((await bad.json()) as any).error.metadata.argument).toBe('afterChunks')
      const res = await fetch(`${server.url}/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: request(key, true).body })
      const events = (await res.text()).trim().split('\n\n')
      expect(JSON.parse(events.at(-1)?.slice(6) as string).error).toMatchObject({ code: 503, metadata: { error_type: 'provider_unavailable' } })
    } finally {
      await server.close()
    }
  })
})

describe('the official SDK reading a mid-stream error', () => {
  const { serve } = useSimulatorServer()

  it('parses the error chunk without throwing: the chunk carries error { code, message } and finishReason "error"', async () => {
    const { sim, key } = world()
    serve(sim)
    sim.faults.providerDown({ provider: 'Swift', afterChunks: 2 })
    const sdk = sdkClient(key)
    const stream = (await sdk.chat.send({ chatRequest: { model: 'acme/fast', messages: [{ role: 'user', content: 'Count.' }], stream: true, provider: { sort: 'price' } } })) as AsyncIterable<any>
    const chunks: any[] = []
    for await (const chunk of stream) chunks.push(chunk)
    expect(chunks).toHaveLength(3)
    const last = chunks.at(-1)
    expect(last.error).toEqual({ code: 502, message: 'Provider returned error', metadata: { errorType: 'provider_unavailable' } })
    expect(last.choices[0].finishReason).toBe('error')
    expect(last.usage).toBeUndefined()
    const generation = (await sdk.generations.getGeneration({ id: last.id })).data
    expect(generation).toMatchObject({ finishReason: 'error', cancelled: false, tokensCompletion: 8 })
  })
})
