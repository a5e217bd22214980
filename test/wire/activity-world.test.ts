// Activity as world state (decisions/0053): a world spec's `activity` list, `sim.activity.record` and
// `POST /__sim/activity` make the daily rows `GET /activity` and analytics read, through the same
// checks; exportWorld() (whole and in parts) writes them back, so a reloaded world answers alike.
import { describe, expect, it } from 'vitest'
import { toBase64 } from '../../src/core/base64.js'
import { createControlApi } from '../../src/core/control-api.js'
import { internalsOf } from '../../src/core/internals.js'
import { MAX_EXACT_USD } from '../../src/core/usage.js'
import { createSimulator, validateWorld, type RecordActivityOptions, type WorldActivity } from '../../src/index.js'
import { simulatorErrorOf } from '../support/server.js'

const NOW = '2026-03-02T10:00:00Z'
const DAY = 86_400_000
const MINI = 'openai/gpt-4.1-mini'
const SONNET = 'anthropic/claude-sonnet-4.5'

type Sim = ReturnType<typeof createSimulator>

const base = createSimulator({ now: NOW })
const { userId, apiKeyHash } = base.world

/** The default world with `activity` added. */
function worldWith(activity: unknown[]): ReturnType<Sim['exportWorld']> {
  return { ...base.exportWorld(), activity: activity as WorldActivity[] }
}

const entry = (fields: Partial<WorldActivity> = {}): WorldActivity => ({ userId, date: '2026-03-01', keyHash: apiKeyHash, model: MINI, provider: 'OpenAI', requests: 10, usage: 0.1, promptTokens: 1000, completionTokens: 500, ...fields })

const HISTORY: WorldActivity[] = [
  entry({ reasoningTokens: 20 }),
  entry({ date: '2026-02-15', model: SONNET, provider: 'Anthropic', requests: 3, usage: 1.5, byokUsage: 0.25, promptTokens: 300, completionTokens: 200 }),
  entry({ date: '2026-02-15', provider: 'Azure', requests: 2, usage: 0.02, promptTokens: 10, completionTokens: 5 }),
  // 31 days before today: outside GET /activity's window.
  entry({ date: '2026-01-30', requests: 99, usage: 9 }),
  // Today: not a completed day.
  entry({ date: '2026-03-02', requests: 7, usage: 0.07 }),
  // The same row as the first: entries add up.
  entry({ requests: 5, usage: 0.05, promptTokens: 100, completionTokens: 50 }),
]

function activity(sim: Sim, query = ''): Record<string, any>[] {
  const res = sim.handle({ method: 'GET', path: '/activity', query, authorization: `Bearer ${sim.world.managementKey}` })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return (res.body as { data: Record<string, any>[] }).data
}

function analytics(sim: Sim, body: Record<string, unknown>): Record<string, any>[] {
  const res = sim.handle({ method: 'POST', path: '/analytics/query', authorization: `Bearer ${sim.world.managementKey}`, body: JSON.stringify(body) })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return (res.body as { data: { data: Record<string, any>[] } }).data.data
}

const byProvider = (rows: Record<string, any>[]) => [...rows].sort((a, b) => (a['provider'] < b['provider'] ? -1 : 1))

describe('a world spec with activity', () => {
  it('answers GET /activity with the last 30 completed UTC days, entries of one row summed', () => {
    const sim = createSimulator({ world: worldWith(HISTORY) })
    expect(activity(sim).map((r) => [r['date'], r['model'], r['provider_name'], r['requests'], r['usage'], r['byok_usage_inference'], r['prompt_tokens'], r['completion_tokens'], r['reasoning_tokens']])).toEqual([
      ['2026-03-01', MINI, 'OpenAI', 15, 0.15, 0, 1100, 550, 20],
      ['2026-02-15', SONNET, 'Anthropic', 3, 1.5, 0.25, 300, 200, 0],
      ['2026-02-15', MINI, 'Azure', 2, 0.02, 0, 10, 5, 0],
    ])
    // The permaslug and the endpoint id, taken from the catalog: those of a real request's row.
    const real = createSimulator({ now: NOW })
    const res = real.handle({ method: 'POST', path: '/chat/completions', authorization: `Bearer ${real.world.apiKey}`, body: JSON.stringify({ model: MINI, messages: [{ role: 'user', content: 'Hi' }], provider: { only: ['openai'] } }) })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    real.clock.advance(DAY)
    const [made] = activity(real)
    expect(made!['provider_name']).toBe('OpenAI')
    expect([activity(sim)[0]!['model_permaslug'], activity(sim)[0]!['endpoint_id']]).toEqual([made!['model_permaslug'], made!['endpoint_id']])
    // The key's workspace and creator, taken from the key.
    const key = base.keys.get(apiKeyHash)!
    expect(activity(sim, `group_by=workspace&user_id=${key.creator_user_id}`).map((r) => r['workspace_id'])).toEqual([key.workspace_id, key.workspace_id, key.workspace_id])
    expect(activity(sim, 'date=2026-02-15').map((r) => r['requests'])).toEqual([3, 2])
  })

  it('answers POST /analytics/query with exactly those figures', () => {
    const sim = createSimulator({ world: worldWith(HISTORY) })
    const metrics = ['request_count', 'usage', 'byok_usage', 'prompt_tokens']
    // The whole history.
    expect(byProvider(analytics(sim, { metrics, dimensions: ['provider'], time_range: { start: '2026-01-01T00:00:00Z', end: '2026-03-03T00:00:00Z' } }))).toEqual([
      { provider: 'Anthropic', request_count: 3, usage: 1.5, byok_usage: 0.25, prompt_tokens: 300 },
      { provider: 'Azure', request_count: 2, usage: 0.02, byok_usage: 0, prompt_tokens: 10 },
      { provider: 'OpenAI', request_count: 121, usage: 9.22, byok_usage: 0, prompt_tokens: 1100 + 1000 + 1000 },
    ])
    // The default range, the 30 days before now: today counts, 2026-01-30 does not.
    expect(byProvider(analytics(sim, { metrics: ['request_count', 'usage'], dimensions: ['provider'] }))).toEqual([
      { provider: 'Anthropic', request_count: 3, usage: 1.5 },
      { provider: 'Azure', request_count: 2, usage: 0.02 },
      { provider: 'OpenAI', request_count: 22, usage: 0.22 },
    ])
    expect(analytics(sim, { metrics: ['request_count'], granularity: 'day', time_range: { start: '2026-02-15T00:00:00Z', end: '2026-02-16T00:00:00Z' } })).toEqual([{ date: '2026-02-15', request_count: 5 }])
  })

  it('moves the dates with the world by whole days, so "3 days ago" stays 3 days ago', () => {
    const world = { ...worldWith([entry({ date: '2026-02-27' })]), now: NOW }
    const later = createSimulator({ world, now: '2026-03-12T23:00:00Z' })
    expect(activity(later).map((r) => r['date'])).toEqual(['2026-03-09'])
  })

  it('loads a deleted key’s and an unknown model’s history when they give what cannot be taken from them', () => {
    const sim = createSimulator({
      world: worldWith([
        entry({ keyHash: 'a'.repeat(64), workspaceId: base.keys.get(apiKeyHash)!.workspace_id, creatorUserId: 'user_gone' }),
        entry({ model: 'acme/gone-1', provider: 'Acme', permaslug: 'acme/gone-1-2025', endpointId: '11111111-2222-4333-8444-555555555555' }),
        entry({ model: SONNET, provider: 'Google', endpointId: '11111111-2222-4333-8444-666666666666' }),
      ]),
    })
    expect(activity(sim).map((r) => [r['model'], r['model_permaslug'], r['endpoint_id']])).toContainEqual(['acme/gone-1', 'acme/gone-1-2025', '11111111-2222-4333-8444-555555555555'])
    expect(activity(sim, 'user_id=user_gone').map((r) => r['requests'])).toEqual([10])
  })
})

describe('a bad entry', () => {
  const other = base.keys.list().find((key) => key.creator_user_id === base.world.otherTenant.userId)!.hash
  const cases: [string, Partial<Record<keyof WorldActivity | 'usd', unknown>>, string, string][] = [
    ['an unknown organisation', { userId: 'user_nobody' }, 'userId', 'UNKNOWN_USER'],
    ['a day that is not in the calendar', { date: '2026-02-30' }, 'date', 'INVALID_ARGUMENT'],
    ['a date not YYYY-MM-DD', { date: '2026-3-1' }, 'date', 'INVALID_ARGUMENT'],
    ['a day after today', { date: '2026-03-03' }, 'date', 'INVALID_ARGUMENT'],
    ['a hash of no key, without a workspace', { keyHash: 'b'.repeat(64) }, 'keyHash', 'UNKNOWN_KEY'],
    ['another organisation’s key', { keyHash: other, workspaceId: base.keys.get(apiKeyHash)!.workspace_id }, 'keyHash', 'UNKNOWN_KEY'],
    ['a key hash not 64 hexadecimal digits', { keyHash: 'abc' }, 'keyHash', 'INVALID_ARGUMENT'],
    ['an empty model', { model: '' }, 'model', 'INVALID_ARGUMENT'],
    ['a provider without an endpoint of the model', { provider: 'Nobody' }, 'provider', 'INVALID_ARGUMENT'],
    ['a provider of two endpoints, without endpointId', { model: SONNET, provider: 'Google' }, 'endpointId', 'INVALID_ARGUMENT'],
    ['a model not in the catalog, without permaslug', { model: 'acme/gone-1', endpointId: '11111111-2222-4333-8444-555555555555' }, 'permaslug', 'INVALID_ARGUMENT'],
    ['a model not in the catalog, without endpointId', { model: 'acme/gone-1', permaslug: 'acme/gone-1' }, 'endpointId', 'INVALID_ARGUMENT'],
    ['an endpointId not a UUID', { endpointId: 'endpoint-1' }, 'endpointId', 'INVALID_ARGUMENT'],
    ['a workspaceId not a UUID', { workspaceId: 'staging' }, 'workspaceId', 'INVALID_ARGUMENT'],
    ['a negative usage', { usage: -1 }, 'usage', 'INVALID_ARGUMENT'],
    ['a usage that is not finite', { usage: Number.NaN }, 'usage', 'INVALID_ARGUMENT'],
    ['a usage past the exact range', { usage: MAX_EXACT_USD + 1 }, 'usage', 'INVALID_ARGUMENT'],
    ['a byokUsage not a number', { byokUsage: '0.5' }, 'byokUsage', 'INVALID_ARGUMENT'],
    ['a fractional request count', { requests: 1.5 }, 'requests', 'INVALID_ARGUMENT'],
    ['negative prompt tokens', { promptTokens: -1 }, 'promptTokens', 'INVALID_ARGUMENT'],
    ['no completion tokens', { completionTokens: undefined }, 'completionTokens', 'INVALID_ARGUMENT'],
    ['reasoning tokens not a number', { reasoningTokens: 'many' }, 'reasoningTokens', 'INVALID_ARGUMENT'],
    ['a creator not a string', { creatorUserId: 7 }, 'creatorUserId', 'INVALID_ARGUMENT'],
    ['an unknown field', { usd: 1 }, 'usd', 'INVALID_ARGUMENT'],
  ]

  it.each(cases)('is refused by sim.activity.record, naming the field: %s', (_, fields, field, code) => {
    const sim = createSimulator({ now: NOW })
    const error = simulatorErrorOf(() => sim.activity.record({ ...entry(), ...fields } as RecordActivityOptions))
    expect([error.argument, error.code]).toEqual([field, code])
    // Nothing was made.
    expect(sim.exportWorld().activity).toBeUndefined()
  })

  it.each(cases)('is refused in a world spec, naming world.activity[i].field: %s', (_, fields, field, code) => {
    const error = simulatorErrorOf(() => createSimulator({ world: worldWith([entry(), { ...entry(), ...fields }]) }))
    expect([error.argument, error.code]).toEqual([`world.activity[1].${field}`, code])
  })

  it('is reported by validateWorld with the others, each at its path', () => {
    const problems = validateWorld(worldWith([entry({ usage: -1 }), entry(), entry({ date: '2026-02-30', requests: -1 })]))
    expect(problems.map((p) => [p.path, p.code])).toEqual([
      ['world.activity[0].usage', 'INVALID_ARGUMENT'],
      ['world.activity[2].date', 'INVALID_ARGUMENT'],
    ])
  })

  it('is refused when it names a row already there otherwise, and nothing is added', () => {
    const sim = createSimulator({ now: NOW })
    sim.activity.record(entry())
    const before = sim.exportWorld().activity
    const error = simulatorErrorOf(() => sim.activity.record(entry({ permaslug: 'openai/other' })))
    expect([error.argument, error.code]).toEqual(['permaslug', 'INVALID_ARGUMENT'])
    expect(sim.exportWorld().activity).toEqual(before)
  })
})

describe('exportWorld with activity', () => {
  const chat = (sim: Sim, secret: string, model: string) => {
    const res = sim.handle({ method: 'POST', path: '/chat/completions', authorization: `Bearer ${secret}`, body: JSON.stringify({ model, messages: [{ role: 'user', content: 'Hello there' }] }) })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
  }

  /** Real requests over three days, one of a key deleted since, and recorded history. */
  function busy(): Sim {
    const sim = createSimulator({ now: NOW })
    const spender = sim.keys.create({ userId: sim.world.userId, name: 'spender' })
    chat(sim, sim.world.apiKey, MINI)
    chat(sim, spender.key, SONNET)
    sim.clock.advance(DAY)
    chat(sim, sim.world.apiKey, MINI)
    chat(sim, spender.key, MINI)
    sim.keys.delete(spender.record.hash)
    sim.clock.advance(DAY)
    chat(sim, sim.world.apiKey, SONNET)
    sim.activity.record(entry({ date: '2026-02-20', model: SONNET, provider: 'Google', endpointId: '11111111-2222-4333-8444-666666666666', byokUsage: 3, reasoningTokens: 4 }))
    sim.activity.record(entry({ date: '2026-02-21', usage: MAX_EXACT_USD }))
    return sim
  }

  const everything = { metrics: ['request_count', 'usage', 'byok_usage', 'prompt_tokens', 'completion_tokens', 'reasoning_tokens'], dimensions: ['model', 'provider', 'workspace', 'api_key_id', 'user'], granularity: 'day' }

  it('writes every row back, so a reloaded world answers GET /activity and analytics alike', () => {
    const sim = busy()
    const world = sim.exportWorld()
    expect(world.activity?.length).toBeGreaterThan(5)
    const again = createSimulator({ world: JSON.parse(JSON.stringify(world)) })
    for (const query of ['', 'group_by=workspace', 'date=2026-03-02']) expect(activity(again, query)).toEqual(activity(sim, query))
    expect(analytics(again, everything)).toEqual(analytics(sim, everything))
    // And once more: the export of the reloaded world is the same.
    expect(again.exportWorld()).toEqual(world)
  })

  it('writes them in parts as JSON.stringify of exportWorld()', () => {
    const sim = busy()
    const internals = internalsOf(sim)!
    expect([...internals.exportWorldParts({ encode: toBase64 })].join('')).toBe(JSON.stringify(sim.exportWorld()))
  })

  it('leaves a world without activity as it was', () => {
    expect(Object.keys(createSimulator({ now: NOW }).exportWorld())).not.toContain('activity')
  })
})

describe('sim.activity.record and POST /__sim/activity', () => {
  it('records after creation, and snapshots and restore cover it', () => {
    const sim = createSimulator({ now: NOW })
    const empty = sim.snapshot()
    const row = sim.activity.record(entry())
    expect(row).toEqual(activity(sim, 'group_by=workspace')[0])
    const recorded = sim.snapshot()
    sim.activity.record(entry())
    expect(activity(sim)[0]!['requests']).toBe(20)
    sim.restore(recorded)
    expect(activity(sim)[0]!['requests']).toBe(10)
    sim.restore(empty)
    expect(activity(sim)).toEqual([])
    sim.restore(recorded)
    expect(activity(sim).map((r) => r['requests'])).toEqual([10])
    sim.reset()
    expect(activity(sim)).toEqual([])
  })

  it('is mirrored by the control API, refusals naming the field', () => {
    const sim = createSimulator({ now: NOW })
    const control = createControlApi(sim)
    const post = (body: unknown) => control.handle({ method: 'POST', path: '/activity', query: new URLSearchParams(), body: JSON.stringify(body) })
    const ok = post(entry())
    expect(ok.status).toBe(200)
    expect((ok as { body: unknown }).body).toEqual(activity(sim, 'group_by=workspace')[0])
    const bad = post(entry({ usage: -1 }))
    expect(bad.status).toBe(400)
    expect((bad as { body: any }).body.error.metadata).toMatchObject({ argument: 'usage', code: 'INVALID_ARGUMENT' })
    expect(activity(sim).map((r) => r['requests'])).toEqual([10])
  })
})
