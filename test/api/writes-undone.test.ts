// Every write of the service's API is a write of the simulator's state: reset() and a restore to a
// snapshot taken before it take it away, and a restore to one taken after brings it back. One case
// per write operation, each on a fresh default world, compared through what exportWorld() writes,
// the OAuth codes and the journal-free reads a test would make (the control API's writes have the
// same check in test/server/control-writes-undone.test.ts).
import { describe, expect, it } from 'vitest'
import { type SimResponse, createSimulator } from '../../src/index.js'

type Sim = ReturnType<typeof createSimulator>

interface Case {
  name: string
  /** A write before the one tested (what a delete deletes): its id, if it has one. */
  setup?(sim: Sim): string
  /** The request, given what the set-up answered. */
  write(sim: Sim, made: string): { method: string; path: string; body?: unknown; key?: 'api' | 'management' }
  /** What shows the write, when the export does not. */
  read?(sim: Sim, made: string): unknown
}

const S256 = { code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256' }
const VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk'
const chat = { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'Hello' }] }

function call(sim: Sim, method: string, path: string, body?: unknown, key: 'api' | 'management' = 'management'): SimResponse {
  const secret = key === 'api' ? sim.world.apiKey : sim.world.managementKey
  return sim.handle({ method, path, authorization: `Bearer ${secret}`, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
}

/** The data of a success, or a failure naming the answer. */
function data(answer: SimResponse): Record<string, unknown> {
  expect(answer.status, JSON.stringify((answer as { body?: unknown }).body)).toBeLessThan(300)
  return ((answer as { body: { data?: Record<string, unknown> } }).body?.data ?? {}) as Record<string, unknown>
}

const guardrail = (sim: Sim): string => data(call(sim, 'POST', '/guardrails', { name: 'cap', limit_usd: 5 })).id as string
const byok = (sim: Sim): string => data(call(sim, 'POST', '/byok', { provider: 'openai', key: 'sk-proj-0123456789abcdef' })).id as string

const CASES: Case[] = [
  { name: 'createKey', write: () => ({ method: 'POST', path: '/keys', body: { name: 'made', limit: 3 } }) },
  { name: 'updateKey', write: (sim) => ({ method: 'PATCH', path: `/keys/${sim.world.apiKeyHash}`, body: { disabled: true } }) },
  { name: 'deleteKey', write: (sim) => ({ method: 'DELETE', path: `/keys/${sim.world.apiKeyHash}` }) },
  { name: 'createWorkspace', write: () => ({ method: 'POST', path: '/workspaces', body: { name: 'Lab', slug: 'lab-made' } }) },
  { name: 'updateWorkspace', write: () => ({ method: 'PATCH', path: '/workspaces/production', body: { description: 'changed' } }) },
  {
    name: 'deleteWorkspace',
    setup: (sim) => data(call(sim, 'POST', '/workspaces', { name: 'Gone', slug: 'gone' })).id as string,
    write: (_sim, id) => ({ method: 'DELETE', path: `/workspaces/${id}` }),
  },
  { name: 'createChatCompletion', write: () => ({ method: 'POST', path: '/chat/completions', body: chat, key: 'api' }) },
  { name: 'createCompletion', write: () => ({ method: 'POST', path: '/completions', body: { model: 'openai/gpt-4o-mini', prompt: 'Hello' }, key: 'api' }) },
  { name: 'createResponses', write: () => ({ method: 'POST', path: '/responses', body: { model: 'openai/gpt-4o-mini', input: 'Hello' }, key: 'api' }) },
  { name: 'createEmbeddings', write: () => ({ method: 'POST', path: '/embeddings', body: { model: 'openai/text-embedding-3-small', input: 'Hello' }, key: 'api' }) },
  { name: 'createAuthKeysCode', write: () => ({ method: 'POST', path: '/auth/keys/code', body: { callback_url: 'http://localhost:3000/callback', ...S256 }, key: 'api' }) },
  {
    name: 'exchangeAuthCodeForAPIKey',
    setup: (sim) => data(call(sim, 'POST', '/auth/keys/code', { callback_url: 'http://localhost:3000/callback', ...S256 }, 'api')).id as string,
    write: (_sim, code) => ({ method: 'POST', path: '/auth/keys', body: { code, code_verifier: VERIFIER, code_challenge_method: 'S256' } }),
  },
  {
    name: 'createPresetsChatCompletions',
    setup: (sim) => sim.presets.create({ userId: sim.world.userId, slug: 'support', config: { model: 'openai/gpt-4o-mini' } }).id,
    write: () => ({ method: 'POST', path: '/presets/support/chat/completions', body: { messages: [{ role: 'user', content: 'Hello' }] }, key: 'api' }),
  },
  {
    name: 'createPresetsResponses',
    setup: (sim) => sim.presets.create({ userId: sim.world.userId, slug: 'support', config: { model: 'openai/gpt-4o-mini' } }).id,
    write: () => ({ method: 'POST', path: '/presets/support/responses', body: { input: 'Hello' }, key: 'api' }),
  },
  { name: 'upsertWorkspaceBudget', write: () => ({ method: 'PUT', path: '/workspaces/production/budgets/daily', body: { limit_usd: 5 } }) },
  {
    name: 'deleteWorkspaceBudget',
    setup: (sim) => sim.budgets.set({ workspace: sim.world.workspaces.production, interval: 'daily', limitUsd: 5 }).workspace_id,
    write: () => ({ method: 'DELETE', path: '/workspaces/production/budgets/daily' }),
  },
  {
    name: 'bulkAddWorkspaceMembers',
    setup: (sim) => sim.members.add({ userId: sim.world.userId, id: 'user_ada' }).id,
    write: () => ({ method: 'POST', path: '/workspaces/production/members/add', body: { user_ids: ['user_ada'] } }),
  },
  {
    name: 'bulkRemoveWorkspaceMembers',
    setup: (sim) => {
      sim.members.add({ userId: sim.world.userId, id: 'user_ada' })
      data(call(sim, 'POST', '/workspaces/production/members/add', { user_ids: ['user_ada'] }))
      return 'user_ada'
    },
    write: () => ({ method: 'POST', path: '/workspaces/production/members/remove', body: { user_ids: ['user_ada'] } }),
  },
  { name: 'createGuardrail', write: () => ({ method: 'POST', path: '/guardrails', body: { name: 'cap', limit_usd: 5 } }) },
  { name: 'updateGuardrail', setup: guardrail, write: (_sim, id) => ({ method: 'PATCH', path: `/guardrails/${id}`, body: { limit_usd: 7 } }) },
  { name: 'deleteGuardrail', setup: guardrail, write: (_sim, id) => ({ method: 'DELETE', path: `/guardrails/${id}` }) },
  {
    name: 'bulkAssignKeysToGuardrail',
    setup: guardrail,
    write: (sim, id) => ({ method: 'POST', path: `/guardrails/${id}/assignments/keys`, body: { key_hashes: [sim.world.apiKeyHash] } }),
  },
  {
    name: 'bulkUnassignKeysFromGuardrail',
    setup: (sim) => {
      const id = guardrail(sim)
      data(call(sim, 'POST', `/guardrails/${id}/assignments/keys`, { key_hashes: [sim.world.apiKeyHash] }))
      return id
    },
    write: (sim, id) => ({ method: 'POST', path: `/guardrails/${id}/assignments/keys/remove`, body: { key_hashes: [sim.world.apiKeyHash] } }),
  },
  {
    name: 'bulkAssignMembersToGuardrail',
    setup: (sim) => {
      sim.members.add({ userId: sim.world.userId, id: 'user_ada' })
      return guardrail(sim)
    },
    write: (_sim, id) => ({ method: 'POST', path: `/guardrails/${id}/assignments/members`, body: { member_user_ids: ['user_ada'] } }),
  },
  {
    name: 'bulkUnassignMembersFromGuardrail',
    setup: (sim) => {
      sim.members.add({ userId: sim.world.userId, id: 'user_ada' })
      const id = guardrail(sim)
      data(call(sim, 'POST', `/guardrails/${id}/assignments/members`, { member_user_ids: ['user_ada'] }))
      return id
    },
    write: (_sim, id) => ({ method: 'POST', path: `/guardrails/${id}/assignments/members/remove`, body: { member_user_ids: ['user_ada'] } }),
  },
  {
    name: 'submitGenerationFeedback',
    setup: (sim) => (call(sim, 'POST', '/chat/completions', chat, 'api') as { body: { id: string } }).body.id,
    write: (_sim, id) => ({ method: 'POST', path: '/generation/feedback', body: { generation_id: id, category: 'other' } }),
    read: (sim, id) => sim.generations.feedback(id),
  },
  { name: 'createBYOKKey', write: () => ({ method: 'POST', path: '/byok', body: { provider: 'openai', key: 'sk-proj-0123456789abcdef' } }) },
  { name: 'updateBYOKKey', setup: byok, write: (_sim, id) => ({ method: 'PATCH', path: `/byok/${id}`, body: { name: 'renamed' } }) },
  { name: 'deleteBYOKKey', setup: byok, write: (_sim, id) => ({ method: 'DELETE', path: `/byok/${id}` }) },
]

/**
 * The state a write can change: the world as exported (each list's entries in sorted order: a row
 * that a walk back brings back is listed last, see below), the OAuth codes and what the case reads.
 */
function state(sim: Sim, kase: Case, made: string): string {
  const world = sim.exportWorld() as unknown as Record<string, unknown>
  const entries = Object.entries(world).map(([field, value]) => [field, Array.isArray(value) ? value.map((entry) => JSON.stringify(entry)).sort() : value])
  return JSON.stringify([entries, sim.oauth.codes.list(), kase.read?.(sim, made)])
}

function written(sim: Sim, kase: Case, made: string): void {
  const { method, path, body, key } = kase.write(sim, made)
  data(call(sim, method, path, body, key))
}

describe('a write of the service API is undone as any other write', () => {
  it.each(CASES)('$name: by reset()', (kase) => {
    const sim = createSimulator()
    const start = state(sim, kase, '')
    const made = kase.setup?.(sim) ?? ''
    const before = state(sim, kase, made)
    written(sim, kase, made)
    expect(state(sim, kase, made)).not.toBe(before)
    sim.reset()
    expect(state(sim, kase, '')).toBe(start)
  })

  it.each(CASES)('$name: by restoring a snapshot taken before it, and made again by one taken after', (kase) => {
    const sim = createSimulator()
    const made = kase.setup?.(sim) ?? ''
    const saved = sim.snapshot()
    const before = state(sim, kase, made)
    written(sim, kase, made)
    const after = state(sim, kase, made)
    expect(after).not.toBe(before)
    const later = sim.snapshot()
    sim.restore(saved)
    expect(state(sim, kase, made)).toBe(before)
    sim.restore(later)
    expect(state(sim, kase, made)).toBe(after)
  })
})
