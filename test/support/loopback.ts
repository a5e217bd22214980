import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll } from 'vitest'

/**
 * A real HTTP server on loopback for the test file, answering every request with `text`: what a
 * request that an MSW set-up lets through reaches. Its URL (ending in `/`) is read once it is up.
 */
export function useLoopbackServer(text: string): { readonly url: string } {
  let local: Server | undefined
  let url = ''
  beforeAll(async () => {
    const server = createServer((_req, res) => res.end(text))
    local = server
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
  })
  afterAll(() => new Promise<void>((done) => (local === undefined ? done() : local.close(() => done()))))
  return {
    get url() {
      return url
    },
  }
}
