// An answer in parts (the journal) over a real socket, as a client reads it: one that reads it all
// gets it without the server piling up listeners on the response, one that stops reading and leaves
// is logged 0 (the server waited for it and saw it go), not as answered. In process, so that
// mutation testing reaches the wait between batches.
import { createConnection, type Socket } from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { type RequestLogEntry, type SimulatorServer, startServer } from '../../src/server/index.js'

const MIB = 1024 * 1024
const sim = createSimulator()
const log: RequestLogEntry[] = []
let server: SimulatorServer
const sockets = new Set<Socket>()

beforeAll(async () => {
  server = await startServer(sim, { port: 0, onRequest: (entry) => log.push(entry) })
})
afterEach(() => {
  for (const socket of sockets) socket.destroy()
  sockets.clear()
  log.length = 0
  sim.reset()
})
afterAll(() => server.close())

/** Journals `downloads` downloads of a file of `mib` MiB: each is in the journal as base64. */
function journalDownloads(mib: number, downloads: number): void {
  const bytes = new Uint8Array(mib * MIB)
  for (let i = 0; i < bytes.length; i += 4096) bytes[i] = i & 255
  sim.files.create({ userId: sim.world.userId, id: 'file_big', origin: 'server', bytes })
  for (let i = 0; i < downloads; i++) {
    const response = sim.handle({ method: 'GET', path: '/files/file_big/content', query: new URLSearchParams(), authorization: `Bearer ${sim.world.managementKey}` })
    expect(response.status).toBe(200)
  }
}

describe('the journal written in batches', () => {
  it('a client that reads it all gets every entry, and the server leaves no listener behind on the response', { timeout: 30_000 }, async () => {
    journalDownloads(1, 4)
    const warnings: Error[] = []
    const onWarning = (warning: Error): void => void warnings.push(warning)
    process.on('warning', onWarning)
    try {
      const res = await fetch(`${server.controlUrl}/journal`)
      expect(res.status).toBe(200)
      const body = (await res.json()) as { data: { response: { body: string } }[] }
      expect(body.data).toHaveLength(4)
      expect(body.data.every((entry) => Buffer.from(entry.response.body, 'base64').byteLength === MIB)).toBe(true)
      await new Promise((wait) => setImmediate(wait))
      expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning' && warning.message.includes('[ServerResponse]')).map(String)).toEqual([])
    } finally {
      process.off('warning', onWarning)
    }
  })

  it('a client that stops reading a large journal and leaves is logged 0, not as answered', { timeout: 30_000 }, async () => {
    journalDownloads(4, 8)
    const socket = createConnection({ host: '127.0.0.1', port: server.port })
    sockets.add(socket)
    socket.on('error', () => {})
    socket.pause()
    socket.write('GET /__sim/journal HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n')
    await new Promise((wait) => setTimeout(wait, 1_000))
    expect(log.filter((entry) => entry.path === '/__sim/journal')).toEqual([])
    socket.destroy()
    await expect.poll(() => log.filter((entry) => entry.path === '/__sim/journal').map((entry) => entry.status), { timeout: 5_000 }).toEqual([0])
  })
})
