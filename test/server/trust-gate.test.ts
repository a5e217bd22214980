// The control API's trust rules as functions (src/server/trust.ts, decisions/0019): the gate a
// request's headers pass, the warning of an exposed bind, what counts as loopback. trust.test.ts
// proves them over real sockets; these reach each rule and each message directly.
import { describe, expect, it } from 'vitest'
import { authorityHost, createControlGate, exposureWarning, isLoopbackName } from '../../src/server/trust.js'

const TOKEN = 'a-control-token-of-32-characters'

/** The gate's answer as a client reads it: status, reason, argument, message and the www-authenticate header. */
function answer(gate: ReturnType<typeof createControlGate>, headers: Record<string, string>) {
  const refused = gate(headers)
  if (refused === undefined) return undefined
  const body = refused.body as { error: { message: string; metadata: { reason: string; argument?: string } } }
  return { status: refused.status, ...body.error.metadata, message: body.error.message, authenticate: refused.headers['www-authenticate'] }
}

describe('the control gate of a loopback server without a token', () => {
  const gate = createControlGate({ bindHost: '127.0.0.1', port: 4010, controlToken: undefined })

  it('lets a request with a loopback Host and no Origin through', () => {
    expect(answer(gate, { host: '127.0.0.1:4010' })).toBeUndefined()
    expect(answer(gate, { host: 'localhost:4010', 'content-type': 'application/json' })).toBeUndefined()
  })

  it('refuses a missing or foreign Host with 403, saying which Host it got', () => {
    expect(answer(gate, {})).toEqual({
      status: 403,
      reason: 'host_not_allowed',
      argument: 'host',
      message: 'The control API answers only requests addressed to this machine by a loopback name or the address it is bound to; Host was null',
      authenticate: undefined,
    })
    expect(answer(gate, { host: 'attacker.example:4010' })?.message).toMatch(/; Host was "attacker\.example:4010"$/)
  })

  it('refuses a page of another origin, scheme or port, and answers one of this server', () => {
    const foreign = (origin: string) => answer(gate, { host: '127.0.0.1:4010', origin })
    expect(foreign('https://attacker.example')).toEqual({
      status: 403,
      reason: 'foreign_origin',
      argument: 'origin',
      message: 'The control API does not answer web pages: Origin "https://attacker.example" is not this server',
      authenticate: undefined,
    })
    for (const origin of ['https://127.0.0.1:4010', 'http://127.0.0.1:4011', 'http://attacker.example:4010', 'not a url', 'http://127.0.0.1']) expect(foreign(origin)?.reason, origin).toBe('foreign_origin')
    expect(foreign('http://127.0.0.1:4010')).toBeUndefined()
    expect(foreign('http://localhost:4010')).toBeUndefined()
  })

  it('reads an Origin without a port as port 80', () => {
    const on80 = createControlGate({ bindHost: '127.0.0.1', port: 80, controlToken: undefined })
    expect(answer(on80, { host: 'localhost', origin: 'http://localhost' })).toBeUndefined()
  })

  it('refuses a body that is not JSON with 415, naming the type it got', () => {
    expect(answer(gate, { host: '127.0.0.1:4010', 'content-type': 'text/plain' })).toEqual({
      status: 415,
      reason: 'unsupported_content_type',
      argument: 'content-type',
      message: 'The control API reads JSON: send "content-type: application/json" (or none), not "text/plain"',
      authenticate: undefined,
    })
  })
})

describe('the control gate of a server with a token', () => {
  const gate = createControlGate({ bindHost: '127.0.0.1', port: 4010, controlToken: TOKEN })

  it('asks for the token with 401 and a Bearer challenge, and refuses a wrong one', () => {
    expect(answer(gate, { host: '127.0.0.1:4010' })).toEqual({
      status: 401,
      reason: 'control_token_required',
      argument: 'authorization',
      message: 'The control API needs the control token: send it as "authorization: Bearer <token>"',
      authenticate: 'Bearer realm="model-access-sim control API"',
    })
    expect(answer(gate, { host: '127.0.0.1:4010', authorization: `Bearer ${TOKEN}x` })).toEqual({
      status: 401,
      reason: 'control_token_invalid',
      argument: 'authorization',
      message: "The control token sent in the authorization header is not this server's",
      authenticate: 'Bearer realm="model-access-sim control API"',
    })
  })

  it('takes the scheme in any case, with spaces around the token, and nothing else after it', () => {
    for (const authorization of [`Bearer ${TOKEN}`, `bearer ${TOKEN}`, `BEARER   ${TOKEN}  `]) expect(answer(gate, { host: '127.0.0.1:4010', authorization }), authorization).toBeUndefined()
    for (const authorization of [`Bearer ${TOKEN} x`, `Bearer${TOKEN}`, `xBearer ${TOKEN}`, `Bearer\t${TOKEN}`]) expect(answer(gate, { host: '127.0.0.1:4010', authorization })?.status, authorization).toBe(401)
  })
})

describe('the control gate of a server bound beyond loopback', () => {
  it('without a token refuses every request, after the Host, with 403 naming the missing token', () => {
    const gate = createControlGate({ bindHost: '192.168.1.20', port: 4010, controlToken: undefined })
    expect(answer(gate, { host: '192.168.1.20:4010' })).toEqual({
      status: 403,
      reason: 'control_token_required',
      message: 'The control API is off: the server is bound to a non-loopback address without a control token (serve --control-token, or startServer({ controlToken }))',
      authenticate: undefined,
    })
    expect(answer(gate, { host: '192.168.1.21:4010' })?.reason).toBe('host_not_allowed')
  })

  it('takes the name it is bound to as a Host', () => {
    const gate = createControlGate({ bindHost: 'server.lan', port: 4010, controlToken: undefined })
    expect(answer(gate, { host: 'server.lan:4010' })?.reason).toBe('control_token_required')
    expect(answer(gate, { host: 'other.lan:4010' })?.reason).toBe('host_not_allowed')
  })

  it('takes the IPv6 address it is bound to as a Host, in brackets', () => {
    const gate = createControlGate({ bindHost: 'fd00::5', port: 4010, controlToken: undefined })
    expect(answer(gate, { host: '[fd00::5]:4010' })?.reason).toBe('control_token_required')
    expect(answer(gate, { host: '[fd00::6]:4010' })?.reason).toBe('host_not_allowed')
    const bracketed = createControlGate({ bindHost: '[fd00::5]', port: 4010, controlToken: undefined })
    expect(answer(bracketed, { host: '[fd00::5]:4010' })?.reason).toBe('control_token_required')
  })

  it('does not take a wildcard bind address as a Host: no client addresses a server by it', () => {
    expect(answer(createControlGate({ bindHost: '0.0.0.0', port: 4010, controlToken: undefined }), { host: '0.0.0.0:4010' })?.reason).toBe('host_not_allowed')
    expect(answer(createControlGate({ bindHost: '::', port: 4010, controlToken: undefined }), { host: '[::]:4010' })?.reason).toBe('host_not_allowed')
  })

  it('with a token answers any IP address of the machine as a Host, and no name', () => {
    const gate = createControlGate({ bindHost: '0.0.0.0', port: 4010, controlToken: TOKEN })
    const authorization = `Bearer ${TOKEN}`
    expect(answer(gate, { host: '10.1.2.3:4010', authorization })).toBeUndefined()
    expect(answer(gate, { host: '[fd00::7]:4010', authorization })).toBeUndefined()
    expect(answer(gate, { host: 'server.example:4010', authorization })?.reason).toBe('host_not_allowed')
  })
})

describe('exposureWarning', () => {
  it('warns of a bind beyond loopback, saying what the control API does there', () => {
    expect(exposureWarning('127.0.0.1', undefined, true)).toBeUndefined()
    const start = 'model-access-sim is bound to 0.0.0.0, which other machines may reach: the simulated API and its keys are served to them; '
    expect(exposureWarning('0.0.0.0', undefined, false)).toBe(`${start}the control API is off (control: false).`)
    expect(exposureWarning('0.0.0.0', TOKEN, false)).toBe(`${start}the control API is off (control: false).`)
    expect(exposureWarning('0.0.0.0', undefined, true)).toBe(`${start}the control API is off until you give a control token (--control-token, or startServer({ controlToken })).`)
    expect(exposureWarning('0.0.0.0', TOKEN, true)).toBe(`${start}the control API answers only requests that carry the control token.`)
  })
})

describe('isLoopbackName and authorityHost', () => {
  it('takes the long form of ::1 and only IPv4-mapped 127/8 as loopback IPv6', () => {
    expect(isLoopbackName('0:0:0:0:0:0:0:1')).toBe(true)
    expect(isLoopbackName('::ffff:127.1.2.3')).toBe(true)
    for (const name of ['1::ffff:127.0.0.1', '::ffff:10.0.0.1', '::1:0']) expect(isLoopbackName(name), name).toBe(false)
  })

  it('takes brackets only around the whole name', () => {
    expect(isLoopbackName('[::1]')).toBe(true)
    for (const name of ['a[.localhost]', '[x.]localhost', 'a[::1]', '[::1]a']) expect(isLoopbackName(name), name).toBe(false)
  })

  it('reads the host of an authority, lower case, without brackets or port; and nothing from what is no authority', () => {
    expect(authorityHost('LOCALHOST:4010')).toBe('localhost')
    expect(authorityHost('[::1]:4010')).toBe('::1')
    expect(authorityHost('[::1]')).toBe('::1')
    expect(authorityHost('127.0.0.1:')).toBe('127.0.0.1')
    for (const text of ['a b', 'user@host', 'host:80x', 'x[::1]', '[::1]x', '']) expect(authorityHost(text), text).toBeUndefined()
  })
})
