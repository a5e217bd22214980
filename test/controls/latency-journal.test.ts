// Simulated latency (on the simulator clock, real waits only when asked) and the request journal.
import { describe, expect, it } from 'vitest'
import {
  createSimulator,
  SimulatorError,
  SimulatorErrorCode,
  type JournalEntry,
  type LatencyRule,
  type SimRequest,
  type SimResponse,
} from '../../src/index.js'
import { DEFAULT_BASE_URL } from '../../src/msw/index.js'
import { simulatorErrorOf, useSimulatorServer } from '../support/server.js'

type Sim = ReturnType<typeof createSimulator>

const { serve } = useSimulatorServer()


function listKeys(sim: Sim): SimResponse {
  return sim.handle({ method: 'GET', path: '/keys', authorization: `Bearer ${sim.world.managementKey}` })
}

function listVideoModels(sim: Sim): SimResponse {
  return sim.handle({ method: 'GET', path: '/videos/models' })
}

/** A management key of the world's organisation whose hash the test knows. */
function newManagementKey(sim: Sim): { secret: string; hash: string } {
  const created = sim.keys.create({ userId: sim.world.userId, management: true, name: 'Journal admin' })
  return { secret: created.key, hash: created.record.hash }
}

describe('latency', () => {
  it('adds none by default: no delayMs on responses and the clock stands still', () => {
    const sim = createSimulator()
    const before = sim.clock.nowMs()
    const res = listKeys(sim)
    expect(res.status).toBe(200)
    expect('delayMs' in res).toBe(false)
    expect('realDelay' in res).toBe(false)
    expect(sim.clock.nowMs()).toBe(before)
  })

  it('with set({ ms: 250 }), advances the clock by 250 ms per request and reports delayMs 250', () => {
    const sim = createSimulator()
    sim.latency.set({ ms: 250 })
    const start = sim.clock.nowMs()
    for (let i = 1; i <= 4; i++) {
      const res = i % 2 === 0 ? listKeys(sim) : listVideoModels(sim)
      expect(res.delayMs).toBe(250)
      expect('realDelay' in res).toBe(false)
      expect(sim.clock.nowMs()).toBe(start + 250 * i)
    }
  })

  it('delays error responses and requests outside the six operations by the default too', () => {
    const sim = createSimulator()
    sim.latency.set({ ms: 40 })
    const unauthorized = sim.handle({ method: 'GET', path: '/keys' })
    expect(unauthorized.status).toBe(401)
    expect(unauthorized.delayMs).toBe(40)
    const notSimulated = sim.handle({ method: 'GET', path: '/chat/completions' })
    expect(notSimulated.status).toBe(404)
    expect(notSimulated.delayMs).toBe(40)
    sim.faults.providerDown()
    expect(listKeys(sim).delayMs).toBe(40)
  })

  it('applies an operation-specific rule over the default, whichever was set first', () => {
    const sim = createSimulator()
    sim.latency.set({ operation: 'listKeys', ms: 700 })
    sim.latency.set({ ms: 100 })
    expect(listKeys(sim).delayMs).toBe(700)
    expect(listVideoModels(sim).delayMs).toBe(100)
    expect(sim.handle({ method: 'GET', path: '/nothing-here' }).delayMs).toBe(100)
  })

  it('delays only the named operation when there is no default', () => {
    const sim = createSimulator()
    sim.latency.set({ operation: 'listVideoModels', ms: 300 })
    const start = sim.clock.nowMs()
    expect('delayMs' in listKeys(sim)).toBe(false)
    expect(sim.clock.nowMs()).toBe(start)
    expect(listVideoModels(sim).delayMs).toBe(300)
    expect(sim.clock.nowMs()).toBe(start + 300)
  })

  it('replaces an earlier rule for the same operation', () => {
    const sim = createSimulator()
    sim.latency.set({ ms: 100 })
    sim.latency.set({ ms: 20 })
    expect(listKeys(sim).delayMs).toBe(20)
  })

  it('treats ms: 0 as no latency', () => {
    const sim = createSimulator()
    sim.latency.set({ ms: 0 })
    expect('delayMs' in listKeys(sim)).toBe(false)
  })

  it('draws a ranged delay from [10, 20], reaching both ends, and advances the clock by each draw', () => {
    const sim = createSimulator()
    sim.latency.set({ ms: [10, 20] })
    const drawn: number[] = []
    for (let i = 0; i < 200; i++) {
      const before = sim.clock.nowMs()
      const ms = listVideoModels(sim).delayMs ?? 0
      expect(sim.clock.nowMs() - before).toBe(ms)
      drawn.push(ms)
    }
    for (const ms of drawn) {
      expect(Number.isInteger(ms)).toBe(true)
      expect(ms).toBeGreaterThanOrEqual(10)
      expect(ms).toBeLessThanOrEqual(20)
    }
    expect(Math.min(...drawn)).toBe(10)
    expect(Math.max(...drawn)).toBe(20)
  })

  it('draws the same ranged delays for the same seed and others for another seed', () => {
    const draws = (seed: number): number[] => {
      const sim = createSimulator({ seed })
      sim.latency.set({ ms: [10, 20] })
      return Array.from({ length: 50 }, () => listVideoModels(sim).delayMs ?? 0)
    }
    expect(draws(3)).toEqual(draws(3))
    expect(draws(4)).not.toEqual(draws(3))
  })

  it('gives exactly the value of a range whose ends are equal', () => {
    const sim = createSimulator()
    sim.latency.set({ ms: [50, 50] })
    expect(Array.from({ length: 10 }, () => listKeys(sim).delayMs)).toEqual(Array(10).fill(50))
  })

  it('marks a real latency with realDelay on the response', () => {
    const sim = createSimulator()
    sim.latency.set({ ms: 5, real: true })
    expect(listKeys(sim)).toMatchObject({ delayMs: 5, realDelay: true })
  })

  it('never waits in real time without real: a 10-minute latency through MSW resolves at once', async () => {
    const sim = createSimulator()
    serve(sim)
    sim.latency.set({ ms: 10 * 60_000 })
    const before = sim.clock.nowMs()
    const started = performance.now()
    const res = await fetch(`${DEFAULT_BASE_URL}/videos/models`)
    expect(res.status).toBe(200)
    expect(performance.now() - started).toBeLessThan(2000)
    expect(sim.clock.nowMs()).toBe(before + 10 * 60_000)
  })

  it('waits in real time with real: true through MSW', async () => {
    const sim = createSimulator()
    serve(sim)
    sim.latency.set({ ms: 150, real: true })
    const started = performance.now()
    const res = await fetch(`${DEFAULT_BASE_URL}/videos/models`)
    expect(performance.now() - started).toBeGreaterThanOrEqual(140)
    expect(res.status).toBe(200)
  })

  it('goes back to no latency anywhere after clear()', () => {
    const sim = createSimulator()
    sim.latency.set({ ms: 100 })
    sim.latency.set({ operation: 'listKeys', ms: 200 })
    sim.latency.clear()
    const start = sim.clock.nowMs()
    expect('delayMs' in listKeys(sim)).toBe(false)
    expect('delayMs' in listVideoModels(sim)).toBe(false)
    expect(sim.clock.nowMs()).toBe(start)
  })

  const badRules: { name: string; rule: unknown; argument: string }[] = [
    { name: 'a negative delay', rule: { ms: -1 }, argument: 'ms' },
    { name: 'an infinite delay', rule: { ms: Number.POSITIVE_INFINITY }, argument: 'ms' },
    { name: 'a range whose ends are reversed', rule: { ms: [20, 10] }, argument: 'ms' },
    { name: 'a range of three numbers', rule: { ms: [1, 2, 3] }, argument: 'ms' },
    { name: 'a missing delay', rule: {}, argument: 'ms' },
    { name: 'an unknown operation', rule: { operation: 'listUsers', ms: 5 }, argument: 'operation' },
    { name: 'a non-boolean real', rule: { ms: 5, real: 'yes' }, argument: 'real' },
  ]

  it.each(badRules)('latency.set refuses $name with a SimulatorError naming $argument, changing nothing', ({ rule, argument }) => {
    const sim = createSimulator()
    const error = simulatorErrorOf(() => sim.latency.set(rule as LatencyRule))
    expect(error.code).toBe(SimulatorErrorCode.InvalidArgument)
    expect(error.argument).toBe(argument)
    expect('delayMs' in listKeys(sim)).toBe(false)
  })
})

describe('journal', () => {
  it('records every request in arrival order with its operation, status, caller and query', () => {
    const sim = createSimulator()
    const admin = newManagementKey(sim)
    const disabled = sim.keys.create({ userId: sim.world.userId, name: 'Soon disabled' })
    sim.keys.update(disabled.record.hash, { disabled: true })
    const at = sim.clock.now().toISOString()

    const sent: SimRequest[] = [
      { method: 'GET', path: '/keys', query: 'include_disabled=true&offset=0', authorization: `Bearer ${admin.secret}` },
      { method: 'GET', path: '/videos/models' },
      { method: 'GET', path: '/chat/completions', query: '?stream=true' },
      { method: 'get', path: `/keys/${sim.world.apiKeyHash}`, query: new URLSearchParams({ a: 'b c' }), authorization: 'Bearer sk-or-v1-unknown-secret' },
      { method: 'PUT', path: '/keys', authorization: `Bearer ${admin.secret}` },
      { method: 'GET', path: `/workspaces/${sim.world.workspaces.production}`, authorization: `Bearer ${sim.world.apiKey}` },
      { method: 'GET', path: '/videos/models', authorization: `Bearer ${disabled.key}` },
      { method: 'GET', path: '/models/openai/gpt-4%3Afree/endpoints', authorization: 'Token nope' },
    ]
    for (const request of sent) sim.handle(request)

    const entries = sim.journal.list()
    const adminPrincipal = { userId: sim.world.userId, keyHash: admin.hash, management: true }
    const regularPrincipal = { userId: sim.world.userId, keyHash: sim.world.apiKeyHash, management: false }
    const common = { at, fault: null, responder: null, responderRemaining: null, rateLimited: false, delayMs: 0, outcome: 'response', cutShort: null, requestBody: null, requestBodyBytes: null, requestBodyTruncated: false, ignoredFields: [], warnings: [], guardrailFlags: [] }
    expect(entries.map(({ response: _response, ...rest }) => rest)).toEqual([
      { ...common, seq: 1, method: 'GET', path: '/keys', query: 'include_disabled=true&offset=0', operation: 'listKeys', status: 200, principal: adminPrincipal },
      { ...common, seq: 2, method: 'GET', path: '/videos/models', query: '', operation: 'listVideoModels', status: 200, principal: null },
      { ...common, seq: 3, method: 'GET', path: '/chat/completions', query: 'stream=true', operation: null, status: 404, principal: null },
      { ...common, seq: 4, method: 'GET', path: `/keys/${sim.world.apiKeyHash}`, query: 'a=b+c', operation: 'getKey', status: 401, principal: null },
      { ...common, seq: 5, method: 'PUT', path: '/keys', query: '', operation: null, status: 404, principal: adminPrincipal },
      { ...common, seq: 6, method: 'GET', path: `/workspaces/${sim.world.workspaces.production}`, query: '', operation: 'getWorkspace', status: 403, principal: regularPrincipal },
      { ...common, seq: 7, method: 'GET', path: '/videos/models', query: '', operation: 'listVideoModels', status: 401, principal: null },
      { ...common, seq: 8, method: 'GET', path: '/models/openai/gpt-4%3Afree/endpoints', query: '', operation: 'listEndpoints', status: 401, principal: null },
    ])
  })

  it('keeps each response as the router produced it', () => {
    const sim = createSimulator()
    const res = listVideoModels(sim)
    const [entry] = sim.journal.list()
    expect(entry?.response).toEqual(res)
  })

  it('records the fault that answered, the rate limiter, delays and arrival times', () => {
    const sim = createSimulator({ rateLimit: { requests: 1, intervalMs: 60_000 } })
    const start = sim.clock.nowMs()
    sim.latency.set({ ms: 250 })
    sim.faults.add({ name: 'flaky-videos', operation: 'listVideoModels', once: true, respond: { status: 502 } })
    listVideoModels(sim)
    listVideoModels(sim)
    listVideoModels(sim)

    const entries = sim.journal.list()
    expect(entries.map((e) => [e.seq, e.status, e.fault, e.rateLimited, e.delayMs])).toEqual([
      [1, 502, 'flaky-videos', false, 250],
      [2, 200, null, false, 250],
      [3, 429, null, true, 250],
    ])
    // Arrival is before the latency passes: each request arrives when the previous one's delay is over.
    expect(entries.map((e) => e.at)).toEqual([0, 250, 500].map((ms) => new Date(start + ms).toISOString()))
  })

  it('records network errors and unanswered requests with status 0 and their outcome', () => {
    const sim = createSimulator()
    sim.faults.add({ name: 'cut', operation: 'listKeys', once: true, respond: 'network-error' })
    sim.faults.add({ name: 'hang', operation: 'listKeys', once: true, respond: 'never' })
    listKeys(sim)
    listKeys(sim)
    listKeys(sim)
    expect(sim.journal.list().map((e) => [e.status, e.outcome, e.fault])).toEqual([
      [0, 'network-error', 'cut'],
      [0, 'never', 'hang'],
      [200, 'response', null],
    ])
  })

  it('records requests that arrive through MSW, with their query', async () => {
    const sim = createSimulator()
    serve(sim)
    await fetch(`${DEFAULT_BASE_URL}/keys?offset=100`, { headers: { authorization: `Bearer ${sim.world.managementKey}` } })
    await fetch(`${DEFAULT_BASE_URL}/videos/models`)
    expect(sim.journal.list().map((e) => [e.seq, e.method, e.path, e.query, e.operation, e.status])).toEqual([
      [1, 'GET', '/keys', 'offset=100', 'listKeys', 200],
      [2, 'GET', '/videos/models', '', 'listVideoModels', 200],
    ])
  })

  it('keeps the bytes of a file download intact after MSW has sent them', async () => {
    const sim = createSimulator()
    serve(sim)
    const res = await fetch(`${DEFAULT_BASE_URL}/files/${sim.world.files.report}/content`, {
      headers: { authorization: `Bearer ${sim.world.managementKey}` },
    })
    const sent = new Uint8Array(await res.arrayBuffer())
    expect(res.status).toBe(200)
    expect(sent.byteLength).toBeGreaterThan(0)
    const [entry] = sim.journal.list()
    expect(entry?.response.type).toBe('bytes')
    expect(entry?.response.body).toEqual(sent)
  })

  describe('filters', () => {
    /** A journal of known content: seq 1..6. */
    function filled(): { sim: Sim; admin: { secret: string; hash: string } } {
      const sim = createSimulator()
      const admin = newManagementKey(sim)
      sim.handle({ method: 'GET', path: '/keys', authorization: `Bearer ${admin.secret}` }) // 1 listKeys 200 admin
      sim.handle({ method: 'GET', path: '/videos/models' }) // 2 listVideoModels 200 anonymous
      sim.handle({ method: 'GET', path: '/keys' }) // 3 listKeys 401 anonymous
      sim.handle({ method: 'DELETE', path: '/keys', authorization: `Bearer ${admin.secret}` }) // 4 null 404 admin
      sim.handle({ method: 'GET', path: '/videos/models', authorization: `Bearer ${sim.world.apiKey}` }) // 5 listVideoModels 200 regular
      sim.faults.add({ respond: 'network-error', once: true })
      sim.handle({ method: 'GET', path: '/videos/models', authorization: `Bearer ${admin.secret}` }) // 6 network error, admin
      return { sim, admin }
    }
    const seqs = (entries: JournalEntry[]): number[] => entries.map((e) => e.seq)

    it('lists every entry without a filter', () => {
      expect(seqs(filled().sim.journal.list())).toEqual([1, 2, 3, 4, 5, 6])
    })

    it('filters by operation, null meaning requests outside the six operations', () => {
      const { sim } = filled()
      expect(seqs(sim.journal.list({ operation: 'listKeys' }))).toEqual([1, 3])
      expect(seqs(sim.journal.list({ operation: 'listVideoModels' }))).toEqual([2, 5, 6])
      expect(seqs(sim.journal.list({ operation: null }))).toEqual([4])
    })

    it('filters by status', () => {
      const { sim } = filled()
      expect(seqs(sim.journal.list({ status: 200 }))).toEqual([1, 2, 5])
      expect(seqs(sim.journal.list({ status: 401 }))).toEqual([3])
      expect(seqs(sim.journal.list({ status: 0 }))).toEqual([6])
    })

    it('filters by method, in any letter case', () => {
      const { sim } = filled()
      expect(seqs(sim.journal.list({ method: 'DELETE' }))).toEqual([4])
      expect(seqs(sim.journal.list({ method: 'delete' }))).toEqual([4])
      expect(seqs(sim.journal.list({ method: 'get' }))).toEqual([1, 2, 3, 5, 6])
    })

    it('filters by the calling key', () => {
      const { sim, admin } = filled()
      expect(seqs(sim.journal.list({ keyHash: admin.hash }))).toEqual([1, 4, 6])
      expect(seqs(sim.journal.list({ keyHash: sim.world.apiKeyHash }))).toEqual([5])
    })

    it('filters by outcome', () => {
      const { sim } = filled()
      expect(seqs(sim.journal.list({ outcome: 'network-error' }))).toEqual([6])
      expect(seqs(sim.journal.list({ outcome: 'response' }))).toEqual([1, 2, 3, 4, 5])
      expect(sim.journal.list({ outcome: 'never' })).toEqual([])
    })

    it('keeps only entries meeting every criterion given', () => {
      const { sim, admin } = filled()
      expect(seqs(sim.journal.list({ keyHash: admin.hash, operation: 'listVideoModels' }))).toEqual([6])
      expect(seqs(sim.journal.list({ operation: 'listVideoModels', status: 200, method: 'GET' }))).toEqual([2, 5])
      expect(sim.journal.list({ operation: 'listKeys', status: 404 })).toEqual([])
    })
  })

  it('forgets every entry on clear() and goes on numbering from where it was', () => {
    const sim = createSimulator()
    listKeys(sim)
    listKeys(sim)
    listKeys(sim)
    sim.journal.clear()
    expect(sim.journal.list()).toEqual([])
    listVideoModels(sim)
    expect(sim.journal.list().map((e) => [e.seq, e.operation])).toEqual([[4, 'listVideoModels']])
  })

  it('reset() empties the journal, numbers from 1 again, and clears faults and latency', () => {
    const sim = createSimulator()
    sim.faults.providerDown()
    sim.latency.set({ ms: 500 })
    listKeys(sim)
    listKeys(sim)

    sim.reset()
    expect(sim.journal.list()).toEqual([])
    expect(sim.faults.list()).toEqual([])
    const start = sim.clock.nowMs()
    const res = listKeys(sim)
    expect(res.status).toBe(200)
    expect('delayMs' in res).toBe(false)
    expect(sim.clock.nowMs()).toBe(start)
    expect(sim.journal.list().map((e) => [e.seq, e.status, e.fault, e.delayMs])).toEqual([[1, 200, null, 0]])
  })

  it('leaves the journal, faults and latency as they are on restore()', () => {
    const sim = createSimulator()
    const saved = sim.snapshot()
    sim.faults.internalError({ operation: 'listVideoModels' })
    sim.latency.set({ ms: 10 })
    listVideoModels(sim)
    sim.restore(saved)
    expect(sim.journal.list()).toHaveLength(1)
    expect(listVideoModels(sim)).toMatchObject({ status: 500, delayMs: 10 })
  })

  it('keeps the latest journalLimit entries, whatever the number of requests', () => {
    for (let count = 1; count <= 12; count++) {
      const sim = createSimulator({ journalLimit: 3 })
      for (let i = 0; i < count; i++) listVideoModels(sim)
      const expected = Array.from({ length: Math.min(count, 3) }, (_, i) => count - Math.min(count, 3) + 1 + i)
      expect(sim.journal.list().map((e) => e.seq), `after ${count} requests`).toEqual(expected)
    }
  })

  it('applies filters to the kept entries only', () => {
    const sim = createSimulator({ journalLimit: 2 })
    listKeys(sim)
    listKeys(sim)
    listVideoModels(sim)
    listVideoModels(sim)
    expect(sim.journal.list({ operation: 'listKeys' })).toEqual([])
    expect(sim.journal.list({ operation: 'listVideoModels' }).map((e) => e.seq)).toEqual([3, 4])
  })

  it('keeps nothing with journalLimit 0', () => {
    const sim = createSimulator({ journalLimit: 0 })
    listKeys(sim)
    listVideoModels(sim)
    expect(sim.journal.list()).toEqual([])
  })

  it('refuses a negative or fractional journalLimit with a SimulatorError naming it', () => {
    for (const journalLimit of [-1, 2.5]) {
      const error = simulatorErrorOf(() => createSimulator({ journalLimit }))
      expect(error.code).toBe(SimulatorErrorCode.InvalidArgument)
      expect(error.argument).toBe('journalLimit')
    }
  })

  it('hands out copies: editing a listed entry changes nothing in the next list()', () => {
    const sim = createSimulator()
    listKeys(sim)
    const [first] = sim.journal.list()
    if (!first) throw new Error('expected an entry')
    const original = structuredClone(first)

    first.status = 999
    first.operation = null
    if (first.principal) first.principal.management = false
    ;(first.response.headers as Record<string, string>)['content-type'] = 'text/plain'
    ;((first.response.body as { data: unknown[] }).data).length = 0

    expect(sim.journal.list()).toEqual([original])
  })
})
