// Activity (decisions/0053): `GET /activity` reads the daily rows the money path keeps as it charges,
// through the official SDK and `sim.handle`: the last 30 completed UTC days of the simulator clock,
// by day and endpoint, filtered and grouped as the SDK asks, and equal to the generations' costs.
import fc from 'fast-check'
import { beforeEach, describe, expect, it } from 'vitest'
import { createSimulator, type SimResponse } from '../../src/index.js'
import { toUnits } from '../../src/core/usage.js'
import type { StoreContext } from '../../src/core/store/context.js'
import { recordGeneration } from '../../src/core/store/generations.js'
import { StoreIndices, emptyStoreData } from '../../src/core/store/state.js'
import { activityOf } from '../../src/core/store/activity.js'
import { sdkClient, useSimulatorServer } from '../support/server.js'

const harness = useSimulatorServer()
const DAY = 86_400_000
const MINI = 'openai/gpt-4.1-mini'
const SONNET = 'anthropic/claude-sonnet-4.5'

type Sim = ReturnType<typeof createSimulator>

/** A completion through `sim.handle`, and its generation as `GET /generation` reads it. */
function chat(sim: Sim, secret: string, model: string, extra: Record<string, unknown> = {}) {
  const res = sim.handle({ method: 'POST', path: '/chat/completions', authorization: `Bearer ${secret}`, body: JSON.stringify({ model, messages: [{ role: 'user', content: 'Hello there' }], provider: { sort: 'price' }, ...extra }) })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res
}

function generation(sim: Sim, id: string): Record<string, any> {
  const res = sim.handle({ method: 'GET', path: '/generation', query: `id=${id}`, authorization: `Bearer ${sim.world.managementKey}` })
  return (res.body as { data: Record<string, any> }).data
}

function activity(sim: Sim, query = '', secret = sim.world.managementKey) {
  return sim.handle({ method: 'GET', path: '/activity', query, authorization: `Bearer ${secret}` })
}

const rows = (sim: Sim, query = ''): Record<string, any>[] => {
  const res = activity(sim, query)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return (res.body as { data: Record<string, any>[] }).data
}

describe('GET /activity', () => {
  let sim: Sim
  beforeEach(() => {
    sim = createSimulator({ now: '2026-03-02T10:00:00Z' })
    harness.serve(sim)
  })

  it('lists a completed day by endpoint, parsed by the SDK, with the generations’ cost and tokens', async () => {
    const ids = [chat(sim, sim.world.apiKey, MINI), chat(sim, sim.world.apiKey, MINI), chat(sim, sim.world.apiKey, SONNET)].map((r) => (r.body as { id: string }).id)
    const sdk = sdkClient(sim.world.managementKey)
    // Today is not a completed day: nothing yet.
    expect((await sdk.analytics.getUserActivity()).data).toEqual([])
    sim.clock.advance(DAY)
    const { data } = await sdk.analytics.getUserActivity()
    expect(data.map((item) => [item.date, item.model, item.requests])).toEqual([
      ['2026-03-02', SONNET, 1],
      ['2026-03-02', MINI, 2],
    ])
    const gens = ids.map((id) => generation(sim, id))
    const mini = data[1]!
    expect(mini.usage).toBe(gens[0]!['total_cost'] + gens[1]!['total_cost'])
    expect(mini.promptTokens).toBe(gens[0]!['tokens_prompt'] + gens[1]!['tokens_prompt'])
    expect(mini.completionTokens).toBe(gens[0]!['tokens_completion'] + gens[1]!['tokens_completion'])
    expect(mini.providerName).toBe(gens[0]!['provider_name'])
    expect(mini.endpointId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
    expect(mini.byokUsageInference).toBe(0)
    expect(mini.workspaceId).toBeUndefined()
  })

  it('keeps the last 30 completed UTC days of the simulator clock, and refuses a date outside them', () => {
    chat(sim, sim.world.apiKey, MINI) // 2026-03-02
    sim.clock.advance(14 * 3_600_000 - 1) // 23:59:59.999 the same day
    chat(sim, sim.world.apiKey, MINI)
    sim.clock.advance(1) // 2026-03-03T00:00:00Z
    chat(sim, sim.world.apiKey, MINI)
    sim.clock.advance(DAY)
    expect(rows(sim).map((r) => [r.date, r.requests])).toEqual([
      ['2026-03-03', 1],
      ['2026-03-02', 2],
    ])
    expect(rows(sim, 'date=2026-03-02').map((r) => r.requests)).toEqual([2])
    // 30 days after the 3rd, the 2nd is the 31st day back: gone from the answer, refused as a date.
    sim.clock.advance(29 * DAY)
    expect(rows(sim).map((r) => r.date)).toEqual(['2026-03-03'])
    const old = activity(sim, 'date=2026-03-02')
    expect(old.status).toBe(400)
    expect(old.body).toMatchObject({ error: { metadata: { parameter: 'date', reason: 'must be one of the last 30 completed UTC days', value: '2026-03-02' } } })
    // Today is not completed yet.
    expect(activity(sim, 'date=2026-04-02').status).toBe(400)
    expect((activity(sim, 'date=2026-02-30').body as any).error.metadata.reason).toBe('must be a UTC date in YYYY-MM-DD format')
  })

  it('filters by key, workspace and creator, and splits per workspace with group_by', () => {
    const research = sim.keys.create({ userId: sim.world.userId, workspaceId: sim.world.workspaces.research, creatorUserId: 'user_ada' })
    chat(sim, sim.world.apiKey, MINI)
    chat(sim, research.key, MINI)
    sim.clock.advance(DAY)
    expect(rows(sim).map((r) => r.requests)).toEqual([2])
    const split = rows(sim, 'group_by=workspace')
    expect(split.map((r) => r.requests)).toEqual([1, 1])
    expect(new Set(split.map((r) => r.workspace_id))).toEqual(new Set([sim.keys.get(sim.world.apiKeyHash)?.workspace_id, sim.world.workspaces.research]))
    expect(rows(sim, `api_key_hash=${research.record.hash}`).map((r) => r.requests)).toEqual([1])
    expect(rows(sim, `workspace_id=${sim.world.workspaces.research}`).map((r) => r.requests)).toEqual([1])
    expect(rows(sim, 'user_id=user_ada').map((r) => r.requests)).toEqual([1])
    expect(rows(sim, 'user_id=user_nobody')).toEqual([])
    expect((activity(sim, 'api_key_hash=abc').body as any).error.metadata.parameter).toBe('api_key_hash')
    expect((activity(sim, 'group_by=key').body as any).error.metadata.parameter).toBe('group_by')
  })

  it('is management-only, and shows an organisation its own activity alone', () => {
    chat(sim, sim.world.apiKey, MINI)
    sim.clock.advance(DAY)
    expect(activity(sim, '', sim.world.apiKey).status).toBe(403)
    expect(activity(sim, '', sim.world.otherTenant.managementKey).body).toEqual({ data: [] })
    const other = activity(sim, `workspace_id=${sim.world.otherTenant.workspaceId}`)
    expect(other.status).toBe(404)
    expect(other.body).toMatchObject({ error: { metadata: { resource: 'workspace' } } })
  })

  it('follows snapshots, restore and reset', () => {
    chat(sim, sim.world.apiKey, MINI)
    const snapshot = sim.snapshot()
    chat(sim, sim.world.apiKey, MINI)
    sim.clock.advance(DAY)
    expect(rows(sim).map((r) => r.requests)).toEqual([2])
    sim.restore(snapshot)
    sim.clock.advance(DAY)
    expect(rows(sim).map((r) => r.requests)).toEqual([1])
    sim.reset()
    sim.clock.advance(DAY)
    expect(rows(sim)).toEqual([])
  })

  it('takes back what a stream left early did not send, as its generation does', () => {
    sim.inference.respond({ reply: { content: 'Sixteen chars. '.repeat(10) } })
    const res = chat(sim, sim.world.apiKey, MINI, { stream: true }) as Extract<SimResponse, { type: 'stream' }>
    expect(res.cancel?.(3)).toBe(true)
    const body = res.body.map((f) => f.data).join('')
    const id = /"id":"(gen-[^"]+)"/.exec(body)?.[1] as string
    const gen = generation(sim, id)
    expect(gen['cancelled']).toBe(true)
    sim.clock.advance(DAY)
    const [row] = rows(sim)
    expect(row?.usage).toBe(gen['total_cost'])
    expect(row?.completion_tokens).toBe(gen['tokens_completion'])
  })

  it('outlives the generations the store lets go', () => {
    const data = emptyStoreData()
    const ctx = { data, indices: StoreIndices.build(data) } as unknown as StoreContext
    const endpoint = { model: MINI, permaslug: MINI, provider: 'OpenAI', tag: 'openai' }
    for (let i = 1; i <= 5; i++) {
      const facts = { id: `gen-${i}`, createdMs: Date.parse('2026-03-02T10:00:00Z'), workspaceId: 'w', promptTokens: 10, completionTokens: 5, reasoningTokens: 0 } as never
      recordGeneration(ctx, { userId: 'u', keyHash: 'k', cost: '0.001', units: 10_000_000, facts, activity: { endpoint, creatorUserId: null } }, 2)
    }
    expect(data.generations.size).toBe(2)
    const [row] = activityOf(ctx, 'u', 0, Number.MAX_SAFE_INTEGER)
    expect(row).toMatchObject({ requests: 5, units: 50_000_000, promptTokens: 50, completionTokens: 25 })
  })

  it('leaves out spend sim.usage.record charges without a model', () => {
    sim.usage.record({ keyHash: sim.world.apiKeyHash, cost: 2 })
    sim.clock.advance(DAY)
    expect(rows(sim)).toEqual([])
  })

  it('adds up to the generations’ costs exactly, day by day (property)', () => {
    const seed = Date.now() % 2 ** 31
    console.log(`activity property seed: ${seed}`)
    // A streamed request may be left early after `leave` frames: its settling corrects both sides.
    const step = fc.record({ wait: fc.integer({ min: 0, max: 2 * DAY }), model: fc.constantFrom(MINI, SONNET), stream: fc.boolean(), words: fc.integer({ min: 1, max: 40 }), leave: fc.option(fc.integer({ min: 0, max: 6 })) })
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 12 }), (steps) => {
        const s = createSimulator({ now: '2026-03-02T10:00:00Z', seed: 3 })
        const byDay = new Map<string, { units: number; requests: number }>()
        for (const { wait, model, stream, words, leave } of steps) {
          s.clock.advance(wait)
          const res = s.handle({ method: 'POST', path: '/chat/completions', authorization: `Bearer ${s.world.apiKey}`, body: JSON.stringify({ model, stream, messages: [{ role: 'user', content: 'word '.repeat(words) }] }) })
          if (res.status !== 200) continue
          if (res.type === 'stream' && leave !== null) res.cancel?.(Math.min(leave, res.body.length))
          const text = stream ? (res.body as { data: string }[]).map((f) => f.data).join('') : JSON.stringify(res.body)
          const id = /"id":"(gen-[^"]+)"/.exec(text)?.[1] as string
          const gen = (s.handle({ method: 'GET', path: '/generation', query: `id=${id}`, authorization: `Bearer ${s.world.apiKey}` }).body as { data: Record<string, any> }).data
          const date = (gen['created_at'] as string).slice(0, 10)
          const sum = byDay.get(date) ?? { units: 0, requests: 0 }
          byDay.set(date, { units: sum.units + toUnits(gen['total_cost']), requests: sum.requests + 1 })
        }
        s.clock.advance(DAY)
        const items = (s.handle({ method: 'GET', path: '/activity', authorization: `Bearer ${s.world.managementKey}` }).body as { data: Record<string, any>[] }).data
        const seen = new Map<string, { units: number; requests: number }>()
        for (const item of items) {
          const sum = seen.get(item['date']) ?? { units: 0, requests: 0 }
          seen.set(item['date'], { units: sum.units + toUnits(item['usage']), requests: sum.requests + item['requests'] })
        }
        expect(seen).toEqual(byDay)
      }),
      { seed, numRuns: 25 },
    )
  })
})

describe('analytics', () => {
  let sim: Sim
  beforeEach(() => {
    sim = createSimulator({ now: '2026-03-02T10:00:00Z' })
    harness.serve(sim)
  })

  const query = (body: Record<string, unknown>, secret = sim.world.managementKey) =>
    sim.handle({ method: 'POST', path: '/analytics/query', authorization: `Bearer ${secret}`, body: JSON.stringify(body) })

  it('describes what a query may name, parsed by the SDK', async () => {
    const { data } = await sdkClient(sim.world.managementKey).analytics.getAnalyticsMeta()
    expect(data.dimensions.map((d) => d.name)).toEqual(['model', 'provider', 'workspace', 'api_key_id', 'user'])
    expect(data.metrics.find((m) => m.name === 'usage')).toEqual({ name: 'usage', displayLabel: 'Spend', displayFormat: 'currency', isRate: false })
    expect(data.granularities.map((g) => g.name)).toEqual(['day', 'week', 'month'])
    expect(data.operators.map((o) => [o.name, o.valueType])).toEqual([['eq', 'scalar'], ['neq', 'scalar'], ['in', 'array'], ['not_in', 'array']])
  })

  it('sums the daily rows by date and dimension, as GET /activity does, through the SDK', async () => {
    chat(sim, sim.world.apiKey, MINI)
    chat(sim, sim.world.apiKey, SONNET)
    sim.clock.advance(DAY)
    chat(sim, sim.world.apiKey, MINI)
    sim.clock.advance(DAY)
    const body = { metrics: ['usage', 'request_count'], dimensions: ['provider'], granularity: 'day', time_range: { start: '2026-03-01T00:00:00Z', end: '2026-03-04T00:00:00Z' } }
    // The SDK parses the answer, but its row schema is an empty object, which drops every field of a
    // row: the values are read off the wire (decisions/0053).
    const { data } = await sdkClient(sim.world.managementKey).analytics.queryAnalytics({
      requestBody: { metrics: body.metrics, dimensions: body.dimensions, granularity: body.granularity, timeRange: { start: new Date(body.time_range.start), end: new Date(body.time_range.end) } },
    })
    expect(data.metadata).toEqual({ queryTimeMs: 0, rowCount: 3, truncated: false })
    const wire = (query(body).body as { data: { data: Record<string, any>[] } }).data.data
    const activityRows = rows(sim)
    const total = (list: Record<string, any>[], field: string) => list.reduce((sum, r) => sum + toUnits(r[field]), 0)
    expect(total(wire, 'usage')).toBe(total(activityRows, 'usage'))
    expect(wire.map((r) => r['date'])).toEqual(['2026-03-02', '2026-03-02', '2026-03-03'])
    expect(Object.keys(wire[0]!).sort()).toEqual(['date', 'provider', 'request_count', 'usage'])
    // By model, filtered to one, over the whole range as one row.
    const mini = query({ metrics: ['request_count'], dimensions: ['model'], filters: [{ field: 'model', operator: 'in', value: [activityRows.find((r) => r.model === MINI)?.model_permaslug] }] })
    expect((mini.body as any).data.data).toEqual([{ model: activityRows.find((r) => r.model === MINI)?.model_permaslug, request_count: 2 }])
    const byMonth = query({ metrics: ['total_tokens'], granularity: 'month', order_by: { field: 'request_count', direction: 'desc' } })
    expect((byMonth.body as any).data.data.map((r: any) => r.date)).toEqual(['2026-03-01'])
    expect((query({ metrics: ['request_count'], limit: 1, dimensions: ['model'] }).body as any).data.metadata).toEqual({ query_time_ms: 0, row_count: 1, truncated: true })
  })

  it('refuses what daily rows cannot answer, naming the field', () => {
    const refused = (body: Record<string, unknown>) => {
      const res = query(body)
      expect(res.status).toBe(400)
      return (res.body as any).error.metadata.parameter
    }
    expect(refused({ metrics: ['request_count'], granularity: 'hour' })).toBe('granularity')
    expect(refused({ metrics: ['request_count'], group_limit: 5 })).toBe('group_limit')
    expect(refused({ metrics: ['request_count'], classifier_dimensions: { classifier_id: 'x' } })).toBe('classifier_dimensions')
    expect(refused({ metrics: ['request_count'], filters: [{ field: 'model', operator: 'gt', value: 'a' }] })).toBe('filters[0].operator')
    expect(refused({ metrics: ['request_count'], filters: [{ field: 'country', operator: 'eq', value: 'DE' }] })).toBe('filters[0].field')
    expect(refused({ metrics: ['request_count'], filters: [{ field: 'model', operator: 'in', value: 'a' }] })).toBe('filters[0].value')
    expect(refused({ metrics: [] })).toBe('metrics')
    expect(refused({ dimensions: ['model'] })).toBe('metrics')
    expect(refused({ metrics: ['usage'], time_range: { start: '2026-03-01T00:00Z', end: '2026-03-02T00:00:00Z' } })).toBe('time_range.start')
    expect(refused({ metrics: ['usage'], time_range: { start: '2026-03-02T00:00:00Z', end: '2026-03-01T00:00:00Z' } })).toBe('time_range.end')
    expect(refused({ metrics: ['usage'], order_by: { field: 'model', direction: 'asc' } })).toBe('order_by.field')
    expect(refused({ metrics: ['usage'], metrik: 1 })).toBe('metrik')
  })

  it('is management-only and per organisation', () => {
    chat(sim, sim.world.apiKey, MINI)
    expect(query({ metrics: ['request_count'] }, sim.world.apiKey).status).toBe(403)
    expect((query({ metrics: ['request_count'] }, sim.world.otherTenant.managementKey).body as any).data.data).toEqual([])
    expect((query({ metrics: ['request_count'] }).body as any).data.data).toEqual([{ request_count: 1 }])
  })
})

describe('generation content and feedback', () => {
  let sim: Sim
  beforeEach(() => {
    sim = createSimulator({ now: '2026-03-02T10:00:00Z' })
    harness.serve(sim)
  })

  it('shows the stored prompt and reply while the generation is kept, parsed by the SDK', async () => {
    sim.inference.respond({ reply: { content: 'Paris.', reasoning: 'The capital of France.' } })
    const res = chat(sim, sim.world.apiKey, MINI, { messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Capital of France?' }] })
    const id = (res.body as { id: string }).id
    const { data } = await sdkClient(sim.world.apiKey).generations.listGenerationContent({ id })
    expect(data).toEqual({ error: null, input: { messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Capital of France?' }] }, output: { completion: 'Paris.', reasoning: 'The capital of France.' } })
    // A legacy text completion keeps its prompt.
    const text = sim.handle({ method: 'POST', path: '/completions', authorization: `Bearer ${sim.world.apiKey}`, body: JSON.stringify({ model: MINI, prompt: 'Once upon a time' }) })
    const legacy = sim.handle({ method: 'GET', path: '/generation/content', query: `id=${(text.body as { id: string }).id}`, authorization: `Bearer ${sim.world.apiKey}` })
    expect((legacy.body as any).data.input).toEqual({ prompt: 'Once upon a time' })
    // Another organisation's generation is 404, as is one never made.
    expect(sim.handle({ method: 'GET', path: '/generation/content', query: `id=${id}`, authorization: `Bearer ${sim.world.otherTenant.managementKey}` }).status).toBe(404)
    expect(sim.handle({ method: 'GET', path: '/generation/content', query: 'id=gen-1-none', authorization: `Bearer ${sim.world.apiKey}` }).status).toBe(404)
  })

  it('records feedback on the generation, in the journal, and undone by a restore', async () => {
    const id = (chat(sim, sim.world.apiKey, MINI).body as { id: string }).id
    const snapshot = sim.snapshot()
    const sdk = sdkClient(sim.world.managementKey)
    const { data } = await sdk.generations.submitFeedback({ submitGenerationFeedbackRequest: { generationId: id, category: 'incoherence', comment: 'Off topic' } })
    expect(data).toEqual({ success: true })
    const entry = sim.journal.list().find((e) => e.operation === 'submitGenerationFeedback')
    expect(entry?.status).toBe(200)
    expect(JSON.parse(entry?.requestBody as string)).toEqual({ generation_id: id, category: 'incoherence', comment: 'Off topic' })
    expect(sim.generations.feedback(id)).toEqual([{ category: 'incoherence', comment: 'Off topic', at: Date.parse('2026-03-02T10:00:00Z') }])
    sim.restore(snapshot)
    expect(sim.generations.feedback(id)).toEqual([])
    expect(sim.handle({ method: 'POST', path: '/generation/feedback', authorization: `Bearer ${sim.world.apiKey}`, body: JSON.stringify({ generation_id: id, category: 'other' }) }).status).toBe(403)
  })
})

describe('the catalog as a caller may use it', () => {
  let sim: Sim
  beforeEach(() => {
    sim = createSimulator()
    harness.serve(sim)
  })

  it('lists the models a key may use, parsed by the SDK: today the catalog, as GET /models pages it', async () => {
    const sdk = sdkClient(sim.world.apiKey)
    const page = await sdk.models.listForUser({ bearer: sim.world.apiKey }, { limit: 5, offset: 2 })
    const catalog = sim.handle({ method: 'GET', path: '/models', query: 'limit=5&offset=2' }).body as { data: { id: string }[] }
    expect(page.result.data.map((m) => m.id)).toEqual(catalog.data.map((m) => m.id))
    expect(page.result.data).toHaveLength(5)
    const all = sim.handle({ method: 'GET', path: '/models/user', query: 'output_modalities=all', authorization: `Bearer ${sim.world.apiKey}` })
    expect((all.body as { data: unknown[] }).data.length).toBe((sim.handle({ method: 'GET', path: '/models', query: 'output_modalities=all' }).body as { data: unknown[] }).data.length)
    expect(sim.handle({ method: 'GET', path: '/models/user' }).status).toBe(401)
  })

  it('lists the paid endpoints as zero-retention, parsed by the SDK, and no free one', async () => {
    const { data } = await sdkClient().endpoints.listZdrEndpoints()
    expect(data.length).toBeGreaterThan(0)
    const free = (e: { pricing: { prompt: string; completion: string } }) => Number(e.pricing.prompt) === 0 && Number(e.pricing.completion) === 0
    expect(data.filter(free)).toEqual([])
    const paid = [...sim.models.list()].flatMap((m) => m.endpoints).filter((e) => !free(e as never))
    expect(data.length).toBe(paid.length)
  })
})
