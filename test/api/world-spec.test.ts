import { describe, expect, it } from 'vitest'
import {
  type ApiKey,
  createSimulator,
  DEFAULT_NOW,
  type SimRequest,
  type Simulator,
  SimulatorError,
  type SimulatorErrorCode,
  WORLD_FORMAT,
  type WorldKey,
  type WorldSpec,
} from '../../src/index.js'
import { mutateDeeply } from '../support/mutate.js'
import { simulatorErrorOf } from '../support/server.js'

// A small world written by hand: two organisations, a named workspace, four keys with explicit
// secrets and hashes, a text file and a binary one, one model and one video model.
const ACME = 'user_acme'
const GLOBEX = 'user_globex'
const ACME_DEFAULT = '0a0a0a0a-0000-4000-8000-000000000001'
const GLOBEX_DEFAULT = '0b0b0b0b-0000-4000-8000-000000000002'
const PRODUCTION = '0c0c0c0c-0000-4000-8000-000000000003'
const APP_HASH = 'ab'.repeat(32)
const ADMIN_HASH = 'cd'.repeat(32)
const GLOBEX_HASH = 'ef'.repeat(32)
const BATCH_HASH = '12'.repeat(32)
const APP_SECRET = 'sk-or-v1-app-fixture-secret'
const ADMIN_SECRET = 'sk-or-v1-admin-fixture-secret'
const GLOBEX_SECRET = 'sk-or-v1-globex-fixture-secret'
const REPORT_TEXT = 'Quarterly report: 5 € spent\n'
/** 0xff 0x00 0xfe 0x00 0x80: not UTF-8, so only base64 carries it intact. */
const BLOB_BYTES = [0xff, 0x00, 0xfe, 0x00, 0x80]
const BLOB_BASE64 = '/wD+AIA='
const DAY = 86_400_000

function makeHandles() {
  return {
    userId: ACME,
    managementKey: ADMIN_SECRET,
    apiKey: APP_SECRET,
    apiKeyHash: APP_HASH,
    workspaces: { default: ACME_DEFAULT, production: PRODUCTION },
    files: { report: 'report', blob: 'blob' },
    otherTenant: { userId: GLOBEX, workspaceId: GLOBEX_DEFAULT, tags: ['a', 'b'] },
  }
}
type Handles = ReturnType<typeof makeHandles>

/** A fresh copy of the hand-written world each call, so a test may change it freely. */
function makeSpec(): WorldSpec<Handles> {
  return {
    format: WORLD_FORMAT,
    users: [
      { id: ACME, name: 'Acme', createdAt: '2026-01-01T00:00:00Z', defaultWorkspaceId: ACME_DEFAULT },
      { id: GLOBEX, name: 'Globex', createdAt: '2026-01-02T00:00:00Z', defaultWorkspaceId: GLOBEX_DEFAULT },
    ],
    workspaces: [{ id: PRODUCTION, userId: ACME, name: 'Production', slug: 'production', createdAt: '2026-01-03T00:00:00Z' }],
    keys: [
      {
        userId: ACME,
        workspaceId: ACME_DEFAULT,
        name: 'App',
        secret: APP_SECRET,
        hash: APP_HASH,
        limit: 100,
        limitReset: 'monthly',
        createdAt: '2026-01-05T08:00:00Z',
        // No updatedAt: updated_at is its latest record's instant.
        expiresAt: '2026-06-01T00:00:00Z',
        usage: [
          { at: '2026-02-10T12:00:00Z', cost: 1.25 }, // last month
          { at: '2026-02-27T09:00:00Z', cost: 0.5 }, // last month, last week
          { at: '2026-03-01T15:00:00Z', cost: 0.2 }, // this month (Sunday: last ISO week)
          { at: '2026-03-02T09:30:00Z', cost: 0.05 }, // today
          { at: '2026-03-02T08:00:00Z', cost: 3, byok: true }, // today, BYOK
        ],
      },
      { userId: ACME, management: true, name: 'Admin', secret: ADMIN_SECRET, hash: ADMIN_HASH, createdAt: '2026-01-04T00:00:00Z' },
      {
        userId: GLOBEX,
        name: 'Globex app',
        secret: GLOBEX_SECRET,
        hash: GLOBEX_HASH,
        createdAt: '2026-02-01T00:00:00Z',
        // Later than its only record: updated_at keeps it.
        updatedAt: '2026-03-02T09:45:00Z',
        usage: [{ at: '2026-03-01T10:00:00Z', cost: 7 }],
      },
      {
        userId: ACME,
        workspaceId: PRODUCTION,
        name: 'Batch',
        secret: 'sk-or-v1-batch-fixture-secret',
        hash: BATCH_HASH,
        disabled: true,
        createdAt: '2026-02-15T00:00:00Z',
        updatedAt: null,
        expiresAt: null,
      },
    ],
    files: [
      { userId: ACME, id: 'report', origin: 'server', filename: 'report.txt', text: REPORT_TEXT, createdAt: '2026-02-03T00:00:00Z' },
      { userId: ACME, id: 'blob', workspaceId: PRODUCTION, origin: 'server', filename: 'blob.bin', base64: BLOB_BASE64, createdAt: '2026-02-04T00:00:00Z' },
    ],
    models: [
      {
        id: 'acme/fast-1',
        name: 'Acme: Fast 1',
        created: '2025-12-01T00:00:00Z',
        description: 'A fast model.',
        architecture: { input_modalities: ['text'], output_modalities: ['text'], tokenizer: 'Other' },
        endpoints: [
          {
            provider_name: 'Acme Cloud',
            context_length: 8192,
            pricing: { prompt: '0.000001', completion: '0.000002' },
            latency_last_30m: { p50: 100, p75: 120, p90: 150, p99: 200 },
          },
        ],
      },
    ],
    videoModels: [{ id: 'acme/clip-1', name: 'Clip 1', created: '2025-11-01T00:00:00Z', supported_durations: [4, 8], pricing_skus: { 'per-video-second': '0.25' } }],
    handles: makeHandles(),
  }
}

type Sim = Simulator<Handles>

const get = (sim: Simulator<unknown>, path: string, secret?: string, query?: string): ReturnType<Sim['handle']> => {
  const request: SimRequest = { method: 'GET', path }
  if (secret !== undefined) request.authorization = `Bearer ${secret}`
  if (query !== undefined) request.query = query
  return sim.handle(request)
}
const keyOf = (sim: Simulator<unknown>, hash: string): ApiKey => {
  const key = sim.keys.get(hash)
  if (!key) throw new Error(`no key ${hash}`)
  return key
}
const ms = (timestamp: string | null): number => (timestamp === null ? Number.NaN : Date.parse(timestamp))
const usageOf = (key: ApiKey) => ({
  usage: key.usage,
  usage_daily: key.usage_daily,
  usage_weekly: key.usage_weekly,
  usage_monthly: key.usage_monthly,
  byok_usage: key.byok_usage,
  byok_usage_daily: key.byok_usage_daily,
  byok_usage_weekly: key.byok_usage_weekly,
  byok_usage_monthly: key.byok_usage_monthly,
})

describe('a hand-written world spec', () => {
  it('loads, and sim.world deep-equals the handles', () => {
    const spec = makeSpec()
    const sim = createSimulator({ world: spec })
    expect(sim.world).toEqual(makeHandles())
    expect(sim.world).not.toBe(spec.handles)
    expect(sim.users.list().map((u) => u.id)).toEqual([ACME, GLOBEX])
    expect(sim.keys.list().map((k) => k.hash).sort()).toEqual([APP_HASH, ADMIN_HASH, GLOBEX_HASH, BATCH_HASH].sort())
    expect(sim.files.list().map((f) => f.id)).toEqual(['report', 'blob'])
    expect(sim.models.list().map((m) => m.id)).toEqual(['acme/fast-1'])
    expect(sim.videoModels.list().map((m) => m.id)).toEqual(['acme/clip-1'])
  })

  it('hands out sim.world as a copy: changing it or the spec later changes neither the other nor the simulator', () => {
    const spec = makeSpec()
    const sim = createSimulator({ world: spec })
    const state = sim.snapshot()
    const keys = sim.keys.list()

    sim.world.otherTenant.tags.push('c')
    sim.world.workspaces.production = 'changed'
    expect(spec.handles).toEqual(makeHandles())

    const world = structuredClone(sim.world)
    mutateDeeply(spec)
    expect(spec.handles?.otherTenant.tags).toEqual(['a-changed', 'b-changed', 'a-changed'])
    expect(sim.world).toEqual(world)
    expect(sim.snapshot()).toEqual(state)
    expect(sim.keys.list()).toEqual(keys)
    // The loaded model still has the spec's figures, not the ones edited into the spec afterwards.
    const endpoint = sim.models.get('acme/fast-1')?.endpoints[0]
    expect(endpoint?.pricing.prompt).toBe('0.000001')
    expect(endpoint?.latency_last_30m).toEqual({ p50: 100, p75: 120, p90: 150, p99: 200 })
  })

  it('answers the keys as bearer secrets: 200 for the management key, 403 for the regular one', () => {
    const sim = createSimulator({ world: makeSpec() })
    const asAdmin = get(sim, '/keys', sim.world.managementKey)
    expect(asAdmin.status).toBe(200)
    // The default workspace lists its one regular key; management keys are never listed.
    expect((asAdmin.body as { data: ApiKey[] }).data.map((k) => k.hash)).toEqual([APP_HASH])
    expect(get(sim, '/keys', sim.world.apiKey).status).toBe(403)
    expect(get(sim, '/keys', 'sk-or-v1-not-in-this-world').status).toBe(401)
    const production = get(sim, '/keys', ADMIN_SECRET, `workspace_id=${PRODUCTION}&include_disabled=true`)
    expect((production.body as { data: ApiKey[] }).data.map((k) => k.hash)).toEqual([BATCH_HASH])
  })

  it('finds a key by the hash the spec gave it, within its own organisation only', () => {
    const sim = createSimulator({ world: makeSpec() })
    const res = get(sim, `/keys/${APP_HASH}`, ADMIN_SECRET)
    expect(res.status).toBe(200)
    expect((res.body as { data: ApiKey }).data).toMatchObject({ hash: APP_HASH, name: 'App', label: 'sk-or-v1-app...ret', workspace_id: ACME_DEFAULT })
    expect(get(sim, `/keys/${GLOBEX_HASH}`, ADMIN_SECRET).status).toBe(404)
    expect(keyOf(sim, GLOBEX_HASH)).toMatchObject({ creator_user_id: GLOBEX, workspace_id: GLOBEX_DEFAULT })
  })

  it('sums the usage records in each window as of the clock (Monday 2 March)', () => {
    const sim = createSimulator({ world: makeSpec() })
    const app = keyOf(sim, APP_HASH)
    expect(usageOf(app)).toEqual({
      usage: 2,
      usage_daily: 0.05,
      usage_weekly: 0.05,
      usage_monthly: 0.25,
      byok_usage: 3,
      byok_usage_daily: 3,
      byok_usage_weekly: 3,
      byok_usage_monthly: 3,
    })
    expect(app.limit_remaining).toBe(99.75)
    expect(usageOf(keyOf(sim, GLOBEX_HASH))).toMatchObject({ usage: 7, usage_daily: 0, usage_weekly: 0, usage_monthly: 7 })
    expect(usageOf(keyOf(sim, ADMIN_HASH))).toMatchObject({ usage: 0, byok_usage: 0 })
    // The windows roll as the clock moves: Tuesday, the Sunday record is still this month's only.
    sim.clock.advance(DAY)
    expect(usageOf(keyOf(sim, APP_HASH))).toMatchObject({ usage: 2, usage_daily: 0, usage_weekly: 0.05, usage_monthly: 0.25, byok_usage_daily: 0 })
  })

  it('takes updated_at as given, and from the latest record when updatedAt is left out', () => {
    const sim = createSimulator({ world: makeSpec() })
    // Left out: the latest record's instant.
    expect(keyOf(sim, APP_HASH).updated_at).toBe('2026-03-02T09:30:00.000000+00:00')
    // Given: as given, whatever the records.
    expect(keyOf(sim, GLOBEX_HASH).updated_at).toBe('2026-03-02T09:45:00.000000+00:00')
    const spec = makeSpec()
    const globex = spec.keys?.[2] as WorldKey
    globex.updatedAt = '2026-02-01T00:00:00Z'
    expect(keyOf(createSimulator({ world: spec }), GLOBEX_HASH).updated_at).toBe('2026-02-01T00:00:00.000000+00:00')
    globex.updatedAt = null
    expect(keyOf(createSimulator({ world: spec }), GLOBEX_HASH).updated_at).toBeNull()
    // Neither records nor updatedAt: null.
    expect(keyOf(sim, BATCH_HASH).updated_at).toBeNull()
    expect(keyOf(sim, ADMIN_HASH).updated_at).toBeNull()
  })

  it('keeps the other fields of the keys as written', () => {
    const sim = createSimulator({ world: makeSpec() })
    expect(keyOf(sim, APP_HASH)).toMatchObject({
      limit: 100,
      limit_reset: 'monthly',
      disabled: false,
      created_at: '2026-01-05T08:00:00.000000+00:00',
      expires_at: '2026-06-01T00:00:00.000000+00:00',
    })
    expect(keyOf(sim, BATCH_HASH)).toMatchObject({ disabled: true, expires_at: null, workspace_id: PRODUCTION, limit: null })
  })

  it('serves both files with their exact bytes, the base64 one included', () => {
    const sim = createSimulator({ world: makeSpec() })
    const report = get(sim, '/files/report/content', ADMIN_SECRET)
    expect(report.status).toBe(200)
    expect(report.body).toEqual(new TextEncoder().encode(REPORT_TEXT))
    expect(report.headers['content-length']).toBe(String(new TextEncoder().encode(REPORT_TEXT).byteLength))
    const blob = get(sim, '/files/blob/content', ADMIN_SECRET, `workspace_id=${PRODUCTION}`)
    expect(blob.status).toBe(200)
    expect(blob.body).toEqual(new Uint8Array(BLOB_BYTES))
    expect(blob.headers['content-disposition']).toBe('attachment; filename="blob.bin"')
    // The blob lives in the production workspace, not the default one.
    expect(get(sim, '/files/blob/content', ADMIN_SECRET).status).toBe(404)
  })

  it("gives the user's default workspace the id the spec names", () => {
    const sim = createSimulator({ world: makeSpec() })
    expect(sim.users.get(ACME)?.defaultWorkspaceId).toBe(ACME_DEFAULT)
    expect(sim.users.get(GLOBEX)?.defaultWorkspaceId).toBe(GLOBEX_DEFAULT)
    expect(sim.workspaces.get(ACME_DEFAULT)).toMatchObject({ slug: 'default', created_by: ACME })
    const res = get(sim, `/workspaces/${ACME_DEFAULT}`, ADMIN_SECRET)
    expect(res.status).toBe(200)
    expect((res.body as { data: { id: string } }).data.id).toBe(ACME_DEFAULT)
    expect(sim.workspaces.get(PRODUCTION)).toMatchObject({ slug: 'production', name: 'Production', created_at: '2026-01-03T00:00:00.000000+00:00' })
  })

  it('serves the model and the video model as written', () => {
    const sim = createSimulator({ world: makeSpec() })
    const res = get(sim, '/models/acme/fast-1/endpoints', APP_SECRET)
    expect(res.status).toBe(200)
    const model = (res.body as { data: { created: number; endpoints: { provider_name: string; context_length: number; pricing: unknown }[] } }).data
    expect(model.created).toBe(Date.parse('2025-12-01T00:00:00Z') / 1000)
    expect(model.endpoints).toHaveLength(1)
    expect(model.endpoints[0]).toMatchObject({ provider_name: 'Acme Cloud', context_length: 8192, pricing: { prompt: '0.000001', completion: '0.000002' } })
    const videos = (get(sim, '/videos/models').body as { data: { id: string; created: number; supported_durations: number[]; pricing_skus: unknown }[] }).data
    expect(videos).toEqual([expect.objectContaining({ id: 'acme/clip-1', created: Date.parse('2025-11-01T00:00:00Z') / 1000, supported_durations: [4, 8], pricing_skus: { 'per-video-second': '0.25' } })])
  })
})

describe('the clock of a loaded world', () => {
  it('starts at DEFAULT_NOW without spec.now and uses the instants as written', () => {
    const sim = createSimulator({ world: makeSpec() })
    expect(sim.clock.now().toISOString()).toBe(DEFAULT_NOW)
    expect(keyOf(sim, APP_HASH).created_at).toBe('2026-01-05T08:00:00.000000+00:00')
    expect(sim.users.get(ACME)?.createdAt).toBe('2026-01-01T00:00:00.000Z')
  })

  it('without spec.now, options.now moves the clock but no instant of the world', () => {
    const sim = createSimulator({ world: makeSpec(), now: '2026-03-05T10:00:00Z' })
    expect(sim.clock.now().toISOString()).toBe('2026-03-05T10:00:00.000Z')
    expect(keyOf(sim, APP_HASH)).toMatchObject({ created_at: '2026-01-05T08:00:00.000000+00:00', updated_at: '2026-03-02T09:30:00.000000+00:00' })
    expect(sim.models.get('acme/fast-1')?.created).toBe(Date.parse('2025-12-01T00:00:00Z') / 1000)
  })

  it('starts at spec.now when given, with the instants as written and the windows evaluated there', () => {
    // Thursday 5 March, given with an offset.
    const sim = createSimulator({ world: { ...makeSpec(), now: '2026-03-05T12:00:00+02:00' } })
    expect(sim.clock.now().toISOString()).toBe('2026-03-05T10:00:00.000Z')
    const app = keyOf(sim, APP_HASH)
    expect(app.created_at).toBe('2026-01-05T08:00:00.000000+00:00')
    expect(app.updated_at).toBe('2026-03-02T09:30:00.000000+00:00')
    expect(usageOf(app)).toMatchObject({ usage: 2, usage_daily: 0, usage_weekly: 0.05, usage_monthly: 0.25, byok_usage_daily: 0, byok_usage_weekly: 3 })
  })

  const shifts: [string, string, number, Partial<ReturnType<typeof usageOf>>][] = [
    // Thursday 5 March: the Friday and Sunday records move into this week, and into this month.
    ['3 days later', '2026-03-05T10:00:00Z', 3 * DAY, { usage: 2, usage_daily: 0.05, usage_weekly: 0.75, usage_monthly: 0.75, byok_usage_daily: 3 }],
    // Sunday 1 February: the records move into late January; only today's is this month's.
    ['29 days earlier', '2026-02-01T10:00:00Z', -29 * DAY, { usage: 2, usage_daily: 0.05, usage_weekly: 0.75, usage_monthly: 0.05, byok_usage_monthly: 3 }],
  ]

  it.each(shifts)('with spec.now and options.now %s, moves every instant by the difference', (_, now, shift, figures) => {
    const spec = { ...makeSpec(), now: DEFAULT_NOW }
    const base = createSimulator({ world: spec })
    const sim = createSimulator({ world: spec, now })
    expect(sim.clock.nowMs()).toBe(Date.parse(now))
    expect(sim.clock.nowMs() - base.clock.nowMs()).toBe(shift)

    for (const hash of [APP_HASH, ADMIN_HASH, GLOBEX_HASH, BATCH_HASH]) {
      const [before, after] = [keyOf(base, hash), keyOf(sim, hash)]
      expect(ms(after.created_at) - ms(before.created_at)).toBe(shift)
      if (before.expires_at === null) expect(after.expires_at).toBeNull()
      else expect(ms(after.expires_at) - ms(before.expires_at)).toBe(shift)
      if (before.updated_at === null) expect(after.updated_at).toBeNull()
      else expect(ms(after.updated_at) - ms(before.updated_at)).toBe(shift)
    }
    expect(keyOf(sim, APP_HASH).created_at).toBe(new Date(Date.parse('2026-01-05T08:00:00Z') + shift).toISOString().replace('Z', '000+00:00'))
    // Usage records moved with the clock, and the windows are the new clock's.
    expect(usageOf(keyOf(sim, APP_HASH))).toMatchObject(figures)
    expect(keyOf(sim, APP_HASH).limit_remaining).toBe(100 - (figures.usage_monthly as number))

    expect(sim.models.get('acme/fast-1')!.created - base.models.get('acme/fast-1')!.created).toBe(shift / 1000)
    expect(sim.videoModels.list()[0]!.created - base.videoModels.list()[0]!.created).toBe(shift / 1000)
    expect(ms(sim.users.get(ACME)!.createdAt) - ms(base.users.get(ACME)!.createdAt)).toBe(shift)
    expect(ms(sim.workspaces.get(PRODUCTION)!.created_at) - ms(base.workspaces.get(PRODUCTION)!.created_at)).toBe(shift)
    const fileCreated = (s: Simulator<unknown>) => ms(s.files.list().find((f) => f.id === 'blob')!.createdAt)
    expect(fileCreated(sim) - fileCreated(base)).toBe(shift)
  })

  it('keeps a record still in the future of the shifted clock out of the figures', () => {
    const spec = makeSpec()
    spec.now = DEFAULT_NOW
    spec.keys![0]!.usage!.push({ at: '2026-03-02T11:00:00Z', cost: 10 })
    const sim = createSimulator({ world: spec, now: '2026-04-02T10:00:00Z' })
    expect(keyOf(sim, APP_HASH).usage).toBe(2)
    sim.clock.advance(DAY / 24)
    expect(keyOf(sim, APP_HASH)).toMatchObject({ usage: 12, usage_daily: 10.05 })
  })
})

describe('a world spec as JSON', () => {
  it('loads from JSON.parse(JSON.stringify(spec)) to the same simulator', () => {
    for (const spec of [makeSpec(), { ...makeSpec(), now: '2026-02-20T00:00:00Z' }]) {
      const direct = createSimulator({ world: spec, now: '2026-03-03T12:00:00Z' })
      const viaJson = createSimulator({ world: JSON.parse(JSON.stringify(spec)) as typeof spec, now: '2026-03-03T12:00:00Z' })
      expect(viaJson.keys.list()).toEqual(direct.keys.list())
      expect(viaJson.world).toEqual(direct.world)
      expect(viaJson.snapshot()).toEqual(direct.snapshot())
    }
  })
})

describe('reset, snapshot and restore of a loaded world', () => {
  function change(sim: Sim): void {
    sim.keys.create({ userId: ACME, name: 'added later' })
    sim.usage.record({ keyHash: APP_HASH, cost: 5 })
    sim.keys.update(APP_HASH, { disabled: true, limit: 1 })
    sim.clock.advance(7 * DAY)
    sim.users.create({ name: 'Later Inc.' })
    sim.models.create({ id: 'acme/later' })
  }

  it('reset() returns to the loaded world: keys, usage, clock', () => {
    const sim = createSimulator({ world: { ...makeSpec(), now: DEFAULT_NOW }, now: '2026-03-05T10:00:00Z' })
    const keys = sim.keys.list()
    const listing = get(sim, '/keys', ADMIN_SECRET)
    const state = sim.snapshot()
    change(sim)
    expect(keyOf(sim, APP_HASH).usage).toBe(7)
    sim.reset()
    expect(sim.keys.list()).toEqual(keys)
    expect(keyOf(sim, APP_HASH)).toMatchObject({ usage: 2, usage_weekly: 0.75, disabled: false, limit: 100 })
    expect(sim.clock.now().toISOString()).toBe('2026-03-05T10:00:00.000Z')
    expect(sim.models.get('acme/later')).toBeUndefined()
    expect(get(sim, '/keys', ADMIN_SECRET)).toEqual(listing)
    expect(sim.snapshot()).toEqual(state)
    expect(sim.world).toEqual(makeHandles())
  })

  it('snapshot() and restore() work with a loaded world, also into another simulator', () => {
    const sim = createSimulator({ world: makeSpec() })
    const saved = sim.snapshot()
    const keys = sim.keys.list()
    change(sim)
    sim.restore(saved)
    expect(sim.keys.list()).toEqual(keys)
    expect(sim.snapshot()).toEqual(saved)

    const other = createSimulator({ world: 'empty' })
    other.restore(saved)
    expect(other.keys.list()).toEqual(keys)
    expect(get(other, '/keys', ADMIN_SECRET).status).toBe(200)
    expect(get(other, '/files/blob/content', ADMIN_SECRET, `workspace_id=${PRODUCTION}`).body).toEqual(new Uint8Array(BLOB_BYTES))
  })
})

// Each case: what is wrong, the change to the valid spec, the code and argument the error must carry,
// and what its message must say (besides the path).
type Loose = any // eslint-disable-line @typescript-eslint/no-explicit-any
const badSpecs: [string, (w: Loose) => void, SimulatorErrorCode, string, RegExp][] = [
  ['a wrong format', (w) => (w.format = 'model-access-sim/world@2'), 'INVALID_ARGUMENT', 'world.format', /must be "model-access-sim\/world@1".*got "model-access-sim\/world@2"/],
  ['a missing format', (w) => delete w.format, 'INVALID_ARGUMENT', 'world.format', /got undefined/],
  ['a list that is not an array', (w) => (w.keys = { 0: w.keys[0] }), 'INVALID_ARGUMENT', 'world.keys', /must be an array/],
  ['an entity that is not an object', (w) => (w.users[0] = ACME), 'INVALID_ARGUMENT', 'world.users[0]', /must be an/],
  ['an unparseable world.now', (w) => (w.now = 'Monday morning'), 'INVALID_ARGUMENT', 'world.now', /ISO 8601/],
  ['an instant given as epoch ms', (w) => (w.keys[0].createdAt = Date.parse('2026-01-05T08:00:00Z')), 'INVALID_ARGUMENT', 'world.keys[0].createdAt', /ISO 8601 instant string, got 1767600000000/],
  ['an unparseable instant string', (w) => (w.keys[0].createdAt = '5 January 2026'), 'INVALID_ARGUMENT', 'world.keys[0].createdAt', /ISO 8601/],
  ['an unparseable expiresAt', (w) => (w.keys[0].expiresAt = 'never'), 'INVALID_ARGUMENT', 'world.keys[0].expiresAt', /ISO 8601/],
  ['an updatedAt given as epoch ms', (w) => (w.keys[2].updatedAt = 0), 'INVALID_ARGUMENT', 'world.keys[2].updatedAt', /ISO 8601 instant string, got 0/],
  ['an unparseable workspace createdAt', (w) => (w.workspaces[0].createdAt = 'soon'), 'INVALID_ARGUMENT', 'world.workspaces[0].createdAt', /ISO 8601/],
  ['an unparseable file createdAt', (w) => (w.files[1].createdAt = 'soon'), 'INVALID_ARGUMENT', 'world.files[1].createdAt', /ISO 8601/],
  ['a date-only instant', (w) => (w.users[1].createdAt = '2026-01-02'), 'INVALID_ARGUMENT', 'world.users[1].createdAt', /with a time and offset/],
  ['an impossible calendar date', (w) => (w.keys[0].expiresAt = '2026-02-30T00:00:00Z'), 'INVALID_ARGUMENT', 'world.keys[0].expiresAt', /2026-02-30/],
  ['a key whose user is unknown', (w) => (w.keys[0].userId = 'user_nobody'), 'UNKNOWN_USER', 'world.keys[0].userId', /unknown user "user_nobody"/],
  ["a key in another user's workspace", (w) => (w.keys[1].workspaceId = GLOBEX_DEFAULT), 'UNKNOWN_WORKSPACE', 'world.keys[1].workspaceId', /is not a workspace of user "user_acme"/],
  ['a duplicate key hash', (w) => (w.keys[2].hash = APP_HASH), 'DUPLICATE_ID', 'world.keys[2].hash', /already the hash of another key/],
  ['a duplicate secret', (w) => (w.keys[1].secret = APP_SECRET), 'DUPLICATE_ID', 'world.keys[1].secret', /already the secret of another key/],
  ['a key without its secret', (w) => delete w.keys[1].secret, 'INVALID_ARGUMENT', 'world.keys[1].secret', /must be a non-empty string, got undefined/],
  ['a hash in upper case', (w) => (w.keys[0].hash = APP_HASH.toUpperCase()), 'INVALID_ARGUMENT', 'world.keys[0].hash', /64 lower-case hexadecimal digits/],
  ['a hash one digit short', (w) => (w.keys[0].hash = APP_HASH.slice(1)), 'INVALID_ARGUMENT', 'world.keys[0].hash', /64 lower-case hexadecimal digits/],
  ['usage that is not a list of records', (w) => (w.keys[0].usage = { total: 5 }), 'INVALID_ARGUMENT', 'world.keys[0].usage', /must be an array of usage records/],
  ['a usage record with a negative cost', (w) => (w.keys[0].usage[1].cost = -0.5), 'INVALID_ARGUMENT', 'world.keys[0].usage[1].cost', /non-negative finite number, got -0.5/],
  ['a usage record with a cost as a string', (w) => (w.keys[0].usage[1].cost = '0.5'), 'INVALID_ARGUMENT', 'world.keys[0].usage[1].cost', /non-negative/],
  ['a usage record with a bad at', (w) => (w.keys[0].usage[2].at = 'yesterday'), 'INVALID_ARGUMENT', 'world.keys[0].usage[2].at', /ISO 8601/],
  ['a usage record without at', (w) => delete w.keys[2].usage[0].at, 'INVALID_ARGUMENT', 'world.keys[2].usage[0].at', /got undefined/],
  ['a usage record with a non-boolean byok', (w) => (w.keys[0].usage[4].byok = 'yes'), 'INVALID_ARGUMENT', 'world.keys[0].usage[4].byok', /boolean/],
  ['a file with both text and base64', (w) => (w.files[0].base64 = BLOB_BASE64), 'INVALID_ARGUMENT', 'world.files[0]', /exactly one of "text" and "base64"/],
  ['a file with neither text nor base64', (w) => delete w.files[1].base64, 'INVALID_ARGUMENT', 'world.files[1]', /exactly one of "text" and "base64"/],
  ['a file with invalid base64', (w) => (w.files[1].base64 = '/wD+AIA'), 'INVALID_ARGUMENT', 'world.files[1].base64', /standard base64/],
  ['a file with url-safe base64', (w) => (w.files[1].base64 = '_wD-AIA='), 'INVALID_ARGUMENT', 'world.files[1].base64', /standard base64/],
  ['a file whose text is not a string', (w) => (w.files[0].text = 42), 'INVALID_ARGUMENT', 'world.files[0].text', /must be a string, got 42/],
  ['a file of an unknown user', (w) => (w.files[1].userId = 'user_nobody'), 'UNKNOWN_USER', 'world.files[1].userId', /unknown user "user_nobody"/],
  ['a duplicate model id', (w) => w.models.push({ id: 'acme/fast-1' }), 'DUPLICATE_ID', 'world.models[1].id', /"acme\/fast-1" already exists/],
  ['invalid pricing on a model endpoint', (w) => (w.models[0].endpoints[0].pricing = { prompt: '1e-6', completion: '0' }), 'INVALID_PRICING', 'world.models[0].endpoints[0].pricing', /pricing is invalid/],
  ['a model created at an epoch number', (w) => (w.models[0].created = 1764547200), 'INVALID_ARGUMENT', 'world.models[0].created', /ISO 8601 instant string/],
  ['a video model created at an epoch number', (w) => (w.videoModels[0].created = 1761955200), 'INVALID_ARGUMENT', 'world.videoModels[0].created', /ISO 8601 instant string/],
  ['a duplicate video model id', (w) => w.videoModels.push({ id: 'acme/clip-1' }), 'DUPLICATE_ID', 'world.videoModels[1].id', /already exists/],
  ['a malformed defaultWorkspaceId', (w) => (w.users[0].defaultWorkspaceId = 'default'), 'INVALID_ARGUMENT', 'world.users[0].defaultWorkspaceId', /UUID/],
  ['a duplicate defaultWorkspaceId', (w) => (w.users[1].defaultWorkspaceId = ACME_DEFAULT), 'DUPLICATE_ID', 'world.users[1].defaultWorkspaceId', /already taken/],
  ['a workspace id taken by a default workspace', (w) => (w.workspaces[0].id = GLOBEX_DEFAULT), 'DUPLICATE_ID', 'world.workspaces[0].id', /already taken/],
  ['a duplicate user id', (w) => (w.users[1].id = ACME), 'DUPLICATE_ID', 'world.users[1].id', /already taken/],
  ['handles that are not an object', (w) => (w.handles = 'acme'), 'INVALID_ARGUMENT', 'world.handles', /must be an/],
  ['handles that are an array', (w) => (w.handles = [ACME]), 'INVALID_ARGUMENT', 'world.handles', /must be an/],
]

describe('a bad world spec', () => {
  it.each(badSpecs)('refuses %s, naming its path', (_, spoil, code, argument, message) => {
    const spec = makeSpec() as Loose
    spoil(spec)
    const error = simulatorErrorOf(() => createSimulator({ world: spec }))
    expect(error.code).toBe(code)
    expect(error.argument).toBe(argument)
    expect(error.message).toMatch(/^Failed to load world: /)
    // The message names the path: the whole of it when the loader itself refuses a value, the
    // entity's path followed by the creator's own message when a creator refuses it.
    const entity = /^world\.\w+(?:\[\d+\])?/.exec(argument)?.[0] ?? argument
    expect(error.message).toContain(error.message.includes(argument) ? argument : `${entity}: Failed to `)
    expect(error.message).toMatch(message)
  })

  it('keeps the pricing issues of an invalid endpoint as the error details, as models.create does', () => {
    const spec = makeSpec()
    spec.models![0]!.endpoints![0]!.pricing = { prompt: '1e-6', completion: '0' }
    const direct = simulatorErrorOf(() => createSimulator({ world: 'empty' }).models.create(spec.models![0]!))
    expect(direct.details).toEqual([expect.objectContaining({ message: expect.any(String) })])
    const loaded = simulatorErrorOf(() => createSimulator({ world: spec }))
    expect(loaded.details).toEqual(direct.details)
  })

  it.each([
    ['a number', 42],
    ['an unknown name', 'nope'],
    ['null', null],
    ['an array', []],
  ])('refuses a world that is %s, naming "world"', (_, world) => {
    const error = simulatorErrorOf(() => createSimulator({ world: world as never }))
    expect(error.code).toBe('INVALID_ARGUMENT')
    expect(error.argument).toBe('world')
    expect(error.message).toMatch(/^Failed to create simulator: "world" must be "default", "empty" or a world spec/)
  })
})

describe('the hash and defaultWorkspaceId options of the programmatic API', () => {
  const NEW_HASH = '0123456789abcdef'.repeat(4)
  const NEW_WORKSPACE = '0d0d0d0d-0000-4000-8000-000000000004'

  /** Asserts that the action throws the error and leaves the simulator (random state included) as it was. */
  function expectRefused(act: (sim: Sim) => unknown, code: SimulatorErrorCode, argument: string, message: RegExp): void {
    const sim = createSimulator({ world: makeSpec() })
    const twin = createSimulator({ world: makeSpec() })
    const before = sim.snapshot()
    const error = simulatorErrorOf(() => act(sim))
    expect(error).toBeInstanceOf(SimulatorError)
    expect(error.code).toBe(code)
    expect(error.argument).toBe(argument)
    expect(error.message).toMatch(/^Failed to /)
    expect(error.message).toMatch(message)
    expect(sim.snapshot()).toEqual(before)
    expect(sim.keys.create({ userId: ACME })).toEqual(twin.keys.create({ userId: ACME }))
  }

  it('creates a key with a given hash, found by GET /keys/{hash}', () => {
    const sim = createSimulator({ world: makeSpec() })
    const created = sim.keys.create({ userId: ACME, name: 'Given hash', hash: NEW_HASH })
    expect(created.record.hash).toBe(NEW_HASH)
    expect(sim.keys.get(NEW_HASH)?.name).toBe('Given hash')
    const res = get(sim, `/keys/${NEW_HASH}`, ADMIN_SECRET)
    expect(res.status).toBe(200)
    expect((res.body as { data: ApiKey }).data.name).toBe('Given hash')
    // The secret is still generated, and answers as a bearer.
    expect(created.key).toMatch(/^sk-or-v1-[0-9a-f]{64}$/)
    expect(get(sim, '/models/acme/fast-1/endpoints', created.key).status).toBe(200)
  })

  it.each([
    ['a hash taken by a loaded key', APP_HASH, 'DUPLICATE_ID', new RegExp(`"hash" ${APP_HASH} is already the hash of another key`)],
    ['a hash in upper case', NEW_HASH.toUpperCase(), 'INVALID_ARGUMENT', /"hash" must match 64 lower-case hexadecimal digits/],
    ['a hash of 63 digits', NEW_HASH.slice(1), 'INVALID_ARGUMENT', /"hash" must match 64 lower-case hexadecimal digits/],
    ['a hash with a non-hex digit', `g${NEW_HASH.slice(1)}`, 'INVALID_ARGUMENT', /"hash" must match 64 lower-case hexadecimal digits/],
    ['a hash that is a number', 42, 'INVALID_ARGUMENT', /"hash" must be a non-empty string, got 42/],
    ['an empty hash', '', 'INVALID_ARGUMENT', /"hash" must be a non-empty string/],
  ] as const)('refuses a key with %s, changing nothing', (_, hash, code, message) => {
    expectRefused((sim) => sim.keys.create({ userId: ACME, hash: hash as string }), code, 'hash', message)
  })

  it('refuses a second key with a hash created a moment ago', () => {
    const sim = createSimulator({ world: 'empty' })
    const org = sim.users.create()
    sim.keys.create({ userId: org.id, hash: NEW_HASH })
    const error = simulatorErrorOf(() => sim.keys.create({ userId: org.id, hash: NEW_HASH }))
    expect([error.code, error.argument]).toEqual(['DUPLICATE_ID', 'hash'])
    expect(sim.keys.list()).toHaveLength(1)
  })

  it('creates a user whose default workspace has the given id', () => {
    const sim = createSimulator({ world: makeSpec() })
    const user = sim.users.create({ name: 'Initech', defaultWorkspaceId: NEW_WORKSPACE })
    expect(user.defaultWorkspaceId).toBe(NEW_WORKSPACE)
    expect(sim.workspaces.get(NEW_WORKSPACE)).toMatchObject({ id: NEW_WORKSPACE, slug: 'default', created_by: user.id })
    expect(sim.keys.create({ userId: user.id }).record.workspace_id).toBe(NEW_WORKSPACE)
    const admin = sim.keys.create({ userId: user.id, management: true })
    expect(get(sim, `/workspaces/${NEW_WORKSPACE}`, admin.key).status).toBe(200)
  })

  it('reads a defaultWorkspaceId in upper case as the same UUID in lower case', () => {
    const sim = createSimulator({ world: 'empty' })
    const user = sim.users.create({ defaultWorkspaceId: NEW_WORKSPACE.toUpperCase() })
    expect(user.defaultWorkspaceId).toBe(NEW_WORKSPACE)
    expect(sim.users.get(user.id)?.defaultWorkspaceId).toBe(NEW_WORKSPACE)
  })

  it.each([
    ['a malformed id', 'default', 'INVALID_ARGUMENT', /"defaultWorkspaceId" must match a UUID/],
    ['an id that is a number', 7, 'INVALID_ARGUMENT', /"defaultWorkspaceId" must be a non-empty string, got 7/],
    ['the id of a loaded default workspace', GLOBEX_DEFAULT, 'DUPLICATE_ID', new RegExp(`workspace id "${GLOBEX_DEFAULT}" is already taken`)],
    ['the id of a loaded workspace, in upper case', PRODUCTION.toUpperCase(), 'DUPLICATE_ID', /is already taken/],
  ] as const)('refuses a user with %s as defaultWorkspaceId, changing nothing', (_, id, code, message) => {
    expectRefused((sim) => sim.users.create({ name: 'Initech', defaultWorkspaceId: id as string }), code, 'defaultWorkspaceId', message)
  })
})
