// The official SDK reads the answers shaped as the service's (decisions/0039): every usage detail,
// the message's reasoning, reasoning details and indexed tool calls, the usage chunk's choice, and
// an embeddings answer's provider, each parsing without a validation error.
import type { ChatResult, ChatStreamChunk } from '@openrouter/sdk/models'
import { describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { sdkClient, useSimulatorServer } from '../support/server.js'

const { serve } = useSimulatorServer()

function setup() {
  const sim = createSimulator()
  serve(sim)
  return { sim, sdk: sdkClient(sim.world.apiKey) }
}

const messages = [{ role: 'user' as const, content: 'Look up order 1.' }]

describe('the official SDK reads the answers as the service shapes them', () => {
  it('a message with reasoning, reasoning details and indexed tool calls, and every usage detail', async () => {
    const { sim, sdk } = setup()
    sim.inference.respond({ reply: { reasoning: 'The order id is 1.', toolCalls: [{ name: 'lookup', arguments: '{"id":1}' }], usage: { promptTokens: 40, completionTokens: 12, reasoningTokens: 5, cachedTokens: 10 } } })
    const result = (await sdk.chat.send({ chatRequest: { model: sim.world.models.paid, messages } })) as ChatResult
    const message = result.choices[0]!.message
    expect(message.content).toBeNull()
    expect(message.refusal).toBeNull()
    expect(message.reasoning).toBe('The order id is 1.')
    expect(message.reasoningDetails).toEqual([{ type: 'reasoning.text', text: 'The order id is 1.', format: 'unknown', index: 0 }])
    expect(message.toolCalls).toEqual([{ type: 'function', id: expect.stringMatching(/^call_/), function: { name: 'lookup', arguments: '{"id":1}' } }])
    expect(result.usage?.promptTokensDetails).toEqual({ cachedTokens: 10, cacheWriteTokens: 0, audioTokens: 0, videoTokens: 0 })
    expect(result.usage?.completionTokensDetails).toMatchObject({ reasoningTokens: 5, audioTokens: 0 })
    expect(result.usage?.costDetails?.upstreamInferenceCost).toBeNull()
  })

  it('a stream whose usage chunk carries the finish choice, as LangChain reads it', async () => {
    const { sim, sdk } = setup()
    sim.inference.respond({ reply: { content: 'Order 1 shipped yesterday.' } })
    const stream = (await sdk.chat.send({ chatRequest: { model: sim.world.models.paid, messages, stream: true } })) as AsyncIterable<ChatStreamChunk>
    const chunks: ChatStreamChunk[] = []
    for await (const chunk of stream) chunks.push(chunk)
    const withUsage = chunks.filter((c) => c.usage !== undefined)
    expect(withUsage).toHaveLength(1)
    expect(withUsage[0]).toBe(chunks.at(-1))
    expect(withUsage[0]!.choices).toEqual(chunks.at(-2)!.choices)
    expect(withUsage[0]!.choices[0]).toMatchObject({ index: 0, finishReason: 'stop' })
    expect(chunks.slice(0, -2).every((c) => c.choices[0]?.delta.role === 'assistant')).toBe(true)
  })

  it('default replies (decisions/0048): a required tool call, reasoning of every provider shape, and logprobs parse', async () => {
    const { sim, sdk } = setup()
    const tools = [{ type: 'function' as const, function: { name: 'lookup', parameters: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] } } }]
    const called = (await sdk.chat.send({ chatRequest: { model: 'openai/gpt-4o-mini', messages, tools, toolChoice: 'required' } })) as ChatResult
    expect(called.choices[0]?.finishReason).toBe('tool_calls')
    expect(Number.isInteger(JSON.parse(called.choices[0]!.message.toolCalls![0]!.function.arguments).id)).toBe(true)
    const openai = (await sdk.chat.send({ chatRequest: { model: 'openai/gpt-5', messages, reasoning: { effort: 'low' } } })) as ChatResult
    expect(openai.choices[0]?.message.reasoningDetails?.map((d) => d.type)).toEqual(['reasoning.summary', 'reasoning.encrypted'])
    const anthropic = (await sdk.chat.send({ chatRequest: { model: 'anthropic/claude-sonnet-4', messages, reasoning: { effort: 'low' } } })) as ChatResult
    expect(anthropic.choices[0]?.message.reasoningDetails).toEqual([expect.objectContaining({ type: 'reasoning.text', signature: expect.any(String) })])
    const scored = (await sdk.chat.send({ chatRequest: { model: 'openai/gpt-4o-mini', messages, logprobs: true, topLogprobs: 2 } })) as ChatResult
    const content = scored.choices[0]?.logprobs?.content ?? []
    expect(content.map((t) => t.token).join('')).toBe(scored.choices[0]?.message.content)
    expect(content[0]?.topLogprobs).toHaveLength(2)
  })

  it('a streamed default tool call and streamed reasoning and logprobs parse, chunk by chunk', async () => {
    const { sdk } = setup()
    const tools = [{ type: 'function' as const, function: { name: 'lookup', parameters: { type: 'object', properties: { id: { type: 'integer' }, note: { type: 'string' } }, required: ['id', 'note'] } } }]
    const read = async (chatRequest: object) => {
      const chunks: ChatStreamChunk[] = []
      for await (const chunk of (await sdk.chat.send({ chatRequest: { messages, stream: true, ...chatRequest } as never })) as AsyncIterable<ChatStreamChunk>) chunks.push(chunk)
      return chunks
    }
    const calls = (await read({ model: 'openai/gpt-4o-mini', tools, toolChoice: 'required' })).flatMap((c) => c.choices[0]?.delta.toolCalls ?? [])
    expect(calls[0]).toMatchObject({ index: 0, type: 'function', function: { name: 'lookup', arguments: '' } })
    expect(JSON.parse(calls.map((c) => c.function?.arguments ?? '').join('')).id).toEqual(expect.any(Number))
    const reasoned = await read({ model: 'openai/gpt-5', reasoning: { effort: 'minimal' } })
    expect(reasoned.flatMap((c) => c.choices[0]?.delta.reasoningDetails ?? []).map((d) => d.type)).toContain('reasoning.encrypted')
    const scored = await read({ model: 'openai/gpt-4o-mini', logprobs: true, topLogprobs: 1 })
    expect(scored.flatMap((c) => c.choices[0]?.logprobs?.content ?? []).length).toBeGreaterThan(0)
  })

  it('an embeddings answer, its provider named on the wire', async () => {
    const { sim, sdk } = setup()
    const answer = await sdk.embeddings.generate({ requestBody: { model: sim.world.models.embedding, input: 'hello' } })
    expect(typeof answer === 'object' && answer !== null && 'data' in answer).toBe(true)
    const raw = sim.journal.list().at(-1)?.response
    expect((raw?.body as { provider?: unknown } | undefined)?.provider).toEqual(expect.any(String))
  })
})
