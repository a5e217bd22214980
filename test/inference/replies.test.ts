// Default replies that follow the request (decisions/0048): tool calls valid against the tool's
// schema, structured output valid against the answer's schema, reasoning, stop, logprobs and seed,
// with no responder rule. Validity is judged by ajv (2020-12), as clients judge it.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createSimulator, estimateCost, type SupportedParameter } from '../../src/index.js'
import { runs } from '../support/runs.js'
import { ajvErrors, ajvValid, documentArbitrary } from '../schema/support.js'
import { ALPHA, BETA, GAMMA, MODEL, chat, chatWorld, generation } from './support.js'

const WEATHER = {
  type: 'object',
  properties: { city: { type: 'string' }, unit: { enum: ['celsius', 'fahrenheit'] } },
  required: ['city'],
  additionalProperties: false,
}
const ORDER = { type: 'object', properties: { id: { type: 'integer', minimum: 1 } }, required: ['id'], additionalProperties: false }
const tool = (name: string, parameters?: unknown) => ({ type: 'function', function: { name, ...(parameters !== undefined && { parameters }) } })
const TOOLS = [tool('get_weather', WEATHER), tool('lookup_order', ORDER)]
const user = (content: string) => ({ role: 'user', content })

const callsOf = (body: any): { name: string; args: any; id: string }[] =>
  (body.choices[0].message.tool_calls ?? []).map((c: any) => ({ name: c.function.name, args: JSON.parse(c.function.arguments), id: c.id }))

describe('tool calls by default', () => {
  it('"required" gets one call of the first tool, its arguments valid against the schema, content null, finish tool_calls', () => {
    const { sim, key } = chatWorld()
    const { status, body } = chat(sim, key, { model: MODEL, tools: TOOLS, tool_choice: 'required' })
    expect(status).toBe(200)
    expect(body.choices[0].finish_reason).toBe('tool_calls')
    expect(body.choices[0].message.content).toBeNull()
    const calls = callsOf(body)
    expect(calls).toHaveLength(1)
    expect(calls[0]?.name).toBe('get_weather')
    expect(ajvValid(WEATHER, calls[0]?.args), ajvErrors(WEATHER, calls[0]?.args)).toBe(true)
    expect(calls[0]?.id).toMatch(/^call_/)
  })

  it('calls the tool the last user turn names, and the one tool_choice names', () => {
    const { sim, key } = chatWorld()
    const named = chat(sim, key, { model: MODEL, messages: [user('Please lookup order 42 for me')], tools: TOOLS, tool_choice: 'required' })
    expect(callsOf(named.body)[0]?.name).toBe('lookup_order')
    expect(ajvValid(ORDER, callsOf(named.body)[0]?.args)).toBe(true)
    const chosen = chat(sim, key, { model: MODEL, messages: [user('Please lookup order 42')], tools: TOOLS, tool_choice: { type: 'function', function: { name: 'get_weather' } } })
    expect(callsOf(chosen.body).map((c) => c.name)).toEqual(['get_weather'])
  })

  it('a city is a city: plausible values by property name', () => {
    const { sim, key } = chatWorld()
    const cities = new Set<string>()
    for (let i = 0; i < 8; i++) cities.add(callsOf(chat(sim, key, { model: MODEL, messages: [user(`Weather ${i}?`)], tools: TOOLS, tool_choice: 'required' }).body)[0]?.args.city)
    // Real place names: capitalised words, and more than one across requests.
    for (const city of cities) expect(city).toMatch(/^[A-Z][\p{L}'. -]+$/u)
    expect(cities.size).toBeGreaterThan(1)
  })

  it('auto: a call when the last turn is the user\'s, text after the tool\'s result, so an agent loop ends after one round', () => {
    const { sim, key } = chatWorld()
    const first = chat(sim, key, { model: MODEL, messages: [user('Weather in Oslo?')], tools: TOOLS })
    const [call] = first.body.choices[0].message.tool_calls
    expect(first.body.choices[0].finish_reason).toBe('tool_calls')
    const second = chat(sim, key, {
      model: MODEL,
      tools: TOOLS,
      tool_choice: 'auto',
      messages: [user('Weather in Oslo?'), first.body.choices[0].message, { role: 'tool', tool_call_id: call.id, content: '{"temp":3}' }],
    })
    expect(second.body.choices[0].finish_reason).toBe('stop')
    expect(second.body.choices[0].message.tool_calls).toBeUndefined()
    expect(typeof second.body.choices[0].message.content).toBe('string')
    // A new user turn starts a new round.
    const third = chat(sim, key, {
      model: MODEL,
      tools: TOOLS,
      messages: [user('Weather in Oslo?'), first.body.choices[0].message, { role: 'tool', tool_call_id: call.id, content: '{}' }, second.body.choices[0].message, user('And order 7?')],
    })
    expect(callsOf(third.body).map((c) => c.name)).toEqual(['lookup_order'])
  })

  it('"none" gets text, and "required" still calls after a tool result', () => {
    const { sim, key } = chatWorld()
    const none = chat(sim, key, { model: MODEL, tools: TOOLS, tool_choice: 'none' })
    expect(none.body.choices[0].message.tool_calls).toBeUndefined()
    expect(none.body.choices[0].finish_reason).toBe('stop')
    const after = chat(sim, key, {
      model: MODEL,
      tools: TOOLS,
      tool_choice: 'required',
      messages: [user('x'), { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{}' } }] }, { role: 'tool', tool_call_id: 'c1', content: '{}' }],
    })
    expect(callsOf(after.body)).toHaveLength(1)
  })

  it('one call per reply, with or without parallel_tool_calls', () => {
    const { sim, key } = chatWorld()
    for (const parallel of [true, false, undefined]) {
      const { body } = chat(sim, key, { model: MODEL, tools: TOOLS, tool_choice: 'required', ...(parallel !== undefined && { parallel_tool_calls: parallel }) })
      expect(callsOf(body)).toHaveLength(1)
    }
  })

  it('replies: { toolRounds } sets the rounds of auto: 0 never calls unasked, 2 calls again after one result', () => {
    const conversation = [user('Weather?'), { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }] }, { role: 'tool', tool_call_id: 'c1', content: '{}' }]
    const world = (toolRounds: number) => {
      const sim = createSimulator({ world: 'empty', replies: { toolRounds } })
      const org = sim.users.create({ name: 'A', credits: { total: 10 } })
      sim.models.create({ id: MODEL, endpoints: [BETA] })
      return { sim, key: sim.keys.create({ userId: org.id }).key }
    }
    const zero = world(0)
    expect(callsOf(chat(zero.sim, zero.key, { model: MODEL, tools: TOOLS }).body)).toHaveLength(0)
    expect(callsOf(chat(zero.sim, zero.key, { model: MODEL, tools: TOOLS, tool_choice: 'required' }).body)).toHaveLength(1)
    const two = world(2)
    expect(callsOf(chat(two.sim, two.key, { model: MODEL, tools: TOOLS, messages: conversation }).body)).toHaveLength(1)
    expect(() => createSimulator({ replies: { toolRounds: -1 } })).toThrow(/replies\.toolRounds/)
    expect(() => createSimulator({ replies: { toolRound: 1 } as never })).toThrow(/replies\.toolRound/)
  })

  it('a tool without parameters gets {}', () => {
    const { sim, key } = chatWorld()
    expect(callsOf(chat(sim, key, { model: MODEL, tools: [tool('ping')], tool_choice: 'required' }).body)[0]?.args).toEqual({})
  })

  it('is deterministic: the same request, the same call; the request seed varies it', () => {
    const ask = (seed?: number) => {
      const { sim, key } = chatWorld()
      return chat(sim, key, { model: MODEL, tools: TOOLS, tool_choice: 'required', ...(seed !== undefined && { seed }) }).body.choices[0].message.tool_calls[0].function.arguments
    }
    expect(ask()).toBe(ask())
    expect(ask(3)).toBe(ask(3))
    const seeds = new Set([ask(1), ask(2), ask(3), ask(4), ask(5)])
    expect(seeds.size).toBeGreaterThan(1)
  })

  it('a const whose keys name Object.prototype members is given back as it is', () => {
    const { sim, key } = chatWorld()
    const value = { toString: false, valueOf: 1, constructor: { hasOwnProperty: 'x' }, ['__proto__']: [1] }
    const schema = { type: 'array', prefixItems: [{ const: value }, { type: 'string' }], items: false }
    const { body } = chat(sim, key, { model: MODEL, tools: [tool('f', schema)], tool_choice: 'required' })
    const [args] = callsOf(body).map((c) => c.args)
    expect(JSON.stringify(args[0])).toBe(JSON.stringify(value))
    expect(args).toHaveLength(2)
    expect(sim.journal.list()[0]?.warnings).toEqual([])
  })

  it('any drawn schema: the call\'s arguments are valid per ajv (or the journal says why not)', () => {
    const { sim, key } = chatWorld()
    fc.assert(
      fc.property(documentArbitrary, fc.integer({ min: 0, max: 1_000_000 }), (schema, seed) => {
        sim.journal.clear()
        const { status, body } = chat(sim, key, { model: MODEL, tools: [tool('f', schema)], tool_choice: 'required', seed })
        expect(status).toBe(200)
        const args = JSON.parse(body.choices[0].message.tool_calls[0].function.arguments)
        const warnings = sim.journal.list()[0]?.warnings ?? []
        if (warnings.length === 0) expect(ajvValid(schema, args), ajvErrors(schema, args)).toBe(true)
      }),
      { numRuns: runs(150) },
    )
  })
})

describe('structured output by default', () => {
  const PERSON = {
    type: 'object',
    properties: {
      name: { type: 'string' },
      email: { type: 'string', format: 'email' },
      age: { type: 'integer', minimum: 0, maximum: 130 },
      tags: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 3 },
      manager: { anyOf: [{ $ref: '#/$defs/ref' }, { type: 'null' }] },
    },
    required: ['name', 'email', 'age', 'tags', 'manager'],
    additionalProperties: false,
    $defs: { ref: { type: 'object', properties: { id: { type: 'string', format: 'uuid' } }, required: ['id'], additionalProperties: false } },
  }

  it('json_schema (strict or not): the content is JSON valid against the schema', () => {
    const { sim, key } = chatWorld()
    for (const strict of [true, false]) {
      const { body } = chat(sim, key, { model: MODEL, response_format: { type: 'json_schema', json_schema: { name: 'person', strict, schema: PERSON } } })
      const value = JSON.parse(body.choices[0].message.content)
      expect(ajvValid(PERSON, value), ajvErrors(PERSON, value)).toBe(true)
      expect(value.email).toMatch(/@/)
    }
  })

  it('json_object: a JSON object; text: the default text', () => {
    const { sim, key } = chatWorld()
    const object = JSON.parse(chat(sim, key, { model: MODEL, response_format: { type: 'json_object' } }).body.choices[0].message.content)
    expect(typeof object).toBe('object')
    expect(Array.isArray(object)).toBe(false)
    const plain = chat(sim, key, { model: MODEL }).body.choices[0].message.content
    expect(chat(sim, key, { model: MODEL, response_format: { type: 'text' } }).body.choices[0].message.content).toBe(plain)
  })

  it('streams the same JSON in pieces', async () => {
    const { sim, key } = chatWorld()
    const format = { type: 'json_schema', json_schema: { name: 'person', schema: PERSON } }
    const whole = chat(sim, key, { model: MODEL, response_format: format, provider: { order: ['Beta'] } }).body.choices[0].message.content
    const chunks = await collectChunks(chat(sim, key, { model: MODEL, response_format: format, provider: { order: ['Beta'] }, stream: true }).response)
    expect(chunks.map((c: any) => c.choices[0]?.delta?.content ?? '').join('')).toBe(whole)
  })

  it('any drawn schema: the content is valid per ajv (or the journal says why not)', () => {
    const { sim, key } = chatWorld()
    fc.assert(
      fc.property(documentArbitrary, fc.integer({ min: 0, max: 1_000_000 }), (schema, seed) => {
        sim.journal.clear()
        const { body } = chat(sim, key, { model: MODEL, response_format: { type: 'json_schema', json_schema: { name: 'x', schema } }, seed })
        const value = JSON.parse(body.choices[0].message.content)
        if ((sim.journal.list()[0]?.warnings ?? []).length === 0) expect(ajvValid(schema, value), ajvErrors(schema, value)).toBe(true)
      }),
      { numRuns: runs(150) },
    )
  })

  it('a schema it cannot satisfy gets a best effort and a journal warning', () => {
    const { sim, key } = chatWorld()
    const impossible = { allOf: [{ type: 'string' }, { type: 'integer' }] }
    const { status } = chat(sim, key, { model: MODEL, response_format: { type: 'json_schema', json_schema: { name: 'x', schema: impossible } } })
    expect(status).toBe(200)
    const [entry] = sim.journal.list({ hasWarnings: true })
    expect(entry?.warnings.length).toBeGreaterThan(0)
    chat(sim, key, { model: MODEL })
    expect(sim.journal.list({ hasWarnings: false })).toHaveLength(1)
  })
})

describe('bad schemas and choices are 400s naming the path', () => {
  it('a keyword of the wrong type, an unknown type', () => {
    const { sim, key } = chatWorld()
    const bad = chat(sim, key, { model: MODEL, tools: [tool('f', { type: 'object', properties: { city: { type: 'str' } } })] })
    expect(bad.status).toBe(400)
    expect(bad.body.error.metadata.parameter).toBe('tools[0].function.parameters.properties.city.type')
    expect(bad.body.error.message).toContain('tools[0].function.parameters.properties.city.type')
    const required = chat(sim, key, { model: MODEL, response_format: { type: 'json_schema', json_schema: { name: 'x', schema: { type: 'object', required: 'city' } } } })
    expect(required.status).toBe(400)
    expect(required.body.error.metadata.parameter).toBe('response_format.json_schema.schema.required')
  })

  it('a named function the request does not declare; "required" without tools', () => {
    const { sim, key } = chatWorld()
    const undeclared = chat(sim, key, { model: MODEL, tools: TOOLS, tool_choice: { type: 'function', function: { name: 'nope' } } })
    expect(undeclared.status).toBe(400)
    expect(undeclared.body.error.metadata.parameter).toBe('tool_choice.function.name')
    expect(undeclared.body.error.message).toContain('get_weather, lookup_order')
    expect(chat(sim, key, { model: MODEL, tool_choice: 'required' }).status).toBe(400)
  })

  it('refuses before charging anything', () => {
    const { sim, key, keyHash } = chatWorld()
    chat(sim, key, { model: MODEL, tools: [tool('f', { type: 7 })] })
    expect(sim.keys.get(keyHash)?.usage).toBe(0)
  })
})

/** A world whose model reasons on every endpoint, one of them pricing reasoning on its own. */
function reasoningWorld(id = 'deepseek/thinker') {
  const sim = createSimulator({ world: 'empty', seed: 3, now: '2026-03-02T10:00:00Z' })
  const org = sim.users.create({ name: 'R', credits: { total: 100 } })
  const reasons = ['max_tokens', 'reasoning', 'include_reasoning', 'logprobs', 'top_logprobs', 'stop'] as SupportedParameter[]
  sim.models.create({
    id,
    endpoints: [
      { ...ALPHA, provider_name: 'Plain', supported_parameters: reasons, pricing: { prompt: '0.000001', completion: '0.000002' } },
      { ...GAMMA, provider_name: 'Priced', supported_parameters: reasons, pricing: { prompt: '0.000001', completion: '0.000002', internal_reasoning: '0.00001' } },
    ],
  })
  const { key, record } = sim.keys.create({ userId: org.id })
  return { sim, key, keyHash: record.hash, id }
}

describe('reasoning', () => {
  it('an endpoint that reasons answers reasoning text and details, its tokens inside completion_tokens', () => {
    const { sim, key, id } = reasoningWorld()
    const { body } = chat(sim, key, { model: id, provider: { order: ['Plain'] } })
    const message = body.choices[0].message
    expect(message.reasoning.length).toBeGreaterThan(0)
    expect(message.reasoning_details).toEqual([{ type: 'reasoning.text', text: message.reasoning, format: 'unknown', index: 0 }])
    const { reasoning_tokens } = body.usage.completion_tokens_details
    expect(reasoning_tokens).toBe(Math.ceil(message.reasoning.length / 4))
    expect(body.usage.completion_tokens).toBe(reasoning_tokens + Math.ceil(message.content.length / 4))
  })

  it('effort scales the tokens: minimal < low < medium < high; none and enabled: false give none', () => {
    const { sim, key, id } = reasoningWorld()
    const tokens = (reasoning: object) => chat(sim, key, { model: id, provider: { order: ['Plain'] }, reasoning }).body.usage.completion_tokens_details.reasoning_tokens
    const scale = ['minimal', 'low', 'medium', 'high'].map((effort) => tokens({ effort }))
    expect([...scale].sort((a, b) => a - b)).toEqual(scale)
    expect(new Set(scale).size).toBe(4)
    expect(tokens({ effort: 'none' })).toBe(0)
    expect(tokens({ enabled: false })).toBe(0)
    expect(chat(sim, key, { model: id, provider: { order: ['Plain'] }, reasoning_effort: 'high' }).body.usage.completion_tokens_details.reasoning_tokens).toBe(scale[3])
  })

  it('max_tokens caps the reasoning; the completion cap leaves room for the answer', () => {
    const { sim, key, id } = reasoningWorld()
    expect(chat(sim, key, { model: id, provider: { order: ['Plain'] }, reasoning: { max_tokens: 10 } }).body.usage.completion_tokens_details.reasoning_tokens).toBe(10)
    const capped = chat(sim, key, { model: id, provider: { order: ['Plain'] }, max_tokens: 40 }).body
    expect(capped.usage.completion_tokens_details.reasoning_tokens).toBe(20)
    expect(capped.usage.completion_tokens).toBeLessThanOrEqual(40)
  })

  it('exclude (and include_reasoning: false) hides the text and still bills the tokens', () => {
    const { sim, key, keyHash, id } = reasoningWorld()
    const shown = chat(sim, key, { model: id, provider: { order: ['Plain'] } }).body
    for (const ask of [{ reasoning: { exclude: true } }, { include_reasoning: false }]) {
      const hidden = chat(sim, key, { model: id, provider: { order: ['Plain'] }, ...ask }).body
      expect(hidden.choices[0].message.reasoning).toBeNull()
      expect(hidden.choices[0].message.reasoning_details).toBeUndefined()
      expect(hidden.usage.completion_tokens_details.reasoning_tokens).toBe(shown.usage.completion_tokens_details.reasoning_tokens)
      expect(hidden.usage.cost).toBe(shown.usage.cost)
    }
    expect(sim.keys.get(keyHash)?.usage).toBeCloseTo(shown.usage.cost * 3, 12)
  })

  it('is billed at internal_reasoning where the endpoint prices it, else as completion tokens, exactly', () => {
    const { sim, key, id } = reasoningWorld()
    for (const [provider, rate] of [['Plain', 0.000002], ['Priced', 0.00001]] as const) {
      const { body } = chat(sim, key, { model: id, provider: { order: [provider] } })
      const r = body.usage.completion_tokens_details.reasoning_tokens
      const expected = body.usage.prompt_tokens * 0.000001 + (body.usage.completion_tokens - r) * 0.000002 + r * rate
      expect(body.usage.cost).toBeCloseTo(expected, 12)
      expect(generation(sim, key, body.id).body.data.total_cost).toBe(body.usage.cost)
    }
  })

  it('reasoning and completion tokens are priced by the override engine at the clock\'s instant, exactly', () => {
    const pricing = {
      prompt: '0.000001',
      completion: '0.000002',
      internal_reasoning: '0.000004',
      // Nights (22:00-06:00 UTC, wrapping past midnight) cost less; reasoning keeps its own price.
      overrides: [{ utc_start: 2200, utc_end: 600, prompt: '0.0000005', completion: '0.000001' }],
    }
    const sim = createSimulator({ world: 'empty', now: '2026-03-02T23:30:00Z' })
    const org = sim.users.create({ name: 'R', credits: { total: 100 } })
    sim.models.create({ id: 'deepseek/night', endpoints: [{ provider_name: 'Night', supported_parameters: ['reasoning', 'max_tokens'], pricing }] })
    const { key } = sim.keys.create({ userId: org.id })
    for (const at of ['2026-03-02T23:30:00Z', '2026-03-03T12:00:00Z']) {
      sim.clock.set(at)
      const { body } = chat(sim, key, { model: 'deepseek/night', reasoning: { effort: 'high' } })
      const u = body.usage
      const exact = estimateCost(pricing, { promptTokens: u.prompt_tokens, completionTokens: u.completion_tokens, reasoningTokens: u.completion_tokens_details.reasoning_tokens }, { at: sim.clock.nowMs() })
      expect(u.completion_tokens_details.reasoning_tokens).toBe(320)
      expect(u.cost).toBe(Number(exact))
    }
  })

  it('details take the provider\'s shape: OpenAI a summary and an encrypted block, Anthropic a signed text (only when asked)', () => {
    const openai = reasoningWorld('openai/thinker')
    const o = chat(openai.sim, openai.key, { model: openai.id, provider: { order: ['Plain'] } }).body.choices[0].message
    expect(o.reasoning_details.map((d: any) => d.type)).toEqual(['reasoning.summary', 'reasoning.encrypted'])
    expect(o.reasoning_details[0]).toMatchObject({ summary: o.reasoning, format: 'openai-responses-v1' })
    expect(o.reasoning_details[1].data).toMatch(/^[A-Za-z0-9+/]+=*$/)
    const anthropic = reasoningWorld('anthropic/thinker')
    expect(chat(anthropic.sim, anthropic.key, { model: anthropic.id, provider: { order: ['Plain'] } }).body.choices[0].message.reasoning).toBeNull()
    const a = chat(anthropic.sim, anthropic.key, { model: anthropic.id, provider: { order: ['Plain'] }, reasoning: { max_tokens: 64 } }).body.choices[0].message
    expect(a.reasoning_details).toEqual([{ type: 'reasoning.text', text: a.reasoning, format: 'anthropic-claude-v1', index: 0, signature: expect.stringMatching(/^[A-Za-z0-9+/]+=*$/) }])
  })

  it('streams reasoning deltas before content, each with its details entry', async () => {
    const { sim, key, id } = reasoningWorld('openai/thinker')
    const whole = chat(sim, key, { model: id, provider: { order: ['Plain'] } }).body.choices[0].message
    const chunks = await collectChunks(chat(sim, key, { model: id, provider: { order: ['Plain'] }, stream: true }).response)
    const deltas = chunks.map((c: any) => c.choices[0]?.delta ?? {})
    const firstContent = deltas.findIndex((d: any) => (d.content ?? '') !== '')
    const lastReasoning = deltas.length - 1 - [...deltas].reverse().findIndex((d: any) => (d.reasoning ?? '') !== '')
    expect(lastReasoning).toBeLessThan(firstContent)
    expect(deltas.map((d: any) => d.reasoning ?? '').join('')).toBe(whole.reasoning)
    expect(deltas.flatMap((d: any) => d.reasoning_details ?? []).filter((d: any) => d.type === 'reasoning.summary').map((d: any) => d.summary).join('')).toBe(whole.reasoning)
    expect(deltas.flatMap((d: any) => d.reasoning_details ?? []).filter((d: any) => d.type === 'reasoning.encrypted')).toEqual([whole.reasoning_details[1]])
  })
})

describe('stop, logprobs and seed', () => {
  it('stop cuts the text before the first stop sequence; sampling settings do not change the text', () => {
    const { sim, key } = chatWorld()
    const plain = chat(sim, key, { model: MODEL }).body.choices[0].message.content as string
    expect(chat(sim, key, { model: MODEL, temperature: 1.7, top_p: 0.2, presence_penalty: 1 }).body.choices[0].message.content).toBe(plain)
    const [a, b] = plain.split(' ').slice(3, 5) as [string, string]
    const cut = chat(sim, key, { model: MODEL, stop: [` ${b}`, ` ${a}`] }).body
    const at = Math.min(plain.indexOf(` ${a}`), plain.indexOf(` ${b}`))
    expect(cut.choices[0].message.content).toBe(plain.slice(0, at))
    expect(cut.choices[0].finish_reason).toBe('stop')
    expect(cut.usage.completion_tokens).toBe(Math.ceil(at / 4))
    expect(chat(sim, key, { model: MODEL, stop: 'zzzz' }).body.choices[0].message.content).toBe(plain)
  })

  it('logprobs: one entry per token, tokens join to the content, logprob <= 0, the asked number of alternatives', () => {
    const { sim, key, id } = reasoningWorld()
    const { body } = chat(sim, key, { model: id, provider: { order: ['Plain'] }, logprobs: true, top_logprobs: 3 })
    const { content } = body.choices[0].logprobs
    expect(content.map((t: any) => t.token).join('')).toBe(body.choices[0].message.content)
    expect(content).toHaveLength(Math.ceil(body.choices[0].message.content.length / 4))
    for (const entry of content) {
      expect(entry.logprob).toBeLessThanOrEqual(0)
      expect(entry.bytes).toEqual([...new TextEncoder().encode(entry.token)])
      expect(entry.top_logprobs).toHaveLength(3)
      expect(entry.top_logprobs[0]).toEqual({ token: entry.token, logprob: entry.logprob, bytes: entry.bytes })
      const values = entry.top_logprobs.map((t: any) => t.logprob)
      expect([...values].sort((x, y) => y - x)).toEqual(values)
    }
    expect(chat(sim, key, { model: id, provider: { order: ['Plain'] }, logprobs: true }).body.choices[0].logprobs.content[0].top_logprobs).toEqual([])
    expect(chat(sim, key, { model: id, provider: { order: ['Plain'] } }).body.choices[0].logprobs).toBeNull()
  })

  it('logprobs are null where the endpoint does not give them, and streamed per chunk where it does', async () => {
    const { sim, key } = chatWorld()
    expect(chat(sim, key, { model: MODEL, logprobs: true }).body.choices[0].logprobs).toBeNull()
    const r = reasoningWorld()
    const whole = chat(r.sim, r.key, { model: r.id, provider: { order: ['Plain'] }, logprobs: true, top_logprobs: 1 }).body.choices[0]
    const chunks = await collectChunks(chat(r.sim, r.key, { model: r.id, provider: { order: ['Plain'] }, logprobs: true, top_logprobs: 1, stream: true }).response)
    const streamed = chunks.flatMap((c: any) => c.choices[0]?.logprobs?.content ?? [])
    expect(streamed).toEqual(whole.logprobs.content)
  })

  it('the request\'s seed varies the text: the same seed, the same text', () => {
    const { sim, key } = chatWorld()
    const text = (seed?: number) => chat(sim, key, { model: MODEL, ...(seed !== undefined && { seed }) }).body.choices[0].message.content
    expect(text(11)).toBe(text(11))
    expect(text(11)).not.toBe(text())
    expect(new Set([text(1), text(2), text(3)]).size).toBe(3)
  })
})

describe('streamed tool calls split as the service streams them', () => {
  it('a first delta with index, id, type, name and empty arguments, then the arguments in several pieces', async () => {
    const { sim, key, keyHash } = chatWorld()
    const whole = chat(sim, key, { model: MODEL, tools: TOOLS, tool_choice: 'required', provider: { order: ['Beta'] } }).body
    const before = sim.keys.get(keyHash)?.usage ?? 0
    const chunks = await collectChunks(chat(sim, key, { model: MODEL, tools: TOOLS, tool_choice: 'required', provider: { order: ['Beta'] }, stream: true }).response)
    const calls = chunks.flatMap((c: any) => c.choices[0]?.delta?.tool_calls ?? [])
    const [call] = whole.choices[0].message.tool_calls
    expect(calls[0]).toEqual({ index: 0, id: call.id.replace(/^call_[^_]+/, calls[0].id.replace(/_\d+$/, '')), type: 'function', function: { name: call.function.name, arguments: '' } })
    expect(calls.length).toBeGreaterThan(2)
    for (const piece of calls.slice(1)) expect(Object.keys(piece).sort()).toEqual(['function', 'index'])
    expect(calls.map((c: any) => c.function.arguments).join('')).toBe(call.function.arguments)
    // Charged as the whole call's tokens.
    const usage = chunks.at(-1)?.usage
    expect(usage.completion_tokens).toBe(whole.usage.completion_tokens)
    expect((sim.keys.get(keyHash)?.usage ?? 0) - before).toBeCloseTo(usage.cost, 12)
  })

  it('a responder\'s calls stream the same way', async () => {
    const { sim, key } = chatWorld()
    sim.inference.respond({ reply: { toolCalls: [{ name: 'lookup_order', arguments: '{"id":42,"note":"a somewhat longer argument text"}' }] } })
    const chunks = await collectChunks(chat(sim, key, { model: MODEL, tools: TOOLS, stream: true }).response)
    const calls = chunks.flatMap((c: any) => c.choices[0]?.delta?.tool_calls ?? [])
    expect(calls[0].function).toEqual({ name: 'lookup_order', arguments: '' })
    expect(calls.length).toBeGreaterThan(3)
    expect(calls.map((c: any) => c.function.arguments).join('')).toBe('{"id":42,"note":"a somewhat longer argument text"}')
  })
})

describe('responders ask for valid calls and structured content', () => {
  it('a call without arguments gets arguments valid for the declared tool; an undeclared one gets {} and a warning', () => {
    const { sim, key } = chatWorld()
    sim.inference.respond({ reply: { toolCalls: [{ name: 'lookup_order' }, { name: 'missing' }] } })
    const { body } = chat(sim, key, { model: MODEL, tools: TOOLS })
    const calls = callsOf(body)
    expect(calls.map((c) => c.name)).toEqual(['lookup_order', 'missing'])
    expect(ajvValid(ORDER, calls[0]?.args)).toBe(true)
    expect(calls[1]?.args).toEqual({})
    expect(sim.journal.list()[0]?.warnings).toEqual([expect.stringContaining('missing')])
  })

  it('structured: true gets content valid for the request\'s schema', () => {
    const { sim, key } = chatWorld()
    sim.inference.respond({ reply: { structured: true } })
    const { body } = chat(sim, key, { model: MODEL, response_format: { type: 'json_schema', json_schema: { name: 'o', schema: ORDER } } })
    expect(ajvValid(ORDER, JSON.parse(body.choices[0].message.content))).toBe(true)
    expect(() => sim.inference.respond({ reply: { structured: true, content: 'x' } })).toThrow(/reply\.structured/)
    expect(() => sim.inference.respond({ reply: { structured: 'yes' as never } })).toThrow(/reply\.structured/)
  })
})

describe('the Responses API', () => {
  const responses = (sim: ReturnType<typeof chatWorld>['sim'], key: string, body: Record<string, unknown>) =>
    sim.handle({ method: 'POST', path: '/responses', authorization: `Bearer ${key}`, body: JSON.stringify({ model: MODEL, input: 'Weather in Oslo?', ...body }) })

  it('answers a function_call item valid against the tool\'s parameters, and text.format JSON', () => {
    const { sim, key } = chatWorld()
    const tools = [{ type: 'function', name: 'get_weather', parameters: WEATHER }]
    const called = responses(sim, key, { tools, tool_choice: 'required' }).body as any
    const item = called.output.find((o: any) => o.type === 'function_call')
    expect(item.name).toBe('get_weather')
    expect(ajvValid(WEATHER, JSON.parse(item.arguments))).toBe(true)
    const formatted = responses(sim, key, { text: { format: { type: 'json_schema', name: 'o', schema: ORDER } } }).body as any
    expect(ajvValid(ORDER, JSON.parse(formatted.output_text))).toBe(true)
    const bad = responses(sim, key, { tools: [{ type: 'function', name: 'f', parameters: { type: 'nope' } }] })
    expect(bad.status).toBe(400)
    expect((bad.body as any).error.metadata.parameter).toBe('tools[0].parameters.type')
    expect(responses(sim, key, { tools, tool_choice: { type: 'function', name: 'nope' } }).status).toBe(400)
  })

  it('streams the call as function_call_arguments deltas, and reasoning as summary or text items', async () => {
    const { sim, key } = chatWorld()
    const tools = [{ type: 'function', name: 'get_weather', parameters: WEATHER }]
    const stream = responses(sim, key, { tools, tool_choice: 'required', stream: true, provider: { order: ['Beta'] } })
    const text = (await collectText(stream)) as string
    const events = text.split('\n\n').filter((f) => f.startsWith('event:')).map((f) => JSON.parse(f.slice(f.indexOf('data: ') + 6)))
    const deltas = events.filter((e) => e.type === 'response.function_call_arguments.delta')
    const done = events.find((e) => e.type === 'response.function_call_arguments.done')
    expect(deltas.length).toBeGreaterThan(1)
    expect(deltas.map((d) => d.delta).join('')).toBe(done.arguments)
    const r = reasoningWorld('openai/thinker')
    const reasoned = r.sim.handle({ method: 'POST', path: '/responses', authorization: `Bearer ${r.key}`, body: JSON.stringify({ model: r.id, input: 'hi', provider: { order: ['Plain'] } }) }).body as any
    const item = reasoned.output.find((o: any) => o.type === 'reasoning')
    expect(item.summary[0].text.length).toBeGreaterThan(0)
    expect(item.encrypted_content).toMatch(/^[A-Za-z0-9+/]+=*$/)
    expect(reasoned.usage.output_tokens_details.reasoning_tokens).toBe(Math.ceil(item.summary[0].text.length / 4))
  })
})

/** A stream's whole text, as a client reading it to the end gets it. */
async function collectText(response: { body: unknown }): Promise<string> {
  return (response.body as { data: string }[]).map((f) => f.data).join('')
}

/** A chat stream's `data:` chunks, parsed. */
async function collectChunks(response: { body: unknown }): Promise<any[]> {
  return (response.body as { data: string }[]).filter((f) => f.data.startsWith('data: {')).map((f) => JSON.parse(f.data.slice(6)))
}
