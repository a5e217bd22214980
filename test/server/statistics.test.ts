// Endpoint statistics over HTTP, as a test in another language would see them: a provider made
// slow or failing through /__sim, completions through the service, the endpoints listing after.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { type SimulatorServer, startServer } from '../../src/server/index.js'

const sim = createSimulator({ world: 'empty' })
let server: SimulatorServer
let key = ''

beforeAll(async () => {
  server = await startServer(sim, { port: 0 })
})
beforeEach(() => {
  sim.reset()
  const org = sim.users.create({ name: 'Acme', credits: { total: 100 } })
  key = sim.keys.create({ userId: org.id }).key
  sim.models.create({ id: 'acme/chat-1', endpoints: [{ provider_name: 'Alpha', uptime_last_5m: 99.5 }, { provider_name: 'Beta', uptime_last_5m: 98.5 }] })
})
afterAll(() => server.close())

async function control(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${server.controlUrl}${path}`, { method, ...(body !== undefined && { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }) })
  const text = await res.text()
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text) }
}

async function ask(): Promise<number> {
  const res = await fetch(`${server.url}/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'acme/chat-1', messages: [{ role: 'user', content: 'Hi' }], provider: { order: ['Beta', 'Alpha'] } }),
  })
  await res.text()
  return res.status
}

async function listing(): Promise<Record<string, any>> {
  const res = await fetch(`${server.url}/models/acme/chat-1/endpoints`, { headers: { authorization: `Bearer ${key}` } })
  const body = (await res.json()) as { data: { endpoints: any[] } }
  return Object.fromEntries(body.data.endpoints.map((e) => [e.provider_name, e]))
}

describe('endpoint statistics through the server', () => {
  it('a provider fault set over /__sim brings its uptime down, and the slow replies of a responder show in the latency', async () => {
    expect((await control('POST', '/faults', { provider: 'Beta', respond: { status: 503 } })).status).toBe(201)
    expect((await control('POST', '/responders', { match: { provider: 'Alpha' }, reply: { latencyMs: 2500, tokensPerSecond: 12.5 } })).status).toBe(201)
    for (let i = 0; i < 10; i++) expect(await ask()).toBe(200)
    const after = await listing()
    expect([after['Beta'].uptime_last_5m, after['Beta'].uptime_last_30m, after['Beta'].uptime_last_1d]).toEqual([0, 0, 0])
    expect(after['Alpha'].uptime_last_5m).toBe(100)
    expect(after['Alpha'].latency_last_30m).toEqual({ p50: 2500, p75: 2500, p90: 2500, p99: 2500 })
    expect(after['Alpha'].throughput_last_30m).toEqual({ p50: 12.5, p75: 12.5, p90: 12.5, p99: 12.5 })
    // A bad timing is refused by name, as the programmatic API refuses it.
    const bad = await control('POST', '/responders', { reply: { latencyMs: -5 } })
    expect([bad.status, bad.body.error.metadata.argument]).toEqual([400, 'reply.latencyMs'])
    // Moving the clock 5 minutes over the control API empties the 5-minute window.
    expect((await control('POST', '/clock/advance', { ms: 5 * 60_000 })).status).toBe(200)
    expect((await listing())['Beta'].uptime_last_5m).toBe(98.5)
  })
})
