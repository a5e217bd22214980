// Web pages of any origin may call the service's operations over the server, as on the real
// service (decisions/0069): preflights answered before the simulator, answers readable with their
// headers, nothing of it on the control API, and `cors: false` / `--no-cors` to send none.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createSimulator, SimulatorError } from '../../src/index.js'
import { type SimulatorServer, startServer } from '../../src/server/index.js'
import { failureOf, raw } from '../support/server.js'

const ORIGIN = 'http://localhost:5173'
/** What Chromium sends before the openai client's POST from a page. */
const PREFLIGHT = {
  origin: ORIGIN,
  'access-control-request-method': 'POST',
  'access-control-request-headers': 'authorization,content-type,x-stainless-arch,x-stainless-lang,x-stainless-os,x-stainless-retry-count',
}
const CHAT = JSON.stringify({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] })

const corsHeaders = (headers: Record<string, unknown>): string[] => Object.keys(headers).filter((name) => name.startsWith('access-control-')).sort()

const sim = createSimulator({ rateLimit: { requests: 3, intervalMs: 60_000 } })
const auth = { authorization: `Bearer ${sim.world.managementKey}` }
const inference = { authorization: `Bearer ${sim.world.apiKey}` }
let server: SimulatorServer

beforeAll(async () => {
  server = await startServer(sim, { port: 0 })
})
afterAll(() => server.close())
afterEach(() => {
  sim.reset()
})

describe('a preflight under the base path', () => {
  it('is answered 204 with any origin, every method and the headers the page asked for', async () => {
    const answer = await raw(server.port, 'OPTIONS', '/api/v1/chat/completions', PREFLIGHT)
    expect(answer.status).toBe(204)
    expect(answer.text).toBe('')
    expect(answer.headers).toMatchObject({
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE',
      'access-control-allow-headers': PREFLIGHT['access-control-request-headers'],
      'access-control-max-age': '600',
    })
    expect(String(answer.headers['vary'])).toContain('access-control-request-headers')
    // A preflight that asks for no header gets no list of them.
    const bare = await raw(server.port, 'OPTIONS', '/api/v1/keys', { origin: ORIGIN, 'access-control-request-method': 'GET' })
    expect(bare.status).toBe(204)
    expect(bare.headers['access-control-allow-headers']).toBeUndefined()
  })

  it('reaches no operation: not journaled, no rate-limit token, no fault, under any path of the base', async () => {
    sim.faults.add({ operation: 'createChatCompletion', respond: { status: 503 } })
    for (let i = 0; i < 5; i++) {
      for (const path of ['/api/v1/chat/completions', '/api/v1/keys/abc', '/api/v1/no/such/operation']) {
        expect((await raw(server.port, 'OPTIONS', path, PREFLIGHT)).status, path).toBe(204)
      }
    }
    expect(sim.journal.list()).toEqual([])
    // The key's three tokens are all still there.
    for (let i = 0; i < 3; i++) expect((await raw(server.port, 'GET', '/api/v1/keys', auth)).status).toBe(200)
    expect((await raw(server.port, 'GET', '/api/v1/keys', auth)).status).toBe(429)
  })

  it('is an OPTIONS request like any other without an Origin or the method it asks about', async () => {
    for (const headers of [{ 'access-control-request-method': 'POST' }, { origin: ORIGIN }]) {
      const answer = await raw(server.port, 'OPTIONS', '/api/v1/chat/completions', headers)
      expect(answer.status).toBe(404)
      expect(answer.body.error.metadata).toMatchObject({ reason: 'not_simulated', method: 'OPTIONS' })
    }
    expect(sim.journal.list()).toHaveLength(2)
  })
})

describe("a page's request under the base path", () => {
  it('gets an answer any origin may read, with its own headers exposed', async () => {
    const answer = await raw(server.port, 'POST', '/api/v1/chat/completions', { ...inference, origin: ORIGIN, 'content-type': 'application/json' }, CHAT)
    expect(answer.status).toBe(200)
    expect(answer.body.object).toBe('chat.completion')
    expect(answer.headers['access-control-allow-origin']).toBe('*')
    expect(answer.headers['vary']).toBe('origin')
    // content-type and content-length are safelisted; nothing else is in this answer.
    expect(answer.headers['access-control-expose-headers']).toBeUndefined()
  })

  it('lets the page read an error envelope and its retry-after, and a download its file name', async () => {
    const refused = await raw(server.port, 'GET', '/api/v1/keys', { origin: ORIGIN })
    expect(refused.status).toBe(401)
    expect(refused.headers['access-control-allow-origin']).toBe('*')
    expect(refused.body.error.code).toBe(401)

    for (let i = 0; i < 3; i++) await raw(server.port, 'GET', '/api/v1/keys', auth)
    const limited = await raw(server.port, 'GET', '/api/v1/keys', { ...auth, origin: ORIGIN })
    expect(limited.status).toBe(429)
    expect(limited.headers['access-control-allow-origin']).toBe('*')
    expect(String(limited.headers['access-control-expose-headers']).split(', ')).toContain('retry-after')

    sim.reset()
    const file = await raw(server.port, 'GET', `/api/v1/files/${sim.world.files.report}/content`, { ...auth, origin: ORIGIN })
    expect(file.status).toBe(200)
    expect(String(file.headers['access-control-expose-headers']).split(', ')).toContain('content-disposition')
  })

  it("exposes a fault's own headers, and grants a stream", async () => {
    sim.faults.add({ operation: 'listKeys', once: true, respond: { status: 503, headers: { 'x-upstream': 'down', 'Retry-After': '2' } } })
    const faulted = await raw(server.port, 'GET', '/api/v1/keys', { ...auth, origin: ORIGIN })
    expect(faulted.status).toBe(503)
    expect(String(faulted.headers['access-control-expose-headers']).split(', ').sort()).toEqual(['retry-after', 'x-upstream'])

    const body = JSON.stringify({ ...JSON.parse(CHAT), stream: true })
    const stream = await raw(server.port, 'POST', '/api/v1/chat/completions', { ...inference, origin: ORIGIN, 'content-type': 'application/json' }, body)
    expect(stream.status).toBe(200)
    expect(stream.headers['content-type']).toMatch(/^text\/event-stream/)
    expect(stream.headers['access-control-allow-origin']).toBe('*')
    expect(stream.text).toContain('data: [DONE]')
  })

  it('gets no CORS header without an Origin, and the journal holds the request as before', async () => {
    const answer = await raw(server.port, 'GET', '/api/v1/keys', auth)
    expect(answer.status).toBe(200)
    expect(corsHeaders(answer.headers)).toEqual([])
    expect(answer.headers['vary']).toBeUndefined()
    const journaled = sim.journal.list()
    expect(journaled.map((entry) => entry.operation)).toEqual(['listKeys'])
  })
})

describe('what CORS leaves alone, and the rest of the server', () => {
  it('lets a page whose base URL lacks the base path read the 404 that says so', async () => {
    const preflight = await raw(server.port, 'OPTIONS', '/chat/completions', PREFLIGHT)
    expect(preflight.status).toBe(204)
    const outside = await raw(server.port, 'POST', '/chat/completions', { ...inference, origin: ORIGIN, 'content-type': 'application/json' }, CHAT)
    expect(outside.status).toBe(404)
    expect(outside.headers['access-control-allow-origin']).toBe('*')
    expect(outside.body.error.message).toBe('POST /chat/completions is outside the simulated API; it serves /api/v1 and /__sim')
    expect(sim.journal.list()).toEqual([])
  })

  it('grants nothing on the control API, whose foreign-Origin refusal stands', async () => {
    const preflight = await raw(server.port, 'OPTIONS', '/__sim/reset', { ...PREFLIGHT, 'access-control-request-headers': 'content-type' })
    expect(preflight.status).toBe(403)
    expect(corsHeaders(preflight.headers)).toEqual([])
  })

  it('sends none with cors: false: a preflight is a request the operations answer, and no answer is readable', async () => {
    const closed = await startServer(sim, { port: 0, cors: false })
    try {
      const preflight = await raw(closed.port, 'OPTIONS', '/api/v1/chat/completions', PREFLIGHT)
      expect(preflight.status).toBe(404)
      expect(corsHeaders(preflight.headers)).toEqual([])
      const answer = await raw(closed.port, 'GET', '/api/v1/keys', { ...auth, origin: ORIGIN })
      expect(answer.status).toBe(200)
      expect(corsHeaders(answer.headers)).toEqual([])
    } finally {
      await closed.close()
    }
  })

  it('refuses a cors option that is not a boolean, naming it', async () => {
    const error = await failureOf(startServer(sim, { port: 0, cors: 'yes' as unknown as boolean }))
    expect(error).toBeInstanceOf(SimulatorError)
    expect(error).toMatchObject({ argument: 'cors', message: expect.stringContaining('must be a boolean, got "yes"') })
  })
})
