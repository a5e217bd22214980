// Scripting the simulated models over HTTP, as a test in another language would: responders and
// provider faults through /__sim, chat completions through the service, the journal keeping them.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { type SimulatorServer, startServer } from '../../src/server/index.js'

const sim = createSimulator()
let server: SimulatorServer

beforeAll(async () => {
  server = await startServer(sim, { port: 0 })
})
beforeEach(() => sim.reset())
afterAll(() => server.close())

async function control(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${server.controlUrl}${path}`, { method, ...(body !== undefined && { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }) })
  const text = await res.text()
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text) }
}

async function ask(content: string, extra: Record<string, unknown> = {}): Promise<{ status: number; body: any }> {
  const res = await fetch(`${server.url}/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sim.world.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: sim.world.models.paid, messages: [{ role: 'user', content }], ...extra }),
  })
  return { status: res.status, body: await res.json() }
}

describe('responders over the control API', () => {
  it('script the reply by a regular expression, count their use, and go with DELETE and reset', async () => {
    expect((await control('POST', '/responders', { match: { lastUserMessage: { regex: 'refund', flags: 'i' } }, reply: { content: 'Five days.' }, times: 2 })).status).toBe(201)
    expect((await ask('REFUND?')).body.choices[0].message.content).toBe('Five days.')
    expect((await ask('Hello')).body.choices[0].message.content).not.toBe('Five days.')
    expect((await control('GET', '/responders')).body).toEqual({ data: [{ name: 'responder-1', used: 1, remaining: 1 }] })
    const unknown = await control('POST', '/responders', { reply: { content: 'x' }, match: { lastUserMessage: { regex: 'a', flag: 'i' } } })
    expect([unknown.status, unknown.body.error.metadata.argument]).toEqual([400, 'match.lastUserMessage.flag'])
    expect((await control('POST', '/reset')).status).toBe(204)
    expect((await control('GET', '/responders')).body).toEqual({ data: [] })
  })

  it('make a provider fail with a fault rule naming it, so the router falls back, and the journal shows the answer', async () => {
    const endpoints = sim.models.get(sim.world.models.paid)!.endpoints
    const first = endpoints[0]!.provider_name
    expect((await control('POST', '/faults', { provider: first, respond: { status: 502 } })).status).toBe(201)
    const answer = await ask('Hello', { provider: { order: [first] } })
    expect(answer.status).toBe(200)
    expect(answer.body.provider).not.toBe(first)
    const journal = (await control('GET', '/journal?operation=createChatCompletion')).body.data
    expect(journal).toHaveLength(1)
    expect(journal[0]).toMatchObject({ operation: 'createChatCompletion', status: 200, fault: null })
    expect(JSON.parse(journal[0].requestBody).messages[0].content).toBe('Hello')
  })
})
