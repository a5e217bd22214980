// After an organisation deletes its default workspace (decisions/0022), a key made over the wire
// without `workspace_id` is a 400 naming it, as GET /keys without one is, and nothing is made.
import { describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'

describe('POST /keys in an organisation without a default workspace', () => {
  it('refuses a key without workspace_id, naming it, and makes one with it', () => {
    const sim = createSimulator({ world: 'empty' })
    const org = sim.users.create({ name: 'Acme' })
    const staging = sim.workspaces.create({ userId: org.id, name: 'Staging' })
    const admin = sim.keys.create({ userId: org.id, management: true, workspaceId: staging.id })
    const auth = `Bearer ${admin.key}`
    const deleted = sim.handle({ method: 'DELETE', path: `/workspaces/${org.defaultWorkspaceId}`, query: 'confirm_default_workspace_deletion=true', authorization: auth })
    expect(deleted.status).toBe(200)
    const before = JSON.stringify(sim.exportWorld())
    const refused = sim.handle({ method: 'POST', path: '/keys', authorization: auth, body: '{"name":"app"}' })
    expect(refused.status).toBe(400)
    expect((refused.body as { error: { metadata: { parameter: string } } }).error.metadata.parameter).toBe('workspace_id')
    expect(JSON.stringify(sim.exportWorld())).toBe(before)
    const made = sim.handle({ method: 'POST', path: '/keys', authorization: auth, body: JSON.stringify({ name: 'app', workspace_id: staging.id }) })
    expect(made.status).toBe(201)
  })
})
