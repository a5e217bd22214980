import { delay, http, HttpResponse, type HttpHandler, type JsonBodyType } from 'msw'
import type { SimResponse } from '../core/api.js'
import type { Simulator } from '../core/simulator.js'

/**
 * The service's production base URL, which the official SDK uses by default.
 *
 * @example
 * import { DEFAULT_BASE_URL } from 'model-access-sim/msw'
 * console.log(DEFAULT_BASE_URL)
 * //=> https://openrouter.ai/api/v1
 */
export const DEFAULT_BASE_URL = 'https://openrouter.ai/api/v1'

export interface CreateHandlersOptions {
  /** Absolute base URL to intercept, ending in the version segment. Default `https://openrouter.ai/api/v1`. */
  baseUrl?: string
}

/**
 * Turns a simulator response into the `Response` MSW sends: what a custom handler uses to answer
 * with the simulator's own envelope. A network-error fault becomes `Response.error()`; a `never`
 * fault has no Response (the handlers from `createHandlers` wait forever instead).
 *
 * @example
 * import { createSimulator, errorEnvelope } from 'model-access-sim'
 * import { toResponse } from 'model-access-sim/msw'
 * const res = toResponse({ status: 503, headers: { 'retry-after': '5' }, type: 'json', body: errorEnvelope(503) })
 * console.log(res.status, res.headers.get('retry-after'))
 * //=> 503 5
 */
export function toResponse(response: SimResponse): Response {
  if (response.type === 'network-error') return HttpResponse.error()
  if (response.type === 'never') {
    throw new TypeError('Failed to convert a response: a "never" fault has no Response; wait forever instead (createHandlers does).')
  }
  const init = { status: response.status, headers: response.headers }
  return response.type === 'json' ? HttpResponse.json(response.body as JsonBodyType, init) : new HttpResponse(response.body, init)
}

/**
 * MSW handlers that serve every request under `baseUrl` from the simulator: the six operations,
 * and an error envelope (404 naming it) for anything else, so nothing leaks to the real network.
 *
 * @example
 * import { setupServer } from 'msw/node'
 * import { createSimulator } from 'model-access-sim'
 * import { createHandlers } from 'model-access-sim/msw'
 *
 * const sim = createSimulator()
 * const server = setupServer(...createHandlers(sim))
 * server.listen()
 * const res = await fetch('https://openrouter.ai/api/v1/videos/models')
 * console.log(res.status)
 * //=> 200
 * server.close()
 */
export function createHandlers(sim: Pick<Simulator<unknown>, 'handle'>, options: CreateHandlersOptions = {}): HttpHandler[] {
  const raw = options.baseUrl ?? DEFAULT_BASE_URL
  let base: URL
  try {
    base = new URL(raw)
  } catch {
    throw new TypeError(`Failed to create handlers: "baseUrl" must be an absolute URL such as "${DEFAULT_BASE_URL}", got ${JSON.stringify(raw)}.`)
  }
  const basePath = base.pathname.replace(/\/+$/, '')
  const prefix = `${base.origin}${basePath}`
  const handle = async ({ request }: { request: Request }): Promise<Response> => {
    const url = new URL(request.url)
    const response = sim.handle({
      method: request.method,
      path: url.pathname.slice(basePath.length) || '/',
      query: url.searchParams,
      authorization: request.headers.get('authorization'),
    })
    // Simulated latency has already passed on the simulator clock; wait for real only when asked.
    if (response.realDelay && response.delayMs !== undefined) await delay(response.delayMs)
    if (response.type === 'never') await delay('infinite')
    return toResponse(response)
  }
  // A RegExp without capturing groups: MSW's string patterns decode wildcard params with
  // decodeURIComponent and answer a malformed escape (`/files/%zz/content`) with their own 500
  // before the simulator sees it. Decoding, and its 400, belong to the core router.
  const escaped = prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return [http.all(new RegExp(`^${escaped}(?:/.*)?$`), handle)]
}
