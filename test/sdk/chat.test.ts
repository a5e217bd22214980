// The official SDK as the client of the money path: chat.send, streamed and not, and
// generations.getGeneration, each parsing without a validation error.
import { OpenRouter } from '@openrouter/sdk'
import { BadRequestResponseError, ForbiddenResponseError, NotFoundResponseError, PaymentRequiredResponseError } from '@openrouter/sdk/models/errors'
import type { ChatResult, ChatStreamChunk } from '@openrouter/sdk/models'
import { describe, expect, it } from 'vitest'
import { createSimulator, estimateCost } from '../../src/index.js'
import { BASE, failureOf, sdkClient, useSimulatorServer } from '../support/server.js'

const { serve } = useSimulatorServer()

function setup() {
  const sim = createSimulator()
  serve(sim)
  const sdk = sdkClient(sim.world.apiKey)
  return { sim, sdk }
}

type Sdk = OpenRouter
type ChatRequest = Parameters<Sdk['chat']['send']>[0]['chatRequest']
/** A non-streamed completion, typed as one (the SDK's send has one return type for both kinds). */
const send = async (sdk: Sdk, chatRequest: ChatRequest): Promise<ChatResult> => (await sdk.chat.send({ chatRequest })) as ChatResult
const streamOf = async (sdk: Sdk, chatRequest: ChatRequest): Promise<AsyncIterable<ChatStreamChunk>> => (await sdk.chat.send({ chatRequest: { ...chatRequest, stream: true } })) as AsyncIterable<ChatStreamChunk>

const messages = [
  { role: 'system' as const, content: 'Be brief.' },
  { role: 'user' as const, content: 'What does a refund cost?' },
]

describe('sdk.chat.send', () => {
  it('returns a completion whose usage.cost is the exact cost of the routed endpoint, charged to the key', async () => {
    const { sim, sdk } = setup()
    const model = sim.world.models.timeWindowed
    const before = sim.keys.get(sim.world.apiKeyHash)!.usage

    const result = await send(sdk, { model, messages, maxTokens: 50 })

    expect(result.object).toBe('chat.completion')
    // The dated canonical slug of the model asked for, as the real answers name it.
    expect(result.model).toBe('deepseek/deepseek-chat-v3.1-2025-08-21')
    expect(result.choices[0]?.message.role).toBe('assistant')
    expect(typeof result.choices[0]?.message.content).toBe('string')
    const usage = result.usage!
    const generation = (await sdk.generations.getGeneration({ id: result.id })).data
    const routed = sim.models.get(model)!.endpoints.find((e) => e.provider_name === generation.providerName)!
    const cost = estimateCost(routed.pricing, { promptTokens: usage.promptTokens, completionTokens: usage.completionTokens }, { at: sim.clock.nowMs() })
    expect(usage.cost).toBe(Number(cost))
    expect(usage.totalTokens).toBe(usage.promptTokens + usage.completionTokens)
    expect(usage.costDetails?.upstreamInferencePromptCost).toBeGreaterThan(0)
    expect(generation.totalCost).toBe(Number(cost))
    expect(sim.keys.get(sim.world.apiKeyHash)!.usage).toBeCloseTo(before + Number(cost), 10)
  })

  it('streams chunks the SDK parses, finish_reason null until the finish chunk, then its choice again with usage and the cost', async () => {
    const { sim, sdk } = setup()
    sim.inference.respond({ reply: { content: 'Refunds are free within 30 days of purchase.' } })

    const stream = await streamOf(sdk, { model: sim.world.models.paid, messages })
    const chunks = []
    for await (const chunk of stream) chunks.push(chunk)

    expect(chunks.length).toBeGreaterThan(3)
    expect(chunks.every((c) => c.object === 'chat.completion.chunk')).toBe(true)
    expect(chunks.every((c) => c.choices.length === 1)).toBe(true)
    expect(chunks.slice(0, -2).every((c) => c.choices[0]?.finishReason === null && c.choices[0]?.delta.role === 'assistant')).toBe(true)
    expect(chunks.slice(-2).map((c) => c.choices[0]?.finishReason)).toEqual(['stop', 'stop'])
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('Refunds are free within 30 days of purchase.')
    const last = chunks.at(-1)!
    expect(chunks.at(-2)?.usage).toBeUndefined()
    // 44 characters: 11 tokens of the estimator.
    expect(last.usage?.completionTokens).toBe(11)
    const generation = (await sdk.generations.getGeneration({ id: last.id })).data
    expect(generation.streamed).toBe(true)
    expect(last.usage?.cost).toBe(generation.totalCost)
  })

  it('sends the SDK\'s camelCase request fields as the wire\'s, all accepted', async () => {
    const { sim, sdk } = setup()
    const result = await send(sdk, {
        model: sim.world.models.paid,
        models: [sim.world.models.timeWindowed],
        messages: [...messages, { role: 'assistant', content: null, toolCalls: [{ id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{}' } }] }, { role: 'tool', toolCallId: 'call_1', content: '{"ok":true}' }, { role: 'user', content: [{ type: 'text', text: 'And now?' }, { type: 'image_url', imageUrl: { url: 'https://example.com/a.png' } }] }],
        temperature: 0.2,
        topP: 0.9,
        topK: 40,
        frequencyPenalty: 0.1,
        presencePenalty: 0.1,
        repetitionPenalty: 1.1,
        minP: 0.05,
        topA: 0.1,
        seed: 7,
        maxCompletionTokens: 64,
        stop: ['\n\n'],
        logitBias: { '50256': -100 },
        logprobs: false,
        topLogprobs: 0,
        responseFormat: { type: 'text' },
        tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } }],
        toolChoice: 'auto',
        parallelToolCalls: true,
        reasoning: { effort: 'low' },
        provider: { order: ['DeepInfra'], allowFallbacks: true, sort: 'price', dataCollection: 'allow', maxPrice: { prompt: '10', completion: '10' } },
        user: 'customer-42',
        sessionId: 'session-1',
        metadata: { ticket: 'T-1' },
        streamOptions: { includeUsage: true },
    })
    // The last turn is the user's, and the request declares a tool with tool choice auto: the model calls it (decisions/0048).
    expect(result.choices[0]?.finishReason).toBe('tool_calls')
    expect(result.choices[0]?.message.toolCalls?.[0]?.function.name).toBe('lookup')
    const generation = (await sdk.generations.getGeneration({ id: result.id })).data
    expect(generation.externalUser).toBe('customer-42')
    expect(generation.sessionId).toBe('session-1')
    expect(generation.numMediaPrompt).toBe(1)
  })

  it('surfaces refusals as the SDK\'s typed errors', async () => {
    const { sim, sdk } = setup()
    expect(await failureOf(sdk.chat.send({ chatRequest: { model: 'nobody/nothing', messages } }))).toBeInstanceOf(BadRequestResponseError)
    expect(await failureOf(sdk.chat.send({ chatRequest: { model: sim.world.models.paid, messages, provider: { only: ['Nobody'] } } }))).toBeInstanceOf(NotFoundResponseError)
    const spent = sim.keys.create({ userId: sim.world.userId, limit: 5, limitReset: 'monthly', usage: { monthly: 5 } }).key
    const spender = new OpenRouter({ apiKey: spent, serverURL: BASE, retryConfig: { strategy: 'none' } })
    const refusal = await failureOf(spender.chat.send({ chatRequest: { model: sim.world.models.paid, messages } }))
    expect(refusal).toBeInstanceOf(ForbiddenResponseError)
    expect((refusal as ForbiddenResponseError).message).toBe('Key limit exceeded (monthly limit). Manage it using https://openrouter.ai/settings/keys')
    sim.inference.respond({ error: { status: 402, message: 'Insufficient credits' } })
    expect(await failureOf(sdk.chat.send({ chatRequest: { model: sim.world.models.paid, messages } }))).toBeInstanceOf(PaymentRequiredResponseError)
  })
})

describe('sdk.generations.getGeneration', () => {
  it('reads a generation of the caller\'s organisation, and 404s another organisation\'s', async () => {
    const { sim, sdk } = setup()
    const result = await send(sdk, { model: sim.world.models.paid, messages })
    const { data } = await sdk.generations.getGeneration({ id: result.id })
    expect(data).toMatchObject({ id: result.id, model: 'meta-llama/llama-3.3-70b-instruct-2024-12-06', streamed: false, cancelled: false, apiType: 'completions', tokensPrompt: result.usage?.promptTokens, tokensCompletion: result.usage?.completionTokens })
    expect(data.id).toMatch(/^gen-\d+-[A-Za-z0-9]{20}$/)

    const globex = sim.keys.create({ userId: sim.world.otherTenant.userId }).key
    const other = new OpenRouter({ apiKey: globex, serverURL: BASE, retryConfig: { strategy: 'none' } })
    expect(await failureOf(other.generations.getGeneration({ id: result.id }))).toBeInstanceOf(NotFoundResponseError)
    // Another key of the same organisation reads it.
    const colleague = new OpenRouter({ apiKey: sim.keys.create({ userId: sim.world.userId }).key, serverURL: BASE, retryConfig: { strategy: 'none' } })
    expect((await colleague.generations.getGeneration({ id: result.id })).data.id).toBe(result.id)
  })
})
