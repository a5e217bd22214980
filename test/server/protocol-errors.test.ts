// What node's HTTP layer used to answer by itself (a bare 400 for a missing Host, a bare 417 for an
// unknown Expect, a silent close for CONNECT) now gets the JSON error envelope and a log line.
import { createConnection } from 'node:net'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { type RequestLogEntry, type SimulatorServer, startServer } from '../../src/server/index.js'

const log: RequestLogEntry[] = []
let server: SimulatorServer

beforeAll(async () => {
  server = await startServer(createSimulator(), { port: 0, onRequest: (entry) => log.push(entry) })
})
beforeEach(() => {
  log.length = 0
})
afterAll(() => server.close())

interface Raw {
  status: number
  headers: string
  body: any
}

/** Sends bytes as written on a fresh socket and reads until the server closes it (or 5 s pass). */
function raw(text: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const socket = createConnection({ host: '127.0.0.1', port: server.port }, () => socket.write(text))
    let answer = ''
    socket.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk))
    socket.on('close', () => {
      const split = answer.indexOf('\r\n\r\n')
      const body = answer.slice(split + 4)
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3}) /.exec(answer)?.[1] ?? 0), headers: answer.slice(0, split), body: body === '' ? undefined : (JSON.parse(body) as unknown) })
    })
    socket.on('error', reject)
    socket.setTimeout(5_000, () => socket.destroy())
  })
}

const logged = (): Pick<RequestLogEntry, 'method' | 'path' | 'status' | 'operation'>[] => log.map(({ method, path, status, operation }) => ({ method, path, status, operation }))

describe('refusals below the API', () => {
  it('answers an HTTP/1.1 request without Host with a 400 envelope naming the header, and logs it', async () => {
    const answer = await raw('GET /api/v1/videos/models HTTP/1.1\r\n\r\n')
    expect(answer.status).toBe(400)
    expect(answer.headers).toMatch(/content-type: application\/json/i)
    expect(answer.body.error).toMatchObject({ code: 400, metadata: { reason: 'missing_host' } })
    expect(logged()).toEqual([{ method: 'GET', path: '/api/v1/videos/models', status: 400, operation: null }])
    // HTTP/1.0 has no Host to require.
    expect((await raw('GET /api/v1/videos/models HTTP/1.0\r\n\r\n')).status).toBe(200)
  })

  it('answers an Expect other than 100-continue with a 417 envelope, and logs it', async () => {
    const answer = await raw('GET /api/v1/videos/models HTTP/1.1\r\nhost: 127.0.0.1\r\nexpect: 200-ok\r\n\r\n')
    expect(answer.status).toBe(417)
    expect(answer.body.error).toMatchObject({ code: 417, metadata: { reason: 'unsupported_expectation' } })
    expect(logged()).toEqual([{ method: 'GET', path: '/api/v1/videos/models', status: 417, operation: null }])
  })

  it('answers CONNECT with a 405 envelope instead of a silent close, and logs it', async () => {
    const answer = await raw('CONNECT example.com:443 HTTP/1.1\r\nhost: example.com:443\r\n\r\n')
    expect(answer.status).toBe(405)
    expect(answer.body.error).toMatchObject({ code: 405, metadata: { reason: 'connect_not_supported' } })
    expect(logged()).toEqual([{ method: 'CONNECT', path: 'example.com:443', status: 405, operation: null }])
  })

  it('logs what the parser refuses: an unknown method, a header block over the limit', async () => {
    const unknown = await raw('BREW /pot HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n')
    expect(unknown.status).toBe(400)
    expect(unknown.body.error.metadata.reason).toBe('HPE_INVALID_METHOD')
    const huge = await raw(`GET /api/v1/keys HTTP/1.1\r\nhost: 127.0.0.1\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`)
    expect(huge.status).toBe(431)
    expect(logged()).toEqual([
      { method: 'BREW', path: '/pot', status: 400, operation: null },
      { method: 'GET', path: '/api/v1/keys', status: 431, operation: null },
    ])
  })
})
