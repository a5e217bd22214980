// model-access-sim/vitest: the order of a test's own handlers, the messages a user reads when a
// request cannot be routed or reached no handler, and each option createSimTest refuses, by name.
import { http, HttpResponse } from 'msw'
import { describe, expect, test, vi } from 'vitest'
import { SimulatorError } from '../../src/index.js'
import { createSimTest, simTest } from '../../src/vitest/index.js'
import { useLoopbackServer } from '../support/loopback.js'
import { simulatorErrorOf } from '../support/server.js'

const BASE = 'https://openrouter.ai/api/v1'

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
        "Add a handler with network.use(...), or createSimTest({ onUnhandledRequest: 'bypass' }).",
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
