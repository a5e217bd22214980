// The money path against real organisation credits (no ledger mock): what the organisation bought
// less what its keys spent decides the 402, and every charge shows in GET /credits at once, exactly.
import { PaymentRequiredResponseError } from '@openrouter/sdk/models/errors'
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { createHandlers } from '../../src/msw/index.js'
import { sdkClient } from '../support/server.js'
import { ALPHA, BETA, GAMMA, MODEL, chat } from './support.js'

/** An organisation with `credits` USD, a management key and a regular key, and the test model. */
function funded(credits: number | undefined) {
  const sim = createSimulator({ world: 'empty', seed: 11, now: '2026-03-02T10:00:00Z' })
  const org = sim.users.create({ name: 'Acme', ...(credits !== undefined && { credits: { total: credits } }) })
  const admin = sim.keys.create({ userId: org.id, management: true })
  const { key, record } = sim.keys.create({ userId: org.id })
  sim.models.create({ id: MODEL, endpoints: [ALPHA, BETA, GAMMA] })
  const credit = () => sim.handle({ method: 'GET', path: '/credits', authorization: `Bearer ${admin.key}` }).body as { data: { total_credits: number; total_usage: number } }
  return { sim, org, key, keyHash: record.hash, adminKey: admin.key, credit }
}

const hi = { model: MODEL, messages: [{ role: 'user', content: 'hi' }], max_tokens: 100, provider: { only: ['Alpha'] } }

describe('credits on the money path', () => {
  it('refuses a new organisation, which has no credits, with 402, and charges nothing', () => {
    const { sim, key, keyHash, credit } = funded(undefined)
    const refused = chat(sim, key, hi)
    expect(refused.status).toBe(402)
    expect(refused.body.error.message).toContain('You requested up to 100 tokens, but can only afford 0.')
    expect(credit().data).toEqual({ total_credits: 0, total_usage: 0 })
    expect(sim.keys.get(keyHash)?.usage).toBe(0)
  })

  it('answers once the worst case fits, to the 10^-10 USD, and says how many tokens fit when it does not', () => {
    // Alpha: 1e-6 per prompt token, 2e-6 per completion token; 5 prompt tokens and 100 completion tokens at most: 0.000205 USD.
    const short = funded(0.000205 - 1e-10)
    const refused = chat(short.sim, short.key, hi)
    expect(refused.status).toBe(402)
    expect(refused.body.error.message).toContain('You requested up to 100 tokens, but can only afford 99.')
    const exact = funded(0.000205)
    expect(chat(exact.sim, exact.key, hi).status).toBe(200)
  })

  it('shows every charge in GET /credits at once: total_usage grows by each answer\'s usage.cost, exactly', () => {
    const { sim, key, credit } = funded(5)
    let spent = 0n
    for (let i = 0; i < 20; i++) {
      const answer = chat(sim, key, { model: MODEL, messages: [{ role: 'user', content: `question ${i} ${'x'.repeat(i * 13)}` }] })
      expect(answer.status).toBe(200)
      spent += BigInt(Math.round(answer.body.usage.cost * 1e10))
      expect(BigInt(Math.round(credit().data.total_usage * 1e10))).toBe(spent)
    }
    expect(credit().data.total_credits).toBe(5)
  })

  it('refuses once the credits are spent, and serves again after sim.credits.add', () => {
    const { sim, org, key } = funded(0.001)
    let answered = 0
    while (chat(sim, key, hi).status === 200) answered++
    expect(answered).toBeGreaterThan(0)
    expect(chat(sim, key, hi).status).toBe(402)
    sim.credits.add({ userId: org.id, amount: 1 })
    expect(chat(sim, key, hi).status).toBe(200)
  })

  it('serves a free endpoint without any credits', () => {
    const { sim, key } = funded(undefined)
    sim.models.create({ id: 'acme/free', endpoints: [{ ...ALPHA, pricing: { prompt: '0', completion: '0' } }] })
    expect(chat(sim, key, { model: 'acme/free' }).status).toBe(200)
  })

  describe('through the SDK', () => {
    const world = funded(undefined)
    const server = setupServer(...createHandlers(world.sim, { baseUrl: 'http://credits.test/api/v1' }))
    beforeAll(() => {
      vi.stubEnv('OPENROUTER_API_KEY', undefined)
      server.listen({ onUnhandledRequest: 'error' })
    })
    afterAll(() => {
      server.close()
      vi.unstubAllEnvs()
    })

    it('reaches the caller as PaymentRequiredResponseError', async () => {
      const sdk = sdkClient(world.key, 'http://credits.test/api/v1')
      const error = await sdk.chat.send({ chatRequest: { model: MODEL, messages: [{ role: 'user', content: 'hi' }], maxTokens: 100 } }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(PaymentRequiredResponseError)
    })
  })
})
