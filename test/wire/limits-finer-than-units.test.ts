// Spend limits finer than the 10^-10 USD the simulator counts in (a key's limit, a guardrail's
// limit_usd, a workspace budget): the key-limit rule still holds, that a request which starts under
// the limit completes and the next one is refused. A limit of 1e-11 refused the first request of a
// key that had spent nothing, and a request that started 1e-11 under a limit was refused.
import { describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { limitUnits, toUnits, toUsd } from '../../src/core/usage.js'

type Sim = ReturnType<typeof createSimulator>

const MODEL = 'openai/gpt-4.1-mini'

function chat(sim: Sim, secret: string): { status: number; cost: number } {
  const res = sim.handle({ method: 'POST', path: '/chat/completions', authorization: `Bearer ${secret}`, body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] }) })
  return { status: res.status, cost: (res.body as { usage?: { cost: number } }).usage?.cost ?? 0 }
}

const manage = (sim: Sim, method: string, path: string, body: unknown) =>
  sim.handle({ method, path, authorization: `Bearer ${sim.world.managementKey}`, body: JSON.stringify(body) })

/** What one request of the test costs, from a simulator of its own. */
const COST = chat(createSimulator(), createSimulator().world.apiKey).cost

/** A fresh key held only by the limit of `kind`, set to `limit`. */
function keyUnder(kind: 'key' | 'guardrail' | 'budget', limit: number): { sim: Sim; secret: string } {
  const sim = createSimulator()
  if (kind === 'key') {
    const created = manage(sim, 'POST', '/keys', { name: 'k', limit })
    expect(created.status).toBe(201)
    return { sim, secret: (created.body as { key: string }).key }
  }
  if (kind === 'guardrail') {
    const key = (manage(sim, 'POST', '/keys', { name: 'k' }).body as { key: string; data: { hash: string } })
    const guardrail = manage(sim, 'POST', '/guardrails', { name: 'G', limit_usd: limit, reset_interval: 'daily' })
    expect(guardrail.status).toBe(201)
    const id = (guardrail.body as { data: { id: string } }).data.id
    expect(manage(sim, 'POST', `/guardrails/${id}/assignments/keys`, { key_hashes: [key.data.hash] }).status).toBe(200)
    return { sim, secret: key.key }
  }
  const workspace = (manage(sim, 'POST', '/workspaces', { name: 'W', slug: 'w' }).body as { data: { id: string } }).data
  const key = manage(sim, 'POST', '/keys', { name: 'k', workspace_id: workspace.id }).body as { key: string }
  expect(manage(sim, 'PUT', '/workspaces/w/budgets/daily', { limit_usd: limit }).status).toBe(200)
  return { sim, secret: key.key }
}

describe('a spend limit finer than 10^-10 USD', () => {
  it('costs the test request a whole number of units, so the limits below straddle it by less than one', () => {
    expect(COST).toBeGreaterThan(0)
    expect(toUsd(toUnits(COST))).toBe(COST)
  })

  for (const kind of ['key', 'guardrail', 'budget'] as const) {
    it(`${kind}: a limit of 1e-11 admits the first request and refuses the second`, () => {
      const { sim, secret } = keyUnder(kind, 1e-11)
      expect(chat(sim, secret).status).toBe(200)
      expect(chat(sim, secret).status).toBe(403)
    })

    it(`${kind}: a request that starts 1e-11 under the limit completes; the next is refused`, () => {
      const { sim, secret } = keyUnder(kind, COST + 1e-11)
      expect([chat(sim, secret).status, chat(sim, secret).status, chat(sim, secret).status]).toEqual([200, 200, 403])
    })

    it(`${kind}: a limit equal to what the first request cost refuses the second`, () => {
      const { sim, secret } = keyUnder(kind, COST)
      expect([chat(sim, secret).status, chat(sim, secret).status]).toEqual([200, 403])
    })
  }

  it('shows a key the part of the limit it has left, not rounded to a unit', () => {
    const { sim, secret } = keyUnder('key', COST + 4e-11)
    chat(sim, secret)
    const key = sim.handle({ method: 'GET', path: '/key', authorization: `Bearer ${secret}` }).body as { data: { limit_remaining: number } }
    expect(key.data.limit_remaining).toBeGreaterThan(3.9e-11)
    expect(key.data.limit_remaining).toBeLessThan(4.1e-11)
  })

  it('limitUnits: the units a spend must reach to be at a limit, rounding a part of a unit up', () => {
    expect(limitUnits(0.3)).toBe(3_000_000_000)
    expect(limitUnits(0.1 + 0.2)).toBe(3_000_000_001)
    expect(limitUnits(1e-11)).toBe(1)
    expect(limitUnits(5e-11)).toBe(1)
    expect(limitUnits(0.00008240001)).toBe(824_001)
    expect(limitUnits(100)).toBe(1_000_000_000_000)
    // Every whole number of units is its own limit.
    for (const units of [1, 7, 824_000, 123_456_789_012, 9_007_199_254_740]) expect(limitUnits(toUsd(units))).toBe(units)
  })
})
