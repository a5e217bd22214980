// startServer's option checks at their edges, request targets that are neither a path nor an http
// URL, and the bounds of the bodies the server reads (a service body one byte past the core's cap,
// a control body exactly at the control API's), each checked in process so that mutation testing
// reaches them.
import { createConnection, type Socket } from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createSimulator, SimulatorError } from '../../src/index.js'
import { MAX_BODY_BYTES as MAX_SERVICE_BODY_BYTES } from '../../src/core/body.js'
import { type SimulatorServer, type StartServerOptions, startServer } from '../../src/server/index.js'

const MIB = 1024 * 1024
const sim = createSimulator()
let server: SimulatorServer
const sockets = new Set<Socket>()

beforeAll(async () => {
  server = await startServer(sim, { port: 0 })
})
afterEach(() => {
  for (const socket of sockets) socket.destroy()
  sockets.clear()
  sim.reset()
})
afterAll(() => server.close())

/** The answer's bytes as text, read until the server closes the socket (or 10 s pass). */
function exchange(text: string | Buffer[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = createConnection({ host: '127.0.0.1', port: server.port }, () => {
      for (const part of typeof text === 'string' ? [text] : text) socket.write(part)
    })
    sockets.add(socket)
    let answer = ''
    socket.setEncoding('latin1').on('data', (chunk: string) => (answer += chunk))
    socket.on('close', () => resolve(answer))
    socket.on('error', reject)
    socket.setTimeout(10_000, () => socket.destroy())
  })
}

function parse(answer: string): { statusLine: string; body: any } {
  const split = answer.indexOf('\r\n\r\n')
  return { statusLine: answer.slice(0, answer.indexOf('\r\n')), body: JSON.parse(answer.slice(split + 4)) }
}

async function refusal(options: unknown): Promise<SimulatorError> {
  const error = await startServer(createSimulator(), options as StartServerOptions).then(
    async (started) => {
      await started.close()
      return new Error(`startServer took ${String(options)}`)
    },
    (caught: unknown) => caught,
  )
  expect(error).toBeInstanceOf(SimulatorError)
  return error as SimulatorError
}

describe('startServer options', () => {
  it.each([[5], ['fast'], [() => ({ port: 0 })]])('options that are not an object (%s) are refused as such', async (options) => {
    const error = await refusal(options)
    expect([error.argument, error.message]).toEqual(['options', 'Failed to start the server: "options" must be an options object.'])
  })

  it.each([['a token 0123456789abcdef'], ['0123456789abcdef with spaces after it']])('a controlToken with a space anywhere is refused: %j', async (controlToken) => {
    const error = await refusal({ port: 0, controlToken })
    expect(error.argument).toBe('controlToken')
  })

  it('takes port 65535, the last there is (or fails only because something else holds it)', async () => {
    const outcome = await startServer(createSimulator(), { port: 65_535 }).then(
      async (started) => {
        await started.close()
        return started.port
      },
      (error: unknown) => error,
    )
    if (typeof outcome === 'number') expect(outcome).toBe(65_535)
    else expect(outcome).toMatchObject({ code: 'EADDRINUSE' })
  })
})

describe('a request target that is neither a path nor an http URL', () => {
  it('an absolute URL of another scheme is read as a path below the root, not as the URL it names', async () => {
    const { statusLine, body } = parse(await exchange('GET ftp://127.0.0.1/api/v1/videos/models HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n'))
    expect(statusLine).toBe('HTTP/1.1 404 Not Found')
    expect(body.error.metadata).toEqual({ reason: 'outside_base_path', method: 'GET', path: '/ftp://127.0.0.1/api/v1/videos/models' })
  })

  it('an http URL only in the query of another scheme does not make the target absolute', async () => {
    const { statusLine, body } = parse(await exchange('GET foo://x/api/v1/videos/models?next=http://y HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n'))
    expect(statusLine).toBe('HTTP/1.1 404 Not Found')
    expect(body.error.metadata.path).toBe('/foo://x/api/v1/videos/models')
  })

  it('OPTIONS * is the path /*', async () => {
    const { statusLine, body } = parse(await exchange('OPTIONS * HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n'))
    expect(statusLine).toBe('HTTP/1.1 404 Not Found')
    expect(body.error).toEqual({
      code: 404,
      message: 'OPTIONS /* is outside the simulated API; it serves /api/v1 and /__sim',
      metadata: { reason: 'outside_base_path', method: 'OPTIONS', path: '/*' },
    })
  })
})

describe('the service body the server hands to the core', () => {
  const head = (length: number): string =>
    `POST /api/v1/keys HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${sim.world.managementKey}\r\ncontent-type: application/json\r\ncontent-length: ${length}\r\nconnection: close\r\n\r\n`

  it('a body one byte over the cap is answered 413', async () => {
    const { statusLine, body } = parse(await exchange([Buffer.from(head(MAX_SERVICE_BODY_BYTES + 1)), Buffer.alloc(MAX_SERVICE_BODY_BYTES + 1, 0x20)]))
    expect(statusLine).toBe('HTTP/1.1 413 Payload Too Large')
    expect(body.error.code).toBe(413)
  })

  it('a chunked body whose first chunk fills the cap is answered 413, and only one byte of its second chunk is kept (the journal counts what was read)', async () => {
    const chunked = `POST /api/v1/keys HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${sim.world.managementKey}\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\nconnection: close\r\n\r\n`
    const { statusLine } = parse(
      await exchange([
        Buffer.from(`${chunked}${MAX_SERVICE_BODY_BYTES.toString(16)}\r\n`),
        Buffer.alloc(MAX_SERVICE_BODY_BYTES, 0x20),
        Buffer.from('\r\na\r\n          \r\n0\r\n\r\n'),
      ]),
    )
    expect(statusLine).toBe('HTTP/1.1 413 Payload Too Large')
    const [entry] = sim.journal.list()
    expect([entry?.status, entry?.requestBodyBytes, entry?.requestBodyTruncated]).toEqual([413, MAX_SERVICE_BODY_BYTES + 1, true])
  })

  it('an empty body is journaled as no body at all', async () => {
    const { statusLine } = parse(await exchange(head(0)))
    expect(statusLine).toMatch(/^HTTP\/1\.1 400 /)
    const [entry] = sim.journal.list()
    expect([entry?.requestBody, entry?.requestBodyBytes]).toEqual([null, null])
  })
})

describe('the control body', () => {
  it('a body of exactly 64 MiB is read whole', { timeout: 60_000 }, async () => {
    const json = JSON.stringify({ name: 'Exactly at the cap' })
    const size = 64 * MIB
    const text = `POST /__sim/users HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: ${size}\r\nconnection: close\r\n\r\n`
    const { statusLine, body } = parse(await exchange([Buffer.from(text), Buffer.alloc(size - json.length, 0x20), Buffer.from(json)]))
    expect(statusLine).toBe('HTTP/1.1 201 Created')
    expect(body.name).toBe('Exactly at the cap')
  })

  it('chunked bodies count among the four read at once: a fifth control body gets a 503', async () => {
    for (let i = 0; i < 4; i++) {
      const socket = createConnection({ host: '127.0.0.1', port: server.port })
      sockets.add(socket)
      socket.pause()
      socket.on('error', () => {})
      socket.write('POST /__sim/users HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n8\r\n{"name":\r\n')
    }
    await new Promise((wait) => setTimeout(wait, 300))
    const busy = await fetch(`${server.controlUrl}/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Fifth' }) })
    expect(busy.status).toBe(503)
    expect((await busy.json()).error.metadata).toEqual({ reason: 'control_bodies_busy', limit: 4 })
  })
})
