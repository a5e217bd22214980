// The free-model daily quota (decisions/0027): free endpoints skip the credit check and count toward
// the organisation's quota for the UTC day, 50 (1,000 from 10 USD bought); past it, 429.
import { TooManyRequestsResponseError } from '@openrouter/sdk/models/errors'
import { describe, expect, it } from 'vitest'
import { type Simulator, createSimulator } from '../../src/index.js'
import { failureOf, sdkClient, useSimulatorServer } from '../support/server.js'
import { chat } from './support.js'
import { countFreeRequest } from '../../src/core/inference/free-quota.js'
import type { StoreContext } from '../../src/core/store/context.js'
import { StoreIndices, emptyStoreData } from '../../src/core/store/state.js'
import type { Endpoint } from '../../src/index.js'

const FREE_PRICING = { prompt: '0', completion: '0' }
const PAID_PRICING = { prompt: '0.000001', completion: '0.000002' }

/** An organisation with `credits` bought, two keys, and a free model, a paid one and one with both kinds of endpoint. */
function freeWorld(credits = 0) {
  const sim = createSimulator({ world: 'empty', seed: 3, now: '2026-03-02T23:00:00Z' })
  const org = sim.users.create({ name: 'Hobbyist', ...(credits > 0 && { credits: { total: credits } }) })
  const first = sim.keys.create({ userId: org.id })
  const second = sim.keys.create({ userId: org.id })
  sim.models.create({ id: 'acme/tiny:free', endpoints: [{ provider_name: 'Alpha', pricing: FREE_PRICING }, { provider_name: 'Beta', pricing: FREE_PRICING }] })
  sim.models.create({ id: 'acme/mixed', endpoints: [{ provider_name: 'Alpha', pricing: FREE_PRICING }, { provider_name: 'Gamma', pricing: PAID_PRICING }] })
  return { sim, org, first, second }
}

const quotaOf = (sim: { handle: Simulator<unknown>["handle"] }, key: string) =>
  (sim.handle({ method: 'GET', path: '/key', authorization: `Bearer ${key}` }).body as { data: { free_model_daily_requests: unknown } }).data.free_model_daily_requests

describe('the free-model daily quota', () => {
  it('counts each free completion for the whole organisation, whichever key, and answers the 51st with 429', () => {
    const { sim, first, second } = freeWorld()
    for (let i = 0; i < 50; i++) expect(chat(sim, i % 2 === 0 ? first.key : second.key, { model: 'acme/tiny:free' }).status).toBe(200)
    expect(quotaOf(sim, first.key)).toEqual({ limit: 50, remaining: 0, used: 50 })
    expect(quotaOf(sim, second.key)).toEqual({ limit: 50, remaining: 0, used: 50 })

    const refused = chat(sim, second.key, { model: 'acme/tiny:free' })
    expect(refused.status).toBe(429)
    expect(refused.body.error.message).toBe('Rate limit exceeded: free-models-per-day. Add 10 credits to unlock 1000 free model requests per day')
    // The reset is the next UTC midnight of the simulator clock, in epoch milliseconds.
    const midnight = String(Date.parse('2026-03-03T00:00:00Z'))
    expect(refused.body.error.metadata).toEqual({ headers: { 'X-RateLimit-Limit': '50', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': midnight } })
    expect(refused.response.headers).toMatchObject({ 'x-ratelimit-limit': '50', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': midnight })
    expect(quotaOf(sim, first.key)).toEqual({ limit: 50, remaining: 0, used: 50 })
  })

  it('charges nothing and needs no credits: an organisation that never bought any uses free endpoints', () => {
    const { sim, org, first } = freeWorld()
    const answer = chat(sim, first.key, { model: 'acme/tiny:free', max_tokens: 100_000 })
    expect(answer.status).toBe(200)
    expect(answer.body.usage.cost).toBe(0)
    expect(sim.credits.get(org.id)).toEqual({ total_credits: 0, total_usage: 0 })
    expect(quotaOf(sim, first.key)).toEqual({ limit: 50, remaining: 49, used: 1 })
  })

  it('starts afresh at the UTC midnight of the simulator clock, and keeps each day its own count', () => {
    const { sim, first } = freeWorld()
    for (let i = 0; i < 50; i++) chat(sim, first.key, { model: 'acme/tiny:free' })
    expect(chat(sim, first.key, { model: 'acme/tiny:free' }).status).toBe(429)
    sim.clock.set('2026-03-02T23:59:59.999Z')
    expect(chat(sim, first.key, { model: 'acme/tiny:free' }).status).toBe(429)
    sim.clock.set('2026-03-03T00:00:00Z')
    expect(quotaOf(sim, first.key)).toEqual({ limit: 50, remaining: 50, used: 0 })
    expect(chat(sim, first.key, { model: 'acme/tiny:free' }).status).toBe(200)
    expect(quotaOf(sim, first.key)).toEqual({ limit: 50, remaining: 49, used: 1 })
    // Back to yesterday: its count is still there.
    sim.clock.set('2026-03-02T12:00:00Z')
    expect(quotaOf(sim, first.key)).toEqual({ limit: 50, remaining: 0, used: 50 })
  })

  it('gives 1,000 a day from 10 USD of credits bought, with the high-balance wording past them', () => {
    const { sim, org, first } = freeWorld(9.99)
    expect(quotaOf(sim, first.key)).toMatchObject({ limit: 50 })
    sim.credits.add({ userId: org.id, amount: 0.01 })
    expect(quotaOf(sim, first.key)).toEqual({ limit: 1000, remaining: 1000, used: 0 })
    for (let i = 0; i < 1000; i++) expect(chat(sim, first.key, { model: 'acme/tiny:free' }).status).toBe(200)
    const refused = chat(sim, first.key, { model: 'acme/tiny:free' })
    expect(refused.status).toBe(429)
    expect(refused.body.error.message).toBe('Rate limit exceeded: free-models-per-day-high-balance.')
    expect(refused.body.error.metadata.headers['X-RateLimit-Limit']).toBe('1000')
  })

  it('passes over a free endpoint past the quota when a paid one can answer, and counts only free completions', () => {
    const { sim, org, first } = freeWorld(5)
    for (let i = 0; i < 50; i++) chat(sim, first.key, { model: 'acme/tiny:free' })
    // Free endpoints are drawn first; past the quota, the paid one answers and is charged.
    const answer = chat(sim, first.key, { model: 'acme/mixed' })
    expect(answer.status).toBe(200)
    expect(answer.body.provider).toBe('Gamma')
    expect(answer.body.usage.cost).toBeGreaterThan(0)
    expect(sim.credits.get(org.id).total_usage).toBe(answer.body.usage.cost)
    expect(quotaOf(sim, first.key)).toEqual({ limit: 50, remaining: 0, used: 50 })
    // A `models` fallback to a paid model answers too.
    expect(chat(sim, first.key, { model: 'acme/tiny:free', models: ['acme/mixed'] }).body.provider).toBe('Gamma')
  })

  it('counts neither refused nor failed requests, nor paid completions', () => {
    const { sim, first } = freeWorld(5)
    sim.models.create({ id: 'acme/paid', endpoints: [{ provider_name: 'Gamma', pricing: PAID_PRICING }] })
    expect(chat(sim, first.key, { model: 'acme/paid' }).status).toBe(200)
    expect(chat(sim, first.key, { model: 'acme/tiny:free', temperature: 9 }).status).toBe(400)
    sim.inference.respond({ match: { model: 'acme/tiny:free' }, error: { status: 502 } })
    expect(chat(sim, first.key, { model: 'acme/tiny:free' }).status).toBe(502)
    expect(quotaOf(sim, first.key)).toEqual({ limit: 50, remaining: 50, used: 0 })
  })

  it('is store state: a snapshot, a restore and a reset bring the count back, and exportWorld leaves it out', () => {
    const { sim, first } = freeWorld()
    const saved = sim.snapshot()
    for (let i = 0; i < 3; i++) chat(sim, first.key, { model: 'acme/tiny:free' })
    const three = sim.snapshot()
    chat(sim, first.key, { model: 'acme/tiny:free' })
    sim.restore(three)
    expect(quotaOf(sim, first.key)).toMatchObject({ used: 3 })
    sim.restore(saved)
    expect(quotaOf(sim, first.key)).toMatchObject({ used: 0 })
    chat(sim, first.key, { model: 'acme/tiny:free' })
    expect(JSON.stringify(sim.exportWorld())).not.toContain('freeRequests')
  })

  it('keeps one count per organisation and day, not a record per request', () => {
    const ctx = { data: emptyStoreData(), indices: new StoreIndices() } as unknown as StoreContext
    const endpoint = { pricing: FREE_PRICING } as Endpoint
    const day = Date.parse('2026-03-02T00:00:00Z')
    for (let i = 0; i < 5000; i++) countFreeRequest(ctx, 'user_a', endpoint, day + i * 1000)
    for (let i = 0; i < 100; i++) countFreeRequest(ctx, 'user_b', endpoint, day + 86_400_000 + i)
    countFreeRequest(ctx, 'user_a', { pricing: PAID_PRICING } as Endpoint, day)
    expect([...ctx.data.freeRequests.values()]).toEqual([5000, 100])
  })
})

describe('the free-model quota through the official SDK', () => {
  const { serve } = useSimulatorServer()

  it('reports used and remaining in getCurrentKeyMetadata, and throws TooManyRequestsResponseError past the quota', async () => {
    const { sim, first } = freeWorld()
    serve(sim)
    const sdk = sdkClient(first.key)
    for (let i = 0; i < 49; i++) chat(sim, first.key, { model: 'acme/tiny:free' })
    const result = await sdk.chat.send({ chatRequest: { model: 'acme/tiny:free', messages: [{ role: 'user', content: 'Hi' }] } })
    expect(result).toMatchObject({ object: 'chat.completion' })
    expect((await sdk.apiKeys.getCurrentKeyMetadata()).data.freeModelDailyRequests).toEqual({ limit: 50, remaining: 0, used: 50 })
    const error = await failureOf(sdk.chat.send({ chatRequest: { model: 'acme/tiny:free', messages: [{ role: 'user', content: 'Hi' }] } }))
    expect(error).toBeInstanceOf(TooManyRequestsResponseError)
    expect((error as TooManyRequestsResponseError).statusCode).toBe(429)
    expect((error as TooManyRequestsResponseError).error.message).toContain('free-models-per-day')
  })
})
