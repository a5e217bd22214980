import { beforeEach, describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { callJson, useSimulatorServer } from '../support/server.js'

const harness = useSimulatorServer()

describe('GET /workspaces/{id}', () => {
  let sim: ReturnType<typeof createSimulator>
  beforeEach(() => {
    sim = createSimulator()
    harness.serve(sim)
  })

  it('reads a workspace by UUID and by slug, the same record', async () => {
    const byId = await callJson(`/workspaces/${sim.world.workspaces.production}`, { key: sim.world.managementKey })
    const bySlug = await callJson('/workspaces/production', { key: sim.world.managementKey })
    expect(byId.status).toBe(200)
    expect(bySlug.body).toEqual(byId.body)
    expect(byId.body.data).toEqual(sim.workspaces.get(sim.world.workspaces.production))
  })

  it('reads a workspace by UUID in upper case', async () => {
    const { status, body } = await callJson(`/workspaces/${sim.world.workspaces.staging.toUpperCase()}`, { key: sim.world.managementKey })
    expect(status).toBe(200)
    expect(body.data.slug).toBe('staging')
  })

  it('reads the default workspace by its slug', async () => {
    const { body } = await callJson('/workspaces/default', { key: sim.world.managementKey })
    expect(body.data.id).toBe(sim.world.workspaces.default)
  })

  it("resolves a slug within the caller's organisation only", async () => {
    // Both organisations have a workspace with slug "production".
    const acme = await callJson('/workspaces/production', { key: sim.world.managementKey })
    const globex = await callJson('/workspaces/production', { key: sim.world.otherTenant.managementKey })
    expect(acme.body.data.id).toBe(sim.world.workspaces.production)
    expect(globex.body.data.id).toBe(sim.world.otherTenant.workspaceId)
  })

  it("answers 404, never 403, for another tenant's workspace UUID", async () => {
    const { status, body } = await callJson(`/workspaces/${sim.world.otherTenant.workspaceId}`, { key: sim.world.managementKey })
    expect(status).toBe(404)
    expect(body).toEqual({ error: { code: 404, message: 'Resource not found', metadata: { resource: 'workspace' } }, user_id: sim.world.userId })
  })

  it.each(['nope', '00000000-0000-4000-8000-000000000000', ''])('answers 404 for unknown id %j', async (id) => {
    const { status } = await callJson(`/workspaces/${id}`, { key: sim.world.managementKey })
    expect(status).toBe(404)
  })
})
