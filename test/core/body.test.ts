// Request bodies in the core: what readJsonObject refuses (each a 400 or 413 naming `body`), what
// BodyReader names (the field's path), and that the adapters hand the body and its content type to
// the core unchanged (the journal shows what the core got).
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BodyReader, MAX_BODY_BYTES, readJsonObject } from '../../src/core/body.js'
import { ApiError } from '../../src/core/errors.js'
import { OPERATIONS } from '../../src/core/operations/index.js'
import { createSimulator, OPERATION_NAMES } from '../../src/index.js'
import { createHandlers } from '../../src/msw/index.js'
import { startServer } from '../../src/server/index.js'

/** The ApiError a call throws: its status and metadata. */
function refusal(act: () => unknown): { status: number; metadata: Record<string, unknown> | undefined } {
  try {
    act()
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, metadata: error.metadata }
    throw error
  }
  throw new Error('expected an ApiError')
}

describe('readJsonObject', () => {
  it('reads a JSON object from text or UTF-8 bytes, with or without a JSON content type', () => {
    expect(readJsonObject('{"name":"a"}', undefined)).toEqual({ name: 'a' })
    expect(readJsonObject(new TextEncoder().encode('{"name":"é"}'), 'application/json; charset=utf-8')).toEqual({ name: 'é' })
    expect(readJsonObject(' {"a":1} ', 'Application/JSON')).toEqual({ a: 1 })
    expect(readJsonObject('{}', 'application/merge-patch+json')).toEqual({})
    // An empty or blank header says nothing, as no header does (the control API reads it so too).
    expect(readJsonObject('{"a":1}', '')).toEqual({ a: 1 })
    expect(readJsonObject('{"a":1}', '  ')).toEqual({ a: 1 })
  })

  it.each([
    ['no body', null, undefined, 'is required: a JSON object'],
    ['an empty body', '', undefined, 'is required: a JSON object'],
    ['white space', '  \n', undefined, 'is required: a JSON object'],
    ['empty bytes', new Uint8Array(0), undefined, 'is required: a JSON object'],
    ['malformed JSON', '{"name":', undefined, /^is not valid JSON \(/],
    ['an array', '[1,2]', undefined, 'must be a JSON object, got an array'],
    ['null', 'null', undefined, 'must be a JSON object, got null'],
    ['a string', '"x"', undefined, 'must be a JSON object, got a string'],
    ['a number', '12', undefined, 'must be a JSON object, got a number'],
    ['bytes that are not UTF-8', new Uint8Array([0x7b, 0xff, 0x7d]), undefined, 'is not valid UTF-8'],
    ['a form content type', '{"a":1}', 'application/x-www-form-urlencoded', 'must be sent as content-type application/json, got "application/x-www-form-urlencoded"'],
    ['text/plain', '{"a":1}', 'text/plain;charset=UTF-8', 'must be sent as content-type application/json, got "text/plain;charset=UTF-8"'],
    ['parameters without a media type', '{"a":1}', '; charset=utf-8', 'must be sent as content-type application/json, got "; charset=utf-8"'],
  ] as const)('refuses %s with a 400 naming body', (_name, body, contentType, reason) => {
    const { status, metadata } = refusal(() => readJsonObject(body, contentType))
    expect(status).toBe(400)
    expect(metadata?.['parameter']).toBe('body')
    if (typeof reason === 'string') expect(metadata?.['reason']).toBe(reason)
    else expect(metadata?.['reason']).toMatch(reason)
  })

  it('answers 413 over the cap, for text and for bytes, and reads a body exactly at the cap', () => {
    const over = `{"a":"${'x'.repeat(MAX_BODY_BYTES)}"}`
    expect(refusal(() => readJsonObject(over, undefined))).toEqual({
      status: 413,
      metadata: { parameter: 'body', reason: `is larger than the ${MAX_BODY_BYTES} bytes read at most`, limit: MAX_BODY_BYTES },
    })
    expect(refusal(() => readJsonObject(new Uint8Array(MAX_BODY_BYTES + 1).fill(0x20), undefined)).status).toBe(413)
    // Multi-byte characters count as their UTF-8 bytes: 'é' is two.
    const wide = `{"a":"${'é'.repeat(MAX_BODY_BYTES / 2)}"}`
    expect(refusal(() => readJsonObject(wide, undefined)).status).toBe(413)
    const exact = `{"a":"${'x'.repeat(MAX_BODY_BYTES - 8)}"}`
    expect(new TextEncoder().encode(exact).byteLength).toBe(MAX_BODY_BYTES)
    expect(Object.keys(readJsonObject(exact, undefined))).toEqual(['a'])
  })

  it('checks the size before the content type, so an oversized body of any type is a 413', () => {
    expect(refusal(() => readJsonObject('x'.repeat(MAX_BODY_BYTES + 1), 'text/plain')).status).toBe(413)
  })
})

describe('BodyReader', () => {
  const reader = (value: Record<string, unknown>, path = '') => new BodyReader(value, path)

  it('names a nested field by its path, an array element by its index', () => {
    const provider = reader({ provider: { order: ['a', 3] } }).optionalObject('provider') as BodyReader
    expect(provider.at('order')).toBe('provider.order')
    const order = provider.optionalArray('order') as unknown[]
    const element = refusal(() => provider.fail(`${provider.at('order')}[1]`, 'must be a string', order[1]))
    expect(element).toEqual({ status: 400, metadata: { parameter: 'provider.order[1]', reason: 'must be a string', value: '3' } })
    expect(reader({}, 'messages').at(2)).toBe('messages[2]')
  })

  it('refuses a field it does not know, listing the known ones', () => {
    const known = new Set(['name', 'limit'])
    expect(refusal(() => reader({ name: 'a', limt: 1 }).known(known))).toEqual({
      status: 400,
      metadata: { parameter: 'limt', reason: 'is not a field of this request (known fields: name, limit)' },
    })
    expect(refusal(() => reader({ x: 1 }, 'provider').known(known)).metadata?.['parameter']).toBe('provider.x')
    expect(reader({ name: 'a' }).known(known).value).toEqual({ name: 'a' })
  })

  it('reads strings, numbers, booleans and enums, and names what is wrong with each', () => {
    const r = reader({ name: '', n: 1.5, big: 1e300, flag: 'yes', reset: 'hourly', nothing: null, long: 'x'.repeat(100) })
    expect(refusal(() => r.string('missing')).metadata).toEqual({ parameter: 'missing', reason: 'is required' })
    expect(refusal(() => r.string('nothing')).metadata).toEqual({ parameter: 'nothing', reason: 'is required' })
    expect(refusal(() => r.string('name', { minLength: 1 })).metadata).toEqual({ parameter: 'name', reason: 'must not be empty', value: '""' })
    expect(refusal(() => r.string('n')).metadata).toEqual({ parameter: 'n', reason: 'must be a string', value: '1.5' })
    expect(refusal(() => r.optionalNumber('n', { integer: true })).metadata?.['reason']).toBe('must be an integer')
    expect(refusal(() => r.optionalNumber('big', { max: 1e9 })).metadata?.['reason']).toBe('must be at most 1000000000')
    expect(refusal(() => r.optionalNumber('n', { min: 2 })).metadata?.['reason']).toBe('must be at least 2')
    expect(refusal(() => r.optionalNumber('n', { min: 1.5, exclusiveMin: true })).metadata?.['reason']).toBe('must be greater than 1.5')
    expect(refusal(() => r.optionalBoolean('flag')).metadata).toEqual({ parameter: 'flag', reason: 'must be true or false', value: '"yes"' })
    expect(refusal(() => r.optionalEnum('reset', ['daily', 'weekly'])).metadata?.['reason']).toBe('must be one of daily, weekly')
    expect(r.optionalEnum('nothing', ['daily'], true)).toBeNull()
    expect(refusal(() => r.optionalEnum('nothing', ['daily'])).metadata?.['reason']).toBe('must not be null')
    expect(r.optionalNumber('nothing', { nullable: true })).toBeNull()
    expect(r.optionalString('absent', {})).toBeUndefined()
    // A long value is cut in the metadata: a refusal never echoes a whole body.
    expect(refusal(() => r.optionalNumber('long', {})).metadata?.['value']).toBe(`"${'x'.repeat(56)}...`)
  })

  it('does not read inherited fields as the body\'s own', () => {
    const value = Object.create({ name: 'inherited' }) as Record<string, unknown>
    expect(refusal(() => reader(value).string('name')).metadata).toEqual({ parameter: 'name', reason: 'is required' })
    expect(reader(value).known(new Set()).value).toBe(value)
  })
})

describe('the router table', () => {
  it('holds exactly one row per operation name, in the order of OPERATION_NAMES', () => {
    expect(OPERATIONS.map((operation) => operation.name)).toEqual([...OPERATION_NAMES])
  })

  it('routes by method and path template: no two rows share both', () => {
    const routes = OPERATIONS.map((operation) => `${operation.method} ${operation.template.replace(/\{[^}]+\}/g, '{}')}`)
    expect(new Set(routes).size).toBe(routes.length)
  })
})

describe('bodies through the adapters', () => {
  const sim = createSimulator({ world: 'empty' })
  const server = setupServer(...createHandlers(sim, { baseUrl: 'http://body.test/api/v1' }))
  // The server's own requests (127.0.0.1) go past MSW to the socket.
  beforeAll(() => server.listen({ onUnhandledRequest: 'bypass' }))
  afterAll(() => server.close())

  it('MSW hands the core the body as sent, and the journal shows it', async () => {
    sim.journal.clear()
    const body = JSON.stringify({ model: 'x', note: 'é\u2028' })
    const res = await fetch('http://body.test/api/v1/not/simulated', { method: 'POST', headers: { 'content-type': 'application/json' }, body })
    expect(res.status).toBe(404)
    expect(sim.journal.list().at(-1)?.requestBody).toBe(body)
  })

  it('the server hands the core the body as sent, and the journal shows it; a GET carries none', async () => {
    const served = await startServer(sim, { port: 0 })
    try {
      sim.journal.clear()
      const body = '{"a":[1,2,3]}'
      await fetch(`${served.url}/not/simulated`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body })
      await fetch(`${served.url}/videos/models`)
      const [patch, get] = sim.journal.list()
      expect(patch?.requestBody).toBe(body)
      expect(patch?.method).toBe('PATCH')
      expect(get?.requestBody).toBeNull()
    } finally {
      await served.close()
    }
  })

  it('sim.handle journals a body given as bytes as its UTF-8 text', () => {
    sim.journal.clear()
    sim.handle({ method: 'POST', path: '/x', body: new TextEncoder().encode('{"k":"ü"}') })
    expect(sim.journal.list().at(-1)?.requestBody).toBe('{"k":"ü"}')
  })

  it('refuses a body or headers of the wrong type with a 400 naming the field', () => {
    const bad = (request: unknown) => sim.handle(request as never) as { status: number; body: { error: { metadata: { parameter: string } } } }
    expect(bad({ method: 'POST', path: '/keys', body: { a: 1 } }).body.error.metadata.parameter).toBe('body')
    expect(bad({ method: 'POST', path: '/keys', headers: 'content-type: application/json' }).body.error.metadata.parameter).toBe('headers')
    expect(bad({ method: 'POST', path: '/keys', headers: { 'content-type': 7 } }).body.error.metadata.parameter).toBe('headers.content-type')
  })
})
