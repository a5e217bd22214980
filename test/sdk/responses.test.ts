// The official SDK as the client of POST /responses: responses.send, plain and streamed, and
// callModel, for text and for a tool-calling loop, each parsing without a validation error and
// charged on the money path like a chat completion.
import type { OpenRouter } from '@openrouter/sdk'
import { stepCountIs } from '@openrouter/sdk/lib/stop-conditions.js'
import { tool } from '@openrouter/sdk/lib/tool.js'
import type { OpenResponsesResult } from '@openrouter/sdk/models'
import { ForbiddenResponseError, PaymentRequiredResponseError } from '@openrouter/sdk/models/errors'
import * as z from 'zod/v4'
import { describe, expect, it } from 'vitest'
import { createSimulator, estimateCost } from '../../src/index.js'
import { failureOf, sdkClient, useSimulatorServer } from '../support/server.js'

const { serve } = useSimulatorServer()

function setup() {
  const sim = createSimulator()
  serve(sim)
  return { sim, sdk: sdkClient(sim.world.apiKey) }
}

type Sdk = OpenRouter
type ResponsesRequest = Parameters<Sdk['responses']['send']>[0]['responsesRequest']
const send = async (sdk: Sdk, request: Partial<ResponsesRequest>): Promise<OpenResponsesResult> =>
  (await sdk.responses.send({ responsesRequest: request as ResponsesRequest })) as OpenResponsesResult
const events = async (sdk: Sdk, request: Partial<ResponsesRequest>): Promise<{ type: string; sequenceNumber: number; [k: string]: any }[]> => {
  const stream = (await sdk.responses.send({ responsesRequest: { ...request, stream: true } as ResponsesRequest })) as unknown as AsyncIterable<any>
  const out = []
  for await (const event of stream) out.push(event)
  return out
}

/** The exact cost of a generation's tokens on the endpoint that served it, at the clock's now. */
async function expectedCost(sim: ReturnType<typeof createSimulator>, sdk: Sdk, id: string, modelId: string, tokens: { input: number; output: number }): Promise<number> {
  const generation = (await sdk.generations.getGeneration({ id })).data
  const model = sim.models.get(modelId)!
  const endpoint = model.endpoints.find((e) => e.provider_name === generation.providerName)!
  return Number(estimateCost(endpoint.pricing, { promptTokens: tokens.input, completionTokens: tokens.output }, { at: sim.clock.nowMs() }))
}

describe('sdk.responses.send', () => {
  it('returns a result whose usage.cost is the exact cost of the routed endpoint, its generation and the key charged the same', async () => {
    const { sim, sdk } = setup()
    const before = sim.keys.get(sim.world.apiKeyHash)!.usage

    const result = await send(sdk, { model: sim.world.models.timeWindowed, input: 'What does a refund cost?', instructions: 'Be brief.', maxOutputTokens: 200, temperature: 0.2 })

    expect(result.object).toBe('response')
    expect(result.status).toBe('completed')
    expect(result.instructions).toBe('Be brief.')
    expect(result.temperature).toBe(0.2)
    const message = result.output.find((item) => item.type === 'message')!
    expect(message.type === 'message' && message.content[0]?.type === 'output_text' && message.content[0].text).toBe(result.outputText)
    const usage = result.usage!
    // The prompt: the instructions and the input, each a message of 4 + a token per 4 characters.
    expect(usage.inputTokens).toBe(4 + Math.ceil('Be brief.'.length / 4) + 4 + Math.ceil('What does a refund cost?'.length / 4))
    expect(usage.totalTokens).toBe(usage.inputTokens + usage.outputTokens)
    const cost = await expectedCost(sim, sdk, result.id, sim.world.models.timeWindowed, { input: usage.inputTokens, output: usage.outputTokens })
    expect(usage.cost).toBe(cost)
    expect(usage.costDetails!.upstreamInferenceInputCost + usage.costDetails!.upstreamInferenceOutputCost).toBeCloseTo(cost, 12)
    expect((await sdk.generations.getGeneration({ id: result.id })).data.totalCost).toBe(cost)
    expect(sim.keys.get(sim.world.apiKeyHash)!.usage).toBeCloseTo(before + cost, 10)
  })

  it('streams events the SDK parses, numbered from 0, whose deltas make the text of response.completed', async () => {
    const { sim, sdk } = setup()
    sim.inference.respond({ reply: { content: 'Refunds are free within thirty days of purchase.' } })

    const list = await events(sdk, { model: sim.world.models.paid, input: 'Refunds?' })

    expect(list.map((e) => e.sequenceNumber)).toEqual(list.map((_, i) => i))
    expect(list.slice(0, 4).map((e) => e.type)).toEqual(['response.created', 'response.in_progress', 'response.output_item.added', 'response.content_part.added'])
    expect(list.slice(-4).map((e) => e.type)).toEqual(['response.output_text.done', 'response.content_part.done', 'response.output_item.done', 'response.completed'])
    expect(list[0]!.response.status).toBe('in_progress')
    expect(list[0]!.response.usage).toBeNull()
    const text = list.filter((e) => e.type === 'response.output_text.delta').map((e) => e.delta).join('')
    expect(text).toBe('Refunds are free within thirty days of purchase.')
    const completed = list.at(-1)!.response as OpenResponsesResult
    expect(completed.outputText).toBe(text)
    expect(completed.usage!.cost).toBe((await sdk.generations.getGeneration({ id: completed.id })).data.totalCost)
    expect((await sdk.generations.getGeneration({ id: completed.id })).data.streamed).toBe(true)
  })

  it('stops at max_output_tokens: status incomplete, and response.incomplete when streamed', async () => {
    const { sim, sdk } = setup()
    sim.inference.respond({ reply: { content: 'x'.repeat(400) } })

    const result = await send(sdk, { model: sim.world.models.paid, input: 'Talk.', maxOutputTokens: 10 })
    expect(result.status).toBe('incomplete')
    expect(result.incompleteDetails?.reason).toBe('max_output_tokens')
    expect(result.usage!.outputTokens).toBe(10)
    expect(result.outputText).toBe('x'.repeat(40))

    const list = await events(sdk, { model: sim.world.models.paid, input: 'Talk.', maxOutputTokens: 10 })
    expect(list.at(-1)!.type).toBe('response.incomplete')
  })

  it('gives reasoning and function calls as output items, streamed as reasoning and argument deltas', async () => {
    const { sim, sdk } = setup()
    sim.inference.respond({ reply: { reasoning: 'The user wants the weather in Paris.', toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris","unit":"celsius"}' }] } })
    const tools = [{ type: 'function' as const, name: 'get_weather', description: 'The weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } }]

    const result = await send(sdk, { model: sim.world.models.paid, input: 'Weather in Paris?', tools })
    expect(result.output.map((item) => item.type)).toEqual(['reasoning', 'function_call'])
    const call = result.output[1]!
    expect(call.type === 'function_call' && [call.callId, call.name, call.arguments]).toEqual(['call_1', 'get_weather', '{"city":"Paris","unit":"celsius"}'])
    expect(result.tools).toEqual([{ type: 'function', name: 'get_weather', description: 'The weather', parameters: tools[0]!.parameters }])
    expect(result.usage!.outputTokensDetails.reasoningTokens).toBe(Math.ceil('The user wants the weather in Paris.'.length / 4))

    sim.inference.respond({ reply: { reasoning: 'The user wants the weather in Paris.', toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris","unit":"celsius"}' }] } })
    const list = await events(sdk, { model: sim.world.models.paid, input: 'Weather in Paris?', tools })
    expect(list.filter((e) => e.type === 'response.reasoning_text.delta').map((e) => e.delta).join('')).toBe('The user wants the weather in Paris.')
    expect(list.filter((e) => e.type === 'response.function_call_arguments.delta').map((e) => e.delta).join('')).toBe('{"city":"Paris","unit":"celsius"}')
    expect(list.find((e) => e.type === 'response.function_call_arguments.done')).toMatchObject({ name: 'get_weather', arguments: '{"city":"Paris","unit":"celsius"}' })
  })

  it('refuses as the chat path does: 402 as PaymentRequiredResponseError, 403 as ForbiddenResponseError, charging nothing', async () => {
    const { sim } = setup()
    const broke = sim.users.create({ name: 'Broke' })
    const brokeKey = sim.keys.create({ userId: broke.id }).key
    const payment = await failureOf(sdkClient(brokeKey).responses.send({ responsesRequest: { model: sim.world.models.paid, input: 'Hi' } as ResponsesRequest }))
    expect(payment).toBeInstanceOf(PaymentRequiredResponseError)
    expect((payment as PaymentRequiredResponseError).error.message).toMatch(/can only afford 0/)

    const { key: limited, record } = sim.keys.create({ userId: sim.world.userId, limit: 1, usage: { total: 1 } })
    const forbidden = await failureOf(sdkClient(limited).responses.send({ responsesRequest: { model: sim.world.models.paid, input: 'Hi' } as ResponsesRequest }))
    expect(forbidden).toBeInstanceOf(ForbiddenResponseError)
    expect(sim.credits.get(broke.id).total_usage).toBe(0)
    expect(sim.keys.get(record.hash)!.usage).toBe(1)
  })
})

describe('a Responses stream the SDK leaves early', () => {
  it('is charged for what it was sent, and its generation says cancelled', async () => {
    const { sim, sdk } = setup()
    sim.inference.respond({ reply: { content: 'x'.repeat(400) } })
    const before = sim.keys.get(sim.world.apiKeyHash)!.usage

    const stream = (await sdk.responses.send({ responsesRequest: { model: sim.world.models.paid, input: 'Talk.', stream: true } as ResponsesRequest })) as unknown as AsyncIterable<any>
    let id = ''
    for await (const event of stream) {
      if (event.type === 'response.created') id = event.response.id
      if (event.type === 'response.output_text.delta') break
    }

    await expect.poll(async () => (await sdk.generations.getGeneration({ id })).data.cancelled).toBe(true)
    const generation = (await sdk.generations.getGeneration({ id })).data
    // The reply is 100 tokens; the SDK reads a few frames ahead of its loop, and those few are charged.
    expect(generation.tokensCompletion).toBeGreaterThan(0)
    expect(generation.tokensCompletion).toBeLessThan(100)
    expect(sim.keys.get(sim.world.apiKeyHash)!.usage - before).toBeCloseTo(generation.totalCost, 10)
  })
})

describe('sdk.callModel', () => {
  it('gets the text of a reply, and its usage, through the stream callModel asks for', async () => {
    const { sim, sdk } = setup()
    sim.inference.respond({ reply: { content: 'Hello from the simulator.' } })

    const result = sdk.callModel({ model: sim.world.models.paid, input: 'Say hello.' })

    expect(await result.getText()).toBe('Hello from the simulator.')
    const response = await result.getResponse()
    expect(response.usage!.cost).toBe((await sdk.generations.getGeneration({ id: response.id })).data.totalCost)
    expect(sim.journal.list().filter((e) => e.operation === 'createResponses')).toHaveLength(1)
  })

  it('runs a two-step tool loop: the model calls the tool, callModel runs it and sends its output back, the model answers', async () => {
    const { sim, sdk } = setup()
    const before = sim.keys.get(sim.world.apiKeyHash)!.usage
    // First turn: the model asks for the tool. Second turn: the output is in the conversation, and it answers.
    sim.inference.respond({ match: { tools: true }, reply: { content: 'It is 21 degrees in Paris.' } })
    sim.inference.respond({ match: { lastUserMessage: 'weather' }, reply: { toolCalls: [{ id: 'call_w1', name: 'get_weather', arguments: '{"city":"Paris"}' }] }, times: 1 })
    const calls: string[] = []
    const weather = tool({
      name: 'get_weather',
      description: 'The current weather in a city',
      inputSchema: z.object({ city: z.string() }),
      execute: async ({ city }) => {
        calls.push(city)
        return { city, celsius: 21 }
      },
    })

    const result = sdk.callModel({ model: sim.world.models.paid, input: 'What is the weather in Paris?', tools: [weather] as const, stopWhen: stepCountIs(3) })

    expect(await result.getText()).toBe('It is 21 degrees in Paris.')
    expect(calls).toEqual(['Paris'])
    const turns = sim.journal.list().filter((e) => e.operation === 'createResponses')
    expect(turns.map((e) => e.status)).toEqual([200, 200])
    const second = JSON.parse(turns[1]!.requestBody as string)
    expect(second.input).toContainEqual(expect.objectContaining({ type: 'function_call', call_id: 'call_w1', name: 'get_weather' }))
    expect(second.input).toContainEqual(expect.objectContaining({ type: 'function_call_output', call_id: 'call_w1', output: JSON.stringify({ city: 'Paris', celsius: 21 }) }))
    // Both turns were charged, each its own generation.
    const spent = sim.keys.get(sim.world.apiKeyHash)!.usage - before
    expect(spent).toBeGreaterThan(0)
    expect(sim.journal.list().filter((e) => e.operation === 'createResponses' && e.status === 200)).toHaveLength(2)
  })
})
