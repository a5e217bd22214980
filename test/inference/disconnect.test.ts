// A client that goes away mid-stream (decisions/0026): charged for the prompt and the chunks it was
// sent, and the generation says `cancelled: true`, the usage record and the generation corrected in
// one step so that generations, keys and credits always agree to the last 10^-10 USD.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createSimulator, estimateCost, type SimResponse } from '../../src/index.js'
import { BASE, sdkClient, useSimulatorServer } from '../support/server.js'
import { runs } from '../support/runs.js'

type Stream = Extract<SimResponse, { type: 'stream' }>

const PRICING = { prompt: '0.000001', completion: '0.000002', request: '0.0001' }
const at = Date.parse('2026-03-02T10:00:00Z')
/** 63 characters: content chunks of 16, 16, 16 and 15 characters, 4 tokens each. */
const REPLY = 'One two three four five six seven eight nine ten eleven twelve.'
const fast = { p50: 20, p75: 20, p90: 20, p99: 20 }

function world(seed = 3) {
  const sim = createSimulator({ world: 'empty', seed, now: at })
  const org = sim.users.create({ name: 'Acme', credits: { total: 100 } })
  const { key, record } = sim.keys.create({ userId: org.id })
  sim.models.create({ id: 'acme/fast', endpoints: [{ provider_name: 'Swift', pricing: PRICING, latency_last_30m: fast, throughput_last_30m: { p50: 400, p75: 400, p90: 400, p99: 400 } }] })
  sim.inference.respond({ reply: { content: REPLY } })
  return { sim, org, key, keyHash: record.hash }
}

/** 'Count.' is 2 tokens, plus 4 for the message. */
const PROMPT_TOKENS = 6
const body = (extra: Record<string, unknown> = {}) => JSON.stringify({ model: 'acme/fast', messages: [{ role: 'user', content: 'Count.' }], stream: true, ...extra })

function stream(sim: ReturnType<typeof world>['sim'], key: string, extra?: Record<string, unknown>): Stream {
  const response = sim.handle({ method: 'POST', path: '/chat/completions', authorization: `Bearer ${key}`, body: body(extra) })
  expect(response.type).toBe('stream')
  return response as Stream
}

const idOf = (response: Stream): string => JSON.parse((response.body[1] as { data: string }).data.slice(6)).id
const generationOf = (sim: ReturnType<typeof world>['sim'], key: string, id: string): any => (sim.handle({ method: 'GET', path: '/generation', query: `id=${id}`, authorization: `Bearer ${key}` }).body as { data: unknown }).data
const units = (usd: number): bigint => BigInt(Math.round(usd * 1e10))
const spent = (sim: ReturnType<typeof world>['sim'], orgId: string): bigint => units(sim.credits.get(orgId).total_usage)
const keyUsage = (sim: ReturnType<typeof world>['sim'], keyHash: string): bigint => units(sim.keys.get(keyHash)!.usage)

describe('a client that disconnects mid-stream', () => {
  it('is charged for the prompt and the tokens of the chunks it was sent, at the instant of the request', () => {
    // Frames: the comment, 4 content chunks, the finish chunk (index 5), the usage chunk, [DONE].
    for (let sent = 0; sent <= 5; sent++) {
      const { sim, org, key, keyHash } = world()
      const response = stream(sim, key)
      expect(response.body).toHaveLength(8)
      const full = generationOf(sim, key, idOf(response))
      expect(full).toMatchObject({ cancelled: false, tokens_completion: 16, finish_reason: 'stop' })
      sim.clock.advance(60_000)
      expect(response.cancel?.(sent)).toBe(true)
      const completion = 4 * Math.min(Math.max(sent - 1, 0), 4)
      const cost = estimateCost(PRICING, { promptTokens: PROMPT_TOKENS, completionTokens: completion }, { at })
      const generation = generationOf(sim, key, full.id)
      expect(generation).toMatchObject({
        cancelled: true,
        streamed: true,
        finish_reason: null,
        native_finish_reason: null,
        tokens_prompt: PROMPT_TOKENS,
        tokens_completion: completion,
        native_tokens_completion: completion,
        total_cost: Number(cost),
        usage: Number(cost),
        created_at: full.created_at,
      })
      expect(generation.generation_time).toBe(Math.round((completion / 400) * 1000))
      expect(keyUsage(sim, keyHash)).toBe(units(Number(cost)))
      expect(spent(sim, org.id)).toBe(units(Number(cost)))
      // The usage record stays at the request's instant: still today's, this week's, this month's.
      expect(sim.keys.get(keyHash)!.usage_daily).toBe(Number(cost))
    }
  })

  it('changes nothing once the frame that ends the reply was sent, and only the first report counts', () => {
    const { sim, org, key } = world()
    const response = stream(sim, key)
    const before = spent(sim, org.id)
    expect(response.cancel?.(6)).toBe(false)
    expect(response.cancel?.(2)).toBe(false)
    expect(generationOf(sim, key, idOf(response)).cancelled).toBe(false)
    expect(spent(sim, org.id)).toBe(before)

    const second = stream(sim, key)
    expect(second.cancel?.(2)).toBe(true)
    const corrected = spent(sim, org.id)
    expect(second.cancel?.(1)).toBe(false)
    expect(spent(sim, org.id)).toBe(corrected)
  })

  it('refuses a frame count that is not one of the stream, naming the argument', () => {
    const { sim, key } = world()
    const response = stream(sim, key)
    for (const bad of [-1, 9, 1.5, '2', null]) expect(() => response.cancel?.(bad as number)).toThrow(/"framesSent" must be the number of frames sent, an integer from 0 to 8/)
    expect(response.cancel?.(1)).toBe(true)
  })

  it('leaves alone a charge the store no longer holds: restored away, or its key deleted', () => {
    const { sim, org, key, keyHash } = world()
    const snapshot = sim.snapshot()
    const response = stream(sim, key)
    sim.restore(snapshot)
    expect(response.cancel?.(2)).toBe(false)
    expect(spent(sim, org.id)).toBe(0n)

    const kept = stream(sim, key)
    const after = spent(sim, org.id)
    sim.keys.delete(keyHash)
    expect(kept.cancel?.(2)).toBe(false)
    expect(spent(sim, org.id)).toBe(after)
  })

  it('splits stated token counts over the chunks in proportion, reasoning first', () => {
    const { sim, key } = world()
    // 40 characters of reasoning (10 tokens) and 63 of text (16): 26 estimated; stated 52 and 20.
    sim.inference.respond({ reply: { reasoning: 'r'.repeat(40), content: REPLY, usage: { completionTokens: 52, reasoningTokens: 20 } } })
    const response = stream(sim, key)
    // Frames: comment, reasoning chunks of 16, 16, 8 characters (4, 4, 2 tokens), text chunks, ...
    expect(response.cancel?.(3)).toBe(true)
    // 8 of 26 estimated tokens sent: 52 * 8 / 26 = 16 completion tokens, all of them reasoning.
    expect(generationOf(sim, key, idOf(response))).toMatchObject({ tokens_completion: 16, native_tokens_reasoning: 16, cancelled: true })
  })

  it('keeps generations, keys and credits equal to the last unit over random streams and disconnects', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ words: fc.integer({ min: 0, max: 60 }), sent: fc.option(fc.integer({ min: 0, max: 40 }), { nil: undefined }), maxTokens: fc.option(fc.integer({ min: 1, max: 30 }), { nil: undefined }) }), { minLength: 1, maxLength: 8 }), (steps) => {
        const { sim, org, key, keyHash } = world()
        sim.inference.responders.clear()
        let total = 0n
        const ids: string[] = []
        steps.forEach(({ words, sent, maxTokens }) => {
          const extra = { messages: [{ role: 'user', content: `word `.repeat(words) + '?' }], ...(maxTokens !== undefined && { max_tokens: maxTokens }) }
          const response = stream(sim, key, extra)
          ids.push(idOf(response))
          if (sent !== undefined) response.cancel?.(Math.min(sent, response.body.length))
        })
        for (const id of ids) {
          const generation = generationOf(sim, key, id)
          const cost = estimateCost(PRICING, { promptTokens: generation.tokens_prompt, completionTokens: generation.tokens_completion }, { at })
          expect(generation.total_cost).toBe(Number(cost))
          total += units(generation.total_cost)
        }
        expect(keyUsage(sim, keyHash)).toBe(total)
        expect(spent(sim, org.id)).toBe(total)
      }),
      { verbose: true, numRuns: runs(30) },
    )
  })
})

describe('a client that cancels a streamed body through MSW', () => {
  const { serve } = useSimulatorServer()
  const post = (key: string) => fetch(`${BASE}/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body() })

  it('is charged for the frames it read, whether the frames come at once or with real waits', async () => {
    for (const real of [false, true]) {
      const { sim, org, key } = world()
      serve(sim)
      if (real) sim.latency.set({ operation: 'createChatCompletion', ms: 1, real: true })
      const res = await post(key)
      const reader = (res.body as ReadableStream<Uint8Array>).getReader()
      const texts: string[] = []
      for (let i = 0; i < 3; i++) texts.push(new TextDecoder().decode((await reader.read()).value))
      await reader.cancel()
      const id = JSON.parse((texts[1] as string).slice(6)).id
      // Two content chunks read: 8 tokens.
      const cost = estimateCost(PRICING, { promptTokens: PROMPT_TOKENS, completionTokens: 8 }, { at: sim.clock.nowMs() - (real ? 1 : 0) })
      expect(generationOf(sim, key, id)).toMatchObject({ cancelled: true, tokens_completion: 8, total_cost: Number(cost) })
      expect(spent(sim, org.id)).toBe(units(Number(cost)))
    }
  })

  it('through the official SDK: breaking out of the stream cancels it, and the generation says so', async () => {
    const { sim, org, key } = world()
    serve(sim)
    const sdk = sdkClient(key)
    const chunks = (await sdk.chat.send({ chatRequest: { model: 'acme/fast', messages: [{ role: 'user', content: 'Count.' }], stream: true } })) as AsyncIterable<{ id: string; choices: { delta: { content?: string | null } }[] }>
    let id = ''
    for await (const chunk of chunks) {
      id = chunk.id
      break
    }
    const generation = (await sdk.generations.getGeneration({ id })).data
    // The SDK reads ahead of the loop (its own stream buffers an event), so a few chunks went out.
    expect(generation.cancelled).toBe(true)
    expect(generation.tokensCompletion).toBeGreaterThanOrEqual(4)
    expect(generation.tokensCompletion).toBeLessThan(16)
    const cost = estimateCost(PRICING, { promptTokens: PROMPT_TOKENS, completionTokens: generation.tokensCompletion as number }, { at })
    expect(generation.totalCost).toBe(Number(cost))
    expect(spent(sim, org.id)).toBe(units(generation.totalCost))
  })
})

describe('a disconnect after the key usage log was folded (decisions/0029)', () => {
  it('still corrects the charge, inside the sum the fold made of it', () => {
    const { sim, org, key, keyHash } = world()
    const plain = JSON.stringify({ model: 'acme/fast', messages: [{ role: 'user', content: 'Count.' }] })
    // 1,023 charges at one instant, then the stream's: the 1,024th record folds the log, summing them all into one.
    for (let i = 0; i < 1023; i++) expect(sim.handle({ method: 'POST', path: '/chat/completions', authorization: `Bearer ${key}`, body: plain }).status).toBe(200)
    const response = stream(sim, key)
    const records = () => (sim.exportWorld().keys ?? []).find((k) => k.hash === keyHash)?.usage ?? []
    expect(records().length).toBeLessThan(1024)

    expect(response.cancel?.(2)).toBe(true)

    const generation = generationOf(sim, key, idOf(response))
    expect(generation.cancelled).toBe(true)
    const full = estimateCost(PRICING, { promptTokens: PROMPT_TOKENS, completionTokens: 16 }, { at })
    const expected = 1023n * units(Number(full)) + units(generation.total_cost)
    expect(keyUsage(sim, keyHash)).toBe(expected)
    expect(spent(sim, org.id)).toBe(expected)
  })
})
