// What `sim.handle()` makes of the requests a caller's own code hands it: a malformed request is a
// 400 envelope naming the field (never a throw), a path may lack its leading slash, a query may be a
// string with or without `?` or URLSearchParams, a bearer header may carry surrounding whitespace,
// and an unexpected exception is a 500 envelope. Also the two helpers the adapters route with:
// `payloadOf` (the cached text an adapter sends) and `operationOf` (the server's log line).
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { operationOf } from '../../src/core/router.js'
import { payloadOf } from '../../src/core/operations/operation.js'
import { toWire } from '../../src/core/http.js'
import { createSimulator, type JournalEntry, type OperationName, type SimRequest, type SimResponse } from '../../src/index.js'
import { runs } from '../support/runs.js'

type Sim = ReturnType<typeof createSimulator>

const SIMULATED =
  'GET /keys, GET /keys/{hash}, GET /models/{author}/{slug}/endpoints, GET /files/{file_id}/content, GET /workspaces/{id}, GET /videos/models, ' +
  'POST /keys, PATCH /keys/{hash}, DELETE /keys/{hash}, GET /key, GET /auth/key, GET /credits, ' +
  'GET /workspaces, POST /workspaces, PATCH /workspaces/{id}, DELETE /workspaces/{id}, ' +
  'GET /models, GET /models/count, GET /model/{author}/{slug}, GET /providers, GET /embeddings/models, POST /chat/completions, GET /generation, ' +
  'POST /completions, POST /responses, POST /embeddings, POST /auth/keys/code, POST /auth/keys, POST /oauth/token, GET /oauth/jwks, ' +
  'GET /presets, GET /presets/{slug}, GET /presets/{slug}/versions, GET /presets/{slug}/versions/{version}, ' +
  'POST /presets/{slug}/chat/completions, POST /presets/{slug}/responses, POST /presets/{slug}/messages, ' +
  'GET /workspaces/{workspace_ref}/budgets, GET /workspaces/{workspace_ref}/budgets/{interval}, PUT /workspaces/{workspace_ref}/budgets/{interval}, DELETE /workspaces/{workspace_ref}/budgets/{interval}, ' +
  'GET /organization/members, GET /workspaces/{id}/members, POST /workspaces/{id}/members/add, POST /workspaces/{id}/members/remove, ' +
  'GET /guardrails, POST /guardrails, GET /guardrails/{id}, PATCH /guardrails/{id}, DELETE /guardrails/{id}, GET /guardrails/assignments/keys, GET /guardrails/assignments/members, ' +
  'GET /guardrails/{id}/assignments/keys, GET /guardrails/{id}/assignments/members, POST /guardrails/{id}/assignments/keys, POST /guardrails/{id}/assignments/keys/remove, ' +
  'POST /guardrails/{id}/assignments/members, POST /guardrails/{id}/assignments/members/remove, ' +
  'GET /activity, GET /analytics/meta, POST /analytics/query, GET /generation/content, POST /generation/feedback, GET /models/user, GET /endpoints/zdr, ' +
  'POST /byok, GET /byok, GET /byok/{id}, PATCH /byok/{id}, DELETE /byok/{id}'

/** sim.handle with a request no SimRequest type would allow: what plain JavaScript callers send. */
const handleAnything = (sim: Sim, request: unknown): SimResponse => sim.handle(request as SimRequest)

function lastEntry(sim: Sim): JournalEntry {
  const entry = sim.journal.list().at(-1)
  if (entry === undefined) throw new Error('expected a journal entry')
  return entry
}

const dataOf = (response: SimResponse): unknown[] => (response.body as { data: unknown[] }).data
const hashesOf = (response: SimResponse): string[] => (dataOf(response) as { hash: string }[]).map((key) => key.hash)

describe('sim.handle with a malformed request', () => {
  const OBJECT = 'an object { method, path, query?, authorization?, body?, headers? }'
  const cases: { name: string; request: unknown; field: string; expected: string }[] = [
    { name: 'null', request: null, field: 'request', expected: OBJECT },
    { name: 'undefined', request: undefined, field: 'request', expected: OBJECT },
    { name: 'a string', request: 'GET /keys', field: 'request', expected: OBJECT },
    { name: 'a number', request: 42, field: 'request', expected: OBJECT },
    { name: 'a numeric method', request: { method: 1, path: '/keys' }, field: 'method', expected: 'a string such as "GET"' },
    { name: 'a numeric path', request: { method: 'GET', path: 5 }, field: 'path', expected: 'a string such as "/keys"' },
    { name: 'no path', request: { method: 'GET' }, field: 'path', expected: 'a string such as "/keys"' },
    { name: 'a URL object for a path', request: { method: 'GET', path: new URL('https://x.test/keys') }, field: 'path', expected: 'a string such as "/keys"' },
    { name: 'a query object', request: { method: 'GET', path: '/videos/models', query: { offset: '0' } }, field: 'query', expected: 'a string or URLSearchParams' },
    { name: 'a numeric query', request: { method: 'GET', path: '/videos/models', query: 5 }, field: 'query', expected: 'a string or URLSearchParams' },
    { name: 'a query array', request: { method: 'GET', path: '/videos/models', query: [['a', 'b']] }, field: 'query', expected: 'a string or URLSearchParams' },
    { name: 'a numeric authorization', request: { method: 'GET', path: '/videos/models', authorization: 5 }, field: 'authorization', expected: 'a string or null' },
    { name: 'an array of headers', request: { method: 'GET', path: '/videos/models', authorization: ['Bearer x'] }, field: 'authorization', expected: 'a string or null' },
  ]

  it.each(cases)('answers $name with the 400 envelope naming "$field", journaled with nothing shown', ({ request, field, expected }) => {
    const sim = createSimulator()
    const before = sim.clock.nowMs()
    let response: SimResponse | undefined
    expect(() => (response = handleAnything(sim, request))).not.toThrow()
    expect(response).toEqual({
      status: 400,
      headers: { 'content-type': 'application/json' },
      type: 'json',
      body: {
        error: {
          code: 400,
          message: `Malformed request: "${field}" must be ${expected}`,
          metadata: { parameter: field, reason: `must be ${expected}` },
        },
      },
    })
    const { response: _response, ...entry } = lastEntry(sim)
    expect(entry).toEqual({
      seq: 1,
      at: new Date(before).toISOString(),
      method: '',
      path: '',
      query: '',
      requestBody: null,
      requestBodyBytes: null,
      requestBodyTruncated: false,
      operation: null,
      status: 400,
      outcome: 'response',
      cutShort: null,
      principal: null,
      fault: null,
      responder: null,
      responderRemaining: null,
      rateLimited: false,
      delayMs: 0,
      ignoredFields: [],
      warnings: [],
      guardrailFlags: [],
    })
    expect(sim.clock.nowMs()).toBe(before)
  })

  it('refuses a malformed field before reading the caller: no user_id even with a valid management key', () => {
    const sim = createSimulator()
    const response = handleAnything(sim, { method: 'GET', path: '/keys', query: { offset: '0' }, authorization: `Bearer ${sim.world.managementKey}` })
    expect(response.status).toBe(400)
    expect(response.body).toEqual({
      error: { code: 400, message: 'Malformed request: "query" must be a string or URLSearchParams', metadata: { parameter: 'query', reason: 'must be a string or URLSearchParams' } },
    })
  })

  it('accepts a null or absent query and a null authorization, as a SimRequest from JavaScript may carry them', () => {
    const sim = createSimulator()
    const admin = `Bearer ${sim.world.managementKey}`
    const plain = sim.handle({ method: 'GET', path: '/keys', authorization: admin })
    expect(plain.status).toBe(200)
    for (const request of [
      { method: 'GET', path: '/keys', query: null, authorization: admin },
      { method: 'GET', path: '/keys', query: undefined, authorization: admin },
    ]) {
      const response = handleAnything(sim, request)
      expect(response.status).toBe(200)
      expect(response.body).toEqual(plain.body)
    }
    const anonymous = handleAnything(sim, { method: 'GET', path: '/videos/models', query: null, authorization: null })
    expect(anonymous.status).toBe(200)
    expect(sim.journal.list().map((e) => [e.operation, e.query, e.status])).toEqual([
      ['listKeys', '', 200],
      ['listKeys', '', 200],
      ['listKeys', '', 200],
      ['listVideoModels', '', 200],
    ])
  })
})

describe('sim.handle when something unexpected throws', () => {
  /** A request whose `authorization` reads fine once (the shape check) and throws on every later read. */
  function flakyRequest(thrown: unknown): object {
    let reads = 0
    return {
      method: 'get',
      path: '/videos/models',
      query: '?a=1',
      get authorization(): string | null {
        reads += 1
        if (reads > 1) throw thrown
        return null
      },
    }
  }

  it('answers a request whose field throws when read with a 500 envelope carrying the error message', () => {
    const sim = createSimulator()
    let response: SimResponse | undefined
    expect(() => (response = handleAnything(sim, flakyRequest(new Error('header went away'))))).not.toThrow()
    expect(response).toEqual({
      status: 500,
      headers: { 'content-type': 'application/json' },
      type: 'json',
      body: { error: { code: 500, message: 'Internal Server Error', metadata: { reason: 'header went away' } } },
    })
    const entry = lastEntry(sim)
    expect([entry.method, entry.path, entry.query, entry.operation, entry.status, entry.principal]).toEqual(['GET', '/videos/models', 'a=1', 'listVideoModels', 500, null])
  })

  it('gives the text of a thrown non-Error as the reason', () => {
    const sim = createSimulator()
    const response = handleAnything(sim, flakyRequest('plain text'))
    expect(response.status).toBe(500)
    expect(response.body).toEqual({ error: { code: 500, message: 'Internal Server Error', metadata: { reason: 'plain text' } } })
  })
})

describe('sim.handle with a path without its leading slash', () => {
  it('answers each operation as it answers the path with the slash', () => {
    const sim = createSimulator()
    const admin = `Bearer ${sim.world.managementKey}`
    const paths = [
      'keys',
      `keys/${sim.world.apiKeyHash}`,
      `models/${sim.world.models.paid}/endpoints`,
      `files/${sim.world.files.report}/content`,
      `workspaces/${sim.world.workspaces.production}`,
      'videos/models',
    ]
    for (const path of paths) {
      const bare = sim.handle({ method: 'GET', path, authorization: admin })
      const slashed = sim.handle({ method: 'GET', path: `/${path}`, authorization: admin })
      expect(bare.status, path).toBe(200)
      expect(bare.body, path).toEqual(slashed.body)
      expect(bare.headers, path).toEqual(slashed.headers)
    }
    const operations = sim.journal.list().map((e) => e.operation)
    expect(operations).toEqual(['listKeys', 'listKeys', 'getKey', 'getKey', 'listEndpoints', 'listEndpoints', 'getFileContent', 'getFileContent', 'getWorkspace', 'getWorkspace', 'listVideoModels', 'listVideoModels'])
  })

  it('names the path with its slash in the 404 of a path not simulated', () => {
    const sim = createSimulator()
    const response = sim.handle({ method: 'post', path: 'audio/speech' })
    expect(response.status).toBe(404)
    expect(response.body).toEqual({
      error: {
        code: 404,
        message: `POST /audio/speech is not simulated by model-access-sim; it simulates ${SIMULATED}`,
        metadata: { reason: 'not_simulated', method: 'POST', path: '/audio/speech' },
      },
    })
  })
})

describe('sim.handle with a query', () => {
  it('reads a string with or without "?" and URLSearchParams alike, and journals it without the "?"', () => {
    const sim = createSimulator()
    const authorization = `Bearer ${sim.world.managementKey}`
    const without = sim.handle({ method: 'GET', path: '/keys', authorization })
    expect(hashesOf(without)).not.toContain(sim.world.keys.disabled)
    for (const query of ['include_disabled=true', '?include_disabled=true', new URLSearchParams({ include_disabled: 'true' })]) {
      const response = sim.handle({ method: 'GET', path: '/keys', query, authorization })
      expect(response.status).toBe(200)
      expect(hashesOf(response)).toContain(sim.world.keys.disabled)
      expect(lastEntry(sim).query).toBe('include_disabled=true')
    }
  })

  it('journals a "?" inside the query as sent: only a leading "?" is dropped', () => {
    const sim = createSimulator()
    const shown = (query: string): string => {
      expect(sim.handle({ method: 'GET', path: '/videos/models', query }).status).toBe(200)
      return lastEntry(sim).query
    }
    expect(shown('q=what?')).toBe('q=what?')
    expect(shown('?q=what?')).toBe('q=what?')
    expect(shown('a=1&b=?2')).toBe('a=1&b=?2')
    expect(shown('??x')).toBe('?x')
  })

  it('still answers a query that cannot be written out, and journals it as no query', () => {
    class Unprintable extends URLSearchParams {
      override toString(): string {
        throw new Error('cannot print')
      }
    }
    const sim = createSimulator()
    const authorization = `Bearer ${sim.world.managementKey}`
    const response = sim.handle({ method: 'GET', path: '/keys', query: new Unprintable({ include_disabled: 'true' }), authorization })
    expect(response.status).toBe(200)
    expect(hashesOf(response)).toContain(sim.world.keys.disabled)
    const entry = lastEntry(sim)
    expect([entry.operation, entry.query, entry.status]).toEqual(['listKeys', '', 200])
  })
})

describe('a bearer header with surrounding whitespace', () => {
  const padded = (secret: string): string[] => [`  Bearer ${secret}`, `Bearer ${secret}\n`, `\t Bearer ${secret} \r\n`]

  it("is that key's request to a fault aimed at the key", () => {
    const sim = createSimulator()
    const admin = sim.keys.create({ userId: sim.world.userId, management: true, name: 'Faulted admin' })
    sim.faults.add({ name: 'admin-down', keyHash: admin.record.hash, respond: { status: 503 } })
    for (const header of padded(admin.key)) {
      const response = sim.handle({ method: 'GET', path: '/keys', authorization: header })
      expect(response.status, JSON.stringify(header)).toBe(503)
      expect(lastEntry(sim).fault).toBe('admin-down')
    }
    // Another key's request, padded the same way, is not hit.
    expect(sim.handle({ method: 'GET', path: '/keys', authorization: `  Bearer ${sim.world.managementKey}` }).status).toBe(200)
  })

  it("counts against the key's own rate limit", () => {
    const sim = createSimulator()
    const limited = sim.keys.create({ userId: sim.world.userId, management: true, rateLimit: { requests: 2, intervalMs: 60_000 } })
    const statuses = padded(limited.key).map((header) => sim.handle({ method: 'GET', path: '/keys', authorization: header }).status)
    expect(statuses).toEqual([200, 200, 429])
    expect(sim.journal.list().map((e) => e.rateLimited)).toEqual([false, false, true])
    // Anonymous callers have a bucket of their own, with no limit here.
    expect(sim.handle({ method: 'GET', path: '/videos/models' }).status).toBe(200)
  })
})

describe('payloadOf', () => {
  it('gives the cached text of a video-model list: JSON.stringify of its body, with its UTF-8 byte length', () => {
    const sim = createSimulator()
    const response = sim.handle({ method: 'GET', path: '/videos/models' })
    const payload = payloadOf(response)
    if (payload === undefined) throw new Error('expected a cached payload')
    const expected = JSON.stringify({ data: sim.videoModels.list() })
    expect(sim.videoModels.list().length).toBeGreaterThan(0)
    expect(payload.text()).toBe(expected)
    expect(payload.byteLength).toBe(Buffer.byteLength(expected, 'utf8'))
    expect(toWire(response as Extract<SimResponse, { type: 'json' }>, 'GET')).toEqual({
      status: 200,
      headers: { 'content-type': 'application/json', 'content-length': String(payload.byteLength) },
      body: expected,
    })
    // The same list again is sent as the very text kept from last time.
    const again = payloadOf(sim.handle({ method: 'GET', path: '/videos/models' }))
    expect(again?.text()).toBe(expected)
  })

  it('gives {"data":[]} for a world without video models', () => {
    const sim = createSimulator({ world: 'empty' })
    const payload = payloadOf(sim.handle({ method: 'GET', path: '/videos/models' }))
    expect(payload?.text()).toBe('{"data":[]}')
    expect(payload?.byteLength).toBe(11)
  })

  it('gives the text of each 200 JSON body, and nothing for an error envelope or file bytes', () => {
    const sim = createSimulator()
    const authorization = `Bearer ${sim.world.managementKey}`
    for (const path of ['/keys', `/keys/${sim.world.apiKeyHash}`, `/models/${sim.world.models.paid}/endpoints`, `/workspaces/${sim.world.workspaces.production}`]) {
      const response = sim.handle({ method: 'GET', path, authorization })
      const text = payloadOf(response)?.text()
      expect(text, path).toBe(JSON.stringify(response.body))
    }
    expect(payloadOf(sim.handle({ method: 'GET', path: '/keys' }))).toBeUndefined()
    expect(payloadOf(sim.handle({ method: 'GET', path: `/files/${sim.world.files.report}/content`, authorization }))).toBeUndefined()
  })

  it('is withdrawn once the body is read, and the body stays the same object', () => {
    const sim = createSimulator()
    const response = sim.handle({ method: 'GET', path: '/videos/models' })
    const body = response.body
    expect(body).toEqual({ data: sim.videoModels.list() })
    expect(payloadOf(response)).toBeUndefined()
    expect(response.body).toBe(body)
  })

  it('is withdrawn once the body is replaced, so the edited body is what an adapter sends', () => {
    const sim = createSimulator()
    const response = sim.handle({ method: 'GET', path: '/videos/models' }) as Extract<SimResponse, { type: 'json' }>
    expect(payloadOf(response)).toBeDefined()
    response.body = { data: [], edited: true }
    expect(payloadOf(response)).toBeUndefined()
    expect(response.body).toEqual({ data: [], edited: true })
    const wire = toWire(response, 'GET')
    expect(wire.body).toBe('{"data":[],"edited":true}')
    expect(wire.headers['content-length']).toBe('25')
  })
})

describe('operationOf', () => {
  it('names the operation of each simulated path, whatever the case of GET and with or without the leading slash', () => {
    const sim = createSimulator()
    const expected: [string, OperationName][] = [
      ['/keys', 'listKeys'],
      [`/keys/${sim.world.apiKeyHash}`, 'getKey'],
      ['/models/openai/gpt-4%3Afree/endpoints', 'listEndpoints'],
      [`/files/${sim.world.files.report}/content`, 'getFileContent'],
      ['/workspaces/default', 'getWorkspace'],
      ['/videos/models', 'listVideoModels'],
    ]
    for (const [path, name] of expected) {
      expect(operationOf({ method: 'GET', path }), path).toBe(name)
      expect(operationOf({ method: 'get', path: path.slice(1) }), path).toBe(name)
    }
  })

  it('gives null for another method, a path not simulated, and a request too malformed to route, never throwing', () => {
    expect(operationOf({ method: 'PUT', path: '/keys' })).toBeNull()
    expect(operationOf({ method: 'HEAD', path: '/videos/models' })).toBeNull()
    expect(operationOf({ method: 'GET', path: '/chat/completions' })).toBeNull()
    expect(operationOf({ method: 'GET', path: '/videos/models/extra' })).toBeNull()
    expect(operationOf({ method: 'GET', path: '/' })).toBeNull()
    for (const request of [null, undefined, {}, { method: 5, path: '/keys' }, { method: 'GET' }, { method: 'GET', path: 7 }]) {
      expect(operationOf(request as unknown as SimRequest), JSON.stringify(request)).toBeNull()
    }
  })

  it('names the same operation the journal records for the request, for any method and path', () => {
    const sim = createSimulator()
    const segment = fc.oneof(fc.constantFrom('keys', 'models', 'files', 'content', 'workspaces', 'videos', 'endpoints', 'default', 'a', ''), fc.string({ unit: fc.constantFrom(...'az09%2F:.-_~ '), maxLength: 6 }))
    const path = fc.oneof(
      fc.constantFrom('/keys', '/keys/abc', '/models/a/b/endpoints', '/files/f/content', '/workspaces/w', '/videos/models', 'videos/models', 'keys'),
      fc.array(segment, { minLength: 0, maxLength: 5 }).chain((parts) => fc.constantFrom(`/${parts.join('/')}`, parts.join('/'))),
    )
    const method = fc.constantFrom('GET', 'get', 'Get', 'HEAD', 'POST', 'DELETE')
    fc.assert(
      fc.property(method, path, (m, p) => {
        const request: SimRequest = { method: m, path: p }
        const named = operationOf(request)
        sim.journal.clear()
        sim.handle(request)
        expect(named).toBe(lastEntry(sim).operation)
      }),
      { numRuns: runs(100) },
    )
  })
})
