// The control API's trust rules (decisions/0019): the attacks of issue 25, each now refused, while
// the service's operations keep answering any client.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createSimulator, SimulatorError } from '../../src/index.js'
import { type SimulatorServer, startServer } from '../../src/server/index.js'
import { isLoopbackName } from '../../src/server/trust.js'
import { failureOf, raw, useWildcardBindOnLoopback } from '../support/server.js'

const sim = createSimulator()
let server: SimulatorServer

beforeAll(async () => {
  server = await startServer(sim, { port: 0 })
})
afterAll(() => server.close())
afterEach(() => sim.faults.clear())

describe('the control API on a loopback server', () => {
  it('refuses a DNS-rebinding Host: no secret and no file byte leaves, and the service still answers that Host', async () => {
    const host = `attacker.example:${server.port}`
    for (const path of ['/__sim/world/export', '/__sim/journal', '/__sim/world', '/__sim/health']) {
      const answer = await raw(server.port, 'GET', path, { host })
      expect(answer.status, path).toBe(403)
      expect(answer.body.error, path).toMatchObject({ code: 403, metadata: { reason: 'host_not_allowed', argument: 'host' } })
      expect(answer.text, path).not.toContain('sk-or-v1-')
    }
    const service = await raw(server.port, 'GET', '/api/v1/videos/models', { host })
    expect(service.status).toBe(200)
  })

  it('refuses a Host that is not an authority, whatever loopback name it ends with', async () => {
    for (const host of ['evil.example/.localhost', `evil.example/.localhost:${server.port}`, 'evil.example?.localhost', 'evil.example#.localhost', 'evil.example\\.localhost', `user@localhost:${server.port}`, `[::1]/x:${server.port}`]) {
      const answer = await raw(server.port, 'GET', '/__sim/health', { host })
      expect(answer.status, host).toBe(403)
      expect(answer.body.error.metadata, host).toEqual({ reason: 'host_not_allowed', argument: 'host' })
    }
    // An Origin is read by the same parser.
    expect((await raw(server.port, 'GET', '/__sim/health', { origin: `http://localhost:${server.port}` })).status).toBe(200)
  })

  it('answers a Host that is a loopback name or address, with or without the port', async () => {
    for (const host of [`127.0.0.1:${server.port}`, `localhost:${server.port}`, `LOCALHOST:${server.port}`, `[::1]:${server.port}`, `app.localhost:${server.port}`, '127.0.0.1', `127.1.2.3:${server.port}`]) {
      expect((await raw(server.port, 'GET', '/__sim/health', { host })).status, host).toBe(200)
    }
    for (const host of [`localhost.attacker.example:${server.port}`, `127.0.0.1.nip.io:${server.port}`, `10.0.0.5:${server.port}`, '']) {
      expect((await raw(server.port, 'GET', '/__sim/health', { host })).status, host).toBe(403)
    }
  })

  it('refuses a text/plain POST from a foreign Origin, adds no fault, and grants no CORS', async () => {
    const answer = await raw(
      server.port,
      'POST',
      '/__sim/faults',
      { 'content-type': 'text/plain', origin: 'https://attacker.example' },
      JSON.stringify({ operation: 'listKeys', respond: { status: 503 } }),
    )
    expect(answer.status).toBe(403)
    expect(answer.body.error).toMatchObject({ code: 403, metadata: { reason: 'foreign_origin', argument: 'origin' } })
    expect(Object.keys(answer.headers).filter((name) => name.startsWith('access-control-'))).toEqual([])
    expect(sim.faults.list()).toEqual([])
    // A preflight is a request with an Origin too: refused, with nothing that would allow the real one.
    const preflight = await raw(server.port, 'OPTIONS', '/__sim/faults', {
      origin: 'https://attacker.example',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type',
    })
    expect(preflight.status).toBe(403)
    expect(Object.keys(preflight.headers).filter((name) => name.startsWith('access-control-'))).toEqual([])
    // `null` is what a sandboxed frame or a file:// page sends.
    expect((await raw(server.port, 'GET', '/__sim/health', { origin: 'null' })).status).toBe(403)
    expect((await raw(server.port, 'GET', '/__sim/health', { origin: `http://localhost:${server.port + 1}` })).status).toBe(403)
    expect((await raw(server.port, 'GET', '/__sim/health', { origin: `http://127.0.0.1:${server.port}` })).status).toBe(200)
  })

  it('accepts only a JSON or empty content type: a form or text/plain body is a 415 naming content-type', async () => {
    const fault = JSON.stringify({ operation: 'listKeys', respond: { status: 503 } })
    for (const type of ['text/plain', 'text/plain;charset=UTF-8', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonx']) {
      const answer = await raw(server.port, 'POST', '/__sim/faults', { 'content-type': type }, fault)
      expect(answer.status, type).toBe(415)
      expect(answer.body.error, type).toMatchObject({ code: 415, metadata: { reason: 'unsupported_content_type', argument: 'content-type' } })
    }
    expect(sim.faults.list()).toEqual([])
    expect((await raw(server.port, 'POST', '/__sim/faults', { 'content-type': 'application/json; charset=utf-8' }, fault)).status).toBe(201)
    expect((await raw(server.port, 'POST', '/__sim/faults', {}, fault)).status).toBe(201)
    expect((await raw(server.port, 'POST', '/__sim/reset', {})).status).toBe(204)
  })

  it('reads an empty content type as none, on the control API and the service alike', async () => {
    const fault = JSON.stringify({ operation: 'listKeys', respond: { status: 503 } })
    for (const type of ['', ' ']) {
      expect((await raw(server.port, 'POST', '/__sim/faults', { 'content-type': type }, fault)).status, JSON.stringify(type)).toBe(201)
      const created = await raw(server.port, 'POST', '/api/v1/keys', { 'content-type': type, authorization: `Bearer ${sim.world.managementKey}` }, JSON.stringify({ name: 'empty type' }))
      expect(created.status, JSON.stringify(type)).toBe(201)
    }
    // A JSON media type with a suffix is JSON to both; a type that only has parameters is not.
    expect((await raw(server.port, 'POST', '/__sim/faults', { 'content-type': 'application/merge-patch+json' }, fault)).status).toBe(201)
    expect((await raw(server.port, 'POST', '/__sim/faults', { 'content-type': '; charset=utf-8' }, fault)).status).toBe(415)
    const refused = await raw(server.port, 'POST', '/api/v1/keys', { 'content-type': '; charset=utf-8', authorization: `Bearer ${sim.world.managementKey}` }, JSON.stringify({ name: 'x' }))
    expect(refused.status).toBe(400)
    expect(refused.body.error.metadata.parameter).toBe('body')
  })

  it('keeps serving the operations to any Origin and content type, as the real service does', async () => {
    const answer = await raw(server.port, 'GET', '/api/v1/keys', { origin: 'https://attacker.example', 'content-type': 'text/plain', authorization: `Bearer ${sim.world.managementKey}` })
    expect(answer.status).toBe(200)
  })
})

describe('a control token', () => {
  it('is required on a loopback server too once given: none or a wrong one is a 401, the right one answers', async () => {
    const token = 'a-control-token-of-32-characters'
    const guarded = await startServer(createSimulator(), { port: 0, controlToken: token })
    try {
      const none = await raw(guarded.port, 'GET', '/__sim/world/export', {})
      expect(none.status).toBe(401)
      expect(none.headers['www-authenticate']).toMatch(/^Bearer /)
      expect(none.body.error.metadata).toEqual({ reason: 'control_token_required', argument: 'authorization' })
      expect(none.text).not.toContain('sk-or-v1-')
      const wrong = await raw(guarded.port, 'GET', '/__sim/world/export', { authorization: `Bearer ${token}x` })
      expect(wrong.status).toBe(401)
      expect(wrong.body.error.metadata.reason).toBe('control_token_invalid')
      expect((await raw(guarded.port, 'GET', '/__sim/health', { authorization: `bearer ${token}` })).status).toBe(200)
      // The header is the scheme and the token, nothing after: trailing text is not the token.
      for (const authorization of [`Bearer ${token} junk`, `Bearer ${token} ${token}`, `Bearer ${token},x`, `Bearer`, `Bearer `, `Basic ${token}`]) {
        const answer = await raw(guarded.port, 'GET', '/__sim/health', { authorization })
        expect(answer.status, authorization).toBe(401)
        expect(answer.body.error.metadata.reason, authorization).toMatch(/^control_token_(required|invalid)$/)
      }
      // The token does not make a foreign page trusted.
      expect((await raw(guarded.port, 'GET', '/__sim/health', { authorization: `Bearer ${token}`, origin: 'https://attacker.example' })).status).toBe(403)
    } finally {
      await guarded.close()
    }
  })

  it('must be at least 16 printable characters without spaces', async () => {
    for (const controlToken of ['short', 'has a space in the middle of it', 42]) {
      const error = await failureOf(startServer(createSimulator(), { port: 0, controlToken } as never))
      expect(error, String(controlToken)).toBeInstanceOf(SimulatorError)
      expect((error as SimulatorError).argument).toBe('controlToken')
    }
  })
})

describe('the options of startServer for trust and bounds', () => {
  it('refuses a timeout that is not a whole number of milliseconds from 1 to 3600000, naming the option', async () => {
    for (const [name, value] of [['idleTimeoutMs', 0], ['idleTimeoutMs', 1.5], ['headersTimeoutMs', '1000'], ['headersTimeoutMs', 3_600_001]] as const) {
      const error = await failureOf(startServer(createSimulator(), { port: 0, [name]: value } as never))
      expect(error, `${name} ${String(value)}`).toBeInstanceOf(SimulatorError)
      expect((error as SimulatorError).argument).toBe(name)
    }
  })
})

describe('a non-loopback bind', () => {
  // Tests never listen beyond loopback: the bind is redirected to 127.0.0.1, while the server is
  // told, and believes, it binds 0.0.0.0.
  useWildcardBindOnLoopback()

  async function exposed(options: { controlToken?: string }): Promise<{ server: SimulatorServer; warnings: string[] }> {
    const warnings: string[] = []
    const onWarning = (warning: Error & { code?: string }): void => {
      if (warning.code === 'MODEL_ACCESS_SIM_EXPOSED') warnings.push(warning.message)
    }
    process.on('warning', onWarning)
    try {
      const started = await startServer(createSimulator(), { port: 0, host: '0.0.0.0', ...options })
      // process.emitWarning delivers on the next tick.
      await new Promise((resolve) => setImmediate(resolve))
      return { server: started, warnings }
    } finally {
      process.off('warning', onWarning)
    }
  }

  it('without a token warns, serves the operations, and turns the control API off', async () => {
    const { server: open, warnings } = await exposed({})
    try {
      expect(warnings).toHaveLength(1)
      expect(warnings[0]).toMatch(/bound to 0\.0\.0\.0, which other machines may reach.*control API is off until you give a control token/)
      const answer = await raw(open.port, 'GET', '/__sim/world/export', {})
      expect(answer.status).toBe(403)
      expect(answer.body.error.metadata.reason).toBe('control_token_required')
      expect(answer.text).not.toContain('sk-or-v1-')
      expect((await raw(open.port, 'GET', '/api/v1/videos/models', {})).status).toBe(200)
    } finally {
      await open.close()
    }
  })

  it('with a token warns, and answers control clients that send it by any IP address of the machine', async () => {
    const token = 'another-control-token-0123456789'
    const { server: open, warnings } = await exposed({ controlToken: token })
    try {
      expect(warnings[0]).toMatch(/answers only requests that carry the control token/)
      expect((await raw(open.port, 'GET', '/__sim/health', {})).status).toBe(401)
      expect((await raw(open.port, 'GET', '/__sim/health', { authorization: `Bearer ${token}`, host: `192.168.1.20:${open.port}` })).status).toBe(200)
      expect((await raw(open.port, 'GET', '/__sim/health', { authorization: `Bearer ${token}`, host: `attacker.example:${open.port}` })).status).toBe(403)
    } finally {
      await open.close()
    }
  })

  it('names loopback addresses and names as loopback, and nothing else', () => {
    for (const name of ['127.0.0.1', '127.255.0.9', '::1', '[::1]', 'localhost', 'Localhost.', 'a.localhost', '::ffff:127.0.0.1']) expect(isLoopbackName(name), name).toBe(true)
    for (const name of ['0.0.0.0', '::', '10.0.0.1', '128.0.0.1', 'localhost.example', 'mylocalhost', '::2']) expect(isLoopbackName(name), name).toBe(false)
  })
})
