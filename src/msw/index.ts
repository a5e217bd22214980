import { http, HttpResponse, type HttpHandler } from 'msw'
import type { SimResponse } from '../core/protocol.js'
import { describe } from '../core/describe.js'
import { invalidArgument } from '../core/errors.js'
import { ArgumentChecker, fieldsOf } from '../core/store/check.js'
import { isAnswered, streamChunks, toWire } from '../core/http.js'
import type { Simulator } from '../core/simulator.js'
import { answer, parseBaseUrl } from './route.js'

export { DEFAULT_BASE_URL } from './route.js'
export { forwardStreamCancels, type LifeCycleEvents } from './streams.js'

export interface CreateHandlersOptions {
  /** Absolute base URL to intercept, ending in the version segment. Default `https://openrouter.ai/api/v1`. */
  baseUrl?: string
}

const HANDLERS_OPTION_FIELDS = fieldsOf<CreateHandlersOptions>({ baseUrl: true })

/**
 * Turns a simulator response into the `Response` MSW sends: what a custom handler uses to answer
 * with the simulator's own envelope. A network-error fault becomes `Response.error()`; a `never`
 * fault has no Response (the handlers from `createHandlers` wait forever instead). `method` is the
 * request's: an answer to HEAD carries the headers of GET and no body. `signal`, the request's
 * (`request.signal`), lets a client that aborts its fetch mid-stream reach the simulator, as a
 * reader's `cancel()` does (decisions/0026, 0044).
 *
 * @example
 * import { createSimulator, errorEnvelope } from 'model-access-sim'
 * import { toResponse } from 'model-access-sim/msw'
 * const res = toResponse({ status: 503, headers: { 'retry-after': '5' }, type: 'json', body: errorEnvelope(503) })
 * console.log(res.status, res.headers.get('retry-after'))
 * //=> 503 5
 */
export function toResponse(response: SimResponse, method = 'GET', signal?: AbortSignal): Response {
  const type = typeof response === 'object' && response !== null ? (response as { type?: unknown }).type : undefined
  if (type === 'network-error') return HttpResponse.error()
  if (type === 'never') {
    throw invalidArgument('convert a response', 'response', 'is a "never" fault, which has no Response; wait forever instead (createHandlers does)')
  }
  if (type === undefined || !isAnswered(response) || typeof response.status !== 'number' || typeof response.headers !== 'object' || response.headers === null) {
    throw invalidArgument('convert a response', 'response', `must be a response sim.handle() returned, got ${describe(response)}`)
  }
  if (typeof method !== 'string') throw invalidArgument('convert a response', 'method', `must be the request's method, such as "GET", got ${describe(method)}`)
  if (response.type === 'stream' && method.toUpperCase() !== 'HEAD') return streamResponse(response, signal)
  try {
    const wire = toWire(response, method)
    return new HttpResponse(wire.body, { status: wire.status, headers: wire.headers })
  } catch (error) {
    // A response built by hand: a body JSON cannot carry, a header or status a Response refuses.
    throw invalidArgument('convert a response', 'response', `cannot be sent as HTTP (${error instanceof Error ? error.message : String(error)})`)
  }
}

/**
 * A stream answer as a Response whose body yields the frames one by one, as the reader asks for
 * them (with real waits only when asked). A reader that cancels the body before the end is a
 * client that went away, and so is one whose request's `signal` aborts (an aborted fetch, which
 * cancels nothing MSW hands the handler): the simulator is told how many frames it was given (decisions/0026).
 */
function streamResponse(response: Extract<SimResponse, { type: 'stream' }>, signal: AbortSignal | undefined): Response {
  const chunks = streamChunks(response)
  let next = 0
  let cancelled = false
  const leave = (): void => {
    if (cancelled) return
    cancelled = true
    response.cancel?.(next)
  }
  signal?.addEventListener('abort', leave, { once: true })
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const chunk = chunks[next]
        if (chunk === undefined) return controller.close()
        if (chunk.waitMs > 0) await new Promise((resolve) => setTimeout(resolve, chunk.waitMs))
        if (cancelled) return
        next++
        controller.enqueue(chunk.bytes)
      },
      cancel: leave,
    },
    // No frame is made ahead of the reader: a frame enqueued is a frame the client asked for.
    { highWaterMark: 0 },
  )
  return new HttpResponse(body, { status: response.status, headers: response.headers })
}

/**
 * MSW handlers that serve every request under `baseUrl` from the simulator: every simulated operation,
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
  const operation = 'create handlers'
  if (typeof sim !== 'object' || sim === null || typeof sim.handle !== 'function') throw invalidArgument(operation, 'sim', 'must be a simulator (createSimulator())')
  if (typeof options !== 'object' || options === null || Array.isArray(options)) throw invalidArgument(operation, 'options', `must be an options object, got ${describe(options)}`)
  new ArgumentChecker(operation).knownFields(options, HANDLERS_OPTION_FIELDS, '', 'the options of createHandlers')
  const base = parseBaseUrl(operation, options.baseUrl)
  const handle = async ({ request }: { request: Request }): Promise<Response> => toResponse(await answer(sim, base, request), request.method, request.signal)
  // A RegExp without capturing groups: MSW's string patterns decode wildcard params with
  // decodeURIComponent and answer a malformed escape (`/files/%zz/content`) with their own 500
  // before the simulator sees it. Decoding, and its 400, belong to the core router.
  const escaped = base.prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return [http.all(new RegExp(`^${escaped}(?:/.*)?$`), handle)]
}
