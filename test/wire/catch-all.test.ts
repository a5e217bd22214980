import { describe, expect, it, vi } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { call, callJson, useSimulatorServer } from '../support/server.js'

const harness = useSimulatorServer()

/** The request is rejected as one no handler matches, and MSW's error (kept off the output) names its URL. */
async function expectUnhandled(request: () => Promise<unknown>, url: string): Promise<void> {
  const printed = vi.spyOn(console, 'error').mockImplementation(() => {})
  try {
    await expect(request()).rejects.toThrow()
    expect(printed.mock.calls.map((args) => args.join(' ')).join('\n')).toContain(`intercepted a request without a matching request handler`)
    expect(printed.mock.calls.map((args) => args.join(' ')).join('\n')).toContain(url)
  } finally {
    printed.mockRestore()
  }
}

describe('anything else under the base URL', () => {
  it.each([
    ['POST', '/audio/speech'],
    ['GET', '/scim/groups'],
    ['GET', ''],
    ['GET', '/'],
    ['GET', '/models/anthropic/claude-sonnet-4.5'],
    // A method the path does not take.
    ['PUT', '/keys'],
    ['POST', '/keys/abc'],
    ['PUT', '/workspaces/default'],
    ['POST', '/workspaces/default'],
  ])('answers %s %j with a 404 envelope naming what is not simulated', async (method, path) => {
    const sim = createSimulator()
    harness.serve(sim)
    const { status, body, res } = await callJson(path, { method, key: sim.world.managementKey })
    expect(status).toBe(404)
    expect(res.headers.get('content-type')).toBe('application/json')
    expect(body.error.code).toBe(404)
    expect(body.error.message).toContain(`${method} ${path || '/'} is not simulated`)
    expect(body.error.metadata).toEqual({ reason: 'not_simulated', method, path: path || '/' })
  })

  it('answers HEAD with the headers GET would carry and no body', async () => {
    const sim = createSimulator()
    harness.serve(sim)
    const head = await call('/videos/models', { method: 'HEAD' })
    const get = sim.handle({ method: 'HEAD', path: '/videos/models' })
    expect(head.status).toBe(get.status)
    expect(head.headers.get('content-type')).toBe('application/json')
    expect(head.headers.get('content-length')).toBe(String(new TextEncoder().encode(JSON.stringify(get.body)).byteLength))
    expect(await head.text()).toBe('')
  })

  it('sends content-length with every JSON answer, counting bytes, not characters', async () => {
    const sim = createSimulator()
    harness.serve(sim)
    sim.faults.add({ operation: 'listVideoModels', respond: { status: 503, message: 'Überlastet — später erneut' } })
    const res = await call('/videos/models')
    const text = await res.text()
    expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(text)))
    expect(Buffer.byteLength(text)).toBeGreaterThan(text.length)
  })

  it('serves a custom base URL and only that one', async () => {
    const sim = createSimulator()
    harness.serve(sim, 'http://sim.test/api/v1/')
    expect((await call('/videos/models', { base: 'http://sim.test/api/v1' })).status).toBe(200)
    // The default base is not mounted now: MSW's onUnhandledRequest: 'error' makes fetch reject.
    await expectUnhandled(() => call('/videos/models'), 'https://openrouter.ai/api/v1/videos/models')
  })

  it('does not intercept a sibling path that merely starts with the base URL', async () => {
    harness.serve(createSimulator())
    await expectUnhandled(() => call('/videos/models', { base: 'https://openrouter.ai/api/v10' }), 'https://openrouter.ai/api/v10/videos/models')
  })

  it.each(['/api/v1', 'localhost:3000/api/v1', 'ftp://example.com/api/v1', 'not a url', 'https://sim.test/api/v1?region=eu', 'https://sim.test/api/v1#top'])('refuses %j, which is not an absolute http(s) URL without query or fragment, naming baseUrl', async (baseUrl) => {
    const { createHandlers } = await import('../../src/msw/index.js')
    expect(() => createHandlers(createSimulator(), { baseUrl })).toThrow(expect.objectContaining({ name: 'SimulatorError', argument: 'baseUrl' }))
    expect(() => createHandlers(createSimulator(), { baseUrl })).toThrow(/"baseUrl" must be an absolute http: or https: URL/)
  })

  it('refuses a misspelt option instead of serving the default base URL', async () => {
    const { createHandlers } = await import('../../src/msw/index.js')
    expect(() => createHandlers(createSimulator(), { baseURL: 'http://sim.test/api/v1' } as never)).toThrow(
      expect.objectContaining({
        name: 'SimulatorError',
        argument: 'baseURL',
        message: 'Failed to create handlers: "baseURL" is not a field of the options of createHandlers (known fields: baseUrl).',
      }),
    )
  })
})
