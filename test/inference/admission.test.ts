// Step 3: who may spend. The ledger (core/inference/ledger.ts) reads the organisation's credits from
// the store (core/store/credits.ts), mocked here to stand for any amount.
import { afterEach, describe, expect, it, vi } from 'vitest'
import * as credits from '../../src/core/store/credits.js'
import * as ledger from '../../src/core/inference/ledger.js'
import { ALPHA, MODEL, chat, chatWorld } from './support.js'

// The credits read is stood in for; the key-limit check and the charge stay real, the charge watched.
vi.mock('../../src/core/store/credits.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/core/store/credits.js')>()
  return { ...real, creditsAvailable: vi.fn(() => null) }
})
vi.mock('../../src/core/inference/ledger.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/core/inference/ledger.js')>()
  return { ...real, chargeKey: vi.fn(real.chargeKey) }
})
const available = vi.mocked(credits.creditsAvailable)
const charge = vi.mocked(ledger.chargeKey)

afterEach(() => {
  available.mockReset()
  available.mockReturnValue(null)
  charge.mockClear()
})

describe('admitting the caller', () => {
  it('refuses anonymous callers with 401 and management keys with 403', () => {
    const { sim, org } = chatWorld()
    const anonymous = sim.handle({ method: 'POST', path: '/chat/completions', body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'x' }] }) })
    expect(anonymous.status).toBe(401)
    const admin = sim.keys.create({ userId: org.id, management: true }).key
    expect(chat(sim, admin, { model: MODEL }).body.error).toEqual({
      code: 403,
      message: 'Management keys cannot be used for inference requests; use a regular API key',
      metadata: { reason: 'management_key' },
    })
  })

  it.each([
    [undefined, 'total'],
    ['daily', 'daily'],
    ['weekly', 'weekly'],
    ['monthly', 'monthly'],
  ] as const)('refuses a key whose %s limit is used up with 403 naming the %s limit, until the period rolls over', (limitReset, period) => {
    const { sim, key, keyHash } = chatWorld({ limit: 0.000001, ...(limitReset !== undefined && { limitReset }) })
    expect(chat(sim, key, { model: MODEL, provider: { only: ['Alpha'] } }).status).toBe(200)
    expect(sim.keys.get(keyHash)?.limit_remaining).toBe(0)
    const refused = chat(sim, key, { model: MODEL })
    expect(refused.status).toBe(403)
    expect(refused.body.error.message).toBe(`Key limit exceeded (${period} limit). Manage it using https://openrouter.ai/settings/keys`)
    sim.clock.advance(40 * 86_400_000)
    expect(chat(sim, key, { model: MODEL }).status).toBe(limitReset === undefined ? 403 : 200)
  })

  it('charges the key a usage record at the clock\'s instant, so the usage windows and limit_remaining move', () => {
    const { sim, key, keyHash } = chatWorld({ limit: 10, limitReset: 'daily', now: '2026-05-31T23:59:00Z' })
    const answer = chat(sim, key, { model: MODEL })
    const record = sim.keys.get(keyHash)!
    expect([record.usage, record.usage_daily, record.usage_weekly, record.usage_monthly]).toEqual(Array(4).fill(answer.body.usage.cost))
    expect(record.limit_remaining).toBeCloseTo(10 - answer.body.usage.cost, 12)
    expect(record.updated_at).toBe('2026-05-31T23:59:00.000000+00:00')
    // Monday 00:00 UTC: a new day, week and month; the charge stays in all-time usage.
    sim.clock.advance(60_000)
    const monday = sim.keys.get(keyHash)!
    expect([monday.usage_daily, monday.usage_weekly, monday.usage_monthly, monday.limit_remaining]).toEqual([0, 0, 0, 10])
  })

  it('asks the ledger for the organisation\'s credits and refuses with 402 when the worst case does not fit, saying how many tokens would', () => {
    const { sim, key, org } = chatWorld()
    // Alpha: 1e-6 per prompt token, 2e-6 per completion token. 5 prompt tokens + 100 completion = 0.000205 USD.
    available.mockReturnValue(2_050_000 - 1)
    const refused = chat(sim, key, { model: MODEL, messages: [{ role: 'user', content: 'hi' }], max_tokens: 100, provider: { only: ['Alpha'] } })
    expect(refused.status).toBe(402)
    expect(refused.body.error).toEqual({
      code: 402,
      message: 'This request requires more credits, or fewer max_tokens. You requested up to 100 tokens, but can only afford 99. To increase, visit https://openrouter.ai/settings/credits and add more credits',
      metadata: { provider_name: null },
    })
    expect(available).toHaveBeenCalledWith(expect.anything(), org.id)
    expect(charge).not.toHaveBeenCalled()
    available.mockReturnValue(2_050_000)
    const answer = chat(sim, key, { model: MODEL, messages: [{ role: 'user', content: 'hi' }], max_tokens: 100, provider: { only: ['Alpha'] } })
    expect(answer.status).toBe(200)
    expect(charge).toHaveBeenCalledWith(expect.anything(), expect.objectContaining({ userId: org.id }), Math.round(answer.body.usage.cost * 1e10), sim.clock.nowMs())
  })

  it('without max_tokens, reads the worst case at the endpoint\'s max completion tokens, and never refuses a free endpoint', () => {
    const { sim, key } = chatWorld()
    available.mockReturnValue(0)
    const refused = chat(sim, key, { model: MODEL, messages: [{ role: 'user', content: 'hi' }], provider: { only: ['Alpha'] } })
    expect(refused.body.error.message).toContain(`You requested up to ${ALPHA.max_completion_tokens} tokens, but can only afford 0.`)
    sim.models.create({ id: 'acme/free', endpoints: [{ ...ALPHA, pricing: { prompt: '0', completion: '0' } }] })
    expect(chat(sim, key, { model: 'acme/free' }).status).toBe(200)
  })
})
