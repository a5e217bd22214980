import { request as httpRequest } from 'node:http'
import { Server as NetServer, type Socket } from 'node:net'
import { OpenRouter } from '@openrouter/sdk'
import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, beforeEach, vi } from 'vitest'
import { SimulatorError, type Simulator } from '../../src/index.js'
import { createHandlers, forwardStreamCancels } from '../../src/msw/index.js'
import { type SimulatorServer, startServer } from '../../src/server/index.js'

export const BASE = 'https://openrouter.ai/api/v1'

/** The official SDK against the simulator: no retries, and no key at all when none is given (anonymous). */
export function sdkClient(apiKey?: string, serverURL: string = BASE): OpenRouter {
  return new OpenRouter({ serverURL, retryConfig: { strategy: 'none' }, ...(apiKey === undefined ? {} : { apiKey }) })
}

/**
 * One MSW server per test file, serving whichever simulator the test points it at. Unhandled
 * requests fail the test, so nothing reaches the real network.
 */
export function useSimulatorServer(): { serve(sim: Simulator<unknown>, baseUrl?: string): void } {
  const server = setupServer()
  // A client that cancels a stream reaches the simulator, as through the vitest fixture.
  forwardStreamCancels(server)
  beforeAll(() => {
    // The official SDK falls back to these when an option is absent; tests pass both explicitly.
    vi.stubEnv('OPENROUTER_API_KEY', undefined)
    vi.stubEnv('OPENROUTER_BASE_URL', undefined)
    server.listen({ onUnhandledRequest: 'error' })
  })
  afterEach(() => server.resetHandlers())
  afterAll(() => {
    server.close()
    vi.unstubAllEnvs()
  })
  return {
    serve(sim, baseUrl) {
      server.resetHandlers(...createHandlers(sim, baseUrl === undefined ? {} : { baseUrl }))
    },
  }
}

/**
 * One HTTP server per test file (127.0.0.1, a free port) serving `sim`, reset before each test:
 * its service and control URLs, read once the server is up.
 */
export function useHttpServer(sim: Simulator<unknown>): { readonly url: string; readonly controlUrl: string } {
  let server: SimulatorServer | undefined
  beforeAll(async () => {
    server = await startServer(sim, { port: 0 })
  })
  beforeEach(() => sim.reset())
  afterAll(() => server?.close())
  const up = (): SimulatorServer => {
    if (server === undefined) throw new Error('the HTTP server is read before it started (use it inside a test)')
    return server
  }
  return {
    get url() {
      return up().url
    },
    get controlUrl() {
      return up().controlUrl
    },
  }
}

/**
 * For the tests of the describe block it is called in: a server told to bind 0.0.0.0 listens on
 * 127.0.0.1 instead, so that no test listens beyond loopback while the server believes the bind it
 * was given.
 */
export function useWildcardBindOnLoopback(): void {
  beforeAll(() => {
    const listen = NetServer.prototype.listen
    vi.spyOn(NetServer.prototype, 'listen').mockImplementation(function (this: NetServer, ...args: unknown[]) {
      if (args[1] === '0.0.0.0') args[1] = '127.0.0.1'
      return listen.apply(this, args as Parameters<typeof listen>)
    })
  })
  afterAll(() => vi.restoreAllMocks())
}

export interface CallOptions {
  key?: string
  query?: Record<string, string> | string
  method?: string
  headers?: Record<string, string>
  base?: string
}

/** A plain fetch against the simulated service, as a user's own code would make it. */
export async function call(path: string, options: CallOptions = {}): Promise<Response> {
  const query = typeof options.query === 'string' ? options.query : new URLSearchParams(options.query ?? {}).toString()
  const headers: Record<string, string> = { ...options.headers }
  if (options.key !== undefined) headers['authorization'] = `Bearer ${options.key}`
  return fetch(`${options.base ?? BASE}${path}${query ? `?${query}` : ''}`, { method: options.method ?? 'GET', headers })
}

export async function callJson<T = any>(path: string, options: CallOptions = {}): Promise<{ status: number; body: T; res: Response }> {
  const res = await call(path, options)
  return { status: res.status, body: (await res.json()) as T, res }
}

/** The SimulatorError an action throws; fails the test when it throws nothing or something else. */
export function simulatorErrorOf(action: () => unknown): SimulatorError {
  try {
    action()
  } catch (error) {
    if (error instanceof SimulatorError) return error
    throw error
  }
  throw new Error('Expected a SimulatorError, but nothing was thrown')
}

/** What a call that must fail rejected with; fails the test when it resolves. */
export async function failureOf(call: Promise<unknown>): Promise<unknown> {
  try {
    await call
  } catch (error) {
    return error
  }
  throw new Error('Expected the call to fail, but it resolved')
}

/**
 * Sets for a test file's servers and raw client sockets: whatever a test adds to them is destroyed
 * and closed after it (a socket left open would hold its server's close).
 */
export function useServersAndSockets(): { servers: Set<SimulatorServer>; sockets: Set<Socket> } {
  const servers = new Set<SimulatorServer>()
  const sockets = new Set<Socket>()
  afterEach(async () => {
    for (const socket of sockets) socket.destroy()
    sockets.clear()
    await Promise.all([...servers].map((server) => server.close()))
    servers.clear()
  })
  return { servers, sockets }
}

/** An answer read by {@link raw}: its headers as node gives them, its text, and that text as JSON when its content type is JSON. */
export interface Raw {
  status: number
  headers: Record<string, string | string[] | undefined>
  text: string
  body: any
}

/** One request to 127.0.0.1:port with exactly these headers (Host included, which fetch will not set). */
export function raw(port: number, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers, setHost: !('host' in headers) }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8')
        const json = text !== '' && /json/.test(String(res.headers['content-type']))
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body: json ? (JSON.parse(text) as unknown) : undefined })
      })
    })
    req.setTimeout(10_000, () => req.destroy(new Error('no answer within 10 s')))
    req.on('error', reject)
    req.end(body)
  })
}
