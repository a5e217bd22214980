// POST /responses through sim.handle and over the server: how the input items are read and
// counted, what is refused (naming the field, charging nothing), what the result echoes, the
// event stream's framing, and byte-identical answers for the same seed.
import { describe, expect, it } from 'vitest'
import { createSimulator, estimateCost, type SimResponse } from '../../src/index.js'
import { toResponse } from '../../src/msw/index.js'
import { startServer } from '../../src/server/index.js'
import { chatWorld, generation, MODEL } from './support.js'

type Handle = { handle(request: any): SimResponse }

function respond(sim: Handle, key: string, body: Record<string, unknown>): { status: number; body: any; response: SimResponse } {
  const response = sim.handle({ method: 'POST', path: '/responses', authorization: `Bearer ${key}`, body: JSON.stringify({ model: MODEL, input: 'Hello there', ...body }) })
  return { status: response.status, body: response.body, response }
}

const tokens = (text: string): number => Math.ceil(text.length / 4)

describe('reading a Responses request', () => {
  it('counts each input item as the chat estimator counts a message: text, tool calls, outputs, reasoning, media, instructions', () => {
    const { sim, key } = chatWorld()
    const args = '{"city":"Paris"}'
    const output = '{"celsius":21}'
    const opaque = { type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'search', query: 'weather' } }
    const answer = respond(sim, key, {
      instructions: 'Be brief.',
      input: [
        { role: 'user', content: [{ type: 'input_text', text: 'What is the weather?' }, { type: 'input_image', detail: 'auto', image_url: 'https://example.com/a.png' }] },
        { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Look it up.' }] },
        { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: args },
        { type: 'function_call_output', call_id: 'call_1', output },
        opaque,
        { type: 'message', role: 'assistant', id: 'msg_1', status: 'completed', content: [{ type: 'output_text', text: 'It is mild.', annotations: [] }] },
        { role: 'user', content: 'And tomorrow?' },
      ],
    })

    expect(answer.status).toBe(200)
    const expected =
      4 + tokens('Be brief.') +
      4 + tokens('What is the weather?') + 85 +
      4 + tokens('Look it up.') +
      4 + tokens('get_weather' + args) +
      4 + tokens(output) +
      4 + tokens(JSON.stringify(opaque)) +
      4 + tokens('It is mild.') +
      4 + tokens('And tomorrow?')
    expect(answer.body.usage.input_tokens).toBe(expected)
  })

  it('counts the tools it is given as prompt text, and echoes the function tools, the tool choice and the sampling figures', () => {
    const { sim, key } = chatWorld()
    const tools = [
      { type: 'function', name: 'lookup', description: 'Find an order', parameters: { type: 'object', properties: { id: { type: 'string' } } }, strict: true },
      { type: 'web_search_preview' },
    ]
    const plain = respond(sim, key, {})
    const answer = respond(sim, key, {
      tools,
      tool_choice: { type: 'function', name: 'lookup' },
      parallel_tool_calls: false,
      temperature: 0.5,
      top_p: 0.9,
      presence_penalty: 0.1,
      frequency_penalty: -0.1,
      max_output_tokens: 500,
      max_tool_calls: 2,
      metadata: { order: '42' },
      user: 'customer-7',
      safety_identifier: 'abc',
      prompt_cache_key: 'k1',
    })

    expect(answer.status).toBe(200)
    expect(answer.body.usage.input_tokens - plain.body.usage.input_tokens).toBe(tokens(JSON.stringify(tools)))
    expect(answer.body).toMatchObject({
      tools: [tools[0]],
      tool_choice: { type: 'function', name: 'lookup' },
      parallel_tool_calls: false,
      temperature: 0.5,
      top_p: 0.9,
      presence_penalty: 0.1,
      frequency_penalty: -0.1,
      max_output_tokens: 500,
      max_tool_calls: 2,
      metadata: { order: '42' },
      user: 'customer-7',
      safety_identifier: 'abc',
      prompt_cache_key: 'k1',
      store: false,
    })
    expect(generation(sim, key, answer.body.id).body.data.external_user).toBe('customer-7')
  })

  it.each([
    ['no input', { input: undefined }, 'input'],
    ['an empty input list', { input: [] }, 'input'],
    ['an item type outside the API', { input: [{ type: 'no_such_item' }] }, 'input[0].type'],
    ['a message without a role', { input: [{ type: 'message', content: 'Hi' }] }, 'input[0].role'],
    ['a content part of an unknown type', { input: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }] }, 'input[0].content[0].type'],
    ['a function call without call_id', { input: [{ type: 'function_call', name: 'f', arguments: '{}' }] }, 'input[0].call_id'],
    ['a function call output without output', { input: [{ type: 'function_call_output', call_id: 'c' }] }, 'input[0].output'],
    ['a function tool without a name', { tools: [{ type: 'function', parameters: {} }] }, 'tools[0].name'],
    ['a tool choice that is not one', { tool_choice: 'sometimes' }, 'tool_choice'],
    ['a metadata value that is not a string', { metadata: { n: 1 } }, 'metadata.n'],
    ['store: true', { store: true }, 'store'],
    ['a previous response to continue', { previous_response_id: 'resp_1' }, 'previous_response_id'],
    ['max_output_tokens of 0', { max_output_tokens: 0 }, 'max_output_tokens'],
    ['temperature out of range', { temperature: 2.5 }, 'temperature'],
  ])('refuses %s with a 400 naming it, and charges nothing', (_, body, parameter) => {
    const { sim, key, keyHash } = chatWorld()
    const world = JSON.stringify(sim.exportWorld())

    const answer = respond(sim, key, body)

    expect(answer.status).toBe(400)
    expect(answer.body.error.metadata.parameter).toBe(parameter)
    expect(answer.body.error.message).toBe(`Invalid request parameters: ${parameter} ${answer.body.error.metadata.reason}`)
    expect(sim.keys.get(keyHash)!.usage).toBe(0)
    expect(JSON.stringify(sim.exportWorld())).toBe(world)
  })

  it.each([
    ['an unknown field', { temprature: 1 }, 'temprature'],
    ['an unknown field in a message', { input: [{ role: 'user', content: 'Hi', colour: 'red' }] }, 'input[0].colour'],
    ['an unknown field of reasoning', { reasoning: { efort: 'low' } }, 'reasoning.efort'],
    ['an unknown field of a content part', { input: [{ role: 'user', content: [{ type: 'input_text', text: 'Hi', colour: 'red' }] }] }, 'input[0].content[0].colour'],
    ['an unknown field of an image part', { input: [{ role: 'user', content: [{ type: 'input_image', image_url: 'https://example.com/a.png', detial: 'low' }] }] }, 'input[0].content[0].detial'],
  ])('accepts %s and lists it on the journal entry; strictRequests refuses it, naming it, and charges nothing', (_, body, parameter) => {
    const lenient = chatWorld()
    expect(respond(lenient.sim, lenient.key, body).status).toBe(200)
    expect(lenient.sim.journal.list().at(-1)?.ignoredFields).toEqual([parameter])

    const { sim, key, keyHash } = chatWorld({ strictRequests: true })
    const world = JSON.stringify(sim.exportWorld())
    const answer = respond(sim, key, body)
    expect(answer.status).toBe(400)
    expect(answer.body.error.metadata.parameter).toBe(parameter)
    expect(sim.keys.get(keyHash)!.usage).toBe(0)
    expect(JSON.stringify(sim.exportWorld())).toBe(world)
  })

  it('accepts every field of the SDK ResponsesRequest', () => {
    const { sim, key } = chatWorld()
    const answer = respond(sim, key, {
      background: false, cache_control: { type: 'ephemeral' }, debug: {}, frequency_penalty: 0, image_config: {}, include: ['reasoning.encrypted_content'],
      instructions: null, max_output_tokens: null, max_tool_calls: null, metadata: null, modalities: ['text'], models: [MODEL], parallel_tool_calls: null,
      plugins: [], presence_penalty: null, previous_response_id: null, prompt: null, prompt_cache_key: null, prompt_cache_options: null, provider: null,
      reasoning: { effort: 'low' }, safety_identifier: null, service_tier: null, session_id: 's-1', stop_server_tools_when: [], store: false, stream: false,
      temperature: null, text: { verbosity: 'low' }, tool_choice: 'auto', tools: [], top_k: 1, top_logprobs: null, top_p: null, trace: {}, truncation: null, user: 'u',
    })
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
  })

  it('refuses management keys with 403 before reading the body', () => {
    const sim = createSimulator()
    const answer = respond(sim, sim.world.managementKey, { input: 42 })
    expect(answer.status).toBe(403)
    expect(answer.body.error.metadata.reason).toBe('management_key')
  })
})

describe('responders on Responses requests', () => {
  it('answer with a rule that names no operation or createResponses, and not with one for chat completions or embeddings', () => {
    const { sim, key } = chatWorld()
    const text = (answer: ReturnType<typeof respond>) => answer.body.output_text as string
    const chat = (): string => (sim.handle({ method: 'POST', path: '/chat/completions', authorization: `Bearer ${key}`, body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'Hello there' }] }) }).body as any).choices[0].message.content

    sim.inference.respond({ reply: { content: 'Any text operation.' } })
    expect(text(respond(sim, key, {}))).toBe('Any text operation.')
    expect(chat()).toBe('Any text operation.')

    sim.inference.respond({ match: { operation: 'createChatCompletion' }, reply: { content: 'Chat only.' } })
    expect(text(respond(sim, key, {}))).toBe('Any text operation.')
    expect(chat()).toBe('Chat only.')

    sim.inference.respond({ match: { operation: 'createEmbeddings' }, reply: { usage: { promptTokens: 3 } } })
    sim.inference.respond({ match: { operation: 'createResponses', lastUserMessage: /there/ }, reply: { content: 'Responses only.' } })
    expect(text(respond(sim, key, {}))).toBe('Responses only.')
    expect(chat()).toBe('Chat only.')
  })
})

describe('the Responses event stream', () => {
  it('frames each event as `event:` and `data:` lines of the same type, from the time to first token on, ending in [DONE]', () => {
    const { sim, key } = chatWorld()
    sim.inference.respond({ reply: { content: 'A reply long enough to take a few deltas to send.' } })

    const answer = respond(sim, key, { stream: true, provider: { order: ['Alpha'] } })

    expect(answer.response.type).toBe('stream')
    const frames = answer.body as { atMs: number; data: string }[]
    expect(frames[0]!.data).toBe(': OPENROUTER PROCESSING\n\n')
    expect(frames.at(-1)!.data).toBe('data: [DONE]\n\n')
    const events = frames.slice(1, -1).map((frame) => {
      const [eventLine, dataLine, ...rest] = frame.data.split('\n')
      expect(rest).toEqual(['', ''])
      const data = JSON.parse(dataLine!.replace(/^data: /, ''))
      expect(eventLine).toBe(`event: ${data.type}`)
      return { atMs: frame.atMs, data }
    })
    expect(events.map((e) => e.data.sequence_number)).toEqual(events.map((_, i) => i))
    const offsets = frames.map((f) => f.atMs)
    expect(offsets).toEqual([...offsets].sort((a, b) => a - b))
    // Alpha's time to first token is 300 ms; output begins there.
    expect(events.find((e) => e.data.type === 'response.output_item.added')!.atMs).toBe(300)
    expect(events.at(-1)!.atMs).toBeGreaterThan(300)
  })

  it('is written over the server as text/event-stream, and the same seed gives the same bytes, streamed or not', async () => {
    const run = async () => {
      const sim = createSimulator({ seed: 11 })
      const texts: string[] = []
      for (const stream of [false, true]) {
        const answer = respond(sim, sim.world.apiKey, { model: sim.world.models.timeWindowed, input: 'Tell me about routing.', stream })
        texts.push(await toResponse(answer.response, 'POST').text())
      }
      return texts
    }
    const first = await run()
    expect(await run()).toEqual(first)

    const sim = createSimulator({ seed: 11 })
    const server = await startServer(sim, { port: 0, control: false })
    try {
      const texts: string[] = []
      for (const stream of [false, true]) {
        const res = await fetch(`${server.url}/responses`, {
          method: 'POST',
          headers: { authorization: `Bearer ${sim.world.apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model: sim.world.models.timeWindowed, input: 'Tell me about routing.', stream }),
        })
        expect(res.headers.get('content-type')).toBe(stream ? 'text/event-stream' : 'application/json')
        texts.push(await res.text())
      }
      expect(texts).toEqual(first)
    } finally {
      await server.close()
    }
  })
})

describe('a Responses stream cut short (decisions/0026)', () => {
  const PRICING = { prompt: '0.000001', completion: '0.000002', request: '0.0001' }
  const at = Date.parse('2026-03-02T10:00:00Z')
  /** 63 characters: text deltas of 16, 16, 16 and 15 characters, 4 tokens each. */
  const REPLY = 'One two three four five six seven eight nine ten eleven twelve.'
  /** 'Count.' is 2 tokens, plus 4 for the message. */
  const PROMPT_TOKENS = 6

  function world() {
    const sim = createSimulator({ world: 'empty', seed: 3, now: at })
    const org = sim.users.create({ name: 'Acme', credits: { total: 100 } })
    const { key, record } = sim.keys.create({ userId: org.id })
    sim.models.create({ id: 'acme/fast', endpoints: [{ provider_name: 'Swift', pricing: PRICING }] })
    sim.inference.respond({ reply: { content: REPLY } })
    const start = (): Extract<SimResponse, { type: 'stream' }> => {
      const response = sim.handle({ method: 'POST', path: '/responses', authorization: `Bearer ${key}`, body: JSON.stringify({ model: 'acme/fast', input: 'Count.', stream: true }) })
      expect(response.type).toBe('stream')
      return response as Extract<SimResponse, { type: 'stream' }>
    }
    return { sim, org, key, keyHash: record.hash, start }
  }
  const eventsOf = (frames: readonly { data: string }[]) => frames.filter((f) => f.data.startsWith('event: ')).map((f) => JSON.parse(f.data.split('\n')[1]!.slice(6)))
  const cost = (completionTokens: number) => Number(estimateCost(PRICING, { promptTokens: PROMPT_TOKENS, completionTokens }, { at }))

  it('charges a client that goes away the prompt and the text deltas it was sent, and the generation says cancelled', () => {
    // Frames: the comment, created, in_progress, item added, part added, 4 deltas (indexes 5 to 8),
    // text done, part done, item done (11, the end of the reply), completed, [DONE].
    for (const [sent, completion] of [[0, 0], [5, 0], [6, 4], [8, 12], [9, 16], [11, 16]] as const) {
      const { sim, org, key, keyHash, start } = world()
      const response = start()
      expect(response.body).toHaveLength(14)
      const id = eventsOf(response.body).at(-1).response.id
      expect(response.cancel?.(sent)).toBe(true)
      const recorded = generation(sim, key, id).body.data
      expect(recorded).toMatchObject({ cancelled: true, tokens_prompt: PROMPT_TOKENS, tokens_completion: completion, total_cost: cost(completion) })
      expect(sim.keys.get(keyHash)!.usage).toBe(cost(completion))
      expect(sim.credits.get(org.id).total_usage).toBe(cost(completion))
    }
    const { sim, keyHash, start } = world()
    const response = start()
    expect(response.cancel?.(12)).toBe(false)
    expect(sim.keys.get(keyHash)!.usage).toBe(cost(16))
  })

  it('ends with an error event after the deltas a mid-stream fault allows, charging what was sent', () => {
    const { sim, key, keyHash, start } = world()
    sim.faults.providerDown({ provider: 'Swift', afterChunks: 2 })

    const response = start()

    const events = eventsOf(response.body)
    expect(events.filter((e) => e.type === 'response.output_text.delta')).toHaveLength(2)
    expect(events.at(-1)).toMatchObject({ type: 'error', code: 'provider_unavailable', param: null })
    expect(response.body.at(-1)!.data).not.toContain('[DONE]')
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i))
    expect(sim.keys.get(keyHash)!.usage).toBe(cost(8))
    const id = eventsOf(start().body).find((e) => e.type === 'response.created').response.id
    expect(id).toMatch(/^gen-/)
    expect(sim.journal.list({ operation: 'createResponses' }).every((e) => e.status === 200)).toBe(true)
  })
})
