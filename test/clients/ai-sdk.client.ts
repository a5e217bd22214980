// The Vercel AI SDK (ai 7) with the OpenRouter provider (@openrouter/ai-sdk-provider 3), unchanged,
// against the simulator: run under Node 24 by test/clients/ai-sdk.test.ts, through MSW and through a
// local server (support/harness.ts).
import assert from 'node:assert/strict'
import { createOpenRouter } from '@openrouter/ai-sdk-provider'
import { APICallError, embed, generateText, Output, stepCountIs, streamText, type ToolSet, tool } from 'ai'
import { z } from 'zod'
import { chats, guardKey, MODELS, reportVersions, runCases, schemaWarnings, spentBy, type Target } from './support/harness.js'
import { CreateTicket, LOOKUP_ASK, LookupOrder, TICKET_ASK, Ticket } from './support/schemas.js'

/** The provider as its README sets it up, with usage accounting on (`usage: { include: true }`). */
const modelOf = (target: Target, id: string = MODELS.chat, apiKey = target.apiKey) =>
  createOpenRouter({ apiKey, baseURL: target.baseURL, compatibility: 'strict' }).chat(id, { usage: { include: true } })
const prompt = 'Where is my refund?'

/** Two tools without `execute`: a call ends the step, and the caller reads it. */
const tools = {
  create_ticket: tool({ description: 'Opens a support ticket', inputSchema: CreateTicket }),
  lookup_order: tool({ description: 'Looks an order up by its id', inputSchema: LookupOrder }),
} satisfies ToolSet

/** `generateText` asked where order 42 is, with a `lookup_order` tool that runs, for at most `steps` steps; `seen` gets each run's input. */
async function lookupLoop(target: Target, inputSchema: z.ZodObject<{ id: z.ZodNumber }> | typeof LookupOrder, steps: number) {
  const seen: unknown[] = []
  const result = await generateText({
    model: modelOf(target),
    prompt: 'Where is order 42?',
    tools: {
      lookup_order: tool({
        description: 'Looks an order up by its id',
        inputSchema,
        execute: async (input) => {
          seen.push(input)
          return { id: input.id, status: 'shipped' }
        },
      }),
    },
    stopWhen: stepCountIs(steps),
    maxRetries: 0,
  })
  return { result, seen }
}

/** The cost the provider reads from the answer's usage, in its metadata. */
const costOf = (metadata: unknown): number | undefined => (metadata as { openrouter?: { usage?: { cost?: number } } } | undefined)?.openrouter?.usage?.cost

/** The APICallError a call fails with; fails the case when it succeeds or fails otherwise. */
async function apiCallError(call: Promise<unknown>): Promise<APICallError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  )
  assert.ok(APICallError.isInstance(error), `an APICallError, not ${String(error)}`)
  return error
}

reportVersions(['ai', '@openrouter/ai-sdk-provider', 'zod'])
await runCases({
  'generateText': async (target) => {
    target.sim.inference.respond({ match: { lastUserMessage: /refund/ }, reply: { content: 'Refunds take 5 days.' } })
    const result = await generateText({ model: modelOf(target), prompt, maxRetries: 0 })
    assert.equal(result.text, 'Refunds take 5 days.')
    assert.equal(result.finishReason, 'stop')
    assert.ok((result.usage.inputTokens ?? 0) > 0 && (result.usage.outputTokens ?? 0) > 0)
  },

  'streamText with its usage': async (target) => {
    target.sim.inference.respond({ reply: { content: 'Refunds take five working days.' } })
    const result = streamText({ model: modelOf(target), prompt, maxRetries: 0 })
    let text = ''
    for await (const piece of result.textStream) text += piece
    assert.equal(text, 'Refunds take five working days.')
    const usage = await result.usage
    assert.ok((usage.inputTokens ?? 0) > 0, `input tokens in ${JSON.stringify(usage)}`)
    assert.ok((usage.outputTokens ?? 0) > 0, `output tokens in ${JSON.stringify(usage)}`)
    assert.equal(costOf(await result.providerMetadata), spentBy(target.sim, target.apiKeyHash))
  },

  'a tool loop with stopWhen and a scripted tool call': async (target) => {
    // Newest rule first: the tool call answers the first turn once, then the final answer.
    target.sim.inference.respond({ match: { tools: true }, reply: { content: 'Order 42 has shipped.' } })
    target.sim.inference.respond({ match: { tools: true }, reply: { toolCalls: [{ name: 'lookup_order', arguments: '{"id":42}' }] }, times: 1 })
    const { result, seen } = await lookupLoop(target, z.object({ id: z.number() }), 3)
    assert.equal(result.text, 'Order 42 has shipped.')
    assert.deepEqual(seen, [{ id: 42 }])
    assert.equal(result.steps.length, 2)
    const calls = chats(target.sim)
    assert.equal(calls.length, 2)
    const sent = JSON.parse(calls[1]?.requestBody ?? '{}') as { messages: { role: string; tool_call_id?: string }[] }
    const callId = result.steps[0]?.toolCalls[0]?.toolCallId
    assert.deepEqual(
      sent.messages.filter((m) => m.role === 'tool').map((m) => m.tool_call_id),
      [callId],
    )
  },

  'structured output with Output.object': async (target) => {
    target.sim.inference.respond({ reply: { content: '{"id":42,"status":"shipped"}' } })
    const result = await generateText({
      model: modelOf(target, MODELS.other),
      prompt,
      output: Output.object({ schema: z.object({ id: z.number(), status: z.enum(['pending', 'shipped']) }) }),
      maxRetries: 0,
    })
    assert.deepEqual(result.output, { id: 42, status: 'shipped' })
  },

  // With no responder rule (decisions/0048) the reply follows the request: these ask what apps ask.
  'Output.object with a nested zod schema and no rule: an object the schema parses': async (target) => {
    const result = await generateText({ model: modelOf(target), prompt: TICKET_ASK, output: Output.object({ schema: Ticket }), maxRetries: 0 })
    assert.deepEqual(Ticket.parse(result.output), result.output)
    assert.equal(result.finishReason, 'stop')
    const sent = JSON.parse(chats(target.sim)[0]?.requestBody ?? '{}') as { response_format?: { type: string } }
    assert.equal(sent.response_format?.type, 'json_schema', 'asked for JSON by a schema')
    assert.deepEqual(schemaWarnings(target.sim), [])
  },

  'toolChoice "required" and no rule: a call of the tool the user names, its input valid': async (target) => {
    const result = await generateText({ model: modelOf(target), prompt: LOOKUP_ASK, tools, toolChoice: 'required', maxRetries: 0 })
    assert.equal(result.finishReason, 'tool-calls')
    assert.deepEqual(
      result.toolCalls.map((call) => call.toolName),
      ['lookup_order'],
    )
    assert.deepEqual(LookupOrder.parse(result.toolCalls[0]?.input), result.toolCalls[0]?.input)
    const sent = JSON.parse(chats(target.sim)[0]?.requestBody ?? '{}') as { tool_choice?: unknown }
    assert.equal(sent.tool_choice, 'required')
    assert.deepEqual(schemaWarnings(target.sim), [])
  },

  'streamText with tools and no rule: a tool-call part with valid input, its input streamed in pieces': async (target) => {
    const result = streamText({ model: modelOf(target, MODELS.other), prompt: TICKET_ASK, tools, maxRetries: 0 })
    const deltas: string[] = []
    const calls: { toolName: string; input: unknown }[] = []
    for await (const part of result.fullStream) {
      if (part.type === 'tool-input-delta') deltas.push(part.delta)
      if (part.type === 'tool-call') calls.push(part)
      assert.notEqual(part.type, 'error', `an error part: ${JSON.stringify(part)}`)
    }
    assert.deepEqual(
      calls.map((call) => call.toolName),
      ['create_ticket'],
    )
    assert.deepEqual(CreateTicket.parse(calls[0]?.input), calls[0]?.input)
    assert.ok(deltas.length > 1, `input in more than one delta: ${JSON.stringify(deltas)}`)
    assert.deepEqual(JSON.parse(deltas.join('')), calls[0]?.input)
    assert.equal(await result.finishReason, 'tool-calls')
    assert.deepEqual(schemaWarnings(target.sim), [])
  },

  'an agent loop with stopWhen(stepCountIs(5)) and no rule: one tool round, then text': async (target) => {
    const { result, seen } = await lookupLoop(target, LookupOrder, 5)
    assert.equal(seen.length, 1, `the tool ran once: ${JSON.stringify(seen)}`)
    LookupOrder.parse(seen[0])
    assert.deepEqual(
      result.steps.map((step) => step.finishReason),
      ['tool-calls', 'stop'],
    )
    assert.ok(result.text.length > 0, 'the loop ends with text')
    assert.equal(chats(target.sim).length, 2)
    assert.deepEqual(schemaWarnings(target.sim), [])
  },

  'embed': async (target) => {
    const openrouter = createOpenRouter({ apiKey: target.apiKey, baseURL: target.baseURL, compatibility: 'strict' })
    const result = await embed({ model: openrouter.textEmbeddingModel(MODELS.embedding), value: 'refund policy', maxRetries: 0 })
    assert.equal(result.embedding.length, 1536)
    assert.ok(Math.abs(Math.hypot(...result.embedding) - 1) < 1e-5, 'a unit vector')
    assert.ok(result.usage.tokens > 0)
  },

  'usage.cost in the provider metadata, charged to the key': async (target) => {
    const result = await generateText({ model: modelOf(target), prompt, maxRetries: 0 })
    const cost = costOf(result.providerMetadata)
    assert.ok(cost !== undefined && cost > 0, `a cost in ${JSON.stringify(result.providerMetadata)}`)
    assert.equal(cost, spentBy(target.sim, target.apiKeyHash))
  },

  '400 as APICallError naming the field': async (target) => {
    const error = await apiCallError(generateText({ model: modelOf(target), prompt, temperature: 3, maxRetries: 0 }))
    assert.equal(error.statusCode, 400)
    assert.match(error.message, /temperature/)
  },

  '402 as APICallError': async (target) => {
    const error = await apiCallError(generateText({ model: modelOf(target, MODELS.chat, target.brokeKey), prompt, maxRetries: 0 }))
    assert.equal(error.statusCode, 402)
    assert.match(error.message, /credits/i)
  },

  '403 as APICallError': async (target) => {
    const error = await apiCallError(generateText({ model: modelOf(target, MODELS.chat, target.spentKey), prompt, maxRetries: 0 }))
    assert.equal(error.statusCode, 403)
    assert.match(error.message, /Key limit exceeded/)
  },

  "a guardrail's 403 as APICallError naming the guardrail, nothing charged": async (target) => {
    const guard = guardKey(target)
    const error = await apiCallError(generateText({ model: modelOf(target, MODELS.chat), prompt, maxRetries: 0 }))
    assert.equal(error.statusCode, 403)
    assert.match(error.message, guard.refusal)
    assert.equal(spentBy(target.sim, target.apiKeyHash), 0)
  },
})
