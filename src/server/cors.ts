// Cross-origin reads of the service's operations by browser pages (decisions/0069): the real
// service answers web apps (its OAuth flow is made for them), so a page on a dev server's origin
// must be able to call this server the same way. The control API grants none (decisions/0019).
import type { IncomingHttpHeaders } from 'node:http'
import type { AnsweredResponse } from '../core/http.js'

/** The methods a page may use: every method an operation answers. */
const METHODS = 'GET, POST, PUT, PATCH, DELETE'

/** Seconds a browser may reuse a preflight's answer (Chromium caps it at 7,200, Firefox at 86,400). */
const MAX_AGE_SECONDS = '600'

/**
 * Response headers a page reads without their being exposed (the CORS-safelisted response
 * headers); every other header of an answer is listed in `access-control-expose-headers`.
 */
const SAFELISTED = new Set(['cache-control', 'content-language', 'content-length', 'content-type', 'expires', 'last-modified', 'pragma'])

/** Whether a request is a CORS preflight: OPTIONS with an `Origin` and the method it asks about. */
export function isPreflight(method: string, headers: IncomingHttpHeaders): boolean {
  return method === 'OPTIONS' && headers.origin !== undefined && headers['access-control-request-method'] !== undefined
}

/**
 * The answer to a preflight: 204, any origin, every method an operation answers, and the
 * headers the page asked to send, whatever they are (clients add their own: `x-stainless-*`,
 * `http-referer`, `x-title`), so that what is refused is refused by the operation, with an
 * envelope the page can read.
 */
export function preflightAnswer(headers: IncomingHttpHeaders): AnsweredResponse {
  const answer: Record<string, string> = {
    'access-control-allow-origin': '*',
    'access-control-allow-methods': METHODS,
    'access-control-max-age': MAX_AGE_SECONDS,
    vary: 'origin, access-control-request-method, access-control-request-headers',
  }
  const asked = headers['access-control-request-headers']
  if (asked !== undefined && asked.trim() !== '') answer['access-control-allow-headers'] = asked
  return { status: 204, headers: answer, type: 'bytes', body: new Uint8Array(0) }
}

/**
 * Adds to `headers` (an answer's, about to be written) what lets a page of any origin read it:
 * the origin grant and the answer's own headers beyond the safelisted ones (`retry-after`,
 * `content-disposition`, a fault's or responder's own), which a browser hides from the page
 * unless they are listed.
 */
export function grantRead(headers: Record<string, string>): void {
  const exposed: string[] = []
  for (const name in headers) {
    const lower = name.toLowerCase()
    if (!SAFELISTED.has(lower)) exposed.push(lower)
  }
  headers['access-control-allow-origin'] = '*'
  if (exposed.length > 0) headers['access-control-expose-headers'] = exposed.join(', ')
  const vary = headers['vary']
  headers['vary'] = vary === undefined || vary === '' ? 'origin' : `${vary}, origin`
}
