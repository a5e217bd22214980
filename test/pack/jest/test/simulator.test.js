import { afterAll, afterEach, beforeAll, expect, test } from '@jest/globals'
import { OpenRouter } from '@openrouter/sdk'
import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { createSimulator, SimulatorError } from 'model-access-sim'
import { createHandlers } from 'model-access-sim/msw'

const BASE_URL = 'https://openrouter.ai/api/v1'

// One simulator and one msw server per test file: Jest runs files in parallel workers, and two
// simulators share nothing.
const sim = createSimulator()
const server = setupServer(...createHandlers(sim))

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterEach(() => {
  server.resetHandlers() // drops the handlers a test added with server.use()...
  sim.reset() // ...and this puts the simulator back: records, clock, faults, latency, journal
})
afterAll(() => server.close())

const listKeys = () => fetch(`${BASE_URL}/keys`, { headers: { authorization: `Bearer ${sim.world.managementKey}` } })

test('fetch: GET /keys with the management key', async () => {
  const res = await listKeys()
  expect(res.status).toBe(200)
  const body = await res.json()
  expect(body.data.length).toBeGreaterThan(0)
})

test('the official SDK lists the same keys', async () => {
  const sdk = new OpenRouter({
    apiKey: sim.world.managementKey,
    serverURL: BASE_URL,
    retryConfig: { strategy: 'none' }, // otherwise the SDK retries 5XX answers for up to an hour
  })
  const keys = await sdk.apiKeys.list({})
  const body = await (await listKeys()).json()
  expect(keys.data.map((key) => key.hash)).toEqual(body.data.map((key) => key.hash))
})

test('server.resetHandlers() leaves the simulator alone; sim.reset() clears it', async () => {
  sim.faults.providerDown({ operation: 'listKeys' })
  server.use(http.get(`${BASE_URL}/videos/models`, () => HttpResponse.json({ data: [] })))

  server.resetHandlers()
  expect((await listKeys()).status).toBe(502) // the fault lives in the simulator, not in msw
  expect((await fetch(`${BASE_URL}/videos/models`)).status).toBe(200) // the override is gone

  sim.reset()
  expect((await listKeys()).status).toBe(200)
})

// These two run in order (Jest runs the tests of a file one after another): the second sees what
// the afterEach above left.
test('a test that leaves a fault and a new key behind', async () => {
  sim.faults.serviceUnavailable({ operation: 'listKeys', retryAfterSeconds: 5 })
  sim.keys.create({ userId: sim.world.userId, name: 'left behind' })
  expect((await listKeys()).status).toBe(503)
})

test('the next test starts from the seeded world', async () => {
  expect(sim.faults.list()).toEqual([])
  expect(sim.keys.list().some((key) => key.name === 'left behind')).toBe(false)
  expect((await listKeys()).status).toBe(200)
})

// On Node the package compiles its engine on the first createSimulator() (decisions/0072), in the
// realm of the module that loads it: Jest's own, so its errors are the class the root exports and
// its arrays and objects are the test's.
test('the engine\'s errors and values belong to the test\'s realm', () => {
  expect(() => createSimulator({ seedd: 1 })).toThrow(SimulatorError)
  expect(() => createSimulator({ seedd: 1 })).toThrow(/"seedd" is not a field of the simulator options/)
  const res = sim.handle({ method: 'GET', path: '/keys', authorization: `Bearer ${sim.world.managementKey}` })
  expect(res.body.data).toBeInstanceOf(Array)
  expect(res.body).toBeInstanceOf(Object)
  expect(res.body.data.length).toBeGreaterThan(0)
})
