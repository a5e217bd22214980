// Fault rules: which requests they match, when they fire, what they answer, and how they reach a
// plain fetch and the official SDK through MSW.
import { OpenRouter } from '@openrouter/sdk'
import { BadGatewayResponseError, ServiceUnavailableResponseError } from '@openrouter/sdk/models/errors'
import { describe, expect, it } from 'vitest'
import {
  AUTH_MESSAGES,
  createSimulator,
  ERROR_MESSAGES,
  SimulatorError,
  SimulatorErrorCode,
  type FaultRule,
  type SimRequest,
  type SimResponse,
} from '../../src/index.js'
import { DEFAULT_BASE_URL } from '../../src/msw/index.js'
import { failureOf, simulatorErrorOf, useSimulatorServer } from '../support/server.js'

type Sim = ReturnType<typeof createSimulator>

const { serve } = useSimulatorServer()

function sdk(secret: string): OpenRouter {
  return new OpenRouter({ serverURL: DEFAULT_BASE_URL, apiKey: secret, retryConfig: { strategy: 'none' } })
}



/** The world's requests, one per operation, as its management key makes them. */
function requests(sim: Sim): Record<'listKeys' | 'getKey' | 'listEndpoints' | 'getFileContent' | 'getWorkspace' | 'listVideoModels', SimRequest> {
  const authorization = `Bearer ${sim.world.managementKey}`
  return {
    listKeys: { method: 'GET', path: '/keys', authorization },
    getKey: { method: 'GET', path: `/keys/${sim.world.apiKeyHash}`, authorization },
    listEndpoints: { method: 'GET', path: '/models/anthropic/claude-sonnet-4.5/endpoints', authorization },
    getFileContent: { method: 'GET', path: `/files/${sim.world.files.report}/content`, authorization },
    getWorkspace: { method: 'GET', path: `/workspaces/${sim.world.workspaces.production}`, authorization },
    listVideoModels: { method: 'GET', path: '/videos/models', authorization },
  }
}

function listKeys(sim: Sim): SimResponse {
  return sim.handle(requests(sim).listKeys)
}

function statuses(count: number, request: () => SimResponse): number[] {
  return Array.from({ length: count }, () => request().status)
}

describe('matching', () => {
  it('answers only the named operation with the fault', () => {
    const sim = createSimulator()
    sim.faults.add({ operation: 'listKeys', respond: { status: 502 } })
    const all = requests(sim)

    const faulted = sim.handle(all.listKeys)
    expect(faulted.status).toBe(502)
    expect(faulted.headers['content-type']).toBe('application/json')
    expect(faulted.body).toEqual({ error: { code: 502, message: ERROR_MESSAGES[502] }, user_id: sim.world.userId })
    for (const name of ['getKey', 'listEndpoints', 'getFileContent', 'getWorkspace', 'listVideoModels'] as const) {
      expect(sim.handle(all[name]).status, name).toBe(200)
    }
  })

  it('answers any of several named operations, and nothing else', () => {
    const sim = createSimulator()
    sim.faults.add({ operation: ['getKey', 'getWorkspace'], respond: { status: 500 } })
    const all = requests(sim)
    expect(sim.handle(all.getKey).status).toBe(500)
    expect(sim.handle(all.getWorkspace).status).toBe(500)
    expect(sim.handle(all.listKeys).status).toBe(200)
    expect(sim.handle(all.listVideoModels).status).toBe(200)
  })

  it('answers with the message, metadata and headers the rule gives', () => {
    const sim = createSimulator()
    sim.faults.add({
      operation: 'listVideoModels',
      respond: { status: 429, message: 'Upstream quota exhausted', metadata: { provider_name: 'Google' }, headers: { 'retry-after': '12' } },
    })
    const res = sim.handle({ method: 'GET', path: '/videos/models' })
    expect(res.status).toBe(429)
    expect(res.headers['retry-after']).toBe('12')
    expect(res.headers['content-type']).toBe('application/json')
    expect(res.body).toEqual({ error: { code: 429, message: 'Upstream quota exhausted', metadata: { provider_name: 'Google' } } })
  })

  it('matches a path glob where * stands for any characters', () => {
    const sim = createSimulator()
    sim.faults.add({ path: '/files/*/content', respond: { status: 503 } })
    const all = requests(sim)
    expect(sim.handle(all.getFileContent).status).toBe(503)
    expect(sim.handle({ ...all.getFileContent, path: '/files/file_does_not_exist/content' }).status).toBe(503)
    expect(sim.handle(all.listKeys).status).toBe(200)
    expect(sim.handle(all.getWorkspace).status).toBe(200)
  })

  it('anchors a path glob at both ends', () => {
    const sim = createSimulator()
    sim.faults.add({ path: '/keys', respond: { status: 500 } })
    const all = requests(sim)
    expect(sim.handle(all.listKeys).status).toBe(500)
    expect(sim.handle(all.getKey).status).toBe(200)
  })

  it('takes the characters of a path glob other than * literally', () => {
    const sim = createSimulator()
    sim.faults.add({ path: '/models/openai/gpt-4.1/endpoints', respond: { status: 502 } })
    expect(sim.handle({ method: 'GET', path: '/models/openai/gpt-4.1/endpoints' }).status).toBe(502)
    // A "." that matched any character would fault this one too; it is a model that does not exist.
    expect(sim.handle({ method: 'GET', path: '/models/openai/gpt-4x1/endpoints' }).status).toBe(404)
  })

  it('matches a path RegExp', () => {
    const sim = createSimulator()
    sim.faults.add({ path: /^\/keys\/[0-9a-f]{64}$/, respond: { status: 500 } })
    const all = requests(sim)
    expect(sim.handle(all.getKey).status).toBe(500)
    expect(sim.handle(all.listKeys).status).toBe(200)
  })

  it('matches a global RegExp on every request, not on every other one', () => {
    const sim = createSimulator()
    sim.faults.add({ path: /keys/g, respond: { status: 500 } })
    expect(statuses(4, () => listKeys(sim))).toEqual([500, 500, 500, 500])
  })

  it('matches paths outside the six operations only with rules that name no operation', () => {
    const sim = createSimulator()
    const byOperation = sim.faults.add({ operation: 'listKeys', respond: { status: 500 } })
    const byPath = sim.faults.add({ path: '/not-simulated', respond: { status: 503 } })
    expect(sim.handle({ method: 'GET', path: '/not-simulated' }).status).toBe(503)
    expect(byOperation.matched).toBe(0)
    expect(byPath.matched).toBe(1)
  })

  it("matches the requests bearing a given key's secret only", () => {
    const sim = createSimulator()
    sim.faults.add({ keyHash: sim.world.apiKeyHash, respond: { status: 502 } })
    expect(sim.handle({ method: 'GET', path: '/videos/models', authorization: `Bearer ${sim.world.apiKey}` }).status).toBe(502)
    expect(sim.handle({ method: 'GET', path: '/models/anthropic/claude-sonnet-4.5/endpoints', authorization: `Bearer ${sim.world.apiKey}` }).status).toBe(502)
    expect(sim.handle({ method: 'GET', path: '/videos/models', authorization: `Bearer ${sim.world.managementKey}` }).status).toBe(200)
    expect(sim.handle({ method: 'GET', path: '/videos/models' }).status).toBe(200)
  })

  it('matches a disabled key by its hash and answers with the fault rather than 401', () => {
    const sim = createSimulator()
    sim.keys.update(sim.world.apiKeyHash, { disabled: true })
    const request: SimRequest = { method: 'GET', path: '/videos/models', authorization: `Bearer ${sim.world.apiKey}` }
    expect(sim.handle(request).status).toBe(401)
    sim.faults.add({ keyHash: sim.world.apiKeyHash, respond: { status: 503 } })
    expect(sim.handle(request).status).toBe(503)
  })

  it('requires every criterion it gives to hold', () => {
    const sim = createSimulator()
    const fault = sim.faults.add({ operation: 'listVideoModels', keyHash: sim.world.apiKeyHash, respond: { status: 502 } })
    expect(sim.handle({ method: 'GET', path: '/videos/models' }).status).toBe(200)
    expect(sim.handle({ method: 'GET', path: '/models/anthropic/claude-sonnet-4.5/endpoints', authorization: `Bearer ${sim.world.apiKey}` }).status).toBe(200)
    expect(sim.handle({ method: 'GET', path: '/videos/models', authorization: `Bearer ${sim.world.apiKey}` }).status).toBe(502)
    expect(fault.matched).toBe(1)
  })

  it('with no criterion, matches every request', () => {
    const sim = createSimulator()
    sim.faults.add({ respond: { status: 500 } })
    for (const request of Object.values(requests(sim))) expect(sim.handle(request).status).toBe(500)
    expect(sim.handle({ method: 'DELETE', path: '/anything' }).status).toBe(500)
  })
})

describe('timing', () => {
  it('with once, answers the first matching request only', () => {
    const sim = createSimulator()
    const fault = sim.faults.add({ operation: 'listKeys', once: true, respond: { status: 502 } })
    expect(statuses(3, () => listKeys(sim))).toEqual([502, 200, 200])
    expect(fault.fired).toBe(1)
    expect(fault.matched).toBe(3)
  })

  it('with times: 2, answers the first two matching requests', () => {
    const sim = createSimulator()
    const fault = sim.faults.add({ operation: 'listKeys', times: 2, respond: { status: 502 } })
    expect(statuses(4, () => listKeys(sim))).toEqual([502, 502, 200, 200])
    expect(fault.fired).toBe(2)
    expect(fault.matched).toBe(4)
  })

  it('with fromCall: 3, answers the third matching request and every later one', () => {
    const sim = createSimulator()
    const fault = sim.faults.add({ operation: 'listKeys', fromCall: 3, respond: { status: 502 } })
    expect(statuses(6, () => listKeys(sim))).toEqual([200, 200, 502, 502, 502, 502])
    expect(fault.fired).toBe(4)
    expect(fault.matched).toBe(6)
  })

  it('counts only matching requests towards fromCall', () => {
    const sim = createSimulator()
    sim.faults.add({ operation: 'listKeys', fromCall: 2, respond: { status: 502 } })
    const all = requests(sim)
    expect(sim.handle(all.listKeys).status).toBe(200)
    expect(sim.handle(all.listVideoModels).status).toBe(200)
    expect(sim.handle(all.getKey).status).toBe(200)
    expect(sim.handle(all.listKeys).status).toBe(502)
  })

  it('combines fromCall and times: from the second matching request, twice', () => {
    const sim = createSimulator()
    sim.faults.add({ operation: 'listKeys', fromCall: 2, times: 2, respond: { status: 502 } })
    expect(statuses(5, () => listKeys(sim))).toEqual([200, 502, 502, 200, 200])
  })

  it('with probability 0, never fires though it matches', () => {
    const sim = createSimulator()
    const fault = sim.faults.add({ operation: 'listKeys', probability: 0, respond: { status: 502 } })
    expect(statuses(100, () => listKeys(sim))).toEqual(Array(100).fill(200))
    expect(fault.fired).toBe(0)
    expect(fault.matched).toBe(100)
  })

  it('with probability 1, always fires', () => {
    const sim = createSimulator()
    const fault = sim.faults.add({ operation: 'listKeys', probability: 1, respond: { status: 502 } })
    expect(statuses(100, () => listKeys(sim))).toEqual(Array(100).fill(502))
    expect(fault.fired).toBe(100)
  })

  it('with probability 0.5, fires on the same calls for the same seed and on others for another seed', () => {
    const pattern = (seed: number): number[] => {
      const sim = createSimulator({ seed })
      sim.faults.add({ operation: 'listKeys', probability: 0.5, respond: { status: 502 } })
      return statuses(200, () => listKeys(sim))
    }
    const first = pattern(7)
    const fired = first.filter((status) => status === 502).length
    expect(fired).toBeGreaterThan(50)
    expect(fired).toBeLessThan(150)
    expect(pattern(7)).toEqual(first)
    expect(pattern(8)).not.toEqual(first)
  })

  it('replays the same probabilistic pattern after reset', () => {
    const sim = createSimulator({ seed: 11 })
    const rule: FaultRule = { operation: 'listKeys', probability: 0.5, respond: { status: 502 } }
    sim.faults.add(rule)
    const before = statuses(50, () => listKeys(sim))
    sim.reset()
    sim.faults.add(rule)
    expect(statuses(50, () => listKeys(sim))).toEqual(before)
  })

  it('leaves the ids the store generates as they would be without the fault', () => {
    const withFault = createSimulator({ seed: 5 })
    const without = createSimulator({ seed: 5 })
    withFault.faults.add({ operation: 'listKeys', probability: 0.5, respond: { status: 502 } })
    statuses(20, () => listKeys(withFault))
    statuses(20, () => listKeys(without))
    const a = withFault.keys.create({ userId: withFault.world.userId })
    const b = without.keys.create({ userId: without.world.userId })
    expect(a.key).toBe(b.key)
    expect(a.record.hash).toBe(b.record.hash)
  })
})

describe('several rules', () => {
  it('tries rules in the order added: the first that fires answers, and every matching rule counts the request', () => {
    const sim = createSimulator()
    const first = sim.faults.add({ operation: 'listKeys', once: true, respond: { status: 502 } })
    const second = sim.faults.add({ operation: 'listKeys', respond: { status: 503 } })
    const unrelated = sim.faults.add({ operation: 'getKey', respond: { status: 500 } })

    expect(listKeys(sim).status).toBe(502)
    expect([first.matched, first.fired, second.matched, second.fired]).toEqual([1, 1, 1, 0])

    expect(listKeys(sim).status).toBe(503)
    expect([first.matched, first.fired, second.matched, second.fired]).toEqual([2, 1, 2, 1])
    expect([unrelated.matched, unrelated.fired]).toEqual([0, 0])
  })

  it('lets a later rule answer when an earlier one does not fire yet', () => {
    const sim = createSimulator()
    sim.faults.add({ operation: 'listKeys', fromCall: 3, respond: { status: 500 } })
    sim.faults.add({ operation: 'listKeys', respond: { status: 503 } })
    expect(statuses(4, () => listKeys(sim))).toEqual([503, 503, 500, 500])
  })

  it('lists the rules in order, with default names fault-1, fault-2 and given names', () => {
    const sim = createSimulator()
    sim.faults.add({ respond: { status: 500 } })
    sim.faults.add({ name: 'flaky-files', path: '/files/*', respond: { status: 502 } })
    sim.faults.add({ respond: 'never' })
    sim.faults.providerDown()
    sim.faults.serviceUnavailable()
    sim.faults.internalError()
    expect(sim.faults.list().map((fault) => fault.name)).toEqual([
      'fault-1',
      'flaky-files',
      'fault-3',
      'provider-down',
      'service-unavailable',
      'internal-error',
    ])
  })

  it('keeps the counters of a Fault live as requests arrive', () => {
    const sim = createSimulator()
    const fault = sim.faults.add({ operation: 'listKeys', times: 1, respond: { status: 502 } })
    expect([fault.matched, fault.fired]).toEqual([0, 0])
    listKeys(sim)
    expect([fault.matched, fault.fired]).toEqual([1, 1])
    listKeys(sim)
    expect([fault.matched, fault.fired]).toEqual([2, 1])
    const listed = sim.faults.list()[0]
    expect([listed?.matched, listed?.fired]).toEqual([2, 1])
  })

  it('stops answering once removed, leaving the other rules in place', () => {
    const sim = createSimulator()
    const first = sim.faults.add({ operation: 'listKeys', respond: { status: 502 } })
    sim.faults.add({ operation: 'listKeys', respond: { status: 503 } })
    expect(listKeys(sim).status).toBe(502)
    first.remove()
    expect(listKeys(sim).status).toBe(503)
    expect(sim.faults.list().map((fault) => fault.name)).toEqual(['fault-2'])
  })

  it('can be removed through the handle list() returns', () => {
    const sim = createSimulator()
    sim.faults.add({ operation: 'listKeys', respond: { status: 502 } })
    sim.faults.list()[0]?.remove()
    expect(sim.faults.list()).toEqual([])
    expect(listKeys(sim).status).toBe(200)
  })

  it('answers everything normally again after clear()', () => {
    const sim = createSimulator()
    sim.faults.providerDown()
    sim.faults.add({ respond: 'network-error' })
    expect(listKeys(sim).status).toBe(502)
    sim.faults.clear()
    expect(sim.faults.list()).toEqual([])
    for (const request of Object.values(requests(sim))) expect(sim.handle(request).status).toBe(200)
  })
})

describe('presets', () => {
  it('providerDown answers 502 "Provider returned error" everywhere', () => {
    const sim = createSimulator()
    sim.faults.providerDown()
    for (const request of Object.values(requests(sim))) {
      const res = sim.handle(request)
      expect(res.status).toBe(502)
      expect(res.body).toEqual({ error: { code: 502, message: 'Provider returned error' }, user_id: sim.world.userId })
    }
  })

  it('providerDown takes match and timing options', () => {
    const sim = createSimulator()
    const all = requests(sim)
    sim.faults.providerDown({ operation: 'listEndpoints', once: true })
    expect(sim.handle(all.listKeys).status).toBe(200)
    expect(sim.handle(all.listEndpoints).status).toBe(502)
    expect(sim.handle(all.listEndpoints).status).toBe(200)
  })

  it('serviceUnavailable answers 503 with Retry-After 30 by default', () => {
    const sim = createSimulator()
    sim.faults.serviceUnavailable()
    const res = listKeys(sim)
    expect(res.status).toBe(503)
    expect(res.headers['retry-after']).toBe('30')
    expect(res.body).toEqual({ error: { code: 503, message: ERROR_MESSAGES[503] }, user_id: sim.world.userId })
  })

  it('serviceUnavailable takes a custom retryAfterSeconds, 0 included', () => {
    const sim = createSimulator()
    const all = requests(sim)
    sim.faults.serviceUnavailable({ operation: 'getFileContent', retryAfterSeconds: 5 })
    sim.faults.serviceUnavailable({ operation: 'getWorkspace', retryAfterSeconds: 0 })
    expect(sim.handle(all.getFileContent).headers['retry-after']).toBe('5')
    expect(sim.handle(all.getWorkspace).headers['retry-after']).toBe('0')
    expect(sim.handle(all.listKeys).status).toBe(200)
  })

  it('serviceUnavailable refuses a negative or fractional retryAfterSeconds', () => {
    const sim = createSimulator()
    for (const retryAfterSeconds of [-1, 1.5]) {
      const error = simulatorErrorOf(() => sim.faults.serviceUnavailable({ retryAfterSeconds }))
      expect(error.argument).toBe('retryAfterSeconds')
    }
    expect(sim.faults.list()).toEqual([])
  })

  it('internalError answers 500 "Internal Server Error"', () => {
    const sim = createSimulator()
    sim.faults.internalError({ operation: 'listVideoModels' })
    const res = sim.handle({ method: 'GET', path: '/videos/models' })
    expect(res.status).toBe(500)
    expect(res.body).toEqual({ error: { code: 500, message: 'Internal Server Error' } })
    expect(listKeys(sim).status).toBe(200)
  })
})

describe('faults fire before anything else', () => {
  it('answers an anonymous request to a management operation with the fault, not 401', () => {
    const sim = createSimulator()
    expect(sim.handle({ method: 'GET', path: '/keys' }).status).toBe(401)
    sim.faults.providerDown({ operation: 'listKeys' })
    const res = sim.handle({ method: 'GET', path: '/keys' })
    expect(res.status).toBe(502)
    expect(res.body).toEqual({ error: { code: 502, message: ERROR_MESSAGES[502] } })
  })

  it('answers a regular key on a management operation with the fault, not 403', () => {
    const sim = createSimulator()
    sim.faults.internalError({ operation: 'getWorkspace' })
    const res = sim.handle({ method: 'GET', path: `/workspaces/${sim.world.workspaces.production}`, authorization: `Bearer ${sim.world.apiKey}` })
    expect(res.status).toBe(500)
  })

  it('answers a bad bearer with the fault, not 401', () => {
    const sim = createSimulator()
    sim.faults.serviceUnavailable({ operation: 'listVideoModels' })
    expect(sim.handle({ method: 'GET', path: '/videos/models', authorization: 'Bearer sk-or-v1-not-a-key' }).status).toBe(503)
    sim.faults.clear()
    const res = sim.handle({ method: 'GET', path: '/videos/models', authorization: 'Bearer sk-or-v1-not-a-key' })
    expect(res.status).toBe(401)
    expect(res.body).toMatchObject({ error: { code: 401, message: AUTH_MESSAGES.unknown } })
  })

  it('answers a bad parameter with the fault, not 400', () => {
    const sim = createSimulator()
    sim.faults.add({ operation: 'listKeys', respond: { status: 504 } })
    expect(sim.handle({ ...requests(sim).listKeys, query: 'offset=-1' }).status).toBe(504)
  })

  it('answers before the rate limiter, taking no token', () => {
    const sim = createSimulator({ rateLimit: { requests: 1, intervalMs: 60_000 } })
    sim.faults.providerDown({ once: true })
    expect(statuses(3, () => listKeys(sim))).toEqual([502, 200, 429])
  })
})

describe('network errors and silence', () => {
  it('sim.handle answers a network-error fault with status 0 and no body', () => {
    const sim = createSimulator()
    sim.faults.add({ operation: 'listKeys', respond: 'network-error' })
    const res = listKeys(sim)
    expect(res.status).toBe(0)
    expect(res.type).toBe('network-error')
    expect(res.body).toBeNull()
  })

  it('makes a fetch through MSW reject with a TypeError on a network-error fault', async () => {
    const sim = createSimulator()
    serve(sim)
    sim.faults.add({ operation: 'listVideoModels', respond: 'network-error' })
    const error = await failureOf(fetch(`${DEFAULT_BASE_URL}/videos/models`))
    expect(error).toBeInstanceOf(TypeError)
    expect((error as TypeError).message).toMatch(/fetch/i)
    // Other operations still answer.
    expect((await fetch(`${DEFAULT_BASE_URL}/models/anthropic/claude-sonnet-4.5/endpoints`)).status).toBe(200)
  })

  it("sim.handle answers a 'never' fault with type never and status 0", () => {
    const sim = createSimulator()
    sim.faults.add({ operation: 'listKeys', respond: 'never' })
    const res = listKeys(sim)
    expect(res.status).toBe(0)
    expect(res.type).toBe('never')
    expect(res.body).toBeNull()
  })

  it("leaves a fetch through MSW unanswered on a 'never' fault until the caller gives up", async () => {
    const sim = createSimulator()
    serve(sim)
    sim.faults.add({ operation: 'listVideoModels', once: true, respond: 'never' })
    const started = performance.now()
    const error = await failureOf(fetch(`${DEFAULT_BASE_URL}/videos/models`, { signal: AbortSignal.timeout(200) }))
    expect(performance.now() - started).toBeGreaterThanOrEqual(190)
    expect(error).toBeInstanceOf(DOMException)
    expect(['TimeoutError', 'AbortError']).toContain((error as DOMException).name)
    // The fault was once: the next request is answered.
    expect((await fetch(`${DEFAULT_BASE_URL}/videos/models`)).status).toBe(200)
  })
})

describe('through the SDK over MSW', () => {
  it('surfaces a 502 on files.download as BadGatewayResponseError', async () => {
    const sim = createSimulator()
    serve(sim)
    sim.faults.providerDown({ operation: 'getFileContent' })
    const error = await failureOf(sdk(sim.world.managementKey).files.download({ fileId: sim.world.files.report }))
    expect(error).toBeInstanceOf(BadGatewayResponseError)
    const typed = error as BadGatewayResponseError
    expect(typed.statusCode).toBe(502)
    expect(typed.data$.error).toEqual({ code: 502, message: ERROR_MESSAGES[502] })
    expect(typed.data$.userId).toBe(sim.world.userId)
  })

  it('surfaces a 503 on files.download as ServiceUnavailableResponseError with Retry-After', async () => {
    const sim = createSimulator()
    serve(sim)
    sim.faults.serviceUnavailable({ path: '/files/*/content', retryAfterSeconds: 9 })
    const error = await failureOf(sdk(sim.world.managementKey).files.download({ fileId: sim.world.files.report }))
    expect(error).toBeInstanceOf(ServiceUnavailableResponseError)
    const typed = error as ServiceUnavailableResponseError
    expect(typed.statusCode).toBe(503)
    expect(typed.data$.error).toEqual({ code: 503, message: ERROR_MESSAGES[503] })
    expect(typed.headers.get('retry-after')).toBe('9')
  })

  it('downloads normally once a once-only fault has fired', async () => {
    const sim = createSimulator()
    serve(sim)
    sim.faults.providerDown({ operation: 'getFileContent', once: true })
    const client = sdk(sim.world.managementKey)
    expect(await failureOf(client.files.download({ fileId: sim.world.files.report }))).toBeInstanceOf(BadGatewayResponseError)
    const stream = await client.files.download({ fileId: sim.world.files.report })
    const bytes = new Uint8Array(await new Response(stream).arrayBuffer())
    expect(bytes.byteLength).toBeGreaterThan(0)
  })
})

describe('bad rules', () => {
  const bad: { name: string; rule: unknown; argument: string }[] = [
    { name: 'a success status (200)', rule: { respond: { status: 200 } }, argument: 'respond.status' },
    { name: 'a status below 400 (399)', rule: { respond: { status: 399 } }, argument: 'respond.status' },
    { name: 'a status above 599 (600)', rule: { respond: { status: 600 } }, argument: 'respond.status' },
    { name: 'an unknown response word', rule: { respond: 'timeout' }, argument: 'respond' },
    { name: 'no response at all', rule: {}, argument: 'respond' },
    { name: 'an unknown operation name', rule: { operation: 'listUsers', respond: { status: 500 } }, argument: 'operation' },
    { name: 'an unknown operation among known ones', rule: { operation: ['listKeys', 'createKeys'], respond: { status: 500 } }, argument: 'operation' },
    { name: 'probability 2', rule: { probability: 2, respond: { status: 500 } }, argument: 'probability' },
    { name: 'a negative probability', rule: { probability: -0.1, respond: { status: 500 } }, argument: 'probability' },
    { name: 'probability NaN', rule: { probability: Number.NaN, respond: { status: 500 } }, argument: 'probability' },
    { name: 'times 0', rule: { times: 0, respond: { status: 500 } }, argument: 'times' },
    { name: 'fractional times', rule: { times: 1.5, respond: { status: 500 } }, argument: 'times' },
    { name: 'fromCall 0', rule: { fromCall: 0, respond: { status: 500 } }, argument: 'fromCall' },
    { name: 'once together with times 3', rule: { once: true, times: 3, respond: { status: 500 } }, argument: 'times' },
    { name: 'a path that is neither a string nor a RegExp', rule: { path: 42, respond: { status: 500 } }, argument: 'path' },
    { name: 'an empty name', rule: { name: '', respond: { status: 500 } }, argument: 'name' },
  ]

  it.each(bad)('refuses $name with a SimulatorError naming $argument, adding nothing', ({ rule, argument }) => {
    const sim = createSimulator()
    const error = simulatorErrorOf(() => sim.faults.add(rule as FaultRule))
    expect(error.code).toBe(SimulatorErrorCode.InvalidArgument)
    expect(error.argument).toBe(argument)
    expect(error.message).toContain(argument)
    expect(sim.faults.list()).toEqual([])
    expect(listKeys(sim).status).toBe(200)
  })

  it('refuses an unknown operation in a preset too', () => {
    const sim = createSimulator()
    const error = simulatorErrorOf(() => sim.faults.providerDown({ operation: 'listUsers' as 'listKeys' }))
    expect(error.argument).toBe('operation')
    expect(sim.faults.list()).toEqual([])
  })
})
