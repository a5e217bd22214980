// Every write the control API makes to the world is a write of the simulator's state: reset() and a
// restore to a snapshot taken before it take it away, as they do the same write made through sim.*
// (a key loaded with its usage as records once escaped both). One case per write route, each on a
// fresh default world, compared through what exportWorld() writes and the route's own reads.
import { describe, expect, it } from 'vitest'
import { type Simulator, createSimulator } from '../../src/index.js'
import { type Answer, controlOf } from '../support/control.js'

type Control = ReturnType<typeof controlOf>
type Sim = ReturnType<typeof createSimulator>

interface Case {
  name: string
  /** A write before the one tested (what a delete deletes): its id, if it has one. */
  setup?(control: Control, sim: Sim): string
  /** Makes the write, given what the set-up answered. */
  write(control: Control, sim: Sim, made: string): Answer
  /** What shows the write, when exportWorld() does not: read before and after. */
  read?(control: Control, sim: Sim): unknown
}

const CASES: Case[] = [
  { name: 'POST /users', write: (c) => c('POST', '/users', { name: 'Initech' }) },
  { name: 'POST /workspaces', write: (c, sim) => c('POST', '/workspaces', { userId: sim.world.userId, name: 'Lab', slug: 'lab-two' }) },
  { name: 'POST /keys', write: (c, sim) => c('POST', '/keys', { userId: sim.world.userId, name: 'made', limit: 3 }) },
  {
    name: 'POST /keys with usage as records',
    write: (c, sim) => c('POST', '/keys', { userId: sim.world.userId, secret: 'sk-or-v1-loaded-0123456789', usage: [{ at: '2026-03-02T09:00:00Z', cost: 1 }] }),
  },
  { name: 'PATCH /keys/{hash}', write: (c, sim) => c('PATCH', `/keys/${sim.world.apiKeyHash}`, { disabled: true, limit: 5 }) },
  { name: 'POST /usage', write: (c, sim) => c('POST', '/usage', { keyHash: sim.world.apiKeyHash, cost: 1.25, at: '2026-03-02T09:00:00Z' }) },
  { name: 'POST /credits', write: (c, sim) => c('POST', '/credits', { userId: sim.world.userId, amount: 5 }) },
  { name: 'POST /models', write: (c) => c('POST', '/models', { id: 'acme/made', created: '2026-01-01T00:00:00Z' }) },
  { name: 'POST /video-models', write: (c) => c('POST', '/video-models', { id: 'acme/video-made', created: '2026-02-01T00:00:00Z' }) },
  { name: 'POST /files', write: (c, sim) => c('POST', '/files', { userId: sim.world.userId, id: 'file_made', origin: 'server', text: 'hello' }) },
  { name: 'POST /presets', write: (c, sim) => c('POST', '/presets', { userId: sim.world.userId, slug: 'made', config: { temperature: 0.2 } }) },
  {
    name: 'PATCH /presets/{id}',
    setup: (c, sim) => c('POST', '/presets', { userId: sim.world.userId, slug: 'made' }).body.id,
    write: (c, _sim, id) => c('PATCH', `/presets/${id}`, { config: { temperature: 0.5 } }),
  },
  {
    name: 'DELETE /presets/{id}',
    setup: (c, sim) => c('POST', '/presets', { userId: sim.world.userId, slug: 'made' }).body.id,
    write: (c, _sim, id) => c('DELETE', `/presets/${id}`),
  },
  { name: 'POST /budgets', write: (c, sim) => c('POST', '/budgets', { workspace: sim.world.workspaces.production, interval: 'daily', limitUsd: 1 }) },
  {
    name: 'DELETE /budgets/{workspace}/{interval}',
    setup: (c, sim) => c('POST', '/budgets', { workspace: sim.world.workspaces.production, interval: 'daily', limitUsd: 1 }).body.workspace_id,
    write: (c, sim) => c('DELETE', `/budgets/${sim.world.workspaces.production}/daily`),
  },
  {
    name: 'POST /activity',
    write: (c, sim) =>
      c('POST', '/activity', { userId: sim.world.userId, date: '2026-03-01', keyHash: sim.world.apiKeyHash, model: 'openai/gpt-4.1-mini', provider: 'OpenAI', requests: 10, usage: 0.1, promptTokens: 1000, completionTokens: 500 }),
  },
  { name: 'POST /guardrails', write: (c, sim) => c('POST', '/guardrails', { userId: sim.world.userId, rules: { name: 'cap', limit_usd: 3 } }) },
  {
    name: 'PATCH /guardrails/{id}',
    setup: (c, sim) => c('POST', '/guardrails', { userId: sim.world.userId, rules: { name: 'cap' } }).body.id,
    write: (c, _sim, id) => c('PATCH', `/guardrails/${id}`, { limit_usd: 3 }),
  },
  {
    name: 'DELETE /guardrails/{id}',
    setup: (c, sim) => c('POST', '/guardrails', { userId: sim.world.userId, rules: { name: 'cap' } }).body.id,
    write: (c, _sim, id) => c('DELETE', `/guardrails/${id}`),
  },
  { name: 'POST /members', write: (c, sim) => c('POST', '/members', { userId: sim.world.userId, id: 'user_ada' }) },
  {
    name: 'DELETE /members/{userId}/{memberId}',
    setup: (c, sim) => c('POST', '/members', { userId: sim.world.userId, id: 'user_ada' }).body.id,
    write: (c, sim) => c('DELETE', `/members/${sim.world.userId}/user_ada`),
  },
  { name: 'POST /byok', write: (c, sim) => c('POST', '/byok', { userId: sim.world.userId, provider: 'openai', key: 'sk-proj-0123456789' }) },
  {
    name: 'DELETE /byok/{id}',
    setup: (c, sim) => c('POST', '/byok', { userId: sim.world.userId, provider: 'openai', key: 'sk-proj-0123456789' }).body.id,
    write: (c, _sim, id) => c('DELETE', `/byok/${id}`),
  },
  { name: 'PUT /clock', write: (c) => c('PUT', '/clock', { now: '2026-03-04T00:00:00Z' }), read: (c) => c('GET', '/clock').body },
  { name: 'POST /clock/advance', write: (c) => c('POST', '/clock/advance', { ms: 3_600_000 }), read: (c) => c('GET', '/clock').body },
  {
    name: 'POST /oauth/codes',
    write: (c, sim) => c('POST', '/oauth/codes', { userId: sim.world.userId }),
    read: (c) => c('GET', '/oauth/codes').body,
  },
]

/** The state a write can change: the world as exported, and what the case reads. */
function state(kase: Case, control: Control, sim: Sim): string {
  return JSON.stringify([sim.exportWorld(), kase.read?.(control, sim)])
}

function expectWritten(answer: Answer): void {
  expect(answer.status, JSON.stringify(answer.body)).toBeGreaterThanOrEqual(200)
  expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300)
}

describe('a write of the control API is undone as any other write', () => {
  it.each(CASES)('$name: by POST /reset', (kase) => {
    const sim = createSimulator()
    const control = controlOf(sim as Simulator<unknown>)
    const start = state(kase, control, sim)
    const made = kase.setup?.(control, sim) ?? ''
    const before = state(kase, control, sim)
    expectWritten(kase.write(control, sim, made))
    expect(state(kase, control, sim)).not.toBe(before)
    expect(control('POST', '/reset').status).toBe(204)
    expect(state(kase, control, sim)).toBe(start)
  })

  it.each(CASES)('$name: by restoring a snapshot taken before it, and made again by restoring one taken after', (kase) => {
    const sim = createSimulator()
    const control = controlOf(sim as Simulator<unknown>)
    const made = kase.setup?.(control, sim) ?? ''
    const saved = control('POST', '/snapshots').body.id as string
    const before = state(kase, control, sim)
    expectWritten(kase.write(control, sim, made))
    const written = state(kase, control, sim)
    expect(written).not.toBe(before)
    const after = control('POST', '/snapshots').body.id as string
    expect(control('POST', `/snapshots/${saved}/restore`).status).toBe(204)
    expect(state(kase, control, sim)).toBe(before)
    expect(control('POST', `/snapshots/${after}/restore`).status).toBe(204)
    expect(state(kase, control, sim)).toBe(written)
  })
})
