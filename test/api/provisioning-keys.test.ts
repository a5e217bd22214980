// Keys and credits over the wire, through sim.handle: POST /keys, PATCH and DELETE /keys/{hash},
// GET /key and GET /credits (decisions/0021), their state transitions, tenancy, and the bodies they
// refuse, which change nothing, not even the random state.
import { describe, expect, it } from 'vitest'
import { WORLD_FORMAT, type WorldSpec, createSimulator, type SimRequest, type SimResponse, validateWorld } from '../../src/index.js'
import { MAX_BODY_BYTES } from '../../src/core/body.js'

type Sim = ReturnType<typeof createSimulator>

/** The body of a JSON answer, typed loosely for assertions. */
// biome-ignore lint/suspicious/noExplicitAny: assertions read whatever the wire carries
const bodyOf = (response: SimResponse): any => JSON.parse(JSON.stringify(response.body))

function caller(sim: { handle(request: SimRequest): SimResponse }, secret: string) {
  const send = (method: string, path: string, body?: unknown, extra: Partial<SimRequest> = {}): SimResponse =>
    sim.handle({
      method,
      path,
      authorization: `Bearer ${secret}`,
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
      ...extra,
    })
  return {
    send,
    create: (body: unknown) => send('POST', '/keys', body),
    update: (hash: string, body: unknown) => send('PATCH', `/keys/${hash}`, body),
    remove: (hash: string) => send('DELETE', `/keys/${hash}`),
    get: (hash: string) => send('GET', `/keys/${hash}`),
    list: (query = '') => send('GET', '/keys', undefined, { query }),
    current: () => send('GET', '/key'),
    credits: () => send('GET', '/credits'),
  }
}

const admin = (sim: Sim) => caller(sim, sim.world.managementKey)

describe('a key made over the wire, through its life', () => {
  it('is created, read, listed, used, disabled, enabled, limited and deleted, each step visible at once', () => {
    const sim = createSimulator()
    const api = admin(sim)
    const usageBefore = bodyOf(api.credits()).data.total_usage

    const created = api.create({ name: 'Customer 42', limit: 10, limit_reset: 'monthly' })
    expect(created.status).toBe(201)
    const { data, key } = bodyOf(created)
    expect(Object.keys(bodyOf(created))).toEqual(['data', 'key'])
    expect(key).toMatch(/^sk-or-v1-[0-9a-f]{64}$/)
    expect(data).toMatchObject({ name: 'Customer 42', limit: 10, limit_remaining: 10, limit_reset: 'monthly', disabled: false, usage: 0, updated_at: null, workspace_id: sim.world.workspaces.default, creator_user_id: sim.world.userId })
    expect(data.created_at).toBe('2026-03-02T10:00:00.000000+00:00')
    // The secret is shown only in the create answer: never again on a read.
    expect(JSON.stringify(bodyOf(api.get(data.hash)))).not.toContain(key)
    expect(bodyOf(api.get(data.hash)).data).toEqual(data)
    expect(bodyOf(api.list()).data[0]).toEqual(data)

    const customer = caller(sim, key)
    expect(bodyOf(customer.current()).data).toMatchObject({ label: data.label, is_management_key: false, limit: 10, limit_remaining: 10 })
    sim.usage.record({ keyHash: data.hash, cost: 2.5 })
    expect(bodyOf(customer.current()).data).toMatchObject({ usage: 2.5, limit_remaining: 7.5 })
    expect(bodyOf(api.credits()).data.total_usage).toBeCloseTo(usageBefore + 2.5, 9)

    sim.clock.advance(60_000)
    const disabled = api.update(data.hash, { disabled: true })
    expect(disabled.status).toBe(200)
    expect(bodyOf(disabled).data).toMatchObject({ disabled: true, updated_at: '2026-03-02T10:01:00.000000+00:00' })
    expect(customer.current().status).toBe(401)
    expect(bodyOf(customer.current()).error.metadata).toEqual({ reason: 'disabled' })
    expect(bodyOf(api.list()).data.map((k: { hash: string }) => k.hash)).not.toContain(data.hash)
    expect(bodyOf(api.list('include_disabled=true')).data.map((k: { hash: string }) => k.hash)).toContain(data.hash)

    expect(bodyOf(api.update(data.hash, { disabled: false })).data.disabled).toBe(false)
    expect(customer.current().status).toBe(200)
    expect(bodyOf(api.list()).data[0].hash).toBe(data.hash)

    // A new limit shows in limit_remaining at once, in every read.
    const limited = bodyOf(api.update(data.hash, { limit: 3 })).data
    expect(limited).toMatchObject({ limit: 3, limit_remaining: 0.5 })
    expect(bodyOf(api.get(data.hash)).data.limit_remaining).toBe(0.5)
    expect(bodyOf(customer.current()).data.limit_remaining).toBe(0.5)
    expect(bodyOf(api.update(data.hash, { limit: null, limit_reset: null })).data).toMatchObject({ limit: null, limit_remaining: null, limit_reset: null })

    const deleted = api.remove(data.hash)
    expect(deleted.status).toBe(200)
    expect(bodyOf(deleted)).toEqual({ deleted: true })
    expect(bodyOf(customer.current()).error).toMatchObject({ code: 401, metadata: { reason: 'unknown' } })
    for (const response of [api.get(data.hash), api.update(data.hash, { name: 'x' }), api.remove(data.hash)]) {
      expect(response.status).toBe(404)
      expect(bodyOf(response).error.metadata).toEqual({ resource: 'key' })
    }
    expect(bodyOf(api.list('include_disabled=true')).data.map((k: { hash: string }) => k.hash)).not.toContain(data.hash)
    // Its spending stays the organisation's.
    expect(bodyOf(api.credits()).data.total_usage).toBeCloseTo(usageBefore + 2.5, 9)
  })

  it('is made in the workspace asked for, with every field of the request stored', () => {
    const sim = createSimulator()
    const { data } = bodyOf(
      admin(sim).create({
        name: 'Research bot',
        workspace_id: sim.world.workspaces.research.toUpperCase(),
        limit: 0,
        limit_reset: 'daily',
        include_byok_in_limit: true,
        expires_at: '2026-04-01T00:00:00Z',
        creator_user_id: 'user_member0000000000000000000',
        external: { user: 'customer-7', api_key: 'lookup-7' },
      }),
    )
    expect(data).toMatchObject({
      workspace_id: sim.world.workspaces.research,
      limit: 0,
      limit_remaining: 0,
      limit_reset: 'daily',
      include_byok_in_limit: true,
      expires_at: '2026-04-01T00:00:00.000000+00:00',
      creator_user_id: 'user_member0000000000000000000',
      external_user: 'customer-7',
    })
    expect(sim.keys.get(data.hash)).toEqual(data)
    // The partner's lookup key is not kept: nothing shows it.
    expect(JSON.stringify(sim.exportWorld())).not.toContain('lookup-7')
    expect(bodyOf(admin(sim).list(`workspace_id=${sim.world.workspaces.research}`)).data[0].hash).toBe(data.hash)
  })

  it('expires at its expires_at: the secret gets 401 expired from then on', () => {
    const sim = createSimulator()
    const { key } = bodyOf(admin(sim).create({ name: 'Trial', expires_at: '2026-03-02T11:00:00Z' }))
    expect(caller(sim, key).current().status).toBe(200)
    sim.clock.set('2026-03-02T11:00:00Z')
    expect(bodyOf(caller(sim, key).current()).error.metadata).toEqual({ reason: 'expired' })
  })

  it('moves updated_at to the clock of every PATCH, and the PATCH of nothing changes nothing', () => {
    const sim = createSimulator()
    const api = admin(sim)
    const { data } = bodyOf(api.create({ name: 'Quiet' }))
    const before = JSON.stringify(sim.exportWorld())
    sim.clock.advance(5_000)
    const unchanged = api.update(data.hash, {})
    expect(unchanged.status).toBe(200)
    expect(bodyOf(unchanged).data).toEqual(data)
    sim.clock.set('2026-03-02T10:00:00Z')
    expect(JSON.stringify(sim.exportWorld())).toBe(before)

    sim.clock.advance(90_000)
    expect(bodyOf(api.update(data.hash, { name: 'Loud' })).data).toMatchObject({ name: 'Loud', updated_at: '2026-03-02T10:01:30.000000+00:00' })
    // The same values again are still an update.
    sim.clock.advance(1_000)
    expect(bodyOf(api.update(data.hash, { name: 'Loud' })).data.updated_at).toBe('2026-03-02T10:01:31.000000+00:00')
  })

  it('keeps updated_at at a usage record dated later than the PATCH', () => {
    const sim = createSimulator()
    const { data } = bodyOf(admin(sim).create({ name: 'Ahead' }))
    sim.usage.record({ keyHash: data.hash, cost: 1, at: '2026-03-03T00:00:00Z' })
    expect(bodyOf(admin(sim).update(data.hash, { disabled: false })).data.updated_at).toBe('2026-03-03T00:00:00.000000+00:00')
  })

  it('lets a management key change and delete management keys, itself included: it answers, then its secret is unknown', () => {
    const sim = createSimulator()
    const second = sim.keys.create({ userId: sim.world.userId, management: true, name: 'Second admin' })
    expect(bodyOf(admin(sim).update(second.record.hash, { name: 'Renamed admin' })).data.name).toBe('Renamed admin')
    const self = sim.keys.list().find((key) => key.name === 'Provisioning (Terraform)')
    expect(self).toBeDefined()
    const gone = admin(sim).remove(self?.hash as string)
    expect(gone.status).toBe(200)
    expect(bodyOf(gone)).toEqual({ deleted: true })
    expect(bodyOf(admin(sim).credits()).error.metadata).toEqual({ reason: 'unknown' })
    // The other management key still works, and the organisation keeps its figures.
    expect(caller(sim, second.key).credits().status).toBe(200)
  })

  it('lets a management key disable itself: the answer comes, then the secret is refused as disabled', () => {
    const sim = createSimulator()
    const self = sim.keys.list().find((key) => key.name === 'Provisioning (Terraform)')
    expect(bodyOf(admin(sim).update(self?.hash as string, { disabled: true })).data.disabled).toBe(true)
    expect(bodyOf(admin(sim).credits()).error.metadata).toEqual({ reason: 'disabled' })
  })

  it('is journaled with the body it was made with', () => {
    const sim = createSimulator()
    admin(sim).create({ name: 'Journaled' })
    const [entry] = sim.journal.list({ operation: 'createKey' })
    expect(entry).toMatchObject({ operation: 'createKey', status: 201, requestBody: '{"name":"Journaled"}' })
  })
})

describe('tenancy', () => {
  it("answers 404 to every method on another organisation's key, and changes nothing", () => {
    const sim = createSimulator()
    const globex = sim.keys.list().find((key) => key.creator_user_id === sim.world.otherTenant.userId && key.name !== 'Globex admin')
    expect(globex).toBeDefined()
    const hash = globex?.hash as string
    const before = JSON.stringify(sim.exportWorld())
    for (const response of [admin(sim).get(hash), admin(sim).update(hash, { disabled: true }), admin(sim).update(hash, {}), admin(sim).remove(hash)]) {
      expect(response.status).toBe(404)
      expect(bodyOf(response)).toEqual({ error: { code: 404, message: 'Resource not found', metadata: { resource: 'key' } }, user_id: sim.world.userId })
    }
    expect(JSON.stringify(sim.exportWorld())).toBe(before)
  })

  it("refuses another organisation's workspace as workspace_id with the 400 an unknown one gets", () => {
    const sim = createSimulator()
    const other = bodyOf(admin(sim).create({ name: 'x', workspace_id: sim.world.otherTenant.workspaceId }))
    const unknown = bodyOf(admin(sim).create({ name: 'x', workspace_id: '00000000-0000-4000-8000-000000000000' }))
    expect(other.error.metadata).toMatchObject({ parameter: 'workspace_id', reason: 'is not a workspace of the caller' })
    expect(unknown.error.metadata.reason).toBe(other.error.metadata.reason)
  })

  it("shows each organisation its own credits, and the other's deletions never reach it", () => {
    const sim = createSimulator()
    const globex = caller(sim, sim.world.otherTenant.managementKey)
    const acmeBefore = bodyOf(admin(sim).credits()).data
    const { data } = bodyOf(globex.create({ name: 'Globex spender' }))
    sim.usage.record({ keyHash: data.hash, cost: 7 })
    globex.remove(data.hash)
    expect(bodyOf(admin(sim).credits()).data).toEqual(acmeBefore)
    expect(bodyOf(globex.credits()).data.total_credits).toBe(sim.credits.get(sim.world.otherTenant.userId).total_credits)
  })

  it('refuses keys and credits to a regular key (403), and GET /key to nobody (401)', () => {
    const sim = createSimulator()
    const regular = caller(sim, sim.world.apiKey)
    for (const response of [regular.create({ name: 'x' }), regular.update(sim.world.apiKeyHash, {}), regular.remove(sim.world.apiKeyHash), regular.credits()]) {
      expect(response.status).toBe(403)
    }
    expect(sim.handle({ method: 'GET', path: '/key' }).status).toBe(401)
    expect(bodyOf(sim.handle({ method: 'GET', path: '/key' })).error.message).toBe('Missing Authentication header')
  })
})

/** A refused request: what it sends, the status and the field its envelope names. */
interface Refusal {
  name: string
  method: 'POST' | 'PATCH'
  body: string | Uint8Array
  contentType?: string
  status: 400 | 413
  parameter: string
  reason?: string | RegExp
}

const json = (value: unknown): string => JSON.stringify(value)

const REFUSALS: Refusal[] = [
  { name: 'malformed JSON', method: 'POST', body: '{"name": "x",', status: 400, parameter: 'body', reason: /^is not valid JSON/ },
  { name: 'a JSON array', method: 'POST', body: '[{"name":"x"}]', status: 400, parameter: 'body', reason: 'must be a JSON object, got an array' },
  { name: 'an empty body', method: 'POST', body: '', status: 400, parameter: 'body', reason: 'is required: a JSON object' },
  { name: 'bytes that are not UTF-8', method: 'POST', body: new Uint8Array([0x7b, 0xff, 0x7d]), status: 400, parameter: 'body', reason: 'is not valid UTF-8' },
  { name: 'a text/plain body', method: 'POST', body: json({ name: 'x' }), contentType: 'text/plain', status: 400, parameter: 'body', reason: /^must be sent as content-type application\/json/ },
  { name: 'a form body', method: 'PATCH', body: 'name=x', contentType: 'application/x-www-form-urlencoded', status: 400, parameter: 'body' },
  { name: 'a body over the size cap', method: 'POST', body: json({ name: 'x'.repeat(MAX_BODY_BYTES) }), status: 413, parameter: 'body' },
  { name: 'no name', method: 'POST', body: json({ limit: 5 }), status: 400, parameter: 'name', reason: 'is required' },
  { name: 'a null name', method: 'POST', body: json({ name: null }), status: 400, parameter: 'name', reason: 'is required' },
  { name: 'an empty name', method: 'POST', body: json({ name: '' }), status: 400, parameter: 'name', reason: 'must not be empty' },
  { name: 'a name of 257 characters', method: 'POST', body: json({ name: 'n'.repeat(257) }), status: 400, parameter: 'name', reason: 'must be at most 256 characters' },
  { name: 'a number as name', method: 'POST', body: json({ name: 42 }), status: 400, parameter: 'name', reason: 'must be a string' },
  { name: 'a misspelt limit_reset', method: 'POST', body: json({ name: 'x', limit: 5, limit_rest: 'daily' }), status: 400, parameter: 'limit_rest', reason: /^is not a field of this request/ },
  { name: 'a field of the update on a create', method: 'POST', body: json({ name: 'x', disabled: true }), status: 400, parameter: 'disabled' },
  { name: 'a negative limit', method: 'POST', body: json({ name: 'x', limit: -0.01 }), status: 400, parameter: 'limit', reason: 'must be at least 0' },
  { name: 'a limit too large to be finite', method: 'POST', body: '{"name":"x","limit":1e999}', status: 400, parameter: 'limit', reason: 'must be a number' },
  { name: 'a limit as a string', method: 'POST', body: json({ name: 'x', limit: '5' }), status: 400, parameter: 'limit', reason: 'must be a number' },
  { name: 'an unknown limit_reset', method: 'POST', body: json({ name: 'x', limit_reset: 'yearly' }), status: 400, parameter: 'limit_reset', reason: 'must be one of daily, weekly, monthly' },
  { name: 'include_byok_in_limit as 1', method: 'POST', body: json({ name: 'x', include_byok_in_limit: 1 }), status: 400, parameter: 'include_byok_in_limit', reason: 'must be true or false' },
  { name: 'expires_at without an offset', method: 'POST', body: json({ name: 'x', expires_at: '2026-12-31T00:00:00' }), status: 400, parameter: 'expires_at' },
  { name: 'expires_at as epoch seconds', method: 'POST', body: json({ name: 'x', expires_at: 1798675200 }), status: 400, parameter: 'expires_at', reason: /^must be a string/ },
  { name: 'expires_at in the past', method: 'POST', body: json({ name: 'x', expires_at: '2026-03-01T00:00:00Z' }), status: 400, parameter: 'expires_at', reason: /^must be later than now/ },
  { name: 'expires_at at now exactly', method: 'POST', body: json({ name: 'x', expires_at: '2026-03-02T10:00:00Z' }), status: 400, parameter: 'expires_at', reason: /^must be later than now/ },
  { name: 'a workspace_id that is a slug', method: 'POST', body: json({ name: 'x', workspace_id: 'production' }), status: 400, parameter: 'workspace_id', reason: 'must be a UUID' },
  { name: 'an external without its user', method: 'POST', body: json({ name: 'x', external: { api_key: 'k' } }), status: 400, parameter: 'external.user', reason: 'is required' },
  { name: 'a misspelt field of external', method: 'POST', body: json({ name: 'x', external: { user: 'u', apiKey: 'k' } }), status: 400, parameter: 'external.apiKey' },
  { name: 'an external that is a string', method: 'POST', body: json({ name: 'x', external: 'u' }), status: 400, parameter: 'external', reason: 'must be an object' },
  { name: 'an empty creator_user_id', method: 'POST', body: json({ name: 'x', creator_user_id: '' }), status: 400, parameter: 'creator_user_id' },
  { name: 'disabled as a string', method: 'PATCH', body: json({ disabled: 'true' }), status: 400, parameter: 'disabled', reason: 'must be true or false' },
  { name: 'a negative limit on an update', method: 'PATCH', body: json({ limit: -5 }), status: 400, parameter: 'limit', reason: 'must be at least 0' },
  { name: 'expires_at on an update (not a field the SDK sends there)', method: 'PATCH', body: json({ expires_at: null }), status: 400, parameter: 'expires_at' },
  { name: 'a misspelt field on an update', method: 'PATCH', body: json({ disabeld: true }), status: 400, parameter: 'disabeld' },
  { name: 'a good field beside a bad one on an update', method: 'PATCH', body: json({ name: 'Renamed', limit: 'lots' }), status: 400, parameter: 'limit' },
  { name: 'a null name on an update', method: 'PATCH', body: json({ name: null }), status: 400, parameter: 'name', reason: 'must not be null' },
  { name: 'a malformed update', method: 'PATCH', body: '{disabled: true}', status: 400, parameter: 'body' },
]

describe('refused bodies', () => {
  it.each(REFUSALS)('$name: $status naming $parameter, and nothing changes, not even the next secret drawn', (refusal) => {
    const sim = createSimulator()
    const target = sim.world.apiKeyHash
    const before = JSON.stringify(sim.exportWorld())
    const response = sim.handle({
      method: refusal.method,
      path: refusal.method === 'POST' ? '/keys' : `/keys/${target}`,
      authorization: `Bearer ${sim.world.managementKey}`,
      body: refusal.body,
      headers: { 'content-type': refusal.contentType ?? 'application/json' },
    })
    expect(response.status).toBe(refusal.status)
    const envelope = bodyOf(response)
    expect(envelope.error.code).toBe(refusal.status)
    expect(envelope.error.metadata.parameter).toBe(refusal.parameter)
    if (typeof refusal.reason === 'string') expect(envelope.error.metadata.reason).toBe(refusal.reason)
    else if (refusal.reason !== undefined) expect(envelope.error.metadata.reason).toMatch(refusal.reason)
    expect(envelope.user_id).toBe(sim.world.userId)
    expect(JSON.stringify(sim.exportWorld())).toBe(before)

    // The random state too: the next key made is the one a simulator that saw no refusal makes.
    const fresh = createSimulator()
    const next = bodyOf(admin(sim).create({ name: 'Next' }))
    const expected = bodyOf(admin(fresh).create({ name: 'Next' }))
    expect(next.key).toBe(expected.key)
    expect(next.data.hash).toBe(expected.data.hash)
  })

  it('reads a sim.handle body without headers as JSON, and a JSON content type with parameters', () => {
    const sim = createSimulator()
    expect(sim.handle({ method: 'POST', path: '/keys', authorization: `Bearer ${sim.world.managementKey}`, body: json({ name: 'No headers' }) }).status).toBe(201)
    expect(admin(sim).send('POST', '/keys', undefined, { body: json({ name: 'charset' }), headers: { 'Content-Type': 'application/json; charset=utf-8' } }).status).toBe(201)
  })

  it('authenticates before reading the body: a bad body from a regular key is a 403, from nobody a 401', () => {
    const sim = createSimulator()
    expect(caller(sim, sim.world.apiKey).send('POST', '/keys', '{bad').status).toBe(403)
    expect(sim.handle({ method: 'POST', path: '/keys', body: '{bad' }).status).toBe(401)
  })
})

describe('GET /key', () => {
  it("reports a management key's own figures, as a management and provisioning key", () => {
    const sim = createSimulator()
    const { data } = bodyOf(admin(sim).current())
    const record = sim.keys.list().find((key) => key.name === 'Provisioning (Terraform)')
    expect(data).toMatchObject({ is_management_key: true, is_provisioning_key: true, label: record?.label, usage: record?.usage, workspace_id: record?.workspace_id, organization_id: null })
  })

  it("reports the regular key's usage and limit figures as GET /keys/{hash} shows them", () => {
    const sim = createSimulator()
    const { data } = bodyOf(caller(sim, sim.world.apiKey).current())
    const record = sim.keys.get(sim.world.apiKeyHash)
    expect(data.is_management_key).toBe(false)
    for (const field of ['label', 'limit', 'limit_remaining', 'limit_reset', 'include_byok_in_limit', 'usage', 'usage_daily', 'usage_weekly', 'usage_monthly', 'byok_usage', 'byok_usage_daily', 'byok_usage_weekly', 'byok_usage_monthly', 'expires_at', 'creator_user_id', 'workspace_id'] as const) {
      expect(data[field], field).toEqual(record?.[field])
    }
    expect(data.allowed_data_regions).toEqual(['global'])
  })

  it('reports the rate limit that applies: the key\'s own, else the simulator\'s, else none (-1)', () => {
    const none = createSimulator()
    expect(bodyOf(caller(none, none.world.apiKey).current()).data.rate_limit).toEqual({ interval: '10s', note: 'This field is deprecated and safe to ignore.', requests: -1 })
    const limited = createSimulator({ rateLimit: { requests: 20, intervalMs: 60_000 } })
    expect(bodyOf(caller(limited, limited.world.apiKey).current()).data.rate_limit).toMatchObject({ interval: '1m', requests: 20 })
    const own = limited.keys.create({ userId: limited.world.userId, rateLimit: { requests: 5, intervalMs: 1500 } })
    expect(bodyOf(caller(limited, own.key).current()).data.rate_limit).toMatchObject({ interval: '1500ms', requests: 5 })
    const hourly = limited.keys.create({ userId: limited.world.userId, rateLimit: { requests: 1000, intervalMs: 3_600_000 } })
    expect(bodyOf(caller(limited, hourly.key).current()).data.rate_limit).toMatchObject({ interval: '1h', requests: 1000 })
    const tenSeconds = limited.keys.create({ userId: limited.world.userId, rateLimit: { requests: 50, intervalMs: 10_000 } })
    expect(bodyOf(caller(limited, tenSeconds.key).current()).data.rate_limit).toMatchObject({ interval: '10s', requests: 50 })
  })

  it('is on the free tier until the organisation buys credits, with 50 free-model requests a day, 1,000 from 10 USD', () => {
    const sim = createSimulator({ world: 'empty' })
    const org = sim.users.create({ name: 'New' })
    const { key } = sim.keys.create({ userId: org.id })
    const figures = () => bodyOf(caller(sim, key).current()).data
    expect(figures()).toMatchObject({ is_free_tier: true, free_model_daily_requests: { limit: 50, remaining: 50, used: 0 } })
    sim.credits.add({ userId: org.id, amount: 9.99 })
    expect(figures()).toMatchObject({ is_free_tier: false, free_model_daily_requests: { limit: 50 } })
    sim.credits.add({ userId: org.id, amount: 0.01 })
    expect(figures().free_model_daily_requests).toEqual({ limit: 1000, remaining: 1000, used: 0 })
  })

  it('answers a disabled or expired key with 401, and anything but GET on /key with the not-simulated 404', () => {
    const sim = createSimulator()
    expect(bodyOf(caller(sim, sim.keys.create({ userId: sim.world.userId, disabled: true }).key).current()).error.metadata).toEqual({ reason: 'disabled' })
    expect(caller(sim, sim.world.apiKey).send('POST', '/key', {}).status).toBe(404)
  })
})

describe('GET /credits and sim.credits', () => {
  it('starts a new organisation at 0 credits and 0 usage, and adds exactly', () => {
    const sim = createSimulator({ world: 'empty' })
    const org = sim.users.create({ name: 'New' })
    const management = sim.keys.create({ userId: org.id, management: true })
    expect(bodyOf(caller(sim, management.key).credits())).toEqual({ data: { total_credits: 0, total_usage: 0 } })
    expect(sim.credits.add({ userId: org.id, amount: 0.1 })).toEqual({ total_credits: 0.1, total_usage: 0 })
    expect(sim.credits.add({ userId: org.id, amount: 0.2 })).toEqual({ total_credits: 0.3, total_usage: 0 })
    expect(sim.credits.get(org.id)).toEqual(bodyOf(caller(sim, management.key).credits()).data)
  })

  it('sums every key of the organisation exactly, regular usage only, management and disabled keys included', () => {
    const sim = createSimulator({ world: 'empty' })
    const org = sim.users.create({ name: 'Spender' })
    const keys = [sim.keys.create({ userId: org.id }), sim.keys.create({ userId: org.id, disabled: true }), sim.keys.create({ userId: org.id, management: true })]
    for (const { record } of keys) for (let i = 0; i < 10; i++) sim.usage.record({ keyHash: record.hash, cost: 0.1 })
    sim.usage.record({ keyHash: keys[0]?.record.hash as string, cost: 100, byok: true })
    // Dated after now: not spent yet.
    sim.usage.record({ keyHash: keys[0]?.record.hash as string, cost: 5, at: '2026-03-03T00:00:00Z' })
    expect(sim.credits.get(org.id).total_usage).toBe(3)
    sim.clock.set('2026-03-03T00:00:00Z')
    expect(sim.credits.get(org.id).total_usage).toBe(8)
  })

  it('answers again at once without going stale: after a charge, a deletion, a purchase, a clock move or a restore', () => {
    const sim = createSimulator({ world: 'empty' })
    const org = sim.users.create({ name: 'Asker' })
    const { record } = sim.keys.create({ userId: org.id })
    const usage = () => sim.credits.get(org.id).total_usage
    const saved = sim.snapshot()
    expect(usage()).toBe(0)
    sim.usage.record({ keyHash: record.hash, cost: 1 })
    expect(usage()).toBe(1)
    sim.usage.record({ keyHash: record.hash, cost: 2, at: '2026-03-02T11:00:00Z' })
    expect(usage()).toBe(1)
    sim.clock.set('2026-03-02T11:00:00Z')
    expect(usage()).toBe(3)
    sim.clock.set('2026-03-02T10:30:00Z')
    expect(usage()).toBe(1)
    const other = sim.keys.create({ userId: org.id })
    sim.usage.record({ keyHash: other.record.hash, cost: 4 })
    expect(usage()).toBe(5)
    sim.keys.delete(other.record.hash)
    expect(usage()).toBe(5)
    sim.restore(saved)
    expect(usage()).toBe(0)
    expect(sim.credits.add({ userId: org.id, amount: 3 })).toEqual({ total_credits: 3, total_usage: 0 })

    // A key made, charged and deleted since a snapshot: restoring it changes no key, only the organisation's row.
    const before = sim.snapshot()
    const brief = sim.keys.create({ userId: org.id })
    sim.usage.record({ keyHash: brief.record.hash, cost: 7 })
    sim.keys.delete(brief.record.hash)
    expect(usage()).toBe(7)
    sim.restore(before)
    expect(usage()).toBe(0)
  })

  it("keeps a deleted key's spending as of its deletion in total_usage", () => {
    const sim = createSimulator({ world: 'empty' })
    const org = sim.users.create({ name: 'Deleter' })
    const { record } = sim.keys.create({ userId: org.id })
    sim.usage.record({ keyHash: record.hash, cost: 1.25 })
    sim.usage.record({ keyHash: record.hash, cost: 0.5, byok: true })
    sim.keys.delete(record.hash)
    expect(sim.keys.get(record.hash)).toBeUndefined()
    expect(sim.credits.get(org.id)).toEqual({ total_credits: 0, total_usage: 1.25 })
    sim.clock.advance(40 * 86_400_000)
    expect(sim.credits.get(org.id).total_usage).toBe(1.25)
  })

  it('refuses a bad purchase naming the argument, and adds nothing', () => {
    const sim = createSimulator()
    const before = sim.credits.get(sim.world.userId)
    const cases: [unknown, string][] = [
      [{ userId: sim.world.userId, amount: 0 }, 'amount'],
      [{ userId: sim.world.userId, amount: -5 }, 'amount'],
      [{ userId: sim.world.userId, amount: Number.POSITIVE_INFINITY }, 'amount'],
      [{ userId: sim.world.userId, amount: '5' }, 'amount'],
      [{ userId: sim.world.userId, amount: 1e-12 }, 'amount'],
      [{ userId: sim.world.userId, amount: Number.NaN }, 'amount'],
      [{ userId: 'user_nobody', amount: 5 }, 'userId'],
      [{ userId: sim.world.userId, amount: 5, currency: 'EUR' }, 'currency'],
    ]
    for (const [options, argument] of cases) {
      let thrown: unknown
      try {
        sim.credits.add(options as never)
      } catch (error) {
        thrown = error
      }
      expect(thrown, JSON.stringify(options)).toMatchObject({ argument })
    }
    expect(() => sim.credits.get('user_nobody')).toThrow(/unknown user/)
    expect(sim.credits.get(sim.world.userId)).toEqual(before)
  })

  it('keeps whole dollars exactly past the 900,719 USD a safe integer of 10^-10 USD holds, and sums past it', () => {
    const sim = createSimulator({ world: 'empty' })
    const org = sim.users.create({ name: 'Enterprise', credits: { total: 5_000_000 } })
    expect(sim.credits.add({ userId: org.id, amount: 2_000_000 }).total_credits).toBe(7_000_000)
    expect(sim.credits.add({ userId: org.id, amount: 0.25 }).total_credits).toBe(7_000_000.25)
    // Twelve keys of 900,000 USD each: 10.8 million, summed past the safe integers without a unit lost.
    for (let i = 0; i < 12; i++) sim.usage.record({ keyHash: sim.keys.create({ userId: org.id }).record.hash, cost: 900_000.0000000001 })
    expect(sim.credits.get(org.id).total_usage).toBe(10_800_000.0000000012)
    const copy = createSimulator({ world: sim.exportWorld() })
    expect(copy.credits.get(org.id)).toEqual(sim.credits.get(org.id))
  })

  it('gives the default world some credits per organisation, more than it has spent', () => {
    const sim = createSimulator()
    for (const user of sim.users.list()) {
      const { total_credits, total_usage } = sim.credits.get(user.id)
      expect(total_credits, user.name).toBeGreaterThan(total_usage)
      expect(total_credits % 10).toBe(0)
    }
  })

  it('is undone by reset and restore, and kept by a snapshot', () => {
    const sim = createSimulator()
    const initial = sim.credits.get(sim.world.userId)
    sim.credits.add({ userId: sim.world.userId, amount: 100 })
    const saved = sim.snapshot()
    admin(sim).remove(sim.world.apiKeyHash)
    sim.credits.add({ userId: sim.world.userId, amount: 1 })
    const later = sim.credits.get(sim.world.userId)
    sim.restore(saved)
    expect(sim.credits.get(sim.world.userId)).toEqual({ ...initial, total_credits: initial.total_credits + 100 })
    expect(caller(sim, sim.world.apiKey).current().status).toBe(200)
    const after = sim.snapshot()
    sim.reset()
    expect(sim.credits.get(sim.world.userId)).toEqual(initial)
    sim.restore(after)
    expect(sim.credits.get(sim.world.userId).total_credits).toBe(initial.total_credits + 100)
    expect(later.total_credits).toBe(initial.total_credits + 101)
  })
})

describe('credits in world specs and exports', () => {
  it('loads credits per user, and validateWorld names a bad figure', () => {
    const spec: WorldSpec = { format: WORLD_FORMAT, users: [{ id: 'user_acme', credits: { total: 12.5, retiredUsage: 2 } }], keys: [{ userId: 'user_acme', secret: 'sk-or-v1-admin', management: true }] }
    const sim = createSimulator({ world: spec })
    expect(sim.credits.get('user_acme')).toEqual({ total_credits: 12.5, total_usage: 2 })
    expect(validateWorld({ ...spec, users: [{ id: 'user_acme', credits: { total: -1 } }] }).map((p) => p.path)).toEqual(['world.users[0].credits.total'])
    expect(validateWorld({ ...spec, users: [{ id: 'user_acme', credits: { totl: 5 } }] }).map((p) => p.path)).toEqual(['world.users[0].credits.totl'])
    expect(validateWorld({ ...spec, users: [{ id: 'user_acme', credits: 5 }] }).map((p) => p.path)).toEqual(['world.users[0].credits'])
  })

  it('exports credits and deleted keys\' usage, and the export reloads to the same GET /credits to the last unit', () => {
    const sim = createSimulator()
    sim.credits.add({ userId: sim.world.userId, amount: 0.0000000001 })
    sim.usage.record({ keyHash: sim.world.apiKeyHash, cost: 1234.5678901234 })
    admin(sim).remove(sim.world.apiKeyHash)
    const spec = sim.exportWorld()
    const acme = spec.users?.find((user) => user.id === sim.world.userId)
    expect(acme?.credits?.retiredUsage).toBeGreaterThan(1234)
    const copy = createSimulator({ world: spec })
    for (const user of sim.users.list()) expect(copy.credits.get(user.id)).toEqual(sim.credits.get(user.id))
    expect(bodyOf(admin(copy).credits())).toEqual(bodyOf(admin(sim).credits()))
  })

  it('round-trips a key made over the wire: the copy answers its secret and lists it where the original does', () => {
    const sim = createSimulator()
    const { key, data } = bodyOf(admin(sim).create({ name: 'Wire-made', limit: 4, workspace_id: sim.world.workspaces.staging, external: { user: 'partner-user-9' } }))
    const copy = createSimulator({ world: sim.exportWorld() })
    expect(bodyOf(caller(copy, key).current())).toEqual(bodyOf(caller(sim, key).current()))
    expect(bodyOf(admin(copy).get(data.hash))).toEqual(bodyOf(admin(sim).get(data.hash)))
    expect(bodyOf(admin(copy).get(data.hash)).data.external_user).toBe('partner-user-9')
  })
})
