// Guardrails (decisions/0051): an organisation's guardrails and their assignments to keys and
// members, through the official SDK, sim.handle and sim.guardrails; every body field checked, a
// refusal changing nothing, kept by snapshots and world specs.
import { beforeEach, describe, expect, it } from 'vitest'
import { createSimulator, SimulatorErrorCode } from '../../src/index.js'
import { createControlApi } from '../../src/core/control-api.js'
import { sdkClient, simulatorErrorOf, useSimulatorServer } from '../support/server.js'

const harness = useSimulatorServer()

describe('guardrails', () => {
  let sim: ReturnType<typeof createSimulator>
  let userId: string
  let model: string
  let provider: string
  let keyHashes: string[]
  /** The guardrails every world has: each workspace's default (decisions/0055). */
  let defaults: ReturnType<typeof sim.guardrails.list>
  beforeEach(() => {
    sim = createSimulator()
    harness.serve(sim)
    userId = sim.world.userId
    model = sim.world.models.paid
    provider = (sim.models.get(model)?.endpoints[0]?.provider_name) as string
    keyHashes = [1, 2].map((i) => sim.keys.create({ userId, name: `Guarded ${i}` }).record.hash)
    defaults = sim.guardrails.list()
  })

  const handle = (method: string, path: string, body?: unknown, secret = sim.world.managementKey) =>
    sim.handle({ method, path, authorization: `Bearer ${secret}`, ...(body !== undefined && { body: JSON.stringify(body) }) }) as { status: number; body: any }

  describe('through the official SDK', () => {
    it('creates, reads, lists, updates and deletes a guardrail', async () => {
      const sdk = sdkClient(sim.world.managementKey)
      const { data: made } = await sdk.guardrails.create({
        createGuardrailRequest: { name: 'Cheap', description: 'Only the cheap model', allowedModels: [model], allowedProviders: [provider], limitUsd: 2.5, resetInterval: 'daily', enforceZdr: true, contentFilterBuiltins: [{ slug: 'email', action: 'redact' }] },
      })
      expect(made).toMatchObject({ name: 'Cheap', allowedModels: [model], allowedProviders: [provider], limitUsd: 2.5, resetInterval: 'daily', enforceZdr: true, includeByokInBudgets: false, workspaceId: sim.world.workspaces.default, updatedAt: null })
      expect((await sdk.guardrails.get({ id: made.id })).data).toEqual(made)
      sim.clock.advance(1000)
      const { data: updated } = await sdk.guardrails.update({ id: made.id, updateGuardrailRequest: { allowedModels: null, ignoredModels: [model], limitUsd: null } })
      expect(updated).toMatchObject({ name: 'Cheap', allowedModels: null, ignoredModels: [model], limitUsd: null, resetInterval: 'daily' })
      expect(updated.updatedAt).not.toBeNull()
      const listed = await sdk.guardrails.list()
      const own = defaults.filter((g) => sim.workspaces.get(g.workspace_id as string)?.created_by === userId)
      expect(listed.result.data.map((g) => g.id)).toEqual([...own.map((g) => g.id), made.id])
      // The production workspace holds its default guardrail only.
      const production = await sdk.guardrails.list({ workspaceId: sim.world.workspaces.production })
      expect(production.result.data.map((g) => [g.id, g.name])).toEqual([[sim.workspaces.get(sim.world.workspaces.production)!.default_guardrail_id, 'Default guardrail']])
      expect(await sdk.guardrails.delete({ id: made.id })).toEqual({ deleted: true })
      expect(sim.guardrails.list()).toEqual(defaults)
    })

    it('assigns keys and members, lists the assignments, and unassigns them', async () => {
      const sdk = sdkClient(sim.world.managementKey)
      sim.members.add({ userId, id: 'user_ada' })
      const { data: guardrail } = await sdk.guardrails.create({ createGuardrailRequest: { name: 'Team' } })
      expect(await sdk.guardrails.bulkAssignKeys({ id: guardrail.id, bulkAssignKeysRequest: { keyHashes: [keyHashes[0]!, keyHashes[1]!, keyHashes[0]!] } })).toEqual({ assignedCount: 2 })
      expect(await sdk.guardrails.bulkAssignKeys({ id: guardrail.id, bulkAssignKeysRequest: { keyHashes: [keyHashes[0]!] } })).toEqual({ assignedCount: 0 })
      expect(await sdk.guardrails.bulkAssignMembers({ id: guardrail.id, bulkAssignMembersRequest: { memberUserIds: ['user_ada', userId] } })).toEqual({ assignedCount: 2 })

      const keys = await sdk.guardrails.listGuardrailKeyAssignments({ id: guardrail.id })
      expect(keys.result.data.map((a) => a.keyHash).sort()).toEqual([keyHashes[0], keyHashes[1]].sort())
      expect(keys.result.data[0]).toMatchObject({ guardrailId: guardrail.id, assignedBy: null })
      const members = await sdk.guardrails.listGuardrailMemberAssignments({ id: guardrail.id })
      expect(members.result.data.map((a) => [a.userId, a.organizationId])).toEqual([
        ['user_ada', userId],
        [userId, userId],
      ].sort((a, b) => (a[0]! < b[0]! ? -1 : 1)))
      expect((await sdk.guardrails.listKeyAssignments()).result.totalCount).toBe(2)
      expect((await sdk.guardrails.listMemberAssignments()).result.totalCount).toBe(2)

      // A key holds one guardrail: assigning it to another moves it.
      const { data: other } = await sdk.guardrails.create({ createGuardrailRequest: { name: 'Other' } })
      await sdk.guardrails.bulkAssignKeys({ id: other.id, bulkAssignKeysRequest: { keyHashes: [keyHashes[0]!] } })
      expect(sim.guardrails.keyAssignments(guardrail.id).map((a) => a.key_hash)).toEqual([keyHashes[1]])

      expect(await sdk.guardrails.bulkUnassignKeys({ id: guardrail.id, bulkUnassignKeysRequest: { keyHashes: [keyHashes[0]!, keyHashes[1]!] } })).toEqual({ unassignedCount: 1 })
      expect(await sdk.guardrails.bulkUnassignMembers({ id: guardrail.id, bulkUnassignMembersRequest: { memberUserIds: ['user_ada'] } })).toEqual({ unassignedCount: 1 })
      expect(sim.guardrails.memberAssignments(guardrail.id).map((a) => a.user_id)).toEqual([userId])
    })
  })

  describe('tenancy and who may call', () => {
    it("is management only, and another organisation's guardrails, keys and members are absent", () => {
      expect(handle('GET', '/guardrails', undefined, sim.world.apiKey).status).toBe(403)
      expect(handle('POST', '/guardrails', { name: 'x' }, sim.world.apiKey).status).toBe(403)
      const globex = sim.guardrails.create({ userId: sim.world.otherTenant.userId, rules: { name: 'Globex' } })
      for (const [method, path, body] of [
        ['GET', `/guardrails/${globex.id}`],
        ['PATCH', `/guardrails/${globex.id}`, { name: 'mine' }],
        ['DELETE', `/guardrails/${globex.id}`],
        ['GET', `/guardrails/${globex.id}/assignments/keys`],
        ['POST', `/guardrails/${globex.id}/assignments/keys`, { key_hashes: [keyHashes[0]] }],
        ['POST', `/guardrails/${globex.id}/assignments/members/remove`, { member_user_ids: [userId] }],
        ['GET', '/guardrails/not-a-uuid'],
      ] as const) {
        expect(handle(method, path, body).status, `${method} ${path}`).toBe(404)
      }
      const listed = handle('GET', '/guardrails').body as { data: { id: string; workspace_id: string }[]; total_count: number }
      expect(listed.data.every((g) => sim.workspaces.get(g.workspace_id)?.default_guardrail_id === g.id && sim.workspaces.get(g.workspace_id)?.created_by === userId)).toBe(true)
      expect(listed.data.some((g) => g.workspace_id === sim.world.otherTenant.workspaceId)).toBe(false)
      // Listing by another organisation's workspace, or one that does not exist, is a 400 naming it, as GET /keys answers.
      for (const workspace of [sim.world.otherTenant.workspaceId, '00000000-0000-4000-8000-000000000000']) {
        const foreign = sim.handle({ method: 'GET', path: '/guardrails', query: `workspace_id=${workspace}`, authorization: `Bearer ${sim.world.managementKey}` }) as { status: number; body: any }
        expect([foreign.status, foreign.body.error?.metadata?.parameter], workspace).toEqual([400, 'workspace_id'])
      }
      const mine = sim.handle({ method: 'GET', path: '/guardrails', query: `workspace_id=${sim.world.workspaces.production.toUpperCase()}`, authorization: `Bearer ${sim.world.managementKey}` }).body as { data: { workspace_id: string }[] }
      expect(mine.data.map((g) => g.workspace_id)).toEqual([sim.world.workspaces.production])
      const own = sim.guardrails.create({ userId, rules: { name: 'Own' } })
      const globexKey = sim.keys.list().find((k) => k.creator_user_id === sim.world.otherTenant.userId)!.hash
      const refused = handle('POST', `/guardrails/${own.id}/assignments/keys`, { key_hashes: [keyHashes[0], globexKey] })
      expect(refused.status).toBe(400)
      expect(refused.body.error.metadata.parameter).toBe('key_hashes[1]')
      expect(sim.guardrails.keyAssignments(own.id)).toEqual([])
      const created = handle('POST', '/guardrails', { name: 'x', workspace_id: sim.world.otherTenant.workspaceId })
      expect(created.body.error.metadata.parameter).toBe('workspace_id')
    })
  })

  describe('bad input', () => {
    it.each([
      [{}, 'name'],
      [{ name: '' }, 'name'],
      [{ name: 'x', nmae: 'y' }, 'nmae'],
      [{ name: 'x', description: 7 }, 'description'],
      [{ name: 'x', allowed_models: 'a' }, 'allowed_models'],
      [{ name: 'x', allowed_models: ['openai/gpt-9'] }, 'allowed_models[0]'],
      [{ name: 'x', ignored_models: [7] }, 'ignored_models[0]'],
      [{ name: 'x', allowed_providers: ['Nobody Inc'] }, 'allowed_providers[0]'],
      [{ name: 'x', ignored_providers: [''] }, 'ignored_providers[0]'],
      [{ name: 'x', allowed_data_regions: ['mars'] }, 'allowed_data_regions[0]'],
      [{ name: 'x', content_filters: [{ action: 'block' }] }, 'content_filters[0].pattern'],
      [{ name: 'x', content_filters: [{ action: 'shout', pattern: 'a' }] }, 'content_filters[0].action'],
      [{ name: 'x', content_filters: [{ action: 'block', pattern: '(' }] }, 'content_filters[0].pattern'],
      [{ name: 'x', content_filters: [{ action: 'block', pattern: 'a', extra: 1 }] }, 'content_filters[0].extra'],
      [{ name: 'x', content_filters: [{ action: 'flag', pattern: 'a' }, { action: 'block', pattern: '(a+)+$' }] }, 'content_filters[1].pattern'],
      [{ name: 'x', content_filter_builtins: [{ action: 'block', slug: 'dna' }] }, 'content_filter_builtins[0].slug'],
      [{ name: 'x', content_filter_builtins: [{ action: 'block', slug: 'email', scan_scope: 'everything' }] }, 'content_filter_builtins[0].scan_scope'],
      [{ name: 'x', enforce_zdr: 'yes' }, 'enforce_zdr'],
      [{ name: 'x', enforce_zdr_openai: 1 }, 'enforce_zdr_openai'],
      [{ name: 'x', enable_paid_model_training: 'no' }, 'enable_paid_model_training'],
      [{ name: 'x', include_byok_in_budgets: null }, 'include_byok_in_budgets'],
      [{ name: 'x', limit_usd: -0.01 }, 'limit_usd'],
      [{ name: 'x', limit_usd: '5' }, 'limit_usd'],
      [{ name: 'x', reset_interval: 'hourly' }, 'reset_interval'],
      [{ name: 'x', workspace_id: 'production' }, 'workspace_id'],
    ])('refuses %j with a 400 naming %s, making nothing', (body, parameter) => {
      const res = handle('POST', '/guardrails', body)
      expect(res.status).toBe(400)
      expect(res.body.error.metadata.parameter).toBe(parameter)
      expect(res.body.error.message).toContain(parameter)
      expect(sim.guardrails.list()).toEqual(defaults)
    })

    it('refuses a pattern that could backtrack without bound, on the wire and in sim.guardrails', () => {
      const res = handle('POST', '/guardrails', { name: 'x', content_filters: [{ action: 'block', pattern: '(a+)+$' }] })
      expect(res.status).toBe(400)
      expect(res.body.error.metadata.parameter).toBe('content_filters[0].pattern')
      expect(res.body.error.message).toContain('content_filters[0].pattern')
      expect(res.body.error.message).toContain('could backtrack without bound')
      const refused = simulatorErrorOf(() => sim.guardrails.create({ userId, rules: { name: 'x', content_filters: [{ action: 'block', pattern: '(a+)+$' }] } }))
      expect(refused.argument).toBe('rules.content_filters[0].pattern')
      expect(refused.message).toContain('rules.content_filters[0].pattern')
      expect(sim.guardrails.list()).toEqual(defaults)
      expect(sim.guardrails.create({ userId, rules: { name: 'x', content_filters: [{ action: 'block', pattern: '(foo|bar)+' }] } }).content_filters).toEqual([{ action: 'block', pattern: '(foo|bar)+' }])
    })

    it('refuses a bad update naming the field, changing nothing', () => {
      const guardrail = sim.guardrails.create({ userId, rules: { name: 'x', allowed_models: [model] } })
      const res = handle('PATCH', `/guardrails/${guardrail.id}`, { allowed_models: [model, 'openai/gpt-9'] })
      expect(res.body.error.metadata).toMatchObject({ parameter: 'allowed_models[1]', reason: 'names no model of this simulator' })
      expect(handle('PATCH', `/guardrails/${guardrail.id}`, { workspace_id: sim.world.workspaces.production }).body.error.metadata.parameter).toBe('workspace_id')
      expect(sim.guardrails.get(guardrail.id)).toEqual(guardrail)
    })

    it.each([
      ['keys', {}, 'key_hashes'],
      ['keys', { key_hashes: [] }, 'key_hashes'],
      ['keys', { key_hashes: ['nope'] }, 'key_hashes[0]'],
      ['keys/remove', { key_hashes: [1] }, 'key_hashes[0]'],
      ['members', { member_user_ids: 'user_x' }, 'member_user_ids'],
      ['members/remove', { member_user_ids: ['user_nobody'] }, 'member_user_ids[0]'],
      ['members', { member_user_ids: [], extra: true }, 'extra'],
    ])('refuses an assignment body to %s of %j naming %s', (route, body, parameter) => {
      const guardrail = sim.guardrails.create({ userId, rules: { name: 'x' } })
      const res = handle('POST', `/guardrails/${guardrail.id}/assignments/${route}`, body)
      expect(res.status).toBe(400)
      expect(res.body.error.metadata.parameter).toBe(parameter)
    })
  })

  describe('sim.guardrails', () => {
    it('refuses what it cannot make or change, naming the argument, changing nothing', () => {
      const before = JSON.stringify(sim.exportWorld())
      expect(simulatorErrorOf(() => sim.guardrails.create({ userId, rules: { name: 'x', allowed_models: ['openai/gpt-9'] } })).argument).toBe('rules.allowed_models[0]')
      expect(simulatorErrorOf(() => sim.guardrails.create({ userId, rules: { name: 'x', allowed_providers: ['Nobody'] } })).argument).toBe('rules.allowed_providers[0]')
      expect(simulatorErrorOf(() => sim.guardrails.create({ userId: 'user_nobody', rules: { name: 'x' } })).code).toBe(SimulatorErrorCode.UnknownUser)
      expect(simulatorErrorOf(() => sim.guardrails.create({ userId, rules: { name: 'x' }, workspaceId: sim.world.otherTenant.workspaceId })).argument).toBe('workspaceId')
      expect(simulatorErrorOf(() => sim.guardrails.create({ userId, rules: { name: 'x' }, nmae: 1 } as never)).argument).toBe('nmae')
      expect(simulatorErrorOf(() => sim.guardrails.update('00000000-0000-4000-8000-000000000000', {})).code).toBe(SimulatorErrorCode.UnknownGuardrail)
      expect(JSON.stringify(sim.exportWorld())).toBe(before)
      const guardrail = sim.guardrails.create({ userId, rules: { name: 'x' } })
      expect(simulatorErrorOf(() => sim.guardrails.assignKeys(guardrail.id, [keyHashes[0]!, 'nope'])).argument).toBe('keyHashes[1]')
      expect(simulatorErrorOf(() => sim.guardrails.assignMembers(guardrail.id, ['user_nobody'])).argument).toBe('memberIds[0]')
      expect(simulatorErrorOf(() => sim.guardrails.update(guardrail.id, { limit_usd: -1 })).argument).toBe('rules.limit_usd')
      expect(sim.guardrails.keyAssignments(guardrail.id)).toEqual([])
    })

    it('drops the assignments of a deleted key and a removed member from the lists', () => {
      sim.members.add({ userId, id: 'user_ada' })
      const guardrail = sim.guardrails.create({ userId, rules: { name: 'x' } })
      const key = sim.keys.create({ userId })
      sim.guardrails.assignKeys(guardrail.id, [key.record.hash])
      sim.guardrails.assignMembers(guardrail.id, ['user_ada'])
      sim.keys.delete(key.record.hash)
      sim.members.remove(userId, 'user_ada')
      expect(sim.guardrails.keyAssignments(guardrail.id)).toEqual([])
      expect(sim.guardrails.memberAssignments(guardrail.id)).toEqual([])
      expect(sim.exportWorld().guardrails?.[0]).not.toHaveProperty('keys')
    })

    it('is restored by a snapshot and reset, and travels in an exported world with its assignments', () => {
      const saved = sim.snapshot()
      sim.members.add({ userId, id: 'user_ada' })
      const guardrail = sim.guardrails.create({ userId, rules: { name: 'x', allowed_models: [model], limit_usd: 1.25, reset_interval: 'weekly', content_filters: [{ action: 'flag', pattern: 'secret', label: null }] } })
      sim.guardrails.assignKeys(guardrail.id, [keyHashes[0]!])
      sim.guardrails.assignMembers(guardrail.id, ['user_ada'])
      sim.clock.advance(5000)
      sim.guardrails.update(guardrail.id, { name: 'y' })
      const spec = sim.exportWorld()
      const copy = createSimulator({ world: JSON.parse(JSON.stringify(spec)) })
      expect(copy.guardrails.list()).toEqual(sim.guardrails.list())
      expect(copy.guardrails.keyAssignments(guardrail.id)).toEqual(sim.guardrails.keyAssignments(guardrail.id))
      expect(copy.guardrails.memberAssignments(guardrail.id)).toEqual(sim.guardrails.memberAssignments(guardrail.id))
      expect(copy.exportWorld().guardrails).toEqual(spec.guardrails)

      sim.restore(saved)
      expect(sim.guardrails.list()).toEqual(defaults)
      sim.guardrails.create({ userId, rules: { name: 'z' } })
      sim.reset()
      expect(sim.guardrails.list()).toEqual(defaults)
    })

    it('reports a bad world guardrail by its path', () => {
      const world = sim.exportWorld()
      const bad = (guardrail: object) => simulatorErrorOf(() => createSimulator({ world: { ...world, guardrails: [guardrail as never] } })).argument
      expect(bad({ userId, rules: { name: 'x', reset_interval: 'hourly' } })).toBe('world.guardrails[0].rules.reset_interval')
      expect(bad({ userId, rules: { name: 'x' }, keys: [{ keyHash: 'nope' }] })).toBe('world.guardrails[0].keys[0].keyHash')
      expect(bad({ userId, rules: { name: 'x' }, members: [{ memberId: 'user_nobody' }] })).toBe('world.guardrails[0].members[0].memberId')
    })

    it('is created, changed and deleted through the control API', () => {
      const control = createControlApi(sim)
      const created = control.handle({ method: 'POST', path: '/guardrails', query: new URLSearchParams(), body: JSON.stringify({ userId, rules: { name: 'x' } }) }) as { status: number; body: { id: string } }
      expect(created.status).toBe(201)
      const changed = control.handle({ method: 'PATCH', path: `/guardrails/${created.body.id}`, query: new URLSearchParams(), body: JSON.stringify({ limit_usd: 3 }) })
      expect(changed).toMatchObject({ status: 200, body: { limit_usd: 3 } })
      const exported = control.handle({ method: 'GET', path: '/world/export', query: new URLSearchParams(), body: null }) as { parts: Iterable<string> }
      expect([...exported.parts].join('')).toBe(JSON.stringify(sim.exportWorld()))
      expect(control.handle({ method: 'DELETE', path: `/guardrails/${created.body.id}`, query: new URLSearchParams(), body: null }).status).toBe(204)
      expect(control.handle({ method: 'DELETE', path: `/guardrails/${created.body.id}`, query: new URLSearchParams(), body: null }).status).toBe(404)
    })
  })
})
