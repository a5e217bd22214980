// importWorld at the edges: options that are not an object or a URL string, a total_count that is
// not a number, a key of the default listing that names a workspace the account listing misses,
// and keys whose creator is mostly unknown. The live service is a simulator in process (fake-service.ts).
import { describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { type ImportWorldOptions, importWorld } from '../../src/live/index.js'
import { type Alter, LIVE_BASE, type Sent, fakeService, jsonAnswer } from './fake-service.js'

const live = createSimulator()
const { world } = live
const MANAGEMENT = world.managementKey
const keysOf = (query: string) => (live.handle({ method: 'GET', path: '/keys', query, authorization: `Bearer ${MANAGEMENT}` }).body as { data: Record<string, unknown>[] }).data
const allWorkspaces = () => (live.handle({ method: 'GET', path: '/workspaces', query: 'limit=100', authorization: `Bearer ${MANAGEMENT}` }).body as { data: { id: string }[] }).data

async function imported(alter: Alter, extra: Partial<ImportWorldOptions> = {}) {
  const service = fakeService(live, alter)
  const result = await importWorld({ baseUrl: LIVE_BASE, managementKey: MANAGEMENT, fetch: service.fetch, now: live.clock.now(), ...extra })
  return { ...result, requests: service.sent.map((s: Sent) => `${s.path}${s.query.size > 0 ? `?${s.query}` : ''}`) }
}

describe('importWorld at the edges', () => {
  it('refuses options that are a string, and a base URL that is a URL object rather than its text', async () => {
    await expect(importWorld('https://openrouter.ai/api/v1' as never)).rejects.toThrow('Failed to import a world: "options" must be an options object, got "https://openrouter.ai/api/v1".')
    await expect(importWorld({ baseUrl: new URL(LIVE_BASE) as never, managementKey: MANAGEMENT })).rejects.toMatchObject({ argument: 'baseUrl' })
  })

  it('reads workspace pages until an empty one when total_count is not a number', async () => {
    const all = allWorkspaces()
    const { requests } = await imported((s) => {
      if (s.path !== '/workspaces') return undefined
      const offset = Number(s.query.get('offset'))
      return jsonAnswer(200, { data: all.slice(offset, offset + 1), total_count: '1' })
    })
    expect(requests.filter((r) => r.startsWith('/workspaces?'))).toHaveLength(all.length + 1)
  })

  it('reads a workspace that a key of the default listing names and the account listing misses', async () => {
    const { staging } = world.workspaces
    const { requests, world: spec } = await imported((s) => {
      if (s.path === '/workspaces') return jsonAnswer(200, { data: allWorkspaces().filter((w) => w.id !== staging), total_count: allWorkspaces().length - 1 })
      if (s.path === '/keys' && s.query.toString() === 'include_disabled=true') return jsonAnswer(200, { data: [...keysOf('include_disabled=true'), keysOf(`include_disabled=true&workspace_id=${staging}`)[0]] })
      return undefined
    })
    expect(requests).toContain(`/workspaces/${staging}`)
    expect(Object.values(spec.handles?.workspaces ?? {})).toContain(staging)
  })

  it('makes the owner the creator of most keys that name one, however many name none', async () => {
    const { world: spec } = await imported((s) => {
      if (s.path !== '/keys') return undefined
      if (s.query.has('offset') || s.query.has('workspace_id')) return jsonAnswer(200, { data: [] })
      return jsonAnswer(200, { data: keysOf('include_disabled=true').slice(0, 3).map((key, i) => ({ ...key, creator_user_id: i === 2 ? 'user_c3' : null })) })
    })
    expect(spec.handles?.userId).toBe('user_c3')
  })
})
