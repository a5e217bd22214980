// The openai JS client (7.x), unchanged, against the simulator: run under Node 24 by
// test/clients/openai.test.ts, through MSW and through a local server (support/harness.ts).
import assert from 'node:assert/strict'
import OpenAI from 'openai'
import { zodFunction, zodResponseFormat } from 'openai/helpers/zod'
import { z } from 'zod'
import { chats, MODELS, reportVersions, runCases, spentBy, type Target } from './support/harness.js'

const client = (target: Target, apiKey = target.apiKey) => new OpenAI({ apiKey, baseURL: target.baseURL, maxRetries: 0 })
const question = [{ role: 'user' as const, content: 'Where is my refund?' }]

/** The cost the service adds to `usage`: not in the client's types, read from the raw answer. */
const costOf = (usage: unknown): number => (usage as { cost: number }).cost

reportVersions(['openai', 'zod'])
await runCases({
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
    const seen: unknown[] = []
    const runner = client(target).chat.completions.runTools({
      model: MODELS.chat,
      messages: [{ role: 'user', content: 'Where is order 42?' }],
      tools: [
        zodFunction({
          name: 'lookup_order',
          parameters: z.object({ id: z.number() }),
          function: (args: { id: number }) => {
            seen.push(args)
            return { id: args.id, status: 'shipped' }
          },
        }),
      ],
    })
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

  '403 as PermissionDeniedError': async (target) => {
    const error = await client(target, target.spentKey).chat.completions.create({ model: MODELS.chat, messages: question }).catch((e: unknown) => e)
    assert.ok(error instanceof OpenAI.PermissionDeniedError, `a PermissionDeniedError, not ${String(error)}`)
    assert.match(error.message, /Key limit exceeded/)
  },
})
