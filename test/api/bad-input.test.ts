import { describe, expect, it } from 'vitest'
import { createSimulator, SimulatorError, type SimulatorErrorCode } from '../../src/index.js'

type Sim = ReturnType<typeof createSimulator>

/** Each case: what the user did wrong, the call, the code and argument the error must carry. */
const cases: [string, (sim: Sim) => unknown, SimulatorErrorCode, string, RegExp?][] = [
  ['a key for an unknown user', (s) => s.keys.create({ userId: 'user_nobody' }), 'UNKNOWN_USER', 'userId', /unknown user "user_nobody"/],
  ["a key in another user's workspace", (s) => s.keys.create({ userId: s.world.userId, workspaceId: s.world.otherTenant.workspaceId }), 'UNKNOWN_WORKSPACE', 'workspaceId'],
  ['a key with a negative limit', (s) => s.keys.create({ userId: s.world.userId, limit: -1 }), 'INVALID_ARGUMENT', 'limit'],
  ['a key with a NaN usage', (s) => s.keys.create({ userId: s.world.userId, usage: { daily: Number.NaN } }), 'INVALID_ARGUMENT', 'usage.daily'],
  ['a key with an unknown reset period', (s) => s.keys.create({ userId: s.world.userId, limitReset: 'yearly' as never }), 'INVALID_ARGUMENT', 'limitReset'],
  ['a key with a date-only expiry', (s) => s.keys.create({ userId: s.world.userId, expiresAt: '2027-01-01' }), 'INVALID_ARGUMENT', 'expiresAt'],
  ['a key reusing a secret', (s) => s.keys.create({ userId: s.world.userId, secret: s.world.apiKey }), 'DUPLICATE_ID', 'secret'],
  ['a workspace for an unknown user', (s) => s.workspaces.create({ userId: 'user_ghost', name: 'X' }), 'UNKNOWN_USER', 'userId'],
  ['a workspace with a duplicate slug', (s) => s.workspaces.create({ userId: s.world.userId, name: 'Prod 2', slug: 'production' }), 'DUPLICATE_SLUG', 'slug', /slug "production" is already used/],
  ['a workspace with a malformed UUID', (s) => s.workspaces.create({ userId: s.world.userId, name: 'X', id: '1234-not-a-uuid' }), 'INVALID_ARGUMENT', 'id', /must match a UUID/],
  ['a workspace with a taken UUID', (s) => s.workspaces.create({ userId: s.world.userId, name: 'X', id: s.world.workspaces.staging }), 'DUPLICATE_ID', 'id'],
  ['a workspace slug that looks like a UUID', (s) => s.workspaces.create({ userId: s.world.userId, name: 'X', slug: '550e8400-e29b-41d4-a716-446655440000' }), 'INVALID_ARGUMENT', 'slug'],
  ['a workspace slug with capitals', (s) => s.workspaces.create({ userId: s.world.userId, name: 'X', slug: 'Prod' }), 'INVALID_ARGUMENT', 'slug'],
  ['a user with a taken id', (s) => s.users.create({ id: s.world.userId }), 'DUPLICATE_ID', 'id'],
  ['a file with a duplicate id', (s) => s.files.create({ userId: s.world.userId, id: s.world.files.report, origin: 'server', bytes: new Uint8Array() }), 'DUPLICATE_FILE_ID', 'id'],
  ['a file whose bytes are a string', (s) => s.files.create({ userId: s.world.userId, origin: 'server', bytes: 'hello' as never }), 'INVALID_ARGUMENT', 'bytes', /must be a Uint8Array or an ArrayBuffer, got string/],
  ['a file whose bytes are an array of numbers', (s) => s.files.create({ userId: s.world.userId, origin: 'server', bytes: [1, 2] as never }), 'INVALID_ARGUMENT', 'bytes', /got an array/],
  ['a file with an id the wire refuses', (s) => s.files.create({ userId: s.world.userId, id: 'a/b', origin: 'server', bytes: new Uint8Array() }), 'INVALID_ARGUMENT', 'id'],
  ['a file with an unknown origin', (s) => s.files.create({ userId: s.world.userId, origin: 'cloud' as never, bytes: new Uint8Array() }), 'INVALID_ARGUMENT', 'origin'],
  ['a file with an unknown provider', (s) => s.files.create({ userId: s.world.userId, origin: 'server', provider: 'google' as never, bytes: new Uint8Array() }), 'INVALID_ARGUMENT', 'provider'],
  ['a model with a duplicate id', (s) => s.models.create({ id: s.world.models.paid }), 'DUPLICATE_ID', 'id'],
  ['a model id without an author', (s) => s.models.create({ id: 'gpt-4o' }), 'INVALID_ARGUMENT', 'id'],
  ['a model with an exponent price', (s) => s.models.create({ id: 'a/b', endpoints: [{ pricing: { prompt: '1e-6', completion: '0' } }] }), 'INVALID_PRICING', 'endpoints[0].pricing', /without an exponent/],
  ['a model with an empty time window', (s) => s.models.create({ id: 'a/b', endpoints: [{}, { pricing: { prompt: '0', completion: '0', overrides: [{ utc_start: 900, utc_end: 900 }] } }] }), 'INVALID_PRICING', 'endpoints[1].pricing', /overrides\[0\]\.utc_end/],
  ['a model whose endpoint has an unknown field', (s) => s.models.create({ id: 'a/b', endpoints: [{ provider: 'x' } as never] }), 'INVALID_ARGUMENT', 'endpoints[0].provider'],
  ['a model whose endpoint has a fractional context length', (s) => s.models.create({ id: 'a/b', endpoints: [{ context_length: 8192.5 }] }), 'INVALID_ARGUMENT', 'endpoints[0].context_length'],
  ['a model with an unknown quantization', (s) => s.models.create({ id: 'a/b', endpoints: [{ quantization: 'q4' as never }] }), 'INVALID_ARGUMENT', 'endpoints[0].quantization'],
  ['a model with uptime above 100', (s) => s.models.create({ id: 'a/b', endpoints: [{ uptime_last_1d: 100.5 }] }), 'INVALID_ARGUMENT', 'endpoints[0].uptime_last_1d'],
  ['a model with a workload name the SDK would drop', (s) => s.models.create({ id: 'a/b', endpoints: [{ perf_last_30m_by_workload: { chat: { latency: null, throughput: null, request_count: 1 } } as never }] }), 'INVALID_ARGUMENT', 'endpoints[0].perf_last_30m_by_workload key'],
  ['a model with an unknown tokenizer', (s) => s.models.create({ id: 'a/b', architecture: { tokenizer: 'BPE' as never } }), 'INVALID_ARGUMENT', 'architecture.tokenizer'],
  ['a video model with an unknown aspect ratio', (s) => s.videoModels.create({ id: 'a/v', supported_aspect_ratios: ['5:4' as never] }), 'INVALID_ARGUMENT', 'supported_aspect_ratios[0]'],
  ['a video model with a numeric SKU price', (s) => s.videoModels.create({ id: 'a/v', pricing_skus: { 'per-video-second': 0.5 as never } }), 'INVALID_ARGUMENT', 'pricing_skus.per-video-second'],
  ['a video model with a duplicate id', (s) => s.videoModels.create({ id: s.videoModels.list()[0]?.id ?? '' }), 'DUPLICATE_ID', 'id'],
  ['a clock set to an invalid date', (s) => s.clock.set('not a date'), 'INVALID_ARGUMENT', 'instant'],
  ['a clock set to 30 February, which Date.parse would read as 2 March', (s) => s.clock.set('2026-02-30T10:00:00Z'), 'INVALID_ARGUMENT', 'instant', /is not a date on the calendar/],
  ['a clock set to 24:00', (s) => s.clock.set('2026-03-02T24:00:00Z'), 'INVALID_ARGUMENT', 'instant', /is not a date on the calendar/],
  ['a key expiring on 29 February of a common year', (s) => s.keys.create({ userId: s.world.userId, expiresAt: '2027-02-29T00:00:00Z' }), 'INVALID_ARGUMENT', 'expiresAt', /is not a date on the calendar/],
  ['a clock moved backwards by advance', (s) => s.clock.advance(-1), 'INVALID_ARGUMENT', 'ms'],
  ['a restore from something that is not a snapshot', (s) => s.restore({ format: 'other' } as never), 'INVALID_SNAPSHOT', 'snapshot'],
]

describe('bad input to the programmatic API', () => {
  it.each(cases)('refuses %s with an error naming the problem', (_, act, code, argument, message) => {
    const sim = createSimulator()
    let thrown: unknown
    try {
      act(sim)
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(SimulatorError)
    const error = thrown as SimulatorError
    expect(error.code).toBe(code)
    expect(error.argument).toBe(argument)
    expect(error.message).toMatch(/^Failed to /)
    if (message) expect(error.message).toMatch(message)
  })

  it.each(cases)('leaves the simulator unchanged after refusing %s', (_, act) => {
    const sim = createSimulator()
    const twin = createSimulator()
    const before = sim.snapshot()
    expect(() => act(sim)).toThrow(SimulatorError)
    expect(sim.snapshot()).toEqual(before)
    // The random state was rolled back too: the next generated ids match an untouched twin's.
    const next = sim.keys.create({ userId: sim.world.userId })
    expect(next).toEqual(twin.keys.create({ userId: twin.world.userId }))
  })

  it('refuses bad simulator options, naming them', () => {
    expect(() => createSimulator({ seed: 1.5 })).toThrow(/"seed" must be a safe integer/)
    expect(() => createSimulator({ now: 'yesterday' })).toThrow(/"now" must be an ISO 8601 instant/)
    expect(() => createSimulator({ world: 'huge' as never })).toThrow(/"world" must be "default", "empty" or a world spec/)
  })
})

describe('states a test needs are not bad input', () => {
  it('creates disabled, expired, limit-exhausted and unlimited keys', () => {
    const sim = createSimulator()
    const userId = sim.world.userId
    expect(sim.keys.create({ userId, disabled: true }).record.disabled).toBe(true)
    expect(sim.keys.create({ userId, expiresAt: '2000-01-01T00:00:00Z' }).record.expires_at).toBe('2000-01-01T00:00:00.000000+00:00')
    // The clock is on Monday 2 March: this week so far is today, and this month so far is 1-2 March.
    const exhausted = sim.keys.create({ userId, limit: 5, limitReset: 'daily', usage: { total: 900, daily: 50, weekly: 50, monthly: 60 } })
    expect(exhausted.record).toMatchObject({ limit: 5, limit_remaining: 0, usage: 900, usage_daily: 50, usage_weekly: 50, usage_monthly: 60 })
    expect(sim.keys.create({ userId, limit: 0 }).record.limit_remaining).toBe(0)
    expect(sim.keys.create({ userId }).record).toMatchObject({ limit: null, limit_remaining: null, limit_reset: null })
  })

  it('creates a key with a secret of the caller’s choosing', () => {
    const sim = createSimulator()
    const key = sim.keys.create({ userId: sim.world.userId, management: true, secret: 'sk-or-v1-test-fixture-secret' })
    expect(key.key).toBe('sk-or-v1-test-fixture-secret')
    // A label shows at most a third of what follows sk-or-v1-: 6 of these 19 characters.
    expect(key.record.label).toBe('sk-or-v1-tes...ret')
    expect(sim.handle({ method: 'GET', path: '/keys', authorization: `Bearer ${key.key}` }).status).toBe(200)
  })

  it('copies file bytes in, so the caller reusing its buffer changes nothing', () => {
    const sim = createSimulator({ world: 'empty' })
    const org = sim.users.create()
    const admin = sim.keys.create({ userId: org.id, management: true })
    const bytes = new Uint8Array([1, 2, 3])
    sim.files.create({ userId: org.id, id: 'f', origin: 'server', bytes })
    bytes[0] = 99
    const res = sim.handle({ method: 'GET', path: '/files/f/content', authorization: `Bearer ${admin.key}` })
    expect(res.body).toEqual(new Uint8Array([1, 2, 3]))
  })

  it('hands out copies from list(), so editing them does not edit the store', () => {
    const sim = createSimulator()
    const [model] = sim.models.list()
    model!.endpoints[0]!.pricing.prompt = '999'
    sim.workspaces.list()[0]!.name = 'changed'
    expect(sim.models.list()[0]!.endpoints[0]!.pricing.prompt).not.toBe('999')
    expect(sim.workspaces.list()[0]!.name).not.toBe('changed')
  })
})
