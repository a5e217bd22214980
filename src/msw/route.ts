// How a request under a base URL reaches a simulator: shared by createHandlers and the vitest
// fixture (model-access-sim/vitest), so that both answer exactly alike.
import { delay } from 'msw'
import type { SimRequest, SimResponse } from '../core/protocol.js'
import { describe } from '../core/describe.js'
import { invalidArgument } from '../core/errors.js'
import { isAnswered, mayHaveBody, normaliseBasePath, toSimRequest } from '../core/http.js'
import type { Simulator } from '../core/simulator.js'
import { bodySource } from './body.js'

/**
 * The service's production base URL, which the official SDK uses by default.
 *
 * @example
 * import { DEFAULT_BASE_URL } from 'model-access-sim/msw'
 * console.log(DEFAULT_BASE_URL)
 * //=> https://openrouter.ai/api/v1
 */
export const DEFAULT_BASE_URL = 'https://openrouter.ai/api/v1'

/** A parsed base URL: the origin and path prefix requests must start with. */
export interface SimBase {
  /** `https://openrouter.ai/api/v1`: origin and base path, without a trailing slash. */
  prefix: string
  /** `/api/v1`, or `''` for the root. */
  basePath: string
}

/**
 * Parses `baseUrl` (default `DEFAULT_BASE_URL`). Only an absolute http(s) URL can be intercepted:
 * "localhost:3000/api/v1" parses as a URL of scheme "localhost:", and is refused by name.
 */
export function parseBaseUrl(operation: string, raw: unknown): SimBase {
  const value = raw ?? DEFAULT_BASE_URL
  const base = typeof value === 'string' && URL.canParse(value) ? new URL(value) : undefined
  if (base === undefined || (base.protocol !== 'http:' && base.protocol !== 'https:') || base.search !== '' || base.hash !== '') {
    throw invalidArgument(operation, 'baseUrl', `must be an absolute http: or https: URL such as "${DEFAULT_BASE_URL}", with no query or fragment, got ${describe(value)}`)
  }
  // The path of a parsed http(s) URL starts with `/` and has its `?`, `#` and spaces escaped: a base path.
  const basePath = normaliseBasePath(base.pathname) as string
  return { prefix: `${base.origin}${basePath}`, basePath }
}

/**
 * The simulator's response to a request under `base`, after any real delay it asks for; a
 * `never` fault waits forever. The request must be under the base (see `isUnder`). Synchronous
 * when nothing is waited for: no delay, and a body read from its source (body.ts) or none, as a
 * handler that answers at once is in MSW.
 */
export function answer(sim: Pick<Simulator<unknown>, 'handle'>, base: SimBase, request: Request): SimResponse | Promise<SimResponse> {
  if (!mayHaveBody(request.method)) return handled(sim, base, request, undefined)
  const text = request.body === null ? null : bodySource(request)
  if (text !== undefined) return handled(sim, base, request, text)
  return request.text().then((body) => handled(sim, base, request, body))
}

/** `answer`, the body read (`undefined`: a method without one). */
function handled(sim: Pick<Simulator<unknown>, 'handle'>, base: SimBase, request: Request, body: string | null | undefined): SimResponse | Promise<SimResponse> {
  const extras = body === undefined ? undefined : { body, headers: { 'content-type': request.headers.get('content-type') ?? undefined } }
  const simRequest = toSimRequest(request.method, urlParts(base, request.url), base.basePath, request.headers.get('authorization'), extras) as SimRequest
  const response = sim.handle(simRequest)
  return response.realDelay || response.type === 'never' ? waited(response, request) : response
}

/** The response once its real delay has passed; a `never` fault never settles. */
async function waited(response: SimResponse, request: Request): Promise<SimResponse> {
  // Simulated latency has already passed on the simulator clock; wait for real only when asked.
  if (response.realDelay) {
    await delay(response.delayMs ?? 0)
    // The client aborted during the wait: nothing was sent (decisions/0044).
    if (request.signal.aborted && isAnswered(response)) response.cancel?.(0)
  }
  if (response.type === 'never') await delay('infinite')
  return response
}

/**
 * The path and query of a request's URL, which is under `base`. A Request's URL is already in its
 * serialized form (dot segments resolved, bytes escaped), so its path is read off the text rather
 * than parsed again.
 */
function urlParts(base: SimBase, url: string): { pathname: string; searchParams: URLSearchParams } {
  // A `?` after the `#` is the fragment's.
  const fragment = url.indexOf('#')
  const target = fragment === -1 ? url : url.slice(0, fragment)
  const query = target.indexOf('?')
  const pathname = target.slice(base.prefix.length - base.basePath.length, query === -1 ? undefined : query)
  return { pathname, searchParams: new URLSearchParams(query === -1 ? '' : target.slice(query + 1)) }
}

/** Whether `url` is the base URL or below it (`/api/v12` is not below `/api/v1`). */
export function isUnder(base: SimBase, url: string): boolean {
  if (!url.startsWith(base.prefix)) return false
  const next = url.charCodeAt(base.prefix.length)
  // End of the URL, or a path, query or fragment boundary.
  return Number.isNaN(next) || next === 0x2f || next === 0x3f || next === 0x23
}
