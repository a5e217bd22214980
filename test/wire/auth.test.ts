import { beforeEach, describe, expect, it } from 'vitest'
import { AUTH_MESSAGES, createSimulator } from '../../src/index.js'
import { call, callJson, useSimulatorServer } from '../support/server.js'

const harness = useSimulatorServer()

const MANAGEMENT_PATHS = (sim: ReturnType<typeof createSimulator>) => [
  '/keys',
  `/keys/${sim.world.apiKeyHash}`,
  `/files/${sim.world.files.report}/content`,
  '/workspaces/default',
]
const PUBLIC_PATHS = ['/models/anthropic/claude-sonnet-4.5/endpoints', '/videos/models']

describe('authentication', () => {
  let sim: ReturnType<typeof createSimulator>
  beforeEach(() => {
    sim = createSimulator()
    harness.serve(sim)
  })

  it('answers 401 "Missing Authentication header" to a management operation without a header', async () => {
    for (const path of MANAGEMENT_PATHS(sim)) {
      const { status, body } = await callJson(path)
      expect(status, path).toBe(401)
      expect(body.error.message).toBe('Missing Authentication header')
      expect(body).not.toHaveProperty('user_id')
    }
  })

  it('answers 403 to a regular key on every management operation', async () => {
    for (const path of MANAGEMENT_PATHS(sim)) {
      const { status, body } = await callJson(path, { key: sim.world.apiKey })
      expect(status, path).toBe(403)
      expect(body).toEqual({ error: { code: 403, message: 'Only management keys can perform this operation' }, user_id: sim.world.userId })
    }
  })

  it('serves the public operations without a header', async () => {
    for (const path of PUBLIC_PATHS) expect((await call(path)).status, path).toBe(200)
  })

  const cases: [string, (s: ReturnType<typeof createSimulator>) => Record<string, string>, keyof typeof AUTH_MESSAGES][] = [
    ['a header without the Bearer scheme', (s) => ({ authorization: s.world.managementKey }), 'malformed'],
    ['a Basic header', () => ({ authorization: 'Basic dXNlcjpwYXNz' }), 'malformed'],
    ['a Bearer header without a token', () => ({ authorization: 'Bearer' }), 'malformed'],
    ['a token with spaces in it', () => ({ authorization: 'Bearer sk-or-v1 abc def' }), 'malformed'],
    ['an unknown secret', () => ({ authorization: 'Bearer sk-or-v1-' + '0'.repeat(64) }), 'unknown'],
  ]
  it.each(cases)('answers 401 on every operation to %s', async (_, header, reason) => {
    for (const path of [...MANAGEMENT_PATHS(sim), ...PUBLIC_PATHS]) {
      const { status, body } = await callJson(path, { headers: header(sim) })
      expect(status, path).toBe(401)
      expect(body.error).toEqual({ code: 401, message: AUTH_MESSAGES[reason], metadata: { reason } })
    }
  })

  it('accepts the scheme in any case', async () => {
    expect((await call('/keys', { headers: { authorization: `bearer ${sim.world.managementKey}` } })).status).toBe(200)
  })

  it('answers 401 on every operation to a disabled key', async () => {
    const disabled = sim.keys.create({ userId: sim.world.userId, management: true, disabled: true })
    for (const path of [...MANAGEMENT_PATHS(sim), ...PUBLIC_PATHS]) {
      const { status, body } = await callJson(path, { key: disabled.key })
      expect(status, path).toBe(401)
      expect(body.error.message).toBe(AUTH_MESSAGES.disabled)
    }
  })

  it('answers 401 once expires_at is reached on the simulator clock, not before', async () => {
    const expiresAt = Date.parse('2026-03-02T12:00:00Z')
    const key = sim.keys.create({ userId: sim.world.userId, management: true, expiresAt })
    sim.clock.set(expiresAt - 1)
    expect((await call('/keys', { key: key.key })).status).toBe(200)
    sim.clock.advance(1)
    const { status, body } = await callJson('/keys', { key: key.key })
    expect(status).toBe(401)
    expect(body.error.message).toBe(AUTH_MESSAGES.expired)
    expect((await call('/videos/models', { key: key.key })).status).toBe(401)
  })

  it('refuses a key that was created already expired', async () => {
    const key = sim.keys.create({ userId: sim.world.userId, management: true, expiresAt: '2020-01-01T00:00:00Z' })
    expect(key.record.expires_at).toBe('2020-01-01T00:00:00.000000+00:00')
    expect((await call('/keys', { key: key.key })).status).toBe(401)
  })

  it('never puts a secret in any response', async () => {
    const secrets = [sim.world.managementKey, sim.world.apiKey, sim.world.otherTenant.managementKey]
    const paths = [
      '/keys?include_disabled=true',
      ...Object.values(sim.world.workspaces).map((id) => `/keys?include_disabled=true&workspace_id=${id}`),
      `/keys/${sim.world.apiKeyHash}`,
      '/workspaces/default',
      '/models/anthropic/claude-sonnet-4.5/endpoints',
      '/videos/models',
      '/keys?offset=nope',
    ]
    for (const path of paths) {
      const text = await (await call(path, { key: sim.world.managementKey })).text()
      for (const secret of secrets) expect(text).not.toContain(secret.slice('sk-or-v1-'.length))
    }
    const label = (await callJson(`/keys/${sim.world.apiKeyHash}`, { key: sim.world.managementKey })).body.data.label
    expect(label).toMatch(/^sk-or-v1-[0-9a-f]{3}\.\.\.[0-9a-f]{4}$/)
  })
})
