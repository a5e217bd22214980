// Endpoint statistics from simulated traffic (decisions/0025): uptime over 5 minutes, 30 minutes and
// a day, time to first token and throughput percentiles over 30 minutes, on the simulator clock,
// with the seeded figures standing below the threshold.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createSimulator, type Endpoint } from '../../src/index.js'
import { ALPHA, BETA, GAMMA, MODEL, chat, chatWorld } from './support.js'
import { sdkClient, useSimulatorServer } from '../support/server.js'
import { runs } from '../support/runs.js'

type Sim = ReturnType<typeof chatWorld>['sim']

/** `GET /models/acme/chat-1/endpoints`, with the key (or anonymously), as its endpoints by provider. */
function endpoints(sim: Sim, key: string | null = null): Record<string, Endpoint> {
  const response = sim.handle({ method: 'GET', path: `/models/${MODEL}/endpoints`, ...(key !== null && { authorization: `Bearer ${key}` }) })
  expect(response.status).toBe(200)
  const body = response.body as { data: { endpoints: Endpoint[] } }
  return Object.fromEntries(body.data.endpoints.map((e) => [e.provider_name, e]))
}

const uptimes = (e: Endpoint | undefined) => [e?.uptime_last_5m, e?.uptime_last_30m, e?.uptime_last_1d]
const MINUTE = 60_000

/** `n` completions that try Beta first (and fall back to the others). */
function viaBeta(sim: Sim, key: string, n: number): string[] {
  const providers: string[] = []
  for (let i = 0; i < n; i++) {
    const answer = chat(sim, key, { model: MODEL, provider: { order: ['Beta'] } })
    expect(answer.status).toBe(200)
    providers.push(answer.body.provider)
  }
  return providers
}

describe('uptime from traffic', () => {
  it('falls to 0 after injected provider errors, while the router falls back to another provider', () => {
    const { sim, key } = chatWorld()
    const seeded = endpoints(sim, key)
    sim.faults.providerDown({ provider: 'Beta' })
    const providers = viaBeta(sim, key, 10)
    expect(providers.every((p) => p !== 'Beta')).toBe(true)

    const after = endpoints(sim, key)
    expect(uptimes(after['Beta'])).toEqual([0, 0, 0])
    // The endpoints that answered have their own traffic; Gamma or Alpha took each request.
    const served = (p: string) => providers.filter((x) => x === p).length
    for (const p of ['Alpha', 'Gamma']) {
      if (served(p) >= 10) expect(uptimes(after[p])).toEqual([100, 100, 100])
      else expect(uptimes(after[p])).toEqual(uptimes(seeded[p]))
    }
  })

  it('is successful / (successful + errors) x 100 to two decimals, responder error rules counting as errors', () => {
    const { sim, key } = chatWorld()
    // Two of every three attempts on Beta fail: 3 rules of `times: 1` answer the first three, and so on.
    for (let i = 0; i < 12; i++) {
      if (i % 3 !== 2) sim.inference.respond({ match: { provider: 'Beta' }, error: { status: 503 }, times: 1 })
      chat(sim, key, { model: MODEL, provider: { order: ['Beta'] } })
    }
    // 4 successes, 8 errors.
    expect(uptimes(endpoints(sim, key)['Beta'])).toEqual([33.33, 33.33, 33.33])
  })

  it('leaves the seeded figure standing until a window has 10 counted attempts', () => {
    const { sim, key } = chatWorld()
    const seeded = endpoints(sim, key)['Beta']
    sim.faults.providerDown({ provider: 'Beta' })
    viaBeta(sim, key, 9)
    expect(uptimes(endpoints(sim, key)['Beta'])).toEqual(uptimes(seeded))
    viaBeta(sim, key, 1)
    expect(uptimes(endpoints(sim, key)['Beta'])).toEqual([0, 0, 0])
  })

  it('leaves out rate-limited (429) attempts, from a provider and from the simulator’s own limiter', () => {
    const { sim, key } = chatWorld()
    const seeded = endpoints(sim, key)['Beta']
    sim.inference.respond({ match: { provider: 'Beta' }, error: { status: 429 }, times: 20 })
    viaBeta(sim, key, 20)
    expect(uptimes(endpoints(sim, key)['Beta'])).toEqual(uptimes(seeded))
    // 10 successes and no counted errors: 100, not 33.33.
    viaBeta(sim, key, 10)
    expect(uptimes(endpoints(sim, key)['Beta'])).toEqual([100, 100, 100])

    const limited = createSimulator({ world: 'empty', rateLimit: { requests: 9, intervalMs: 60_000 } })
    const org = limited.users.create({ name: 'Acme', credits: { total: 100 } })
    const { key: other } = limited.keys.create({ userId: org.id })
    limited.models.create({ id: MODEL, endpoints: [{ ...BETA, uptime_last_5m: 99.5 }] })
    limited.faults.providerDown({ provider: 'Beta' })
    // 9 attempts fail on Beta, 11 requests are refused by the limiter: 9 counted, below the threshold.
    const statuses = Array.from({ length: 20 }, () => chat(limited, other, { model: MODEL }).status)
    expect(statuses.filter((s) => s === 502)).toHaveLength(9)
    expect(statuses.filter((s) => s === 429)).toHaveLength(11)
    expect(endpoints(limited)['Beta']?.uptime_last_5m).toBe(99.5)
  })

  it('follows the clock: windows of whole minutes age traffic out, and traffic after the clock is not counted', () => {
    const { sim, key } = chatWorld({ now: '2026-03-02T10:00:30Z' })
    const seeded = uptimes(endpoints(sim, key)['Beta'])
    sim.faults.providerDown({ provider: 'Beta' })
    viaBeta(sim, key, 10)
    sim.faults.clear()
    const at = (iso: string) => {
      sim.clock.set(iso)
      return uptimes(endpoints(sim, key)['Beta'])
    }
    // The 5-minute window is the clock's minute and the 4 before it.
    expect(at('2026-03-02T10:04:59.999Z')).toEqual([0, 0, 0])
    expect(at('2026-03-02T10:05:00Z')).toEqual([seeded[0], 0, 0])
    expect(at('2026-03-02T10:29:59Z')).toEqual([seeded[0], 0, 0])
    expect(at('2026-03-02T10:30:00Z')).toEqual([seeded[0], seeded[1], 0])
    expect(at('2026-03-03T09:59:59Z')).toEqual([seeded[0], seeded[1], 0])
    expect(at('2026-03-03T10:00:00Z')).toEqual(seeded)
    // Back before the traffic: none of it is in any window; forward again, it is.
    expect(at('2026-03-02T09:59:00Z')).toEqual(seeded)
    expect(at('2026-03-02T10:01:00Z')).toEqual([0, 0, 0])
  })

  it('keeps a day of traffic in bounded slots: a minute a day later starts its slot again', () => {
    const { sim, key } = chatWorld({ now: '2026-03-02T10:00:00Z' })
    sim.faults.providerDown({ provider: 'Beta' })
    viaBeta(sim, key, 10)
    sim.faults.clear()
    sim.clock.set('2026-03-03T10:00:00Z') // the same slot, a day later
    viaBeta(sim, key, 10)
    expect(uptimes(endpoints(sim, key)['Beta'])).toEqual([100, 100, 100])
    // Back to the first day: its minute's slot now holds the later minute, so nothing is counted.
    sim.clock.set('2026-03-02T10:00:00Z')
    expect(endpoints(sim, key)['Beta']?.uptime_last_1d).toBe(BETA_SEEDED(sim, key))
  })
})

/** Beta's seeded 1-day uptime, as a fresh simulator of the same world shows it. */
function BETA_SEEDED(_sim: Sim, _key: string): number | null {
  const { sim, key } = chatWorld({ now: '2026-03-02T10:00:00Z' })
  return endpoints(sim, key)['Beta']?.uptime_last_1d ?? null
}

describe('latency and throughput percentiles from traffic', () => {
  /** `n` completions on Beta, the i-th (from 1) with time to first token `latency(i)` and throughput `tps(i)`. */
  function timed(sim: Sim, key: string, n: number, latency: (i: number) => number, tps: (i: number) => number): void {
    for (let i = 1; i <= n; i++) {
      sim.inference.respond({ match: { provider: 'Beta' }, reply: { latencyMs: latency(i), tokensPerSecond: tps(i) }, times: 1 })
      const answer = chat(sim, key, { model: MODEL, provider: { order: ['Beta'] } })
      expect(answer.body.provider).toBe('Beta')
    }
  }

  it('are nearest-rank percentiles of the attempts’ time to first token and tokens per second (throughput’s higher percentiles the slower tail)', () => {
    const { sim, key } = chatWorld()
    // Shuffled order: 100..2000 ms and 10..200 tokens per second.
    const order = [7, 3, 19, 1, 12, 20, 5, 9, 16, 2, 14, 8, 11, 18, 4, 15, 6, 13, 10, 17]
    timed(sim, key, 20, (i) => (order[i - 1] as number) * 100, (i) => (order[i - 1] as number) * 10)
    const beta = endpoints(sim, key)['Beta']
    // n = 20: ranks ceil(0.5 n) = 10, 15, 18 and 20.
    expect(beta?.latency_last_30m).toEqual({ p50: 1000, p75: 1500, p90: 1800, p99: 2000 })
    // Highest first: 200, 190, ...; ranks 10, 15, 18, 20.
    expect(beta?.throughput_last_30m).toEqual({ p50: 110, p75: 60, p90: 30, p99: 10 })
    // Anonymous callers see the uptime from traffic but no performance figures.
    const anonymous = endpoints(sim)['Beta']
    expect(anonymous?.uptime_last_5m).toBe(100)
    expect(anonymous?.latency_last_30m).toBeNull()
    expect(anonymous?.throughput_last_30m).toBeNull()
  })

  it('the responder’s timing is the generation’s latency and the stream’s first offset', () => {
    const { sim, key } = chatWorld()
    sim.inference.respond({ match: { provider: 'Beta' }, reply: { content: 'x'.repeat(64), latencyMs: 1234, tokensPerSecond: 8 } })
    const answer = chat(sim, key, { model: MODEL, provider: { order: ['Beta'] }, stream: true })
    const frames = answer.response.body as { atMs: number }[]
    expect(frames[1]?.atMs).toBe(1234)
    const json = chat(sim, key, { model: MODEL, provider: { order: ['Beta'] } })
    const generation = sim.handle({ method: 'GET', path: '/generation', query: `id=${json.body.id}`, authorization: `Bearer ${key}` }).body as { data: { latency: number; generation_time: number; provider_responses: { latency: number }[] } }
    expect(generation.data.latency).toBe(1234)
    expect(generation.data.provider_responses.at(-1)?.latency).toBe(1234)
    // 16 completion tokens at 8 per second.
    expect(generation.data.generation_time).toBe(2000)
  })

  it('refuses a bad latencyMs or tokensPerSecond, naming it', () => {
    const sim = createSimulator({ world: 'empty' })
    expect(() => sim.inference.respond({ reply: { latencyMs: -1 } })).toThrow(/reply\.latencyMs/)
    expect(() => sim.inference.respond({ reply: { latencyMs: 1.5 } })).toThrow(/reply\.latencyMs/)
    expect(() => sim.inference.respond({ reply: { tokensPerSecond: 0 } })).toThrow(/reply\.tokensPerSecond/)
    expect(() => sim.inference.respond({ reply: { tokensPerSecond: '5' as unknown as number } })).toThrow(/reply\.tokensPerSecond/)
  })

  it('need 10 successful attempts in 30 minutes; errors bring no sample', () => {
    const { sim, key } = chatWorld()
    timed(sim, key, 9, () => 50, () => 5)
    sim.inference.respond({ match: { provider: 'Beta' }, error: { status: 502 }, times: 5 })
    viaBeta(sim, key, 5)
    expect(endpoints(sim, key)['Beta']?.latency_last_30m).toEqual(BETA.latency_last_30m)
    timed(sim, key, 1, () => 50, () => 5)
    expect(endpoints(sim, key)['Beta']?.latency_last_30m).toEqual({ p50: 50, p75: 50, p90: 50, p99: 50 })
    sim.clock.advance(30 * MINUTE)
    expect(endpoints(sim, key)['Beta']?.latency_last_30m).toEqual(BETA.latency_last_30m)
  })

  it('stay bounded past 32 attempts a minute, each kept sample standing for its minute’s share', () => {
    const { sim, key } = chatWorld({ now: '2026-03-02T10:00:00Z' })
    // Minute one: 100 attempts at 100 ms (32 samples kept, each standing for 100/32).
    timed(sim, key, 100, () => 100, () => 40)
    sim.clock.advance(MINUTE)
    // Minute two: 10 attempts at 1000 ms.
    timed(sim, key, 10, () => 1000, () => 20)
    // 110 attempts: p50, p75 and p90 (cumulative 99 <= 100) fall in the first minute, p99 (108.9) in the second.
    expect(endpoints(sim, key)['Beta']?.latency_last_30m).toEqual({ p50: 100, p75: 100, p90: 100, p99: 1000 })
    expect(endpoints(sim, key)['Beta']?.throughput_last_30m).toEqual({ p50: 40, p75: 40, p90: 40, p99: 20 })
  })

  it('keep the same samples for the same traffic (the reservoir draws from a hash, not the seeded stream)', () => {
    const run = () => {
      const { sim, key } = chatWorld()
      timed(sim, key, 300, (i) => (i * 7919) % 1000, (i) => 1 + ((i * 104_729) % 300))
      return { beta: endpoints(sim, key)['Beta'], next: chat(sim, key, { model: MODEL }).body.id }
    }
    const a = run()
    const b = run()
    expect(a).toEqual(b)
    // Every percentile is one of the observed values.
    const observed = new Set(Array.from({ length: 300 }, (_, i) => ((i + 1) * 7919) % 1000))
    for (const v of Object.values(a.beta?.latency_last_30m ?? {})) expect(observed.has(v)).toBe(true)
  })
})

describe('cached responses', () => {
  it('a GET after traffic shows the new figures; an unchanged GET sends the same text', () => {
    const { sim, key } = chatWorld()
    const text = () => {
      const response = sim.handle({ method: 'GET', path: `/models/${MODEL}/endpoints`, authorization: `Bearer ${key}` })
      return JSON.stringify(response.body)
    }
    const before = text()
    expect(text()).toBe(before)
    sim.faults.providerDown({ provider: 'Beta' })
    viaBeta(sim, key, 10)
    const after = text()
    expect(after).not.toBe(before)
    expect(text()).toBe(after)
    // One more attempt: 11 errors still 0, but Alpha or Gamma took one more request.
    viaBeta(sim, key, 1)
    expect(JSON.parse(text()).data.endpoints.find((e: Endpoint) => e.provider_name === 'Beta').uptime_last_5m).toBe(0)
  })

  it('the catalog entry and sim.models show the world’s figures: traffic is what the endpoints listing reports', () => {
    const { sim, key } = chatWorld()
    sim.faults.providerDown({ provider: 'Beta' })
    viaBeta(sim, key, 10)
    expect(sim.models.get(MODEL)?.endpoints[1]?.uptime_last_5m).toBe(endpointsOf(BETA))
  })
})

const endpointsOf = (e: Partial<Endpoint>) => {
  const { sim } = chatWorld()
  return sim.models.get(MODEL)?.endpoints.find((x) => x.provider_name === e.provider_name)?.uptime_last_5m
}

describe('snapshots, restore and reset', () => {
  it('restore puts the statistics back as the snapshot held them; reset clears them', () => {
    const { sim, key } = chatWorld()
    const seeded = uptimes(endpoints(sim, key)['Beta'])
    const clean = sim.snapshot()
    sim.faults.providerDown({ provider: 'Beta' })
    viaBeta(sim, key, 10)
    sim.faults.clear()
    const down = sim.snapshot()
    viaBeta(sim, key, 10) // 10 successes more: 50
    expect(uptimes(endpoints(sim, key)['Beta'])).toEqual([50, 50, 50])
    sim.restore(down)
    expect(uptimes(endpoints(sim, key)['Beta'])).toEqual([0, 0, 0])
    viaBeta(sim, key, 30) // 10 errors, 30 successes: 75; the snapshot's row is not changed by it
    expect(uptimes(endpoints(sim, key)['Beta'])).toEqual([75, 75, 75])
    sim.restore(down)
    expect(uptimes(endpoints(sim, key)['Beta'])).toEqual([0, 0, 0])
    sim.restore(clean)
    expect(uptimes(endpoints(sim, key)['Beta'])).toEqual(seeded)
  })

  it('reset clears them (a model of the world, so it outlives the reset)', () => {
    const sim = createSimulator()
    const model = sim.world.models.timeWindowed
    const path = `/models/${model}/endpoints`
    const read = () => (sim.handle({ method: 'GET', path, authorization: `Bearer ${sim.world.apiKey}` }).body as { data: { endpoints: Endpoint[] } }).data.endpoints
    const seeded = read().map(uptimes)
    const providers = read().map((e) => e.provider_name)
    for (const provider of providers) sim.faults.providerDown({ provider })
    for (let i = 0; i < 10; i++) expect(chat(sim, sim.world.apiKey, { model }).status).toBe(502)
    expect(read().map(uptimes)).toEqual(providers.map(() => [0, 0, 0]))
    sim.reset()
    expect(read().map(uptimes)).toEqual(seeded)
  })

  it('a restore from another simulator copies its statistics, and later traffic in either leaves the other alone', () => {
    const a = chatWorld()
    const b = chatWorld()
    a.sim.faults.providerDown({ provider: 'Beta' })
    viaBeta(a.sim, a.key, 10)
    b.sim.restore(a.sim.snapshot())
    expect(uptimes(endpoints(b.sim, a.key)['Beta'])).toEqual([0, 0, 0])
    viaBeta(b.sim, a.key, 10)
    expect(uptimes(endpoints(b.sim, a.key)['Beta'])).toEqual([50, 50, 50])
    expect(uptimes(endpoints(a.sim, a.key)['Beta'])).toEqual([0, 0, 0])
  })
})

describe('routing after an outage', () => {
  it('the unsorted draw tries an endpoint whose 5-minute traffic uptime is below 90 after the others, until the window forgets it', () => {
    const firstTried = (sim: Sim, key: string, n: number) => {
      const counts: Record<string, number> = {}
      for (let i = 0; i < n; i++) {
        const answer = chat(sim, key, { model: MODEL })
        counts[answer.body.provider] = (counts[answer.body.provider] ?? 0) + 1
      }
      return counts
    }
    const { sim, key } = chatWorld()
    // Beta is the cheapest: 1/price² makes it first most of the time.
    const before = sim.snapshot()
    expect(firstTried(sim, key, 20)['Beta'] ?? 0).toBeGreaterThan(10)
    sim.restore(before)
    sim.faults.providerDown({ provider: 'Beta' })
    viaBeta(sim, key, 10)
    sim.faults.clear()
    // Beta is up again, but its 5-minute uptime is 0: it is drawn last, so never tried first.
    expect(firstTried(sim, key, 20)['Beta'] ?? 0).toBe(0)
    sim.clock.advance(5 * MINUTE)
    expect(firstTried(sim, key, 20)['Beta'] ?? 0).toBeGreaterThan(10)
  })

  it('an endpoint with an outage is still tried when the others fail', () => {
    const { sim, key } = chatWorld()
    sim.faults.providerDown({ provider: 'Beta' })
    viaBeta(sim, key, 10)
    sim.faults.clear()
    sim.faults.providerDown({ provider: 'Alpha' })
    sim.faults.providerDown({ provider: 'Gamma' })
    expect(chat(sim, key, { model: MODEL }).body.provider).toBe('Beta')
  })

  it('seeded figures alone never reorder the draw', () => {
    const draw = (uptime: number) => {
      const sim = createSimulator({ world: 'empty', seed: 3 })
      const org = sim.users.create({ name: 'Acme', credits: { total: 100 } })
      const { key } = sim.keys.create({ userId: org.id })
      sim.models.create({ id: MODEL, endpoints: [ALPHA, { ...BETA, uptime_last_5m: uptime }, GAMMA] })
      return Array.from({ length: 10 }, () => chat(sim, key, { model: MODEL }).body.provider)
    }
    expect(draw(0)).toEqual(draw(100))
  })
})

describe('the official SDK', () => {
  const { serve } = useSimulatorServer()

  it('parses sdk.endpoints.list after traffic, with the figures from traffic', async () => {
    const { sim, key } = chatWorld()
    serve(sim)
    const sdk = sdkClient(key)
    sim.faults.providerDown({ provider: 'Beta' })
    for (let i = 0; i < 10; i++) {
      sim.inference.respond({ match: { provider: 'Alpha' }, reply: { latencyMs: 100 * (i + 1), tokensPerSecond: 10 * (i + 1) }, times: 1 })
      const result = (await sdk.chat.send({ chatRequest: { model: MODEL, messages: [{ role: 'user', content: 'Hi' }], provider: { order: ['Beta', 'Alpha'] } } })) as { id: string }
      expect(result.id).toMatch(/^gen-/)
    }
    const { data } = await sdk.endpoints.list({ author: 'acme', slug: 'chat-1' })
    const byProvider = Object.fromEntries(data.endpoints.map((e) => [e.providerName, e]))
    expect([byProvider['Beta']?.uptimeLast5m, byProvider['Beta']?.uptimeLast30m, byProvider['Beta']?.uptimeLast1d]).toEqual([0, 0, 0])
    expect(byProvider['Alpha']?.uptimeLast1d).toBe(100)
    expect(byProvider['Alpha']?.latencyLast30m).toEqual({ p50: 500, p75: 800, p90: 900, p99: 1000 })
    expect(byProvider['Alpha']?.throughputLast30m).toEqual({ p50: 60, p75: 30, p90: 20, p99: 10 })
    expect(byProvider['Gamma']?.latencyLast30m).toEqual(GAMMA.latency_last_30m)
    // Anonymous: the uptime from traffic, no performance figures.
    const anonymous = await sdkClient().endpoints.list({ author: 'acme', slug: 'chat-1' })
    const beta = anonymous.data.endpoints.find((e) => e.providerName === 'Beta')
    expect(beta?.uptimeLast5m).toBe(0)
    expect(beta?.latencyLast30m).toBeNull()
    expect(ALPHA.provider_name).toBe('Alpha')
  })
})

describe('against a model written from the definitions', () => {
  // Attempts on Beta alone at random instants: each window's uptime and the 30-minute percentiles
  // computed by hand from the list of attempts (whole clock minutes, 10 to count, nearest rank)
  // equal what the endpoints listing shows. At most 30 attempts, so no minute overflows its 32 samples.
  const attempt = fc.record({
    // Mostly close together, so windows reach their threshold; now and then a jump past a window's edge or a day.
    advanceMs: fc.oneof(
      { arbitrary: fc.constant(0), weight: 4 },
      { arbitrary: fc.integer({ min: 0, max: 20_000 }), weight: 6 },
      { arbitrary: fc.integer({ min: 0, max: 40 * MINUTE }), weight: 1 },
      { arbitrary: fc.integer({ min: 0, max: 26 * 60 * MINUTE }), weight: 1 },
    ),
    status: fc.constantFrom(200, 200, 200, 502, 503, 429),
    latencyMs: fc.integer({ min: 1, max: 5000 }),
    tokensPerSecond: fc.integer({ min: 1, max: 500 }),
  })

  it('uptime and percentiles follow the definitions over random traffic and clocks', () => {
    fc.assert(
      fc.property(fc.array(attempt, { minLength: 1, maxLength: 30 }), fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 6 * MINUTE }), fc.integer({ min: 0, max: 31 * MINUTE })), (attempts, after) => {
        const { sim, key } = chatWorld({ now: '2026-03-02T10:00:00Z' })
        const seeded = endpoints(sim, key)['Beta'] as Endpoint
        const done: { minute: number; status: number; latencyMs: number; tokensPerSecond: number }[] = []
        for (const a of attempts) {
          sim.clock.advance(a.advanceMs)
          if (a.status === 200) sim.inference.respond({ match: { provider: 'Beta' }, reply: { latencyMs: a.latencyMs, tokensPerSecond: a.tokensPerSecond }, times: 1 })
          else sim.inference.respond({ match: { provider: 'Beta' }, error: { status: a.status }, times: 1 })
          chat(sim, key, { model: MODEL, provider: { only: ['Beta'] } })
          done.push({ minute: Math.floor(sim.clock.now().getTime() / MINUTE), ...a })
        }
        sim.clock.advance(after)
        const now = Math.floor(sim.clock.now().getTime() / MINUTE)
        const inWindow = (minutes: number) => done.filter((d) => d.minute > now - minutes && d.minute <= now && d.status !== 429)
        const uptime = (minutes: number, fallback: number | null) => {
          const counted = inWindow(minutes)
          if (counted.length < 10) return fallback
          return Math.round((counted.filter((d) => d.status === 200).length / counted.length) * 10_000) / 100
        }
        const rank = (values: number[], p: number) => values[Math.ceil((p / 100) * values.length) - 1] as number
        const ok = inWindow(30).filter((d) => d.status === 200)
        const latencies = ok.map((d) => d.latencyMs).sort((a, b) => a - b)
        const throughputs = ok.map((d) => d.tokensPerSecond).sort((a, b) => b - a)
        const pct = (values: number[]) => ({ p50: rank(values, 50), p75: rank(values, 75), p90: rank(values, 90), p99: rank(values, 99) })
        const beta = endpoints(sim, key)['Beta'] as Endpoint
        expect(beta.uptime_last_5m).toBe(uptime(5, seeded.uptime_last_5m))
        expect(beta.uptime_last_30m).toBe(uptime(30, seeded.uptime_last_30m))
        expect(beta.uptime_last_1d).toBe(uptime(1440, seeded.uptime_last_1d))
        expect(beta.latency_last_30m).toEqual(ok.length < 10 ? seeded.latency_last_30m : pct(latencies))
        expect(beta.throughput_last_30m).toEqual(ok.length < 10 ? seeded.throughput_last_30m : pct(throughputs))
      }),
      { verbose: true, numRuns: runs(60) },
    )
  })
})

describe('an outage, read without scanning when there was no error', () => {
  // Beta is a thousand times cheaper than Alpha: without an outage the unsorted draw tries it first
  // (Alpha's weight is a millionth of Beta's); with one, Alpha goes first. Whether the router saw an
  // outage must be what the 5-minute uptime says, whatever the errors' minutes and clock moves.
  const step = fc.oneof(
    fc.record({ kind: fc.constant('advance' as const), minutes: fc.integer({ min: -6, max: 7 }) }),
    fc.record({ kind: fc.constant('traffic' as const), errors: fc.integer({ min: 0, max: 12 }), successes: fc.integer({ min: 0, max: 12 }) }),
  )
  it('routes around Beta exactly when its last 5 minutes are under 90% up', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 12 }), (steps) => {
        const sim = createSimulator({ world: 'empty', seed: 3, now: '2026-03-02T10:00:30Z' })
        const org = sim.users.create({ name: 'O', credits: { total: 1_000_000 } })
        const { key } = sim.keys.create({ userId: org.id, name: 'k' })
        sim.models.create({
          id: 'o/m',
          endpoints: [
            { provider_name: 'Alpha', pricing: { prompt: '0.001', completion: '0.001' } },
            { provider_name: 'Beta', pricing: { prompt: '0.000001', completion: '0.000001' } },
          ],
        })
        const send = (body: Record<string, unknown>) => chat(sim, key, { model: 'o/m', ...body })
        for (const s of steps) {
          if (s.kind === 'advance') {
            if (s.minutes >= 0) sim.clock.advance(s.minutes * MINUTE)
            else sim.clock.set(new Date(sim.clock.now().getTime() + s.minutes * MINUTE))
            continue
          }
          const down = sim.faults.providerDown({ provider: 'Beta' })
          for (let i = 0; i < s.errors; i++) expect(send({ provider: { order: ['Beta'] } }).status).toBe(200)
          down.remove()
          for (let i = 0; i < s.successes; i++) expect(send({ provider: { order: ['Beta'] } }).body.provider).toBe('Beta')
        }
        const listed = sim.handle({ method: 'GET', path: '/models/o/m/endpoints', authorization: `Bearer ${key}` }).body as { data: { endpoints: Endpoint[] } }
        const up = listed.data.endpoints.find((e) => e.provider_name === 'Beta')?.uptime_last_5m
        const outage = up !== undefined && up !== null && up < 90
        expect(send({}).body.provider).toBe(outage ? 'Alpha' : 'Beta')
      }),
      { seed: 20261126, numRuns: runs(600) },
    )
  })
})
