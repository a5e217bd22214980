// Step 1: the body of POST /chat/completions, every refusal a 400 naming the field's path in its
// metadata and its message; an unknown field accepted and listed, or refused under strictRequests.
import { describe, expect, it } from 'vitest'
import { CHAT_REQUEST_FIELDS } from '../../src/core/inference/request.js'
import { MODEL, chat, chatWorld } from './support.js'

const refusal = (body: Record<string, unknown>, strictRequests = false) => {
  const { sim, key } = chatWorld({ strictRequests })
  const answer = chat(sim, key, { model: MODEL, ...body })
  expect(answer.status).toBe(400)
  const { parameter, reason } = answer.body.error.metadata as { parameter: string; reason: string }
  // The message names the field and the reason too: most clients show only the message.
  expect(answer.body.error.message).toBe(`Invalid request parameters: ${parameter} ${reason}`)
  return answer.body.error.metadata as { parameter: string; reason: string }
}

describe('reading a chat request', () => {
  it.each([
    ['messages missing', { messages: undefined }, 'messages'],
    ['messages empty', { messages: [] }, 'messages'],
    ['a message that is not an object', { messages: ['hi'] }, 'messages[0]'],
    ['a message without a role', { messages: [{ content: 'hi' }] }, 'messages[0].role'],
    ['a message with an unknown role', { messages: [{ role: 'robot', content: 'hi' }] }, 'messages[0].role'],
    ['a user message without content', { messages: [{ role: 'user' }] }, 'messages[0].content'],
    ['content that is a number', { messages: [{ role: 'user', content: 5 }] }, 'messages[0].content'],
    ['a content part of an unknown type', { messages: [{ role: 'user', content: [{ type: 'sticker' }] }] }, 'messages[0].content[0].type'],
    ['an image part in a system message', { messages: [{ role: 'system', content: [{ type: 'image_url', image_url: { url: 'x' } }] }] }, 'messages[0].content[0].type'],
    ['a text part without text', { messages: [{ role: 'user', content: [{ type: 'text' }] }] }, 'messages[0].content[0].text'],
    ['an image part without its image', { messages: [{ role: 'user', content: [{ type: 'image_url' }] }] }, 'messages[0].content[0].image_url'],
    ['a tool message without tool_call_id', { messages: [{ role: 'tool', content: 'x' }] }, 'messages[0].tool_call_id'],
    ['an assistant tool call without a function', { messages: [{ role: 'assistant', tool_calls: [{ id: 'c', type: 'function' }] }] }, 'messages[0].tool_calls[0].function'],
    ['neither model nor models', { model: undefined }, 'model'],
    ['an empty model', { model: '' }, 'model'],
    ['a models entry that is not a string', { models: [1] }, 'models[0]'],
    ['temperature above 2', { temperature: 2.5 }, 'temperature'],
    ['top_p of 0', { top_p: 0 }, 'top_p'],
    ['top_k not an integer', { top_k: 1.5 }, 'top_k'],
    ['frequency_penalty below -2', { frequency_penalty: -3 }, 'frequency_penalty'],
    ['presence_penalty above 2', { presence_penalty: 3 }, 'presence_penalty'],
    ['repetition_penalty of 0', { repetition_penalty: 0 }, 'repetition_penalty'],
    ['min_p above 1', { min_p: 1.5 }, 'min_p'],
    ['top_a below 0', { top_a: -0.1 }, 'top_a'],
    ['top_logprobs above 20', { top_logprobs: 21 }, 'top_logprobs'],
    ['seed not an integer', { seed: 0.5 }, 'seed'],
    ['max_tokens of 0', { max_tokens: 0 }, 'max_tokens'],
    ['max_completion_tokens not an integer', { max_completion_tokens: 10.5 }, 'max_completion_tokens'],
    ['stream not a boolean', { stream: 'yes' }, 'stream'],
    ['stop of numbers', { stop: [1] }, 'stop'],
    ['a logit bias beyond 100', { logit_bias: { '1': 101 } }, 'logit_bias.1'],
    ['a tool without a type', { tools: [{ function: { name: 'x' } }] }, 'tools[0].type'],
    ['a function tool without a name', { tools: [{ type: 'function', function: {} }] }, 'tools[0].function.name'],
    ['an unknown tool_choice', { tool_choice: 'sometimes' }, 'tool_choice'],
    ['a response_format without a type', { response_format: {} }, 'response_format.type'],
    ['a provider order entry that is empty', { provider: { order: ['Alpha', ''] } }, 'provider.order[1]'],
    ['an unknown quantization', { provider: { quantizations: ['fp3'] } }, 'provider.quantizations[0]'],
    ['an unknown sort', { provider: { sort: 'cheapest' } }, 'provider.sort'],
    ['a sort config with an unknown by', { provider: { sort: { by: 'cheapest' } } }, 'provider.sort.by'],
    ['a negative max_price', { provider: { max_price: { prompt: -1 } } }, 'provider.max_price.prompt'],
    ['an unknown data_collection', { provider: { data_collection: 'maybe' } }, 'provider.data_collection'],
    ['allow_fallbacks not a boolean', { provider: { allow_fallbacks: 'no' } }, 'provider.allow_fallbacks'],
  ])('refuses %s, naming it', (_, body, parameter) => {
    expect(refusal(body).parameter).toBe(parameter)
  })

  it.each([
    ['a field of a message its role does not have', { messages: [{ role: 'user', content: 'x', tool_call_id: 'c' }] }, ['messages[0].tool_call_id']],
    ['an unknown provider field', { provider: { orders: ['A'] } }, ['provider.orders']],
    ['an unknown max_price key', { provider: { max_price: { tokens: 1 } } }, ['provider.max_price.tokens']],
    ["a field the SDK's ChatRequest does not have", { max_tokens_per_minute: 5 }, ['max_tokens_per_minute']],
    ['a misspelt field of a content part', { messages: [{ role: 'user', content: [{ type: 'text', text: 'x', cache_controll: {} }] }] }, ['messages[0].content[0].cache_controll']],
    ['a misspelt field of an image', { messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'x', detial: 'low' } }] }] }, ['messages[0].content[0].image_url.detial']],
    ['a misspelt field of a function tool', { tools: [{ type: 'function', function: { name: 'f', paramters: {} } }] }, ['tools[0].function.paramters']],
    ['a misspelt field of usage', { usage: { includ: true } }, ['usage.includ']],
    ['a percentile cutoff the SDK does not have', { provider: { preferred_max_latency: { p95: 3 } } }, ['provider.preferred_max_latency.p95']],
    ['a misspelt field of a web plugin', { plugins: [{ id: 'web', max_result: 3 }] }, ['plugins[0].max_result']],
    ['a misspelt field of reasoning', { reasoning: { efort: 'low' } }, ['reasoning.efort']],
    ['a misspelt field of a json_schema format', { response_format: { type: 'json_schema', json_schema: { name: 's', shcema: {} } } }, ['response_format.json_schema.shcema']],
    ['several, in the order they are read', { temprature: 1, messages: [{ role: 'user', content: 'x', nmae: 'a' }], provider: { ordr: ['A'] } }, ['temprature', 'messages[0].nmae', 'provider.ordr']],
  ])('accepts %s and lists it on the journal entry; strictRequests refuses it, naming it', (_, body, paths) => {
    const { sim, key } = chatWorld()
    expect(chat(sim, key, { model: MODEL, ...body }).status).toBe(200)
    expect(sim.journal.list().at(-1)?.ignoredFields).toEqual(paths)
    const refused = refusal(body, true)
    expect(refused.parameter).toBe(paths[0])
    expect(refused.reason).toMatch(/^is not a field of this request \(known fields: /)
  })

  it('accepts null for the nullable fields, as absent', () => {
    const { sim, key } = chatWorld()
    const nulls = Object.fromEntries(['temperature', 'top_p', 'max_tokens', 'seed', 'stop', 'logit_bias', 'logprobs', 'provider', 'prediction', 'reasoning_effort', 'service_tier', 'prompt_cache_key', 'stream_options'].map((name) => [name, null]))
    expect(chat(sim, key, { model: MODEL, ...nulls }).status).toBe(200)
    expect(chat(sim, key, { model: MODEL, provider: { order: null, only: null, ignore: null, sort: null, allow_fallbacks: null, require_parameters: null, quantizations: null, zdr: null } }).status).toBe(200)
  })

  it('knows every field of the SDK ChatRequest', () => {
    expect([...CHAT_REQUEST_FIELDS].length).toBe(41)
    const { sim, key } = chatWorld()
    const every = {
      cache_control: { type: 'ephemeral' },
      debug: { echo_upstream_body: false },
      image_config: {},
      metadata: { a: 'b' },
      modalities: ['text'],
      plugins: [],
      prediction: { type: 'content', content: 'x' },
      prompt_cache_options: { mode: 'explicit' },
      reasoning: { effort: 'low' },
      reasoning_effort: 'low',
      response_format: { type: 'json_schema', json_schema: { name: 's', schema: {} } },
      service_tier: 'auto',
      session_id: 's',
      stop_server_tools_when: [],
      stream_options: { include_usage: true },
      trace: { trace_id: 't' },
      user: 'u',
      parallel_tool_calls: false,
      prompt_cache_key: 'k',
    }
    expect(chat(sim, key, { model: MODEL, ...every }).status).toBe(200)
  })

  it('refuses a body that is not a JSON object, naming body', () => {
    const { sim, key } = chatWorld()
    const answer = sim.handle({ method: 'POST', path: '/chat/completions', authorization: `Bearer ${key}`, body: '[1]' })
    expect([answer.status, (answer.body as any).error.metadata.parameter]).toEqual([400, 'body'])
  })
})
