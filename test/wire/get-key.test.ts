import { beforeEach, describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { callJson, useSimulatorServer } from '../support/server.js'

const harness = useSimulatorServer()

describe('GET /keys/{hash}', () => {
  let sim: ReturnType<typeof createSimulator>
  beforeEach(() => {
    sim = createSimulator()
    harness.serve(sim)
  })

  it('reads a key of any of the caller’s workspaces', async () => {
    for (const workspaceId of Object.values(sim.world.workspaces)) {
      const key = sim.keys.create({ userId: sim.world.userId, workspaceId })
      const { status, body } = await callJson(`/keys/${key.record.hash}`, { key: sim.world.managementKey })
      expect(status).toBe(200)
      expect(body.data).toEqual(key.record)
    }
  })

  it('reads a disabled key', async () => {
    const key = sim.keys.create({ userId: sim.world.userId, disabled: true })
    const { status, body } = await callJson(`/keys/${key.record.hash}`, { key: sim.world.managementKey })
    expect(status).toBe(200)
    expect(body.data.disabled).toBe(true)
  })

  it('answers 404 for an empty hash', async () => {
    const { status, body } = await callJson('/keys/', { key: sim.world.managementKey })
    expect(status).toBe(404)
    expect(body.error.message).toBe('Resource not found')
  })

  it('answers 404 for an unknown hash', async () => {
    const { status, body } = await callJson(`/keys/${'0'.repeat(64)}`, { key: sim.world.managementKey })
    expect(status).toBe(404)
    expect(body.error).toEqual({ code: 404, message: 'Resource not found', metadata: { resource: 'key' } })
  })

  it("answers 404, never 403, for another tenant's key, exactly as for an unknown one", async () => {
    const foreign = sim.keys.create({ userId: sim.world.otherTenant.userId })
    const theirs = await callJson(`/keys/${foreign.record.hash}`, { key: sim.world.managementKey })
    const unknown = await callJson(`/keys/${'f'.repeat(64)}`, { key: sim.world.managementKey })
    expect(theirs.status).toBe(404)
    expect(theirs.body).toEqual(unknown.body)
    // The owner can read it.
    const own = await callJson(`/keys/${foreign.record.hash}`, { key: sim.world.otherTenant.managementKey })
    expect(own.status).toBe(200)
  })

  it('shows limit_remaining as the limit minus the usage of the reset period', async () => {
    const cases = [
      [{ limit: 10, limitReset: 'monthly' as const, usage: { total: 50, monthly: 2.3 } }, 7.7],
      [{ limit: 10, limitReset: 'daily' as const, usage: { total: 50, daily: 4 } }, 6],
      [{ limit: 10, limitReset: 'weekly' as const, usage: { weekly: 12 } }, 0],
      [{ limit: 10, usage: { total: 3.5 } }, 6.5],
      [{ limit: 10, includeByokInLimit: true, usage: { total: 3 }, byokUsage: { total: 2 } }, 5],
      [{ limit: 10, includeByokInLimit: false, usage: { total: 3 }, byokUsage: { total: 2 } }, 7],
      [{ usage: { total: 3 } }, null],
    ] as const
    for (const [options, remaining] of cases) {
      const key = sim.keys.create({ userId: sim.world.userId, ...options })
      const { body } = await callJson(`/keys/${key.record.hash}`, { key: sim.world.managementKey })
      expect(body.data.limit_remaining, JSON.stringify(options)).toBe(remaining)
    }
  })
})
