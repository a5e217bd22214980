// The older routes real code still calls (decisions/0039): `GET /auth/key`, the older name of
// `GET /key`, and `POST /completions`, legacy text completions on the chat money path.
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSimulator, type SimResponse } from '../../src/index.js'
import { createHandlers } from '../../src/msw/index.js'
import { startServer } from '../../src/server/index.js'
import { RESPONSE_SHAPES, validateShape } from '../../src/core/wire-shapes.js'
import { ALPHA, chatWorld, MODEL } from './support.js'

type Handle = { handle(request: any): SimResponse }

const tokens = (text: string): number => Math.ceil(text.length / 4)

function complete(sim: Handle, key: string, body: Record<string, unknown>): { status: number; body: any; response: SimResponse } {
  const response = sim.handle({ method: 'POST', path: '/completions', authorization: `Bearer ${key}`, body: JSON.stringify({ model: MODEL, prompt: 'Once upon a time', ...body }) })
  return { status: response.status, body: response.body, response }
}

const get = (sim: Handle, path: string, secret?: string): SimResponse => sim.handle({ method: 'GET', path, ...(secret !== undefined && { authorization: `Bearer ${secret}` }) })

/** The `data:` payloads of a stream response, `[DONE]` as the string. */
const streamed = (response: SimResponse): any[] =>
  (response.body as { data: string }[])
    .map((frame) => frame.data)
    .filter((data) => data.startsWith('data: '))
    .map((data) => (data === 'data: [DONE]\n\n' ? '[DONE]' : JSON.parse(data.slice(6))))

const generationOf = (sim: Handle, key: string, id: string): any => (sim.handle({ method: 'GET', path: '/generation', query: `id=${id}`, authorization: `Bearer ${key}` }).body as any).data

describe('GET /auth/key', () => {
  it('answers as GET /key does, for a regular and a management key', () => {
    const sim = createSimulator()
    for (const secret of [sim.world.apiKey, sim.world.managementKey]) {
      const legacy = get(sim, '/auth/key', secret)
      expect(legacy.status).toBe(200)
      expect(legacy.body).toEqual(get(sim, '/key', secret).body)
      expect(validateShape(RESPONSE_SHAPES.getCurrentKeyLegacy, legacy.body)).toEqual([])
    }
  })

  it('refuses as GET /key does: 401 without a key or with an unknown one', () => {
    const sim = createSimulator()
    for (const secret of [undefined, `sk-or-v1-${'0'.repeat(64)}`]) {
      const legacy = get(sim, '/auth/key', secret)
      const current = get(sim, '/key', secret)
      expect(legacy.status).toBe(401)
      expect(legacy.body).toEqual(current.body)
    }
  })

  it('is journaled as getCurrentKeyLegacy, and fault rules tell it from getCurrentKey', () => {
    const sim = createSimulator()
    sim.faults.add({ operation: 'getCurrentKeyLegacy', respond: { status: 500 } })
    expect(get(sim, '/auth/key', sim.world.apiKey).status).toBe(500)
    expect(get(sim, '/key', sim.world.apiKey).status).toBe(200)
    expect(sim.journal.list().map((entry) => [entry.operation, entry.path, entry.fault !== null])).toEqual([
      ['getCurrentKeyLegacy', '/auth/key', true],
      ['getCurrentKey', '/key', false],
    ])
  })
})

describe('POST /completions: the request', () => {
  it('takes the prompt as one user message: its tokens are 4 plus one per 4 characters', () => {
    const { sim, key } = chatWorld()
    const answer = complete(sim, key, { prompt: 'Write a tagline for an AI router.' })
    expect(answer.status).toBe(200)
    expect(answer.body.usage.prompt_tokens).toBe(4 + tokens('Write a tagline for an AI router.'))
  })

  it('takes a list of strings as one prompt, joined with newlines', () => {
    const { sim, key } = chatWorld()
    sim.inference.respond({ match: { lastUserMessage: 'first\nsecond' }, reply: { content: 'joined' } })
    const answer = complete(sim, key, { prompt: ['first', 'second'] })
    expect(answer.body.choices).toHaveLength(1)
    expect(answer.body.choices[0].text).toBe('joined')
    expect(answer.body.usage.prompt_tokens).toBe(4 + tokens('first\nsecond'))
  })

  it.each([
    ['no prompt', { prompt: undefined }, 'prompt', /is required/],
    ['a null prompt', { prompt: null }, 'prompt', /is required/],
    ['an empty list', { prompt: [] }, 'prompt', /must not be an empty array/],
    ['token ids', { prompt: [1, 2] }, 'prompt[0]', /must be a string \(token-id prompts are not simulated\)/],
    ['a number', { prompt: 7 }, 'prompt', /must be a string or an array of strings/],
    ['max_tokens 0', { max_tokens: 0 }, 'max_tokens', /./],
    ['temperature 3', { temperature: 3 }, 'temperature', /./],
    ['logprobs 6', { logprobs: 6 }, 'logprobs', /./],
    ['n 0', { n: 0 }, 'n', /./],
    ['stop 1', { stop: 1 }, 'stop', /must be a string or an array of strings/],
    ['no model', { model: undefined }, 'model', /is required/],
    ['an unknown model', { model: 'acme/none' }, 'model', /./],
  ])('refuses %s with a 400 naming the field, charging nothing', (_, fields, parameter, message) => {
    const { sim, key, keyHash } = chatWorld()
    const answer = complete(sim, key, fields)
    expect(answer.status).toBe(400)
    expect(answer.body.error.metadata.parameter ?? answer.body.error.metadata.model).toBeDefined()
    if (answer.body.error.metadata.parameter !== undefined) expect(answer.body.error.metadata.parameter).toBe(parameter)
    expect(JSON.stringify(answer.body.error)).toMatch(message)
    expect(sim.keys.get(keyHash)!.usage).toBe(0)
  })

  it('accepts the common fields of the service and the openai clients, without effect', () => {
    const { sim, key } = chatWorld()
    const plain = complete(sim, key, {}).body
    const { sim: again, key: key2 } = chatWorld()
    const full = complete(again, key2, {
      temperature: 0.2, top_p: 0.9, top_k: 40, frequency_penalty: 0.1, presence_penalty: 0.1, repetition_penalty: 1.1,
      min_p: 0.1, top_a: 0.1, logit_bias: { '50256': -100 }, top_logprobs: 2, stop: ['\n'], n: 1, best_of: 1, echo: false,
      suffix: null, logprobs: null, usage: { include: true }, transforms: ['middle-out'], route: 'fallback', user: 'u-1',
      stream_options: { include_usage: true }, include_reasoning: false, metadata: { a: 'b' }, session_id: 's-1', service_tier: null,
    })
    expect(full.status).toBe(200)
    expect(full.body.choices[0].text).toBe(plain.choices[0].text)
  })

  it('varies the text by `seed` (the same seed, the same text) and cuts it before the first stop sequence', () => {
    const { sim, key } = chatWorld()
    const plain = complete(sim, key, {}).body.choices[0].text as string
    const seeded = complete(sim, key, { seed: 7 }).body.choices[0].text as string
    expect(seeded).not.toBe(plain)
    expect(complete(sim, key, { seed: 7 }).body.choices[0].text).toBe(seeded)
    const word = plain.split(' ')[2] as string
    const cut = complete(sim, key, { stop: [`zzz`, ` ${word}`] }).body.choices[0]
    expect(cut.text).toBe(plain.slice(0, plain.indexOf(` ${word}`)))
    expect(cut.finish_reason).toBe('stop')
  })

  it('routes with provider preferences and falls back over models, as chat does', () => {
    const { sim, key } = chatWorld()
    expect(complete(sim, key, { provider: { only: ['Gamma'] } }).body.provider).toBe('Gamma')
    sim.models.create({ id: 'acme/down', endpoints: [{ provider_name: 'Down' }] })
    sim.faults.add({ operation: 'createCompletion', provider: 'Down', respond: { status: 503 } })
    const fallback = complete(sim, key, { model: undefined, models: ['acme/down', MODEL], provider: { order: ['Beta'] } })
    expect(fallback.status).toBe(200)
    expect(fallback.body).toMatchObject({ model: MODEL, provider: 'Beta' })
  })
})

describe('POST /completions: the answer', () => {
  it('is a text_completion with one choice, usage with every detail, priced and charged exactly, recorded as a generation', () => {
    const { sim, key, keyHash } = chatWorld()
    sim.inference.respond({ reply: { content: 'One API. Any model.' } })
    const before = sim.keys.get(keyHash)!.usage
    const answer = complete(sim, key, { provider: { only: ['Alpha'] } })
    expect(answer.response.headers['content-type']).toBe('application/json')
    const body = answer.body
    expect(validateShape(RESPONSE_SHAPES.createCompletion, body)).toEqual([])
    expect(body).toMatchObject({ object: 'text_completion', model: MODEL, provider: 'Alpha', choices: [{ text: 'One API. Any model.', index: 0, finish_reason: 'stop', native_finish_reason: 'stop', logprobs: null }] })
    expect(body.id).toMatch(/^gen-\d+-[A-Za-z0-9]{20}$/)
    // 4 + 16 characters of prompt; 19 characters of reply. Alpha: 0.000001 a prompt token, 0.000002 a completion token.
    const [prompt, completion, cost] = [8, 5, 0.000018]
    expect(body.usage).toEqual({
      prompt_tokens: prompt,
      completion_tokens: completion,
      total_tokens: prompt + completion,
      cost,
      is_byok: false,
      prompt_tokens_details: { cached_tokens: 0, cache_write_tokens: 0, audio_tokens: 0, video_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0, image_tokens: 0, audio_tokens: 0 },
      cost_details: { upstream_inference_cost: null, upstream_inference_prompt_cost: 0.000008, upstream_inference_completions_cost: 0.00001 },
    })
    expect(sim.keys.get(keyHash)!.usage).toBeCloseTo(before + cost, 12)
    const generation = generationOf(sim, key, body.id)
    expect(generation).toMatchObject({ total_cost: cost, tokens_prompt: prompt, tokens_completion: completion, streamed: false, provider_name: 'Alpha', api_type: 'completions', finish_reason: 'stop' })
    expect(sim.journal.list().map((e) => [e.operation, e.path, e.status])).toEqual([['createCompletion', '/completions', 200], ['getGeneration', '/generation', 200]])
  })

  it('is the seeded default reply without a responder, the same for the same seed and prompt', () => {
    const a = chatWorld({ seed: 11 })
    const b = chatWorld({ seed: 11 })
    const first = complete(a.sim, a.key, {}).body.choices[0].text
    expect(first.length).toBeGreaterThan(0)
    expect(complete(b.sim, b.key, {}).body.choices[0].text).toBe(first)
  })

  it('is cut at max_tokens with finish_reason "length"', () => {
    const { sim, key } = chatWorld()
    sim.inference.respond({ reply: { content: 'x'.repeat(400) } })
    const body = complete(sim, key, { max_tokens: 10 }).body
    expect(body.choices[0]).toMatchObject({ text: 'x'.repeat(40), finish_reason: 'length' })
    expect(body.usage.completion_tokens).toBe(10)
  })

  it('carries the reasoning of a reply that reasoned, and never its tool calls', () => {
    const { sim, key } = chatWorld()
    sim.inference.respond({ reply: { content: 'Done.', reasoning: 'Think first.', toolCalls: [{ name: 'lookup', arguments: '{}' }] } })
    const body = complete(sim, key, {}).body
    expect(body.choices[0]).toEqual({ text: 'Done.', index: 0, finish_reason: 'stop', native_finish_reason: 'stop', logprobs: null, reasoning: 'Think first.' })
    // The tool call is not part of the text completion, so not of its cost: reasoning and text only.
    expect(body.usage.completion_tokens).toBe(tokens('Think first.') + tokens('Done.'))
  })
})

describe('POST /completions: responders', () => {
  it('a rule without an operation answers it, one naming createCompletion only it, one naming chat not it', () => {
    const { sim, key } = chatWorld()
    sim.inference.respond({ match: { operation: 'createChatCompletion' }, reply: { content: 'chat only' } })
    expect(complete(sim, key, {}).body.choices[0].text).not.toBe('chat only')
    sim.inference.respond({ reply: { content: 'any text reply' } })
    expect(complete(sim, key, {}).body.choices[0].text).toBe('any text reply')
    const rule = sim.inference.respond({ match: { operation: 'createCompletion', lastUserMessage: /upon/ }, reply: { content: 'legacy' } })
    expect(complete(sim, key, {}).body.choices[0].text).toBe('legacy')
    expect(sim.journal.list().at(-1)?.responder).toBe(rule.name)
    const chat = sim.handle({ method: 'POST', path: '/chat/completions', authorization: `Bearer ${key}`, body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'Once upon a time' }] }) })
    expect((chat.body as any).choices[0].message.content).toBe('any text reply')
  })

  it('a responder error fails the attempt and the next provider answers', () => {
    const { sim, key } = chatWorld()
    sim.inference.respond({ match: { provider: 'Alpha' }, error: { status: 502 } })
    const answer = complete(sim, key, { provider: { order: ['Alpha', 'Beta'] } })
    expect(answer.status).toBe(200)
    expect(answer.body.provider).toBe('Beta')
    expect(generationOf(sim, key, answer.body.id).provider_responses.map((r: any) => [r.provider_name, r.status])).toEqual([['Alpha', 502], ['Beta', 200]])
  })
})

describe('POST /completions: admission, limits and faults, as for chat', () => {
  it('refuses a management key (403), a key at its limit (403), and an organisation without credits (402)', () => {
    const sim = createSimulator()
    expect(complete(sim, sim.world.managementKey, { model: sim.world.models.paid }).status).toBe(403)
    const limited = chatWorld({ limit: 0.000001 })
    expect(complete(limited.sim, limited.key, {}).status).toBe(200)
    const refused = complete(limited.sim, limited.key, {})
    expect(refused.status).toBe(403)
    expect(refused.body.error.message).toMatch(/^Key limit exceeded/)
    const poor = createSimulator({ world: 'empty', seed: 1 })
    const org = poor.users.create({ name: 'Poor' })
    poor.credits.add({ userId: org.id, amount: 0.000001 })
    const { key } = poor.keys.create({ userId: org.id })
    poor.models.create({ id: MODEL, endpoints: [ALPHA] })
    const payment = complete(poor, key, { max_tokens: 1000 })
    expect(payment.status).toBe(402)
    expect(payment.body.error.message).toMatch(/can only afford/)
  })

  it('is rate-limited with the other requests of the key', () => {
    const sim = createSimulator({ world: 'empty', seed: 7, rateLimit: { requests: 1, intervalMs: 60_000 } })
    const org = sim.users.create({ name: 'Acme', credits: { total: 10 } })
    const { key } = sim.keys.create({ userId: org.id })
    sim.models.create({ id: MODEL, endpoints: [ALPHA] })
    expect(complete(sim, key, {}).status).toBe(200)
    const limited = complete(sim, key, {})
    expect(limited.status).toBe(429)
    expect(limited.response.headers['retry-after']).toBeDefined()
  })

  it('answers a fault rule naming createCompletion, which chat requests pass by', () => {
    const { sim, key } = chatWorld()
    sim.faults.add({ operation: 'createCompletion', respond: { status: 503 } })
    expect(complete(sim, key, {}).status).toBe(503)
    const chat = sim.handle({ method: 'POST', path: '/chat/completions', authorization: `Bearer ${key}`, body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }] }) })
    expect(chat.status).toBe(200)
  })

  it('falls back past a provider fault naming createCompletion; a chat-only provider fault passes it by', () => {
    const { sim, key } = chatWorld()
    sim.faults.add({ operation: 'createChatCompletion', provider: 'Alpha', respond: { status: 500 } })
    expect(complete(sim, key, { provider: { order: ['Alpha', 'Beta'] } }).body.provider).toBe('Alpha')
    sim.faults.add({ operation: 'createCompletion', provider: 'Alpha', respond: { status: 502 } })
    expect(complete(sim, key, { provider: { order: ['Alpha', 'Beta'] } }).body.provider).toBe('Beta')
  })

  it('a provider fault naming createResponses or createEmbeddings reaches those requests (it never fired before)', () => {
    const { sim, key } = chatWorld()
    sim.faults.add({ operation: 'createResponses', provider: 'Alpha', respond: { status: 502 } })
    const response = sim.handle({ method: 'POST', path: '/responses', authorization: `Bearer ${key}`, body: JSON.stringify({ model: MODEL, input: 'Hi', provider: { order: ['Alpha', 'Beta'] } }) }).body as any
    expect(generationOf(sim, key, response.id).provider_responses.map((r: any) => r.provider_name)).toEqual(['Alpha', 'Beta'])
    expect(complete(sim, key, { provider: { order: ['Alpha', 'Beta'] } }).body.provider).toBe('Alpha')
    sim.models.create({ id: 'acme/embed', architecture: { output_modalities: ['embeddings'], input_modalities: ['text'], modality: 'text->embeddings' }, endpoints: [{ provider_name: 'Alpha' }, { provider_name: 'Beta' }] })
    sim.faults.add({ operation: 'createEmbeddings', provider: 'Alpha', respond: { status: 502 } })
    const embedded = sim.handle({ method: 'POST', path: '/embeddings', authorization: `Bearer ${key}`, body: JSON.stringify({ model: 'acme/embed', input: 'Hi', provider: { order: ['Alpha', 'Beta'] } }) }).body as any
    expect(embedded.provider).toBe('Beta')
  })

  it('moves the clock by a latency rule naming createCompletion', () => {
    const { sim, key } = chatWorld()
    const start = sim.clock.now()
    sim.latency.set({ operation: 'createCompletion', ms: 250 })
    complete(sim, key, {})
    expect(sim.clock.now().getTime() - start.getTime()).toBe(250)
  })
})

describe('POST /completions: streamed', () => {
  it('sends text chunks, the finish chunk, the usage chunk repeating its choice, then [DONE]; the cost is the generation\'s', () => {
    const { sim, key } = chatWorld()
    const text = 'A reply of several chunks, streamed as text.'
    sim.inference.respond({ reply: { content: text } })
    const answer = complete(sim, key, { stream: true })
    expect(answer.response.headers['content-type']).toBe('text/event-stream')
    const chunks = streamed(answer.response)
    expect(chunks.at(-1)).toBe('[DONE]')
    const data = chunks.slice(0, -1)
    for (const chunk of data) {
      expect(chunk).toMatchObject({ id: data[0].id, object: 'text_completion', created: expect.any(Number), model: MODEL, provider: expect.any(String) })
      expect(chunk.choices).toHaveLength(1)
    }
    const pieces = data.slice(0, -2)
    expect(pieces.every((c: any) => c.choices[0].finish_reason === null && c.usage === undefined)).toBe(true)
    expect(pieces.map((c: any) => c.choices[0].text).join('')).toBe(text)
    const finish = { text: '', index: 0, finish_reason: 'stop', native_finish_reason: 'stop', logprobs: null }
    expect(data.at(-2).choices).toEqual([finish])
    expect(data.at(-2).usage).toBeUndefined()
    expect(data.at(-1).choices).toEqual([finish])
    const generation = generationOf(sim, key, data[0].id)
    expect(data.at(-1).usage.cost).toBe(generation.total_cost)
    expect(generation.streamed).toBe(true)
  })

  it('is journaled with its frames, the same bytes as were sent', () => {
    const { sim, key } = chatWorld()
    const answer = complete(sim, key, { stream: true })
    const entry = sim.journal.list({ operation: 'createCompletion' })[0]!
    expect(entry.response.type).toBe('stream')
    expect(entry.response.body).toEqual(answer.response.body)
  })

  it('is cut by a mid-stream fault naming createCompletion, charging what was sent', () => {
    const { sim, key } = chatWorld()
    sim.inference.respond({ reply: { content: 'z'.repeat(64) } })
    sim.faults.add({ operation: 'createCompletion', afterChunks: 1, respond: { status: 502 } })
    const chunks = streamed(complete(sim, key, { stream: true }).response)
    expect(chunks).toHaveLength(2)
    expect(chunks[1]).toMatchObject({ choices: [{ text: '', finish_reason: 'error' }], error: { code: 502 } })
    expect(generationOf(sim, key, chunks[0].id)).toMatchObject({ finish_reason: 'error', tokens_completion: 4 })
  })

  it('a client gone after one text chunk is charged the prompt and that chunk', () => {
    const { sim, key } = chatWorld()
    sim.inference.respond({ reply: { content: 'w'.repeat(64) } })
    const answer = complete(sim, key, { stream: true })
    expect((answer.response as any).cancel(2)).toBe(true)
    const id = streamed(answer.response)[0].id
    expect(generationOf(sim, key, id)).toMatchObject({ cancelled: true, tokens_completion: 4 })
  })
})

describe('the older routes through MSW and the server', () => {
  const world = chatWorld()
  world.sim.inference.respond({ reply: { content: 'Over the wire.' } })
  const base = 'http://legacy.test/api/v1'
  const server = setupServer(...createHandlers(world.sim, { baseUrl: base }))
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
  afterAll(() => server.close())

  const calls = async (url: string) => {
    const headers = { authorization: `Bearer ${world.key}`, 'content-type': 'application/json' }
    const key = await fetch(`${url}/auth/key`, { headers })
    const plain = await fetch(`${url}/completions`, { method: 'POST', headers, body: JSON.stringify({ model: MODEL, prompt: 'Hi' }) })
    const stream = await fetch(`${url}/completions`, { method: 'POST', headers, body: JSON.stringify({ model: MODEL, prompt: ['Hi'], stream: true }) })
    return { key: [key.status, ((await key.json()) as any).data.label], plain: [plain.status, ((await plain.json()) as any).choices[0].text], stream: [stream.headers.get('content-type'), (await stream.text()).endsWith('data: [DONE]\n\n')] }
  }

  it('a plain fetch reaches both through MSW', async () => {
    expect(await calls(base)).toEqual({ key: [200, expect.any(String)], plain: [200, 'Over the wire.'], stream: ['text/event-stream', true] })
  })

  it('and through the server', async () => {
    server.close()
    const running = await startServer(world.sim, { port: 0, control: false })
    try {
      expect(await calls(running.url)).toEqual({ key: [200, expect.any(String)], plain: [200, 'Over the wire.'], stream: ['text/event-stream', true] })
    } finally {
      await running.close()
    }
  })
})
