// POST /embeddings (decisions/0030): the body read field by field, the vectors' properties (unit
// norm, the requested length, one vector per distinct text, the same bytes for the same seed, in
// another process too), and the money path as chat completions walk it: admission, routing with
// fallbacks, responders, the exact cost at the clock's instant, the charge and the generation.
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createSimulator, embeddingDimensions, estimateCost, type Endpoint, type Pricing, type PricingOverride, type SimResponse } from '../../src/index.js'
import { responderFromJson } from '../../src/core/inference/responders.js'
import { chat, generation } from './support.js'
import { runs } from '../support/runs.js'

// fast-check prints the seed and path of a failing run; pass them back as { seed, path } to replay it.
const settings = { verbose: true, numRuns: runs(30) }

const pct = (p50: number) => ({ p50, p75: p50, p90: p50, p99: p50 })
const EMBED = 'acme/embed-1'
const ALPHA: Partial<Endpoint> = { provider_name: 'Alpha', pricing: { prompt: '0.0000001', completion: '0' }, latency_last_30m: pct(100), context_length: 8192 }
const BETA: Partial<Endpoint> = { provider_name: 'Beta', pricing: { prompt: '0.00000002', completion: '0', request: '0.0001' }, latency_last_30m: pct(300), context_length: 512 }
const embeddingsModel = { output_modalities: ['embeddings' as const], input_modalities: ['text' as const], modality: 'text->embeddings' }

/** An empty world with Acme (credits), a regular key, {@link EMBED} served by Alpha and Beta, and a chat model. */
function embedWorld(options: { seed?: number; credits?: number; limit?: number; endpoints?: Partial<Endpoint>[]; strictRequests?: boolean } = {}) {
  const sim = createSimulator({ world: 'empty', seed: options.seed ?? 7, now: '2026-03-02T10:00:00Z', strictRequests: options.strictRequests ?? false })
  const org = sim.users.create({ name: 'Acme', credits: { total: options.credits ?? 10_000 } })
  const { key, record } = sim.keys.create({ userId: org.id, ...(options.limit !== undefined && { limit: options.limit }) })
  sim.models.create({ id: EMBED, architecture: embeddingsModel, endpoints: options.endpoints ?? [ALPHA, BETA] })
  sim.models.create({ id: 'acme/chat-1', endpoints: [{ provider_name: 'Alpha', pricing: { prompt: '0.000001', completion: '0.000002' } }] })
  return { sim, org, key, keyHash: record.hash }
}

interface Answer {
  status: number
  body: any
  response: SimResponse
}

function embed(sim: { handle(request: any): SimResponse }, key: string, body: Record<string, unknown>): Answer {
  const response = sim.handle({ method: 'POST', path: '/embeddings', authorization: `Bearer ${key}`, body: JSON.stringify({ model: EMBED, ...body }) })
  return { status: response.status, body: response.body, response }
}

const norm = (values: readonly number[]): number => Math.sqrt(values.reduce((sum, v) => sum + v * v, 0))
const fromBase64 = (text: string): number[] => {
  const bytes = Buffer.from(text, 'base64')
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  return Array.from({ length: bytes.length / 4 }, (_, i) => view.getFloat32(i * 4, true))
}

describe('the embeddings body', () => {
  const { sim, key } = embedWorld()
  const refused = (body: Record<string, unknown>) => {
    const answer = embed(sim, key, body)
    expect(answer.status).toBe(400)
    return answer.body.error.metadata
  }

  it('accepts every field of the SDK request and lists any other on the journal entry; strictRequests refuses it, naming it', () => {
    const answer = embed(sim, key, { input: 'hi', dimensions: 8, encoding_format: 'float', input_type: 'search_query', provider: { order: ['Alpha'], allow_fallbacks: false }, session_id: 's-1', trace: { trace_id: 't' }, user: 'u-1' })
    expect(answer.status).toBe(200)
    expect(sim.journal.list().at(-1)?.ignoredFields).toEqual([])
    expect(embed(sim, key, { input: 'hi', temperature: 1, provider: { ordre: ['Alpha'] }, usage: { include: true } }).status).toBe(200)
    expect(sim.journal.list().at(-1)?.ignoredFields).toEqual(['temperature', 'provider.ordre'])
    const strict = embedWorld({ strictRequests: true })
    const strictRefusal = (body: Record<string, unknown>) => embed(strict.sim, strict.key, body).body.error
    expect(strictRefusal({ input: 'hi', temperature: 1 })).toMatchObject({ message: expect.stringMatching(/^Invalid request parameters: temperature is not a field of this request/), metadata: { parameter: 'temperature' } })
    expect(strictRefusal({ input: 'hi', provider: { ordre: ['Alpha'] } })).toMatchObject({ metadata: { parameter: 'provider.ordre' } })
    expect(refused({ input: 'hi', model: undefined })).toMatchObject({ parameter: 'model' })
    expect(refused({})).toMatchObject({ parameter: 'input' })
  })

  it('takes a string, strings, a token array, token arrays and content parts, counting each input by the estimator', () => {
    const tokens = (input: unknown) => {
      const answer = embed(sim, key, { input, dimensions: 4 })
      expect(answer.status, JSON.stringify(answer.body)).toBe(200)
      return [answer.body.data.length, answer.body.usage.prompt_tokens]
    }
    expect(tokens('abcdefghi')).toEqual([1, 3])
    expect(tokens(['abcd', 'abcde', 'x'])).toEqual([3, 1 + 2 + 1])
    expect(tokens([101, 7, 0, 99])).toEqual([1, 4])
    expect(tokens([[1, 2], [3], [4, 5, 6]])).toEqual([3, 6])
    expect(tokens([{ content: [{ type: 'text', text: 'abcdefgh' }, { type: 'image_url', image_url: { url: 'https://example.com/a.png' } }] }, { content: [{ type: 'input_audio', input_audio: { data: 'AAAA', format: 'wav' } }] }])).toEqual([2, 2 + 85 + 85])
  })

  it('refuses malformed inputs, naming the path of the first wrong one', () => {
    expect(refused({ input: '' })).toMatchObject({ parameter: 'input', reason: 'must not be an empty string' })
    expect(refused({ input: [] })).toMatchObject({ parameter: 'input', reason: 'must not be an empty array' })
    expect(refused({ input: ['a', 2] })).toMatchObject({ parameter: 'input[1]' })
    expect(refused({ input: ['a', ''] })).toMatchObject({ parameter: 'input[1]' })
    expect(refused({ input: [1, -2] })).toMatchObject({ parameter: 'input[1]' })
    expect(refused({ input: [1, 2.5] })).toMatchObject({ parameter: 'input[1]' })
    expect(refused({ input: [[1], []] })).toMatchObject({ parameter: 'input[1]' })
    expect(refused({ input: [[1], ['a']] })).toMatchObject({ parameter: 'input[1][0]' })
    expect(refused({ input: { text: 'a' } })).toMatchObject({ parameter: 'input' })
    expect(refused({ input: [{ content: [] }] })).toMatchObject({ parameter: 'input[0].content' })
    expect(refused({ input: [{ content: [{ type: 'video', video: {} }] }] })).toMatchObject({ parameter: 'input[0].content[0].type' })
    expect(embed(sim, key, { input: [{ content: [{ type: 'image_url', image_url: { url: 'x', detail: 'high' } }] }] }).status).toBe(200)
    expect(sim.journal.list().at(-1)?.ignoredFields).toEqual(['input[0].content[0].image_url.detail'])
    expect(refused({ input: Array.from({ length: 2049 }, () => 'a') })).toMatchObject({ parameter: 'input', reason: 'must hold at most 2048 inputs' })
    expect(embed(sim, key, { input: Array.from({ length: 2048 }, () => 'a'), dimensions: 2 }).status).toBe(200)
  })

  it('refuses a dimensions outside 1 to the model\'s output size, and an unknown encoding, naming them', () => {
    expect(refused({ input: 'a', dimensions: 0 })).toMatchObject({ parameter: 'dimensions' })
    expect(refused({ input: 'a', dimensions: 2.5 })).toMatchObject({ parameter: 'dimensions' })
    expect(refused({ input: 'a', dimensions: 1537 })).toEqual({ parameter: 'dimensions', reason: `must be at most 1536, the output size of ${EMBED}`, value: '1537' })
    expect(embed(sim, key, { input: 'a', dimensions: 1536 }).body.data[0].embedding).toHaveLength(1536)
    expect(refused({ input: 'a', encoding_format: 'hex' })).toMatchObject({ parameter: 'encoding_format' })
  })

  it('refuses an unknown model and a model that does not output embeddings, naming `model`', () => {
    expect(embed(sim, key, { model: 'acme/nope', input: 'a' }).body.error).toMatchObject({ code: 400, message: 'acme/nope is not a valid model ID', metadata: { parameter: 'model' } })
    expect(embed(sim, key, { model: 'acme/chat-1', input: 'a' }).body.error).toMatchObject({ code: 400, message: 'acme/chat-1 is not an embeddings model', metadata: { parameter: 'model' } })
  })
})

describe('hostile embeddings bodies', () => {
  const value: fc.Arbitrary<unknown> = fc.oneof(
    fc.constantFrom(null, true, 0, -1, 1.5, 2 ** 53, '', 'x', 'float', 'base64', [], {}, [[]], [0, 'a'], [{}], [{ content: null }]),
    fc.string({ maxLength: 12 }),
    fc.integer({ min: -5, max: 5000 }),
    fc.array(fc.oneof(fc.string({ maxLength: 6 }), fc.integer({ min: -2, max: 50 })), { maxLength: 4 }),
    fc.array(fc.array(fc.integer({ min: -1, max: 9 }), { maxLength: 3 }), { maxLength: 3 }),
    fc.array(fc.record({ content: fc.array(fc.record({ type: fc.constantFrom('text', 'image_url', 'input_file', 'bogus'), text: fc.string({ maxLength: 5 }) }), { maxLength: 2 }) }), { maxLength: 2 }),
    fc.json({ maxDepth: 2 }).map((text) => JSON.parse(text) as unknown),
  )
  const field = fc.constantFrom('model', 'input', 'dimensions', 'encoding_format', 'input_type', 'provider', 'session_id', 'trace', 'user', 'models', 'inputs')

  it('answers each with vectors or a 400 naming a field of the request, and charges only what it answers', () => {
    const { sim, key, keyHash } = embedWorld()
    fc.assert(
      fc.property(fc.dictionary(field, value, { maxKeys: 4 }), fc.boolean(), (fields, withInput) => {
        const before = sim.keys.get(keyHash)!.usage
        const answer = embed(sim, key, { ...(withInput && { input: 'plain' }), dimensions: 3, ...fields })
        if (answer.status === 200) {
          expect(answer.body.usage.cost).toBeGreaterThan(0)
          expect(sim.keys.get(keyHash)!.usage).toBeCloseTo(before + answer.body.usage.cost, 12)
          return
        }
        expect([400, 404]).toContain(answer.status)
        expect(answer.body.error.code).toBe(answer.status)
        if (answer.status === 400) expect(String(answer.body.error.metadata.parameter)).toMatch(/^(model|input|dimensions|encoding_format|input_type|provider|session_id|trace|user|models|inputs|body)\b/)
        expect(sim.keys.get(keyHash)!.usage).toBe(before)
      }),
      { ...settings, numRuns: runs(300) },
    )
  })
})

describe('the vectors', () => {
  const text = fc.string({ minLength: 1, maxLength: 40, unit: 'grapheme' })

  it('are unit vectors of the requested length (the model\'s own without one), float and base64 carrying the same float32 values', () => {
    const { sim, key } = embedWorld()
    expect(embed(sim, key, { input: 'hello' }).body.data[0].embedding).toHaveLength(embeddingDimensions(EMBED))
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 5 }), fc.integer({ min: 1, max: 1536 }), (inputs, dimensions) => {
        const floats = embed(sim, key, { input: inputs, dimensions }).body.data
        const base64 = embed(sim, key, { input: inputs, dimensions, encoding_format: 'base64' }).body.data
        expect(floats.map((d: any) => d.index)).toEqual(inputs.map((_, i) => i))
        for (const [i, item] of floats.entries()) {
          expect(item.object).toBe('embedding')
          expect(item.embedding).toHaveLength(dimensions)
          expect(Math.abs(norm(item.embedding) - 1)).toBeLessThan(1e-6)
          for (const value of item.embedding) expect(Math.fround(value)).toBe(value)
          expect(fromBase64(base64[i].embedding)).toEqual(item.embedding)
        }
      }),
      settings,
    )
  })

  it('give each distinct text its own vector, the same text the same one wherever it stands in a batch', () => {
    const { sim, key } = embedWorld()
    fc.assert(
      fc.property(fc.uniqueArray(text, { minLength: 2, maxLength: 8 }), fc.integer({ min: 2, max: 64 }), (inputs, dimensions) => {
        const vectors = embed(sim, key, { input: inputs, dimensions }).body.data.map((d: any) => JSON.stringify(d.embedding))
        expect(new Set(vectors).size).toBe(inputs.length)
        const reversed = embed(sim, key, { input: [...inputs].reverse(), dimensions }).body.data.map((d: any) => JSON.stringify(d.embedding))
        expect(reversed).toEqual([...vectors].reverse())
        expect(embed(sim, key, { input: inputs[0], dimensions }).body.data[0].embedding).toEqual(JSON.parse(vectors[0]))
      }),
      settings,
    )
  })

  it('are a function of the seed, the model and the input alone: the same bytes for the same seed, other ones for another', () => {
    const vector = (seed: number, body: Record<string, unknown>) => {
      const { sim, key } = embedWorld({ seed })
      embed(sim, key, { input: 'something before' })
      return embed(sim, key, { ...body, encoding_format: 'base64', dimensions: 32 }).body.data[0].embedding
    }
    fc.assert(
      fc.property(fc.integer(), text, (seed, input) => {
        expect(vector(seed, { input })).toBe(vector(seed, { input }))
        expect(vector(seed, { input })).not.toBe(vector(seed + 1, { input }))
      }),
      { ...settings, numRuns: runs(15) },
    )
    // A text and its content-part form embed alike; a token array is not its text.
    const { sim, key } = embedWorld()
    const one = (input: unknown) => embed(sim, key, { input, dimensions: 16 }).body.data[0].embedding
    expect(one([{ content: [{ type: 'text', text: 'hello' }] }])).toEqual(one('hello'))
    expect(one([104, 101])).not.toEqual(one('104,101'))
  })

  it('shorten as a prefix of the longer vector, renormalised (as text-embedding-3 shortens)', () => {
    const { sim, key } = embedWorld()
    const full = embed(sim, key, { input: 'matryoshka', dimensions: 64 }).body.data[0].embedding as number[]
    const short = embed(sim, key, { input: 'matryoshka', dimensions: 8 }).body.data[0].embedding as number[]
    const prefix = full.slice(0, 8)
    const scale = norm(prefix)
    short.forEach((value, i) => expect(value).toBeCloseTo((prefix[i] as number) / scale, 6))
  })

  it('are the same in another process for the same seed, model and text', () => {
    const child = fileURLToPath(new URL('./embeddings-child.ts', import.meta.url))
    const out = execFileSync(process.execPath, ['--import', 'tsx', child, '11', 'cross-process text'], { encoding: 'utf8', timeout: 30_000 })
    const { sim, key } = embedWorld({ seed: 11 })
    expect(out.trim()).toBe(embed(sim, key, { input: 'cross-process text', dimensions: 24, encoding_format: 'base64' }).body.data[0].embedding)
  }, 40_000)
})

describe('the answer as a payload', () => {
  it('shows the journal the body that was sent, made again from the vectors', () => {
    const { sim, key } = embedWorld()
    const answer = embed(sim, key, { input: ['one', 'two'], dimensions: 5, encoding_format: 'base64' })
    const [entry] = sim.journal.list({ operation: 'createEmbeddings' })
    expect(entry?.response.body).toEqual(answer.body)
  })

  it('stays right once the vectors a simulator keeps (about 16 MiB of text) have been let go', () => {
    const { sim, key } = embedWorld()
    const first = embed(sim, key, { input: 'the first text', dimensions: 1536 }).body.data[0].embedding
    // 7 answers of 100 vectors of 1536 floats: some 21 MiB of text, past what is kept.
    for (let round = 0; round < 7; round++) embed(sim, key, { input: Array.from({ length: 100 }, (_, i) => `filler ${round} ${i}`), dimensions: 1536 })
    expect(embed(sim, key, { input: 'the first text', dimensions: 1536 }).body.data[0].embedding).toEqual(first)
    const fresh = embedWorld()
    expect(embed(fresh.sim, fresh.key, { input: 'the first text', dimensions: 1536 }).body.data[0].embedding).toEqual(first)
  })
})

describe('the money path of an embedding', () => {
  it('routes, prices the prompt tokens and the request fee once per request, charges the key and records a generation', () => {
    const { sim, key, keyHash } = embedWorld()
    const inputs = ['abcdefgh', 'abc', 'abcdefghijklm']
    const answer = embed(sim, key, { input: inputs, provider: { order: ['Beta'] }, user: 'end-user-9', session_id: 'sess-1' })
    expect(answer.status).toBe(200)
    const promptTokens = 2 + 1 + 4
    const cost = estimateCost(BETA.pricing as Pricing, { promptTokens, completionTokens: 0 }, { at: sim.clock.nowMs() })
    expect(cost).toBe('0.00010014')
    expect(answer.body.usage).toEqual({
      prompt_tokens: promptTokens,
      total_tokens: promptTokens,
      cost: Number(cost),
      is_byok: false,
      cost_details: { upstream_inference_cost: null, upstream_inference_prompt_cost: 0.00000014, upstream_inference_completions_cost: 0 },
    })
    expect(answer.body.model).toBe(EMBED)
    expect(sim.keys.get(keyHash)!.usage).toBe(Number(cost))
    const gen = generation(sim, key, answer.body.id).body.data
    expect(gen).toMatchObject({ id: answer.body.id, total_cost: Number(cost), usage: Number(cost), api_type: 'embeddings', provider_name: 'Beta', tokens_prompt: promptTokens, tokens_completion: 0, external_user: 'end-user-9', session_id: 'sess-1', streamed: false })
    expect(gen.provider_responses).toEqual([expect.objectContaining({ provider_name: 'Beta', status: 200 })])
  })

  it('leaves out endpoints whose context window cannot hold the longest input, not the whole batch', () => {
    const { sim, key } = embedWorld()
    // Beta holds 512 tokens: 600 short inputs fit it one by one; one input of 513 tokens does not.
    const batch = embed(sim, key, { input: Array.from({ length: 600 }, () => 'abcd'), provider: { only: ['Beta'] }, dimensions: 2 })
    expect(batch.status).toBe(200)
    expect(batch.body.usage.prompt_tokens).toBe(600)
    const long = embed(sim, key, { input: ['a', 'a'.repeat(513 * 4)], provider: { order: ['Beta', 'Alpha'] }, dimensions: 2 })
    expect(generation(sim, key, long.body.id).body.data.provider_responses.map((a: any) => a.provider_name)).toEqual(['Alpha'])
    const longest = embed(sim, key, { input: 'a'.repeat(8193 * 4) })
    expect(longest.body.error).toMatchObject({ code: 404, message: 'No endpoints found that support the requested context length' })
  })

  it('falls back past a failing provider, recording both attempts, and charges nothing when every one fails', () => {
    const { sim, key, keyHash } = embedWorld()
    sim.faults.providerDown({ provider: 'Alpha' })
    const answer = embed(sim, key, { input: 'x', provider: { order: ['Alpha', 'Beta'] } })
    expect(answer.status).toBe(200)
    const attempts = generation(sim, key, answer.body.id).body.data.provider_responses
    expect(attempts.map((a: any) => [a.provider_name, a.status])).toEqual([['Alpha', 502], ['Beta', 200]])
    const before = sim.keys.get(keyHash)!.usage
    sim.faults.providerDown({ provider: 'Beta' })
    const failed = embed(sim, key, { input: 'x' })
    expect(failed.status).toBe(502)
    expect(sim.keys.get(keyHash)!.usage).toBe(before)
  })

  it('refuses a management key and a spent key with 403, and charges nothing for any refused request', () => {
    const { sim, key, keyHash, org } = embedWorld({ limit: 0.0001 })
    const management = sim.keys.create({ userId: org.id, management: true }).key
    expect(embed(sim, management, { input: 'x' }).body.error).toMatchObject({ code: 403, message: 'Management keys cannot be used for inference requests; use a regular API key' })
    // Admitted while any limit remains: the request that crosses the limit is charged whole.
    const first = embed(sim, key, { input: 'x', provider: { order: ['Beta'] } })
    expect(first.status).toBe(200)
    expect(sim.keys.get(keyHash)!.limit_remaining).toBe(0)
    const spent = embed(sim, key, { input: 'x' })
    expect(spent.body.error).toMatchObject({ code: 403, message: 'Key limit exceeded (total limit). Manage it using https://openrouter.ai/settings/keys' })
    const usage = sim.keys.get(keyHash)!.usage
    const generations = sim.snapshot()
    for (const body of [{ input: '' }, { input: 'x', dimensions: 99_999 }, { input: 'x', provider: { only: ['Nobody'] } }]) {
      expect(embed(sim, key, body).status).toBeGreaterThanOrEqual(400)
    }
    expect(sim.keys.get(keyHash)!.usage).toBe(usage)
    sim.restore(generations)
  })

  it('answers 402 when the credits cannot pay the request, and never for a free endpoint', () => {
    const { sim, key, keyHash } = embedWorld({ credits: 0, endpoints: [ALPHA] })
    const answer = embed(sim, key, { input: 'x' })
    expect(answer.body.error).toEqual({ code: 402, message: 'Insufficient credits. Add more using https://openrouter.ai/settings/credits', metadata: { provider_name: null } })
    expect(sim.keys.get(keyHash)!.usage).toBe(0)
    sim.models.create({ id: 'acme/embed-free', architecture: embeddingsModel, endpoints: [{ provider_name: 'Alpha', pricing: { prompt: '0', completion: '0' } }] })
    expect(embed(sim, key, { model: 'acme/embed-free', input: 'x' }).status).toBe(200)
  })
})

describe('exact money over chat and embeddings mixed', () => {
  const price = fc.tuple(fc.integer({ min: 1, max: 99_999 }), fc.integer({ min: 6, max: 8 })).map(([units, places]) => (units / 10 ** places).toFixed(places).replace(/0+$/, ''))
  const hhmm = fc.tuple(fc.integer({ min: 0, max: 23 }), fc.constantFrom(0, 30)).map(([h, m]) => h * 100 + m)
  const override: fc.Arbitrary<PricingOverride> = fc.oneof(
    fc.tuple(hhmm, hhmm, price).filter(([start, end]) => start !== end).map(([utc_start, utc_end, prompt]) => ({ utc_start, utc_end, prompt })),
    fc.tuple(fc.integer({ min: 0, max: 300 }), price).map(([min_prompt_tokens, prompt]) => ({ min_prompt_tokens, prompt })),
  )
  const pricing: fc.Arbitrary<Pricing> = fc
    .record({ prompt: price, completion: price, request: fc.option(price, { nil: undefined }), discount: fc.option(fc.constantFrom(0.1, 0.5), { nil: undefined }), overrides: fc.array(override, { maxLength: 2 }) })
    .map(({ request, discount, ...rest }) => ({ ...rest, ...(request !== undefined && { request }), ...(discount !== undefined && { discount }) }))
  const step = fc.record({
    advanceMs: fc.integer({ min: 0, max: 36 * 3_600_000 }),
    embeddings: fc.boolean(),
    inputs: fc.array(fc.string({ minLength: 1, maxLength: 200 }), { minLength: 1, maxLength: 6 }),
  })
  const tenths = (decimal: string): bigint => {
    const [whole = '0', fraction = ''] = decimal.split('.')
    return BigInt(whole) * 10_000_000_000n + BigInt(fraction.padEnd(10, '0'))
  }

  it('charges each answer the exact cost of its routed endpoint at its instant, the generation says the same, and the key grows by the sum', () => {
    fc.assert(
      fc.property(fc.integer(), fc.array(pricing, { minLength: 1, maxLength: 3 }), fc.array(step, { minLength: 1, maxLength: 10 }), (seed, pricings, steps) => {
        const endpoints = pricings.map((p, i) => ({ provider_name: `P${i}`, pricing: p, context_length: 100_000, max_completion_tokens: 4096 }))
        const { sim, key, keyHash } = embedWorld({ seed, endpoints })
        sim.models.create({ id: 'acme/chat-2', endpoints })
        let total = 0n
        for (const s of steps) {
          sim.clock.advance(s.advanceMs)
          const answer = s.embeddings
            ? embed(sim, key, { input: s.inputs, dimensions: 3 })
            : chat(sim, key, { model: 'acme/chat-2', messages: [{ role: 'user', content: s.inputs.join(' ') }], max_tokens: 50 })
          expect(answer.status, JSON.stringify(answer.body)).toBe(200)
          const gen = generation(sim, key, answer.body.id).body.data
          const endpoint = endpoints.find((e) => e.provider_name === gen.provider_name)!
          const usage = answer.body.usage
          const cost = estimateCost(endpoint.pricing, { promptTokens: usage.prompt_tokens, completionTokens: usage.completion_tokens ?? 0 }, { at: sim.clock.nowMs() })
          if (s.embeddings) expect(usage.prompt_tokens).toBe(s.inputs.reduce((sum, t) => sum + Math.ceil(t.length / 4), 0))
          expect(usage.cost).toBe(Number(cost))
          expect(gen.total_cost).toBe(Number(cost))
          expect(gen.api_type).toBe(s.embeddings ? 'embeddings' : 'completions')
          total += tenths(cost)
        }
        expect(BigInt(Math.round(sim.keys.get(keyHash)!.usage * 1e10))).toBe(total)
      }),
      settings,
    )
  })
})

describe('responders for embeddings', () => {
  it('answer an embeddings attempt only when they name the operation, matching by input text', () => {
    const { sim, key } = embedWorld()
    const chatRule = sim.inference.respond({ error: { status: 503 }, times: 1 })
    // A rule without `operation` is for chat: it neither answers nor is spent by an embedding.
    expect(embed(sim, key, { input: 'hello' }).status).toBe(200)
    expect(sim.inference.responders.list()).toEqual([{ name: chatRule.name, used: 0, remaining: 1 }])
    expect(chat(sim, key, { model: 'acme/chat-1' }).status).toBe(503)

    sim.inference.respond({ match: { operation: 'createEmbeddings', input: /refund/i }, error: { status: 429, message: 'slow down' } })
    expect(embed(sim, key, { input: ['hello', 'a REFUND please'] }).body.error).toMatchObject({ code: 429, message: 'slow down' })
    expect(embed(sim, key, { input: ['hello'] }).status).toBe(200)
    expect(chat(sim, key, { model: 'acme/chat-1', messages: [{ role: 'user', content: 'refund' }] }).status).toBe(200)
  })

  it('fail one provider so the router falls back, and state the prompt tokens that are priced', () => {
    const { sim, key } = embedWorld()
    sim.inference.respond({ match: { operation: 'createEmbeddings', provider: 'alpha' }, error: { status: 502 } })
    const fallen = embed(sim, key, { input: 'x', provider: { order: ['Alpha', 'Beta'] } })
    expect(fallen.status).toBe(200)
    expect(generation(sim, key, fallen.body.id).body.data.provider_name).toBe('Beta')
    sim.inference.responders.clear()
    sim.inference.respond({ match: { operation: 'createEmbeddings', input: 'priced' }, reply: { usage: { promptTokens: 1000 } } })
    const stated = embed(sim, key, { input: 'priced', provider: { order: ['Alpha'] } })
    expect(stated.body.usage).toMatchObject({ prompt_tokens: 1000, cost: Number(estimateCost(ALPHA.pricing as Pricing, { promptTokens: 1000, completionTokens: 0 }, { at: sim.clock.nowMs() })) })
  })

  it('refuse rules that could never match or whose reply means nothing for a vector, naming the field', () => {
    const { sim } = embedWorld()
    const refuse = (rule: unknown, field: string) => expect(() => sim.inference.respond(rule as never)).toThrow(field)
    refuse({ match: { input: 'x' }, error: { status: 500 } }, 'match.input')
    refuse({ match: { operation: 'createEmbeddings', lastUserMessage: 'x' }, error: { status: 500 } }, 'match.lastUserMessage')
    refuse({ match: { operation: 'createEmbeddings', tools: true }, error: { status: 500 } }, 'match.tools')
    refuse({ match: { operation: 'createEmbeddings' }, reply: { content: 'hi' } }, 'reply.content')
    refuse({ match: { operation: 'createEmbeddings' }, reply: { usage: { completionTokens: 3 } } }, 'reply.usage.completionTokens')
    refuse({ match: { operation: 'embeddings' }, error: { status: 500 } }, 'match.operation')
    // A near miss names what it probably meant, among the operations a responder takes.
    refuse({ match: { operation: 'createEmbedding' }, error: { status: 500 } }, 'got "createEmbedding" (did you mean "createEmbeddings"?).')
    refuse({ match: { operation: 'createEmbeddings', input: 3 }, error: { status: 500 } }, 'match.input')
  })

  it('take `input` as { regex, flags } in JSON (the control API, world files)', () => {
    const rule = responderFromJson({ match: { operation: 'createEmbeddings', input: { regex: '^q:', flags: 'i' } }, error: { status: 500 } })
    expect(rule.match?.input).toEqual(/^q:/i)
    expect(() => responderFromJson({ match: { input: { regex: '(' } } })).toThrow('match.input.regex')
  })
})

describe('the default world', () => {
  it('serves its embedding models on POST /embeddings and lists them on GET /embeddings/models', () => {
    const sim = createSimulator()
    const listed = sim.handle({ method: 'GET', path: '/embeddings/models' }).body as { data: { id: string }[] }
    expect(listed.data.map((m) => m.id).sort()).toEqual(['mistralai/mistral-embed-2312', 'openai/text-embedding-3-large', 'openai/text-embedding-3-small'])
    for (const [model, size] of [[sim.world.models.embedding, 1536], ['openai/text-embedding-3-large', 3072], ['mistralai/mistral-embed-2312', 1024]] as const) {
      const answer = embed(sim, sim.world.apiKey, { model, input: 'hello' })
      expect(answer.status).toBe(200)
      expect(answer.body.data[0].embedding).toHaveLength(size)
    }
  })
})

describe('embeddings and bounded memory (decisions/0029)', () => {
  it('fold the key usage log like completions do, the usage exact', () => {
    const { sim, keyHash, key } = embedWorld()
    let total = 0n
    for (let i = 0; i < 1500; i++) {
      const answer = embed(sim, key, { input: 'a short text', dimensions: 2 })
      expect(answer.status).toBe(200)
      total += BigInt(Math.round(answer.body.usage.cost * 1e10))
      if (i % 100 === 99) sim.clock.advance(3_600_000)
    }
    const records = (sim.exportWorld().keys ?? []).find((k) => k.hash === keyHash)?.usage ?? []
    expect(records.length).toBeLessThan(1024)
    expect(BigInt(Math.round(sim.keys.get(keyHash)!.usage * 1e10))).toBe(total)
  })
})
