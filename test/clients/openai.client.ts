// The openai JS client (7.x), unchanged, against the simulator: run under Node 24 by
// test/clients/openai.test.ts, through MSW and through a local server (support/harness.ts).
import assert from 'node:assert/strict'
import OpenAI from 'openai'
import { zodFunction, zodResponseFormat, zodResponsesFunction, zodTextFormat } from 'openai/helpers/zod'
import { z } from 'zod'
import { chats, guardKey, MODELS, reportVersions, runCases, schemaWarnings, spentBy, type Target } from './support/harness.js'
import { CreateTicket, Exacting, LOOKUP_ASK, LookupOrder, TICKET_ASK, Ticket } from './support/schemas.js'

const client = (target: Target, apiKey = target.apiKey) => new OpenAI({ apiKey, baseURL: target.baseURL, maxRetries: 0 })
const question = [{ role: 'user' as const, content: 'Where is my refund?' }]

/** Two tools, so that which one the model calls is a choice. */
const tools = [zodFunction({ name: 'create_ticket', parameters: CreateTicket }), zodFunction({ name: 'lookup_order', parameters: LookupOrder })]

/** The one tool call `parse` returns when the user asks to look an order up and `toolChoice` says which tool may be called. */
async function onlyCall(target: Target, model: string, toolChoice: OpenAI.ChatCompletionToolChoiceOption) {
  const completion = await client(target).chat.completions.parse({ model, messages: [{ role: 'user', content: LOOKUP_ASK }], tools, tool_choice: toolChoice })
  const choice = completion.choices[0]
  assert.equal(choice?.finish_reason, 'tool_calls')
  const calls = choice.message.tool_calls ?? []
  assert.equal(calls.length, 1, `one call in ${JSON.stringify(choice.message)}`)
  const call = calls[0]
  assert.ok(call?.type === 'function' && call.id.length > 0, `a function call with an id: ${JSON.stringify(call)}`)
  return call
}

/** `runTools` asked where order 42 is, with a `lookup_order` tool taking `parameters`; `seen` gets the arguments of each run of the tool. */
function lookupLoop(target: Target, parameters: z.ZodObject<{ id: z.ZodNumber }> | typeof LookupOrder) {
  const seen: unknown[] = []
  const runner = client(target).chat.completions.runTools({
    model: MODELS.chat,
    messages: [{ role: 'user', content: 'Where is order 42?' }],
    tools: [
      zodFunction({
        name: 'lookup_order',
        parameters,
        // The client has parsed the arguments with `parameters` before it calls this.
        function: (args: unknown) => {
          seen.push(args)
          return { id: (args as { id: number }).id, status: 'shipped' }
        },
      }),
    ],
  })
  return { runner, seen }
}

/** The cost the service adds to `usage`: not in the client's types, read from the raw answer. */
const costOf = (usage: unknown): number => (usage as { cost: number }).cost

reportVersions(['openai', 'zod'])
await runCases({
  'its own parameters are fields the simulator knows': async (target) => {
    // Typed parameters of the client's create calls: never listed as ignored, so never refused under strictRequests.
    await client(target).chat.completions.create({ model: MODELS.chat, messages: question, safety_identifier: 'hashed-user-1', prompt_cache_retention: '24h', prompt_cache_key: 'k1' })
    await client(target).responses.create({ model: MODELS.chat, input: 'Where is my refund?', safety_identifier: 'hashed-user-1', prompt_cache_retention: '24h' })
    const entries = target.sim.journal.list().slice(-2)
    assert.deepEqual(entries.map((entry) => [entry.status, entry.ignoredFields]), [[200, []], [200, []]])
  },
  'chat': async (target) => {
    target.sim.inference.respond({ match: { lastUserMessage: /refund/ }, reply: { content: 'Refunds take 5 days.' } })
    const completion = await client(target).chat.completions.create({ model: MODELS.chat, messages: question })
    assert.equal(completion.choices[0]?.message.content, 'Refunds take 5 days.')
    assert.equal(completion.choices[0]?.finish_reason, 'stop')
    assert.ok(completion.model.startsWith(MODELS.chat), `model ${completion.model} names ${MODELS.chat}`)
    assert.ok(completion.usage !== undefined && completion.usage.total_tokens > 0)
  },

  'stream with its usage (stream_options.include_usage)': async (target) => {
    target.sim.inference.respond({ reply: { content: 'Refunds take five working days.' } })
    const stream = await client(target).chat.completions.create({ model: MODELS.chat, messages: question, stream: true, stream_options: { include_usage: true } })
    let text = ''
    let usage: OpenAI.CompletionUsage | null | undefined
    let finish: string | null | undefined
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? ''
      finish ??= chunk.choices[0]?.finish_reason
      if (chunk.usage) usage = chunk.usage
    }
    assert.equal(text, 'Refunds take five working days.')
    assert.equal(finish, 'stop')
    assert.ok(usage, 'a chunk carries usage')
    assert.equal(usage.total_tokens, usage.prompt_tokens + usage.completion_tokens)
    assert.equal(costOf(usage), spentBy(target.sim, target.apiKeyHash))
  },

  'runTools with a scripted tool call': async (target) => {
    // Newest rule first: the tool call answers the first turn once, then the final answer.
    target.sim.inference.respond({ match: { tools: true }, reply: { content: 'Order 42 has shipped.' } })
    target.sim.inference.respond({ match: { tools: true }, reply: { toolCalls: [{ name: 'lookup_order', arguments: '{"id":42}' }] }, times: 1 })
    const { runner, seen } = lookupLoop(target, z.object({ id: z.number() }))
    assert.equal(await runner.finalContent(), 'Order 42 has shipped.')
    assert.deepEqual(seen, [{ id: 42 }])
    // The simulator got the tool's result back, under the id of the call it made.
    const calls = chats(target.sim)
    assert.equal(calls.length, 2)
    const callId = runner.messages.flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []) : []))[0]?.id
    assert.ok(callId)
    const sent = JSON.parse(calls[1]?.requestBody ?? '{}') as { messages: { role: string; tool_call_id?: string; content?: string }[] }
    assert.deepEqual(
      sent.messages.filter((m) => m.role === 'tool').map((m) => [m.tool_call_id, JSON.parse(m.content ?? '')]),
      [[callId, { id: 42, status: 'shipped' }]],
    )
  },

  'structured output with parse and zod': async (target) => {
    target.sim.inference.respond({ reply: { content: '{"id":42,"status":"shipped"}' } })
    const Order = z.object({ id: z.number(), status: z.enum(['pending', 'shipped']) })
    const completion = await client(target).chat.completions.parse({ model: MODELS.other, messages: question, response_format: zodResponseFormat(Order, 'order') })
    assert.deepEqual(completion.choices[0]?.message.parsed, { id: 42, status: 'shipped' })
  },

  // With no responder rule (decisions/0048) the reply follows the request: these ask what apps ask.
  'parse with zodResponseFormat and no rule: parsed, valid for the zod schema': async (target) => {
    const ask = { model: MODELS.chat, messages: question, response_format: zodResponseFormat(Ticket, 'ticket') }
    const completion = await client(target).chat.completions.parse(ask)
    const message = completion.choices[0]?.message
    assert.equal(completion.choices[0]?.finish_reason, 'stop')
    assert.equal(message?.refusal ?? null, null)
    assert.ok(message?.parsed, `parsed content in ${JSON.stringify(message)}`)
    assert.deepEqual(Ticket.parse(message.parsed), message.parsed)
    assert.deepEqual(JSON.parse(message.content ?? ''), message.parsed)
    // The same request, the same answer.
    assert.deepEqual((await client(target).chat.completions.parse(ask)).choices[0]?.message.parsed, message.parsed)
    assert.deepEqual(schemaWarnings(target.sim), [])
  },

  'parse with formats, bounds, patterns, a discriminated union and recursion, no rule: zod parses it': async (target) => {
    // Different messages, different values: each must pass zod's own checks.
    for (const content of ['Fill the form.', 'Where is my refund?', 'Describe the shape.']) {
      const completion = await client(target).chat.completions.parse({ model: MODELS.chat, messages: [{ role: 'user', content }], response_format: zodResponseFormat(Exacting, 'exacting') })
      const parsed = completion.choices[0]?.message.parsed
      assert.deepEqual(Exacting.parse(parsed), parsed)
    }
    assert.deepEqual(schemaWarnings(target.sim), [])
  },

  'a streamed parse with zodResponseFormat and no rule: content in pieces, parsed at the end': async (target) => {
    const stream = client(target).chat.completions.stream({ model: MODELS.chat, messages: question, response_format: zodResponseFormat(Ticket, 'ticket') })
    let deltas = 0
    stream.on('content.delta', () => deltas++)
    const final = await stream.finalChatCompletion()
    const parsed = final.choices[0]?.message.parsed
    assert.ok(deltas > 1, `content in more than one delta (${deltas})`)
    assert.deepEqual(Ticket.parse(parsed), parsed)
    assert.deepEqual(schemaWarnings(target.sim), [])
  },

  'tool_choice "required" with zodFunction tools and no rule: the tool the user names, arguments zod parses': async (target) => {
    const call = await onlyCall(target, MODELS.chat, 'required')
    assert.equal(call.function.name, 'lookup_order')
    assert.deepEqual(LookupOrder.parse(JSON.parse(call.function.arguments)), call.function.parsed_arguments)
    assert.deepEqual(schemaWarnings(target.sim), [])
  },

  'tool_choice naming a function, no rule: that function, arguments zod parses': async (target) => {
    const call = await onlyCall(target, MODELS.other, { type: 'function', function: { name: 'create_ticket' } })
    assert.equal(call.function.name, 'create_ticket')
    assert.deepEqual(CreateTicket.parse(JSON.parse(call.function.arguments)), call.function.parsed_arguments)
    assert.deepEqual(schemaWarnings(target.sim), [])
  },

  'runTools with a zod tool and no rule: one call with parsed args, then text': async (target) => {
    const { runner, seen } = lookupLoop(target, LookupOrder)
    const text = await runner.finalContent()
    assert.ok(typeof text === 'string' && text.length > 0, `final text, not ${JSON.stringify(text)}`)
    assert.equal(seen.length, 1, `the tool ran once: ${JSON.stringify(seen)}`)
    LookupOrder.parse(seen[0])
    assert.equal(chats(target.sim).length, 2)
    assert.deepEqual(
      runner.messages.map((m) => m.role),
      ['user', 'assistant', 'tool', 'assistant'],
    )
    assert.deepEqual(schemaWarnings(target.sim), [])
  },

  'a streamed tool call with no rule: arguments in pieces that add up to JSON zod parses': async (target) => {
    const stream = client(target).chat.completions.stream({
      model: MODELS.chat,
      messages: [{ role: 'user', content: TICKET_ASK }],
      tools,
      tool_choice: 'required',
    })
    const pieces: string[] = []
    let first: OpenAI.ChatCompletionChunk.Choice.Delta.ToolCall | undefined
    for await (const chunk of stream) {
      for (const call of chunk.choices[0]?.delta.tool_calls ?? []) {
        first ??= call
        if (call.function?.arguments) pieces.push(call.function.arguments)
      }
    }
    // The first delta names the call, as the service streams one.
    assert.equal(first?.index, 0)
    assert.ok(first?.id, `an id in the first delta ${JSON.stringify(first)}`)
    assert.equal(first?.type, 'function')
    assert.equal(first?.function?.name, 'create_ticket')
    assert.equal(first?.function?.arguments, '')
    assert.ok(pieces.length > 1, `arguments in more than one delta: ${JSON.stringify(pieces)}`)
    const final = await stream.finalChatCompletion()
    const call = final.choices[0]?.message.tool_calls?.[0]
    assert.ok(call?.type === 'function')
    assert.equal(call.function.arguments, pieces.join(''))
    assert.deepEqual(CreateTicket.parse(JSON.parse(pieces.join(''))), call.function.parsed_arguments)
    assert.equal(final.choices[0]?.finish_reason, 'tool_calls')
    assert.deepEqual(schemaWarnings(target.sim), [])
  },

  'responses.parse with zodTextFormat and no rule: output_parsed, valid for the zod schema': async (target) => {
    const response = await client(target).responses.parse({ model: MODELS.chat, input: TICKET_ASK, text: { format: zodTextFormat(Ticket, 'ticket') } })
    assert.equal(response.status, 'completed')
    assert.ok(response.output_parsed, `output_parsed in ${JSON.stringify(response.output)}`)
    assert.deepEqual(Ticket.parse(response.output_parsed), response.output_parsed)
    assert.deepEqual(JSON.parse(response.output_text), response.output_parsed)
    assert.deepEqual(schemaWarnings(target.sim), [])
  },

  'responses.stream with a zodResponsesFunction, tool_choice "required" and no rule: a function_call, arguments in pieces': async (target) => {
    const stream = client(target).responses.stream({ model: MODELS.chat, input: LOOKUP_ASK, tools: [zodResponsesFunction({ name: 'lookup_order', parameters: LookupOrder })], tool_choice: 'required' })
    let deltas = 0
    for await (const event of stream) if (event.type === 'response.function_call_arguments.delta') deltas++
    const response = await stream.finalResponse()
    const calls = response.output.filter((item) => item.type === 'function_call')
    assert.equal(calls.length, 1, `one function_call in ${JSON.stringify(response.output)}`)
    assert.equal(calls[0]?.name, 'lookup_order')
    assert.deepEqual(LookupOrder.parse(JSON.parse(calls[0]?.arguments ?? '')), calls[0]?.parsed_arguments)
    assert.ok(deltas > 1, `arguments in more than one event (${deltas})`)
    assert.deepEqual(schemaWarnings(target.sim), [])
  },

  'embeddings': async (target) => {
    // The client asks for base64 and decodes it into numbers itself.
    const answer = await client(target).embeddings.create({ model: MODELS.embedding, input: ['refund policy', 'shipping times'] })
    assert.equal(answer.data.length, 2)
    assert.equal(answer.data[0]?.embedding.length, 1536)
    const norm = Math.hypot(...(answer.data[0]?.embedding ?? []))
    assert.ok(Math.abs(norm - 1) < 1e-5, `a unit vector (norm ${norm})`)
    assert.ok(answer.usage.prompt_tokens > 0)
    assert.equal(costOf(answer.usage), spentBy(target.sim, target.apiKeyHash))
  },

  'legacy completions.create, streamed too': async (target) => {
    target.sim.inference.respond({ reply: { content: 'a time, there was a refund.' } })
    const completion = await client(target).completions.create({ model: MODELS.chat, prompt: 'Once upon' })
    assert.equal(completion.object, 'text_completion')
    assert.equal(completion.choices[0]?.text, 'a time, there was a refund.')
    assert.equal(completion.choices[0]?.finish_reason, 'stop')
    assert.equal(costOf(completion.usage), spentBy(target.sim, target.apiKeyHash))
    const stream = await client(target).completions.create({ model: MODELS.chat, prompt: 'Once upon', stream: true, stream_options: { include_usage: true } })
    let text = ''
    let usage: OpenAI.CompletionUsage | undefined
    for await (const chunk of stream) {
      text += chunk.choices[0]?.text ?? ''
      if (chunk.usage) usage = chunk.usage
    }
    assert.equal(text, 'a time, there was a refund.')
    assert.ok(usage !== undefined && usage.completion_tokens > 0, 'a chunk carries usage')
  },

  'usage.cost in the raw usage, charged to the key': async (target) => {
    const completion = await client(target).chat.completions.create({ model: MODELS.chat, messages: question })
    const cost = costOf(completion.usage)
    assert.ok(cost > 0)
    assert.equal(cost, spentBy(target.sim, target.apiKeyHash))
  },

  '400 as BadRequestError naming the field': async (target) => {
    const error = await client(target).chat.completions.create({ model: MODELS.chat, messages: question, temperature: 3 }).catch((e: unknown) => e)
    assert.ok(error instanceof OpenAI.BadRequestError, `a BadRequestError, not ${String(error)}`)
    assert.equal(error.status, 400)
    assert.match(error.message, /temperature/)
  },

  '402 as an APIError with status 402': async (target) => {
    const error = await client(target, target.brokeKey).chat.completions.create({ model: MODELS.chat, messages: question }).catch((e: unknown) => e)
    assert.ok(error instanceof OpenAI.APIError, `an APIError, not ${String(error)}`)
    assert.equal(error.status, 402)
    assert.match(error.message, /credits/i)
  },

  'a 503 retried under the default maxRetries: the retry answered, not a hang': async (target) => {
    // The client cancels the 503's body before it retries, and awaits the cancel: under MSW 2 that
    // cancel never settled for a body MSW had teed (test/msw/body-cancel.test.ts).
    target.sim.faults.serviceUnavailable({ operation: 'createChatCompletion', once: true, retryAfterSeconds: 0 })
    const before = target.sim.journal.list().length
    const completion = await new OpenAI({ apiKey: target.apiKey, baseURL: target.baseURL }).chat.completions.create({ model: MODELS.chat, messages: question })
    assert.equal(completion.choices.length, 1)
    assert.deepEqual(
      target.sim.journal.list().slice(before).map((entry) => entry.status),
      [503, 200],
    )
  },

  '403 as PermissionDeniedError': async (target) => {
    const error = await client(target, target.spentKey).chat.completions.create({ model: MODELS.chat, messages: question }).catch((e: unknown) => e)
    assert.ok(error instanceof OpenAI.PermissionDeniedError, `a PermissionDeniedError, not ${String(error)}`)
    assert.match(error.message, /Key limit exceeded/)
  },

  "a guardrail's 403 as PermissionDeniedError naming the guardrail, nothing charged": async (target) => {
    const guard = guardKey(target)
    const error = await client(target).chat.completions.create({ model: MODELS.chat, messages: question }).catch((e: unknown) => e)
    assert.ok(error instanceof OpenAI.PermissionDeniedError, `a PermissionDeniedError, not ${String(error)}`)
    assert.match(error.message, guard.refusal)
    assert.equal(spentBy(target.sim, target.apiKeyHash), 0)
    // The model the guardrail allows is served.
    const allowed = await client(target).chat.completions.create({ model: MODELS.other, messages: question })
    assert.ok(spentBy(target.sim, target.apiKeyHash) > 0 && allowed.choices.length === 1)
  },
})
