// The simulator over a real loopback socket: the six operations with fetch and the official SDK, the
// committed fixtures replayed over HTTP, HEAD, keep-alive, faults that drop or hold a connection,
// real latency, paths outside the API, and the options of startServer.
import { readFileSync, readdirSync } from 'node:fs'
import { Agent, request as httpRequest } from 'node:http'
import { createConnection, createServer as createNetServer } from 'node:net'
import { join, relative, resolve, sep } from 'node:path'
import { OpenRouter } from '@openrouter/sdk'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { type Fixture, HAND_WRITTEN } from '../../fixtures/generate.js'
import { createSimulator, SimulatorError } from '../../src/index.js'
import { type SimulatorServer, startServer } from '../../src/server/index.js'
import { simulatorErrorOf } from '../support/server.js'

const sim = createSimulator()
const world = sim.world
let server: SimulatorServer

beforeAll(async () => {
  vi.stubEnv('OPENROUTER_API_KEY', undefined)
  vi.stubEnv('OPENROUTER_BASE_URL', undefined)
  server = await startServer(sim, { port: 0 })
})
beforeEach(() => sim.reset())
afterAll(async () => {
  await server.close()
  vi.unstubAllEnvs()
})

const bearer = (secret: string): Record<string, string> => ({ authorization: `Bearer ${secret}` })

function sdk(secret?: string): OpenRouter {
  return new OpenRouter({ serverURL: server.url, retryConfig: { strategy: 'none' }, ...(secret === undefined ? {} : { apiKey: secret }) })
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer())
}

/** Sends `requestLine` and headers as written on a fresh socket; resolves with the raw answer. */
function rawRequest(requestLine: string, headers: string[]): Promise<string> {
  return new Promise((done, fail) => {
    const socket = createConnection({ host: '127.0.0.1', port: server.port }, () => {
      socket.write(`${requestLine}\r\n${[...headers, 'connection: close'].join('\r\n')}\r\n\r\n`)
    })
    let answer = ''
    socket.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk))
    socket.on('end', () => done(answer))
    socket.on('error', fail)
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer within 10 s')))
  })
}

describe('startServer', () => {
  it('serves an absolute-form request target (as sent to a proxy) by its path and query', async () => {
    const answer = await rawRequest(`GET http://127.0.0.1:${server.port}/api/v1/keys?include_disabled=true HTTP/1.1`, [`host: 127.0.0.1:${server.port}`, `authorization: Bearer ${world.managementKey}`])
    expect(answer).toMatch(/^HTTP\/1\.1 200 /)
    const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { data: { hash: string }[] }
    const expected = createSimulator().handle({ method: 'GET', path: '/keys', query: 'include_disabled=true', authorization: `Bearer ${world.managementKey}` })
    expect(body).toEqual(expected.body)
    const outside = await rawRequest(`GET http://127.0.0.1:${server.port}/elsewhere HTTP/1.1`, [`host: 127.0.0.1:${server.port}`])
    expect(outside).toMatch(/^HTTP\/1\.1 404 /)
    expect(outside).toContain('outside_base_path')
  })

  it('listens on loopback at the port it was given, and names the base URL clients use', async () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/api/v1`)
    expect(server.controlUrl).toBe(`http://127.0.0.1:${server.port}/__sim`)
    expect(server.port).toBeGreaterThan(0)
  })

  it('answers the six operations over fetch as sim.handle does', async () => {
    const twin = createSimulator()
    const requests = [
      { path: '/keys', query: 'include_disabled=true', key: world.managementKey },
      { path: `/keys/${world.apiKeyHash}`, query: '', key: world.managementKey },
      { path: '/models/anthropic/claude-sonnet-4.5/endpoints', query: '', key: world.apiKey },
      { path: '/models/meta-llama/llama-3.3-70b-instruct%3Afree/endpoints', query: '', key: null },
      { path: `/files/${world.files.report}/content`, query: '', key: world.managementKey },
      { path: '/workspaces/production', query: '', key: world.managementKey },
      { path: '/videos/models', query: '', key: null },
    ]
    for (const { path, query, key } of requests) {
      const res = await fetch(`${server.url}${path}${query ? `?${query}` : ''}`, { headers: key === null ? {} : bearer(key) })
      const expected = twin.handle({ method: 'GET', path, query, authorization: key === null ? null : `Bearer ${key}` })
      expect(res.status, path).toBe(200)
      expect(res.headers.get('content-type'), path).toBe(expected.headers['content-type'])
      if (expected.type === 'bytes') {
        expect(new Uint8Array(await res.arrayBuffer()), path).toEqual(expected.body)
        expect(res.headers.get('content-disposition'), path).toBe(expected.headers['content-disposition'])
      } else {
        expect(await res.json(), path).toEqual(expected.body)
      }
      expect(Number(res.headers.get('content-length')), path).toBeGreaterThan(0)
    }
  })

  it('serves the official SDK pointed at it with serverURL', async () => {
    const admin = sdk(world.managementKey)
    const keys = await admin.apiKeys.list({ includeDisabled: true })
    const direct = sim.handle({ method: 'GET', path: '/keys', query: 'include_disabled=true', authorization: `Bearer ${world.managementKey}` })
    expect(keys.data.map((key) => key.hash)).toEqual((direct.body as { data: { hash: string }[] }).data.map((key) => key.hash))
    expect(keys.data.length).toBeGreaterThan(10)
    expect((await admin.apiKeys.get({ hash: world.apiKeyHash })).data.name).toBe('Production backend')
    expect((await admin.workspaces.get({ id: 'production' })).data.id).toBe(world.workspaces.production)
    const endpoints = await sdk().endpoints.list({ author: 'meta-llama', slug: 'llama-3.3-70b-instruct:free' })
    expect(endpoints.data.endpoints[0]?.pricing.prompt).toBe('0')
    expect(endpoints.data.endpoints[0]?.latencyLast30m).toBeNull()
    const report = sim.files.list().find((file) => file.id === world.files.report && file.workspaceId === world.workspaces.default && file.provider === null)
    expect(await readAll(await admin.files.download({ fileId: world.files.report }))).toEqual(report?.bytes)
    expect((await sdk().videoGeneration.listVideosModels()).data.length).toBe(sim.videoModels.list().length)
  })

  it('keeps a connection alive across requests', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    const reused: boolean[] = []
    try {
      for (let i = 0; i < 3; i++) {
        await new Promise<void>((done, fail) => {
          const req = httpRequest(`${server.url}/videos/models`, { agent }, (res) => {
            expect(res.statusCode).toBe(200)
            res.resume()
            res.on('end', () => done())
          })
          req.on('error', fail)
          req.end()
          reused.push(req.reusedSocket)
        })
      }
    } finally {
      agent.destroy()
    }
    expect(reused).toEqual([false, true, true])
  })

  it('answers HEAD with the headers and no body', async () => {
    const res = await fetch(`${server.url}/videos/models`, { method: 'HEAD' })
    const get = sim.handle({ method: 'HEAD', path: '/videos/models' })
    expect(res.status).toBe(get.status)
    expect(res.headers.get('content-type')).toBe('application/json')
    expect(Number(res.headers.get('content-length'))).toBeGreaterThan(0)
    expect(await res.text()).toBe('')
  })

  it('answers any other method or path under the base path with the simulator envelope', async () => {
    const res = await fetch(`${server.url}/audio/speech`, { method: 'POST', body: '{"model":"x"}' })
    expect(res.status).toBe(404)
    expect((await res.json()).error).toMatchObject({ code: 404, message: expect.stringMatching(/POST \/audio\/speech is not simulated/) })
    const noOperation = await fetch(server.url)
    expect(noOperation.status).toBe(404)
    expect((await noOperation.json()).error.metadata).toMatchObject({ reason: 'not_simulated', path: '/' })
  })

  it.each(['/', '/api', '/api/v12/keys', '/v1/keys', '/__simulator', '/favicon.ico'])('answers %s, outside the base path and /__sim, with a 404 envelope', async (path) => {
    const res = await fetch(`http://127.0.0.1:${server.port}${path}`)
    expect(res.status).toBe(404)
    expect(res.headers.get('content-type')).toBe('application/json')
    expect(await res.json()).toEqual({
      error: { code: 404, message: `GET ${path} is outside the simulated API; it serves /api/v1 and /__sim`, metadata: { reason: 'outside_base_path', method: 'GET', path } },
    })
  })

  it('journals service requests with the operation they name, and reads the Authorization header', async () => {
    await fetch(`${server.url}/keys`, { headers: bearer(world.apiKey) })
    const [entry] = sim.journal.list()
    expect(entry).toMatchObject({ method: 'GET', path: '/keys', operation: 'listKeys', status: 403, principal: { keyHash: world.apiKeyHash } })
  })

  it('answers the rate limiter and faults over HTTP with their status and headers', async () => {
    sim.faults.serviceUnavailable({ operation: 'listVideoModels', once: true, retryAfterSeconds: 7 })
    const faulted = await fetch(`${server.url}/videos/models`)
    expect(faulted.status).toBe(503)
    expect(faulted.headers.get('retry-after')).toBe('7')
    expect((await faulted.json()).error.code).toBe(503)
    expect((await fetch(`${server.url}/videos/models`)).status).toBe(200)
  })

  it('drops the connection for a network-error fault, so the fetch rejects', async () => {
    sim.faults.add({ operation: 'listVideoModels', respond: 'network-error', once: true })
    await expect(fetch(`${server.url}/videos/models`)).rejects.toThrow(TypeError)
    expect(sim.journal.list({ outcome: 'network-error' })).toHaveLength(1)
    expect((await fetch(`${server.url}/videos/models`)).status).toBe(200)
  })

  it('holds a request a never fault answers until the client gives up', async () => {
    sim.faults.add({ operation: 'listVideoModels', respond: 'never', once: true })
    const aborted = fetch(`${server.url}/videos/models`, { signal: AbortSignal.timeout(300) })
    await expect(aborted).rejects.toThrow(/aborted|timeout/i)
    expect((await fetch(`${server.url}/videos/models`)).status).toBe(200)
  })

  it('waits a real latency rule out in wall time, and a simulated one not at all', async () => {
    sim.latency.set({ operation: 'listVideoModels', ms: 400, real: true })
    const started = performance.now()
    const res = await fetch(`${server.url}/videos/models`)
    expect(res.status).toBe(200)
    expect(performance.now() - started).toBeGreaterThanOrEqual(390)
    expect(sim.journal.list()[0]?.delayMs).toBe(400)

    sim.latency.set({ operation: 'listVideoModels', ms: 60_000 })
    const before = sim.clock.nowMs()
    expect((await fetch(`${server.url}/videos/models`)).status).toBe(200)
    expect(sim.clock.nowMs() - before).toBe(60_000)
  })
})

describe('the committed fixtures replayed over HTTP', () => {
  const fixturesDir = resolve(import.meta.dirname, '..', '..', 'fixtures')
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? files(join(dir, entry.name)) : entry.name.endsWith('.json') ? [join(dir, entry.name)] : []))
  const handWritten = new Set<string>(HAND_WRITTEN)
  const fixtures = files(fixturesDir)
    .filter((path) => !handWritten.has(relative(fixturesDir, path).split(sep).join('/')))
    .map((path) => [relative(fixturesDir, path), JSON.parse(readFileSync(path, 'utf8')) as Fixture] as const)

  it('covers every committed fixture file', () => {
    expect(fixtures.length).toBeGreaterThan(100)
  })

  it.each(fixtures)('%s gives the committed status, headers and body', async (_, fixture) => {
    const secret = { management: world.managementKey, regular: world.apiKey, anonymous: null }[fixture.request.auth]
    const query = new URLSearchParams(fixture.request.query).toString()
    const res = await fetch(`${server.url}${fixture.request.path}${query ? `?${query}` : ''}`, { headers: secret === null ? {} : bearer(secret) })
    expect(res.status).toBe(fixture.status)
    for (const [name, value] of Object.entries(fixture.headers)) expect(res.headers.get(name), name).toBe(value)
    const bytes = new Uint8Array(await res.arrayBuffer())
    expect(res.headers.get('content-length')).toBe(String(bytes.byteLength))
    if (fixture.headers['content-type'] === 'application/octet-stream') {
      expect(Buffer.from(bytes).toString('base64')).toBe((fixture.body as { base64: string }).base64)
    } else {
      expect(JSON.parse(new TextDecoder().decode(bytes))).toEqual(fixture.body)
    }
  })
})

describe('startServer options', () => {
  const servers: SimulatorServer[] = []
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()))
  })
  const start = async (...args: Parameters<typeof startServer>): Promise<SimulatorServer> => {
    const started = await startServer(...args)
    servers.push(started)
    return started
  }

  it('serves the operations under another base path, and nothing under the default one', async () => {
    const custom = await start(createSimulator(), { port: 0, basePath: '/openrouter/v2/' })
    expect(custom.url).toBe(`http://127.0.0.1:${custom.port}/openrouter/v2`)
    expect((await fetch(`${custom.url}/videos/models`)).status).toBe(200)
    const outside = await fetch(`http://127.0.0.1:${custom.port}/api/v1/videos/models`)
    expect((await outside.json()).error.metadata.reason).toBe('outside_base_path')
  })

  it('serves the operations at the root with basePath "/"', async () => {
    const root = await start(createSimulator(), { port: 0, basePath: '/' })
    expect(root.url).toBe(`http://127.0.0.1:${root.port}`)
    expect((await fetch(`${root.url}/videos/models`)).status).toBe(200)
    expect((await fetch(`${root.url}/__sim/health`)).status).toBe(200)
  })

  it('answers every /__sim path with 404 when the control API is off', async () => {
    const closed = await start(createSimulator(), { port: 0, control: false })
    for (const [method, path] of [['GET', '/__sim/health'], ['POST', '/__sim/reset'], ['GET', '/__sim/world']] as const) {
      const res = await fetch(`http://127.0.0.1:${closed.port}${path}`, { method })
      expect(res.status, path).toBe(404)
      expect((await res.json()).error.message).toBe(`${method} ${path} is outside the simulated API; it serves /api/v1`)
    }
  })

  it('rejects with a message naming the port when it is in use, and leaves nothing listening', async () => {
    const blocker = createNetServer()
    await new Promise<void>((done) => blocker.listen(0, '127.0.0.1', done))
    const port = (blocker.address() as { port: number }).port
    try {
      const failure = await startServer(createSimulator(), { port }).then(
        () => undefined,
        (error: unknown) => error,
      )
      expect(failure).toBeInstanceOf(Error)
      expect((failure as Error).message).toBe(`Failed to start the server: port ${port} on 127.0.0.1 is already in use (EADDRINUSE).`)
      expect((failure as { code?: string }).code).toBe('EADDRINUSE')
    } finally {
      await new Promise((done) => blocker.close(done))
    }
    // The port is free again: nothing of the failed start holds it.
    const again = await start(createSimulator(), { port })
    expect(again.port).toBe(port)
  })

  it.each([
    ['port', { port: -1 }],
    ['port', { port: 65_536 }],
    ['port', { port: 1.5 }],
    ['port', { port: '4010' }],
    ['host', { host: '' }],
    ['basePath', { basePath: 'api/v1' }],
    ['basePath', { basePath: '/api?v=1' }],
    ['basePath', { basePath: '/__sim' }],
    ['basePath', { basePath: '/__sim/api' }],
    ['control', { control: 'yes' }],
    ['onRequest', { onRequest: 'console.log' }],
    ['options', null],
    // A misspelt option is refused, not dropped: `basepath` would serve the default /api/v1.
    ['basepath', { basePath: '/v1', basepath: '/v1' }],
  ])('refuses a bad %s with a SimulatorError naming it: %j', async (argument, options) => {
    const error = await startServer(createSimulator(), options as never).then(
      () => {
        throw new Error('startServer resolved')
      },
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(SimulatorError)
    expect((error as SimulatorError).argument).toBe(argument)
    expect((error as SimulatorError).message).toMatch(new RegExp(`^Failed to start the server: "${argument}"`))
  })

  it('refuses something that is not a simulator', async () => {
    await expect(startServer({} as never, { port: 0 })).rejects.toMatchObject({ argument: 'sim' })
    expect(simulatorErrorOf(() => createSimulator({ clock: 'wall' as never })).argument).toBe('clock')
  })

  it('tells onRequest about every request: time, method, path, status, operation and milliseconds', async () => {
    const entries: unknown[] = []
    const logged = await start(createSimulator(), { port: 0, onRequest: (entry) => entries.push(entry) })
    await fetch(`${logged.url}/keys?offset=0`)
    await fetch(`${logged.controlUrl}/health`)
    await fetch(`http://127.0.0.1:${logged.port}/elsewhere`)
    expect(entries).toEqual([
      { time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), method: 'GET', path: '/api/v1/keys?offset=0', status: 401, operation: 'listKeys', ms: expect.any(Number) },
      { time: expect.any(String), method: 'GET', path: '/__sim/health', status: 200, operation: 'control', ms: expect.any(Number) },
      { time: expect.any(String), method: 'GET', path: '/elsewhere', status: 404, operation: null, ms: expect.any(Number) },
    ])
  })

  it('closes while a never fault holds a request, and ends that connection', async () => {
    const held = createSimulator()
    held.faults.add({ respond: 'never' })
    const closing = await startServer(held, { port: 0 })
    const pending = fetch(`${closing.url}/videos/models`).then(
      () => 'answered',
      () => 'failed',
    )
    await vi.waitFor(() => expect(held.journal.list()).toHaveLength(1))
    await closing.close()
    expect(await pending).toBe('failed')
    await expect(fetch(`${closing.url}/videos/models`)).rejects.toThrow(TypeError)
    // close() twice is one close.
    await closing.close()
  })

  it('answers 413 to a control body over 64 MiB', async () => {
    const bigSim = createSimulator()
    const big = await start(bigSim, { port: 0 })
    const before = bigSim.files.list().length
    const res = await fetch(`${big.controlUrl}/files`, { method: 'POST', body: new Uint8Array(64 * 1024 * 1024 + 1) })
    expect(res.status).toBe(413)
    expect((await res.json()).error).toMatchObject({ code: 413, metadata: { argument: 'body', limit: 64 * 1024 * 1024 } })
    expect(bigSim.files.list()).toHaveLength(before)
    expect((await fetch(`${big.controlUrl}/health`)).status).toBe(200)
  })
})
