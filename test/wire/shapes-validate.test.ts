// The validator of src/core/wire-shapes.ts: what each kind of break looks like, with its JSON path.
// Bodies are the committed fixtures, altered one field at a time.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { RESPONSE_SHAPES, errorEnvelopeProblems, fileContentProblems, validateShape } from '../../src/core/wire-shapes.js'

const FIXTURES_DIR = resolve(import.meta.dirname, '..', '..', 'fixtures')
const body = (path: string): any => JSON.parse(readFileSync(resolve(FIXTURES_DIR, path), 'utf8')).body

describe('validateShape', () => {
  it('passes the committed bodies as they are', () => {
    expect(validateShape(RESPONSE_SHAPES.listKeys, body('keys/list.json'))).toEqual([])
    expect(validateShape(RESPONSE_SHAPES.listEndpoints, body('models/google__gemini-2.5-flash.endpoints.json'))).toEqual([])
  })

  it('names a number sent as a string, with the JSON path', () => {
    const keys = body('keys/list.json')
    keys.data[3].limit_remaining = '5'
    keys.data[0].usage = '1.5'
    expect(validateShape(RESPONSE_SHAPES.listKeys, keys)).toEqual(['data[0].usage: expected number, got "1.5"', 'data[3].limit_remaining: expected number or null, got "5"'])
  })

  it('names a renamed field twice: missing under its name, unexpected under the new one', () => {
    const key = body('keys/list.json').data[0]
    key.limitRemaining = key.limit_remaining
    delete key.limit_remaining
    expect(validateShape(RESPONSE_SHAPES.getKey, { data: key })).toEqual([
      'data.limit_remaining: missing, expected number or null',
      'data.limitRemaining: unexpected field (ApiKey has no such field)',
    ])
    expect(validateShape(RESPONSE_SHAPES.getKey, { data: key }, { extraFields: 'ignore' })).toEqual(['data.limit_remaining: missing, expected number or null'])
  })

  it('lets an optional field be absent but never null', () => {
    const model = body('models/google__gemini-2.5-flash.endpoints.json')
    delete model.data.endpoints[0].status
    expect(validateShape(RESPONSE_SHAPES.listEndpoints, model)).toEqual([])
    model.data.endpoints[0].status = null
    expect(validateShape(RESPONSE_SHAPES.listEndpoints, model)).toEqual(['data.endpoints[0].status: expected one of ENDPOINT_STATUSES (0, -1, -2, -3, ...), got null'])
  })

  it('wants a nullable field present', () => {
    const model = body('models/google__gemini-2.5-flash.endpoints.json')
    delete model.data.endpoints[0].quantization
    expect(validateShape(RESPONSE_SHAPES.listEndpoints, model)).toEqual([
      'data.endpoints[0].quantization: missing, expected one of QUANTIZATIONS ("int4", "int8", "fp4", "mxfp4", ...) or null',
    ])
  })

  it('holds enumerations, prices, timestamps and integers to the wire types', () => {
    const model = body('models/google__gemini-2.5-flash.endpoints.json')
    const endpoint = model.data.endpoints[0]
    endpoint.quantization = 'q4_k_m'
    endpoint.supported_parameters = ['temperature', 'mirostat']
    endpoint.pricing.prompt = '-1'
    endpoint.pricing.completion = 0.000002
    endpoint.context_length = 1000.5
    model.data.architecture.input_modalities = ['text', 'smell']
    expect(validateShape(RESPONSE_SHAPES.listEndpoints, model)).toEqual([
      'data.architecture.input_modalities[1]: expected one of INPUT_MODALITIES ("text", "image", "file", "audio", ...), got "smell"',
      'data.endpoints[0].context_length: expected integer, got 1000.5',
      'data.endpoints[0].pricing.prompt: expected a decimal string, got "-1"',
      'data.endpoints[0].pricing.completion: expected a decimal string, got 0.000002',
      'data.endpoints[0].quantization: expected one of QUANTIZATIONS ("int4", "int8", "fp4", "mxfp4", ...) or null, got "q4_k_m"',
      'data.endpoints[0].supported_parameters[1]: expected one of SUPPORTED_PARAMETERS ("temperature", "top_p", "top_k", "min_p", ...), got "mirostat"',
    ])
    const keys = body('keys/list.json')
    keys.data[1].created_at = 'yesterday'
    keys.data[1].updated_at = '2026-02-30T00:00:00Z'
    keys.data[1].external_user = 7
    expect(validateShape(RESPONSE_SHAPES.listKeys, keys)).toEqual([
      'data[1].created_at: expected an ISO 8601 timestamp string, got "yesterday"',
      'data[1].updated_at: expected an ISO 8601 timestamp string or null, got "2026-02-30T00:00:00Z"',
      'data[1].external_user: expected string or null, got 7',
    ])
  })

  it('accepts timestamps with Z or an offset, and any fraction', () => {
    const keys = body('keys/list.json')
    keys.data[0].created_at = '2026-01-25T10:21:28Z'
    keys.data[0].updated_at = '2026-01-25T10:21:28.123456789+02:00'
    expect(validateShape(RESPONSE_SHAPES.listKeys, keys)).toEqual([])
  })

  it('holds the keys of a keyed record to their enumeration', () => {
    const model = body('models/google__gemini-2.5-flash.endpoints.json')
    const withPerf = model.data.endpoints.find((e: Record<string, unknown>) => 'perf_last_30m_by_workload' in e) ?? model.data.endpoints[0]
    withPerf.perf_last_30m_by_workload = { chat: { latency: null, throughput: null, request_count: 1 } }
    const [problem] = validateShape(RESPONSE_SHAPES.listEndpoints, model)
    expect(problem).toMatch(/^data\.endpoints\[\d+\]\.perf_last_30m_by_workload\.chat: unexpected key, expected one of WORKLOADS \("text_generation", /)
  })

  it('says what the body itself is when it is not the object wanted', () => {
    expect(validateShape(RESPONSE_SHAPES.listKeys, [])).toEqual(['(body): expected an object ({ data: ApiKey[] }), got an array'])
    expect(validateShape(RESPONSE_SHAPES.listKeys, { data: {} })).toEqual(['data: expected an array of ApiKey, got an object'])
    expect(validateShape(RESPONSE_SHAPES.listKeys, { data: [null] })).toEqual(['data[0]: expected an object (ApiKey), got null'])
  })
})

describe('errorEnvelopeProblems', () => {
  it('passes the committed error bodies', () => {
    expect(errorEnvelopeProblems(400, body('errors/400-bad-offset.json'))).toEqual([])
    expect(errorEnvelopeProblems(401, body('errors/401-missing-key.json'))).toEqual([])
  })

  it('wants the code, equal to the status', () => {
    const envelope = body('errors/404-unknown-key.json')
    expect(errorEnvelopeProblems(403, envelope)).toEqual(['error.code: expected 403 (the HTTP status), got 404'])
    delete envelope.error.code
    expect(errorEnvelopeProblems(404, envelope)).toEqual(['error.code: missing, expected integer'])
  })

  it('allows metadata absent or null, and nothing but an object otherwise', () => {
    expect(errorEnvelopeProblems(404, { error: { code: 404, message: 'Resource not found', metadata: null } })).toEqual([])
    expect(errorEnvelopeProblems(404, { error: { code: 404, message: 'Resource not found', metadata: 'key' } })).toEqual(['error.metadata: expected an object (values: any JSON value) or null, got "key"'])
    expect(errorEnvelopeProblems(404, { message: 'Resource not found' })).toEqual(['error: missing, expected an object (Error)', 'message: unexpected field (ErrorEnvelope has no such field)'])
  })
})

describe('fileContentProblems', () => {
  const headers =
    (given: Record<string, string>) =>
    (name: string): string | null =>
      given[name] ?? null

  it('passes a download as the simulator sends it', () => {
    expect(fileContentProblems(200, headers({ 'content-type': 'application/octet-stream', 'content-length': '3', 'content-disposition': 'attachment; filename="a.bin"' }), 3)).toEqual([])
  })

  it('names each header that is missing or wrong', () => {
    expect(fileContentProblems(200, headers({ 'content-type': 'text/plain', 'content-length': '4' }), 3)).toEqual([
      'content-type: expected application/octet-stream, got "text/plain"',
      'content-length: expected 3 (the byte count), got "4"',
      'content-disposition: missing, expected attachment; filename="..."',
    ])
  })
})
