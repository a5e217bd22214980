// importWorld against the project's own server (a faithful stand-in for the live service): the
// imported world answers every operation as the live one does, apart from secrets and the labels
// derived from them (which are kept as the live ones).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generateWorld } from '../../src/fixtures/index.js'
import { createSimulator, type Simulator } from '../../src/index.js'
import { importWorld, type ImportProgress } from '../../src/live/index.js'
import { type SimulatorServer, startServer } from '../../src/server/index.js'

type Live = { sim: Simulator<Record<string, unknown>>; server: SimulatorServer; key: string }

async function serve(sim: Simulator<Record<string, unknown>>, key: string): Promise<Live> {
  return { sim, server: await startServer(sim, { port: 0, host: '127.0.0.1' }), key }
}

/** Every answer of the six operations an organisation's management key gets, for comparison. */
function answers(sim: Simulator<unknown>, key: string, workspaceIds: string[], models: string[], files: string[]) {
  const auth = `Bearer ${key}`
  const get = (path: string, query?: Record<string, string>) => {
    const res = sim.handle({ method: 'GET', path, authorization: auth, ...(query && { query: new URLSearchParams(query) }) })
    return { status: res.status, body: res.type === 'bytes' ? Buffer.from(res.body as Uint8Array).toString('base64') : res.body }
  }
  const pages = workspaceIds.map((id) => {
    const list = []
    for (let offset = 0; ; offset += 100) {
      const page = get('/keys', { include_disabled: 'true', workspace_id: id, offset: String(offset) })
      list.push(page)
      if ((page.body as { data?: unknown[] }).data?.length !== 100) break
    }
    return list
  })
  const hashes = pages.flat().flatMap((page) => (page.body as { data: { hash: string }[] }).data.map((k) => k.hash))
  return {
    defaultPage: get('/keys', { include_disabled: 'true' }),
    pages,
    keys: hashes.map((hash) => get(`/keys/${hash}`)),
    workspaces: workspaceIds.map((id) => get(`/workspaces/${id}`)),
    endpoints: models.map((id) => [get(`/models/${id}/endpoints`), sim.handle({ method: 'GET', path: `/models/${id}/endpoints` }).body]),
    videos: get('/videos/models'),
    files: files.map((id) => get(`/files/${id}/content`)),
  }
}

describe('importWorld', () => {
  let live: Live
  const spec = generateWorld({ seed: 5, size: 'small' })
  beforeAll(async () => {
    const sim = createSimulator({ world: spec }) as unknown as Simulator<Record<string, unknown>>
    live = await serve(sim, (sim.world as { managementKey: string }).managementKey)
  })
  afterAll(() => live.server.close())

  it('brings an account that answers every operation as the live one does', async () => {
    const handles = live.sim.world as { models: Record<string, string>; files: { report: string }; userId: string }
    const models = [...new Set(Object.values(handles.models))]
    const own = live.sim.workspaces.list().filter((w) => w.created_by === handles.userId)
    const userWorkspaces = own.map((w) => w.slug)
    const workspaceIds = own.map((w) => w.id)
    const events: ImportProgress[] = []
    const { world, secrets } = await importWorld({
      baseUrl: live.server.url,
      managementKey: live.key,
      models,
      workspaces: userWorkspaces,
      files: [handles.files.report],
      now: live.sim.clock.now(),
      onProgress: (event) => events.push(event),
    })
    const imported = createSimulator({ world })
    expect(imported.clock.now()).toEqual(live.sim.clock.now())
    expect(secrets.length).toBeGreaterThan(3)
    // The fresh secrets authenticate as the keys they replace.
    for (const { hash, secret } of secrets) {
      expect(secret).toMatch(/^sk-or-v1-[0-9a-f]{64}$/)
      const res = imported.handle({ method: 'GET', path: '/keys', authorization: `Bearer ${secret}` })
      // A live regular key is authenticated and refused a management operation (403); an unknown secret would get 401.
      const key = imported.keys.get(hash)
      const usable = key !== undefined && !key.disabled && (key.expires_at === null || Date.parse(key.expires_at) > imported.clock.now().getTime())
      expect(res.status, hash).toBe(usable ? 403 : 401)
      expect(world.handles?.keys[hash]).toBe(secret)
    }
    const seen = answers(live.sim, live.key, workspaceIds, models, [handles.files.report])
    expect(seen.keys.length).toBeGreaterThan(3)
    expect(answers(imported, world.handles!.managementKey, workspaceIds, models, [handles.files.report])).toEqual(seen)
    expect(events.map((e) => e.kind)).toEqual(expect.arrayContaining(['keys', 'workspace', 'model', 'video-models', 'file']))
    // The management key given is in nothing the import produced.
    const everything = JSON.stringify({ world, secrets, events })
    expect(everything).not.toContain(live.key)
    // And the world round-trips through its own export.
    expect(createSimulator({ world: imported.exportWorld() }).exportWorld()).toEqual(imported.exportWorld())
  })
})

describe('importWorld paging and waiting', () => {
  let live: Live
  beforeAll(async () => {
    const sim = createSimulator({ world: 'empty' }) as Simulator<Record<string, unknown>>
    const user = sim.users.create({ name: 'Big Co' })
    const admin = sim.keys.create({ userId: user.id, management: true })
    for (let i = 0; i < 320; i++) {
      sim.clock.advance(1000)
      const { record } = sim.keys.create({ userId: user.id, name: `key ${i}`, limit: i % 7 === 0 ? 50 : null, disabled: i % 11 === 0 })
      if (i % 3 === 0) sim.usage.record({ keyHash: record.hash, cost: 0.0000001 * (i + 1) })
    }
    live = await serve(sim, admin.key)
  })
  afterAll(() => live.server.close())

  it('reads a world of 320 keys page by page, and its usage figures to the last digit', async () => {
    const { world, secrets } = await importWorld({ baseUrl: live.server.url, managementKey: live.key, now: live.sim.clock.now() })
    expect(secrets).toHaveLength(320)
    const imported = createSimulator({ world })
    for (const key of live.sim.keys.list().filter((k) => k.name.startsWith('key '))) expect(imported.keys.get(key.hash)).toEqual(key)
  })

  it('waits out a 429 with Retry-After, and gives up naming the request when it goes on', async () => {
    let limited = 0
    const events: ImportProgress[] = []
    const flaky: typeof fetch = async (input, init) => {
      if (String(input).includes('offset=100') && limited++ < 1) return new Response(JSON.stringify({ error: { code: 429, message: 'Rate limit exceeded' } }), { status: 429, headers: { 'retry-after': '1' } })
      return fetch(input, init)
    }
    const started = Date.now()
    const { secrets } = await importWorld({ baseUrl: live.server.url, managementKey: live.key, fetch: flaky, onProgress: (e) => events.push(e), now: live.sim.clock.now() })
    expect(secrets).toHaveLength(320)
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000)
    expect(events.filter((e) => e.kind === 'wait').map((e) => e.message)).toEqual([expect.stringMatching(/^GET \/keys\?include_disabled=true&offset=100: 429, waiting 1000 ms/)])

    const always: typeof fetch = async (input, init) =>
      String(input).includes('/videos/models') ? new Response('{"error":{"code":429,"message":"Rate limit exceeded"}}', { status: 429, headers: { 'retry-after': '0' } }) : fetch(input, init)
    await expect(importWorld({ baseUrl: live.server.url, managementKey: live.key, fetch: always, maxRetries: 2 })).rejects.toThrow(
      'GET /videos/models answered 429 after 3 attempts: Rate limit exceeded',
    )
  })

  it('stops at any other error, naming the request, and never names the key', async () => {
    const error = await importWorld({ baseUrl: live.server.url, managementKey: 'sk-or-v1-not-a-real-key-at-all' }).catch((e: Error) => e)
    expect(error).toBeInstanceOf(Error)
    expect((error as Error).message).toMatch(/^GET \/keys\?include_disabled=true answered 401: /)
    expect((error as Error).message).not.toContain('not-a-real-key')
    await expect(importWorld({ baseUrl: live.server.url, managementKey: live.key, models: ['nobody/nothing'] })).rejects.toThrow(/^GET \/models\/nobody\/nothing\/endpoints answered 404/)
  })

  it('refuses bad options by name, without echoing the key', async () => {
    await expect(importWorld({ baseUrl: 'localhost:4010', managementKey: live.key })).rejects.toMatchObject({ argument: 'baseUrl' })
    const bad = await importWorld({ baseUrl: live.server.url, managementKey: 'has a space' }).catch((e: Error) => e)
    expect(bad).toMatchObject({ argument: 'managementKey' })
    expect((bad as Error).message).not.toContain('has a space')
    await expect(importWorld({ baseUrl: live.server.url, managementKey: live.key, models: 'a/b' as never })).rejects.toMatchObject({ argument: 'models' })
    // A misspelt option is named, not ignored (`model` for `models` would import no model); its value is not shown.
    const misspelt = await importWorld({ baseUrl: live.server.url, managementKey: live.key, key: live.key } as never).catch((e: Error) => e)
    expect(misspelt).toMatchObject({ argument: 'key' })
    expect((misspelt as Error).message).toMatch(/^Failed to import a world: "key" is not a field of the options of importWorld \(known fields: baseUrl, managementKey, /)
    expect((misspelt as Error).message).not.toContain(live.key)
  })
})
