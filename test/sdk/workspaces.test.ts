// Workspaces through the official SDK over MSW: sdk.workspaces.list/create/update/delete/get make
// the state transitions of decisions/0022, every answer parsed by the SDK's own schemas.
import { OpenRouter } from '@openrouter/sdk'
import { BadRequestResponseError, NotFoundResponseError } from '@openrouter/sdk/models/errors'
import { beforeEach, describe, expect, it } from 'vitest'
import { type Workspace, createSimulator } from '../../src/index.js'
import { failureOf, sdkClient, useSimulatorServer } from '../support/server.js'

const sim = createSimulator()
const server = useSimulatorServer()
const world = sim.world

beforeEach(() => {
  sim.reset()
  server.serve(sim)
})

const sdkFor = (secret: string): OpenRouter => sdkClient(secret)
const management = (): OpenRouter => sdkFor(world.managementKey)

/** The wire record as the SDK hands it back: camelCase keys. */
function camel(record: Workspace): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()), structuredClone(value)]))
}

const ownIds = (): string[] => sim.workspaces.list().filter((w) => w.created_by === world.userId).map((w) => w.id)

describe('sdk.workspaces over MSW', () => {
  it('lists the organisation oldest first with totalCount, and pages through next() with a small limit', async () => {
    for (let i = 0; i < 5; i++) sim.workspaces.create({ userId: world.userId, name: `Team ${i}`, createdAt: Date.UTC(2026, 0, 1, 0, 0, i) })
    const expected = ownIds()
    const first = await management().workspaces.list()
    expect(first.result.totalCount).toBe(expected.length)
    expect(first.result.data.map((w) => w.id)).toEqual(expected)
    expect(first.result.data).toEqual(expected.map((id) => camel(sim.workspaces.get(id) as Workspace)))

    const seen: string[] = []
    let pages = 0
    for await (const page of await management().workspaces.list({ limit: 2 })) {
      pages++
      expect(page.result.totalCount).toBe(expected.length)
      seen.push(...page.result.data.map((w) => w.id))
    }
    expect(seen).toEqual(expected)
    expect(pages).toBe(Math.floor(expected.length / 2) + 1)

    const tail = await management().workspaces.list({ offset: expected.length - 1, limit: 100 })
    expect(tail.result.data.map((w) => w.id)).toEqual(expected.slice(-1))
  })

  it('creates, reads by id and slug, renames, re-slugs and deletes a workspace; 404 after', async () => {
    const sdk = management()
    const created = await sdk.workspaces.create({
      createWorkspaceRequest: { name: 'Research Lab', slug: 'research-lab', description: 'Experiments', defaultTextModel: 'openai/gpt-4o', ioLoggingSamplingRate: 0.5, disabledServerTools: ['openrouter:web_search'] },
    })
    expect(created.data).toMatchObject({ name: 'Research Lab', slug: 'research-lab', description: 'Experiments', defaultTextModel: 'openai/gpt-4o', ioLoggingSamplingRate: 0.5, updatedAt: null })
    const id = created.data.id
    expect(camel(sim.workspaces.get(id) as Workspace)).toEqual(created.data)
    expect((await sdk.workspaces.get({ id })).data).toEqual(created.data)
    expect((await sdk.workspaces.get({ id: 'research-lab' })).data).toEqual(created.data)
    expect((await sdk.workspaces.list()).result.data.at(-1)).toEqual(created.data)

    sim.clock.advance(60_000)
    const renamed = await sdk.workspaces.update({ id: 'research-lab', updateWorkspaceRequest: { name: 'Lab', slug: 'lab', description: null, isObservabilityBroadcastEnabled: true } })
    expect(renamed.data).toEqual({ ...created.data, name: 'Lab', slug: 'lab', description: null, isObservabilityBroadcastEnabled: true, updatedAt: '2026-03-02T10:01:00.000000+00:00' })
    expect((await sdk.workspaces.get({ id: 'lab' })).data).toEqual(renamed.data)
    expect(await failureOf(sdk.workspaces.get({ id: 'research-lab' }))).toBeInstanceOf(NotFoundResponseError)

    expect(await sdk.workspaces.delete({ id })).toEqual({ deleted: true })
    expect(sim.workspaces.get(id)).toBeUndefined()
    for (const call of [sdk.workspaces.get({ id }), sdk.workspaces.get({ id: 'lab' }), sdk.workspaces.update({ id, updateWorkspaceRequest: { name: 'Back' } }), sdk.workspaces.delete({ id })]) {
      expect(await failureOf(call)).toBeInstanceOf(NotFoundResponseError)
    }
    expect((await sdk.workspaces.list()).result.data.map((w) => w.id)).not.toContain(id)
  })

  it('deletes the default workspace with confirmDefaultWorkspaceDeletion, after which apiKeys.list needs a workspaceId', async () => {
    const org = sim.users.create({ name: 'Initech' })
    const ops = sim.workspaces.create({ userId: org.id, name: 'Ops' })
    const admin = sdkFor(sim.keys.create({ userId: org.id, workspaceId: ops.id, management: true }).key)
    const refused = await failureOf(admin.workspaces.delete({ id: 'default' }))
    expect(refused).toBeInstanceOf(BadRequestResponseError)
    expect((refused as BadRequestResponseError).data$.error.metadata).toMatchObject({ parameter: 'confirm_default_workspace_deletion' })
    expect(await admin.workspaces.delete({ id: 'default', confirmDefaultWorkspaceDeletion: true })).toEqual({ deleted: true })
    const keys = await failureOf(admin.apiKeys.list())
    expect(keys).toBeInstanceOf(BadRequestResponseError)
    expect((keys as BadRequestResponseError).data$.error.metadata).toMatchObject({ parameter: 'workspace_id' })
    expect((await admin.apiKeys.list({ workspaceId: ops.id })).data).toEqual([])
  })

  it('refuses a duplicate slug on create and on update as BadRequestResponseError naming slug, changing nothing', async () => {
    const before = sim.exportWorld()
    for (const call of [
      management().workspaces.create({ createWorkspaceRequest: { name: 'Again', slug: 'staging' } }),
      management().workspaces.update({ id: 'production', updateWorkspaceRequest: { slug: 'staging' } }),
    ]) {
      const error = await failureOf(call)
      expect(error).toBeInstanceOf(BadRequestResponseError)
      expect((error as BadRequestResponseError).data$.error.metadata).toMatchObject({ parameter: 'slug', value: '"staging"' })
    }
    expect(sim.exportWorld()).toEqual(before)
  })

  it("answers 404 for another organisation's workspace on get, update and delete", async () => {
    for (const call of [
      management().workspaces.get({ id: world.otherTenant.workspaceId }),
      management().workspaces.update({ id: world.otherTenant.workspaceId, updateWorkspaceRequest: { name: 'Ours' } }),
      management().workspaces.delete({ id: world.otherTenant.workspaceId, confirmDefaultWorkspaceDeletion: true }),
    ]) {
      expect(await failureOf(call)).toBeInstanceOf(NotFoundResponseError)
    }
    expect((await management().workspaces.list()).result.data.map((w) => w.id)).not.toContain(world.otherTenant.workspaceId)
  })
})
