// BYOK provider credentials (decisions/0054): the five operations through the official SDK and
// sim.byok, tenancy, bad input, the control routes, world specs and snapshots.
import { beforeEach, describe, expect, it } from 'vitest'
import { createSimulator, SimulatorErrorCode } from '../../src/index.js'
import { createControlApi } from '../../src/core/control-api.js'
import { sdkClient, simulatorErrorOf, useSimulatorServer } from '../support/server.js'

const harness = useSimulatorServer()

type Sim = ReturnType<typeof createSimulator>

const manage = (sim: Sim, method: string, path: string, body?: unknown, secret = sim.world.managementKey) =>
  sim.handle({ method, path, authorization: `Bearer ${secret}`, ...(body !== undefined && { body: JSON.stringify(body) }) })

describe('BYOK credentials', () => {
  let sim: Sim
  beforeEach(() => {
    sim = createSimulator()
    harness.serve(sim)
  })

  it('creates, gets, lists, updates and deletes through the SDK, never answering the raw key', async () => {
    const sdk = sdkClient(sim.world.managementKey)
    const made = await sdk.byok.create({ createBYOKKeyRequest: { provider: 'openai', key: 'sk-proj-0123456789abcdef', name: 'Prod OpenAI', allowedModels: ['openai/gpt-4.1-mini'] } })
    expect(made.data).toMatchObject({ provider: 'openai', label: 'sk-...cdef', name: 'Prod OpenAI', workspaceId: sim.world.workspaces.default, sortOrder: 0, isByokOnly: false, isFallback: false, disabled: false, allowedModels: ['openai/gpt-4.1-mini'], allowedApiKeyHashes: null })
    expect(JSON.stringify(made)).not.toContain('0123456789abcdef')
    expect(sim.byok.secret(made.data.id)).toBe('sk-proj-0123456789abcdef')
    const second = await sdk.byok.create({ createBYOKKeyRequest: { provider: 'openai', key: 'sk-proj-second-000000', isFallback: true } })
    expect(second.data.sortOrder).toBe(1)
    // The SDK's type has no null workspace_id: a global credential is made with a raw null, or through sim.byok.
    sim.byok.create({ userId: sim.world.userId, provider: 'anthropic', key: 'sk-ant-0123456789', workspace: null })

    const got = await sdk.byok.get({ id: made.data.id })
    expect(got.data).toEqual(made.data)
    const listed = await sdk.byok.list({})
    expect(listed.result.totalCount).toBeGreaterThanOrEqual(3)
    expect(listed.result.data.some((c) => c.workspaceId === null)).toBe(true)
    const openai = await sdk.byok.list({ provider: 'openai', limit: 1, offset: 1 })
    expect(openai.result.totalCount).toBe(2)
    expect(openai.result.data.map((c) => c.id)).toEqual([second.data.id])

    const rotated = await sdk.byok.update({ id: made.data.id, updateBYOKKeyRequest: { key: 'sk-proj-rotated-9999', isByokOnly: true, allowedModels: null } })
    expect(rotated.data).toMatchObject({ label: 'sk-...999', isByokOnly: true, allowedModels: null, createdAt: made.data.createdAt })
    expect(sim.byok.secret(made.data.id)).toBe('sk-proj-rotated-9999')

    expect(await sdk.byok.delete({ id: made.data.id })).toEqual({ deleted: true })
    expect(manage(sim, 'GET', `/byok/${made.data.id}`).status).toBe(404)
  })

  it("answers another organisation's credential with 404 on get, update and delete", () => {
    const theirs = sim.byok.create({ userId: sim.world.otherTenant.userId, provider: 'openai', key: 'sk-globex-0123456789' })
    for (const [method, body] of [['GET'], ['PATCH', { disabled: true }], ['DELETE']] as const) {
      const res = manage(sim, method, `/byok/${theirs.id}`, body)
      expect(res.status, method).toBe(404)
      expect((res.body as { error: { metadata: unknown } }).error.metadata).toEqual({ resource: 'byok_key' })
    }
    expect((manage(sim, 'GET', '/byok').body as { total_count: number }).total_count).toBe(0)
    expect(sim.byok.get(theirs.id)?.disabled).toBe(false)
  })

  it('refuses every bad body field with a 400 naming it, and a regular key with 403', () => {
    const cases: [unknown, string][] = [
      [{ key: 'sk-1234567890' }, 'provider'],
      [{ provider: 'openai' }, 'key'],
      [{ provider: 'openai', key: '' }, 'key'],
      [{ provider: 'OpenAI', key: 'sk-1' }, 'provider'],
      [{ provider: 'openai', key: 'sk-1', workspace_id: 3 }, 'workspace_id'],
      [{ provider: 'openai', key: 'sk-1', allowed_models: 'x' }, 'allowed_models'],
      [{ provider: 'openai', key: 'sk-1', allowed_api_key_hashes: [''] }, 'allowed_api_key_hashes[0]'],
      [{ provider: 'openai', key: 'sk-1', allowed_user_ids: [1] }, 'allowed_user_ids[0]'],
      [{ provider: 'openai', key: 'sk-1', declared_zdr: 'no' }, 'declared_zdr'],
      [{ provider: 'openai', key: 'sk-1', disabled: 1 }, 'disabled'],
      [{ provider: 'openai', key: 'sk-1', is_byok_only: 'true' }, 'is_byok_only'],
      [{ provider: 'openai', key: 'sk-1', is_fallback: null }, 'is_fallback'],
      [{ provider: 'openai', key: 'sk-1', is_required: 0 }, 'is_required'],
      [{ provider: 'openai', key: 'sk-1', name: 5 }, 'name'],
      [{ provider: 'openai', key: 'sk-1', sort_order: 2 }, 'sort_order'],
    ]
    for (const [body, field] of cases) {
      const res = manage(sim, 'POST', '/byok', body)
      expect(res.status, field).toBe(400)
      expect((res.body as { error: { metadata: { parameter: string } } }).error.metadata.parameter, JSON.stringify(body)).toBe(field)
    }
    const { id } = sim.byok.create({ userId: sim.world.userId, provider: 'openai', key: 'sk-1234567890' })
    const patch = manage(sim, 'PATCH', `/byok/${id}`, { provider: 'anthropic' })
    expect((patch.body as { error: { metadata: { parameter: string } } }).error.metadata.parameter).toBe('provider')
    expect(manage(sim, 'POST', '/byok', { provider: 'openai', key: 'sk-1' }, sim.world.apiKey).status).toBe(403)
    expect(sim.handle({ method: 'GET', path: '/byok', query: 'workspace_id=production', authorization: `Bearer ${sim.world.managementKey}` }).status).toBe(400)
  })

  it('sim.byok refuses bad options naming them', () => {
    expect(simulatorErrorOf(() => sim.byok.create({ userId: sim.world.userId, provider: 'Open AI', key: 'k' }))).toMatchObject({ code: SimulatorErrorCode.InvalidArgument, argument: 'provider' })
    expect(simulatorErrorOf(() => sim.byok.update('00000000-0000-4000-8000-000000000000', { disabled: true }))).toMatchObject({ code: SimulatorErrorCode.UnknownByok })
    const { id } = sim.byok.create({ userId: sim.world.userId, provider: 'openai', key: 'sk-1234567890' })
    expect(simulatorErrorOf(() => sim.byok.update(id, { sortOrder: -1 }))).toMatchObject({ argument: 'sortOrder' })
  })

  it('survives snapshot, restore, reset to a world, and an exportWorld() round trip', () => {
    const kept = sim.byok.create({ userId: sim.world.userId, provider: 'openai', key: 'sk-proj-0123456789', isByokOnly: true, allowedApiKeyHashes: [sim.world.apiKeyHash] })
    const global = sim.byok.create({ userId: sim.world.userId, provider: 'anthropic', key: 'sk-ant-0123456789', workspace: null, isFallback: true })
    const snap = sim.snapshot()
    sim.byok.delete(kept.id)
    sim.byok.update(global.id, { disabled: true })
    sim.restore(snap)
    expect(sim.byok.list()).toEqual([kept, global])
    const world = sim.exportWorld()
    const again = createSimulator({ world })
    expect(again.byok.list()).toEqual([kept, global])
    expect(again.byok.secret(kept.id)).toBe('sk-proj-0123456789')
    expect(again.exportWorld()).toEqual(world)
  })

  it('control routes make, list and delete credentials', () => {
    const control = createControlApi(sim)
    const api = { handle: (r: { method: string; path: string; body?: string }) => control.handle({ query: new URLSearchParams(), body: '', ...r }) }
    const made = api.handle({ method: 'POST', path: '/byok', body: JSON.stringify({ userId: sim.world.userId, provider: 'openai', key: 'sk-proj-0123456789' }) })
    expect(made.status).toBe(201)
    const id = (made.body as { id: string }).id
    const listed = api.handle({ method: 'GET', path: '/byok' })
    expect((listed.body as { data: { id: string }[] }).data.map((c) => c.id)).toEqual([id])
    expect(api.handle({ method: 'DELETE', path: `/byok/${id}` }).status).toBe(204)
    expect(api.handle({ method: 'DELETE', path: `/byok/${id}` }).status).toBe(404)
  })
})
