// LangChain, unchanged, against the simulator: ChatOpenAI and OpenAIEmbeddings (@langchain/openai 1)
// and ChatOpenRouter (@langchain/openrouter), run under Node 24 by test/clients/langchain.test.ts,
// through MSW and through a local server (support/harness.ts).
import assert from 'node:assert/strict'
import type { BaseChatModel } from '@langchain/core/language_models/chat_models'
import { AIMessageChunk, type BaseMessage, HumanMessage, type UsageMetadata } from '@langchain/core/messages'
import type { LLMResult } from '@langchain/core/outputs'
import { type StructuredToolInterface, tool } from '@langchain/core/tools'
import { ChatOpenAI, OpenAIEmbeddings } from '@langchain/openai'
import { ChatOpenRouter, OpenRouterAuthError, OpenRouterError } from '@langchain/openrouter'
import OpenAI from 'openai'
import { z } from 'zod'
import { type Case, chats, guardKey, MODELS, reportVersions, runCases, schemaWarnings, spentBy, type Target } from './support/harness.js'
import { CreateTicket, LOOKUP_ASK, LookupOrder, Ticket } from './support/schemas.js'

const question = 'Where is my refund?'

/** The two chat models, as their documentation sets them up against another base URL. */
const CHAT_MODELS = {
  ChatOpenAI: (target: Target, model: string, { apiKey = target.apiKey, temperature }: ModelOptions = {}): BaseChatModel =>
    new ChatOpenAI({ model, apiKey, configuration: { baseURL: target.baseURL }, maxRetries: 0, ...(temperature !== undefined && { temperature }) }),
  ChatOpenRouter: (target: Target, model: string, { apiKey = target.apiKey, temperature }: ModelOptions = {}): BaseChatModel =>
    new ChatOpenRouter({ model, apiKey, baseURL: target.baseURL, maxRetries: 0, ...(temperature !== undefined && { temperature }) }),
}
interface ModelOptions {
  apiKey?: string
  temperature?: number
}
type ChatModelName = keyof typeof CHAT_MODELS

const lookupOrder = tool(async ({ id }: { id: number }) => JSON.stringify({ id, status: 'shipped' }), {
  name: 'lookup_order',
  description: 'Looks an order up by its id',
  schema: z.object({ id: z.number() }),
})

/** Tools with richer parameters, for the default replies (no responder rule): `seen` gets each run's arguments. */
const lookupOrderFully = (seen: unknown[] = []) =>
  tool(
    async (args: z.infer<typeof LookupOrder>) => {
      seen.push(args)
      return JSON.stringify({ id: args.id, status: 'shipped' })
    },
    { name: 'lookup_order', description: 'Looks an order up by its id', schema: LookupOrder },
  )
const createTicket = tool(async () => 'opened', { name: 'create_ticket', description: 'Opens a support ticket', schema: CreateTicket })

/**
 * One round of a tool loop as LangChain's docs write it: the model with `tools` bound is asked
 * where order 42 is, each call it makes is run with `tool.invoke(call)` and sent back, and the
 * model answers again.
 */
async function toolRound(model: BaseChatModel, run: StructuredToolInterface) {
  assert.ok(model.bindTools !== undefined)
  const withTools = model.bindTools([run])
  const messages: BaseMessage[] = [new HumanMessage('Where is order 42?')]
  const first = await withTools.invoke(messages)
  messages.push(first)
  for (const call of first.tool_calls ?? []) messages.push(await run.invoke(call))
  const final = await withTools.invoke(messages)
  return { first, final }
}

/** What a failed call threw; fails the case when it succeeds. */
const failureOf = (call: Promise<unknown>): Promise<unknown> =>
  call.then(
    () => assert.fail('the call succeeded'),
    (e: unknown) => e,
  )

/** The typed error each model throws for a status, and its status. */
const ERRORS: Record<ChatModelName, (error: unknown, status: 400 | 402 | 403) => void> = {
  ChatOpenAI: (error, status) => {
    // ChatOpenAI lets the openai client's own typed errors through.
    const expected = status === 400 ? OpenAI.BadRequestError : status === 403 ? OpenAI.PermissionDeniedError : OpenAI.APIError
    assert.ok(error instanceof expected, `a ${expected.name}, not ${String(error)}`)
    assert.equal(error.status, status)
  },
  ChatOpenRouter: (error, status) => {
    const expected = status === 403 ? OpenRouterAuthError : OpenRouterError
    assert.ok(expected.isInstance(error), `an ${expected.name}, not ${String(error)}`)
    assert.equal(error.statusCode, status)
  },
}

function chatCases(name: ChatModelName): Record<string, Case> {
  const modelOf = CHAT_MODELS[name]
  return {
    [`${name}: invoke`]: async (target) => {
      target.sim.inference.respond({ match: { lastUserMessage: /refund/ }, reply: { content: 'Refunds take 5 days.' } })
      const answer = await modelOf(target, MODELS.chat).invoke(question)
      assert.equal(answer.content, 'Refunds take 5 days.')
      const usage = answer.usage_metadata as UsageMetadata | undefined
      assert.ok((usage?.total_tokens ?? 0) > 0, `usage_metadata in ${JSON.stringify(usage)}`)
    },

    [`${name}: stream with its usage_metadata`]: async (target) => {
      target.sim.inference.respond({ reply: { content: 'Refunds take five working days.' } })
      let whole: AIMessageChunk | undefined
      for await (const chunk of await modelOf(target, MODELS.chat).stream(question)) whole = whole === undefined ? chunk : whole.concat(chunk)
      assert.equal(whole?.content, 'Refunds take five working days.')
      const usage = whole?.usage_metadata as UsageMetadata | undefined
      assert.ok(usage !== undefined, 'the stream carried usage_metadata')
      assert.ok(usage.input_tokens > 0 && usage.output_tokens > 0)
      assert.equal(usage.total_tokens, usage.input_tokens + usage.output_tokens)
    },

    [`${name}: bindTools and tool.invoke(toolCall) back to the model`]: async (target) => {
      // Newest rule first: the tool call answers the first turn once, then the final answer.
      target.sim.inference.respond({ match: { tools: true }, reply: { content: 'Order 42 has shipped.' } })
      target.sim.inference.respond({ match: { tools: true }, reply: { toolCalls: [{ name: 'lookup_order', arguments: '{"id":42}' }] }, times: 1 })
      const { first, final } = await toolRound(modelOf(target, MODELS.other), lookupOrder)
      assert.deepEqual(first.tool_calls?.map((call) => [call.name, call.args]), [['lookup_order', { id: 42 }]])
      assert.equal(final.content, 'Order 42 has shipped.')
      const sent = JSON.parse(chats(target.sim)[1]?.requestBody ?? '{}') as { messages: { role: string; tool_call_id?: string; content?: unknown }[] }
      assert.deepEqual(
        sent.messages.filter((m) => m.role === 'tool').map((m) => [m.tool_call_id, m.content]),
        [[first.tool_calls?.[0]?.id, JSON.stringify({ id: 42, status: 'shipped' })]],
      )
    },

    [`${name}: withStructuredOutput`]: async (target) => {
      target.sim.inference.respond({ reply: { content: '{"id":42,"status":"shipped"}' } })
      const Order = z.object({ id: z.number(), status: z.enum(['pending', 'shipped']) })
      const order = await modelOf(target, MODELS.chat).withStructuredOutput(Order, { name: 'order' }).invoke(question)
      assert.deepEqual(order, { id: 42, status: 'shipped' })
      const sent = JSON.parse(chats(target.sim)[0]?.requestBody ?? '{}') as { response_format?: { type: string } }
      assert.equal(sent.response_format?.type, 'json_schema', 'asked for JSON by a schema')
    },

    // With no responder rule (decisions/0048) the reply follows the request: these ask what apps ask.
    [`${name}: withStructuredOutput with a nested zod schema and no rule: an object the schema parses`]: async (target) => {
      const ticket = await modelOf(target, MODELS.chat).withStructuredOutput(Ticket, { name: 'ticket' }).invoke(question)
      assert.deepEqual(Ticket.parse(ticket), ticket)
      assert.deepEqual(schemaWarnings(target.sim), [])
    },

    [`${name}: withStructuredOutput by function calling and no rule: the forced call's arguments parse`]: async (target) => {
      const ticket = await modelOf(target, MODELS.other).withStructuredOutput(Ticket, { name: 'ticket', method: 'functionCalling' }).invoke(question)
      assert.deepEqual(Ticket.parse(ticket), ticket)
      const sent = JSON.parse(chats(target.sim)[0]?.requestBody ?? '{}') as { tool_choice?: unknown }
      assert.deepEqual(sent.tool_choice, { type: 'function', function: { name: 'ticket' } }, 'a call of the schema\'s function, forced')
      assert.deepEqual(schemaWarnings(target.sim), [])
    },

    [`${name}: bindTools with tool_choice "any" and no rule: the tool the user names, args valid`]: async (target) => {
      const model = modelOf(target, MODELS.chat)
      assert.ok(model.bindTools !== undefined)
      const answer = await model.bindTools([createTicket, lookupOrderFully()], { tool_choice: 'any' }).invoke(LOOKUP_ASK)
      assert.deepEqual(
        answer.tool_calls?.map((call) => call.name),
        ['lookup_order'],
      )
      assert.deepEqual(LookupOrder.parse(answer.tool_calls?.[0]?.args), answer.tool_calls?.[0]?.args)
      const sent = JSON.parse(chats(target.sim)[0]?.requestBody ?? '{}') as { tool_choice?: unknown }
      assert.equal(sent.tool_choice, 'required')
      assert.deepEqual(schemaWarnings(target.sim), [])
    },

    [`${name}: a streamed tool call with no rule: chunks that concat to valid args`]: async (target) => {
      const model = modelOf(target, MODELS.chat)
      assert.ok(model.bindTools !== undefined)
      let whole: AIMessageChunk | undefined
      let pieces = 0
      for await (const chunk of await model.bindTools([lookupOrderFully()], { tool_choice: 'any' }).stream('Where is order 42?')) {
        if (chunk.tool_call_chunks?.some((piece) => (piece.args ?? '') !== '')) pieces++
        whole = whole === undefined ? chunk : whole.concat(chunk)
      }
      assert.ok(pieces > 1, `args in more than one chunk (${pieces})`)
      assert.deepEqual(
        whole?.tool_calls?.map((call) => call.name),
        ['lookup_order'],
      )
      assert.deepEqual(LookupOrder.parse(whole?.tool_calls?.[0]?.args), whole?.tool_calls?.[0]?.args)
      assert.deepEqual(schemaWarnings(target.sim), [])
    },

    [`${name}: a tool loop with no rule: one call with valid args, then text`]: async (target) => {
      const seen: unknown[] = []
      const { first, final } = await toolRound(modelOf(target, MODELS.chat), lookupOrderFully(seen))
      assert.equal(first.tool_calls?.length, 1)
      assert.equal(seen.length, 1, `the tool ran once: ${JSON.stringify(seen)}`)
      LookupOrder.parse(seen[0])
      assert.deepEqual(final.tool_calls ?? [], [])
      assert.ok(typeof final.content === 'string' && final.content.length > 0, `text at the end, not ${JSON.stringify(final.content)}`)
      assert.deepEqual(schemaWarnings(target.sim), [])
    },

    [`${name}: 400 as its typed error, naming the field`]: async (target) => {
      const error = await failureOf(modelOf(target, MODELS.chat, { temperature: 3 }).invoke(question))
      ERRORS[name](error, 400)
      assert.match((error as Error).message, /temperature/)
    },

    [`${name}: 402 as its typed error`]: async (target) => {
      const error = await failureOf(modelOf(target, MODELS.chat, { apiKey: target.brokeKey }).invoke(question))
      ERRORS[name](error, 402)
      assert.match((error as Error).message, /credits/i)
    },

    [`${name}: 403 as its typed error`]: async (target) => {
      const error = await failureOf(modelOf(target, MODELS.chat, { apiKey: target.spentKey }).invoke(question))
      ERRORS[name](error, 403)
      assert.match((error as Error).message, /Key limit exceeded/)
    },
    [`${name}: a guardrail's 403 as its typed error, naming the guardrail, nothing charged`]: async (target) => {
      const guard = guardKey(target)
      const error = await failureOf(modelOf(target, MODELS.chat).invoke(question))
      ERRORS[name](error, 403)
      assert.match((error as Error).message, guard.refusal)
      assert.equal(spentBy(target.sim, target.apiKeyHash), 0)
    },
  }
}

reportVersions(['@langchain/core', '@langchain/openai', '@langchain/openrouter', 'zod'])
await runCases({
  ...chatCases('ChatOpenAI'),
  ...chatCases('ChatOpenRouter'),

  'ChatOpenRouter: usage.cost in llmOutput.tokenUsage, charged to the key': async (target) => {
    let output: LLMResult | undefined
    await CHAT_MODELS.ChatOpenRouter(target, MODELS.chat).invoke(question, { callbacks: [{ handleLLMEnd: (result) => void (output = result) }] })
    const cost = (output?.llmOutput?.['tokenUsage'] as { cost?: number } | undefined)?.cost
    assert.ok(cost !== undefined && cost > 0, `a cost in ${JSON.stringify(output?.llmOutput)}`)
    assert.equal(cost, spentBy(target.sim, target.apiKeyHash))
  },

  'OpenAIEmbeddings': async (target) => {
    const embeddings = new OpenAIEmbeddings({ model: MODELS.embedding, apiKey: target.apiKey, configuration: { baseURL: target.baseURL }, maxRetries: 0 })
    const [query, documents] = [await embeddings.embedQuery('refund policy'), await embeddings.embedDocuments(['refund policy', 'shipping times'])]
    assert.equal(query.length, 1536)
    assert.equal(documents.length, 2)
    assert.deepEqual(documents[0], query, 'the same text, the same vector')
    assert.ok(Math.abs(Math.hypot(...query) - 1) < 1e-5, 'a unit vector')
  },
})
