// The one translation between HTTP and the core, shared by the MSW handlers and the node:http
// server: a URL into a SimRequest, and a SimResponse into status, headers and body bytes. Neither
// adapter writes a header or body rule of its own.
import type { SimRequest, SimResponse, StreamFrame } from './protocol.js'
import { payloadOf } from './operations/operation.js'
import { errorEnvelope } from './errors.js'
import { utf8Length } from './json-text.js'

/**
 * A response ready for the wire: the body is absent for HEAD and for 204. A cached JSON body comes
 * as its text (its UTF-8 length already in `content-length`), for the adapter to send as it is.
 */
export interface WireResponse {
  status: number
  headers: Record<string, string>
  body: Uint8Array | string | null
}

/** An answer the adapters can put on the wire (faults that drop the connection are theirs to act out). */
export type AnsweredResponse = Extract<SimResponse, { type: 'json' | 'bytes' | 'stream' }>

/** Whether a response is an answer to write (not a fault that drops or holds the connection). */
export function isAnswered(response: SimResponse): response is AnsweredResponse {
  return response.type === 'json' || response.type === 'bytes' || response.type === 'stream'
}

const encoder = new TextEncoder()

/**
 * A base path as adapters keep it: `''` for the root, else `/segments` without a trailing slash.
 * Returns undefined when it is not a path (no leading `/`, or a query or fragment in it).
 */
export function normaliseBasePath(basePath: string): string | undefined {
  if (!basePath.startsWith('/') || /[?#\s]/.test(basePath)) return undefined
  return basePath.replace(/\/+$/, '')
}

/**
 * The path below `basePath` (`/api/v1` and `/api/v1/keys` give `/` and `/keys`), or undefined when
 * `pathname` is not under it (`/api/v12`, `/other`).
 */
export function pathBelow(basePath: string, pathname: string): string | undefined {
  if (pathname === basePath) return '/'
  if (!pathname.startsWith(`${basePath}/`)) return undefined
  return pathname.slice(basePath.length)
}

/** Whether a request with this method can carry a body the core reads (GET and HEAD cannot). */
export function mayHaveBody(method: string): boolean {
  const upper = method.toUpperCase()
  return upper !== 'GET' && upper !== 'HEAD'
}

/**
 * The SimRequest of an HTTP request to `url`, or undefined when the URL is not under `basePath`.
 * `extras` are the body and the headers the core reads (`content-type`).
 */
export function toSimRequest(
  method: string,
  url: Pick<URL, 'pathname' | 'searchParams'>,
  basePath: string,
  authorization: string | null,
  extras?: { body: string | Uint8Array | null; headers: Record<string, string | undefined> },
): SimRequest | undefined {
  const path = pathBelow(basePath, url.pathname)
  if (path === undefined) return undefined
  const request: SimRequest = { method, path, query: url.searchParams, authorization }
  if (extras !== undefined) {
    request.body = extras.body
    request.headers = extras.headers
  }
  return request
}

/** Status, headers and body bytes of an answer to a request made with `method`. */
export function toWire(response: AnsweredResponse, method: string): WireResponse {
  const headers = { ...response.headers }
  if (response.status === 204) return { status: 204, headers, body: null }
  // HTTP forbids a body on HEAD; the headers are those GET would carry.
  const head = method.toUpperCase() === 'HEAD'
  // A stream sent at once: every frame, in order (adapters that pace frames write them one by one).
  if (response.type === 'stream') {
    const bytes = encoder.encode(response.body.map((frame) => frame.data).join(''))
    headers['content-length'] = String(bytes.byteLength)
    return { status: response.status, headers, body: head ? null : bytes }
  }
  const payload = response.type === 'json' ? payloadOf(response) : undefined
  if (payload !== undefined) {
    // The body before its size: a payload that makes its text (an answer) learns the size then.
    const body = head ? null : payload.bytes !== undefined ? payload.bytes() : payload.text()
    headers['content-length'] = String(payload.byteLength)
    return { status: response.status, headers, body }
  }
  if (response.type === 'json') {
    // Sent as text, as a cached payload is: encoding it to bytes first made MSW build a byte stream
    // for every answer (a write's answer, an error), a measurable part of a request's cost.
    const text = JSON.stringify(response.body)
    headers['content-length'] = String(utf8Length(text))
    return { status: response.status, headers, body: head ? null : text }
  }
  headers['content-length'] = String(response.body.byteLength)
  return { status: response.status, headers, body: head ? null : response.body }
}

/**
 * The real milliseconds to wait before frame `i` of a stream answer: its offset from the frame
 * before it (from 0 for the first) when the response asks for real waits (`realDelay`), else 0.
 */
export function frameWait(response: Extract<SimResponse, { type: 'stream' }>, i: number): number {
  if (!response.realDelay) return 0
  const frames = response.body
  return Math.max(0, (frames[i] as StreamFrame).atMs - (i === 0 ? 0 : (frames[i - 1] as StreamFrame).atMs))
}

/** The frames of a stream answer as bytes, each with the real milliseconds to wait before it ({@link frameWait}). */
export function streamChunks(response: Extract<SimResponse, { type: 'stream' }>): { waitMs: number; bytes: Uint8Array }[] {
  return response.body.map((frame, i) => ({ waitMs: frameWait(response, i), bytes: encoder.encode(frame.data) }))
}

/** A JSON answer with its content type. */
export function jsonResponse(status: number, body: unknown): AnsweredResponse {
  return { status, headers: { 'content-type': 'application/json' }, type: 'json', body }
}

/** The 404 envelope for a path outside both the simulated API and the control API. */
export function outsideResponse(method: string, pathname: string, bases: readonly string[]): AnsweredResponse {
  return jsonResponse(
    404,
    errorEnvelope(404, {
      message: `${method} ${pathname} is outside the simulated API; it serves ${bases.map((base) => `${base || '/'}`).join(' and ')}`,
      metadata: { reason: 'outside_base_path', method, path: pathname },
    }),
  )
}
