// Streamed completions over the HTTP server: frames written one by one on a real socket.
import { afterEach, describe, expect, it } from 'vitest'
import { startServer, type SimulatorServer } from '../../src/server/index.js'
import { body, checkEvents, streamingWorld } from '../inference/stream-support.js'

describe('streamed completions', () => {
  describe('over the HTTP server', () => {
    let server: SimulatorServer | undefined
    afterEach(async () => {
      await server?.close()
      server = undefined
    })

    it('are written frame by frame on a real socket', async () => {
      const { sim, key } = streamingWorld()
      server = await startServer(sim, { port: 0, control: false })
      const res = await fetch(`${server.url}/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body })
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe('text/event-stream')
      expect(res.headers.get('content-length')).toBeNull()
      checkEvents(await res.text())
    })
  })

})
