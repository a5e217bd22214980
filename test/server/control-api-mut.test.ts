// The control API in process, for what the wire tests of control.test.ts check only through a server
// started before their tests (which StrykerJS does not count as reaching the route table): the
// routes of faults, latency, the journal and OAuth codes, the messages of a body that is no object or
// has an unknown field, the export (its query, its headers, written in parts with the encoder given,
// a spec without files), the journal page's headers and entries made when written, the operation
// and field named by a model's, video model's or file's error, a path that does not decode, and the
// clock's renaming of only its own argument.
import { describe, expect, it } from 'vitest'
import { createSimulator, SimulatorError, type SimResponse } from '../../src/index.js'
import { createControlApi } from '../../src/core/control-api.js'
import { type Answer, controlOf, read, wrapper } from '../support/control.js'


/** The 400 envelope of a bad argument, with its whole message. */
function expectRefused(answer: Answer, argument: string, message: string): void {
  expect(answer.status).toBe(400)
  expect(answer.body.error).toMatchObject({ code: 400, message, metadata: { argument, code: 'INVALID_ARGUMENT' } })
}

describe('the control API: faults, latency, the journal, OAuth codes', () => {
  it('lists the faults by name with their counts, and clears them', () => {
    const sim = createSimulator()
    const control = controlOf(sim)
    control('POST', '/faults', { name: 'keys down', operation: 'listKeys', respond: { status: 500 } })
    sim.handle({ method: 'GET', path: '/keys', authorization: `Bearer ${sim.world.managementKey}` })
    expect(control('GET', '/faults')).toEqual({ status: 200, body: { data: [{ name: 'keys down', matched: 1, fired: 1 }] } })
    expect(control('DELETE', '/faults')).toEqual({ status: 204, body: undefined })
    expect(sim.faults.list()).toEqual([])
    expect(control('GET', '/faults')).toEqual({ status: 200, body: { data: [] } })
  })

  it('sets latency and clears it', () => {
    const sim = createSimulator()
    const control = controlOf(sim)
    expect(control('PUT', '/latency', { operation: 'listVideoModels', ms: 1_500 })).toEqual({ status: 204, body: undefined })
    sim.handle({ method: 'GET', path: '/videos/models' })
    expect(sim.clock.now().toISOString()).toBe('2026-03-02T10:00:01.500Z')
    expect(control('DELETE', '/latency')).toEqual({ status: 204, body: undefined })
    sim.handle({ method: 'GET', path: '/videos/models' })
    expect(sim.clock.now().toISOString()).toBe('2026-03-02T10:00:01.500Z')
  })

  it('clears the journal', () => {
    const sim = createSimulator()
    const control = controlOf(sim)
    sim.handle({ method: 'GET', path: '/videos/models' })
    expect(sim.journal.list()).toHaveLength(1)
    expect(control('DELETE', '/journal')).toEqual({ status: 204, body: undefined })
    expect(sim.journal.list()).toEqual([])
  })

  it('lists the OAuth codes', () => {
    const sim = createSimulator()
    const control = controlOf(sim)
    const made = sim.oauth.codes.create({ userId: sim.world.userId, keyLabel: 'CLI sign-in' })
    const listed = control('GET', '/oauth/codes')
    expect(listed).toEqual({ status: 200, body: { data: sim.oauth.codes.list() } })
    expect(listed.body.data.map((c: { code: string }) => c.code)).toEqual([made.code])
  })
})

describe('the control API: the messages of a refused body', () => {
  it('says a body that is no JSON object must be one', () => {
    const control = controlOf(createSimulator())
    for (const body of ['[1]', '"text"', 'null']) {
      expectRefused(control('POST', '/faults', body), 'body', 'Failed to read the request: the body must be a JSON object.')
    }
  })

  it('names a field the body may not have, and those it may', () => {
    const control = controlOf(createSimulator())
    expectRefused(control('PUT', '/clock', { now: '2026-03-03T00:00:00Z', zone: 'UTC' }), 'zone', 'Failed to read the request: "zone" is not a field of the body (known fields: now).')
    expectRefused(control('POST', '/clock/advance', { ms: 5, by: 1 }), 'by', 'Failed to read the request: "by" is not a field of the body (known fields: ms).')
  })

  it('names the operation, and the field as the body names it, in an error of a model, a video model or a file', () => {
    const sim = createSimulator()
    const control = controlOf(sim)
    const model = control('POST', '/models', { id: 'acme/bad-date', created: 'yesterday' })
    expect(model.status).toBe(400)
    expect(model.body.error.metadata.argument).toBe('created')
    expect(model.body.error.message).toMatch(/^Failed to create model: "created" /)
    const video = control('POST', '/video-models', { id: 'acme/bad-video', created: 'yesterday' })
    expect(video.status).toBe(400)
    expect(video.body.error.metadata.argument).toBe('created')
    expect(video.body.error.message).toMatch(/^Failed to create video model: "created" /)
    const file = control('POST', '/files', { userId: sim.world.userId, id: 'file_bad', base64: 'not base64!' })
    expect(file.status).toBe(400)
    expect(file.body.error.metadata.argument).toBe('base64')
    expect(file.body.error.message).toMatch(/^Failed to create file: "base64" /)
  })
})

describe('the control API: the export and the journal page', () => {
  it('names an unknown parameter of the export, and the one it has', () => {
    const control = controlOf(createSimulator())
    expectRefused(control('GET', '/world/export', undefined, 'files=false'), 'files', 'Failed to read the request: "files" is not a parameter of the export (known parameters: bodies).')
  })

  it('answers the export in parts, as JSON, its file contents written with the encoder it was given', () => {
    const sim = createSimulator()
    let encoded = 0
    const api = createControlApi(sim, {
      toBase64: (bytes) => {
        encoded += bytes.byteLength
        return Buffer.from(bytes).toString('base64')
      },
    })
    const answer = api.handle({ method: 'GET', path: '/world/export', query: new URLSearchParams(), body: null })
    expect(answer.type).toBe('parts')
    expect(answer.status).toBe(200)
    expect(answer.headers).toEqual({ 'content-type': 'application/json' })
    const spec = read(answer).body
    expect(encoded).toBeGreaterThan(0)
    expect(spec.files.length).toBeGreaterThan(0)
    expect(spec).toEqual(JSON.parse(JSON.stringify(sim.exportWorld())))
  })

  it('exports without bodies a spec its simulator gives without files', () => {
    const sim = createSimulator({ world: 'empty' })
    const bare = wrapper(sim)
    const { files: _files, ...spec } = sim.exportWorld()
    bare.exportWorld = () => spec
    expect(controlOf(bare)('GET', '/world/export', undefined, 'bodies=false')).toEqual({ status: 200, body: JSON.parse(JSON.stringify(spec)) })
  })

  it('answers the journal page as JSON', () => {
    const sim = createSimulator()
    sim.handle({ method: 'GET', path: '/videos/models' })
    const answer = createControlApi(sim).handle({ method: 'GET', path: '/journal', query: new URLSearchParams(), body: null })
    expect(answer.status).toBe(200)
    expect(answer.headers).toEqual({ 'content-type': 'application/json' })
    expect(read(answer).body.data).toHaveLength(1)
  })

  it('writes each journal entry as it is when its turn comes: a stream cut short after the page was asked for shows cut-short', () => {
    const sim = createSimulator({ world: 'empty', seed: 3, now: '2026-03-02T10:00:00Z' })
    const org = sim.users.create({ name: 'Acme', credits: { total: 100 } })
    const { key } = sim.keys.create({ userId: org.id })
    sim.models.create({ id: 'acme/fast', endpoints: [{ provider_name: 'Swift', pricing: { prompt: '0.000001', completion: '0.000002' } }] })
    sim.inference.respond({ reply: { content: 'One two three four five six seven eight nine ten eleven twelve.' } })
    const stream = sim.handle({
      method: 'POST',
      path: '/chat/completions',
      authorization: `Bearer ${key}`,
      body: JSON.stringify({ model: 'acme/fast', messages: [{ role: 'user', content: 'Count.' }], stream: true }),
    }) as Extract<SimResponse, { type: 'stream' }>
    expect(stream.type).toBe('stream')
    const page = createControlApi(sim).handle({ method: 'GET', path: '/journal', query: new URLSearchParams('bodies=false'), body: null })
    expect(stream.cancel?.(2)).toBe(true)
    const [entry] = read(page).body.data
    expect(entry.outcome).toBe('cut-short')
    expect(entry.cutShort.framesSent).toBe(2)
  })
})

describe('the control API: paths and errors', () => {
  it('answers a path whose parameter does not decode as no control route', () => {
    const sim = createSimulator()
    const answer = controlOf(sim)('DELETE', '/faults/%E0%A4%A')
    expect(answer.status).toBe(404)
    expect(answer.body.error.metadata).toEqual({ reason: 'unknown_control_route', method: 'DELETE', path: '/__sim/faults/%E0%A4%A' })
  })

  it('renames only a SimulatorError of the clock naming its own parameter: another argument stays, another failure is a 500', () => {
    const sim = createSimulator()
    const failing = wrapper(sim)
    let failure: unknown = new SimulatorError('INVALID_ARGUMENT' as never, 'Failed to set the clock: "zone" must be UTC.', { argument: 'zone' })
    Object.defineProperty(failing, 'clock', {
      value: {
        ...sim.clock,
        set: () => {
          throw failure
        },
      },
    })
    const control = controlOf(failing)
    const other = control('PUT', '/clock', { now: '2026-03-03T00:00:00Z' })
    expect(other).toEqual({ status: 400, body: { error: { code: 400, message: 'Failed to set the clock: "zone" must be UTC.', metadata: { argument: 'zone', code: 'INVALID_ARGUMENT' } } } })
    failure = new Error('the clock broke "instant"')
    expect(control('PUT', '/clock', { now: '2026-03-03T00:00:00Z' })).toEqual({ status: 500, body: { error: { code: 500, message: 'Internal Server Error', metadata: { reason: 'the clock broke "instant"' } } } })
  })
})
