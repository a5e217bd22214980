// Members (decisions/0051): an organisation's users with a role, and their places in its workspaces,
// read and changed through the official SDK and sim.handle, kept by snapshots and world specs.
import { beforeEach, describe, expect, it } from 'vitest'
import { createSimulator, SimulatorErrorCode } from '../../src/index.js'
import { createControlApi } from '../../src/core/control-api.js'
import { sdkClient, simulatorErrorOf, useSimulatorServer } from '../support/server.js'

const harness = useSimulatorServer()

describe('members', () => {
  let sim: ReturnType<typeof createSimulator>
  let userId: string
  let production: string
  beforeEach(() => {
    sim = createSimulator()
    harness.serve(sim)
    userId = sim.world.userId
    production = sim.world.workspaces.production
  })

  const handle = (method: string, path: string, body?: unknown, secret = sim.world.managementKey) =>
    sim.handle({ method, path, authorization: `Bearer ${secret}`, ...(body !== undefined && { body: JSON.stringify(body) }) }) as { status: number; body: any }

  describe('through the official SDK', () => {
    it('lists the owner and the members of the organisation, and adds, lists and removes members of a workspace', async () => {
      sim.members.add({ userId, id: 'user_ada', email: 'ada@acme.example', firstName: 'Ada', lastName: 'Lovelace', role: 'admin' })
      sim.members.add({ userId, id: 'user_bob' })
      const sdk = sdkClient(sim.world.managementKey)

      const org = await sdk.organization.listMembers()
      expect(org.result.totalCount).toBe(3)
      expect(org.result.data.map((m) => [m.id, m.role])).toEqual([
        [userId, 'org:admin'],
        ['user_ada', 'org:admin'],
        ['user_bob', 'org:member'],
      ])
      expect(org.result.data[1]).toMatchObject({ email: 'ada@acme.example', firstName: 'Ada', lastName: 'Lovelace' })
      expect(org.result.data[2]).toMatchObject({ email: 'user_bob@example.com', firstName: null, lastName: null })

      const added = await sdk.workspaces.bulkAddMembers({ id: production, bulkAddWorkspaceMembersRequest: { userIds: ['user_ada', 'user_bob', 'user_ada'] } })
      expect(added.addedCount).toBe(2)
      expect(added.data.map((m) => [m.userId, m.role, m.workspaceId])).toEqual([
        ['user_ada', 'admin', production],
        ['user_bob', 'member', production],
      ])
      // One already there is left as it is and not counted; the workspace's slug names it too.
      const again = await sdk.workspaces.bulkAddMembers({ id: 'production', bulkAddWorkspaceMembersRequest: { userIds: ['user_ada'] } })
      expect(again).toEqual({ addedCount: 0, data: [] })

      const listed = await sdk.workspaces.listMembers({ id: production })
      expect(listed.result.totalCount).toBe(2)
      expect(listed.result.data.map((m) => m.id)).toEqual(added.data.map((m) => m.id))
      const paged = await sdk.workspaces.listMembers({ id: production, offset: 1, limit: 1 })
      expect(paged.result.data.map((m) => m.userId)).toEqual(['user_bob'])

      const removed = await sdk.workspaces.bulkRemoveMembers({ id: production, bulkRemoveWorkspaceMembersRequest: { userIds: ['user_bob', userId] } })
      expect(removed.removedCount).toBe(1)
      expect(sim.members.ofWorkspace(production).map((m) => m.user_id)).toEqual(['user_ada'])
    })
  })

  describe('tenancy and who may call', () => {
    it("is management only, and another organisation's workspace and members are absent", () => {
      expect(handle('GET', '/organization/members', undefined, sim.world.apiKey).status).toBe(403)
      expect(handle('GET', `/workspaces/${production}/members`, undefined, sim.world.apiKey).status).toBe(403)
      const other = sim.world.otherTenant
      expect(handle('GET', `/workspaces/${other.workspaceId}/members`).status).toBe(404)
      expect(handle('POST', `/workspaces/${other.workspaceId}/members/add`, { user_ids: [userId] }).status).toBe(404)
      // Globex's owner is no member of Acme.
      const refused = handle('POST', `/workspaces/${production}/members/add`, { user_ids: [userId, other.userId] })
      expect(refused.status).toBe(400)
      expect(refused.body.error.metadata).toMatchObject({ parameter: 'user_ids[1]', reason: 'is not a member of the organisation' })
      expect(sim.members.ofWorkspace(production)).toEqual([])
      const globex = handle('GET', '/organization/members', undefined, other.managementKey)
      expect(globex.body.data.map((m: { id: string }) => m.id)).toEqual([other.userId])
    })
  })

  describe('bad input', () => {
    it.each([
      [{}, 'user_ids', 'is required: the user ids of members of the organisation'],
      [{ user_ids: 'user_ada' }, 'user_ids', 'must be an array'],
      [{ user_ids: [] }, 'user_ids', 'must have at least 1 element'],
      [{ user_ids: [7] }, 'user_ids[0]', 'must be a user id such as "user_2dHFtVWx2n56w6HkM0000000000"'],
      [{ user_ids: [''] }, 'user_ids[0]', 'must be a user id such as "user_2dHFtVWx2n56w6HkM0000000000"'],
      [{ user_ids: ['user_x'], role: 'admin' }, 'role', undefined],
      [{ user_ids: Array.from({ length: 101 }, () => 'user_x') }, 'user_ids', 'must have at most 100 elements'],
    ])('refuses %j with a 400 naming %s', (body, parameter, reason) => {
      for (const route of ['add', 'remove']) {
        const res = handle('POST', `/workspaces/${production}/members/${route}`, body)
        expect(res.status).toBe(400)
        expect(res.body.error.metadata.parameter).toBe(parameter)
        if (reason !== undefined) expect(res.body.error.metadata.reason).toBe(reason)
      }
    })

    it('keeps a member with an active key of the workspace, and lets it go once the key is disabled', () => {
      sim.members.add({ userId, id: 'user_ada', workspaces: [{ workspaceId: production }] })
      const key = sim.keys.create({ userId, workspaceId: production, creatorUserId: 'user_ada' })
      const refused = handle('POST', `/workspaces/${production}/members/remove`, { user_ids: ['user_ada'] })
      expect(refused.status).toBe(400)
      expect(refused.body.error.metadata.parameter).toBe('user_ids')
      expect(sim.members.ofWorkspace(production)).toHaveLength(1)
      sim.keys.update(key.record.hash, { disabled: true })
      expect(handle('POST', `/workspaces/${production}/members/remove`, { user_ids: ['user_ada'] }).body).toEqual({ removed_count: 1 })
    })
  })

  describe('sim.members', () => {
    it('refuses what it cannot add or remove, changing nothing', () => {
      const before = JSON.stringify(sim.exportWorld())
      expect(simulatorErrorOf(() => sim.members.add({ userId, id: userId })).code).toBe(SimulatorErrorCode.DuplicateId)
      expect(simulatorErrorOf(() => sim.members.add({ userId: 'user_nobody' })).code).toBe(SimulatorErrorCode.UnknownUser)
      expect(simulatorErrorOf(() => sim.members.add({ userId, id: 'ada' })).argument).toBe('id')
      expect(simulatorErrorOf(() => sim.members.add({ userId, role: 'owner' as never })).argument).toBe('role')
      expect(simulatorErrorOf(() => sim.members.add({ userId, email: 'no-at-sign' })).argument).toBe('email')
      expect(simulatorErrorOf(() => sim.members.add({ userId, emial: 'x' } as never)).argument).toBe('emial')
      expect(simulatorErrorOf(() => sim.members.add({ userId, workspaces: [{ workspaceId: sim.world.otherTenant.workspaceId }] })).argument).toBe('workspaces[0].workspaceId')
      expect(simulatorErrorOf(() => sim.members.addToWorkspace(production, ['user_nobody'])).code).toBe(SimulatorErrorCode.UnknownMember)
      expect(simulatorErrorOf(() => sim.members.remove(userId, userId)).argument).toBe('memberId')
      expect(simulatorErrorOf(() => sim.members.remove(userId, 'user_nobody')).code).toBe(SimulatorErrorCode.UnknownMember)
      expect(JSON.stringify(sim.exportWorld())).toBe(before)

      sim.members.add({ userId, id: 'user_ada', workspaces: [{ workspaceId: production }] })
      const key = sim.keys.create({ userId, creatorUserId: 'user_ada' })
      expect(simulatorErrorOf(() => sim.members.remove(userId, 'user_ada')).code).toBe(SimulatorErrorCode.MemberHasKeys)
      sim.keys.delete(key.record.hash)
      sim.members.remove(userId, 'user_ada')
      expect(sim.members.get(userId, 'user_ada')).toBeUndefined()
      expect(sim.members.ofWorkspace(production)).toEqual([])
    })

    it('is restored by a snapshot and reset, and travels in an exported world with its workspaces', () => {
      const saved = sim.snapshot()
      sim.members.add({ userId, id: 'user_ada', firstName: 'Ada', workspaces: [{ workspaceId: production }] })
      sim.members.addToWorkspace(sim.world.workspaces.staging, ['user_ada', userId])
      const spec = sim.exportWorld()
      const copy = createSimulator({ world: JSON.parse(JSON.stringify(spec)) })
      expect(copy.members.list(userId)).toEqual(sim.members.list(userId))
      expect(copy.members.ofWorkspace(sim.world.workspaces.staging)).toEqual(sim.members.ofWorkspace(sim.world.workspaces.staging))
      expect(copy.exportWorld().members).toEqual(spec.members)

      sim.restore(saved)
      expect(sim.members.list(userId).map((m) => m.id)).toEqual([userId])
      expect(sim.members.ofWorkspace(sim.world.workspaces.staging)).toEqual([])
      sim.members.add({ userId, id: 'user_bob' })
      sim.reset()
      expect(sim.members.get(userId, 'user_bob')).toBeUndefined()
    })

    it('leaves a deleted workspace without places, the members still members', () => {
      const workspace = sim.workspaces.create({ userId, name: 'Scratch', slug: 'scratch' })
      sim.members.add({ userId, id: 'user_ada', workspaces: [{ workspaceId: workspace.id }] })
      sim.workspaces.delete(workspace.id)
      expect(sim.members.get(userId, 'user_ada')).toBeDefined()
      expect([...JSON.stringify(sim.exportWorld().members)].join('')).not.toContain(workspace.id)
    })

    it('reports a bad world member by its path', () => {
      const world = sim.exportWorld()
      const error = simulatorErrorOf(() => createSimulator({ world: { ...world, members: [{ userId, id: 'user_ada', workspaces: [{ workspaceId: 'nope' }] }] } }))
      expect(error.argument).toBe('world.members[0].workspaces[0].workspaceId')
    })

    it('is added and removed through the control API', () => {
      const control = createControlApi(sim)
      const created = control.handle({ method: 'POST', path: '/members', query: new URLSearchParams(), body: JSON.stringify({ userId, id: 'user_ada' }) })
      expect(created).toMatchObject({ status: 201, body: { id: 'user_ada', role: 'org:member' } })
      const exported = control.handle({ method: 'GET', path: '/world/export', query: new URLSearchParams(), body: null }) as { parts: Iterable<string> }
      expect([...exported.parts].join('')).toBe(JSON.stringify(sim.exportWorld()))
      expect(control.handle({ method: 'DELETE', path: `/members/${userId}/user_ada`, query: new URLSearchParams(), body: null }).status).toBe(204)
      expect(control.handle({ method: 'DELETE', path: `/members/${userId}/user_ada`, query: new URLSearchParams(), body: null }).status).toBe(404)
    })
  })
})
