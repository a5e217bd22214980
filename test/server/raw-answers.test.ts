// What the server writes straight to a socket (no request object exists: CONNECT, what node's
// parser refuses) byte for byte: the status line with its reason phrase, every header, the close,
// a body whose length the header gives, none for HEAD; and the URL a server reports for a
// wildcard or IPv6 bind. In process, so that mutation testing reaches it.
import { createConnection } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { type SimulatorServer, startServer } from '../../src/server/index.js'

let server: SimulatorServer

beforeAll(async () => {
  server = await startServer(createSimulator(), { port: 0 })
})
afterAll(() => server.close())

/** The answer's bytes as text, read until the server closes the socket (or 5 s pass). */
function exchangeWith(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = createConnection({ host: '127.0.0.1', port }, () => socket.write(text))
    let answer = ''
    socket.setEncoding('latin1').on('data', (chunk: string) => (answer += chunk))
    socket.on('close', () => resolve(answer))
    socket.on('error', reject)
    socket.setTimeout(5_000, () => socket.destroy())
  })
}

const exchange = (text: string): Promise<string> => exchangeWith(server.port, text)

function parse(answer: string): { statusLine: string; headers: Record<string, string>; body: string } {
  const split = answer.indexOf('\r\n\r\n')
  const [statusLine = '', ...lines] = answer.slice(0, split).split('\r\n')
  const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]))
  return { statusLine, headers, body: answer.slice(split + 4) }
}

describe('an answer written to the socket', () => {
  it('CONNECT: the status line with its reason, JSON headers, a close, and the envelope whose length is given', async () => {
    const { statusLine, headers, body } = parse(await exchange('CONNECT example.com:443 HTTP/1.1\r\nhost: example.com:443\r\n\r\n'))
    expect(statusLine).toBe('HTTP/1.1 405 Method Not Allowed')
    expect(headers.connection).toBe('close')
    expect(headers['content-type']).toMatch(/^application\/json/)
    expect(Number(headers['content-length'])).toBe(Buffer.byteLength(body))
    expect(JSON.parse(body)).toEqual({
      error: { code: 405, message: 'CONNECT is not supported: this is not a proxy', metadata: { reason: 'connect_not_supported' } },
    })
  })

  it('a header block over the limit: 431 with its own message', async () => {
    const { statusLine, headers, body } = parse(await exchange(`GET /api/v1/keys HTTP/1.1\r\nhost: 127.0.0.1\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`))
    expect(statusLine).toBe('HTTP/1.1 431 Request Header Fields Too Large')
    expect(headers.connection).toBe('close')
    expect(JSON.parse(body).error).toEqual({ code: 431, message: 'Request header fields too large', metadata: { reason: 'HPE_HEADER_OVERFLOW' } })
  })

  it('a malformed request: 400 "Malformed HTTP request"; for HEAD, the same head and no body', async () => {
    const get = parse(await exchange('GET /api/v1/keys HTTP/1.1\r\nhost: 127.0.0.1\r\nno colon here\r\n\r\n'))
    expect(get.statusLine).toBe('HTTP/1.1 400 Bad Request')
    expect(JSON.parse(get.body).error).toMatchObject({ code: 400, message: 'Malformed HTTP request' })
    const head = parse(await exchange('HEAD /api/v1/keys HTTP/1.1\r\nhost: 127.0.0.1\r\nno colon here\r\n\r\n'))
    expect(head.statusLine).toBe('HTTP/1.1 400 Bad Request')
    expect(head.headers.connection).toBe('close')
    expect(head.body).toBe('')
  })
})

describe('answers that close the connection', () => {
  it('an HTTP/1.1 request without Host: 400 naming the header, then the close', async () => {
    const { statusLine, headers, body } = parse(await exchange('GET /api/v1/videos/models HTTP/1.1\r\n\r\n'))
    expect(statusLine).toBe('HTTP/1.1 400 Bad Request')
    expect(headers.connection).toBe('close')
    expect(JSON.parse(body).error).toEqual({ code: 400, message: 'An HTTP/1.1 request must carry a Host header', metadata: { reason: 'missing_host' } })
  })

  it('a control request the gate refuses (a Host that is not this server): refused, then the close', async () => {
    const { statusLine, headers } = parse(await exchange('GET /__sim/health HTTP/1.1\r\nhost: evil.example\r\n\r\n'))
    expect(statusLine).toMatch(/^HTTP\/1\.1 4\d\d /)
    expect(headers.connection).toBe('close')
  })
})

describe('the URL of a server', () => {
  it.each([
    ['0.0.0.0', '127.0.0.1'],
    ['::', '[::1]'],
    ['::1', '[::1]'],
    ['localhost', 'localhost'],
  ])('bound to %s is reached at %s', async (host, reached) => {
    // A wildcard bind without a control token turns the control API off, and says so in a warning.
    const started = await startServer(createSimulator(), { port: 0, host, control: false })
    try {
      expect(started.url).toBe(`http://${reached}:${started.port}/api/v1`)
      expect(started.controlUrl).toBe(`http://${reached}:${started.port}/__sim`)
      expect((await fetch(`${started.url}/videos/models`)).status).toBe(200)
    } finally {
      await started.close()
    }
  })
})

describe('what the parser refuses, as the log records it', () => {
  const entries: { method: string; path: string; status: number }[] = []
  let logging: SimulatorServer
  beforeAll(async () => {
    logging = await startServer(createSimulator(), { port: 0, onRequest: ({ method, path, status }) => entries.push({ method, path, status }) })
  })
  afterAll(() => logging.close())

  const send = (text: string): Promise<string> => exchangeWith(logging.port, text)

  it('a method of capitals only is logged as sent; anything else as "-"', async () => {
    entries.length = 0
    for (const method of ['BREW', 'BREW1', '1BREW', 'brew']) await send(`${method} /pot HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n`)
    expect(entries).toEqual([
      { method: 'BREW', path: '/pot', status: 400 },
      { method: '-', path: '/pot', status: 400 },
      { method: '-', path: '/pot', status: 400 },
      { method: '-', path: '/pot', status: 400 },
    ])
  })

  it('an Expect other than 100-continue: 417 naming it, the close, and the log line', async () => {
    entries.length = 0
    const { statusLine, headers, body } = parse(await send('GET /api/v1/videos/models HTTP/1.1\r\nhost: 127.0.0.1\r\nexpect: 200-ok\r\n\r\n'))
    expect(statusLine).toBe('HTTP/1.1 417 Expectation Failed')
    expect(headers.connection).toBe('close')
    expect(JSON.parse(body).error).toEqual({ code: 417, message: 'Expectation "200-ok" is not supported; only 100-continue is', metadata: { reason: 'unsupported_expectation' } })
    expect(entries).toEqual([{ method: 'GET', path: '/api/v1/videos/models', status: 417 }])
  })

  it('CONNECT is logged with its target', async () => {
    entries.length = 0
    await send('CONNECT example.com:443 HTTP/1.1\r\nhost: example.com:443\r\n\r\n')
    expect(entries).toEqual([{ method: 'CONNECT', path: 'example.com:443', status: 405 }])
  })
})

describe('a server that cannot listen', () => {
  const failure = (options: Parameters<typeof startServer>[1]): Promise<Error & { code?: string }> =>
    startServer(createSimulator(), options).then(
      async (started) => {
        await started.close()
        throw new Error('it listened')
      },
      (error: Error & { code?: string }) => error,
    )

  it.each([
    ['10.255.255.1', 'EADDRNOTAVAIL'],
    ['no-such-host.invalid', 'ENOTFOUND'],
  ])('on %s: an address of no interface here (%s)', async (host, code) => {
    const error = await failure({ port: 0, host, control: false })
    expect([error.message, error.code]).toEqual([`Failed to start the server: ${host} is not an address of this machine (${code}).`, code])
  })

  it('on a port in use, naming the port and the host', async () => {
    const first = await startServer(createSimulator(), { port: 0 })
    try {
      const error = await failure({ port: first.port })
      expect([error.message, error.code]).toEqual([`Failed to start the server: port ${first.port} on 127.0.0.1 is already in use (EADDRINUSE).`, 'EADDRINUSE'])
    } finally {
      await first.close()
    }
  })
})
