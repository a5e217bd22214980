// The official SDK as the client of the money path, beyond chat.test.ts: the key's figures and the
// organisation's credits after spending, read through the SDK, and every refusal of chat.send made
// for real (a bad body, no credits, a spent key, no endpoint left, a rate limit, a failing provider
// with no fallback, providers that are all unavailable), each reaching the caller as the SDK's own
// typed error and charging nothing.
import type { ChatResult, ChatStreamChunk } from '@openrouter/sdk/models'
import {
  BadGatewayResponseError,
  BadRequestResponseError,
  ForbiddenResponseError,
  NotFoundResponseError,
  PaymentRequiredResponseError,
  ServiceUnavailableResponseError,
  TooManyRequestsResponseError,
} from '@openrouter/sdk/models/errors'
import { describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { failureOf, sdkClient, useSimulatorServer } from '../support/server.js'

const { serve } = useSimulatorServer()

/** A USD figure as whole 10^-10 USD: the simulator's unit, exact for every figure it reports. */
const units = (usd: number): bigint => BigInt(Math.round(usd * 1e10))

const messages = [{ role: 'user' as const, content: 'What does a refund cost?' }]

function setup() {
  const sim = createSimulator()
  serve(sim)
  return { sim, sdk: sdkClient(sim.world.apiKey), admin: sdkClient(sim.world.managementKey) }
}

describe('sdk.apiKeys.getCurrentKeyMetadata and sdk.credits.getCredits after spending', () => {
  it('move by exactly the costs the completions reported, streamed and not', async () => {
    const { sim, sdk, admin } = setup()
    const limited = sim.keys.create({ userId: sim.world.userId, name: 'budget', limit: 50, limitReset: 'daily' })
    const spender = sdkClient(limited.key)
    const keyBefore = (await spender.apiKeys.getCurrentKeyMetadata()).data
    const creditsBefore = (await admin.credits.getCredits()).data

    const plain = (await spender.chat.send({ chatRequest: { model: sim.world.models.paid, messages } })) as ChatResult
    const chunks: ChatStreamChunk[] = []
    for await (const chunk of (await spender.chat.send({ chatRequest: { model: sim.world.models.timeWindowed, messages, stream: true } })) as AsyncIterable<ChatStreamChunk>) chunks.push(chunk)
    const costs = [plain.usage?.cost ?? 0, chunks.at(-1)?.usage?.cost ?? 0]
    expect(costs.every((cost) => cost > 0)).toBe(true)
    const generations = await Promise.all([plain.id, chunks.at(-1)?.id ?? ''].map(async (id) => (await spender.generations.getGeneration({ id })).data))
    expect(generations.map((g) => g.totalCost)).toEqual(costs)
    const spent = costs.reduce((sum, cost) => sum + units(cost), 0n)

    const keyAfter = (await spender.apiKeys.getCurrentKeyMetadata()).data
    for (const field of ['usage', 'usageDaily', 'usageWeekly', 'usageMonthly'] as const) {
      expect(units(keyAfter[field]) - units(keyBefore[field]), field).toBe(spent)
    }
    expect(units(keyBefore.limitRemaining ?? 0) - units(keyAfter.limitRemaining ?? 0)).toBe(spent)
    expect(keyAfter.byokUsage).toBe(keyBefore.byokUsage)
    const creditsAfter = (await admin.credits.getCredits()).data
    expect(units(creditsAfter.totalUsage) - units(creditsBefore.totalUsage)).toBe(spent)
    expect(creditsAfter.totalCredits).toBe(creditsBefore.totalCredits)
  })
})

describe('sdk.chat.send refusals, each made for real, as the SDK\'s typed errors', () => {
  /** Sends a completion with `sdk` and returns the error it rejected with; asserts nothing was charged. */
  async function refusal(sim: ReturnType<typeof createSimulator>, secret: string, request: Record<string, unknown>): Promise<unknown> {
    const spender = sdkClient(secret)
    const before = { keys: sim.keys.list().map((k) => [k.hash, k.usage]), credits: sim.credits.get(sim.world.userId).total_usage }
    const error = await failureOf(spender.chat.send({ chatRequest: { model: sim.world.models.paid, messages, ...request } as never }))
    expect({ keys: sim.keys.list().map((k) => [k.hash, k.usage]), credits: sim.credits.get(sim.world.userId).total_usage }).toEqual(before)
    return error
  }

  it('400 for a body the service refuses: BadRequestResponseError naming the field', async () => {
    const { sim } = setup()
    const error = await refusal(sim, sim.world.apiKey, { temperature: 3 })
    expect(error).toBeInstanceOf(BadRequestResponseError)
    expect((error as BadRequestResponseError).error.metadata).toMatchObject({ parameter: 'temperature' })
  })

  it('402 when the organisation\'s credits cannot pay the worst case: PaymentRequiredResponseError with how many tokens it can afford', async () => {
    const { sim } = setup()
    const poor = sim.users.create({ name: 'Poor', credits: { total: 0.0001 } })
    const error = await refusal(sim, sim.keys.create({ userId: poor.id }).key, { maxTokens: 16_000 })
    expect(error).toBeInstanceOf(PaymentRequiredResponseError)
    expect((error as PaymentRequiredResponseError).message).toMatch(/^This request requires more credits, or fewer max_tokens\. You requested up to 16000 tokens, but can only afford \d+\./)
  })

  it('403 when the key\'s limit is used up: ForbiddenResponseError', async () => {
    const { sim } = setup()
    const spent = sim.keys.create({ userId: sim.world.userId, limit: 2, limitReset: 'weekly', usage: { weekly: 2 } })
    const error = await refusal(sim, spent.key, {})
    expect(error).toBeInstanceOf(ForbiddenResponseError)
    expect((error as ForbiddenResponseError).message).toBe('Key limit exceeded (weekly limit). Manage it using https://openrouter.ai/settings/keys')
  })

  it('404 when a route preference leaves no endpoint: NotFoundResponseError', async () => {
    const { sim } = setup()
    const error = await refusal(sim, sim.world.apiKey, { provider: { order: ['Nobody'], allowFallbacks: false } })
    expect(error).toBeInstanceOf(NotFoundResponseError)
    expect((error as NotFoundResponseError).message).toBe('No endpoints found matching your provider preferences')
  })

  it('429 from the key\'s rate limit: TooManyRequestsResponseError, the first request served and charged', async () => {
    const { sim } = setup()
    const limited = sim.keys.create({ userId: sim.world.userId, rateLimit: { requests: 1, intervalMs: 60_000 } })
    const first = (await sdkClient(limited.key).chat.send({ chatRequest: { model: sim.world.models.paid, messages } })) as ChatResult
    expect(first.usage?.cost).toBeGreaterThan(0)
    const error = await refusal(sim, limited.key, {})
    expect(error).toBeInstanceOf(TooManyRequestsResponseError)
    expect((error as TooManyRequestsResponseError).headers.get('retry-after')).toMatch(/^\d+$/)
  })

  it('502 when the only provider allowed fails and fallbacks are off: BadGatewayResponseError naming it', async () => {
    const { sim } = setup()
    const model = sim.models.get(sim.world.models.paid)!
    const provider = model.endpoints[0]!.provider_name
    sim.faults.providerDown({ provider })
    const error = await refusal(sim, sim.world.apiKey, { provider: { order: [provider], allowFallbacks: false } })
    expect(error).toBeInstanceOf(BadGatewayResponseError)
    expect((error as BadGatewayResponseError).error.metadata).toEqual({ provider_name: provider })
    // With fallbacks (the default) another endpoint answers, when the model has one.
    expect(model.endpoints.length).toBeGreaterThan(1)
    const served = (await sdkClient(sim.world.apiKey).chat.send({ chatRequest: { model: model.id, messages } })) as ChatResult
    const generation = (await sdkClient(sim.world.apiKey).generations.getGeneration({ id: served.id })).data
    expect(generation.providerName).not.toBe(provider)
    expect(generation.providerResponses?.some((attempt) => attempt.providerName === provider && attempt.status === 502)).toBe(true)
  })

  it('503 when every provider of the model is unavailable: ServiceUnavailableResponseError', async () => {
    const { sim } = setup()
    const model = sim.models.get(sim.world.models.paid)!
    for (const endpoint of model.endpoints) sim.faults.serviceUnavailable({ provider: endpoint.provider_name })
    const error = await refusal(sim, sim.world.apiKey, {})
    expect(error).toBeInstanceOf(ServiceUnavailableResponseError)
    // The answer is the last attempt's failure (decisions/0024), so it names one of the model's providers.
    const named = (error as ServiceUnavailableResponseError).error.metadata?.['provider_name']
    expect(model.endpoints.map((e) => e.provider_name)).toContain(named)
  })
})
