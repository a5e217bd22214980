// What startServer does that mutation testing found unchecked, in process: a stream sent at once
// as one chunk, and a HEAD of it as its head only; a simulator's answer without a `cancel` of its
// own (a wrapper's) still logged when its client leaves; the time logged after a real wait; a
// request outside the API answered without waiting for its body; body-less control requests not
// counted among the bodies read; the 408's own message; the request line of a refusal cut at a bare
// LF; a connection reset mid-request logged by no one; and the messages of listen failures the
// machine cannot be made to cause (a port the process may not bind, a file table full).
import { Server as NetServer, createConnection } from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { type Simulator, createSimulator } from '../../src/index.js'
import type { SimRequest, SimResponse } from '../../src/core/protocol.js'
import { type RequestLogEntry, type SimulatorServer, startServer } from '../../src/server/index.js'
import { useServersAndSockets } from '../support/server.js'

const { servers, sockets } = useServersAndSockets()

/** A server of its own for one test, closed after it, logging into `log`. */
async function serverFor(sim: Simulator<unknown>, options: Parameters<typeof startServer>[1] = {}): Promise<{ server: SimulatorServer; log: RequestLogEntry[] }> {
  const log: RequestLogEntry[] = []
  const server = await startServer(sim, { port: 0, onRequest: (entry) => log.push(entry), ...options })
  servers.add(server)
  return { server, log }
}

/** A simulator of the user's own (a wrapper): it answers every request with `answer`. */
function wrapper(answer: (request: SimRequest) => SimResponse): Simulator<unknown> {
  return { handle: answer } as unknown as Simulator<unknown>
}

const FRAMES = ['data: {"n":1}\n\n', 'data: {"n":2}\n\n', 'data: [DONE]\n\n']
const TEXT = FRAMES.join('')

/** A stream of FRAMES, at once, or with `gapMs` of real time before each frame after the first. */
const stream = (gapMs?: number): SimResponse => ({
  status: 200,
  headers: { 'content-type': 'text/event-stream' },
  type: 'stream',
  body: FRAMES.map((data, i) => ({ data, atMs: i * (gapMs ?? 0) })),
  ...(gapMs === undefined ? {} : { realDelay: true as const }),
})

/** The answer's bytes as text, read until the server closes the socket, `until` holds, or 5 s pass. */
function exchange(port: number, text: string, until: (answer: string) => boolean = () => false): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = createConnection({ host: '127.0.0.1', port }, () => socket.write(text))
    sockets.add(socket)
    let answer = ''
    socket.setEncoding('latin1').on('data', (chunk: string) => {
      answer += chunk
      if (until(answer)) resolve(answer)
    })
    socket.on('close', () => resolve(answer))
    socket.on('error', reject)
    socket.setTimeout(5_000, () => socket.destroy())
  })
}

function parse(answer: string): { statusLine: string; headers: Record<string, string>; body: string } {
  const split = answer.indexOf('\r\n\r\n')
  const [statusLine = '', ...lines] = answer.slice(0, split).split('\r\n')
  const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]))
  return { statusLine, headers, body: answer.slice(split + 4) }
}

const headEnded = (answer: string): boolean => answer.includes('\r\n\r\n')

/** Waits until `log` has `count` lines (or 5 s pass). */
async function logged(log: RequestLogEntry[], count: number): Promise<void> {
  for (let waited = 0; log.length < count && waited < 5_000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10))
}

describe('a stream answer', () => {
  it('without a real wait goes out as one chunk of all its frames', async () => {
    const { server } = await serverFor(wrapper(() => stream()), { control: false })
    const { statusLine, headers, body } = parse(await exchange(server.port, 'GET /api/v1/anything HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n'))
    expect(statusLine).toBe('HTTP/1.1 200 OK')
    expect(headers['transfer-encoding']).toBe('chunked')
    expect(body).toBe(`${Buffer.byteLength(TEXT).toString(16)}\r\n${TEXT}\r\n0\r\n\r\n`)
  })

  it('to a HEAD is the head a GET gets, with the length of the frames, and no body', async () => {
    const { server, log } = await serverFor(wrapper(() => stream()), { control: false })
    const { statusLine, headers, body } = parse(await exchange(server.port, 'HEAD /api/v1/anything HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n'))
    expect(statusLine).toBe('HTTP/1.1 200 OK')
    expect(headers['content-length']).toBe(String(Buffer.byteLength(TEXT)))
    expect(headers['transfer-encoding']).toBeUndefined()
    expect(body).toBe('')
    await logged(log, 1)
    expect(log.map(({ method, status }) => ({ method, status }))).toEqual([{ method: 'HEAD', status: 200 }])
  })
})

describe("an answer without a cancel of its own (a wrapper simulator's), whose client leaves", () => {
  it('during a paced stream: logged with status 0', async () => {
    const { server, log } = await serverFor(wrapper(() => stream(3_000)), { control: false })
    // The head and the first frame, then the client goes during the wait for the second.
    await exchange(server.port, 'GET /api/v1/anything HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n', (answer) => answer.includes('"n":1'))
    for (const socket of sockets) socket.destroy()
    await logged(log, 1)
    expect(log.map(({ path, status }) => ({ path, status }))).toEqual([{ path: '/api/v1/anything', status: 0 }])
  })

  it('during the real wait before a JSON answer: logged with status 0', async () => {
    const answer: SimResponse = { status: 200, headers: { 'content-type': 'application/json' }, type: 'json', body: { ok: true }, delayMs: 3_000, realDelay: true }
    const { server, log } = await serverFor(wrapper(() => answer), { control: false })
    const socket = createConnection({ host: '127.0.0.1', port: server.port }, () => socket.write('GET /api/v1/anything HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n'))
    sockets.add(socket)
    socket.on('error', () => {})
    await new Promise((resolve) => setTimeout(resolve, 150))
    socket.destroy()
    await logged(log, 1)
    expect(log.map(({ path, status }) => ({ path, status }))).toEqual([{ path: '/api/v1/anything', status: 0 }])
  })
})

it('the time logged for an answer after a real wait of 80 ms: at least those 80 ms, in milliseconds to one decimal', async () => {
  const answer: SimResponse = { status: 200, headers: { 'content-type': 'application/json' }, type: 'json', body: { ok: true }, delayMs: 80, realDelay: true }
  const { server, log } = await serverFor(wrapper(() => answer), { control: false })
  expect((await fetch(`${server.url}/anything`)).status).toBe(200)
  await logged(log, 1)
  const ms = log[0]?.ms ?? Number.NaN
  expect(ms).toBeGreaterThanOrEqual(79)
  expect(ms).toBeLessThan(4_000)
  expect(Math.round(ms * 10)).toBeCloseTo(ms * 10, 6)
})

describe('a request whose body has not all arrived', () => {
  it('outside the API: answered 404 at once, its body not waited for', async () => {
    const { server } = await serverFor(createSimulator())
    const started = performance.now()
    const answer = await exchange(server.port, 'POST /elsewhere HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{"a":', headEnded)
    expect(parse(answer).statusLine).toBe('HTTP/1.1 404 Not Found')
    expect(performance.now() - started).toBeLessThan(4_000)
  })

  it('a GET under the API: answered at once, its body not waited for', async () => {
    const { server } = await serverFor(createSimulator())
    const answer = await exchange(server.port, 'GET /api/v1/videos/models HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-length: 1000\r\n\r\n{"a":', headEnded)
    expect(parse(answer).statusLine).toBe('HTTP/1.1 200 OK')
  })
})

it('control requests without a body are not counted among the bodies read at once: after three of them, four stalled bodies still make a fifth a 503', async () => {
  const { server } = await serverFor(createSimulator())
  for (let i = 0; i < 3; i++) expect((await fetch(`${server.controlUrl}/health`)).status).toBe(200)
  for (let i = 0; i < 4; i++) {
    const socket = createConnection({ host: '127.0.0.1', port: server.port })
    sockets.add(socket)
    socket.on('error', () => {})
    socket.write('POST /__sim/users HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{"name":')
  }
  await new Promise((resolve) => setTimeout(resolve, 300))
  const fifth = await fetch(`${server.controlUrl}/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Fifth' }) })
  expect(fifth.status).toBe(503)
})

describe('what the parser refuses', () => {
  it('an Expect other than 100-continue on a HEAD: the 417 head without a body, logged as a HEAD', async () => {
    const { server, log } = await serverFor(createSimulator())
    const { statusLine, headers, body } = parse(await exchange(server.port, 'HEAD /api/v1/videos/models HTTP/1.1\r\nhost: 127.0.0.1\r\nexpect: 200-ok\r\n\r\n'))
    expect(statusLine).toBe('HTTP/1.1 417 Expectation Failed')
    expect(headers.connection).toBe('close')
    expect(body).toBe('')
    await logged(log, 1)
    expect(log.map(({ method, path, status }) => ({ method, path, status }))).toEqual([{ method: 'HEAD', path: '/api/v1/videos/models', status: 417 }])
  })

  it('headers that do not arrive in time: 408 "Request timeout"', async () => {
    const { server } = await serverFor(createSimulator(), { headersTimeoutMs: 200 })
    const { statusLine, body } = parse(await exchange(server.port, 'GET /api/v1/keys HTTP/1.1\r\nhost: 127.0.0.1\r\n'))
    expect(statusLine).toBe('HTTP/1.1 408 Request Timeout')
    expect(JSON.parse(body).error).toEqual({ code: 408, message: 'Request timeout', metadata: { reason: 'ERR_HTTP_REQUEST_TIMEOUT' } })
  })

  it('a request line ended by a bare LF: logged with the target alone', async () => {
    const { server, log } = await serverFor(createSimulator())
    await exchange(server.port, 'BREW /pot\nhost: 127.0.0.1\n\n')
    await logged(log, 1)
    expect(log.map(({ method, path, status }) => ({ method, path, status }))).toEqual([{ method: 'BREW', path: '/pot', status: 400 }])
  })

  it('a connection reset in the middle of its headers: nothing to answer, and no log line', async () => {
    const { server, log } = await serverFor(createSimulator())
    const socket = createConnection({ host: '127.0.0.1', port: server.port })
    sockets.add(socket)
    socket.on('error', () => {})
    await new Promise<void>((connected) => socket.once('connect', () => connected()))
    await new Promise<void>((written) => socket.write('GET /api/v1/videos/models HTTP/1.1\r\nhost: 127.0.0.1\r\nx-half', () => written()))
    await new Promise((resolve) => setTimeout(resolve, 50))
    socket.resetAndDestroy()
    await new Promise((resolve) => setTimeout(resolve, 200))
    // A request after it is logged, and is the only line.
    expect((await fetch(`${server.url}/videos/models`)).status).toBe(200)
    await logged(log, 1)
    expect(log.map(({ path, status }) => ({ path, status }))).toEqual([{ path: '/api/v1/videos/models', status: 200 }])
  })
})

describe('a listen failure no test machine causes for real', () => {
  let failWith: (NodeJS.ErrnoException & Error) | undefined
  beforeAll(() => {
    const listen = NetServer.prototype.listen
    vi.spyOn(NetServer.prototype, 'listen').mockImplementation(function (this: NetServer, ...args: unknown[]) {
      const error = failWith
      if (error === undefined) return listen.apply(this, args as Parameters<typeof listen>)
      process.nextTick(() => this.emit('error', error))
      return this
    })
  })
  afterEach(() => {
    failWith = undefined
  })
  afterAll(() => vi.restoreAllMocks())

  const failure = async (error: Error & { code?: string }): Promise<Error & { code?: string; cause?: unknown }> => {
    failWith = error
    return startServer(createSimulator(), { port: 4321 }).then(
      async (started) => {
        await started.close()
        throw new Error('it listened')
      },
      (refusal: Error & { code?: string }) => refusal,
    )
  }

  it('a port the process may not bind (EACCES): no permission, naming the port and the host', async () => {
    const cause = Object.assign(new Error('listen EACCES: permission denied 127.0.0.1:4321'), { code: 'EACCES' })
    const error = await failure(cause)
    expect([error.message, error.code, error.cause]).toEqual(['Failed to start the server: no permission to listen on port 4321 on 127.0.0.1 (EACCES).', 'EACCES', cause])
  })

  it("any other failure: node's own message and code", async () => {
    const error = await failure(Object.assign(new Error('listen EMFILE: too many open files'), { code: 'EMFILE' }))
    expect([error.message, error.code]).toEqual(['Failed to start the server: listen EMFILE: too many open files (EMFILE).', 'EMFILE'])
  })

  it('a failure without a code: "error" in its place', async () => {
    const error = await failure(new Error('something broke'))
    expect([error.message, error.code]).toEqual(['Failed to start the server: something broke (error).', undefined])
  })
})

// Each on a server started inside the test, so the test that reaches the start-up code checks it.
describe('on a server of its own', () => {
  it('a path outside the API: a 404 naming both bases', async () => {
    const { server } = await serverFor(createSimulator())
    const res = await fetch(`${server.url.slice(0, -'/api/v1'.length)}/nowhere`)
    expect(res.status).toBe(404)
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe('GET /nowhere is outside the simulated API; it serves /api/v1 and /__sim')
  })

  it('an HTTP/1.1 request without Host: the envelope naming the header', async () => {
    const { server } = await serverFor(createSimulator())
    const { statusLine, body } = parse(await exchange(server.port, 'GET /api/v1/videos/models HTTP/1.1\r\n\r\n'))
    expect(statusLine).toBe('HTTP/1.1 400 Bad Request')
    expect(JSON.parse(body).error).toEqual({ code: 400, message: 'An HTTP/1.1 request must carry a Host header', metadata: { reason: 'missing_host' } })
  })

  it('CONNECT: the 405 envelope, logged with its target', async () => {
    const { server, log } = await serverFor(createSimulator())
    const { statusLine, body } = parse(await exchange(server.port, 'CONNECT example.com:443 HTTP/1.1\r\nhost: example.com:443\r\n\r\n'))
    expect(statusLine).toBe('HTTP/1.1 405 Method Not Allowed')
    expect(JSON.parse(body).error.metadata).toEqual({ reason: 'connect_not_supported' })
    await logged(log, 1)
    expect(log.map(({ method, path, status }) => ({ method, path, status }))).toEqual([{ method: 'CONNECT', path: 'example.com:443', status: 405 }])
  })

  it('a malformed HEAD: the 400 head, and no body', async () => {
    const { server } = await serverFor(createSimulator())
    const { statusLine, headers, body } = parse(await exchange(server.port, 'HEAD /api/v1/keys HTTP/1.1\r\nhost: 127.0.0.1\r\nno colon here\r\n\r\n'))
    expect(statusLine).toBe('HTTP/1.1 400 Bad Request')
    expect(Number(headers['content-length'])).toBeGreaterThan(0)
    expect(body).toBe('')
  })

  it('something that is not a simulator is refused', async () => {
    await expect(startServer(null as unknown as Simulator<unknown>, { port: 0 })).rejects.toThrow('Failed to start the server: "sim" must be a simulator (createSimulator()).')
  })
})
