// model-access-sim/server: the simulator over a real socket, for clients in any language
// (decisions/0013). A node:http adapter: it translates requests and responses with the same module
// as the MSW handlers, and keeps no rule of its own.
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import type { OperationName, SimResponse } from '../core/api.js'
import { operationOf } from '../core/api.js'
import { CONTROL_BASE_PATH, createControlApi } from '../core/control.js'
import { errorEnvelope, invalidArgument } from '../core/errors.js'
import { ArgumentChecker, fieldsOf } from '../core/store/check.js'
import { type AnsweredResponse, isAnswered, streamChunks, jsonResponse, mayHaveBody, normaliseBasePath, outsideResponse, pathBelow, toSimRequest, toWire } from '../core/http.js'
import { MAX_BODY_BYTES as MAX_SERVICE_BODY_BYTES } from '../core/body.js'
import type { Simulator } from '../core/simulator.js'

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

export interface StartServerOptions {
  /** Port to listen on; 0 picks a free one (read it from the result). Default 4010. */
  port?: number
  /** Interface to bind. Default `127.0.0.1`: only this machine can reach it. `0.0.0.0` only when you mean it. */
  host?: string
  /** Where the service's operations live. Default `/api/v1`, as on the real service. */
  basePath?: string
  /** Serve the control API under `/__sim`. Default true; false makes every `/__sim` path a 404. */
  control?: boolean
  /** Called once per request answered (control requests included), for logging. */
  onRequest?: (entry: RequestLogEntry) => void
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

const SERVER_OPTION_FIELDS = fieldsOf<StartServerOptions>({ port: true, host: true, basePath: true, control: true, onRequest: true })

function checkOptions(options: StartServerOptions): { port: number; host: string; basePath: string; control: boolean } {
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
  return { port, host, basePath, control }
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
  })
}

/**
 * Writes a stream answer frame by frame, waiting for real between frames only when the response
 * asks for it; stops early when the client goes away or the server closes.
 */
async function writeStream(res: ServerResponse, response: Extract<SimResponse, { type: 'stream' }>, timers: Set<NodeJS.Timeout>): Promise<void> {
  res.writeHead(response.status, response.headers)
  for (const chunk of streamChunks(response)) {
    if (chunk.waitMs > 0) {
      await new Promise<void>((resolve) => {
        const done = (): void => {
          clearTimeout(timer)
          timers.delete(timer)
          resolve()
        }
        const timer = setTimeout(done, chunk.waitMs)
        timers.add(timer)
        res.once('close', done)
      })
    }
    if (res.destroyed) return
    res.write(chunk.bytes)
  }
  res.end()
}

const TOO_LARGE = jsonResponse(
  413,
  errorEnvelope(413, { message: `Request body too large: the control API reads at most ${MAX_BODY_BYTES} bytes`, metadata: { argument: 'body', limit: MAX_BODY_BYTES } }),
)

/**
 * Serves a simulator over HTTP: the six operations under `basePath`, the control API under `/__sim`
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
  const { port, host, basePath, control } = checkOptions(options)
  if (typeof sim !== 'object' || sim === null || typeof sim.handle !== 'function') {
    throw invalidArgument('start the server', 'sim', 'must be a simulator (createSimulator())')
  }
  const controlApi = control ? createControlApi(sim) : undefined
  const onRequest = options.onRequest
  const bases = control ? [basePath, CONTROL_BASE_PATH] : [basePath]
  const sockets = new Set<Socket>()
  const timers = new Set<NodeJS.Timeout>()

  const serve = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const arrived = Date.now()
    const started = performance.now()
    const method = req.method ?? 'GET'
    const raw = req.url ?? '/'
    // An absolute-form target (`GET http://host/api/v1/keys`, as clients that treat the server as a
    // proxy send) is its path and query (RFC 9112, 3.2.2); any other that does not start with `/`
    // (`*`) is read as a path below the root.
    const absolute = /^https?:\/\//i.test(raw) && URL.canParse(raw) ? new URL(raw) : undefined
    const url = absolute ?? new URL(`http://simulator${raw.startsWith('/') ? raw : `/${raw}`}`)
    let operation: RequestLogEntry['operation'] = null
    const log = (status: number): void => {
      onRequest?.({ time: new Date(arrived).toISOString(), method, path: raw, status, operation, ms: Math.round((performance.now() - started) * 10) / 10 })
    }
    const send = (answer: AnsweredResponse): void => {
      const wire = toWire(answer, method)
      res.writeHead(wire.status, wire.headers)
      res.end(wire.body ?? undefined)
      log(wire.status)
    }

    const controlPath = controlApi === undefined ? undefined : pathBelow(CONTROL_BASE_PATH, url.pathname)
    if (controlApi !== undefined && controlPath !== undefined) {
      operation = 'control'
      const body = await readBody(req)
      send(body === undefined ? TOO_LARGE : controlApi.handle({ method, path: controlPath, query: url.searchParams, body }))
      return
    }
    const below = pathBelow(basePath, url.pathname) !== undefined
    const extras =
      below && mayHaveBody(method) ? { body: await readServiceBody(req), headers: { 'content-type': req.headers['content-type'] } } : undefined
    const request = toSimRequest(method, url, basePath, req.headers.authorization ?? null, extras)
    if (request === undefined) {
      send(outsideResponse(method, url.pathname, bases))
      return
    }
    // Routing a second time only for the log line: skipped when nobody reads it.
    if (onRequest !== undefined) operation = operationOf(request)
    const response: SimResponse = sim.handle(request)
    if (response.realDelay && response.delayMs !== undefined) {
      await new Promise<void>((resolve) => {
        const done = (): void => {
          clearTimeout(timer)
          timers.delete(timer)
          resolve()
        }
        const timer = setTimeout(done, response.delayMs)
        timers.add(timer)
        // A client that goes away, or a server that closes, during the wait gets no answer.
        res.on('close', done)
      })
      if (res.destroyed) return log(0)
    }
    if (response.type === 'stream' && method.toUpperCase() !== 'HEAD') await writeStream(res, response, timers).then(() => log(res.destroyed ? 0 : response.status))
    else if (isAnswered(response)) send(response)
    else if (response.type === 'network-error') {
      req.socket.destroy()
      log(0)
    } else {
      // Held until the client gives up or the server closes.
      res.on('close', () => log(0))
    }
  }

  const server: Server = createServer((req, res) => {
    serve(req, res).catch((error: unknown) => {
      // sim.handle never throws; this is the adapter's own failure, answered as the core would.
      if (res.headersSent) return void res.destroy()
      const wire = toWire(jsonResponse(500, errorEnvelope(500, { metadata: { reason: String(error) } })), req.method ?? 'GET')
      res.writeHead(wire.status, wire.headers).end(wire.body ?? undefined)
    })
  })
  // What node's HTTP parser refuses before a request exists (an unknown method, a header block over
  // its limit, a target with bytes HTTP forbids) still gets an envelope, not a bare status line.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return void socket.destroy()
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400
    const message = status === 431 ? 'Request header fields too large' : status === 408 ? 'Request timeout' : 'Malformed HTTP request'
    // The method, when the parser got that far: a HEAD still gets no body.
    const method = (error as { rawPacket?: Buffer }).rawPacket?.toString('latin1', 0, 5) === 'HEAD ' ? 'HEAD' : 'GET'
    const wire = toWire(jsonResponse(status, errorEnvelope(status, { message, metadata: { reason: error.code ?? 'malformed' } })), method)
    const head = Object.entries({ ...wire.headers, connection: 'close' }).map(([name, value]) => `${name}: ${value}\r\n`).join('')
    socket.end(Buffer.concat([Buffer.from(`HTTP/1.1 ${status} ${message}\r\n${head}\r\n`, 'latin1'), typeof wire.body === 'string' ? Buffer.from(wire.body) : (wire.body ?? Buffer.alloc(0))]))
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
