// checkService where a mutation run found it untested: what a key without the `sk-or-v1-` prefix,
// or one too short to recognise, does to the report's masking, a failed request whose message holds
// the management key, the body a GET leaves out, an account without a guardrail to read, options of
// the wrong type that look right as strings (a URL object, a String object, a key of exactly eight
// characters), and formatReport on a skip whose live text is a summary. The live service is a
// simulator in process (fake-service.ts).
import { describe, expect, it } from 'vitest'
import { createSimulator, maskSecret } from '../../src/index.js'
import { type CheckReport, type CheckServiceOptions, checkService, formatReport } from '../../src/live/check.js'
import { LIVE_BASE, fakeService, jsonAnswer } from './fake-service.js'

const sim = createSimulator()
const { world } = sim

const KEY = 'sk-or-v1-0123456789abcdef0123456789abcdef0123456789abcdef0123456789ab'
const neverCalled: typeof fetch = async () => {
  throw new Error('no request may be sent for bad options')
}

/** The message checkService throws for these options (merged over valid ones). */
async function refusal(options: Partial<Record<keyof CheckServiceOptions, unknown>>): Promise<string> {
  const error = await checkService({ baseUrl: LIVE_BASE, managementKey: KEY, fetch: neverCalled, ...options } as CheckServiceOptions).then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(Error)
  return (error as Error).message
}

const result = (report: CheckReport, rule: string) => report.results.find((r) => r.rule === rule)

describe('checkService masks the keys it was given, and only them', () => {
  it('masks a key without the sk-or-v1- prefix whole, leaving a text that holds only its end alone', async () => {
    // The file id holds the key's characters after its ninth: no key, so the report shows it as given.
    const managementKey = 'mgmt-key-0123456789abcdef'
    const file = 'file_0123456789abcdef'
    const service = fakeService(sim)
    const report = await checkService({ baseUrl: LIVE_BASE, managementKey, files: [file], fetch: service.fetch })
    expect(report.keys.management).toBe(maskSecret(managementKey))
    expect(result(report, `shape GET /files/${file}/content`)?.live).toBe('401 json')
    expect(report.requests).toContain(`GET /files/${file}/content (management key)`)
  })

  it('leaves every text alone for a key too short to recognise', async () => {
    const service = fakeService(sim)
    const report = await checkService({ baseUrl: LIVE_BASE, managementKey: 'short', fetch: service.fetch })
    expect(report.results.map((r) => r.rule)).toContain('shape POST /keys (throwaway key)')
    expect(result(report, 'shape POST /keys (throwaway key)')?.live).toBe('skipped: writes not allowed (--allow-writes)')
    expect(result(report, '401 no Authorization on GET /keys')).toMatchObject({ simulator: '401', live: '401', verdict: 'same' })
  })

  it('masks the management key, given alone, in the message of a request that failed', async () => {
    const failing: typeof fetch = async () => {
      throw new Error(`refused for ${KEY} (${KEY.slice('sk-or-v1-'.length)})`)
    }
    const report = await checkService({ baseUrl: LIVE_BASE, managementKey: KEY, fetch: failing })
    expect(result(report, 'shape GET /keys')?.live).toBe(`request failed: refused for ${maskSecret(KEY)} (${maskSecret(KEY)})`)
    expect(JSON.stringify(report)).not.toContain(KEY.slice('sk-or-v1-'.length))
  })
})

describe('checkService sends and reads as the service expects', () => {
  it('gives a GET no body at all, and a write its JSON body', async () => {
    const service = fakeService(sim)
    const inits: { method: string; init: RequestInit }[] = []
    const recording: typeof fetch = async (input, init = {}) => {
      inits.push({ method: init.method ?? 'GET', init })
      return service.fetch(input, init)
    }
    await checkService({ baseUrl: LIVE_BASE, managementKey: world.managementKey, allowWrites: true, fetch: recording })
    const gets = inits.filter((i) => i.method === 'GET')
    expect(gets.length).toBeGreaterThan(10)
    for (const { init } of gets) expect(Object.keys(init)).not.toContain('body')
    const post = inits.find((i) => i.method === 'POST')
    expect(post?.init.body).toBe(JSON.stringify({ name: 'model-access-sim check', limit: 0 }))
  })

  it('skips the read of a guardrail when the account lists none, naming what it looked for', async () => {
    const service = fakeService(sim, (sent) => (sent.path === '/guardrails' ? jsonAnswer(200, { data: [], total_count: 0 }) : undefined))
    const report = await checkService({ baseUrl: LIVE_BASE, managementKey: world.managementKey, fetch: service.fetch })
    expect(result(report, 'shape GET /guardrails/{id}')).toMatchObject({ live: 'skipped: GET /guardrails listed no guardrail to read', verdict: 'skipped' })
  })
})

describe('checkService refuses options that only look right', () => {
  it('refuses a base URL given as a URL object, as it refuses anything but a string', async () => {
    expect(await refusal({ baseUrl: new URL(LIVE_BASE) })).toBe(
      'Failed to check the service: "baseUrl" must be an http(s) URL such as "https://openrouter.ai/api/v1", got a value of type object.',
    )
  })

  it('refuses a model id given as a String object, naming it', async () => {
    // A String object passes MODEL_ID's test, as its text is an id, but it is not a string.
    expect(await refusal({ models: ['openai/gpt-4o', new String('openai/gpt-4o')] })).toBe(
      'Failed to check the service: "models" must be an array of model ids such as "openai/gpt-4o", got a value of type object.',
    )
  })

  it('recognises a key of exactly eight characters in a value it refuses', async () => {
    expect(await refusal({ managementKey: 'mgmt-012', models: ['mgmt-012'] })).toBe(
      'Failed to check the service: "models" must be an array of model ids such as "openai/gpt-4o", got a string that holds an API key.',
    )
    expect(await refusal({ managementKey: 'mgmt-012', baseUrl: 'x-mgmt-012' })).toBe(
      'Failed to check the service: "baseUrl" must be an http(s) URL such as "https://openrouter.ai/api/v1", got a string that holds an API key.',
    )
  })
})

describe('formatReport', () => {
  it('drops only a leading "skipped: " from a skip line, leaving one inside a live summary', () => {
    // The simulator skipped and the service answered: the live text is its summary, not a reason.
    const results: CheckReport['results'] = [{ rule: 'r', simulator: 'skipped: no x', live: 'request failed: upstream skipped: y', verdict: 'skipped' }]
    const report: CheckReport = { baseUrl: LIVE_BASE, keys: { management: maskSecret(KEY), regular: null }, requests: [], results, same: 0, drift: 0, skipped: 1 }
    const lines = formatReport(report).split('\n')
    expect(lines).toContain('skipped: r: request failed: upstream skipped: y')
  })
})
