// Answers shaped as the real service's (decisions/0039): the end of every chat stream, every usage
// detail field, the assistant message's fields, and the provider of an embeddings answer.
import fc from 'fast-check'
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHandlers } from '../../src/msw/index.js'
import { startServer } from '../../src/server/index.js'
import { runs } from '../support/runs.js'
import { chat, chatWorld, MODEL } from './support.js'

const ZERO_DETAILS = {
  prompt_tokens_details: { cached_tokens: 0, cache_write_tokens: 0, audio_tokens: 0, video_tokens: 0 },
  completion_tokens_details: { reasoning_tokens: 0, image_tokens: 0, audio_tokens: 0 },
}

/** The `data:` payloads of an SSE text, `[DONE]` as the string. */
const dataOf = (text: string): unknown[] =>
  text
    .split('\n\n')
    .filter((event) => event.startsWith('data: '))
    .map((event) => (event === 'data: [DONE]' ? '[DONE]' : JSON.parse(event.slice(6))))

/** What LangChain's ChatOpenRouter does with a stream: usage read only from a chunk that has a choice. */
function usageSeenThroughAChoice(chunks: readonly any[]): unknown {
  let usage: unknown
  for (const chunk of chunks) if (chunk !== '[DONE]' && chunk.choices.length > 0 && chunk.usage !== undefined) usage = chunk.usage
  return usage
}

/** Checks a chat stream's chunks end as the service's do, and returns the usage chunk. */
function checkStreamEnd(chunks: readonly any[], finishReason: string): any {
  expect(chunks.at(-1)).toBe('[DONE]')
  const data = chunks.slice(0, -1) as any[]
  const id = data[0].id
  expect(id).toMatch(/^gen-\d+-[A-Za-z0-9]{20}$/)
  for (const chunk of data) {
    expect(chunk).toMatchObject({ id, object: 'chat.completion.chunk', created: expect.any(Number), model: expect.any(String), provider: expect.any(String) })
    expect(chunk.choices).toHaveLength(1)
    expect(Object.keys(chunk.choices[0])).toEqual(expect.arrayContaining(['index', 'delta', 'finish_reason', 'native_finish_reason']))
  }
  const [finish, last] = data.slice(-2)
  for (const chunk of data.slice(0, -2)) {
    expect(chunk.choices[0].delta.role).toBe('assistant')
    expect(chunk.choices[0].finish_reason).toBeNull()
    expect(chunk.usage).toBeUndefined()
  }
  const choice = { index: 0, delta: {}, finish_reason: finishReason, native_finish_reason: finishReason, logprobs: null }
  expect(finish.choices).toEqual([choice])
  expect(finish.usage).toBeUndefined()
  expect(last.choices).toEqual([choice])
  expect(usageSeenThroughAChoice(chunks)).toEqual(last.usage)
  return last.usage
}

describe('a chat stream ends as the service ends it', () => {
  it('with the finish chunk, a usage chunk repeating its choice, then [DONE], whatever the finish reason', () => {
    const { sim, key } = chatWorld()
    for (const reply of [{ content: 'A reply long enough for a few chunks of sixteen.' }, { toolCalls: [{ name: 'lookup', arguments: '{"id":1}' }] }, { content: 'Blocked.', finishReason: 'content_filter' as const }]) {
      sim.inference.responders.clear()
      sim.inference.respond({ reply })
      const answer = chat(sim, key, { model: MODEL, stream: true, provider: { only: ['Alpha'] } })
      const chunks = dataOf((answer.response.body as { data: string }[]).map((f) => f.data).join(''))
      const finishReason = 'toolCalls' in reply ? 'tool_calls' : (reply.finishReason ?? 'stop')
      const usage = checkStreamEnd(chunks, finishReason)
      const generation = sim.handle({ method: 'GET', path: '/generation', query: `id=${(chunks[0] as any).id}`, authorization: `Bearer ${key}` }).body as any
      expect(usage.cost).toBe(generation.data.total_cost)
      expect(usage.completion_tokens).toBe(generation.data.tokens_completion)
    }
  })

  it('cut at max_tokens, with finish_reason "length" on both end chunks', () => {
    const { sim, key } = chatWorld()
    sim.inference.respond({ reply: { content: 'x'.repeat(400) } })
    const answer = chat(sim, key, { model: MODEL, stream: true, max_tokens: 5 })
    const usage = checkStreamEnd(dataOf((answer.response.body as { data: string }[]).map((f) => f.data).join('')), 'length')
    expect(usage.completion_tokens).toBe(5)
  })

  it('a mid-stream error still ends with its error chunk alone: no finish, usage chunk or [DONE] (decisions/0026)', () => {
    const { sim, key } = chatWorld()
    sim.inference.respond({ reply: { content: 'x'.repeat(200) } })
    sim.faults.add({ afterChunks: 2, respond: { status: 502 } })
    const answer = chat(sim, key, { model: MODEL, stream: true })
    const chunks = dataOf((answer.response.body as { data: string }[]).map((f) => f.data).join('')) as any[]
    expect(chunks).toHaveLength(3)
    expect(chunks.at(-1).choices[0].finish_reason).toBe('error')
    expect(chunks.at(-1).error.code).toBe(502)
    expect(chunks.every((c) => c !== '[DONE]' && c.usage === undefined)).toBe(true)
  })

  it('a disconnect after the finish chunk changes nothing, before it charges what was sent', () => {
    const { sim, key, keyHash } = chatWorld()
    sim.inference.respond({ reply: { content: 'y'.repeat(64) } })
    const whole = chat(sim, key, { model: MODEL, stream: true, provider: { only: ['Alpha'] } })
    const frames = whole.response.body as { data: string }[]
    const before = sim.keys.get(keyHash)!.usage
    // The comment, 4 content chunks, the finish chunk: sent. The usage chunk and [DONE]: not.
    expect((whole.response as any).cancel(frames.length - 2)).toBe(false)
    expect(sim.keys.get(keyHash)!.usage).toBe(before)
    const cut = chat(sim, key, { model: MODEL, stream: true, provider: { only: ['Alpha'] } })
    expect((cut.response as any).cancel(3)).toBe(true)
    const id = JSON.parse((cut.response.body as { data: string }[])[1]!.data.slice(6)).id
    const generation = (sim.handle({ method: 'GET', path: '/generation', query: `id=${id}`, authorization: `Bearer ${key}` }).body as any).data
    expect(generation).toMatchObject({ cancelled: true, tokens_completion: 8 })
  })
})

describe('for any reply', () => {
  const reply = fc.record(
    {
      content: fc.string({ maxLength: 80 }),
      reasoning: fc.string({ maxLength: 40 }),
      toolCalls: fc.array(fc.record({ name: fc.constantFrom('a', 'lookup'), arguments: fc.constantFrom('{}', '{"id":1}') }), { maxLength: 2 }),
      finishReason: fc.constantFrom('stop' as const, 'length' as const, 'content_filter' as const),
    },
    { requiredKeys: [] },
  )

  it('a chat stream and a text completion stream end with the finish choice twice, the second with the JSON answer\'s usage', () => {
    fc.assert(
      fc.property(reply, fc.option(fc.integer({ min: 1, max: 30 }), { nil: undefined }), (given, maxTokens) => {
        const { sim, key } = chatWorld()
        sim.inference.respond({ reply: given })
        const request = { model: MODEL, provider: { only: ['Alpha'] }, ...(maxTokens !== undefined && { max_tokens: maxTokens }) }
        for (const [path, body] of [['/chat/completions', { messages: [{ role: 'user', content: 'Hi' }] }], ['/completions', { prompt: 'Hi' }]] as const) {
          const post = (stream: boolean) => sim.handle({ method: 'POST', path, authorization: `Bearer ${key}`, body: JSON.stringify({ ...request, ...body, stream }) })
          const json = post(false).body as any
          const chunks = dataOf((post(true).body as { data: string }[]).map((f) => f.data).join('')) as any[]
          expect(chunks.at(-1)).toBe('[DONE]')
          const [finish, last] = chunks.slice(-3, -1)
          expect(last.choices).toEqual(finish.choices)
          expect(finish.choices[0].finish_reason).toBe(json.choices[0].finish_reason)
          expect(last.usage).toEqual(json.usage)
          expect(chunks.slice(0, -3).every((c) => c.choices[0].finish_reason === null && c.usage === undefined)).toBe(true)
          const text = chunks.slice(0, -3).map((c) => (path === '/completions' ? c.choices[0].text : (c.choices[0].delta.content ?? ''))).join('')
          expect(text).toBe(path === '/completions' ? json.choices[0].text : (json.choices[0].message.content ?? ''))
        }
      }),
      { verbose: true, numRuns: runs(60) },
    )
  })
})

describe('usage carries every detail field', () => {
  it('in a non-streamed answer and its stream alike, the parts at the endpoint\'s prices and no upstream cost without BYOK', () => {
    const { sim, key } = chatWorld()
    sim.inference.respond({ reply: { content: 'Hi.', usage: { promptTokens: 1000, completionTokens: 50 } } })
    const plain = chat(sim, key, { model: MODEL, provider: { only: ['Alpha'] } }).body
    // Alpha: 1,000 x 0.000001 + 50 x 0.000002.
    const expected = {
      prompt_tokens: 1000,
      completion_tokens: 50,
      total_tokens: 1050,
      cost: 0.0011,
      is_byok: false,
      ...ZERO_DETAILS,
      cost_details: { upstream_inference_cost: null, upstream_inference_prompt_cost: 0.001, upstream_inference_completions_cost: 0.0001 },
    }
    expect(plain.usage).toEqual(expected)
    const streamed = chat(sim, key, { model: MODEL, provider: { only: ['Alpha'] }, stream: true })
    const chunks = dataOf((streamed.response.body as { data: string }[]).map((f) => f.data).join('')) as any[]
    expect(chunks.at(-2).usage).toEqual(expected)
  })

  it('counts cached and reasoning tokens in their details', () => {
    const { sim, key } = chatWorld()
    sim.inference.respond({ reply: { content: 'Hi.', reasoning: 'Think.', usage: { promptTokens: 100, completionTokens: 30, reasoningTokens: 10, cachedTokens: 40 } } })
    const { usage } = chat(sim, key, { model: MODEL }).body
    expect(usage.prompt_tokens_details).toEqual({ cached_tokens: 40, cache_write_tokens: 0, audio_tokens: 0, video_tokens: 0 })
    expect(usage.completion_tokens_details).toEqual({ reasoning_tokens: 10, image_tokens: 0, audio_tokens: 0 })
  })

  it('in a Responses answer, input_tokens_details has cache_write_tokens', () => {
    const { sim, key } = chatWorld()
    const response = sim.handle({ method: 'POST', path: '/responses', authorization: `Bearer ${key}`, body: JSON.stringify({ model: MODEL, input: 'Hello' }) })
    expect((response.body as any).usage.input_tokens_details).toEqual({ cached_tokens: 0, cache_write_tokens: 0 })
  })
})

describe('the assistant message of a non-streamed answer', () => {
  it('has role, content, refusal and reasoning null when there is none, and no reasoning_details or tool_calls', () => {
    const { sim, key } = chatWorld()
    const { message } = chat(sim, key, { model: MODEL }).body.choices[0]
    expect(Object.keys(message)).toEqual(['role', 'content', 'refusal', 'reasoning'])
    expect(message).toMatchObject({ role: 'assistant', content: expect.any(String), refusal: null, reasoning: null })
  })

  it('with reasoning, has it as text and as one reasoning.text entry of reasoning_details', () => {
    const { sim, key } = chatWorld()
    sim.inference.respond({ reply: { content: 'Yes.', reasoning: 'The user asked; answer briefly.' } })
    const { message } = chat(sim, key, { model: MODEL }).body.choices[0]
    expect(message).toEqual({
      role: 'assistant',
      content: 'Yes.',
      refusal: null,
      reasoning: 'The user asked; answer briefly.',
      reasoning_details: [{ type: 'reasoning.text', text: 'The user asked; answer briefly.', format: 'unknown', index: 0 }],
    })
  })

  it('with tool calls and no text, has content null and each call with its type, index, id and function', () => {
    const { sim, key } = chatWorld()
    sim.inference.respond({ reply: { toolCalls: [{ name: 'a', arguments: '{}' }, { id: 'call_given', name: 'b', arguments: '{"x":1}' }] } })
    const { message } = chat(sim, key, { model: MODEL }).body.choices[0]
    expect(message.content).toBeNull()
    expect(message.tool_calls).toEqual([
      { type: 'function', index: 0, id: expect.stringMatching(/^call_/), function: { name: 'a', arguments: '{}' } },
      { type: 'function', index: 1, id: 'call_given', function: { name: 'b', arguments: '{"x":1}' } },
    ])
    expect(Object.keys(message.tool_calls[0])).toEqual(['type', 'index', 'id', 'function'])
  })

  it('with tool calls and text, keeps the text', () => {
    const { sim, key } = chatWorld()
    sim.inference.respond({ reply: { content: 'Looking it up.', toolCalls: [{ name: 'a', arguments: '{}' }] } })
    expect(chat(sim, key, { model: MODEL }).body.choices[0].message.content).toBe('Looking it up.')
  })
})

describe('an embeddings answer', () => {
  it('names the provider that made the vectors', () => {
    const { sim, key } = chatWorld()
    sim.models.create({ id: 'acme/embed-1', architecture: { output_modalities: ['embeddings'], input_modalities: ['text'], modality: 'text->embeddings' }, endpoints: [{ provider_name: 'Vectorly', pricing: { prompt: '0.00000002', completion: '0' } }] })
    const response = sim.handle({ method: 'POST', path: '/embeddings', authorization: `Bearer ${key}`, body: JSON.stringify({ model: 'acme/embed-1', input: 'hello' }) })
    expect(response.status).toBe(200)
    expect((response.body as any).provider).toBe('Vectorly')
  })
})

const wireWorld = () => {
  const world = chatWorld()
  world.sim.inference.respond({ reply: { content: 'Over the wire, as the service ends a stream.' } })
  return world
}

const post = (base: string, key: string) =>
  fetch(`${base}/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }], stream: true }),
  })

describe('through MSW', () => {
  const world = wireWorld()
  const server = setupServer(...createHandlers(world.sim, { baseUrl: 'http://answers.test/api/v1' }))
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
  afterAll(() => server.close())

  it('a plain fetch reads the same stream end', async () => {
    checkStreamEnd(dataOf(await (await post('http://answers.test/api/v1', world.key)).text()), 'stop')
  })
})

describe('through the server', () => {
  it('a plain fetch reads the same stream end', async () => {
    const world = wireWorld()
    const running = await startServer(world.sim, { port: 0, control: false })
    try {
      checkStreamEnd(dataOf(await (await post(running.url, world.key)).text()), 'stop')
    } finally {
      await running.close()
    }
  })
})
