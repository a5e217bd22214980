// model-access-sim/vitest: the order of a test's own handlers, the messages a user reads when a
// request cannot be routed or reached no handler, and each option createSimTest refuses, by name.
import { http, HttpResponse } from 'msw'
import { describe, expect, test, vi } from 'vitest'
import { SimulatorError } from '../../src/index.js'
import { createSimTest, simTest } from '../../src/vitest/index.js'
import { useLoopbackServer } from '../support/loopback.js'
import { simulatorErrorOf } from '../support/server.js'

const BASE = 'https://openrouter.ai/api/v1'

/** The worker's routing state (src/vitest/index.ts): the open tests' slots, and the storage a test enters its slot in. */
const router = () =>
  (globalThis as Record<symbol, unknown>)[Symbol.for('model-access-sim/vitest router')] as { open: Set<object>; storage: { getStore(): { sim: unknown } | undefined } }

// A real server on loopback: what a request that the fixture lets through reaches.
const local = useLoopbackServer('from the network')

describe('network.use: the latest handlers first, ahead of those every test starts with', () => {
  const startTest = createSimTest({ handlers: [http.get('https://flags.example/flags', () => HttpResponse.text('start'))] })

  startTest('a handler added later answers before one added earlier, and before the start handlers', async ({ network }) => {
    expect(await (await fetch('https://flags.example/flags')).text()).toBe('start')
    network.use(http.get('https://flags.example/flags', () => HttpResponse.text('first')))
    expect(await (await fetch('https://flags.example/flags')).text()).toBe('first')
    network.use(http.get('https://flags.example/flags', () => HttpResponse.text('second')))
    expect(await (await fetch('https://flags.example/flags')).text()).toBe('second')
  })

  simTest('use() names what it refuses', ({ network }) => {
    const error = (() => {
      try {
        network.use(http.get('https://a.example/', () => HttpResponse.text('a')), 'not a handler' as never)
      } catch (caught) {
        return caught as SimulatorError
      }
      throw new Error('use() took a string')
    })()
    expect([error.argument, error.message]).toEqual(['handlers', 'Failed to add handlers to the test: "handlers" must be MSW request handlers, got an array.'])
  })
})

describe('a test that takes no parameters after one that took sim', () => {
  simTest('the first adds a fault to its own simulator', async ({ sim }) => {
    sim.faults.serviceUnavailable({ operation: 'listVideoModels' })
    expect((await fetch(`${BASE}/videos/models`)).status).toBe(503)
  })

  simTest('the next reaches its own simulator, not the one of the test before', async () => {
    expect((await fetch(`${BASE}/videos/models`)).status).toBe(200)
  })
})

describe('the worker\'s MSW server across tests', () => {
  // The worker's router, as the fixture keeps it: its server exists once a simulator test has run.
  type Server = { listen: (...args: unknown[]) => void; close: () => void }
  const state = () => (globalThis as Record<symbol, unknown>)[Symbol.for('model-access-sim/vitest router')] as { server: Server; listening: boolean; open: Set<object> }
  let listen: ReturnType<typeof vi.spyOn> | undefined
  let close: ReturnType<typeof vi.spyOn> | undefined

  simTest('a simulator test runs with the server listening', async () => {
    expect(state().listening).toBe(true)
    listen = vi.spyOn(state().server, 'listen')
    close = vi.spyOn(state().server, 'close')
    expect((await fetch(`${BASE}/videos/models`)).status).toBe(200)
  })

  simTest('the next one finds it listening: it was neither closed nor listened again in between', async () => {
    expect([listen?.mock.calls.length, close?.mock.calls.length, state().listening]).toEqual([0, 0, true])
    expect((await fetch(`${BASE}/videos/models`)).status).toBe(200)
  })

  test('a plain test after them: what it sends before the loop turns goes through the server to the network, and then the server is closed', async () => {
    // The loop has not turned since the last simulator test ended: the server still listens, and
    // answers nothing (no test is open), so the request reaches the network.
    expect([state().listening, state().open.size, close?.mock.calls.length]).toEqual([true, 0, 0])
    const sent = fetch(local.url)
    expect(await (await sent).text()).toBe('from the network')
    await new Promise((done) => setImmediate(done))
    expect([close?.mock.calls.length, state().listening]).toEqual([1, false])
    listen?.mockRestore()
    close?.mockRestore()
    expect(await (await fetch(local.url)).text()).toBe('from the network')
  })
})

describe('fake timers left on by a simulator test', () => {
  const state = () => (globalThis as Record<symbol, unknown>)[Symbol.for('model-access-sim/vitest router')] as { listening: boolean }

  simTest('installs them and leaves them on', () => {
    vi.useFakeTimers()
    expect(state().listening).toBe(true)
  })

  test('the server still closes on the real loop’s next turn: its close does not wait for a fake clock', async () => {
    vi.useRealTimers()
    await new Promise((done) => setImmediate(done))
    expect(state().listening).toBe(false)
  })
})

describe('a request that cannot be told to which running test it belongs', () => {
  // Another simulator test open in this worker, as a concurrent neighbour is: put in the worker's
  // router by hand, so that one test runs the whole case (mutation testing runs a test alone).

  simTest('fails as a network error, and the message names the request and the fix', async () => {
    const neighbour = { open: true }
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    router().open.add(neighbour)
    try {
      await expect(fetch(`${BASE}/videos/models`)).rejects.toThrow()
      expect(errors.mock.calls).toEqual([
        [
          `model-access-sim/vitest: GET ${BASE}/videos/models: 2 simulator tests are running concurrently and this request came from one that ` +
            'does not take `sim` or `network` in its parameters, so it cannot be told which simulator to reach: ' +
            'write the test as simTest.concurrent(name, async ({ sim }) => ...)',
        ],
      ])
    } finally {
      router().open.delete(neighbour)
      errors.mockRestore()
    }
    // Alone again: the request reaches this test's simulator.
    expect((await fetch(`${BASE}/videos/models`)).status).toBe(200)
  })

  // Concurrent: only a test that may run beside others enters its slot (decisions/0068).
  simTest.concurrent('a test that read sim is told apart: its request reaches its own simulator', async ({ sim }) => {
    const neighbour = { open: true }
    router().open.add(neighbour)
    try {
      expect((await fetch(`${BASE}/videos/models`)).status).toBe(200)
      expect(sim.journal.list()).toHaveLength(1)
    } finally {
      router().open.delete(neighbour)
    }
  })
})

describe('a test enters its slot only when another test may run beside it (decisions/0068)', () => {
  // The simulator of the slot the worker's storage holds where the test runs.
  const entered = () => router().storage.getStore()?.sim

  simTest('a sequential test enters nothing, and is reached as the one open test', async ({ sim }) => {
    // Not its own slot (what an earlier concurrent test left in vitest's context may be there, closed).
    expect(entered()).not.toBe(sim)
    expect((await fetch(`${BASE}/videos/models`)).status).toBe(200)
    expect(sim.journal.list()).toHaveLength(1)
  })

  simTest.concurrent('a concurrent test enters its own slot', async ({ sim }) => {
    expect(entered()).toBe(sim)
    expect((await fetch(`${BASE}/videos/models`)).status).toBe(200)
    expect(sim.journal.list()).toHaveLength(1)
  })

  describe.concurrent('in a concurrent suite', () => {
    simTest.sequential('a sequential test enters its slot too: its suite runs beside others', async ({ sim }) => {
      expect(entered()).toBe(sim)
      expect((await fetch(`${BASE}/videos/models`)).status).toBe(200)
    })
  })
})

describe('"error" (the default) fails a request nothing answers', () => {
  simTest('as a network error, though the network would have answered it', async ({ network }) => {
    await expect(fetch(`${local.url}unanswered`)).rejects.toThrow()
    expect(network.unhandled).toEqual([`GET ${local.url}unanswered`])
    // Emptied, so that this test passes and checks the request itself (the message that fails a test is checked below).
    ;(network.unhandled as string[]).length = 0
  })
})

describe('requests that nothing answers', () => {
  let message: string | undefined
  simTest.fails('two of them are counted in the message that fails the test', async ({ network, onTestFinished }) => {
    onTestFinished(({ task }) => {
      message = task.result?.errors?.[0]?.message
    })
    await expect(fetch(`${local.url}one`)).rejects.toThrow()
    await expect(fetch(`${local.url}two`, { method: 'POST' })).rejects.toThrow()
    expect(network.unhandled).toEqual([`GET ${local.url}one`, `POST ${local.url}two`])
  })

  test('the message', () => {
    expect(message).toBe(
      `model-access-sim/vitest: 2 requests in this test reached no handler and failed as network errors: GET ${local.url}one, POST ${local.url}two. ` +
        'The simulator answers under https://openrouter.ai/api/v1: a client meant for it needs that base URL. ' +
        "For another service, add a handler with network.use(...), or createSimTest({ onUnhandledRequest: 'bypass' }).",
    )
  })

  const bypassTest = createSimTest({ onUnhandledRequest: 'bypass' })
  bypassTest('"bypass" prints nothing, neither the fixture nor MSW', async ({ network }) => {
    const warnings = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      expect(await (await fetch(local.url)).text()).toBe('from the network')
      expect([warnings.mock.calls, errors.mock.calls]).toEqual([[], []])
      expect(network.unhandled).toEqual([`GET ${local.url}`])
    } finally {
      warnings.mockRestore()
      errors.mockRestore()
    }
  })

  // Port 9 of loopback: nothing listens there, so a request let through fails at once.
  const siblingTest = createSimTest({ baseUrl: 'http://127.0.0.1:9/api/v1', onUnhandledRequest: 'bypass' })
  siblingTest('a sibling of the base path is not the simulator’s: it goes to the network', async ({ sim, network }) => {
    expect((await fetch('http://127.0.0.1:9/api/v1/videos/models')).status).toBe(200)
    await expect(fetch('http://127.0.0.1:9/api/v12/videos/models')).rejects.toThrow()
    expect(sim.journal.list()).toHaveLength(1)
    expect(network.unhandled).toEqual(['GET http://127.0.0.1:9/api/v12/videos/models'])
  })

  siblingTest('the base URL itself, with a query or a fragment, is the simulator’s', async ({ sim, network }) => {
    for (const url of ['http://127.0.0.1:9/api/v1', 'http://127.0.0.1:9/api/v1?x=1', 'http://127.0.0.1:9/api/v1#top']) expect((await fetch(url)).status, url).toBe(404)
    expect(sim.journal.list().map((e) => e.path)).toEqual(['/', '/', '/'])
    expect(network.unhandled).toEqual([])
  })
})

describe('createSimTest refuses, with the message users read', () => {
  const refusal = (options: unknown): SimulatorError => simulatorErrorOf(() => createSimTest(options as never))

  test.each([
    [null, 'null'],
    [[], 'an array'],
    ['error', '"error"'],
  ])('options that are %j', (options, described) => {
    const error = refusal(options)
    expect([error.argument, error.message]).toEqual(['options', `Failed to create a simulator test: "options" must be an options object, got ${described}.`])
  })

  test('a misspelt option, naming createSimTest', () => {
    const error = refusal({ onUnhandled: 'bypass' })
    expect(error.argument).toBe('onUnhandled')
    expect(error.message).toContain('the options of createSimTest')
  })

  test('an unhandled-request policy it does not know', () => {
    const error = refusal({ onUnhandledRequest: 'ignore' })
    expect(error.message).toBe('Failed to create a simulator test: "onUnhandledRequest" must be "error", "warn" or "bypass", got "ignore".')
  })

  test.each([
    [{ handlers: 'none' }, '"none"'],
    [{ handlers: [null] }, 'an array'],
    [{ handlers: [{ run: 'x' }] }, 'an array'],
  ])('handlers that are not MSW handlers: %j', (options, described) => {
    const error = refusal(options)
    expect([error.argument, error.message]).toEqual(['handlers', `Failed to create a simulator test: "handlers" must be an array of MSW request handlers, got ${described}.`])
  })

  test('a bad base URL, naming createSimTest’s operation', () => {
    expect(refusal({ baseUrl: 'ftp://sim.test' }).message).toMatch(/^Failed to create a simulator test: "baseUrl" must be an absolute http: or https: URL/)
  })

  test('takes each policy it knows, and an empty list of handlers', () => {
    for (const onUnhandledRequest of ['error', 'warn', 'bypass'] as const) expect(() => createSimTest({ onUnhandledRequest })).not.toThrow()
    expect(() => createSimTest({ handlers: [] })).not.toThrow()
  })
})

describe('what counts as an MSW handler', () => {
  test('a function with a run property is not one: handlers are objects', () => {
    const impostor = Object.assign(() => undefined, { run: () => undefined })
    const error = simulatorErrorOf(() => createSimTest({ handlers: [impostor as never] }))
    expect([error.argument, error.message]).toEqual(['handlers', 'Failed to create a simulator test: "handlers" must be an array of MSW request handlers, got an array.'])
  })
})
