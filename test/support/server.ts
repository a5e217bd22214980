import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll } from 'vitest'
import type { Simulator } from '../../src/index.js'
import { createHandlers } from '../../src/msw/index.js'

export const BASE = 'https://openrouter.ai/api/v1'

/**
 * One MSW server per test file, serving whichever simulator the test points it at. Unhandled
 * requests fail the test, so nothing reaches the real network.
 */
export function useSimulatorServer(): { serve(sim: Simulator<unknown>, baseUrl?: string): void } {
  const server = setupServer()
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
  afterEach(() => server.resetHandlers())
  afterAll(() => server.close())
  return {
    serve(sim, baseUrl) {
      server.resetHandlers(...createHandlers(sim, baseUrl === undefined ? {} : { baseUrl }))
    },
  }
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
