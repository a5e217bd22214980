// model-access-sim/vitest, tested with vitest itself: each test's own simulator, concurrent tests
// isolated, nothing leaking between tests, extra handlers, the unhandled-request policies.
import { OpenRouter } from '@openrouter/sdk'
import { http, HttpResponse } from 'msw'
import { describe, expect, test, vi } from 'vitest'
import { DEFAULT_NOW, SimulatorError } from '../../src/index.js'
import { createSimTest, simTest } from '../../src/vitest/index.js'
import { useLoopbackServer } from '../support/loopback.js'

const BASE = 'https://openrouter.ai/api/v1'
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms))
const bearer = (key: string) => ({ headers: { authorization: `Bearer ${key}` } })

// A real server on loopback: what a request that the fixture lets through reaches.
const local = useLoopbackServer('from the real network')

describe('simTest', () => {
  simTest('fetch reaches this test’s own simulator', async ({ sim }) => {
    const res = await fetch(`${BASE}/keys`, bearer(sim.world.managementKey))
    expect(res.status).toBe(200)
    expect(sim.journal.list().map((e) => e.operation)).toEqual(['listKeys'])
  })

  simTest('the official SDK reaches it', async ({ sim }) => {
    const created = sim.keys.create({ userId: sim.users.list()[0]!.id, name: 'made in this test' })
    const sdk = new OpenRouter({ apiKey: sim.world.managementKey, serverURL: BASE, retryConfig: { strategy: 'none' } })
    const key = await sdk.apiKeys.get({ hash: created.record.hash })
    expect(key.data.name).toBe('made in this test')
  })

  simTest('a test that takes no parameters is served when it runs alone', async () => {
    expect((await fetch(`${BASE}/videos/models`)).status).toBe(200)
  })

  describe('nothing leaks into the next test', () => {
    simTest('a test adds a fault, a key and moves the clock', async ({ sim }) => {
      sim.faults.serviceUnavailable({ operation: 'listVideoModels' })
      sim.clock.advance(3 * 86_400_000)
      sim.keys.create({ userId: sim.users.list()[0]!.id, name: 'left behind' })
      expect((await fetch(`${BASE}/videos/models`)).status).toBe(503)
    })

    simTest('the next one starts from the world as created', async ({ sim }) => {
      expect(sim.clock.now().toISOString()).toBe(DEFAULT_NOW)
      expect(sim.faults.list()).toEqual([])
      expect((await fetch(`${BASE}/videos/models`)).status).toBe(200)
      const keys = (await (await fetch(`${BASE}/keys`, bearer(sim.world.managementKey))).json()) as { data: { name: string }[] }
      expect(keys.data.map((k) => k.name)).not.toContain('left behind')
    })
  })

  describe('a beforeEach that takes the simulator', () => {
    simTest.beforeEach(({ sim }) => {
      sim.faults.providerDown({ operation: 'getWorkspace' })
    })

    simTest('sees the same simulator as the test', async ({ sim }) => {
      expect(sim.faults.list()).toHaveLength(1)
      expect((await fetch(`${BASE}/workspaces/production`, bearer(sim.world.managementKey))).status).toBe(502)
    })

    simTest('also when the test takes no parameters', async () => {
      expect((await fetch(`${BASE}/workspaces/production`)).status).toBe(502)
    })
  })
})

describe('simTest.concurrent: each test reaches only its own simulator', () => {
  const names = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot']
  for (const [i, name] of names.entries()) {
    simTest.concurrent(`test ${name}`, async ({ sim, expect }) => {
      // Each test changes its own world: a key of its own, and every other test a fault and a clock move.
      const userId = sim.users.list()[0]!.id
      sim.keys.create({ userId, name: `key of ${name}` })
      if (i % 2 === 0) sim.faults.serviceUnavailable({ operation: 'listVideoModels' })
      sim.clock.advance(i * 3_600_000)
      for (let round = 0; round < 4; round++) {
        await sleep((i * 7 + round * 5) % 11)
        const res = await fetch(`${BASE}/keys?include_disabled=true`, bearer(sim.world.managementKey))
        const own = ((await res.json()) as { data: { name: string }[] }).data.map((k) => k.name).filter((n) => n.startsWith('key of '))
        expect(own).toEqual([`key of ${name}`])
        expect((await fetch(`${BASE}/videos/models`)).status).toBe(i % 2 === 0 ? 503 : 200)
      }
      expect(sim.journal.list()).toHaveLength(8)
    })
  }

})

describe('a concurrent test that takes neither sim nor network', () => {
  // Its requests could reach a neighbour's simulator, so it fails, naming the fix.
  let message: string | undefined
  simTest.concurrent.fails('fails', async ({ onTestFinished }) => {
    onTestFinished(({ task }) => {
      message = task.result?.errors?.[0]?.message
    })
  })

  test('with a message that says what to write', () => {
    expect(message).toBe(
      'model-access-sim/vitest: a concurrent simulator test must take `sim` or `network` in its parameters, ' +
        'so that its requests reach its own simulator: simTest.concurrent(name, async ({ sim }) => ...)',
    )
  })
})

describe('network: handlers of one test', () => {
  simTest('use() answers another host, and can override a simulator route', async ({ sim, network }) => {
    network.use(
      http.get('https://billing.example/invoices', () => HttpResponse.json({ total: 3 })),
      http.get(`${BASE}/videos/models`, () => HttpResponse.json({ data: [] })),
    )
    expect(await (await fetch('https://billing.example/invoices')).json()).toEqual({ total: 3 })
    expect(await (await fetch(`${BASE}/videos/models`)).json()).toEqual({ data: [] })
    expect((await fetch(`${BASE}/keys`, bearer(sim.world.managementKey))).status).toBe(200)
    expect(network.unhandled).toEqual([])
  })

  simTest('the next test has none of them', async ({ network }) => {
    network.use(http.get(local.url, () => HttpResponse.text('mocked')))
    const res = await fetch(`${BASE}/videos/models`)
    expect(((await res.json()) as { data: unknown[] }).data.length).toBeGreaterThan(0)
    expect(await (await fetch(local.url)).text()).toBe('mocked')
  })

  simTest('use() refuses what is not a handler, by name', ({ network }) => {
    expect(() => network.use({} as never)).toThrow(/handlers.*must be MSW request handlers/)
  })
})

describe('requests that nothing answers', () => {
  let message: string | undefined
  simTest.fails('"error" (the default) fails the request and then the test', async ({ network, onTestFinished }) => {
    onTestFinished(({ task }) => {
      message = task.result?.errors?.[0]?.message
    })
    await expect(fetch(`${local.url}unmocked`)).rejects.toThrow()
    expect(network.unhandled).toEqual([`GET ${local.url}unmocked`])
    // The body passes; the fixture fails the test afterwards, which `.fails` turns into a pass.
  })

  test('naming the request and what to do', () => {
    expect(message).toBe(
      `model-access-sim/vitest: a request in this test reached no handler and failed as network errors: GET ${local.url}unmocked. ` +
        'The simulator answers under https://openrouter.ai/api/v1: a client meant for it needs that base URL. ' +
        "For another service, add a handler with network.use(...), or createSimTest({ onUnhandledRequest: 'bypass' }).",
    )
  })

  const bypassTest = createSimTest({ onUnhandledRequest: 'bypass' })
  bypassTest('"bypass" lets them through to the network', async ({ network }) => {
    expect(await (await fetch(local.url)).text()).toBe('from the real network')
    expect(network.unhandled).toEqual([`GET ${local.url}`])
  })

  const warnTest = createSimTest({ onUnhandledRequest: 'warn' })
  warnTest('"warn" prints them and lets them through', async () => {
    const warnings = vi.spyOn(console, 'warn').mockImplementation(() => {})
    try {
      expect(await (await fetch(local.url)).text()).toBe('from the real network')
      expect(warnings).toHaveBeenCalledWith(`model-access-sim/vitest: GET ${local.url} is not handled in this test; it goes to the network`)
    } finally {
      warnings.mockRestore()
    }
  })

  test('outside simulator tests nothing is intercepted', async () => {
    expect(await (await fetch(local.url)).text()).toBe('from the real network')
  })
})

describe('createSimTest', () => {
  const customTest = createSimTest({
    world: 'empty',
    seed: 7,
    now: '2026-05-01T00:00:00Z',
    baseUrl: 'http://sim.test/api/v1',
    rateLimit: { requests: 1, intervalMs: 60_000 },
  })

  customTest('takes the simulator options and the base URL', async ({ sim }) => {
    expect(sim.seed).toBe(7)
    expect(sim.clock.now().toISOString()).toBe('2026-05-01T00:00:00.000Z')
    expect(sim.world).toEqual({})
    sim.videoModels.create({ id: 'acme/clip-1' })
    const first = await fetch('http://sim.test/api/v1/videos/models')
    expect(((await first.json()) as { data: { id: string }[] }).data.map((m) => m.id)).toEqual(['acme/clip-1'])
    expect((await fetch('http://sim.test/api/v1/videos/models')).status).toBe(429)
  })

  const strictTest = createSimTest({ strictRequests: true })
  const chatBody = (sim: { world: { models: { paid: string } } }, extra: object) =>
    JSON.stringify({ model: sim.world.models.paid, messages: [{ role: 'user', content: 'Hi' }], ...extra })
  const post = (key: string, body: string) => fetch(`${BASE}/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body })

  strictTest('takes strictRequests: an unknown inference field is a 400 naming it', async ({ sim }) => {
    const res = await post(sim.world.apiKey, chatBody(sim, { temprature: 0.2 }))
    expect(res.status).toBe(400)
    expect(((await res.json()) as { error: { metadata: { parameter: string } } }).error.metadata.parameter).toBe('temprature')
  })

  simTest('without strictRequests, an unknown inference field is accepted and listed on the journal entry', async ({ sim }) => {
    expect((await post(sim.world.apiKey, chatBody(sim, { temprature: 0.2 }))).status).toBe(200)
    expect(sim.journal.list().map((e) => e.ignoredFields)).toEqual([['temprature']])
  })

  const smallJournalTest = createSimTest({ journalBytes: 600 })
  smallJournalTest('takes journalBytes: the oldest entries go once the bytes pass it', async ({ sim }) => {
    // Each GET /videos/models entry counts 256 + its path (14): two fit in 600, not three.
    for (let i = 0; i < 4; i++) expect((await fetch(`${BASE}/videos/models`)).status).toBe(200)
    expect(sim.journal.list().map((e) => e.seq)).toEqual([3, 4])
  })

  const startTest = createSimTest({ handlers: [http.get('https://flags.example/flags', () => HttpResponse.json({ beta: true }))] })
  startTest('handlers every test starts with', async () => {
    expect(await (await fetch('https://flags.example/flags')).json()).toEqual({ beta: true })
  })

  test.each([
    [{ baseUrl: 'localhost:3000/api/v1' }, 'baseUrl'],
    [{ baseUrl: 'ftp://sim.test/api/v1' }, 'baseUrl'],
    [{ onUnhandledRequest: 'ignore' }, 'onUnhandledRequest'],
    [{ handlers: [1] }, 'handlers'],
    [{ seed: 'x' }, 'seed'],
    [{ now: 'yesterday' }, 'now'],
    [{ world: { format: 'model-access-sim/world@1', users: [{ id: 'user_a' }], keys: [{ userId: 'user_a', secret: 'sk-or-v1-aaaaaaaa', limit: -1 }] } }, 'world.keys[0].limit'],
    // A misspelt option is refused, not read as "use the default": `baseURL` would mount the default base URL.
    [{ baseURL: 'http://sim.test/api/v1' }, 'baseURL'],
    [{ rateLimit: { requests: 1, intervalMs: 1000, burst: 2 } }, 'rateLimit.burst'],
    [{ strictRequests: 'yes' }, 'strictRequests'],
    [{ journalBytes: -1 }, 'journalBytes'],
  ])('refuses %j, naming %s', (options, argument) => {
    expect(() => createSimTest(options as never)).toThrow(SimulatorError)
    try {
      createSimTest(options as never)
    } catch (error) {
      expect((error as SimulatorError).argument).toBe(argument)
    }
  })
})
