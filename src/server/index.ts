// model-access-sim/server: the simulator over a real socket, for clients in any language
// (decisions/0013). A node:http adapter: it translates requests and responses with the same module
// as the MSW handlers, and keeps no rule of the service's own; its rules are about trust and
// bounds: who may use the control API, timeouts, how much it reads and holds (decisions/0019).
import { type IncomingMessage, type Server, type ServerResponse, STATUS_CODES, createServer } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import type { Duplex } from 'node:stream'
import type { OperationName, SimRequest, SimResponse } from '../core/protocol.js'
import { operationOf } from '../core/router.js'
import { type PartsResponse, createControlApi } from '../core/control-api.js'
import { CONTROL_BASE_PATH } from '../core/control-path.js'
import { internalsOf } from '../core/internals.js'
import { errorEnvelope, invalidArgument } from '../core/errors.js'
import { ArgumentChecker, fieldsOf } from '../core/store/check.js'
import { type AnsweredResponse, frameWait, isAnswered, jsonResponse, mayHaveBody, normaliseBasePath, outsideResponse, pathBelow, toSimRequest, toWire } from '../core/http.js'
import { MAX_BODY_BYTES as MAX_SERVICE_BODY_BYTES } from '../core/body.js'
import type { Simulator } from '../core/simulator.js'
import { createControlGate, exposureWarning } from './trust.js'
import { grantRead, isPreflight, preflightAnswer } from './cors.js'

/**
 * The default port, as the CLI uses it too.
 *
 * @example
 * import { DEFAULT_PORT } from 'model-access-sim/server'
 * console.log(DEFAULT_PORT)
 * //=> 4010
 */
export const DEFAULT_PORT = 4010

/** The largest request body the control API reads (a file's content comes as base64 in it). */
const MAX_BODY_BYTES = 64 * 1024 * 1024

/**
 * How the server listens and what it serves around the simulator. What the simulator does (its
 * world, seed, rate limits, `strictRequests`, ...) is set where it is created:
 * `startServer(createSimulator({ strictRequests: true }))` is what `serve --strict-requests` runs.
 */
export interface StartServerOptions {
  /** Port to listen on; 0 picks a free one (read it from the result). Default 4010. */
  port?: number | undefined
  /** Interface to bind. Default `127.0.0.1`: only this machine can reach it. `0.0.0.0` only when you mean it. */
  host?: string | undefined
  /** Where the service's operations live. Default `/api/v1`, as on the real service. */
  basePath?: string | undefined
  /** Serve the control API under `/__sim`. Default true; false makes every `/__sim` path a 404. */
  control?: boolean | undefined
  /**
   * A secret control clients must send as `authorization: Bearer <token>`. Without it the control
   * API answers only loopback clients, and is off on a non-loopback `host` (decisions/0019).
   */
  controlToken?: string | undefined
  /** Called once per request answered (control requests included), for logging. */
  onRequest?: ((entry: RequestLogEntry) => void) | undefined
  /**
   * Milliseconds a connection may move no byte, either way, before it is closed: an idle
   * keep-alive, a client that stops sending its body, or one that stops reading its answer.
   * Requests held on purpose (a `never` fault, a `real` delay) are exempt. Default 30,000.
   */
  idleTimeoutMs?: number | undefined
  /** Milliseconds a client has to send a request's headers (a 408 after). Default 10,000. */
  headersTimeoutMs?: number | undefined
  /**
   * Let web pages of any origin call the service's operations, as the real service does: a
   * preflight (anywhere but the control API) is answered 204, and an answer to a request with an `Origin` carries
   * `access-control-allow-origin: *` and lists its headers in `access-control-expose-headers`.
   * Default true; false sends no CORS header, so a page of another origin cannot read an answer.
   * The control API never grants one (it refuses a foreign `Origin`).
   */
  cors?: boolean | undefined
}

/** What the server tells `onRequest` about one request. */
export interface RequestLogEntry {
  /** Wall-clock time the request arrived, ISO 8601. */
  time: string
  method: string
  /** The path as sent, query included. */
  path: string
  /** The status answered; 0 when the connection was dropped (a network-error fault) or closed unanswered. */
  status: number
  /** The operation the path names; `'control'` for the control API; null for anything else. */
  operation: OperationName | 'control' | null
  /** Wall-clock milliseconds from arrival to the last byte written. */
  ms: number
}

/** A running server. */
export interface SimulatorServer {
  /** The base URL clients use as their `serverURL`: `http://127.0.0.1:4010/api/v1`. */
  readonly url: string
  /** The control API's base URL: `http://127.0.0.1:4010/__sim` (present even with `control: false`, which answers 404 there). */
  readonly controlUrl: string
  /** The port it listens on (the real one when asked for port 0). */
  readonly port: number
  /** Stops listening and ends every connection, those held by a `never` fault or a real delay included. */
  close(): Promise<void>
}

const SERVER_OPTION_FIELDS = fieldsOf<StartServerOptions>({
  port: true,
  host: true,
  basePath: true,
  control: true,
  controlToken: true,
  onRequest: true,
  idleTimeoutMs: true,
  headersTimeoutMs: true,
  cors: true,
})

interface CheckedOptions {
  port: number
  host: string
  basePath: string
  control: boolean
  controlToken: string | undefined
  idleTimeoutMs: number
  headersTimeoutMs: number
  cors: boolean
}

function timeoutOption(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 3_600_000) {
    throw invalidArgument('start the server', name, `must be a whole number of milliseconds from 1 to 3600000, got ${JSON.stringify(value)}`)
  }
  return value
}

function checkOptions(options: StartServerOptions): CheckedOptions {
  const operation = 'start the server'
  if (typeof options !== 'object' || options === null || Array.isArray(options)) throw invalidArgument(operation, 'options', 'must be an options object')
  new ArgumentChecker(operation).knownFields(options, SERVER_OPTION_FIELDS, '', 'the options of startServer')
  const port = options.port ?? DEFAULT_PORT
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 0 || port > 65_535) {
    throw invalidArgument(operation, 'port', `must be an integer from 0 to 65535 (0 picks a free port), got ${JSON.stringify(port)}`)
  }
  const host = options.host ?? '127.0.0.1'
  if (typeof host !== 'string' || host === '') throw invalidArgument(operation, 'host', `must be a host name or address such as "127.0.0.1", got ${JSON.stringify(host)}`)
  const basePath = typeof options.basePath === 'string' ? normaliseBasePath(options.basePath) : options.basePath === undefined ? '/api/v1' : undefined
  if (basePath === undefined || pathBelow(CONTROL_BASE_PATH, basePath || '/') !== undefined) {
    throw invalidArgument(operation, 'basePath', `must be a path such as "/api/v1" (not under ${CONTROL_BASE_PATH}), got ${JSON.stringify(options.basePath)}`)
  }
  const control = options.control ?? true
  if (typeof control !== 'boolean') throw invalidArgument(operation, 'control', `must be a boolean, got ${JSON.stringify(control)}`)
  if (options.onRequest !== undefined && typeof options.onRequest !== 'function') throw invalidArgument(operation, 'onRequest', 'must be a function')
  const controlToken = options.controlToken
  if (controlToken !== undefined && (typeof controlToken !== 'string' || !/^[\x21-\x7e]{16,}$/.test(controlToken))) {
    throw invalidArgument(operation, 'controlToken', 'must be at least 16 printable characters without spaces (a header value), such as the output of `openssl rand -hex 16`')
  }
  const idleTimeoutMs = timeoutOption(options.idleTimeoutMs, 'idleTimeoutMs', 30_000)
  const headersTimeoutMs = timeoutOption(options.headersTimeoutMs, 'headersTimeoutMs', 10_000)
  const cors = options.cors ?? true
  if (typeof cors !== 'boolean') throw invalidArgument(operation, 'cors', `must be a boolean, got ${JSON.stringify(cors)}`)
  return { port, host, basePath, control, controlToken, idleTimeoutMs, headersTimeoutMs, cors }
}

/** An envelope written straight to a socket (no request object exists), and the connection closed. */
function writeRaw(socket: Duplex, answer: AnsweredResponse, method: string): void {
  const wire = toWire(answer, method)
  const head = Object.entries({ ...wire.headers, connection: 'close' }).map(([name, value]) => `${name}: ${value}\r\n`).join('')
  socket.end(Buffer.concat([Buffer.from(`HTTP/1.1 ${wire.status} ${STATUS_CODES[wire.status] ?? 'Error'}\r\n${head}\r\n`, 'latin1'), typeof wire.body === 'string' ? Buffer.from(wire.body) : (wire.body ?? Buffer.alloc(0))]))
}

/** A path of only the characters a URL parser keeps as they are (no dot segment, escape, backslash or query). */
const PLAIN_PATH = /^(?:\/[A-Za-z0-9_~-]+)+\/?$/

/**
 * The URL of a request target. An absolute-form target (`GET http://host/api/v1/keys`, as clients
 * that treat the server as a proxy send) is its path and query (RFC 9112, 3.2.2); any other that
 * does not start with `/` (`*`) is read as a path below the root. A plain path (most requests) is
 * taken as it is, without a parse that would give it back unchanged.
 */
function requestUrl(raw: string): { pathname: string; searchParams: URLSearchParams } {
  if (PLAIN_PATH.test(raw)) return { pathname: raw, searchParams: new URLSearchParams() }
  const absolute = /^https?:\/\//i.test(raw) && URL.canParse(raw) ? new URL(raw) : undefined
  return absolute ?? new URL(`http://simulator${raw.startsWith('/') ? raw : `/${raw}`}`)
}

/** The host as it goes into a URL: a wildcard bind is reached at loopback, an IPv6 address in brackets. */
function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1'
  if (host === '::') return '[::1]'
  return host.includes(':') ? `[${host}]` : host
}

/** The body's text (null when empty), or undefined when it is larger than the control API reads. */
function readBody(req: IncomingMessage): Promise<string | null | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (chunk: Buffer) => {
      size += chunk.byteLength
      // Past the limit the rest is read and dropped, so that the 413 can still be answered.
      if (size <= MAX_BODY_BYTES) chunks.push(chunk)
    })
    req.on('end', () => resolve(size > MAX_BODY_BYTES ? undefined : chunks.length === 0 ? null : Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
    // A client that goes away mid-body: without this the read, and its place among the bodies
    // read at once, would be held for ever.
    req.on('close', () => {
      if (!req.complete) reject(new Error('the client closed the connection before its body ended'))
    })
  })
}

/**
 * A service request's body, for the core to read: at most one byte more than the core reads, so
 * that a larger body is still read to its end (and answered 413 by the core) without being kept.
 */
function readServiceBody(req: IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let kept = 0
    req.on('data', (chunk: Buffer) => {
      if (kept > MAX_SERVICE_BODY_BYTES) return
      const room = MAX_SERVICE_BODY_BYTES + 1 - kept
      const part = chunk.byteLength > room ? chunk.subarray(0, room) : chunk
      chunks.push(part)
      kept += part.byteLength
    })
    req.on('end', () => resolve(kept === 0 ? null : chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)))
    req.on('error', reject)
    // Only an unfinished body is an error: an Error made for every request that closes normally
    // (its stack trace taken) was a measurable part of a request's cost.
    req.on('close', () => {
      if (!req.complete) reject(new Error('the client closed the connection before its body ended'))
    })
  })
}

/**
 * Control bodies read at once: each may be 64 MiB, so more waiting clients would mean more memory
 * held, with no bound. The one after them gets a 503 to retry.
 */
const MAX_CONTROL_BODIES = 4

const CONTROL_BUSY = jsonResponse(
  503,
  errorEnvelope(503, {
    message: `The control API is reading ${MAX_CONTROL_BODIES} request bodies already; retry when one is done`,
    metadata: { reason: 'control_bodies_busy', limit: MAX_CONTROL_BODIES },
  }),
)
CONTROL_BUSY.headers['retry-after'] = '1'

/** Base64 for the control API's journal and export: Buffer's, native, over the same memory. */
const bufferBase64 = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64')

/** Whether a request says it has a body (a length above 0, or chunks). */
const hasBody = (req: IncomingMessage): boolean => req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0

/** Resolves when the response's buffer has drained, or the connection has gone. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = (): void => {
      res.off('drain', done)
      res.off('close', done)
      resolve()
    }
    res.on('drain', done)
    res.on('close', done)
  })
}

/**
 * Characters of parts gathered into one write of an answer in parts, and so the most built between
 * two turns of the event loop (a journal body's slice is one part of 256 KiB): measured in decisions/0047.
 */
const PARTS_BATCH = 64 * 1024

/** Resolves in the event loop's check phase: after the I/O of other sockets has had its turn. */
const nextTurn = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve))

/**
 * Writes an answer made of parts (the journal, the export), a batch at a time, waiting for the
 * client to take each batch and letting other requests in between: a large answer neither stalls
 * the server nor sits in memory whole. Stops when the connection goes away.
 *
 * Both waits are needed (decisions/0047). A write the kernel takes at once (a client that reads as
 * fast as it is sent to) calls back in a nextTick, so `drain` comes before the loop turns: waiting
 * for it alone, the whole answer was written in one turn and every other request waited for it.
 */
async function writeParts(res: ServerResponse, answer: PartsResponse): Promise<void> {
  res.writeHead(answer.status, answer.headers)
  let batch = ''
  for (const part of answer.parts) {
    if (res.destroyed) return
    batch += part
    if (batch.length < PARTS_BATCH) continue
    const flushed = res.write(batch)
    batch = ''
    if (!flushed) await drained(res)
    await nextTurn()
  }
  if (!res.destroyed) res.end(batch)
}

/** A refusal of the HTTP layer (not of the API), as an envelope. */
function protocolError(status: number, message: string, reason: string): AnsweredResponse {
  return jsonResponse(status, errorEnvelope(status, { message, metadata: { reason } }))
}

/**
 * Waits `ms` of real time, or less when the client goes away or the server closes first. The timer
 * is in `timers`, which `close()` clears, so a closing server waits for no one.
 */
function realWait(ms: number, res: ServerResponse, timers: Set<NodeJS.Timeout>): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = (): void => {
      clearTimeout(timer)
      timers.delete(timer)
      resolve()
    }
    const timer = setTimeout(done, ms)
    timers.add(timer)
    res.once('close', done)
  })
}

/**
 * Writes a stream answer frame by frame, waiting for real between frames only when the response
 * asks for it; stops early when the client goes away or the server closes, and then tells the
 * simulator how many frames were written, so it charges only those (decisions/0026).
 */
async function writeStream(res: ServerResponse, response: Extract<SimResponse, { type: 'stream' }>, headers: Record<string, string>, timers: Set<NodeJS.Timeout>): Promise<void> {
  res.writeHead(response.status, headers)
  // Without real waits every frame goes out at once, and a client cannot leave between two of them:
  // one write of the whole text, as one write of the headers and body, is the same bytes for a
  // fraction of the system calls (a write a frame made a short stream cost twice a JSON answer).
  if (!response.realDelay) {
    if (res.destroyed) {
      response.cancel?.(0)
      return
    }
    let text = ''
    for (const frame of response.body) text += frame.data
    res.end(text)
    return
  }
  let written = 0
  // Each frame's text as it is (node encodes it): no byte copy is made of every frame first.
  for (const frame of response.body) {
    const waitMs = frameWait(response, written)
    if (waitMs > 0) await realWait(waitMs, res, timers)
    if (res.destroyed) {
      response.cancel?.(written)
      return
    }
    res.write(frame.data)
    written++
  }
  res.end()
}

const TOO_LARGE = jsonResponse(
  413,
  errorEnvelope(413, { message: `Request body too large: the control API reads at most ${MAX_BODY_BYTES} bytes`, metadata: { argument: 'body', limit: MAX_BODY_BYTES } }),
)

/**
 * Serves a simulator over HTTP: the simulated operations under `basePath`, the control API under `/__sim`
 * (unless `control: false`), and a 404 envelope anywhere else. Node only. Resolves once it listens;
 * rejects when it cannot (the port is in use), leaving nothing listening.
 *
 * @example
 * import { createSimulator } from 'model-access-sim'
 * import { startServer } from 'model-access-sim/server'
 *
 * const sim = createSimulator()
 * const server = await startServer(sim, { port: 0 })
 * const res = await fetch(`${server.url}/keys`, { headers: { authorization: `Bearer ${sim.world.managementKey}` } })
 * console.log(res.status, server.url.endsWith('/api/v1'))
 * //=> 200 true
 * await server.close()
 */
export async function startServer(sim: Simulator<unknown>, options: StartServerOptions = {}): Promise<SimulatorServer> {
  const { port, host, basePath, control, controlToken, idleTimeoutMs, headersTimeoutMs, cors } = checkOptions(options)
  if (typeof sim !== 'object' || sim === null || typeof sim.handle !== 'function') {
    throw invalidArgument('start the server', 'sim', 'must be a simulator (createSimulator())')
  }
  const controlApi = control ? createControlApi(sim, { toBase64: bufferBase64 }) : undefined
  // A download is written from the store's own bytes, not a copy per request (src/core/internals.ts).
  const handle = internalsOf(sim)?.handleShared ?? ((request: SimRequest) => sim.handle(request))
  let controlBodies = 0
  const onRequest = options.onRequest
  const bases = control ? [basePath, CONTROL_BASE_PATH] : [basePath]
  const sockets = new Set<Socket>()
  const timers = new Set<NodeJS.Timeout>()
  // Set once the server listens, before any request can arrive: the rules need the real port.
  let gate: ReturnType<typeof createControlGate> | undefined

  const serve = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const arrived = Date.now()
    const started = performance.now()
    const method = req.method ?? 'GET'
    const raw = req.url ?? '/'
    const url = requestUrl(raw)
    let operation: RequestLogEntry['operation'] = null
    // Set for a page's request (not the control API's): its answer says any origin may read it.
    let crossOrigin = false
    const log = (status: number): void => {
      onRequest?.({ time: new Date(arrived).toISOString(), method, path: raw, status, operation, ms: Math.round((performance.now() - started) * 10) / 10 })
    }
    const send = (answer: AnsweredResponse): void => {
      const wire = toWire(answer, method)
      if (crossOrigin) grantRead(wire.headers)
      res.writeHead(wire.status, wire.headers)
      res.end(wire.body ?? undefined)
      log(wire.status)
    }
    // Node's own answer to a missing Host was a bare 400; HTTP/1.1 requires one (RFC 9112, 3.2).
    if (req.headers.host === undefined && req.httpVersion === '1.1') {
      res.setHeader('connection', 'close')
      send(protocolError(400, 'An HTTP/1.1 request must carry a Host header', 'missing_host'))
      return
    }

    const controlPath = controlApi === undefined ? undefined : pathBelow(CONTROL_BASE_PATH, url.pathname)
    if (controlApi !== undefined && controlPath !== undefined) {
      operation = 'control'
      const refused = gate?.(req.headers)
      if (refused !== undefined) {
        // Unread, the body would hold the connection: it is dropped after the answer.
        res.setHeader('connection', 'close')
        send(refused)
        req.resume()
        return
      }
      const counted = hasBody(req)
      if (counted && controlBodies >= MAX_CONTROL_BODIES) {
        res.setHeader('connection', 'close')
        send(CONTROL_BUSY)
        req.resume()
        return
      }
      if (counted) controlBodies++
      let body: string | null | undefined
      try {
        body = await readBody(req)
      } finally {
        if (counted) controlBodies--
      }
      const answer = body === undefined ? TOO_LARGE : controlApi.handle({ method, path: controlPath, query: url.searchParams, body })
      if (answer.type !== 'parts') return send(answer)
      await writeParts(res, answer)
      // 0, as for a dropped connection, when the client went away before the last part.
      log(res.writableEnded ? answer.status : 0)
      return
    }
    const below = pathBelow(basePath, url.pathname) !== undefined
    // Outside the base path too: a page whose base URL lacks `/api/v1` reads the 404 that says so,
    // not a browser's bare CORS error.
    if (cors && req.headers.origin !== undefined) {
      // A preflight is the browser's question, not the page's request: answered here, it reaches
      // no operation, journal, rate limit or fault, as the real service's edge answers it.
      if (isPreflight(method, req.headers)) {
        send(preflightAnswer(req.headers))
        req.resume()
        return
      }
      crossOrigin = true
    }
    const extras =
      below && mayHaveBody(method) ? { body: await readServiceBody(req), headers: { 'content-type': req.headers['content-type'] } } : undefined
    const request = toSimRequest(method, url, basePath, req.headers.authorization ?? null, extras)
    if (request === undefined) {
      send(outsideResponse(method, url.pathname, bases))
      return
    }
    // Routing a second time only for the log line: skipped when nobody reads it.
    if (onRequest !== undefined) operation = operationOf(request)
    const response: SimResponse = handle(request)
    if (response.realDelay && response.delayMs !== undefined) {
      // A silence asked for is not an idle connection.
      req.socket.setTimeout(0)
      // A client that goes away, or a server that closes, during the wait gets no answer.
      await realWait(response.delayMs, res, timers)
      if (res.destroyed) {
        // An answer nobody received: a stream is charged its prompt only, and journaled
        // 'cut-short'; any other answer stands, journaled 'client-left' (decisions/0044).
        if (isAnswered(response)) response.cancel?.(0)
        return log(0)
      }
      req.socket.setTimeout(idleTimeoutMs)
    }
    if (response.type === 'stream' && method.toUpperCase() !== 'HEAD') {
      // The grant goes on a copy: the simulator's response object is left as it made it.
      const headers = crossOrigin ? { ...response.headers } : response.headers
      if (crossOrigin) grantRead(headers)
      await writeStream(res, response, headers, timers).then(() => log(res.destroyed ? 0 : response.status))
    } else if (isAnswered(response)) send(response)
    else if (response.type === 'network-error') {
      req.socket.destroy()
      log(0)
    } else {
      // Held until the client gives up or the server closes.
      req.socket.setTimeout(0)
      res.on('close', () => log(0))
    }
  }

  const server: Server = createServer(
    {
      // Host is checked by serve(), which answers with the envelope and a log line.
      requireHostHeader: false,
      headersTimeout: headersTimeoutMs,
      // The whole request, a 64 MiB control body included, on loopback.
      requestTimeout: Math.max(60_000, headersTimeoutMs),
      // How often node looks for requests past those timeouts: often enough to keep them.
      connectionsCheckingInterval: Math.min(1_000, Math.max(50, Math.floor(headersTimeoutMs / 4))),
    },
    (req, res) => {
      serve(req, res).catch((error: unknown) => {
        // sim.handle never throws; this is the adapter's own failure (or a client gone mid-body),
        // answered as the core would.
        if (res.headersSent || res.destroyed) return void res.destroy()
        const wire = toWire(jsonResponse(500, errorEnvelope(500, { metadata: { reason: String(error) } })), req.method ?? 'GET')
        res.writeHead(wire.status, wire.headers).end(wire.body ?? undefined)
      })
    },
  )
  // A connection that moves no byte for idleTimeoutMs is closed: an idle keep-alive, a client that
  // stalls its body, or one that stops reading a large answer (which would hold it for ever).
  server.setTimeout(idleTimeoutMs, (socket) => socket.destroy())

  /** Logs a request node answered, or refused, before serve() saw it. */
  const logRefusal = (method: string, path: string, status: number): void => {
    onRequest?.({ time: new Date().toISOString(), method, path, status, operation: null, ms: 0 })
  }
  // `Expect: 200-ok` (anything but 100-continue): node answered a bare 417.
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    const wire = toWire(protocolError(417, `Expectation ${JSON.stringify(req.headers.expect ?? '')} is not supported; only 100-continue is`, 'unsupported_expectation'), req.method ?? 'GET')
    res.writeHead(wire.status, { ...wire.headers, connection: 'close' }).end(wire.body ?? undefined)
    logRefusal(req.method ?? 'GET', req.url ?? '', 417)
  })
  // CONNECT asks for a tunnel, which this server is not: node closed the socket without a word.
  server.on('connect', (req: IncomingMessage, socket: Socket) => {
    writeRaw(socket, protocolError(405, 'CONNECT is not supported: this is not a proxy', 'connect_not_supported'), 'CONNECT')
    logRefusal('CONNECT', req.url ?? '', 405)
  })
  // What node's HTTP parser refuses before a request exists (an unknown method, a header block over
  // its limit, a target with bytes HTTP forbids) still gets an envelope, not a bare status line.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return void socket.destroy()
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400
    const message = status === 431 ? 'Request header fields too large' : status === 408 ? 'Request timeout' : 'Malformed HTTP request'
    // The method, when the parser got that far: a HEAD still gets no body.
    const method = (error as { rawPacket?: Buffer }).rawPacket?.toString('latin1', 0, 5) === 'HEAD ' ? 'HEAD' : 'GET'
    writeRaw(socket, protocolError(status, message, error.code ?? 'malformed'), method)
    // The request line, as far as the parser read it, for the log.
    const [logged = '', target = ''] = ((error as { rawPacket?: Buffer }).rawPacket?.toString('latin1', 0, 200) ?? '').split(/\r?\n/, 1)[0]?.split(' ') ?? []
    logRefusal(/^[A-Z]{1,20}$/.test(logged) ? logged : '-', target, status)
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })

  await new Promise<void>((resolve, reject) => {
    const fail = (error: NodeJS.ErrnoException): void => {
      server.close()
      const reason =
        error.code === 'EADDRINUSE'
          ? `port ${port} on ${host} is already in use`
          : error.code === 'EACCES'
            ? `no permission to listen on port ${port} on ${host}`
            : error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND'
              ? `${host} is not an address of this machine`
              : error.message
      reject(Object.assign(new Error(`Failed to start the server: ${reason} (${error.code ?? 'error'}).`), { code: error.code, cause: error }))
    }
    server.once('error', fail)
    server.listen(port, host, () => {
      server.off('error', fail)
      resolve()
    })
  })

  const actualPort = (server.address() as AddressInfo).port
  gate = createControlGate({ bindHost: host, port: actualPort, controlToken })
  const warning = exposureWarning(host, controlToken, control)
  if (warning !== undefined) process.emitWarning(warning, { code: 'MODEL_ACCESS_SIM_EXPOSED' })
  const origin = `http://${urlHost(host)}:${actualPort}`
  let closing: Promise<void> | undefined
  return {
    url: `${origin}${basePath}`,
    controlUrl: `${origin}${CONTROL_BASE_PATH}`,
    port: actualPort,
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        for (const timer of timers) clearTimeout(timer)
        timers.clear()
        server.close((error) => (error ? reject(error) : resolve()))
        for (const socket of sockets) socket.destroy()
      })
      return closing
    },
  }
}
