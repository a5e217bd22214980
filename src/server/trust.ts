// Who may drive the control API (decisions/0019). The service's operations answer any client, as
// the real service does; the control API can read every secret and rewrite every record, so it
// answers only a client that is plainly the local test process, or one that holds the token.
import { createHash, timingSafeEqual } from 'node:crypto'
import { isIP } from 'node:net'
import type { IncomingHttpHeaders } from 'node:http'
import { isJsonContentType } from '../core/body.js'
import { errorEnvelope } from '../core/errors.js'
import { type AnsweredResponse, jsonResponse } from '../core/http.js'

/** The header a client sends the control token in: `authorization: Bearer <token>`. */
export const CONTROL_TOKEN_SCHEME = 'Bearer'

/** Whether a bind address or a Host name is this machine's loopback: `localhost`, `*.localhost`, 127.0.0.0/8, `::1`. */
export function isLoopbackName(name: string): boolean {
  const host = name.toLowerCase().replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '')
  if (host === 'localhost' || host.endsWith('.localhost')) return true
  if (isIP(host) === 4) return host.startsWith('127.')
  if (isIP(host) === 6) return host === '::1' || host === '0:0:0:0:0:0:0:1' || /^::ffff:127\./.test(host)
  return false
}

/** An authority's host as RFC 3986 writes it: an IP literal in brackets, or a name or IPv4 address of letters, digits, `-`, `.`, `_`, `~`. */
const AUTHORITY = /^(?:\[([0-9A-Fa-f:.]+)\]|([A-Za-z0-9._~-]+))(?::\d*)?$/

/**
 * The host name of an authority, as a Host header or an Origin's host writes it (`127.0.0.1:4010`,
 * `[::1]:4010`, `localhost`): lower case, without the port or brackets. Undefined when the text is
 * not an authority at all (`evil.example/.localhost`, `user@localhost`, a space): such a Host names
 * no host this server can vouch for. The one parser of the trust rules.
 */
export function authorityHost(header: string): string | undefined {
  const match = AUTHORITY.exec(header)
  if (match === null) return undefined
  return (match[1] ?? (match[2] as string)).toLowerCase()
}

/** What the trust rules need to know about the server. */
export interface TrustSettings {
  /** The address the server was asked to bind. */
  bindHost: string
  /** The port it listens on. */
  port: number
  /** The token control clients must send; undefined for none. */
  controlToken: string | undefined
}

function refusal(status: number, reason: string, message: string, extra: Record<string, unknown> = {}): AnsweredResponse {
  const answer = jsonResponse(status, errorEnvelope(status, { message, metadata: { reason, ...extra } }))
  if (status === 401) answer.headers['www-authenticate'] = `${CONTROL_TOKEN_SCHEME} realm="model-access-sim control API"`
  return answer
}

/** An authorization header that sends a token: the scheme, one or more spaces, the token, nothing after. */
const BEARER = new RegExp(`^${CONTROL_TOKEN_SCHEME}[ ]+([^ ]+)[ ]*$`, 'i')

const digest = (text: string): Buffer => createHash('sha256').update(text).digest()

/**
 * The control API's gate: a function of a control request's headers that answers with a refusal, or
 * undefined to let the request through. Checked in this order, so that the first answer names the
 * first problem: the Host (a DNS-rebinding page sends a name of its own), the token (on a server
 * that needs one), the Origin (a browser page sends one), the content type (a form or `text/plain`
 * POST is a request a page may send to any origin without asking).
 */
export function createControlGate(settings: TrustSettings): (headers: IncomingHttpHeaders) => AnsweredResponse | undefined {
  const loopbackBind = isLoopbackName(settings.bindHost)
  const boundName = authorityHost(settings.bindHost.includes(':') && !settings.bindHost.startsWith('[') ? `[${settings.bindHost}]` : settings.bindHost)
  const tokenDigest = settings.controlToken === undefined ? undefined : digest(settings.controlToken)
  // No name a page can rebind: a loopback name, the bound address, or (with a token, on a server
  // others reach by the machine's own addresses) any IP literal.
  const hostAllowed = (name: string | undefined): boolean =>
    name !== undefined && (isLoopbackName(name) || (name === boundName && boundName !== '0.0.0.0' && boundName !== '::') || (tokenDigest !== undefined && isIP(name) !== 0))
  return (headers) => {
    const host = headers.host
    if (host === undefined || !hostAllowed(authorityHost(host))) {
      return refusal(
        403,
        'host_not_allowed',
        `The control API answers only requests addressed to this machine by a loopback name or the address it is bound to; Host was ${JSON.stringify(host ?? null)}`,
        { argument: 'host' },
      )
    }
    if (tokenDigest === undefined && !loopbackBind) {
      return refusal(
        403,
        'control_token_required',
        'The control API is off: the server is bound to a non-loopback address without a control token (serve --control-token, or startServer({ controlToken }))',
      )
    }
    const origin = headers.origin
    if (origin !== undefined) {
      let sameServer = false
      if (URL.canParse(origin)) {
        const url = new URL(origin)
        sameServer = url.protocol === 'http:' && hostAllowed(authorityHost(url.host)) && Number(url.port || 80) === settings.port
      }
      if (!sameServer) {
        return refusal(403, 'foreign_origin', `The control API does not answer web pages: Origin ${JSON.stringify(origin)} is not this server`, { argument: 'origin' })
      }
    }
    if (tokenDigest !== undefined) {
      // Exactly the scheme and the token: `Bearer <token> junk` is no way of sending the token.
      const given = BEARER.exec(headers.authorization ?? '')?.[1]
      if (given === undefined) {
        return refusal(401, 'control_token_required', 'The control API needs the control token: send it as "authorization: Bearer <token>"', { argument: 'authorization' })
      }
      if (!timingSafeEqual(digest(given), tokenDigest)) {
        return refusal(401, 'control_token_invalid', 'The control token sent in the authorization header is not this server\'s', { argument: 'authorization' })
      }
    }
    const type = headers['content-type']
    if (!isJsonContentType(type)) {
      return refusal(415, 'unsupported_content_type', `The control API reads JSON: send "content-type: application/json" (or none), not ${JSON.stringify(type)}`, {
        argument: 'content-type',
      })
    }
    return undefined
  }
}

/** The warning for a bind other clients can reach, or undefined for a loopback one. */
export function exposureWarning(bindHost: string, controlToken: string | undefined, control: boolean): string | undefined {
  if (isLoopbackName(bindHost)) return undefined
  const controlPart = !control
    ? 'the control API is off (control: false).'
    : controlToken === undefined
      ? 'the control API is off until you give a control token (--control-token, or startServer({ controlToken })).'
      : 'the control API answers only requests that carry the control token.'
  return `model-access-sim is bound to ${bindHost}, which other machines may reach: the simulated API and its keys are served to them; ${controlPart}`
}
