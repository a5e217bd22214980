// The control API over HTTP: every route of the table, the envelope of its errors (400 naming the
// argument as the programmatic API names it, 404 for an unknown route or id), and that control
// requests are not the service's (not journaled, no rate-limit token, no fault).
import { describe, expect, it } from 'vitest'
import { createSimulator, WORLD_FORMAT } from '../../src/index.js'
import { startServer } from '../../src/server/index.js'
import { useHttpServer } from '../support/server.js'

const sim = createSimulator()
const world = sim.world
const server = useHttpServer(sim)

interface Answer {
  status: number
  headers: Headers
  body: any
}

async function control(method: string, path: string, body?: unknown): Promise<Answer> {
  const res = await fetch(`${server.controlUrl}${path}`, {
    method,
    ...(body !== undefined && { body: typeof body === 'string' ? body : JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  })
  const text = await res.text()
  return { status: res.status, headers: res.headers, body: text === '' ? undefined : JSON.parse(text) }
}

function service(path: string, secret?: string): Promise<Response> {
  return fetch(`${server.url}${path}`, { headers: secret === undefined ? {} : { authorization: `Bearer ${secret}` } })
}

/** The 400 envelope of a bad field: `metadata.argument` names it, as the programmatic API does. */
function expectBadArgument(answer: Answer, argument: string, code = 'INVALID_ARGUMENT'): void {
  expect(answer.status).toBe(400)
  expect(answer.headers.get('content-type')).toBe('application/json')
  expect(answer.body.error).toMatchObject({ code: 400, message: expect.stringMatching(/^Failed to /), metadata: { argument, code } })
}

describe('the control API', () => {
  it('says it is healthy', async () => {
    expect(await control('GET', '/health')).toMatchObject({ status: 200, body: { status: 'ok' } })
  })

  it('gives the world handles', async () => {
    expect((await control('GET', '/world')).body).toEqual(world)
  })

  it('exports the current state as a world spec that loads into the same answers', async () => {
    sim.clock.advance(86_400_000)
    sim.usage.record({ keyHash: world.apiKeyHash, cost: 2.5 })
    const spec = (await control('GET', '/world/export')).body
    expect(spec).toMatchObject({ format: WORLD_FORMAT, now: '2026-03-03T10:00:00.000Z', handles: world })
    const reloaded = createSimulator({ world: spec })
    const request = { method: 'GET', path: `/keys/${world.apiKeyHash}`, authorization: `Bearer ${world.managementKey}` }
    expect(reloaded.handle(request).body).toEqual(sim.handle(request).body)
  })

  it('resets to the world as it started, and answers 204 without a body', async () => {
    sim.keys.create({ userId: world.userId, name: 'Temporary' })
    const reset = await control('POST', '/reset')
    expect(reset.status).toBe(204)
    expect(reset.body).toBeUndefined()
    expect(reset.headers.get('content-length')).toBeNull()
    expect(sim.keys.list().some((key) => key.name === 'Temporary')).toBe(false)
  })

  it('takes named snapshots and restores them, and forgets a deleted one', async () => {
    const first = await control('POST', '/snapshots')
    expect(first).toMatchObject({ status: 201, body: { id: expect.stringMatching(/^snap-\d+$/) } })
    await control('POST', '/clock/advance', { ms: 3_600_000 })
    const second = (await control('POST', '/snapshots')).body.id
    expect(second).not.toBe(first.body.id)
    await control('PUT', '/clock', { now: '2030-01-01T00:00:00Z' })
    expect((await control('POST', `/snapshots/${first.body.id}/restore`)).status).toBe(204)
    expect(sim.clock.now().toISOString()).toBe('2026-03-02T10:00:00.000Z')
    expect((await control('POST', `/snapshots/${second}/restore`)).status).toBe(204)
    expect(sim.clock.now().toISOString()).toBe('2026-03-02T11:00:00.000Z')
    expect((await control('DELETE', `/snapshots/${second}`)).status).toBe(204)
    const gone = await control('POST', `/snapshots/${second}/restore`)
    expect(gone.status).toBe(404)
    expect(gone.body.error).toEqual({ code: 404, message: `Unknown snapshot "${second}"`, metadata: { reason: 'unknown_snapshot', id: second } })
  })

  it('reads, sets and advances the clock', async () => {
    expect((await control('GET', '/clock')).body).toEqual({ now: '2026-03-02T10:00:00.000Z' })
    expect(await control('PUT', '/clock', { now: '2026-03-02T23:59:00+01:00' })).toMatchObject({ status: 200, body: { now: '2026-03-02T22:59:00.000Z' } })
    expect((await control('POST', '/clock/advance', { ms: 61_000 })).body).toEqual({ now: '2026-03-02T23:00:01.000Z' })
    expect(sim.clock.now().toISOString()).toBe('2026-03-02T23:00:01.000Z')
  })

  it('refuses a bad clock with the field named, and leaves the clock alone', async () => {
    expectBadArgument(await control('PUT', '/clock', { now: '2026-02-30T00:00:00Z' }), 'now')
    expectBadArgument(await control('PUT', '/clock', {}), 'now')
    expectBadArgument(await control('POST', '/clock/advance', { ms: -1 }), 'ms')
    expectBadArgument(await control('POST', '/clock/advance', { ms: '60000' }), 'ms')
    // A misspelt field beside a good one is refused, not ignored.
    expectBadArgument(await control('PUT', '/clock', { now: '2026-03-03T00:00:00Z', zone: 'UTC' }), 'zone')
    expectBadArgument(await control('POST', '/clock/advance', { ms: 1000, seconds: 1 }), 'seconds')
    const misspelt = await control('POST', '/clock/advance', { millis: 1000 })
    expectBadArgument(misspelt, 'millis')
    expect(misspelt.body.error.message).toBe('Failed to read the request: "millis" is not a field of the body (known fields: ms).')
    expect(sim.clock.now().toISOString()).toBe('2026-03-02T10:00:00.000Z')
  })

  it('creates users, workspaces and keys that the service then serves', async () => {
    const user = await control('POST', '/users', { name: 'Initech' })
    expect(user).toMatchObject({ status: 201, body: { id: expect.stringMatching(/^user_/), name: 'Initech', defaultWorkspaceId: expect.any(String) } })
    const workspace = await control('POST', '/workspaces', { userId: user.body.id, name: 'Payments', slug: 'payments' })
    expect(workspace).toMatchObject({ status: 201, body: { userId: user.body.id, name: 'Payments', slug: 'payments', createdAt: '2026-03-02T10:00:00.000Z' } })
    const admin = await control('POST', '/keys', { userId: user.body.id, management: true })
    expect(admin).toMatchObject({ status: 201, body: { secret: expect.stringMatching(/^sk-or-v1-/), hash: expect.stringMatching(/^[0-9a-f]{64}$/), name: 'Management key', management: true } })
    const app = await control('POST', '/keys', { userId: user.body.id, workspaceId: workspace.body.id, name: 'app', limit: 10, expiresAt: '2026-04-01T00:00:00Z' })
    expect(app.body).toMatchObject({ name: 'app', limit: 10, expiresAt: '2026-04-01T00:00:00.000Z', createdAt: '2026-03-02T10:00:00.000Z', usage: [] })

    const res = await service(`/keys?workspace_id=${workspace.body.id}`, admin.body.secret)
    expect(res.status).toBe(200)
    expect((await res.json()).data.map((key: { hash: string; limit_remaining: number }) => [key.hash, key.limit_remaining])).toEqual([[app.body.hash, 10]])
    expect((await (await service('/workspaces/payments', admin.body.secret)).json()).data.id).toBe(workspace.body.id)
  })

  it('answers every entity as a world spec holds it (camelCase, ISO instants), which is what it takes: posted back, each is the same', async () => {
    const user = (await control('POST', '/users', { name: 'Round Trip', createdAt: '2026-01-05T08:00:00Z' })).body
    const workspace = (await control('POST', '/workspaces', { userId: user.id, name: 'Echo', slug: 'echo' })).body
    const created = (await control('POST', '/keys', { userId: user.id, workspaceId: workspace.id, name: 'echo', limit: 20, limitReset: 'daily' })).body
    const used = (await control('POST', '/usage', { keyHash: created.hash, cost: 2.5, at: '2026-03-02T09:00:00Z' })).body
    expect(used.usage).toEqual([{ at: '2026-03-02T09:00:00.000Z', cost: 2.5 }])
    const model = (await control('POST', '/models', { id: 'echo/one', created: '2026-01-01T00:00:00Z' })).body
    const video = (await control('POST', '/video-models', { id: 'echo/video', created: '2026-02-01T00:00:00Z' })).body
    const file = (await control('POST', '/files', { userId: user.id, id: 'file_echo', origin: 'server', text: 'echo' })).body
    // What GET /__sim/world/export lists for each, but a file's content.
    const exported = (await control('GET', '/world/export')).body
    expect(exported.users.find((u: { id: string }) => u.id === user.id)).toEqual(user)
    expect(exported.workspaces.find((w: { id: string }) => w.id === workspace.id)).toEqual(workspace)
    expect(exported.keys.find((k: { hash: string }) => k.hash === created.hash)).toEqual(used)
    expect(exported.models.find((m: { id: string }) => m.id === model.id)).toEqual(model)
    expect(exported.videoModels.find((m: { id: string }) => m.id === video.id)).toEqual(video)
    const { base64, ...fileWithoutContent } = exported.files.find((f: { id: string }) => f.id === file.id)
    expect(fileWithoutContent).toEqual(file)
    // camelCase throughout, but models, which a world spec holds as the service lists them.
    expect(JSON.stringify([user, workspace, used, file])).not.toMatch(/"[a-z]+_[a-z_]+":/)

    // Into a simulator of its own, through the same routes: each answer is what was posted.
    const other = await startServer(createSimulator({ world: 'empty' }), { port: 0 })
    try {
      const post = async (path: string, body: unknown): Promise<unknown> => {
        const res = await fetch(`${other.controlUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
        expect(res.status, `${path}: ${JSON.stringify(body)}`).toBe(201)
        return res.json()
      }
      expect(await post('/users', user)).toEqual(user)
      expect(await post('/workspaces', workspace)).toEqual(workspace)
      expect(await post('/keys', used)).toEqual(used)
      expect(await post('/models', model)).toEqual(model)
      expect(await post('/video-models', video)).toEqual(video)
      expect(await post('/files', { ...file, base64 })).toEqual(file)
    } finally {
      await other.close()
    }
  })

  it('creates a user from an empty body, as sim.users.create() does', async () => {
    const res = await fetch(`${server.controlUrl}/users`, { method: 'POST' })
    expect(res.status).toBe(201)
    expect((await res.json()).name).toBe('Acme Inc.')
  })

  it('refuses bad creations with the argument the programmatic API names, changing nothing', async () => {
    const keys = sim.keys.list().length
    expectBadArgument(await control('POST', '/keys', { userId: world.userId, limit: -1 }), 'limit')
    expectBadArgument(await control('POST', '/keys', { userId: 'user_nobody' }), 'userId', 'UNKNOWN_USER')
    expectBadArgument(await control('POST', '/keys', { userId: world.userId, workspaceId: world.otherTenant.workspaceId }), 'workspaceId', 'UNKNOWN_WORKSPACE')
    expectBadArgument(await control('POST', '/keys', { userId: world.userId, hash: world.apiKeyHash }), 'hash', 'DUPLICATE_ID')
    expectBadArgument(await control('POST', '/workspaces', { userId: world.userId, name: 'P', slug: 'production' }), 'slug', 'DUPLICATE_SLUG')
    expectBadArgument(await control('POST', '/users', { id: 'acme' }), 'id')
    expect(sim.keys.list()).toHaveLength(keys)
  })

  it('refuses a misspelt field of any body with a 400 naming its path, changing nothing', async () => {
    const keys = sim.keys.list()
    expectBadArgument(await control('POST', '/keys', { userId: world.userId, disabeld: true }), 'disabeld')
    expectBadArgument(await control('PATCH', `/keys/${world.apiKeyHash}`, { rateLimit: { requests: 1, intervalMs: 1000, burst: 5 } }), 'rateLimit.burst')
    expectBadArgument(await control('POST', '/usage', { keyHash: world.apiKeyHash, cost: 1, byk: true }), 'byk')
    expectBadArgument(await control('POST', '/faults', { operaton: 'getKey', respond: { status: 500 } }), 'operaton')
    expectBadArgument(await control('POST', '/faults', { respond: { status: 503, header: { 'retry-after': '5' } } }), 'respond.header')
    expectBadArgument(await control('PUT', '/latency', { operations: ['getKey'], ms: 100 }), 'operations')
    const answer = await control('POST', '/faults', { operaton: 'getKey', respond: { status: 500 } })
    expect(answer.body.error.message).toMatch(/"operaton" is not a field of a fault rule \(known fields: operation, path, /)
    expect(sim.keys.list()).toEqual(keys)
    expect(sim.faults.list()).toEqual([])
    const res = await service('/videos/models')
    expect([res.status, sim.clock.now().toISOString()]).toEqual([200, '2026-03-02T10:00:00.000Z'])
  })

  it('refuses a body that is not JSON, or not an object, naming the body', async () => {
    for (const body of ['{"userId":', '[1, 2]', '"text"', 'null']) {
      const answer = await control('POST', '/keys', body)
      expect(answer.status, body).toBe(400)
      expect(answer.body.error.metadata, body).toMatchObject({ argument: 'body' })
    }
    expect((await control('POST', '/keys', '{"userId":')).body.error.message).toMatch(/^Failed to read the request: the body is not valid JSON \(/)
  })

  it('updates a key, and answers 404 for a hash it does not know', async () => {
    const updated = await control('PATCH', `/keys/${world.apiKeyHash}`, { disabled: true, limit: 5 })
    expect(updated).toMatchObject({ status: 200, body: { hash: world.apiKeyHash, disabled: true, limit: 5 } })
    expect((await service('/videos/models', world.apiKey)).status).toBe(401)
    expectBadArgument(await control('PATCH', `/keys/${world.apiKeyHash}`, { secret: 'sk-or-v1-new-secret' }), 'secret')
    const unknown = await control('PATCH', `/keys/${'0'.repeat(64)}`, { disabled: true })
    expect(unknown.status).toBe(404)
    expect(unknown.body.error.metadata).toEqual({ reason: 'unknown_key', id: '0'.repeat(64) })
  })

  it('records usage and answers with the key, its usage as records', async () => {
    const before = sim.keys.get(world.apiKeyHash)
    const answer = await control('POST', '/usage', { keyHash: world.apiKeyHash, cost: 1.25, at: '2026-03-02T09:00:00Z' })
    expect(answer.status).toBe(200)
    expect(answer.body.hash).toBe(world.apiKeyHash)
    expect(answer.body.usage.at(-1)).toEqual({ at: '2026-03-02T09:00:00.000Z', cost: 1.25 })
    expect(sim.keys.get(world.apiKeyHash)?.usage_daily).toBeCloseTo((before?.usage_daily ?? 0) + 1.25, 10)
    expectBadArgument(await control('POST', '/usage', { keyHash: 'nope', cost: 1 }), 'keyHash', 'UNKNOWN_KEY')
    expectBadArgument(await control('POST', '/usage', { keyHash: world.apiKeyHash, cost: -1 }), 'cost')
  })

  it('creates models and video models with created as an ISO string, as world specs give it', async () => {
    const model = await control('POST', '/models', {
      id: 'acme/fast-1',
      created: '2026-01-01T00:00:00Z',
      endpoints: [{ provider_name: 'Together', pricing: { prompt: '0.000001', completion: '0.000002' } }],
    })
    // Answered as it was given: created an ISO instant, not the wire's epoch seconds.
    expect(model).toMatchObject({ status: 201, body: { id: 'acme/fast-1', created: '2026-01-01T00:00:00.000Z' } })
    expect(sim.models.list().find((m) => m.id === 'acme/fast-1')?.created).toBe(Date.parse('2026-01-01T00:00:00Z') / 1000)
    expect((await (await service('/models/acme/fast-1/endpoints')).json()).data.endpoints[0].pricing).toEqual({ prompt: '0.000001', completion: '0.000002' })
    expectBadArgument(await control('POST', '/models', { id: 'acme/slow-1', created: 1767225600 }), 'created')
    expectBadArgument(await control('POST', '/models', { id: 'acme/slow-1', endpoints: [{ pricing: { prompt: '1e-6', completion: '0' } }] }), 'endpoints[0].pricing', 'INVALID_PRICING')

    const video = await control('POST', '/video-models', { id: 'acme/video-1', created: '2026-02-01T00:00:00Z' })
    expect(video).toMatchObject({ status: 201, body: { id: 'acme/video-1', created: '2026-02-01T00:00:00.000Z' } })
    expect((await (await service('/videos/models')).json()).data.map((m: { id: string }) => m.id)).toContain('acme/video-1')
  })

  it('creates files from text or base64 and answers with their metadata, not their bytes', async () => {
    const text = await control('POST', '/files', { userId: world.userId, id: 'file_notes', origin: 'server', text: 'hello, world', filename: 'notes.txt' })
    expect(text).toEqual({
      status: 201,
      headers: expect.anything(),
      body: { id: 'file_notes', userId: world.userId, origin: 'server', filename: 'notes.txt', workspaceId: world.workspaces.default, createdAt: '2026-03-02T10:00:00.000Z' },
    })
    const download = await service('/files/file_notes/content', world.managementKey)
    expect(await download.text()).toBe('hello, world')

    const binary = await control('POST', '/files', { userId: world.userId, id: 'file_png', origin: 'server', provider: 'openai', base64: 'iVBORw0KGgo=' })
    expect(binary.body).toMatchObject({ id: 'file_png', provider: 'openai' })
    expect(binary.body).not.toHaveProperty('base64')
    const png = await service('/files/file_png/content?provider=openai', world.managementKey)
    expect([...new Uint8Array(await png.arrayBuffer())]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

    expectBadArgument(await control('POST', '/files', { userId: world.userId, origin: 'server' }), 'text')
    expectBadArgument(await control('POST', '/files', { userId: world.userId, origin: 'server', base64: 'not base64!' }), 'base64')
    expectBadArgument(await control('POST', '/files', { userId: world.userId, origin: 'sideways', text: 'x' }), 'origin')
  })

  it('adds, lists and removes faults; a fault rule takes its path as a glob string', async () => {
    const added = await control('POST', '/faults', { path: '/videos/*', respond: { status: 503, headers: { 'retry-after': '5' } }, times: 2, name: 'video-outage' })
    expect(added).toMatchObject({ status: 201, body: { name: 'video-outage' } })
    const other = (await control('POST', '/faults', { operation: 'getKey', respond: 'network-error' })).body.name
    expect(other).toMatch(/^fault-\d+$/)
    const res = await service('/videos/models')
    expect([res.status, res.headers.get('retry-after')]).toEqual([503, '5'])
    expect((await control('GET', '/faults')).body).toEqual({
      data: [
        { name: 'video-outage', matched: 1, fired: 1 },
        { name: other, matched: 0, fired: 0 },
      ],
    })
    expect((await control('DELETE', '/faults/video-outage')).status).toBe(204)
    expect((await control('GET', '/faults')).body.data.map((f: { name: string }) => f.name)).toEqual([other])
    expect((await control('DELETE', '/faults/video-outage')).status).toBe(404)
    expect((await control('DELETE', '/faults')).status).toBe(204)
    expect(sim.faults.list()).toEqual([])
    expectBadArgument(await control('POST', '/faults', { respond: { status: 200 } }), 'respond.status')
    expectBadArgument(await control('POST', '/faults', { operation: 'chat', respond: 'never' }), 'operation')
  })

  it('adds the presets of sim.faults by name, the rest of the body as their options', async () => {
    const unavailable = await control('POST', '/faults', { preset: 'serviceUnavailable', operation: 'listVideoModels', retryAfterSeconds: 5, once: true })
    expect(unavailable).toMatchObject({ status: 201, body: { name: 'service-unavailable' } })
    const res = await service('/videos/models')
    expect([res.status, res.headers.get('retry-after')]).toEqual([503, '5'])
    expect((await service('/videos/models')).status).toBe(200)
    expect((await control('POST', '/faults', { preset: 'providerDown', operation: 'getFileContent' })).body.name).toBe('provider-down')
    expect((await service(`/files/${world.files.report}/content`, world.managementKey)).status).toBe(502)
    expect((await control('POST', '/faults', { preset: 'internalError' })).body.name).toBe('internal-error')
    expect((await service('/videos/models')).status).toBe(500)
    expect(sim.faults.list().map((fault) => fault.name)).toEqual(['service-unavailable', 'provider-down', 'internal-error'])
    sim.faults.clear()
    // The preset's own checks name the field as sim.faults does; an unknown preset names preset.
    expectBadArgument(await control('POST', '/faults', { preset: 'serviceUnavailable', retryAfterSeconds: -1 }), 'retryAfterSeconds')
    expectBadArgument(await control('POST', '/faults', { preset: 'providerDown', respond: { status: 500 } }), 'respond')
    const unknown = await control('POST', '/faults', { preset: 'outage' })
    expectBadArgument(unknown, 'preset')
    expect(unknown.body.error.message).toContain('providerDown, serviceUnavailable, internalError')
    expect(sim.faults.list()).toEqual([])
  })

  it('sets and clears latency', async () => {
    expect((await control('PUT', '/latency', { operation: 'listVideoModels', ms: 1_500 })).status).toBe(204)
    await service('/videos/models')
    expect(sim.clock.now().toISOString()).toBe('2026-03-02T10:00:01.500Z')
    expect((await control('DELETE', '/latency')).status).toBe(204)
    await service('/videos/models')
    expect(sim.clock.now().toISOString()).toBe('2026-03-02T10:00:01.500Z')
    expectBadArgument(await control('PUT', '/latency', { ms: -5 }), 'ms')
  })

  it('lists the journal with filters, a download as base64, and clears it', async () => {
    await service('/videos/models')
    await service('/keys', world.apiKey)
    await service(`/files/${world.files.report}/content`, world.managementKey)
    const all = (await control('GET', '/journal')).body.data
    expect(all.map((e: { operation: string; status: number }) => `${e.operation} ${e.status}`)).toEqual(['listVideoModels 200', 'listKeys 403', 'getFileContent 200'])
    const forbidden = (await control('GET', '/journal?status=403')).body.data
    expect(forbidden).toHaveLength(1)
    expect(forbidden[0]).toMatchObject({ path: '/keys', principal: { keyHash: world.apiKeyHash } })
    const [download] = (await control('GET', '/journal?operation=getFileContent')).body.data
    const report = sim.files.list().find((f) => f.id === world.files.report && f.workspaceId === world.workspaces.default && f.provider === null)
    expect(download.response.type).toBe('bytes')
    expect(Buffer.from(download.response.body, 'base64')).toEqual(Buffer.from(report?.bytes ?? []))
    expect((await control('GET', '/journal?operation=none')).body.data).toEqual([])
    expectBadArgument(await control('GET', '/journal?status=teapot'), 'status')
    expectBadArgument(await control('GET', '/journal?operation=chat'), 'operation')
    expectBadArgument(await control('GET', '/journal?outcome=maybe'), 'outcome')
    expect((await control('GET', '/journal?hasIgnoredFields=true')).body.data).toEqual([])
    expect((await control('GET', '/journal?hasIgnoredFields=false')).body.data).toHaveLength(3)
    expectBadArgument(await control('GET', '/journal?hasIgnoredFields=maybe'), 'hasIgnoredFields')
    // A misspelt filter would otherwise list every entry.
    const misspelt = await control('GET', '/journal?opertion=getKey')
    expectBadArgument(misspelt, 'opertion')
    expect(misspelt.body.error.message).toBe(
      'Failed to read the request: "opertion" is not a parameter of the journal (known parameters: operation, status, method, keyHash, outcome, responder, hasIgnoredFields, hasWarnings, flagged, after, limit, bodies).',
    )
    expect((await control('DELETE', '/journal')).status).toBe(204)
    expect(sim.journal.list()).toEqual([])
  })

  it('pages the journal with limit and after, names where the next page starts, and leaves bodies out on bodies=false', async () => {
    for (let i = 0; i < 5; i++) await service('/videos/models')
    await service(`/files/${world.files.report}/content`, world.managementKey)
    // The streamed journal is sim.journal.list() as JSON, a download's bytes as base64.
    const whole = await control('GET', '/journal')
    const listed = sim.journal.list().map((entry) => (entry.response.type === 'bytes' ? { ...entry, response: { ...entry.response, body: Buffer.from(entry.response.body).toString('base64') } } : entry))
    expect(whole.body).toEqual({ data: JSON.parse(JSON.stringify(listed)) })

    const first = await control('GET', '/journal?limit=2')
    expect(first.body.data.map((e: { seq: number }) => e.seq)).toEqual([1, 2])
    expect(first.body.nextAfter).toBe(2)
    const second = await control('GET', `/journal?limit=2&after=${first.body.nextAfter}`)
    expect(second.body.data.map((e: { seq: number }) => e.seq)).toEqual([3, 4])
    const last = await control('GET', '/journal?limit=2&after=4')
    expect(last.body.data.map((e: { seq: number }) => e.seq)).toEqual([5, 6])
    // The last page names no next one.
    expect(last.body).not.toHaveProperty('nextAfter')
    expect((await control('GET', '/journal?after=6')).body).toEqual({ data: [] })
    // Filters and paging together: the download only, and without its bytes.
    const light = await control('GET', '/journal?operation=getFileContent&bodies=false')
    expect(light.body.data).toHaveLength(1)
    expect(light.body.data[0].response).toEqual({ status: 200, headers: expect.any(Object), type: 'bytes' })
    expect((await control('GET', '/journal?bodies=false&limit=1')).body.data[0].response).not.toHaveProperty('body')

    for (const [query, argument] of [['limit=0', 'limit'], ['limit=ten', 'limit'], ['limit=10001', 'limit'], ['after=-1', 'after'], ['bodies=no', 'bodies']] as const) {
      expectBadArgument(await control('GET', `/journal?${query}`), argument)
    }
  })

  it('exports the world without file contents on bodies=false, and refuses another parameter', async () => {
    const whole = (await control('GET', '/world/export')).body
    expect(whole).toEqual(JSON.parse(JSON.stringify(sim.exportWorld())))
    const light = (await control('GET', '/world/export?bodies=false')).body
    expect(light.files.length).toBe(whole.files.length)
    expect(light.files.every((file: Record<string, unknown>) => !('base64' in file) && !('text' in file))).toBe(true)
    expect({ ...light, files: [] }).toEqual({ ...whole, files: [] })
    expectBadArgument(await control('GET', '/world/export?body=false'), 'body')
    expectBadArgument(await control('GET', '/world/export?bodies=0'), 'bodies')
  })

  it('answers an unknown route, or a known path with another method, with a 404 listing the routes', async () => {
    for (const [method, path] of [['GET', '/nothing'], ['DELETE', '/clock'], ['GET', '/reset'], ['POST', '/health'], ['GET', ''], ['GET', '/snapshots/%zz/restore']] as const) {
      const answer = await control(method, path)
      expect(answer.status, `${method} ${path}`).toBe(404)
      expect(answer.body.error.message, `${method} ${path}`).toMatch(/is not a control route; the control API has GET \/__sim\/health, /)
    }
  })

  it('is not the service: control requests are not journaled, take no rate-limit token and trigger no fault', async () => {
    const limited = createSimulator({ rateLimit: { requests: 1, intervalMs: 60_000 } })
    const own = await startServer(limited, { port: 0 })
    try {
      const post = (path: string, body: unknown): Promise<Response> => fetch(`${own.controlUrl}${path}`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } })
      expect((await post('/faults', { respond: { status: 500 } })).status).toBe(201)
      for (let i = 0; i < 5; i++) expect((await fetch(`${own.controlUrl}/health`)).status).toBe(200)
      expect((await post('/keys', { userId: limited.world.userId, name: 'made by control' })).status).toBe(201)
      expect(limited.journal.list()).toEqual([])
      expect(limited.faults.list()[0]).toMatchObject({ matched: 0, fired: 0 })
      limited.faults.clear()
      // The anonymous bucket holds one token a minute: still full after every control request above.
      expect((await fetch(`${own.url}/videos/models`)).status).toBe(200)
      expect((await fetch(`${own.url}/videos/models`)).status).toBe(429)
    } finally {
      await own.close()
    }
  })
})
