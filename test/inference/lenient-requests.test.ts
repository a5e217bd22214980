// Inference requests as the real service takes them (decisions/0036): every field real clients
// send is known and, where the simulator does not model it, without effect; a field outside the
// SDK's schema and that list is accepted and listed on the journal entry's `ignoredFields`; under
// `strictRequests` it is a 400 naming it, which charges nothing and draws nothing from the random
// stream. Management bodies refuse unknown fields either way. `/completions` reads the client
// fields with chat's readers, and a null where no SDK schema makes the field non-nullable is absent.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { CLIENT_FIELDS } from '../../src/core/inference/client-fields.js'
import { CHAT_REQUEST_FIELDS } from '../../src/core/inference/request.js'
import { createSimulator, type SimResponse } from '../../src/index.js'
import { runs } from '../support/runs.js'
import { ALPHA, MODEL, chatWorld } from './support.js'

const SEED = 20261127

const EMBED = 'acme/embed-1'

/** {@link chatWorld} and an embeddings model beside the chat one. */
function world(strictRequests = false) {
  const made = chatWorld({ strictRequests })
  made.sim.models.create({
    id: EMBED,
    architecture: { output_modalities: ['embeddings'], input_modalities: ['text'], modality: 'text->embeddings' },
    endpoints: [{ provider_name: 'Alpha', pricing: { prompt: '0.0000001', completion: '0' } }],
  })
  return made
}

type Route = '/chat/completions' | '/responses' | '/embeddings' | '/completions'

/** A minimal valid body of each route. */
const BASE: Record<Route, Record<string, unknown>> = {
  '/chat/completions': { model: MODEL, messages: [{ role: 'user', content: 'Hello there' }] },
  '/responses': { model: MODEL, input: 'Hello there' },
  '/embeddings': { model: EMBED, input: 'Hello there' },
  '/completions': { model: MODEL, prompt: 'Hello there' },
}

function post(sim: { handle(request: any): SimResponse }, key: string, path: Route, body: Record<string, unknown>): SimResponse {
  return sim.handle({ method: 'POST', path, authorization: `Bearer ${key}`, body: JSON.stringify(body) })
}

/** An answer as bytes: a JSON body's text, or a stream's frames. */
const bytesOf = (response: SimResponse): string => JSON.stringify({ status: response.status, body: response.body })

/** What each field real clients send looks like in their requests (values the service takes). */
const CLIENT_FIELD_VALUES: Record<string, unknown> = {
  usage: { include: true },
  transforms: ['middle-out'],
  route: 'fallback',
  models: [MODEL],
  provider: { allow_fallbacks: true },
  reasoning: { effort: 'low', exclude: false },
  include_reasoning: true,
  web_search_options: { search_context_size: 'low' },
  // The web plugin bills a search (decisions/0038, test/inference/variants.test.ts): not here.
  plugins: [{ id: 'response-healing' }, { id: 'file-parser', pdf: { engine: 'pdf-text' } }, { id: 'a-plugin-of-tomorrow', anything: 1 }],
  verbosity: 'low',
  n: 1,
  safety_identifier: 'hashed-user-1',
  prompt_cache_retention: '24h',
  store: false,
  service_tier: 'auto',
  user: 'user-1',
  session_id: 'session-1',
  trace: { trace_id: 't-1', anything: 'goes' },
  metadata: { team: 'search' },
  stream_options: { include_usage: true, include_obfuscation: false },
  prediction: { type: 'content', content: 'Hello' },
  cache_control: { type: 'ephemeral', ttl: '5m' },
  functions: [{ name: 'lookup', description: 'Looks up', parameters: { type: 'object', properties: {} } }],
  function_call: 'auto',
}

/** Fields the simulator acts on, by route: the answer may differ with them (routing, the model asked for, what a Responses result echoes). */
const MODELLED: Record<Route, ReadonlySet<string>> = {
  '/chat/completions': new Set(['models', 'provider']),
  '/responses': new Set(['models', 'provider', 'user', 'metadata', 'safety_identifier']),
  '/embeddings': new Set(['models', 'provider']),
  '/completions': new Set(['models', 'provider']),
}

describe('the fields real clients send', () => {
  it('are a value of the table below each', () => {
    expect(Object.keys(CLIENT_FIELD_VALUES).sort()).toEqual([...CLIENT_FIELDS].sort())
  })

  const cases = (['/chat/completions', '/responses', '/embeddings', '/completions'] as const).flatMap((route) => Object.entries(CLIENT_FIELD_VALUES).map(([field, value]) => [route, field, value] as const))
  it.each(cases)('%s takes %s, lists nothing, and answers as without it when the simulator does not model it', (route, field, value) => {
    const without = world()
    const given = world()
    const plain = post(without.sim, without.key, route, BASE[route])
    const answer = post(given.sim, given.key, route, { ...BASE[route], [field]: value })
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
    expect(given.sim.journal.list().at(-1)?.ignoredFields).toEqual([])
    if (!MODELLED[route].has(field)) expect(bytesOf(answer)).toBe(bytesOf(plain))
  })

  it('under strictRequests too, all of them at once', () => {
    for (const route of ['/chat/completions', '/responses', '/embeddings', '/completions'] as const) {
      const { sim, key } = world(true)
      const answer = post(sim, key, route, { ...BASE[route], ...CLIENT_FIELD_VALUES })
      expect(answer.status, `${route}: ${JSON.stringify(answer.body)}`).toBe(200)
    }
  })

  it.each(['include_reasoning', 'web_search_options', 'verbosity'])('%s counts as a parameter the request uses, for provider.require_parameters', (field) => {
    const { sim, key } = world()
    const body = { ...BASE['/chat/completions'], [field]: CLIENT_FIELD_VALUES[field] }
    expect(post(sim, key, '/chat/completions', { ...body, provider: { require_parameters: false } }).status).toBe(200)
    // No endpoint of the model lists it in supported_parameters.
    const refused = post(sim, key, '/chat/completions', { ...body, provider: { require_parameters: true } })
    expect([refused.status, (refused.body as any).error.message]).toEqual([404, 'No endpoints found that can handle the requested parameters'])
    sim.models.create({ id: 'acme/chat-2', endpoints: [{ ...ALPHA, supported_parameters: ['max_tokens', field as never] }] })
    expect(post(sim, key, '/chat/completions', { ...body, model: 'acme/chat-2', provider: { require_parameters: true } }).status).toBe(200)
  })

  // Responses spells chat's `verbosity` and `response_format` inside `text`: they count as chat's do.
  it.each([
    [{ verbosity: 'low' }, 'verbosity', { verbosity: 'low' }],
    [{ format: { type: 'json_object' } }, 'response_format', { response_format: { type: 'json_object' } }],
    [{ format: { type: 'text' } }, 'response_format', { response_format: { type: 'text' } }],
    [{ format: { type: 'json_schema', name: 'answer', schema: { type: 'object' } } }, 'structured_outputs', { response_format: { type: 'json_schema', json_schema: { name: 'answer', schema: { type: 'object' } } } }],
  ])('/responses text %j counts as the parameter %s, as chat does, for provider.require_parameters', (text, parameter, chatFields) => {
    const { sim, key } = world()
    const body = { ...BASE['/responses'], text }
    const chat = { ...BASE['/chat/completions'], ...chatFields }
    expect(post(sim, key, '/responses', { ...body, provider: { require_parameters: false } }).status).toBe(200)
    // No endpoint of the model lists it in supported_parameters: both routes refuse alike.
    const refused = post(sim, key, '/responses', { ...body, provider: { require_parameters: true } })
    expect([refused.status, (refused.body as any).error.message]).toEqual([404, 'No endpoints found that can handle the requested parameters'])
    expect(post(sim, key, '/chat/completions', { ...chat, provider: { require_parameters: true } }).status).toBe(404)
    sim.models.create({ id: 'acme/chat-2', endpoints: [{ ...ALPHA, supported_parameters: ['max_tokens', parameter as never] }] })
    expect(post(sim, key, '/responses', { ...body, model: 'acme/chat-2', provider: { require_parameters: true } }).status).toBe(200)
    expect(post(sim, key, '/chat/completions', { ...chat, model: 'acme/chat-2', provider: { require_parameters: true } }).status).toBe(200)
  })

  it('/responses text with its verbosity and format null uses no parameter: every endpoint stays', () => {
    const { sim, key } = world()
    const answer = post(sim, key, '/responses', { ...BASE['/responses'], text: { verbosity: null, format: null }, provider: { require_parameters: true } })
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
  })

  it("every field of the SDK's ChatRequest, at every depth, is known: none is refused under strictRequests", () => {
    const { sim, key } = world(true)
    const cache = { type: 'ephemeral', ttl: '5m' }
    const parts = [
      { type: 'text', text: 'Look:', cache_control: cache, prompt_cache_breakpoint: { mode: 'explicit' } },
      { type: 'image_url', image_url: { url: 'https://example.com/a.png', detail: 'low' }, cache_control: cache },
      { type: 'input_audio', input_audio: { data: 'AAAA', format: 'wav' } },
      { type: 'file', file: { filename: 'a.pdf', file_data: 'data:application/pdf;base64,AAAA', file_id: 'file-1' } },
      { type: 'input_video', video_url: { url: 'https://example.com/a.mp4', processing: 'default' } },
      { type: 'video_url', video_url: { url: 'https://example.com/b.mp4' } },
    ]
    const messages = [
      { role: 'system', name: 's', content: [{ type: 'text', text: 'Be brief.' }], configuration_update: { reasoning: { effort: 'low' } } },
      { role: 'developer', name: 'd', content: 'Use tools.', configuration_update: null },
      { role: 'user', name: 'u', content: parts },
      {
        role: 'assistant',
        name: 'a',
        content: 'Calling.',
        refusal: null,
        reasoning: 'Because.',
        reasoning_details: [{ type: 'reasoning.text', text: 'Because.', format: 'unknown', index: 0 }],
        images: [{ image_url: { url: 'https://example.com/c.png' } }],
        audio: { id: 'audio-1' },
        model: MODEL,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: [{ type: 'text', text: '18C' }] },
    ]
    const plugins = [
      { id: 'auto-beta-router', allowed_models: [MODEL], cost_quality_tradeoff: 0.5, cost_tier: 'low', enabled: true, excluded_models: [] },
      { id: 'auto-router', allowed_models: [MODEL], cost_quality_tradeoff: 0.5, cost_tier: 'low', enabled: true, excluded_models: [], pin_model: MODEL },
      { id: 'context-compression', enabled: true, engine: 'middle-out' },
      { id: 'file-parser', enabled: true, pdf: { engine: 'pdf-text' } },
      { id: 'fusion', analysis_models: [MODEL], enabled: true, max_tool_calls: 2, model: MODEL, preset: 'p', tools: [] },
      { id: 'moderation' },
      { id: 'pareto-router', enabled: true, max_price: 1, min_coding_score: 0.5, price_source: 'list' },
      { id: 'response-healing', enabled: true },
      { id: 'switchyard-router', algorithm: 'a' },
      { id: 'web', enabled: true, engine: 'native', exclude_domains: [], include_domains: [], max_results: 3, max_uses: 1, mode: 'auto', search_prompt: 'p', user_location: { type: 'approximate', city: 'Paris' }, x_search: {} },
      { id: 'web-fetch', allowed_domains: [], blocked_domains: [], max_content_tokens: 100, max_uses: 1 },
    ]
    const body = {
      model: MODEL,
      models: [MODEL],
      messages,
      cache_control: cache,
      debug: { echo_upstream_body: false },
      frequency_penalty: 0,
      image_config: { aspect_ratio: '1:1' },
      logit_bias: { '1': 1 },
      logprobs: true,
      max_completion_tokens: 50,
      max_tokens: 50,
      metadata: { team: 'search' },
      min_p: 0.1,
      modalities: ['text'],
      parallel_tool_calls: true,
      plugins,
      prediction: { type: 'content', content: 'Hi' },
      presence_penalty: 0,
      prompt_cache_key: 'k',
      prompt_cache_options: { mode: 'explicit', ttl: '5m' },
      provider: {
        allow_fallbacks: true,
        data_collection: 'allow',
        enforce_distillable_text: false,
        ignore: [],
        max_price: { prompt: 100, completion: 100, image: 1, audio: 1, request: 1 },
        only: ['Alpha', 'Beta', 'Gamma'],
        order: ['Beta'],
        preferred_max_latency: { p50: 5, p75: 6, p90: 7, p99: 8 },
        preferred_min_throughput: 10,
        quantizations: ['bf16', 'fp8', 'fp16'],
        require_parameters: false,
        sort: { by: 'price', partition: 'model' },
        zdr: false,
      },
      reasoning: { effort: 'low', summary: 'auto' },
      reasoning_effort: 'low',
      repetition_penalty: 1,
      response_format: { type: 'json_schema', json_schema: { name: 'answer', description: 'd', schema: { type: 'object' }, strict: true } },
      seed: 1,
      service_tier: 'auto',
      session_id: 'session-1',
      stop: ['\n\n'],
      stop_server_tools_when: [{ type: 'step_count_is', step_count: 2 }],
      stream: false,
      stream_options: { include_usage: true },
      temperature: 0.5,
      tool_choice: { type: 'function', function: { name: 'weather' } },
      tools: [{ type: 'function', function: { name: 'weather', description: 'd', parameters: { type: 'object' }, strict: true }, cache_control: cache }, { type: 'openrouter:web_search', parameters: { max_results: 3 } }],
      top_a: 0,
      top_k: 40,
      top_logprobs: 2,
      top_p: 0.9,
      trace: { trace_id: 't', span_name: 's', generation_name: 'g', parent_span_id: 'p', trace_name: 'n' },
      user: 'user-1',
    }
    const answer = post(sim, key, '/chat/completions', body)
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
    // And each of the request fields the SDK's ChatRequest has is in the body above.
    expect(Object.keys(body).filter((name) => !CHAT_REQUEST_FIELDS.has(name))).toEqual([])
    expect([...CHAT_REQUEST_FIELDS].filter((name) => !(name in body))).toEqual([])
  })

  it('a tool loop as the AI SDK and LangChain send it: name on every role, cache_control on messages and parts', () => {
    const { sim, key } = world(true)
    const messages = [
      { role: 'system', name: 'rules', content: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }] },
      { role: 'user', name: 'ada', content: [{ type: 'text', text: 'Weather in Paris?' }, { type: 'image_url', image_url: { url: 'https://example.com/a.png', detail: 'low' }, cache_control: { type: 'ephemeral' } }] },
      { role: 'assistant', name: 'bot', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } }] },
      { role: 'tool', name: 'weather', tool_call_id: 'call_1', content: '18C', cache_control: { type: 'ephemeral' } },
    ]
    const tools = [{ type: 'function', function: { name: 'weather', description: 'The weather', parameters: { type: 'object' }, strict: true }, cache_control: { type: 'ephemeral' } }]
    const answer = post(sim, key, '/chat/completions', { model: MODEL, messages, tools, tool_choice: { type: 'function', function: { name: 'weather' } }, usage: { include: true } })
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
  })
})

describe('a known field with a wrong value', () => {
  it.each([
    ['/chat/completions', { messages: [{ role: 'user', content: 5 }] }, 'messages[0].content', 'must be a string or an array of content parts'],
    ['/chat/completions', { usage: { include: 'yes' } }, 'usage.include', 'must be true or false'],
    ['/chat/completions', { transforms: [1] }, 'transforms[0]', 'must be a string, such as "middle-out"'],
    ['/chat/completions', { n: 0 }, 'n', 'must be at least 1'],
    ['/chat/completions', { plugins: [{ enabled: true }] }, 'plugins[0].id', 'is required'],
    ['/chat/completions', { messages: [{ role: 'tool', tool_call_id: 'c', content: 'x', name: 3 }] }, 'messages[0].name', 'must be a string'],
    ['/responses', { include_reasoning: 'yes' }, 'include_reasoning', 'must be true or false'],
    ['/embeddings', { function_call: 7 }, 'function_call', 'must be "none", "auto" or { "name": ... }'],
    ['/completions', { reasoning: { effort: 'ultra' } }, 'reasoning.effort', 'must be one of none, minimal, low, medium, high, xhigh, max'],
    ['/completions', { plugins: [5] }, 'plugins[0]', 'must be a plugin object, such as { "id": "web" }'],
    ['/responses', { text: { verbosity: 5 } }, 'text.verbosity', 'must be a string'],
    // A field the route's SDK schema has and does not make nullable: null is a wrong value.
    ['/chat/completions', { cache_control: null }, 'cache_control', 'must not be null'],
    ['/responses', { user: null }, 'user', 'must not be null'],
  ] as const)('%s %j is a 400 naming the path and the reason in its message', (route, body, parameter, reason) => {
    for (const strict of [false, true]) {
      const { sim, key } = world(strict)
      const answer = post(sim, key, route, { ...BASE[route], ...body })
      expect(answer.status).toBe(400)
      expect((answer.body as any).error).toMatchObject({ code: 400, message: `Invalid request parameters: ${parameter} ${reason}`, metadata: { parameter, reason } })
    }
  })

  it.each([
    { reasoning: { effort: 5 } },
    { reasoning: { effort: 'ultra' } },
    { plugins: [5] },
    { plugins: [{}] },
    { plugins: [{ id: 'web', max_results: 0 }] },
    { response_format: { type: 'json_schema' } },
    { response_format: { type: 'json_schema', json_schema: { name: 'a', schema: { type: 'nothing' } } } },
  ])('/completions refuses %j with the 400 chat gives it, in either mode', (fields) => {
    for (const strict of [false, true]) {
      const { sim, key } = world(strict)
      const chat = post(sim, key, '/chat/completions', { ...BASE['/chat/completions'], ...fields })
      const text = post(sim, key, '/completions', { ...BASE['/completions'], ...fields })
      expect(chat.status).toBe(400)
      expect(text.body).toEqual(chat.body)
    }
  })

  it('/responses takes text.verbosity as chat takes verbosity: a string or null, any other value refused', () => {
    const { sim, key } = world()
    for (const verbosity of ['low', 'whatever', null, 5, true, {}]) {
      const chat = post(sim, key, '/chat/completions', { ...BASE['/chat/completions'], verbosity })
      const responses = post(sim, key, '/responses', { ...BASE['/responses'], text: { verbosity } })
      expect([verbosity, responses.status]).toEqual([verbosity, chat.status])
      if (chat.status === 400) expect((responses.body as any).error.message).toBe((chat.body as any).error.message.replace(': verbosity', ': text.verbosity'))
    }
  })

  it('takes the names of Object.prototype as the unknown names they are, never as a table entry', () => {
    const { sim, key } = world()
    expect(post(sim, key, '/chat/completions', { ...BASE['/chat/completions'], plugins: [{ id: 'constructor', x: 1 }, { id: 'toString' }] }).status).toBe(200)
    const chat = post(sim, key, '/chat/completions', { ...BASE['/chat/completions'], messages: [{ role: 'user', content: [{ type: 'constructor' }] }] })
    expect([chat.status, (chat.body as any).error.metadata.parameter]).toEqual([400, 'messages[0].content[0].type'])
    const responses = post(sim, key, '/responses', { ...BASE['/responses'], input: [{ role: 'user', content: [{ type: 'toString', text: 'x' }] }] })
    expect([responses.status, (responses.body as any).error.metadata.parameter]).toEqual([400, 'input[0].content[0].type'])
    const embeddings = post(sim, key, '/embeddings', { ...BASE['/embeddings'], input: [{ content: [{ type: 'valueOf' }] }] })
    expect([embeddings.status, (embeddings.body as any).error.metadata.parameter]).toEqual([400, 'input[0].content[0].type'])
  })

  it('lists the unknown fields read before the refusal on its journal entry', () => {
    const { sim, key } = world()
    expect(post(sim, key, '/chat/completions', { ...BASE['/chat/completions'], temprature: 1, temperature: 5 }).status).toBe(400)
    expect(sim.journal.list().at(-1)).toMatchObject({ status: 400, ignoredFields: ['temprature'] })
  })
})

/** Everything a refused request could have changed: the world, the key's usage, the credits and the random stream. */
function ledger(made: ReturnType<typeof world>) {
  const { sim, org, keyHash } = made
  const saved = sim.snapshot()
  const nextSecret = sim.keys.create({ userId: org.id }).key
  sim.restore(saved)
  return { world: JSON.stringify(sim.exportWorld()), usage: sim.keys.get(keyHash)?.usage, credits: sim.credits.get(org.id), nextSecret }
}

describe('strictRequests', () => {
  it('takes an assistant message sent back as the answer gave it, tool calls with their index included', () => {
    const { sim, key } = world(true)
    sim.inference.respond({ reply: { toolCalls: [{ name: 'weather', arguments: '{"city":"Paris"}' }] }, times: 1 })
    const ask = (messages: unknown[]) =>
      sim.handle({ method: 'POST', path: '/chat/completions', authorization: `Bearer ${key}`, body: JSON.stringify({ model: MODEL, messages, tools: [{ type: 'function', function: { name: 'weather' } }] }) })
    const user = { role: 'user', content: 'Weather in Paris?' }
    const first = ask([user]).body as any
    const message = first.choices[0].message
    expect(message.tool_calls[0].index).toBe(0)
    const second = ask([user, message, { role: 'tool', tool_call_id: message.tool_calls[0].id, name: 'weather', content: 'sunny' }])
    expect(second.status).toBe(200)
  })

  it.each([
    ['/chat/completions', { temprature: 1 }, 'temprature'],
    ['/chat/completions', { messages: [{ role: 'user', content: 'x', nmae: 'a' }] }, 'messages[0].nmae'],
    ['/chat/completions', { provider: { ordr: ['Alpha'] } }, 'provider.ordr'],
    ['/chat/completions', { messages: [{ role: 'user', content: [{ type: 'text', text: 'x', colour: 'red' }] }] }, 'messages[0].content[0].colour'],
    ['/responses', { input: [{ role: 'user', content: 'Hi', colour: 'red' }] }, 'input[0].colour'],
    ['/embeddings', { dimension: 8 }, 'dimension'],
    ['/completions', { reasoning: { efort: 'high' } }, 'reasoning.efort'],
    ['/completions', { plugins: [{ id: 'web', max_result: 3 }] }, 'plugins[0].max_result'],
    ['/completions', { response_format: { type: 'json_schema', json_schema: { name: 'a', schema: { type: 'object' }, strct: true } } }, 'response_format.json_schema.strct'],
  ] as const)('refuses %s %j with a 400 naming the unknown field, charging nothing and drawing nothing from the random stream', (route, body, parameter) => {
    const made = world(true)
    const before = ledger(made)
    const answer = post(made.sim, made.key, route, { ...BASE[route], ...body })
    expect(answer.status).toBe(400)
    const error = (answer.body as any).error
    expect(error.metadata.parameter).toBe(parameter)
    expect(error.message).toMatch(new RegExp(`^Invalid request parameters: ${parameter.replace(/[.[\]]/g, '\\$&')} is not a field of this request \\(known fields: `))
    expect(ledger(made)).toEqual(before)
    expect(made.sim.journal.list().at(-1)).toMatchObject({ status: 400, ignoredFields: [] })
  })

  it('leaves management bodies as strict as ever, with or without it', () => {
    for (const strictRequests of [false, true]) {
      const sim = createSimulator({ world: 'empty', strictRequests })
      const org = sim.users.create({ name: 'Acme' })
      const admin = sim.keys.create({ userId: org.id, management: true })
      const answer = sim.handle({ method: 'POST', path: '/keys', authorization: `Bearer ${admin.key}`, body: JSON.stringify({ name: 'k', limit_rest: 'daily' }) })
      expect(answer.status).toBe(400)
      expect((answer.body as any).error).toMatchObject({ message: expect.stringMatching(/^Invalid request parameters: limit_rest is not a field of this request/), metadata: { parameter: 'limit_rest' } })
    }
  })

  it('is an option of createSimulator that must be a boolean', () => {
    expect(() => createSimulator({ strictRequests: 'yes' as never })).toThrow('Failed to create simulator: "strictRequests" must be true or false, got "yes".')
  })
})

describe('a null', () => {
  // The SDK's embeddings request has no cache_control, and the SDK has no /completions operation at all.
  const cases: [Route, string][] = [
    ['/embeddings', 'cache_control'],
    ...['cache_control', 'metadata', 'plugins', 'session_id', 'trace', 'user', 'reasoning', 'usage', 'stream'].map((field): [Route, string] => ['/completions', field]),
  ]
  it.each(cases)('%s takes %s: null as absent, answering as without it, in either mode', (route, field) => {
    for (const strict of [false, true]) {
      const without = world(strict)
      const given = world(strict)
      const plain = post(without.sim, without.key, route, BASE[route])
      const answer = post(given.sim, given.key, route, { ...BASE[route], [field]: null })
      expect(answer.status, JSON.stringify(answer.body)).toBe(200)
      expect(bytesOf(answer)).toBe(bytesOf(plain))
    }
  })
})

describe('/completions lists the unknown fields of nested objects as chat does', () => {
  it.each([
    [{ reasoning: { efort: 'high' } }, 'reasoning.efort'],
    [{ plugins: [{ id: 'response-healing', enabeld: true }] }, 'plugins[0].enabeld'],
    [{ response_format: { type: 'json_schema', json_schema: { name: 'a', schema: { type: 'object' }, strct: true } } }, 'response_format.json_schema.strct'],
  ] as const)('%j lists %s', (fields, path) => {
    const { sim, key } = world()
    for (const route of ['/chat/completions', '/completions'] as const) {
      expect(post(sim, key, route, { ...BASE[route], ...fields }).status).toBe(200)
      expect(sim.journal.list().at(-1)?.ignoredFields).toEqual([path])
    }
  })
})

describe('the journal', () => {
  it('keeps the entries with ignored fields, or those without, with hasIgnoredFields', () => {
    const { sim, key } = world()
    post(sim, key, '/chat/completions', BASE['/chat/completions'])
    post(sim, key, '/chat/completions', { ...BASE['/chat/completions'], temprature: 1 })
    sim.handle({ method: 'GET', path: '/key', authorization: `Bearer ${key}` })
    expect(sim.journal.list({ hasIgnoredFields: true }).map((e) => [e.seq, e.ignoredFields])).toEqual([[2, ['temprature']]])
    expect(sim.journal.list({ hasIgnoredFields: false }).map((e) => e.seq)).toEqual([1, 3])
    expect(() => sim.journal.list({ hasIgnoredFields: 'yes' as never })).toThrow('"filter.hasIgnoredFields" must be true or false')
  })
})

/** Names no reader knows at any depth. */
const unknownName = fc.stringMatching(/^[a-z]{1,6}$/).map((name) => `zz_${name}`)

/** A valid chat body: messages of every role, sampling figures, maybe a stream, maybe content parts. */
const validBody = fc.record(
  {
    messages: fc.array(
      fc.oneof(
        fc.record({ role: fc.constantFrom('system', 'user', 'assistant'), content: fc.string({ maxLength: 20 }) }),
        fc.record({ role: fc.constant('user'), content: fc.array(fc.record({ type: fc.constant('text'), text: fc.string({ maxLength: 10 }) }), { minLength: 1, maxLength: 3 }) }),
        fc.record({ role: fc.constant('tool'), tool_call_id: fc.constant('call_1'), content: fc.string({ maxLength: 10 }) }),
      ),
      { minLength: 1, maxLength: 4 },
    ),
    temperature: fc.double({ min: 0, max: 2, noNaN: true }),
    max_tokens: fc.integer({ min: 1, max: 50 }),
    stream: fc.boolean(),
    provider: fc.constant({ allow_fallbacks: true }),
  },
  { requiredKeys: ['messages'] },
)

/** A body with unknown fields put in: at the top, in messages, in content parts, in `provider`; and their paths. */
const withUnknown = validBody.chain((body) => {
  const places: string[] = ['']
  body.messages.forEach((message, i) => {
    places.push(`messages[${i}]`)
    if (Array.isArray(message.content)) message.content.forEach((_, j) => places.push(`messages[${i}].content[${j}]`))
  })
  if (body.provider !== undefined) places.push('provider')
  return fc
    .uniqueArray(fc.tuple(fc.constantFrom(...places), unknownName), { minLength: 1, maxLength: 4, selector: ([place, name]) => `${place}.${name}` })
    .map((additions) => {
      const copy = structuredClone({ model: MODEL, ...body }) as Record<string, any>
      for (const [place, name] of additions) {
        const target = place === '' ? copy : place.split(/\.|\[|\]\.?/).filter((p) => p !== '').reduce((at, step) => at[/^\d+$/.test(step) ? Number(step) : step], copy as any)
        target[name] = { any: 'value' }
      }
      return { body: { model: MODEL, ...body } as Record<string, unknown>, lenient: copy, paths: additions.map(([place, name]) => (place === '' ? name : `${place}.${name}`)) }
    })
})

describe('a valid chat body with unknown fields', () => {
  it('answers as the body without them, byte for byte, listing their paths; strictRequests refuses the first one read', () => {
    fc.assert(
      fc.property(withUnknown, ({ body, lenient, paths }) => {
        const plain = world()
        const given = world()
        const expected = post(plain.sim, plain.key, '/chat/completions', body)
        const answer = post(given.sim, given.key, '/chat/completions', lenient)
        expect(expected.status, JSON.stringify(expected.body)).toBe(200)
        expect(bytesOf(answer)).toBe(bytesOf(expected))
        const ignored = given.sim.journal.list().at(-1)?.ignoredFields ?? []
        expect([...ignored].sort()).toEqual([...paths].sort())

        const strict = world(true)
        const before = ledger(strict)
        const refused = post(strict.sim, strict.key, '/chat/completions', lenient)
        expect(refused.status).toBe(400)
        expect((refused.body as any).error.metadata.parameter).toBe(ignored[0])
        expect(ledger(strict)).toEqual(before)
      }),
      { seed: SEED, numRuns: runs(200), verbose: true },
    )
  })
})
