// Workspaces over the wire through sim.handle (decisions/0022): GET/POST /workspaces and
// PATCH/DELETE /workspaces/{id}, their state transitions, tenancy on every method, refused bodies
// that change nothing, and what an organisation without a default workspace gets.
import { describe, expect, it } from 'vitest'
import { MAX_BODY_BYTES } from '../../src/core/body.js'
import { type SimRequest, type SimResponse, type Workspace, SimulatorErrorCode, createSimulator } from '../../src/index.js'
import { simulatorErrorOf } from '../support/server.js'

type Sim = ReturnType<typeof createSimulator>

const bearer = (secret: string): string => `Bearer ${secret}`

function send(sim: Sim, method: string, path: string, options: { body?: unknown; raw?: string | Uint8Array; query?: string; secret?: string } = {}): SimResponse {
  const request: SimRequest = { method, path, authorization: bearer(options.secret ?? sim.world.managementKey) }
  if (options.query !== undefined) request.query = options.query
  if (options.raw !== undefined) request.body = options.raw
  else if (options.body !== undefined) request.body = JSON.stringify(options.body)
  return sim.handle(request)
}

const dataOf = (response: SimResponse): Workspace => (response.body as { data: Workspace }).data
const errorOf = (response: SimResponse): { code: number; metadata?: Record<string, unknown> } => (response.body as { error: { code: number; metadata?: Record<string, unknown> } }).error

/** The caller's workspaces as GET /workspaces pages them, every page read. */
function listAll(sim: Sim, limit: number): { ids: string[]; totals: number[] } {
  const ids: string[] = []
  const totals: number[] = []
  for (let offset = 0; ; offset += limit) {
    const response = send(sim, 'GET', '/workspaces', { query: `offset=${offset}&limit=${limit}` })
    expect(response.status).toBe(200)
    const page = response.body as { data: Workspace[]; total_count: number }
    totals.push(page.total_count)
    ids.push(...page.data.map((w) => w.id))
    if (page.data.length < limit) return { ids, totals }
  }
}

/** The caller's workspaces as `sim.workspaces.list()` orders them. */
const ownIds = (sim: Sim): string[] => sim.workspaces.list().filter((w) => w.created_by === sim.world.userId).map((w) => w.id)

describe('GET /workspaces', () => {
  it("lists the caller's workspaces oldest first, as sim.workspaces.list() orders them, with total_count", () => {
    const sim = createSimulator()
    const response = send(sim, 'GET', '/workspaces')
    expect(response.status).toBe(200)
    const page = response.body as { data: Workspace[]; total_count: number }
    expect(page.data.map((w) => w.id)).toEqual(ownIds(sim))
    expect(page.total_count).toBe(ownIds(sim).length)
    expect(page.data).toEqual(ownIds(sim).map((id) => sim.workspaces.get(id)))
    expect(Object.keys(page)).toEqual(['data', 'total_count'])
  })

  it('pages by offset and limit, every page with the same total; the default limit is 50', () => {
    const sim = createSimulator()
    for (let i = 0; i < 60; i++) sim.workspaces.create({ userId: sim.world.userId, name: `Team ${i}`, slug: `team-${i}`, createdAt: Date.UTC(2026, 0, 1) + i })
    const expected = ownIds(sim)
    expect(expected.length).toBeGreaterThan(60)
    for (const limit of [1, 7, 100]) {
      const { ids, totals } = listAll(sim, limit)
      expect(ids, `limit ${limit}`).toEqual(expected)
      expect(new Set(totals)).toEqual(new Set([expected.length]))
    }
    const first = send(sim, 'GET', '/workspaces').body as { data: Workspace[] }
    expect(first.data.map((w) => w.id)).toEqual(expected.slice(0, 50))
    const past = send(sim, 'GET', '/workspaces', { query: `offset=${expected.length + 5}` }).body as { data: Workspace[]; total_count: number }
    expect(past).toEqual({ data: [], total_count: expected.length })
  })

  it.each([
    ['offset', 'offset=-1', '-1'],
    ['offset', 'offset=1.5', '1.5'],
    ['offset', 'offset=abc', 'abc'],
    ['limit', 'limit=0', '0'],
    ['limit', 'limit=101', '101'],
    ['limit', 'limit=-3', '-3'],
    ['limit', 'limit=2.5', '2.5'],
    ['limit', 'limit=', ''],
  ])('refuses %s in %s with a 400 naming it', (parameter, query, value) => {
    const sim = createSimulator()
    const response = send(sim, 'GET', '/workspaces', { query })
    expect(response.status).toBe(400)
    expect(errorOf(response).metadata).toMatchObject({ parameter, value })
  })

  it('refuses a repeated limit', () => {
    const response = send(createSimulator(), 'GET', '/workspaces', { query: 'limit=5&limit=6' })
    expect(response.status).toBe(400)
    expect(errorOf(response).metadata).toMatchObject({ parameter: 'limit', reason: 'must be given at most once' })
  })

  it("never lists another organisation's workspaces, and each organisation sees its own", () => {
    const sim = createSimulator()
    const globex = sim.world.otherTenant
    const ours = (send(sim, 'GET', '/workspaces').body as { data: Workspace[] }).data.map((w) => w.id)
    const theirs = (send(sim, 'GET', '/workspaces', { secret: globex.managementKey }).body as { data: Workspace[] }).data.map((w) => w.id)
    expect(ours).not.toContain(globex.workspaceId)
    expect(theirs).toContain(globex.workspaceId)
    expect(ours.filter((id) => theirs.includes(id))).toEqual([])
  })

  it('answers a fresh page after each write, even when the same page was just sent (cached text)', () => {
    const sim = createSimulator()
    const before = send(sim, 'GET', '/workspaces')
    const beforeBody = JSON.stringify(before.body)
    expect(JSON.stringify(send(sim, 'GET', '/workspaces').body)).toBe(beforeBody)
    const created = dataOf(send(sim, 'POST', '/workspaces', { body: { name: 'Lab', slug: 'lab' } }))
    const afterCreate = send(sim, 'GET', '/workspaces').body as { data: Workspace[]; total_count: number }
    expect(afterCreate.data.at(-1)).toEqual(created)
    sim.clock.advance(1_000)
    send(sim, 'PATCH', '/workspaces/lab', { body: { name: 'Lab 2' } })
    const afterUpdate = send(sim, 'GET', '/workspaces').body as { data: Workspace[]; total_count: number }
    expect(afterUpdate.data.at(-1)?.name).toBe('Lab 2')
    expect(send(sim, 'DELETE', `/workspaces/${created.id}`).status).toBe(200)
    expect(JSON.stringify(send(sim, 'GET', '/workspaces').body)).toBe(beforeBody)
  })
})

describe('POST /workspaces', () => {
  it('creates a workspace of the caller with every field the SDK sends, 201, readable by id and slug', () => {
    const sim = createSimulator()
    const body = {
      name: 'Research Lab',
      slug: 'research-lab',
      description: 'Experiments',
      default_text_model: 'openai/gpt-4o',
      default_image_model: null,
      default_provider_sort: 'price',
      disabled_server_tools: ['openrouter:web_search'],
      io_logging_api_key_ids: [1, 2],
      io_logging_sampling_rate: 0.25,
      is_data_discount_logging_enabled: false,
      is_observability_broadcast_enabled: true,
      is_observability_io_logging_enabled: true,
    }
    const response = send(sim, 'POST', '/workspaces', { body })
    expect(response.status).toBe(201)
    const created = dataOf(response)
    expect(created).toMatchObject({
      name: 'Research Lab',
      slug: 'research-lab',
      description: 'Experiments',
      default_text_model: 'openai/gpt-4o',
      default_image_model: null,
      default_provider_sort: 'price',
      io_logging_api_key_ids: [1, 2],
      io_logging_sampling_rate: 0.25,
      is_data_discount_logging_enabled: false,
      is_observability_broadcast_enabled: true,
      is_observability_io_logging_enabled: true,
      include_byok_in_budgets: false,
      created_by: sim.world.userId,
      created_at: '2026-03-02T10:00:00.000000+00:00',
      updated_at: null,
    })
    // disabled_server_tools is accepted and not kept (decisions/0022).
    expect(created).not.toHaveProperty('disabled_server_tools')
    expect(dataOf(send(sim, 'GET', `/workspaces/${created.id}`))).toEqual(created)
    expect(dataOf(send(sim, 'GET', '/workspaces/research-lab'))).toEqual(created)
    expect(sim.workspaces.get(created.id)).toEqual(created)
  })

  it('defaults what the body leaves out as sim.workspaces.create does', () => {
    const sim = createSimulator()
    const created = dataOf(send(sim, 'POST', '/workspaces', { body: { name: 'Lab', slug: 'lab' } }))
    expect(created).toMatchObject({
      description: null,
      default_text_model: null,
      default_image_model: null,
      default_provider_sort: null,
      io_logging_api_key_ids: null,
      io_logging_sampling_rate: 1,
      is_data_discount_logging_enabled: true,
      is_observability_broadcast_enabled: false,
      is_observability_io_logging_enabled: false,
    })
  })

  it('lets two organisations use the same slug', () => {
    const sim = createSimulator()
    expect(send(sim, 'POST', '/workspaces', { body: { name: 'Lab', slug: 'lab' } }).status).toBe(201)
    expect(send(sim, 'POST', '/workspaces', { body: { name: 'Lab', slug: 'lab' }, secret: sim.world.otherTenant.managementKey }).status).toBe(201)
  })
})

describe('PATCH /workspaces/{id}', () => {
  it('changes the fields given, by UUID or slug, and moves updated_at to now', () => {
    const sim = createSimulator()
    const id = sim.world.workspaces.staging
    const before = sim.workspaces.get(id) as Workspace
    sim.clock.advance(90_000)
    const response = send(sim, 'PATCH', '/workspaces/staging', { body: { name: 'Pre-production', description: null, io_logging_sampling_rate: 0.5 } })
    expect(response.status).toBe(200)
    const updated = dataOf(response)
    expect(updated).toEqual({ ...before, name: 'Pre-production', description: null, io_logging_sampling_rate: 0.5, updated_at: '2026-03-02T10:01:30.000000+00:00' })
    expect(sim.workspaces.get(id)).toEqual(updated)
    sim.clock.advance(1_000)
    const again = dataOf(send(sim, 'PATCH', `/workspaces/${id.toUpperCase()}`, { body: { is_observability_broadcast_enabled: true } }))
    expect(again.updated_at).toBe('2026-03-02T10:01:31.000000+00:00')
    expect(again.is_observability_broadcast_enabled).toBe(true)
    expect(again.name).toBe('Pre-production')
  })

  it('moves the slug: the new one finds the workspace, the old one is free for another', () => {
    const sim = createSimulator()
    const id = sim.world.workspaces.staging
    expect(dataOf(send(sim, 'PATCH', '/workspaces/staging', { body: { slug: 'pre-prod' } })).slug).toBe('pre-prod')
    expect(dataOf(send(sim, 'GET', '/workspaces/pre-prod')).id).toBe(id)
    expect(send(sim, 'GET', '/workspaces/staging').status).toBe(404)
    const other = dataOf(send(sim, 'POST', '/workspaces', { body: { name: 'Staging', slug: 'staging' } }))
    expect(dataOf(send(sim, 'GET', '/workspaces/staging')).id).toBe(other.id)
    // Keeping its own slug is no conflict.
    expect(send(sim, 'PATCH', '/workspaces/pre-prod', { body: { slug: 'pre-prod' } }).status).toBe(200)
  })

  it('keeps the slug index right across snapshots and restores of slug changes', () => {
    const sim = createSimulator()
    const staging = sim.world.workspaces.staging
    const before = sim.snapshot()
    send(sim, 'PATCH', '/workspaces/staging', { body: { slug: 'old' } })
    const other = dataOf(send(sim, 'POST', '/workspaces', { body: { name: 'Staging', slug: 'staging' } }))
    const after = sim.snapshot()
    sim.restore(before)
    expect(dataOf(send(sim, 'GET', '/workspaces/staging')).id).toBe(staging)
    expect(send(sim, 'GET', '/workspaces/old').status).toBe(404)
    sim.restore(after)
    expect(dataOf(send(sim, 'GET', '/workspaces/staging')).id).toBe(other.id)
    expect(dataOf(send(sim, 'GET', '/workspaces/old')).id).toBe(staging)
    sim.reset()
    expect(dataOf(send(sim, 'GET', '/workspaces/staging')).id).toBe(staging)
  })

  it('accepts an empty object: nothing changes but updated_at, which moves on every successful PATCH', () => {
    const sim = createSimulator()
    const before = sim.workspaces.get(sim.world.workspaces.research) as Workspace
    sim.clock.advance(2_000)
    const response = send(sim, 'PATCH', '/workspaces/research', { body: {} })
    expect(response.status).toBe(200)
    expect(dataOf(response)).toEqual({ ...before, updated_at: '2026-03-02T10:00:02.000000+00:00' })
  })

  it('refuses a slug another workspace of the organisation has, naming slug', () => {
    const sim = createSimulator()
    const response = send(sim, 'PATCH', '/workspaces/staging', { body: { slug: 'production' } })
    expect(response.status).toBe(400)
    expect(errorOf(response).metadata).toEqual({ parameter: 'slug', reason: 'is already the slug of another workspace of this organisation', value: '"production"' })
  })
})

describe('DELETE /workspaces/{id}', () => {
  it('deletes an empty workspace, with its files; it is 404 on every method after', () => {
    const sim = createSimulator()
    const lab = dataOf(send(sim, 'POST', '/workspaces', { body: { name: 'Lab', slug: 'lab' } }))
    const file = sim.files.create({ userId: sim.world.userId, workspaceId: lab.id, origin: 'server', bytes: new Uint8Array([1, 2, 3]) })
    const response = send(sim, 'DELETE', '/workspaces/lab')
    expect(response.status).toBe(200)
    expect(response.body).toEqual({ deleted: true })
    expect(sim.workspaces.get(lab.id)).toBeUndefined()
    expect(sim.files.list().some((f) => f.id === file.id && f.workspaceId === lab.id)).toBe(false)
    for (const ref of [lab.id, 'lab']) {
      expect(send(sim, 'GET', `/workspaces/${ref}`).status).toBe(404)
      expect(send(sim, 'PATCH', `/workspaces/${ref}`, { body: { name: 'Back' } }).status).toBe(404)
      expect(send(sim, 'DELETE', `/workspaces/${ref}`).status).toBe(404)
    }
    expect(send(sim, 'GET', '/keys', { query: `workspace_id=${lab.id}` }).status).toBe(400)
    expect(send(sim, 'GET', `/files/${file.id}/content`, { query: `workspace_id=${lab.id}` }).status).toBe(404)
    // The slug is free again.
    expect(send(sim, 'POST', '/workspaces', { body: { name: 'Lab', slug: 'lab' } }).status).toBe(201)
  })

  it('refuses a workspace that holds keys, disabled and management keys included, naming the count', () => {
    const sim = createSimulator()
    const lab = sim.workspaces.create({ userId: sim.world.userId, name: 'Lab', slug: 'lab' })
    const disabled = sim.keys.create({ userId: sim.world.userId, workspaceId: lab.id, disabled: true })
    sim.keys.create({ userId: sim.world.userId, workspaceId: lab.id, management: true })
    const response = send(sim, 'DELETE', '/workspaces/lab')
    expect(response.status).toBe(400)
    expect(errorOf(response).metadata).toEqual({ parameter: 'id', reason: 'the workspace holds 2 API keys; delete them first (DELETE /keys/{hash})', key_count: 2 })
    // Most clients show only the message: the reason is there too.
    expect((errorOf(response) as { message?: string }).message).toBe('Invalid request parameters: the workspace holds 2 API keys; delete them first (DELETE /keys/{hash})')
    expect(sim.workspaces.get(lab.id)).toBeDefined()
    expect(sim.keys.get(disabled.record.hash)).toBeDefined()
  })

  it('deletes the default workspace only with confirm_default_workspace_deletion=true', () => {
    const sim = createSimulator({ world: 'empty' })
    const org = sim.users.create({ name: 'Acme' })
    const ops = sim.workspaces.create({ userId: org.id, name: 'Ops' })
    const admin = sim.keys.create({ userId: org.id, workspaceId: ops.id, management: true }).key
    const del = (query?: string): SimResponse => sim.handle({ method: 'DELETE', path: '/workspaces/default', authorization: bearer(admin), ...(query === undefined ? {} : { query }) })
    for (const query of [undefined, 'confirm_default_workspace_deletion=false']) {
      const refused = del(query)
      expect(refused.status).toBe(400)
      expect(errorOf(refused).metadata).toEqual({ parameter: 'confirm_default_workspace_deletion', reason: 'must be true to delete the default workspace' })
    }
    expect(errorOf(del('confirm_default_workspace_deletion=yes')).metadata).toMatchObject({ parameter: 'confirm_default_workspace_deletion', value: 'yes' })
    expect(sim.users.get(org.id)?.defaultWorkspaceId).not.toBeNull()
    expect(del('confirm_default_workspace_deletion=true').status).toBe(200)
    expect(sim.users.get(org.id)?.defaultWorkspaceId).toBeNull()
    // The flag is ignored for a workspace that is not the default.
    const spare = sim.workspaces.create({ userId: org.id, name: 'Spare' })
    expect(sim.handle({ method: 'DELETE', path: `/workspaces/${spare.id}`, query: 'confirm_default_workspace_deletion=true', authorization: bearer(admin) }).status).toBe(200)
  })
})

describe('an organisation whose default workspace was deleted', () => {
  function withoutDefault() {
    const sim = createSimulator({ world: 'empty' })
    const org = sim.users.create({ name: 'Acme' })
    const ops = sim.workspaces.create({ userId: org.id, name: 'Ops' })
    const admin = sim.keys.create({ userId: org.id, workspaceId: ops.id, management: true }).key
    const app = sim.keys.create({ userId: org.id, workspaceId: ops.id, name: 'App' })
    const file = sim.files.create({ userId: org.id, workspaceId: ops.id, id: 'file_ops', origin: 'server', bytes: new Uint8Array([7]) })
    sim.workspaces.delete(org.defaultWorkspaceId as string, { confirmDefaultWorkspaceDeletion: true })
    return { sim, org, ops, admin, app, file }
  }

  it('answers GET /keys without workspace_id with a 400 naming workspace_id, and with it as before', () => {
    const { sim, ops, admin, app } = withoutDefault()
    const refused = sim.handle({ method: 'GET', path: '/keys', authorization: bearer(admin) })
    expect(refused.status).toBe(400)
    expect(errorOf(refused).metadata).toEqual({ parameter: 'workspace_id', reason: "is required: the organisation's default workspace has been deleted" })
    const listed = sim.handle({ method: 'GET', path: '/keys', query: `workspace_id=${ops.id}`, authorization: bearer(admin) })
    expect((listed.body as { data: { hash: string }[] }).data.map((k) => k.hash)).toEqual([app.record.hash])
  })

  it('answers a file download without workspace_id with a 400 naming workspace_id', () => {
    const { sim, ops, admin } = withoutDefault()
    const refused = sim.handle({ method: 'GET', path: '/files/file_ops/content', authorization: bearer(admin) })
    expect(refused.status).toBe(400)
    expect(errorOf(refused).metadata).toMatchObject({ parameter: 'workspace_id' })
    expect(sim.handle({ method: 'GET', path: '/files/file_ops/content', query: `workspace_id=${ops.id}`, authorization: bearer(admin) }).status).toBe(200)
  })

  it('makes sim.keys.create and sim.files.create without workspaceId throw UNKNOWN_WORKSPACE naming workspaceId', () => {
    const { sim, org, ops } = withoutDefault()
    const before = sim.exportWorld()
    for (const action of [() => sim.keys.create({ userId: org.id }), () => sim.files.create({ userId: org.id, origin: 'upload', bytes: new Uint8Array([1]) })]) {
      const error = simulatorErrorOf(action)
      expect(error.code).toBe(SimulatorErrorCode.UnknownWorkspace)
      expect(error.argument).toBe('workspaceId')
      expect(error.message).toMatch(/no default workspace/)
    }
    expect(sim.exportWorld()).toEqual(before)
    expect(sim.keys.create({ userId: org.id, workspaceId: ops.id }).record.workspace_id).toBe(ops.id)
  })

  it('still lists, creates and reads its other workspaces', () => {
    const { sim, ops, admin } = withoutDefault()
    const page = sim.handle({ method: 'GET', path: '/workspaces', authorization: bearer(admin) }).body as { data: Workspace[]; total_count: number }
    expect(page).toEqual({ data: [sim.workspaces.get(ops.id)], total_count: 1 })
    const created = sim.handle({ method: 'POST', path: '/workspaces', body: JSON.stringify({ name: 'Default', slug: 'default' }), authorization: bearer(admin) })
    expect(created.status).toBe(201)
    // A new workspace, even one named like it, does not become the default.
    expect(sim.users.list()[0]?.defaultWorkspaceId).toBeNull()
    expect(sim.handle({ method: 'GET', path: '/keys', authorization: bearer(admin) }).status).toBe(400)
  })

  it('comes back from exportWorld() without a default workspace', () => {
    const { sim, org } = withoutDefault()
    const spec = JSON.parse(JSON.stringify(sim.exportWorld()))
    expect(spec.users[0]).toMatchObject({ id: org.id, defaultWorkspaceId: null })
    const copy = createSimulator({ world: spec })
    expect(copy.users.get(org.id)?.defaultWorkspaceId).toBeNull()
    expect(copy.exportWorld()).toEqual(sim.exportWorld())
  })
})

describe('tenancy: another organisation\'s workspace is 404 on every method, by id and by slug', () => {
  const sim = createSimulator()
  const globex = sim.world.otherTenant
  const globexOnly = sim.workspaces.create({ userId: globex.userId, name: 'Globex only', slug: 'globex-only' })
  const refs = [globex.workspaceId, globex.workspaceId.toUpperCase(), globexOnly.id, 'globex-only']
  it.each(refs)('%s', (ref) => {
    const before = sim.exportWorld()
    for (const [method, body] of [['GET'], ['PATCH', { name: 'Taken over' }], ['DELETE']] as const) {
      const response = send(sim, method, `/workspaces/${ref}`, body === undefined ? {} : { body })
      expect(response.status, method).toBe(404)
      expect(errorOf(response).metadata, method).toEqual({ resource: 'workspace' })
    }
    const confirmed = send(sim, 'DELETE', `/workspaces/${ref}`, { query: 'confirm_default_workspace_deletion=true' })
    expect(confirmed.status).toBe(404)
    expect(sim.exportWorld()).toEqual(before)
  })

  it('answers 403 to a regular key and 401 without one on every method', () => {
    const requests: [string, string, unknown?][] = [
      ['GET', '/workspaces'],
      ['POST', '/workspaces', { name: 'Lab', slug: 'lab' }],
      ['PATCH', '/workspaces/staging', { name: 'X' }],
      ['DELETE', '/workspaces/staging'],
    ]
    for (const [method, path, body] of requests) {
      expect(send(sim, method, path, { secret: sim.world.apiKey, ...(body === undefined ? {} : { body }) }).status, `${method} ${path}`).toBe(403)
      expect(sim.handle({ method, path, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }).status, `${method} ${path}`).toBe(401)
    }
  })
})

describe('refused bodies change nothing, not even the next drawn id', () => {
  const long = 'x'.repeat(MAX_BODY_BYTES + 1)
  const cases: { name: string; method: 'POST' | 'PATCH'; raw: string | Uint8Array; status: number; parameter: string }[] = [
    { name: 'malformed JSON', method: 'POST', raw: '{"name": "Lab",', status: 400, parameter: 'body' },
    { name: 'a JSON array', method: 'POST', raw: '[]', status: 400, parameter: 'body' },
    { name: 'no body', method: 'POST', raw: '', status: 400, parameter: 'body' },
    { name: 'bytes that are not UTF-8', method: 'POST', raw: new Uint8Array([0x7b, 0xff, 0x7d]), status: 400, parameter: 'body' },
    { name: 'a body over the cap', method: 'POST', raw: JSON.stringify({ name: long, slug: 'lab' }), status: 413, parameter: 'body' },
    { name: 'no name', method: 'POST', raw: JSON.stringify({ slug: 'lab' }), status: 400, parameter: 'name' },
    { name: 'no slug', method: 'POST', raw: JSON.stringify({ name: 'Lab' }), status: 400, parameter: 'slug' },
    { name: 'an empty name', method: 'POST', raw: JSON.stringify({ name: '', slug: 'lab' }), status: 400, parameter: 'name' },
    { name: 'a name that is a number', method: 'POST', raw: JSON.stringify({ name: 7, slug: 'lab' }), status: 400, parameter: 'name' },
    { name: 'an upper-case slug', method: 'POST', raw: JSON.stringify({ name: 'Lab', slug: 'Lab' }), status: 400, parameter: 'slug' },
    { name: 'a slug with a double hyphen', method: 'POST', raw: JSON.stringify({ name: 'Lab', slug: 'my--lab' }), status: 400, parameter: 'slug' },
    { name: 'a slug ending in a hyphen', method: 'POST', raw: JSON.stringify({ name: 'Lab', slug: 'lab-' }), status: 400, parameter: 'slug' },
    { name: 'a slug with a space', method: 'POST', raw: JSON.stringify({ name: 'Lab', slug: 'my lab' }), status: 400, parameter: 'slug' },
    { name: 'a slug that looks like a UUID', method: 'POST', raw: JSON.stringify({ name: 'Lab', slug: '550e8400-e29b-41d4-a716-446655440000' }), status: 400, parameter: 'slug' },
    { name: 'a duplicate slug', method: 'POST', raw: JSON.stringify({ name: 'Prod', slug: 'production' }), status: 400, parameter: 'slug' },
    { name: 'a misspelt field', method: 'POST', raw: JSON.stringify({ name: 'Lab', slug: 'lab', descripton: 'typo' }), status: 400, parameter: 'descripton' },
    { name: 'a camelCase field', method: 'POST', raw: JSON.stringify({ name: 'Lab', slug: 'lab', defaultTextModel: 'x' }), status: 400, parameter: 'defaultTextModel' },
    { name: 'a read-only field', method: 'POST', raw: JSON.stringify({ name: 'Lab', slug: 'lab', id: '550e8400-e29b-41d4-a716-446655440000' }), status: 400, parameter: 'id' },
    { name: 'a sampling rate of 0', method: 'POST', raw: JSON.stringify({ name: 'Lab', slug: 'lab', io_logging_sampling_rate: 0 }), status: 400, parameter: 'io_logging_sampling_rate' },
    { name: 'a sampling rate above 1', method: 'POST', raw: JSON.stringify({ name: 'Lab', slug: 'lab', io_logging_sampling_rate: 1.5 }), status: 400, parameter: 'io_logging_sampling_rate' },
    { name: 'a fractional key id', method: 'POST', raw: JSON.stringify({ name: 'Lab', slug: 'lab', io_logging_api_key_ids: [1, 2.5] }), status: 400, parameter: 'io_logging_api_key_ids[1]' },
    { name: 'key ids that are not an array', method: 'POST', raw: JSON.stringify({ name: 'Lab', slug: 'lab', io_logging_api_key_ids: 3 }), status: 400, parameter: 'io_logging_api_key_ids' },
    { name: 'a server tool that is not a string', method: 'POST', raw: JSON.stringify({ name: 'Lab', slug: 'lab', disabled_server_tools: [1] }), status: 400, parameter: 'disabled_server_tools[0]' },
    { name: 'a flag that is a string', method: 'POST', raw: JSON.stringify({ name: 'Lab', slug: 'lab', is_observability_broadcast_enabled: 'true' }), status: 400, parameter: 'is_observability_broadcast_enabled' },
    { name: 'an empty description', method: 'POST', raw: JSON.stringify({ name: 'Lab', slug: 'lab', description: '' }), status: 400, parameter: 'description' },
    { name: 'an empty default model', method: 'PATCH', raw: JSON.stringify({ default_text_model: '' }), status: 400, parameter: 'default_text_model' },
    { name: 'a description that is an object', method: 'POST', raw: JSON.stringify({ name: 'Lab', slug: 'lab', description: {} }), status: 400, parameter: 'description' },
    { name: 'a null name', method: 'PATCH', raw: JSON.stringify({ name: null }), status: 400, parameter: 'name' },
    { name: 'a null slug', method: 'PATCH', raw: JSON.stringify({ slug: null }), status: 400, parameter: 'slug' },
    { name: 'a taken slug', method: 'PATCH', raw: JSON.stringify({ name: 'Fine', slug: 'production' }), status: 400, parameter: 'slug' },
    { name: 'a bad field after good ones', method: 'PATCH', raw: JSON.stringify({ name: 'Fine', description: 'ok', is_data_discount_logging_enabled: 1 }), status: 400, parameter: 'is_data_discount_logging_enabled' },
    { name: 'an unknown field', method: 'PATCH', raw: JSON.stringify({ name: 'Fine', include_byok_in_budgets: true }), status: 400, parameter: 'include_byok_in_budgets' },
    { name: 'malformed JSON', method: 'PATCH', raw: '{', status: 400, parameter: 'body' },
    { name: 'a body over the cap', method: 'PATCH', raw: JSON.stringify({ name: long }), status: 413, parameter: 'body' },
  ]

  it.each(cases)('$method: $name -> $status naming $parameter', ({ method, raw, status, parameter }) => {
    const sim = createSimulator()
    const path = method === 'POST' ? '/workspaces' : '/workspaces/staging'
    sim.clock.advance(1_000)
    const before = sim.exportWorld()
    const snapshot = sim.snapshot()
    const response = send(sim, method, path, { raw })
    expect(response.status).toBe(status)
    expect(errorOf(response).code).toBe(status)
    expect(errorOf(response).metadata?.['parameter']).toBe(parameter)
    expect(sim.exportWorld()).toEqual(before)
    // The next workspace drawn is the one that would have been drawn had the request never come.
    const next = dataOf(send(sim, 'POST', '/workspaces', { body: { name: 'Next', slug: 'next' } }))
    sim.restore(snapshot)
    const unrefused = dataOf(send(sim, 'POST', '/workspaces', { body: { name: 'Next', slug: 'next' } }))
    expect(next).toEqual(unrefused)
  })

  it('a refused body through a content type that is not JSON is a 400 naming body', () => {
    const sim = createSimulator()
    const response = sim.handle({ method: 'POST', path: '/workspaces', body: 'name=Lab', headers: { 'content-type': 'application/x-www-form-urlencoded' }, authorization: bearer(sim.world.managementKey) })
    expect(response.status).toBe(400)
    expect(errorOf(response).metadata).toMatchObject({ parameter: 'body' })
  })
})

describe('sim.workspaces.update and sim.workspaces.delete', () => {
  it('update mirrors PATCH: by UUID or { userId, slug }, updated_at at now, the slug index moved', () => {
    const sim = createSimulator()
    const id = sim.world.workspaces.staging
    sim.clock.advance(5_000)
    const updated = sim.workspaces.update({ userId: sim.world.userId, slug: 'staging' }, { name: 'QA', slug: 'qa', defaultProviderSort: 'latency', includeByokInBudgets: true })
    expect(updated).toMatchObject({ id, name: 'QA', slug: 'qa', default_provider_sort: 'latency', include_byok_in_budgets: true, updated_at: '2026-03-02T10:00:05.000000+00:00' })
    expect(dataOf(send(sim, 'GET', '/workspaces/qa'))).toEqual(updated)
    expect(sim.workspaces.update(id.toUpperCase(), { description: null }).description).toBeNull()
  })

  it.each([
    ['an unknown UUID', () => ['00000000-0000-4000-8000-000000000000', { name: 'X' }], SimulatorErrorCode.UnknownWorkspace, 'workspace'],
    ['a slug of another organisation', (sim: Sim) => [{ userId: sim.world.userId, slug: 'globex-only' }, { name: 'X' }], SimulatorErrorCode.UnknownWorkspace, 'workspace'],
    ['a bare slug', () => ['staging', { name: 'X' }], SimulatorErrorCode.UnknownWorkspace, 'workspace'],
    ['a taken slug', (sim: Sim) => [sim.world.workspaces.staging, { slug: 'production' }], SimulatorErrorCode.DuplicateSlug, 'slug'],
    ['a bad slug', (sim: Sim) => [sim.world.workspaces.staging, { slug: 'No Good' }], SimulatorErrorCode.InvalidArgument, 'slug'],
    ['a misspelt field', (sim: Sim) => [sim.world.workspaces.staging, { nmae: 'X' }], SimulatorErrorCode.InvalidArgument, 'nmae'],
    ['a sampling rate above 1', (sim: Sim) => [sim.world.workspaces.staging, { name: 'Fine', ioLoggingSamplingRate: 2 }], SimulatorErrorCode.InvalidArgument, 'ioLoggingSamplingRate'],
    ['key ids that are not integers', (sim: Sim) => [sim.world.workspaces.staging, { ioLoggingApiKeyIds: [0.5] }], SimulatorErrorCode.InvalidArgument, 'ioLoggingApiKeyIds'],
  ] as const)('update refuses %s, naming the argument and changing nothing', (_, args, code, argument) => {
    const sim = createSimulator()
    sim.workspaces.create({ userId: sim.world.otherTenant.userId, name: 'Globex only', slug: 'globex-only' })
    const before = sim.exportWorld()
    const [ref, changes] = args(sim) as [never, never]
    const error = simulatorErrorOf(() => sim.workspaces.update(ref, changes))
    expect(error.code).toBe(code)
    expect(error.argument).toBe(argument)
    expect(sim.exportWorld()).toEqual(before)
  })

  it('delete mirrors DELETE: keys block it, the default needs confirmDefaultWorkspaceDeletion, files go with it', () => {
    const sim = createSimulator({ world: 'empty' })
    const org = sim.users.create({ name: 'Acme' })
    const lab = sim.workspaces.create({ userId: org.id, name: 'Lab' })
    const key = sim.keys.create({ userId: org.id, workspaceId: lab.id, disabled: true })
    sim.files.create({ userId: org.id, workspaceId: lab.id, origin: 'upload', bytes: new Uint8Array([1]) })
    let before = sim.exportWorld()
    const blocked = simulatorErrorOf(() => sim.workspaces.delete(lab.id))
    expect(blocked.code).toBe(SimulatorErrorCode.WorkspaceHasKeys)
    expect(blocked.argument).toBe('workspace')
    expect(blocked.details).toEqual({ keyCount: 1 })
    expect(sim.exportWorld()).toEqual(before)
    // Deleting the key itself is the keys' business; a world without it shows the rest.
    const bare = createSimulator({ world: { ...before, keys: before.keys?.filter((k) => k.hash !== key.record.hash) ?? [] } })
    expect(bare.workspaces.delete({ userId: org.id, slug: 'lab' })).toEqual(lab)
    expect(bare.files.list()).toEqual([])

    before = bare.exportWorld()
    const unconfirmed = simulatorErrorOf(() => bare.workspaces.delete(org.defaultWorkspaceId as string))
    expect(unconfirmed.code).toBe(SimulatorErrorCode.InvalidArgument)
    expect(unconfirmed.argument).toBe('confirmDefaultWorkspaceDeletion')
    expect(simulatorErrorOf(() => bare.workspaces.delete(org.defaultWorkspaceId as string, { confirmDefaultWorkspaceDeletion: 'yes' as never })).argument).toBe('confirmDefaultWorkspaceDeletion')
    expect(simulatorErrorOf(() => bare.workspaces.delete(org.defaultWorkspaceId as string, { confrim: true } as never)).argument).toBe('confrim')
    expect(bare.exportWorld()).toEqual(before)
    bare.workspaces.delete(org.defaultWorkspaceId as string, { confirmDefaultWorkspaceDeletion: true })
    expect(bare.users.get(org.id)?.defaultWorkspaceId).toBeNull()
    expect(simulatorErrorOf(() => bare.workspaces.delete(org.defaultWorkspaceId as string)).code).toBe(SimulatorErrorCode.UnknownWorkspace)
  })

  it('an update of a default workspace round-trips: a default workspace spec without createdAt takes the user\'s', () => {
    const sim = createSimulator({ world: 'empty', now: '2026-03-02T10:00:00Z' })
    const org = sim.users.create({ name: 'Acme', createdAt: '2026-01-01T00:00:00Z', defaultWorkspace: { createdAt: undefined as never, description: 'Main' } })
    expect(sim.workspaces.get(org.defaultWorkspaceId)?.created_at).toBe('2026-01-01T00:00:00.000000+00:00')
    sim.workspaces.update(org.defaultWorkspaceId as string, { name: 'Main' })
    const copy = createSimulator({ world: JSON.parse(JSON.stringify(sim.exportWorld())) })
    expect(copy.workspaces.list()).toEqual(sim.workspaces.list())
  })

  it('users.create({ defaultWorkspaceId: null }) makes an organisation without a default, and refuses default-workspace fields with it', () => {
    const sim = createSimulator({ world: 'empty' })
    const org = sim.users.create({ name: 'Bare', defaultWorkspaceId: null })
    expect(org.defaultWorkspaceId).toBeNull()
    expect(sim.workspaces.list()).toEqual([])
    const before = sim.exportWorld()
    expect(simulatorErrorOf(() => sim.users.create({ defaultWorkspaceId: null, defaultWorkspace: { name: 'X' } })).argument).toBe('defaultWorkspace')
    expect(simulatorErrorOf(() => sim.users.create({ defaultWorkspaceId: null, defaultWorkspaceGuardrailId: '550e8400-e29b-41d4-a716-446655440000' })).argument).toBe('defaultWorkspaceGuardrailId')
    expect(sim.exportWorld()).toEqual(before)
  })
})
