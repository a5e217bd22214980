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
  baseUrl?: string | undefined
}

const HANDLERS_OPTION_FIELDS = fieldsOf<CreateHandlersOptions>({ baseUrl: true })

/**
 * Turns a simulator response into the `Response` MSW sends: what a custom handler uses to answer
 * with the simulator's own envelope. A network-error fault becomes `Response.error()`; a `never`
 * fault has no Response (the handlers from `createHandlers` wait forever instead). `method` is the
 * request's: an answer to HEAD carries the headers of GET and no body. `request`, the Request being
 * answered, lets a client that aborts its fetch (mid-stream, or during a real delay) reach the
 * simulator, as a reader's `cancel()` does (decisions/0044, 0045).
 *
 * @example
 * import { createSimulator, errorEnvelope } from 'model-access-sim'
 * import { toResponse } from 'model-access-sim/msw'
 * const res = toResponse({ status: 503, headers: { 'retry-after': '5' }, type: 'json', body: errorEnvelope(503) })
 * console.log(res.status, res.headers.get('retry-after'))
 * //=> 503 5
 */
export function toResponse(response: SimResponse, method = 'GET', request?: Request): Response {
  if (request !== undefined && !(request instanceof Request)) throw invalidArgument('convert a response', 'request', `must be the Request being answered, got ${describe(request)}`)
  return respond(response, method, request)
}

/** `toResponse` for `request`: a stream answer ends, and is charged as left, when the request's signal aborts. */
function respond(response: SimResponse, method: string, request?: Request): Response {
  // A primitive has no `type` either: only null and undefined cannot be read.
  const type = (response as { type?: unknown } | null | undefined)?.type
  if (type === 'network-error') return HttpResponse.error()
  if (type === 'never') {
    throw invalidArgument('convert a response', 'response', 'is a "never" fault, which has no Response; wait forever instead (createHandlers does)')
  }
  if (type === undefined || !isAnswered(response) || typeof response.status !== 'number' || typeof response.headers !== 'object' || response.headers === null) {
    throw invalidArgument('convert a response', 'response', `must be a response sim.handle() returned, got ${describe(response)}`)
  }
  if (typeof method !== 'string') throw invalidArgument('convert a response', 'method', `must be the request's method, such as "GET", got ${describe(method)}`)
  if (response.type === 'stream' && method.toUpperCase() !== 'HEAD') return streamResponse(response, request)
  try {
    const wire = toWire(response, method)
    const answer = new HttpResponse(wire.body, { status: wire.status, headers: wire.headers })
    // MSW 2 tees every mocked body for its copy (see streamResponse), so a client's cancel of an
    // answer it does not read (the openai SDK's, before each retry of a 429 or 5xx) never settled.
    // A body known whole is given as two streams of its own instead: each cancels at once.
    const { body } = wire
    if (body !== null && answer.body !== null) Object.defineProperty(answer.body, 'tee', { configurable: true, value: () => [wholeBody(body, true), wholeBody(body)] })
    return answer
  } catch (error) {
    // A response built by hand: a body JSON cannot carry, a header or status a Response refuses.
    throw invalidArgument('convert a response', 'response', `cannot be sent as HTTP (${error instanceof Error ? error.message : String(error)})`)
  }
}

const encoder = new TextEncoder()

/**
 * A body known whole as a stream of one chunk, made when first read (MSW's copy seldom is). The
 * bytes are this answer's own (`toWire` makes them for it); `copy`, the client's branch, reads a
 * copy, so that a client changing what it read changes nothing MSW's copy reads later.
 */
function wholeBody(body: string | Uint8Array, copy = false): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const bytes = typeof body === 'string' ? encoder.encode(body) : copy ? body.slice() : body
        if (bytes.byteLength > 0) controller.enqueue(bytes)
        controller.close()
      },
    },
    { highWaterMark: 0 },
  )
}

/**
 * A stream answer as a Response whose body yields the frames one by one, as the reader asks for
 * them (with real waits only when asked). A client that goes away before the end (its reader
 * cancels the body, or the signal of `request` aborts) is told to the simulator with how many
 * frames it was given (decisions/0026, decisions/0045).
 */
function streamResponse(response: Extract<SimResponse, { type: 'stream' }>, request?: Request): Response {
  const chunks = streamChunks(response)
  // The request is held, not only its signal, until the stream is over: undici links a Request's
  // signal to the signal it follows (the client's, through MSW's copies of the request) by a weak
  // reference to the Request's own controller, so once the Request is collected an abort no
  // longer reaches its signal. A stream with real waits lives through collections.
  let held = request
  const signal = request?.signal
  let next = 0
  /** Until the last frame is given or the client leaves. */
  let open = true
  // Set by `start`, which the ReadableStream constructor calls before anything can reach `leave`.
  let control!: ReadableStreamDefaultController<Uint8Array>
  /** The client went away: charge what it was given, once, and end the body (`error`: as fetch does on an abort). */
  const leave = (error?: unknown): void => {
    if (!open) return
    open = false
    release()
    response.cancel?.(next)
    try {
      if (error === undefined) control.close()
      else control.error(error)
    } catch {
      // Already cancelled: the stream is over for everyone.
    }
  }
  const release = (): void => {
    signal?.removeEventListener('abort', onAbort)
    held = undefined
  }
  // msw 2 gives the client a body that an abort does not end (msw 3 ends it itself): the abort of
  // the request is the client leaving, and its reads then fail as fetch's do, with the abort's
  // reason (never undefined: an abort without one has an AbortError DOMException). An abort during
  // a real latency wait, before the stream, is a client given nothing.
  const onAbort = (): void => leave((signal as AbortSignal).reason)
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        control = controller
      },
      async pull(controller) {
        if (!open) return
        const chunk = chunks[next]
        if (chunk === undefined) {
          open = false
          release()
          return controller.close()
        }
        if (chunk.waitMs > 0) await new Promise((resolve) => setTimeout(resolve, chunk.waitMs))
        if (!open) return
        next++
        controller.enqueue(chunk.bytes)
      },
      cancel() {
        leave()
      },
    },
    // No frame is made ahead of the reader: a frame enqueued is a frame the client asked for.
    { highWaterMark: 0 },
  )
  if (signal?.aborted) leave(signal.reason)
  // Not `once`: `release` takes the listener off whichever way the stream ends.
  else signal?.addEventListener('abort', onAbort)
  // MSW clones every mocked response for its `response:mocked` event, and a clone tees the body
  // (`body.tee()`, which undici calls on the stream itself): the first branch stays the client's,
  // the second is MSW's copy. A tee cancels its source only once both branches are cancelled, so
  // under msw 2 on Node, with no one reading the copy, the client's cancel never settles
  // (mswjs/interceptors#712). This stream's own tee makes the client's branch a cancel that goes
  // through: the simulator is told at once, and MSW's copy ends where the client left.
  Object.defineProperty(body, 'tee', { configurable: true, value: () => clientFirstTee(body, leave) })
  return new HttpResponse(body, { status: response.status, headers: response.headers })
}

/**
 * `stream.tee()`, except that cancelling the first branch (the one the Response keeps, the
 * client's) is the client leaving: `leave()` at once, which ends the stream, so the second branch
 * ends there too. Either branch's read pulls one frame for both; neither reads ahead (a native
 * tee's branches do, which would count frames the client never asked for).
 */
function clientFirstTee(stream: ReadableStream<Uint8Array>, leave: () => void): [ReadableStream<Uint8Array>, ReadableStream<Uint8Array>] {
  const reader = stream.getReader()
  const open = new Set<ReadableStreamDefaultController<Uint8Array>>()
  let reading: Promise<void> | undefined
  const each = (act: (controller: ReadableStreamDefaultController<Uint8Array>) => void): void => {
    for (const controller of open) act(controller)
  }
  const pull = (): Promise<void> =>
    (reading ??= reader.read().then(
      ({ done, value }) => {
        reading = undefined
        if (done) each((controller) => controller.close())
        else each((controller) => controller.enqueue(value))
      },
      (error: unknown) => {
        reading = undefined
        each((controller) => controller.error(error))
      },
    ))
  const branch = (onCancel: () => void): ReadableStream<Uint8Array> => {
    let self: ReadableStreamDefaultController<Uint8Array>
    return new ReadableStream<Uint8Array>(
      {
        start(controller) {
          self = controller
          open.add(controller)
        },
        pull,
        cancel() {
          // A cancelled branch is given nothing more; the client's also ends the source (leave).
          open.delete(self)
          onCancel()
        },
      },
      { highWaterMark: 0 },
    )
  }
  return [branch(leave), branch(() => {})]
}

/**
 * MSW handlers that serve every request under `baseUrl` from the simulator: every simulated operation,
 * and an error envelope (404 naming it) for anything else, so nothing leaks to the real network.
 * A client that leaves a streamed answer early (an aborted fetch, `reader.cancel()`, the SDK's
 * `break`) ends it, and is charged for what it was sent (decisions/0045 in the repository).
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
  // Synchronous when the simulator's answer is (route.ts): no promise between MSW and the answer.
  const handle = ({ request }: { request: Request }): Response | Promise<Response> => {
    const response = answer(sim, base, request)
    return response instanceof Promise ? response.then((done) => respond(done, request.method, request)) : respond(response, request.method, request)
  }
  // A RegExp without capturing groups: MSW's string patterns decode wildcard params with
  // decodeURIComponent and answer a malformed escape (`/files/%zz/content`) with their own 500
  // before the simulator sees it. Decoding, and its 400, belong to the core router.
  const escaped = base.prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return [http.all(new RegExp(`^${escaped}(?:/.*)?$`), handle)]
}
