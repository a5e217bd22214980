// The official SDK as the client of POST /embeddings (decisions/0030): embeddings.generate, float
// and base64, parses with no validation error; what it reports is what was charged; the refusals
// arrive as the SDK's typed errors.
import type { OpenRouter } from '@openrouter/sdk'
import { BadRequestResponseError, ForbiddenResponseError, NotFoundResponseError, PaymentRequiredResponseError } from '@openrouter/sdk/models/errors'
import type { CreateEmbeddingsResponseBody } from '@openrouter/sdk/models/operations'
import { describe, expect, it } from 'vitest'
import { createSimulator, estimateCost } from '../../src/index.js'
import { failureOf, sdkClient, useSimulatorServer } from '../support/server.js'

const { serve } = useSimulatorServer()

function setup() {
  const sim = createSimulator()
  serve(sim)
  return { sim, sdk: sdkClient(sim.world.apiKey) }
}

type GenerateBody = Parameters<OpenRouter['embeddings']['generate']>[0]['requestBody']
/** The SDK types the answer as the body or a string (for an event stream); the simulator sends the body. */
async function generate(sdk: OpenRouter, requestBody: GenerateBody): Promise<CreateEmbeddingsResponseBody> {
  const result = await sdk.embeddings.generate({ requestBody })
  if (typeof result === 'string') throw new Error(`expected the JSON body, got a string: ${result.slice(0, 80)}`)
  return result
}

const decode = (text: string): number[] => {
  const bytes = Buffer.from(text, 'base64')
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  return Array.from({ length: bytes.length / 4 }, (_, i) => view.getFloat32(i * 4, true))
}

describe('sdk.embeddings.generate', () => {
  it('returns one unit vector per input, float, with the exact cost of the routed endpoint charged to the key', async () => {
    const { sim, sdk } = setup()
    const before = sim.keys.get(sim.world.apiKeyHash)!.usage
    const result = await generate(sdk, { model: sim.world.models.embedding, input: ['first text', 'second text'], user: 'end-user-1' })

    expect(result.object).toBe('list')
    expect(result.model).toBe(sim.world.models.embedding)
    expect(result.data.map((d) => d.index)).toEqual([0, 1])
    for (const item of result.data) {
      expect(item.object).toBe('embedding')
      const vector = item.embedding as number[]
      expect(vector).toHaveLength(1536)
      expect(Math.abs(Math.hypot(...vector) - 1)).toBeLessThan(1e-6)
    }
    expect(result.data[0]!.embedding).not.toEqual(result.data[1]!.embedding)
    const usage = result.usage!
    expect(usage.promptTokens).toBe(Math.ceil('first text'.length / 4) + Math.ceil('second text'.length / 4))
    expect(usage.totalTokens).toBe(usage.promptTokens)
    const generation = (await sdk.generations.getGeneration({ id: result.id! })).data
    const routed = sim.models.get(sim.world.models.embedding)!.endpoints.find((e) => e.provider_name === generation.providerName)!
    const cost = estimateCost(routed.pricing, { promptTokens: usage.promptTokens, completionTokens: 0 }, { at: sim.clock.nowMs() })
    expect(usage.cost).toBe(Number(cost))
    expect(usage.costDetails).toEqual({ upstreamInferenceCost: null, upstreamInferencePromptCost: Number(cost), upstreamInferenceCompletionsCost: 0 })
    expect(generation.totalCost).toBe(Number(cost))
    expect(generation.apiType).toBe('embeddings')
    expect(generation.externalUser).toBe('end-user-1')
    expect(sim.keys.get(sim.world.apiKeyHash)!.usage).toBeCloseTo(before + Number(cost), 10)
  })

  it('returns base64 of little-endian float32 that decodes to the float answer, at the requested dimensions', async () => {
    const { sim, sdk } = setup()
    const input = 'the same text'
    const floats = await generate(sdk, { model: 'openai/text-embedding-3-large', input, dimensions: 256 })
    const base64 = await generate(sdk, { model: 'openai/text-embedding-3-large', input, dimensions: 256, encodingFormat: 'base64' })
    expect(typeof base64.data[0]!.embedding).toBe('string')
    expect(decode(base64.data[0]!.embedding as string)).toEqual(floats.data[0]!.embedding)
    expect(floats.data[0]!.embedding).toHaveLength(256)
    // Token arrays and content parts go through the SDK's request schema too.
    const tokens = await generate(sdk, { model: sim.world.models.embedding, input: [[1, 2, 3], [4]], dimensions: 8 })
    expect(tokens.usage?.promptTokens).toBe(4)
    const parts = await generate(sdk, { model: sim.world.models.embedding, input: [{ content: [{ type: 'text', text: 'the same text' }] }], dimensions: 8 })
    const plain = await generate(sdk, { model: sim.world.models.embedding, input: 'the same text', dimensions: 8 })
    expect(parts.data[0]!.embedding).toEqual(plain.data[0]!.embedding)
  })

  it('honours provider preferences as chat does', async () => {
    const { sim, sdk } = setup()
    const result = await generate(sdk, { model: sim.world.models.embedding, input: 'x', provider: { order: ['Azure'], allowFallbacks: false } })
    expect((await sdk.generations.getGeneration({ id: result.id! })).data.providerName).toBe('Azure')
    expect(await failureOf(generate(sdk, { model: sim.world.models.embedding, input: 'x', provider: { only: ['Groq'] } }))).toBeInstanceOf(NotFoundResponseError)
  })

  it('surfaces a 402 as PaymentRequiredResponseError and a 403 as ForbiddenResponseError, charging nothing', async () => {
    const { sim, sdk } = setup()
    const poor = sim.users.create({ name: 'Poor Co' })
    const broke = sdkClient(sim.keys.create({ userId: poor.id }).key)
    const payment = await failureOf(generate(broke, { model: sim.world.models.embedding, input: 'x' }))
    expect(payment).toBeInstanceOf(PaymentRequiredResponseError)
    expect((payment as PaymentRequiredResponseError).data$.error.message).toBe('Insufficient credits. Add more using https://openrouter.ai/settings/credits')

    const spent = sim.keys.create({ userId: sim.world.userId, limit: 1, usage: { total: 1 } })
    const forbidden = await failureOf(generate(sdkClient(spent.key), { model: sim.world.models.embedding, input: 'x' }))
    expect(forbidden).toBeInstanceOf(ForbiddenResponseError)
    expect(await failureOf(generate(sdkClient(sim.world.managementKey), { model: sim.world.models.embedding, input: 'x' }))).toBeInstanceOf(ForbiddenResponseError)
    expect(sim.keys.get(spent.record.hash)!.usage).toBe(1)
    expect(await failureOf(generate(sdk, { model: sim.world.models.embedding, input: 'x', dimensions: 5000 }))).toBeInstanceOf(BadRequestResponseError)
  })
})
