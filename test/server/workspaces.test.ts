// Workspaces over real HTTP (decisions/0022): the node:http server hands JSON bodies and the
// DELETE query to the operations, and answers their statuses, as curl and other languages see them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { type SimulatorServer, startServer } from '../../src/server/index.js'

const sim = createSimulator()
let server: SimulatorServer

beforeAll(async () => {
  server = await startServer(sim, { port: 0 })
})
afterAll(async () => {
  await server.close()
})

const auth = { authorization: `Bearer ${sim.world.managementKey}` }
const json = { ...auth, 'content-type': 'application/json' }

describe('workspaces through startServer', () => {
  it('creates, lists, renames and deletes a workspace', async () => {
    const created = await fetch(`${server.url}/workspaces`, { method: 'POST', headers: json, body: JSON.stringify({ name: 'Lab', slug: 'lab' }) })
    expect(created.status).toBe(201)
    expect(created.headers.get('content-type')).toBe('application/json')
    const { data } = (await created.json()) as { data: { id: string; slug: string } }
    expect(sim.workspaces.get(data.id)?.slug).toBe('lab')

    const page = (await (await fetch(`${server.url}/workspaces?offset=0&limit=100`, { headers: auth })).json()) as { data: { id: string }[]; total_count: number }
    expect(page.data.at(-1)?.id).toBe(data.id)
    expect(page.total_count).toBe(page.data.length)

    const patched = await fetch(`${server.url}/workspaces/lab`, { method: 'PATCH', headers: json, body: JSON.stringify({ slug: 'playground' }) })
    expect(patched.status).toBe(200)
    expect(((await patched.json()) as { data: { slug: string } }).data.slug).toBe('playground')

    const deleted = await fetch(`${server.url}/workspaces/playground`, { method: 'DELETE', headers: auth })
    expect(deleted.status).toBe(200)
    expect(await deleted.json()).toEqual({ deleted: true })
    expect(sim.workspaces.get(data.id)).toBeUndefined()
  })

  it('refuses a form-encoded body and a malformed one naming body, and a DELETE of the default without the flag', async () => {
    const before = sim.exportWorld()
    const form = await fetch(`${server.url}/workspaces`, { method: 'POST', headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' }, body: 'name=Lab&slug=lab' })
    expect(form.status).toBe(400)
    expect(((await form.json()) as { error: { metadata: { parameter: string } } }).error.metadata.parameter).toBe('body')
    const broken = await fetch(`${server.url}/workspaces/staging`, { method: 'PATCH', headers: json, body: '{"name":' })
    expect(broken.status).toBe(400)
    expect(((await broken.json()) as { error: { metadata: { parameter: string } } }).error.metadata.parameter).toBe('body')
    const unconfirmed = await fetch(`${server.url}/workspaces/default`, { method: 'DELETE', headers: auth })
    expect(unconfirmed.status).toBe(400)
    expect(((await unconfirmed.json()) as { error: { metadata: { parameter: string } } }).error.metadata.parameter).toBe('confirm_default_workspace_deletion')
    expect(sim.exportWorld()).toEqual(before)
  })
})
