import { beforeEach, describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { callJson, useSimulatorServer } from '../support/server.js'

const harness = useSimulatorServer()

/** An organisation with `count` regular keys, created one second apart, and a management key. */
function orgWithKeys(count: number, options: { disabledEvery?: number } = {}) {
  const sim = createSimulator({ world: 'empty', now: '2026-03-02T10:00:00Z' })
  const org = sim.users.create({ name: 'Paging Co' })
  const admin = sim.keys.create({ userId: org.id, management: true })
  const start = Date.parse('2026-01-01T00:00:00Z')
  for (let i = 0; i < count; i++) {
    const disabled = options.disabledEvery !== undefined && i % options.disabledEvery === 0
    sim.keys.create({ userId: org.id, name: `key ${i}`, createdAt: start + i * 1000, disabled })
  }
  harness.serve(sim)
  return { sim, org, admin: admin.key }
}

describe('GET /keys paging', () => {
  it.each([
    [100, [100, 0]],
    [101, [100, 1, 0]],
    [250, [100, 100, 50, 0]],
  ])('pages %i keys into pages of %j', async (count, sizes) => {
    const { admin } = orgWithKeys(count)
    const seen: string[] = []
    for (const [page, size] of sizes.entries()) {
      const { status, body } = await callJson('/keys', { key: admin, query: { offset: String(page * 100) } })
      expect(status).toBe(200)
      expect(body.data).toHaveLength(size)
      seen.push(...body.data.map((k: { name: string }) => k.name))
    }
    // Newest first, every key exactly once, no management key.
    expect(seen).toEqual(Array.from({ length: count }, (_, i) => `key ${count - 1 - i}`))
  })

  it('lists the next 100 keys after offset 100, newest first', async () => {
    const { admin } = orgWithKeys(250)
    const { body } = await callJson('/keys', { key: admin, query: { offset: '100' } })
    expect(body.data[0].name).toBe('key 149')
    expect(body.data[99].name).toBe('key 50')
  })

  it('orders keys created at the same instant by hash', async () => {
    const sim = createSimulator({ world: 'empty' })
    const org = sim.users.create()
    const admin = sim.keys.create({ userId: org.id, management: true })
    for (let i = 0; i < 20; i++) sim.keys.create({ userId: org.id, createdAt: '2026-01-01T00:00:00Z' })
    harness.serve(sim)
    const { body } = await callJson('/keys', { key: admin.key })
    const hashes = body.data.map((k: { hash: string }) => k.hash)
    expect(hashes).toEqual([...hashes].sort())
  })

  it('keeps page order when keys are created out of time order', async () => {
    const sim = createSimulator({ world: 'empty' })
    const org = sim.users.create()
    const admin = sim.keys.create({ userId: org.id, management: true })
    for (const day of [5, 1, 9, 3, 7, 2]) sim.keys.create({ userId: org.id, name: `day ${day}`, createdAt: `2026-01-0${day}T00:00:00Z` })
    harness.serve(sim)
    const { body } = await callJson('/keys', { key: admin.key })
    expect(body.data.map((k: { name: string }) => k.name)).toEqual(['day 9', 'day 7', 'day 5', 'day 3', 'day 2', 'day 1'])
  })

  it('returns an empty page past the end', async () => {
    const { admin } = orgWithKeys(5)
    const { status, body } = await callJson('/keys', { key: admin, query: { offset: '5000' } })
    expect(status).toBe(200)
    expect(body.data).toEqual([])
  })
})

describe('GET /keys include_disabled', () => {
  it('leaves disabled keys out by default and with include_disabled=false', async () => {
    const { admin } = orgWithKeys(30, { disabledEvery: 3 })
    for (const query of [{}, { include_disabled: 'false' }]) {
      const { body } = await callJson('/keys', { key: admin, query })
      expect(body.data).toHaveLength(20)
      expect(body.data.every((k: { disabled: boolean }) => !k.disabled)).toBe(true)
    }
  })

  it('includes disabled keys with include_disabled=true', async () => {
    const { admin } = orgWithKeys(30, { disabledEvery: 3 })
    const { body } = await callJson('/keys', { key: admin, query: { include_disabled: 'true' } })
    expect(body.data).toHaveLength(30)
    expect(body.data.filter((k: { disabled: boolean }) => k.disabled)).toHaveLength(10)
  })

  it('applies the offset after filtering disabled keys', async () => {
    const { admin } = orgWithKeys(300, { disabledEvery: 2 })
    const { body } = await callJson('/keys', { key: admin, query: { offset: '100' } })
    expect(body.data).toHaveLength(50)
    expect(body.data[0].name).toBe('key 99')
  })
})

describe('GET /keys workspace filter', () => {
  let sim: ReturnType<typeof createSimulator>
  beforeEach(() => {
    sim = createSimulator()
    harness.serve(sim)
  })

  it('lists the default workspace when no workspace_id is given', async () => {
    const { body } = await callJson('/keys', { key: sim.world.managementKey, query: { include_disabled: 'true' } })
    expect(body.data.length).toBeGreaterThan(0)
    expect(body.data.every((k: { workspace_id: string }) => k.workspace_id === sim.world.workspaces.default)).toBe(true)
  })

  it('lists only the keys of the workspace named by workspace_id', async () => {
    const production = sim.world.workspaces.production
    const { body } = await callJson('/keys', { key: sim.world.managementKey, query: { workspace_id: production, include_disabled: 'true' } })
    const expected = sim.keys.list().filter((k) => k.workspace_id === production && k.name !== 'Provisioning (Terraform)')
    expect(body.data.map((k: { hash: string }) => k.hash).sort()).toEqual(expected.map((k) => k.hash).sort())
  })

  it('accepts a workspace UUID in upper case', async () => {
    const { status, body } = await callJson('/keys', { key: sim.world.managementKey, query: { workspace_id: sim.world.workspaces.staging.toUpperCase() } })
    expect(status).toBe(200)
    expect(body.data.every((k: { workspace_id: string }) => k.workspace_id === sim.world.workspaces.staging)).toBe(true)
  })

  it('does not list management keys', async () => {
    const { body } = await callJson('/keys', { key: sim.world.managementKey, query: { include_disabled: 'true' } })
    expect(body.data.some((k: { name: string }) => k.name === 'Provisioning (Terraform)')).toBe(false)
  })
})

describe('GET /keys bad query values', () => {
  let sim: ReturnType<typeof createSimulator>
  beforeEach(() => {
    sim = createSimulator()
    harness.serve(sim)
  })

  it.each([
    ['offset', '-1', 'must be a non-negative integer'],
    ['offset', '1.5', 'must be a non-negative integer'],
    ['offset', 'abc', 'must be a non-negative integer'],
    ['offset', '', 'must be a non-negative integer'],
    ['offset', '99999999999999999999', 'must be a non-negative integer'],
    // Forms Number() reads as whole numbers, which are not decimal digits only.
    ['offset', '1e3', 'must be a non-negative integer'],
    ['offset', '0x10', 'must be a non-negative integer'],
    ['offset', '12 ', 'must be a non-negative integer'],
    ['include_disabled', 'yes', 'must be "true" or "false"'],
    ['include_disabled', 'TRUE', 'must be "true" or "false"'],
    ['include_disabled', '1', 'must be "true" or "false"'],
    ['workspace_id', 'not-a-uuid', 'must be a UUID'],
    ['workspace_id', '00000000-0000-4000-8000-000000000000', 'is not a workspace of the caller'],
  ])('answers 400 naming %s for %j', async (parameter, value, reason) => {
    const { status, body } = await callJson('/keys', { key: sim.world.managementKey, query: { [parameter]: value } })
    expect(status).toBe(400)
    expect(body).toEqual({
      error: { code: 400, message: 'Invalid request parameters', metadata: { parameter, reason, value } },
      user_id: sim.world.userId,
    })
  })

  it("answers 400 for another tenant's workspace, the same as an unknown one", async () => {
    const { status, body } = await callJson('/keys', { key: sim.world.managementKey, query: { workspace_id: sim.world.otherTenant.workspaceId } })
    expect(status).toBe(400)
    expect(body.error.metadata.reason).toBe('is not a workspace of the caller')
  })

  it('answers 400 for a parameter given twice', async () => {
    const { status, body } = await callJson('/keys', { key: sim.world.managementKey, query: 'offset=0&offset=100' })
    expect(status).toBe(400)
    expect(body.error.metadata).toEqual({ parameter: 'offset', reason: 'must be given at most once', value: '0,100' })
  })

  it('ignores unknown query parameters', async () => {
    const plain = await callJson('/keys', { key: sim.world.managementKey })
    const extra = await callJson('/keys', { key: sim.world.managementKey, query: { limit: 'x', cursor: 'abc' } })
    expect(extra.status).toBe(200)
    expect(extra.body).toEqual(plain.body)
  })
})
