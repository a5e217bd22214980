// Workspace budgets (decisions/0052): read and written through the official SDK and sim.budgets,
// enforced on the money path with the key-limit rule over all the workspace's keys, reset at UTC
// boundaries of the simulator clock, kept by snapshots and world exports.
import fc from 'fast-check'
import { beforeEach, describe, expect, it } from 'vitest'
import { createSimulator, SimulatorErrorCode } from '../../src/index.js'
import { createControlApi } from '../../src/core/control-api.js'
import { sdkClient, simulatorErrorOf, useSimulatorServer } from '../support/server.js'

const harness = useSimulatorServer()

type Sim = ReturnType<typeof createSimulator>

/** A new workspace of the world's organisation with two fresh keys: nothing spent yet. */
function agents(sim: Sim) {
  const workspace = sim.workspaces.create({ userId: sim.world.userId, name: 'Agents', slug: 'agents' })
  const a = sim.keys.create({ userId: sim.world.userId, workspaceId: workspace.id, name: 'a' })
  const b = sim.keys.create({ userId: sim.world.userId, workspaceId: workspace.id, name: 'b' })
  return { workspace, keys: [a.key, b.key] as const }
}

/** A chat completion through sim.handle with `secret`: its status, and its cost when answered. */
function chat(sim: Sim, secret: string, content = 'Hello there') {
  const res = sim.handle({ method: 'POST', path: '/chat/completions', authorization: `Bearer ${secret}`, body: JSON.stringify({ model: 'openai/gpt-4.1-mini', messages: [{ role: 'user', content }] }) })
  const body = res.body as { usage?: { cost: number }; error?: { message: string; metadata?: Record<string, unknown> } }
  return { status: res.status, cost: body.usage?.cost ?? 0, body }
}

const manage = (sim: Sim, method: string, path: string, body?: unknown, secret = sim.world.managementKey) =>
  sim.handle({ method, path, authorization: `Bearer ${secret}`, ...(body !== undefined && { body: JSON.stringify(body) }) })

describe('workspace budgets', () => {
  let sim: Sim
  beforeEach(() => {
    sim = createSimulator()
    harness.serve(sim)
  })

  describe('through the official SDK', () => {
    it('sets, gets, lists and deletes budgets, by workspace id or slug', async () => {
      const { workspace } = agents(sim)
      const sdk = sdkClient(sim.world.managementKey)
      const set = await sdk.workspaces.setBudget({ workspaceRef: 'agents', interval: 'daily', upsertWorkspaceBudgetRequest: { limitUsd: 2.5, includeByokInBudgets: true } })
      expect(set.data).toMatchObject({ workspaceId: workspace.id, limitUsd: 2.5, resetInterval: 'daily' })
      expect(set.includeByokInBudgets).toBe(true)
      await sdk.workspaces.setBudget({ workspaceRef: workspace.id, interval: 'lifetime', upsertWorkspaceBudgetRequest: { limitUsd: 100 } })
      sim.clock.advance(60_000)
      const changed = await sdk.workspaces.setBudget({ workspaceRef: 'agents', interval: 'daily', upsertWorkspaceBudgetRequest: { limitUsd: 3 } })
      expect(changed.data.id).toBe(set.data.id)
      expect(changed.data.createdAt).toBe(set.data.createdAt)
      expect(changed.data.updatedAt).not.toBe(set.data.updatedAt)
      expect(changed.includeByokInBudgets).toBe(true)

      const got = await sdk.workspaces.getBudget({ workspaceRef: 'agents', interval: 'lifetime' })
      expect(got.data.resetInterval).toBeNull()
      expect(got.data.limitUsd).toBe(100)
      const listed = await sdk.workspaces.listBudgets({ workspaceRef: workspace.id })
      expect(listed.data.map((b) => [b.resetInterval, b.limitUsd])).toEqual([['daily', 3], [null, 100]])
      expect((await sdk.workspaces.get({ id: workspace.id })).data.includeByokInBudgets).toBe(true)

      expect(await sdk.workspaces.deleteBudget({ workspaceRef: 'agents', interval: 'daily' })).toEqual({ deleted: true })
      expect((await sdk.workspaces.listBudgets({ workspaceRef: 'agents' })).data).toHaveLength(1)
    })
  })

  describe('refusals', () => {
    it('answers 404 for an unknown or another organisation’s workspace, and for an interval without a budget', () => {
      agents(sim)
      const other = sim.world.otherTenant.workspaceId
      for (const [method, body] of [['GET', undefined], ['PUT', { limit_usd: 1 }], ['DELETE', undefined]] as const) {
        const res = manage(sim, method, `/workspaces/${other}/budgets/daily`, body)
        expect(res.status).toBe(404)
        expect(res.body).toMatchObject({ error: { metadata: { resource: 'workspace' } } })
      }
      expect(manage(sim, 'GET', `/workspaces/${other}/budgets`).status).toBe(404)
      expect(manage(sim, 'GET', '/workspaces/nowhere/budgets').status).toBe(404)
      expect(manage(sim, 'GET', '/workspaces/agents/budgets/weekly').body).toMatchObject({ error: { code: 404, metadata: { resource: 'budget' } } })
      expect(manage(sim, 'DELETE', '/workspaces/agents/budgets/weekly').status).toBe(404)
      // The other organisation's own management key sees its budget; Acme's does not.
      expect(manage(sim, 'PUT', `/workspaces/${other}/budgets/daily`, { limit_usd: 1 }, sim.world.otherTenant.managementKey).status).toBe(200)
      expect(manage(sim, 'GET', `/workspaces/${other}/budgets/daily`).status).toBe(404)
    })

    it('answers 400 naming the interval or the body field it refuses', () => {
      agents(sim)
      const bad = (method: string, path: string, body?: unknown) => (manage(sim, method, path, body).body as { error: { code: number; metadata: Record<string, unknown> } }).error
      expect(bad('GET', '/workspaces/agents/budgets/hourly')).toMatchObject({ code: 400, metadata: { parameter: 'interval', value: 'hourly' } })
      expect(bad('PUT', '/workspaces/agents/budgets/daily', {})).toMatchObject({ code: 400, metadata: { parameter: 'limit_usd', reason: 'is required' } })
      expect(bad('PUT', '/workspaces/agents/budgets/daily', { limit_usd: 0 })).toMatchObject({ code: 400, metadata: { parameter: 'limit_usd' } })
      expect(bad('PUT', '/workspaces/agents/budgets/daily', { limit_usd: '5' })).toMatchObject({ code: 400, metadata: { parameter: 'limit_usd' } })
      expect(bad('PUT', '/workspaces/agents/budgets/daily', { limit_usd: 5, include_byok_in_budgets: 'yes' })).toMatchObject({ code: 400, metadata: { parameter: 'include_byok_in_budgets' } })
      expect(manage(sim, 'PUT', '/workspaces/agents/budgets/weekly', { limit_usd: 10 }).status).toBe(200)
      expect(bad('PUT', '/workspaces/agents/budgets/daily', { limit_usd: 10 })).toMatchObject({ code: 400, metadata: { parameter: 'limit_usd' } })
      expect(bad('PUT', '/workspaces/agents/budgets/monthly', { limit_usd: 10 })).toMatchObject({ code: 400, metadata: { parameter: 'limit_usd' } })
      expect(manage(sim, 'PUT', '/workspaces/agents/budgets/daily', { limit_usd: 9.99 }).status).toBe(200)
      // A regular key may not manage budgets.
      expect(manage(sim, 'GET', '/workspaces/agents/budgets', undefined, sim.world.apiKey).status).toBe(403)
    })

    it('sim.budgets refuses what the wire refuses, naming the option', () => {
      const { workspace } = agents(sim)
      expect(simulatorErrorOf(() => sim.budgets.set({ workspace: workspace.id, interval: 'hourly' as 'daily', limitUsd: 1 }))).toMatchObject({ code: SimulatorErrorCode.InvalidArgument, argument: 'interval' })
      expect(simulatorErrorOf(() => sim.budgets.set({ workspace: workspace.id, interval: 'daily', limitUsd: -1 }))).toMatchObject({ argument: 'limitUsd' })
      expect(simulatorErrorOf(() => sim.budgets.set({ workspace: '00000000-0000-4000-8000-000000000000', interval: 'daily', limitUsd: 1 }))).toMatchObject({ code: SimulatorErrorCode.UnknownWorkspace })
      // A slug alone is no workspace reference; the message says what is.
      const bySlug = simulatorErrorOf(() => sim.budgets.set({ workspace: 'production', interval: 'daily', limitUsd: 1 }))
      expect(bySlug).toMatchObject({ code: SimulatorErrorCode.UnknownWorkspace, argument: 'workspace' })
      expect(bySlug.message).toMatch(/"workspace" "production" names no workspace: it is not a UUID; name a workspace by its id, or by \{ userId, slug \}\.$/)
      expect(simulatorErrorOf(() => sim.budgets.set({ workspace: '00000000-0000-4000-8000-000000000000', interval: 'daily', limitUsd: 1 })).message).toMatch(/names no workspace\.$/)
      sim.budgets.set({ workspace: workspace.id, interval: 'daily', limitUsd: 5 })
      expect(simulatorErrorOf(() => sim.budgets.set({ workspace: workspace.id, interval: 'weekly', limitUsd: 5 }))).toMatchObject({ argument: 'limitUsd' })
      expect(sim.budgets.delete(workspace.id, 'weekly')).toBe(false)
      expect(sim.budgets.delete(workspace.id, 'daily')).toBe(true)
    })
  })

  describe('on the money path', () => {
    it('admits a request that starts under the limit, refuses the next with 403, and charges nothing for it', () => {
      const { workspace, keys } = agents(sim)
      const first = chat(sim, keys[0])
      expect(first.status).toBe(200)
      // The limit is what one request costs: the next starts at it, and is refused.
      sim.budgets.set({ workspace: workspace.id, interval: 'daily', limitUsd: first.cost * 2 })
      expect(chat(sim, keys[1]).status).toBe(200)
      const refused = chat(sim, keys[0])
      expect(refused.status).toBe(403)
      expect(refused.body.error?.message).toBe('Workspace budget exceeded (daily limit). Manage it using https://openrouter.ai/settings/workspaces')
      expect(refused.body.error?.metadata).toMatchObject({ reason: 'workspace_budget_exceeded', interval: 'daily', workspace_id: workspace.id })
      expect(sim.budgets.spent(workspace.id, 'daily')).toBe(first.cost * 2)
      // Every route of the money path is held by it.
      const post = (path: string, body: unknown) => sim.handle({ method: 'POST', path, authorization: `Bearer ${keys[1]}`, body: JSON.stringify(body) }).status
      expect(post('/responses', { model: 'openai/gpt-4.1-mini', input: 'Hello' })).toBe(403)
      expect(post('/completions', { model: 'openai/gpt-4.1-mini', prompt: 'Hello' })).toBe(403)
      expect(post('/embeddings', { model: 'openai/text-embedding-3-small', input: 'Hello' })).toBe(403)
      // Another workspace's keys are not held by this budget.
      expect(chat(sim, sim.world.apiKey).status).toBe(200)
    })

    it('counts BYOK spend only when the workspace includes it in its budgets', () => {
      const { workspace } = agents(sim)
      sim.keys.create({ userId: sim.world.userId, workspaceId: workspace.id, usage: { daily: 1 }, byokUsage: { daily: 2 } })
      const fresh = sim.keys.create({ userId: sim.world.userId, workspaceId: workspace.id }).key
      sim.budgets.set({ workspace: workspace.id, interval: 'daily', limitUsd: 2.5 })
      expect(sim.budgets.spent(workspace.id, 'daily')).toBe(1)
      expect(chat(sim, fresh).status).toBe(200)
      const flagged = manage(sim, 'PUT', `/workspaces/${workspace.id}/budgets/daily`, { limit_usd: 2.5, include_byok_in_budgets: true })
      expect(flagged.body).toMatchObject({ include_byok_in_budgets: true, data: { limit_usd: 2.5 } })
      expect(sim.budgets.spent(workspace.id, 'daily')).toBeGreaterThan(3)
      expect(chat(sim, fresh).status).toBe(403)
    })

    it('refuses exactly at the limit under a random sequence of requests (fast-check)', () => {
      const seed = Number(process.env['FC_SEED'] ?? Date.now() % 2 ** 31)
      console.log(`budgets fast-check seed ${seed} (FC_SEED=${seed} replays it)`)
      fc.assert(
        fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 1 }), fc.integer({ min: 1, max: 40 })), { minLength: 1, maxLength: 25 }), fc.integer({ min: 1, max: 4000 }), (steps, limitMicros) => {
          const s = createSimulator()
          const { workspace, keys } = agents(s)
          const limitUsd = limitMicros / 1e6
          s.budgets.set({ workspace: workspace.id, interval: 'daily', limitUsd })
          let spentUnits = 0
          for (const [who, words] of steps) {
            const before = spentUnits
            const res = chat(s, keys[who] as string, 'word '.repeat(words))
            if (before >= Math.round(limitUsd * 1e10)) {
              expect(res.status).toBe(403)
            } else {
              expect(res.status).toBe(200)
              spentUnits += Math.round(res.cost * 1e10)
            }
            expect(Math.round(s.budgets.spent(workspace.id, 'daily') * 1e10)).toBe(spentUnits)
          }
        }),
        { seed, numRuns: 25 },
      )
    })

    it('resets at the UTC boundary of each interval: midnight, Monday, the first of the month', () => {
      const { workspace, keys } = agents(sim)
      // 2026-03-04 is a Wednesday: the week started on Monday 2026-03-02.
      sim.clock.set('2026-03-04T23:59:59.000Z')
      const first = chat(sim, keys[0])
      sim.budgets.set({ workspace: workspace.id, interval: 'daily', limitUsd: first.cost })
      expect(chat(sim, keys[0]).status).toBe(403)
      sim.clock.set('2026-03-05T00:00:00.000Z')
      expect(chat(sim, keys[0]).status).toBe(200)
      sim.budgets.delete(workspace.id, 'daily')
      sim.budgets.set({ workspace: workspace.id, interval: 'weekly', limitUsd: first.cost * 2 })
      expect(chat(sim, keys[1]).status).toBe(403)
      sim.clock.set('2026-03-08T23:59:59.999Z')
      expect(chat(sim, keys[1]).status).toBe(403)
      sim.clock.set('2026-03-09T00:00:00.000Z')
      expect(chat(sim, keys[1]).status).toBe(200)
      sim.budgets.delete(workspace.id, 'weekly')
      sim.budgets.set({ workspace: workspace.id, interval: 'monthly', limitUsd: first.cost * 3 })
      expect(chat(sim, keys[1]).status).toBe(403)
      sim.clock.set('2026-04-01T00:00:00.000Z')
      expect(chat(sim, keys[1]).status).toBe(200)
      sim.budgets.set({ workspace: workspace.id, interval: 'lifetime', limitUsd: first.cost * 4 })
      expect(chat(sim, keys[1]).status).toBe(403)
      sim.clock.set('2027-01-01T00:00:00.000Z')
      expect(chat(sim, keys[1]).status).toBe(403)
    })
  })

  describe('state', () => {
    it('snapshots and restores budgets; a deleted workspace takes its budgets with it', () => {
      const { workspace, keys } = agents(sim)
      const before = sim.snapshot()
      sim.budgets.set({ workspace: workspace.id, interval: 'daily', limitUsd: 1 })
      const after = sim.snapshot()
      sim.restore(before)
      expect(sim.budgets.list(workspace.id)).toEqual([])
      sim.restore(after)
      expect(sim.budgets.list(workspace.id).map((b) => b.limit_usd)).toEqual([1])
      expect(keys).toHaveLength(2)
      const empty = sim.workspaces.create({ userId: sim.world.userId, name: 'Empty', slug: 'empty' })
      sim.budgets.set({ workspace: empty.id, interval: 'monthly', limitUsd: 3 })
      sim.workspaces.delete(empty.id)
      expect(sim.budgets.list().some((b) => b.workspace_id === empty.id)).toBe(false)
    })

    it('round-trips through exportWorld(), and the control API sets and deletes budgets', () => {
      const { workspace } = agents(sim)
      sim.budgets.set({ workspace: workspace.id, interval: 'weekly', limitUsd: 7.5, includeByokInBudgets: true })
      const copy = createSimulator({ world: sim.exportWorld() })
      expect(copy.budgets.list(workspace.id)).toEqual(sim.budgets.list(workspace.id))
      expect(copy.workspaces.get(workspace.id)?.include_byok_in_budgets).toBe(true)

      const control = createControlApi(sim)
      const set = control.handle({ method: 'POST', path: '/budgets', query: new URLSearchParams(), body: JSON.stringify({ workspace: workspace.id, interval: 'daily', limitUsd: 1 }) })
      expect(set.status).toBe(200)
      expect(sim.budgets.get(workspace.id, 'daily')?.limit_usd).toBe(1)
      const deleted = control.handle({ method: 'DELETE', path: `/budgets/${workspace.id}/daily`, query: new URLSearchParams(), body: '' })
      expect(deleted.status).toBe(204)
      expect(sim.budgets.get(workspace.id, 'daily')).toBeUndefined()
    })
  })
})
