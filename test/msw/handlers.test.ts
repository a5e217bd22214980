// createHandlers and toResponse in process, through MSW's own `getResponse` (no server, no network):
// which URLs the handlers take and which they leave alone, the request the simulator is given (path,
// query, body, content type), and each argument they refuse, named as the error says it.
import { getResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { createSimulator, DEFAULT_NOW, type SimResponse } from '../../src/index.js'
import { createHandlers, DEFAULT_BASE_URL, toResponse } from '../../src/msw/index.js'
import { simulatorErrorOf } from '../support/server.js'

const sim = createSimulator()

/** The handlers' answer to `url`, or undefined when they leave it to the network. */
function send(url: string, init?: RequestInit, baseUrl?: string): Promise<Response | undefined> {
  return getResponse(createHandlers(sim, baseUrl === undefined ? {} : { baseUrl }), new Request(url, init))
}

/** The journal entry of the request `send` made, after clearing the journal. */
async function journaled(url: string, init?: RequestInit, baseUrl?: string) {
  sim.journal.clear()
  const res = await send(url, init, baseUrl)
  expect(res, url).toBeDefined()
  const entries = sim.journal.list()
  expect(entries).toHaveLength(1)
  return { res: res as Response, entry: entries[0]! }
}

describe('createHandlers: which requests it answers', () => {
  it('answers under the default base URL, and a path it does not know with the 404 envelope', async () => {
    expect(DEFAULT_BASE_URL).toBe('https://openrouter.ai/api/v1')
    expect((await send(`${DEFAULT_BASE_URL}/videos/models`))?.status).toBe(200)
    const unknown = await send(`${DEFAULT_BASE_URL}/no-such-route`)
    expect(unknown?.status).toBe(404)
    expect(((await unknown?.json()) as { error: { code: number } }).error.code).toBe(404)
  })

  it('answers the base URL itself, and leaves a sibling path or another host to the network', async () => {
    expect((await send('https://openrouter.ai/api/v1'))?.status).toBe(404)
    expect(await send('https://openrouter.ai/api/v12/videos/models')).toBeUndefined()
    expect(await send('https://openrouter.ai/api/videos/models')).toBeUndefined()
    expect(await send('https://openrouter.ai/other/api/v1/videos/models')).toBeUndefined()
    expect(await send('https://example.com/api/v1/videos/models')).toBeUndefined()
  })

  it('matches the base URL literally: a dot in it is not any character', async () => {
    const base = 'https://sim.test/api/v1'
    expect((await send(`${base}/videos/models`, undefined, base))?.status).toBe(200)
    expect(await send('https://simxtest/api/v1/videos/models', undefined, base)).toBeUndefined()
  })

  it('takes an http: base URL, with a trailing slash, and the root as its path', async () => {
    expect((await send('http://sim.test/api/v1/videos/models', undefined, 'http://sim.test/api/v1/'))?.status).toBe(200)
    const { entry } = await journaled('http://sim.test/videos/models', undefined, 'http://sim.test')
    expect([entry.operation, entry.path]).toEqual(['listVideoModels', '/videos/models'])
  })
})

describe('createHandlers: the request the simulator is given', () => {
  it('the path below the base URL and the query, without a fragment', async () => {
    const cases = [
      ['/videos/models?order=new&x=1#top', '/videos/models', 'order=new&x=1'],
      ['/videos/models#top?x=1', '/videos/models', ''],
      ['/videos/models?x=1', '/videos/models', 'x=1'],
      ['/videos/models#top', '/videos/models', ''],
      ['/videos/models', '/videos/models', ''],
    ] as const
    for (const [path, expectedPath, query] of cases) {
      const { entry } = await journaled(`${DEFAULT_BASE_URL}${path}`)
      expect([entry.path, entry.query], path).toEqual([expectedPath, query])
    }
  })

  it('the body of a POST as text, and null for a POST without one', async () => {
    const body = JSON.stringify({ model: sim.world.models.paid, messages: [{ role: 'user', content: 'Hi' }] })
    const headers = { authorization: `Bearer ${sim.world.apiKey}`, 'content-type': 'application/json' }
    const posted = await journaled(`${DEFAULT_BASE_URL}/chat/completions`, { method: 'POST', headers, body })
    expect([posted.res.status, posted.entry.requestBody]).toEqual([200, body])
    const empty = await journaled(`${DEFAULT_BASE_URL}/chat/completions`, { method: 'POST', headers })
    expect([empty.res.status, empty.entry.requestBody]).toEqual([400, null])
  })

  it('the content type: a body sent as text/plain is refused naming it', async () => {
    const body = JSON.stringify({ model: sim.world.models.paid, messages: [{ role: 'user', content: 'Hi' }] })
    const { res } = await journaled(`${DEFAULT_BASE_URL}/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${sim.world.apiKey}`, 'content-type': 'text/plain' }, body })
    expect(res.status).toBe(400)
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain('must be sent as content-type application/json, got "text/plain"')
  })

  it('the authorization header', async () => {
    expect((await send(`${DEFAULT_BASE_URL}/keys`, { headers: { authorization: `Bearer ${sim.world.managementKey}` } }))?.status).toBe(200)
    expect((await send(`${DEFAULT_BASE_URL}/keys`))?.status).toBe(401)
  })

  it('a HEAD request: headers with the length of the body, and no body', async () => {
    const res = (await send(`${DEFAULT_BASE_URL}/videos/models`, { method: 'HEAD' })) as Response
    expect(res.status).toBe(404)
    expect(Number(res.headers.get('content-length'))).toBeGreaterThan(0)
    expect(await res.text()).toBe('')
  })

  it('simulated latency that is not real is not waited for', async () => {
    const slow = createSimulator()
    slow.latency.set({ operation: 'listVideoModels', ms: 600_000 })
    const res = await getResponse(createHandlers(slow), new Request(`${DEFAULT_BASE_URL}/videos/models`))
    expect(res?.status).toBe(200)
    expect(slow.clock.now().getTime() - Date.parse(DEFAULT_NOW)).toBe(600_000)
  })

  it('a client gone during a real latency wait is journaled as having left an answer that is not a stream', async () => {
    const waiting = createSimulator()
    waiting.latency.set({ operation: 'listVideoModels', ms: 30, real: true })
    const controller = new AbortController()
    const answer = getResponse(createHandlers(waiting), new Request(`${DEFAULT_BASE_URL}/videos/models`, { signal: controller.signal }))
    controller.abort()
    await answer
    expect(waiting.journal.list().map((e) => e.outcome)).toEqual(['client-left'])
  })

  it('an answer of a simulator object asking for a real wait, without a delay or a cancel, is answered', async () => {
    const answerOnly = { handle: () => ({ status: 200, headers: { 'content-type': 'application/json' }, type: 'json', body: { ok: true }, realDelay: true }) as SimResponse }
    const controller = new AbortController()
    controller.abort()
    const res = await getResponse(createHandlers(answerOnly), new Request(`${DEFAULT_BASE_URL}/anything`, { signal: controller.signal }))
    expect(await res?.json()).toEqual({ ok: true })
  })

  it('a network-error fault answers with a network error', async () => {
    const faulty = createSimulator()
    faulty.faults.add({ operation: 'listVideoModels', respond: 'network-error' })
    const res = await getResponse(createHandlers(faulty), new Request(`${DEFAULT_BASE_URL}/videos/models`))
    expect(res?.type).toBe('error')
  })

  it('a never fault is never answered', async () => {
    const stuck = createSimulator()
    stuck.faults.add({ operation: 'listVideoModels', respond: 'never' })
    let settled = 'pending'
    void getResponse(createHandlers(stuck), new Request(`${DEFAULT_BASE_URL}/videos/models`)).then(
      () => (settled = 'answered'),
      () => (settled = 'failed'),
    )
    // Many turns of the event loop, no clock: an answer (or a throw) would have come by now.
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve))
    expect(settled).toBe('pending')
    expect(stuck.journal.list({ operation: 'listVideoModels' })).toHaveLength(1)
  })
})

describe('createHandlers: the arguments it refuses', () => {
  it.each([
    [null, 'Failed to create handlers: "sim" must be a simulator (createSimulator()).'],
    ['sim', 'Failed to create handlers: "sim" must be a simulator (createSimulator()).'],
    [{ handle: 'no' }, 'Failed to create handlers: "sim" must be a simulator (createSimulator()).'],
    [Object.assign(() => {}, { handle: () => ({}) }), 'Failed to create handlers: "sim" must be a simulator (createSimulator()).'],
  ])('a sim that is %j', (bad, message) => {
    const error = simulatorErrorOf(() => createHandlers(bad as never))
    expect([error.argument, error.message]).toEqual(['sim', message])
  })

  it.each([
    [null, 'null'],
    [[], 'an array'],
    ['https://sim.test', '"https://sim.test"'],
  ])('options that are %j', (bad, described) => {
    const error = simulatorErrorOf(() => createHandlers(sim, bad as never))
    expect([error.argument, error.message]).toEqual(['options', `Failed to create handlers: "options" must be an options object, got ${described}.`])
  })

  it('a misspelt option, by its name', () => {
    const error = simulatorErrorOf(() => createHandlers(sim, { baseURL: 'https://sim.test/api/v1' } as never))
    expect(error.argument).toBe('baseURL')
    expect(error.message).toContain('the options of createHandlers')
  })

  it.each([
    ['localhost:3000/api/v1', '"localhost:3000/api/v1"'],
    ['ftp://sim.test/api/v1', '"ftp://sim.test/api/v1"'],
    ['https://sim.test/api/v1?x=1', '"https://sim.test/api/v1?x=1"'],
    ['https://sim.test/api/v1#top', '"https://sim.test/api/v1#top"'],
    ['not a url', '"not a url"'],
    [42, '42'],
    // A URL object is not the string the option takes, though it would parse as one.
    [new URL('https://sim.test/api/v1'), 'a value of type object'],
  ])('a baseUrl of %j', (baseUrl, described) => {
    const error = simulatorErrorOf(() => createHandlers(sim, { baseUrl } as never))
    expect([error.argument, error.message]).toEqual([
      'baseUrl',
      `Failed to create handlers: "baseUrl" must be an absolute http: or https: URL such as "https://openrouter.ai/api/v1", with no query or fragment, got ${described}.`,
    ])
  })
})

const json = (status: number, body: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }): SimResponse => ({ status, headers, type: 'json', body })

describe('toResponse', () => {
  it('a JSON answer: its status, headers and body', async () => {
    const res = toResponse(json(201, { id: 'x' }, { 'content-type': 'application/json', 'x-extra': 'yes' }))
    expect([res.status, res.headers.get('x-extra'), await res.json()]).toEqual([201, 'yes', { id: 'x' }])
  })

  it('a stream answer: its frames as the body for GET, none for HEAD in any case', async () => {
    const stream: SimResponse = { status: 200, headers: { 'content-type': 'text/event-stream' }, type: 'stream', body: [{ data: 'data: 1\n\n', atMs: 0 }, { data: 'data: 2\n\n', atMs: 0 }] }
    expect(await toResponse(stream).text()).toBe('data: 1\n\ndata: 2\n\n')
    expect(await toResponse(stream, 'POST', new Request('https://sim.test/', { method: 'POST' })).text()).toBe('data: 1\n\ndata: 2\n\n')
    for (const method of ['HEAD', 'head']) {
      const head = toResponse(stream, method)
      expect([head.status, head.headers.get('content-length'), await head.text()], method).toEqual([200, '18', ''])
    }
  })

  it('a network-error fault is Response.error()', () => {
    expect(toResponse({ type: 'network-error' } as SimResponse).type).toBe('error')
  })

  it('refuses a never fault, which has no Response', () => {
    const error = simulatorErrorOf(() => toResponse({ type: 'never' } as SimResponse))
    expect([error.argument, error.message]).toEqual(['response', 'Failed to convert a response: "response" is a "never" fault, which has no Response; wait forever instead (createHandlers does).'])
  })

  it.each([
    [null, 'null'],
    ['ok', '"ok"'],
    [{ status: 200, headers: {} }, 'a value of type object'],
    [{ type: 'xml', status: 200, headers: {}, body: '' }, 'a value of type object'],
    [{ type: 'json', status: '200', headers: {}, body: {} }, 'a value of type object'],
    [{ type: 'json', status: 200, body: {} }, 'a value of type object'],
    [{ type: 'json', status: 200, headers: null, body: {} }, 'a value of type object'],
  ])('refuses a response that is %j', (bad, described) => {
    const error = simulatorErrorOf(() => toResponse(bad as never))
    expect([error.argument, error.message]).toEqual(['response', `Failed to convert a response: "response" must be a response sim.handle() returned, got ${described}.`])
  })

  it('refuses a method that is not a string, and a request that is not a Request', () => {
    const method = simulatorErrorOf(() => toResponse(json(200, {}), 7 as never))
    expect([method.argument, method.message]).toEqual(['method', 'Failed to convert a response: "method" must be the request\'s method, such as "GET", got 7.'])
    const request = simulatorErrorOf(() => toResponse(json(200, {}), 'GET', { url: 'https://sim.test/' } as never))
    expect([request.argument, request.message]).toEqual(['request', 'Failed to convert a response: "request" must be the Request being answered, got a value of type object.'])
  })

  it('refuses a response built by hand that HTTP cannot carry, saying why', () => {
    const error = simulatorErrorOf(() => toResponse(json(200, {}, { 'bad header': 'x' })))
    expect(error.argument).toBe('response')
    expect(error.message).toMatch(/^Failed to convert a response: "response" cannot be sent as HTTP \(.*header.*\)\.$/i)
    expect(simulatorErrorOf(() => toResponse(json(200, 10n))).message).toMatch(/cannot be sent as HTTP \(.*BigInt.*\)/)
  })
})
