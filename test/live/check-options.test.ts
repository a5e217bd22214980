// checkService's options, refused by name before anything is sent, and formatReport's table: the
// text a user reads, column by column.
import { describe, expect, it } from 'vitest'
import { type CheckReport, type CheckServiceOptions, checkService, formatReport } from '../../src/live/check.js'

const KEY = 'sk-or-v1-0123456789abcdef0123456789abcdef0123456789abcdef0123456789ab'
const BASE = 'https://live.model-access-sim.test/api/v1'
const neverCalled: typeof fetch = async () => {
  throw new Error('no request may be sent for bad options')
}

/** The message checkService throws for these options (merged over valid ones). */
async function refusal(options: Partial<Record<keyof CheckServiceOptions, unknown>> | unknown): Promise<string> {
  const merged = typeof options === 'object' && options !== null && !Array.isArray(options) ? { baseUrl: BASE, managementKey: KEY, fetch: neverCalled, ...options } : options
  const error = await checkService(merged as CheckServiceOptions).then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(Error)
  return (error as Error).message
}

describe('checkService refuses bad options by name', () => {
  it('refuses options that are not an object', async () => {
    expect(await refusal(null)).toBe('Failed to check the service: "options" must be an options object, got null.')
    expect(await refusal(['a'])).toBe('Failed to check the service: "options" must be an options object, got an array.')
    expect(await refusal('x')).toBe('Failed to check the service: "options" must be an options object, got "x".')
  })

  it('refuses a base URL that is not http(s), or that carries credentials, a query or a fragment', async () => {
    const notHttp = 'Failed to check the service: "baseUrl" must be an http(s) URL such as "https://openrouter.ai/api/v1", got'
    expect(await refusal({ baseUrl: 'ftp://example.test' })).toBe(`${notHttp} "ftp://example.test".`)
    expect(await refusal({ baseUrl: 'not a url' })).toBe(`${notHttp} "not a url".`)
    expect(await refusal({ baseUrl: 42 })).toBe(`${notHttp} 42.`)
    expect(await refusal({ baseUrl: undefined })).toBe(`${notHttp} undefined.`)
    const carries = 'Failed to check the service: "baseUrl" must not carry credentials, a query or a fragment.'
    expect(await refusal({ baseUrl: 'https://user@example.test/api/v1' })).toBe(carries)
    expect(await refusal({ baseUrl: 'https://:secret@example.test/api/v1' })).toBe(carries)
    expect(await refusal({ baseUrl: `${BASE}?key=1` })).toBe(carries)
    expect(await refusal({ baseUrl: `${BASE}#top` })).toBe(carries)
  })

  it('refuses keys that are not strings, or hold spaces, without showing them', async () => {
    expect(await refusal({ managementKey: 42 })).toBe('Failed to check the service: "managementKey" must be a string, got number.')
    expect(await refusal({ managementKey: '   ' })).toBe('Failed to check the service: "managementKey" must be an API key: non-empty, without spaces.')
    expect(await refusal({ managementKey: `${KEY}\n` })).toBe('Failed to check the service: "managementKey" must be an API key: non-empty, without spaces.')
    expect(await refusal({ regularKey: null })).toBe('Failed to check the service: "regularKey" must be a string, got object.')
    expect(await refusal({ regularKey: '' })).toBe('Failed to check the service: "regularKey" must be an API key: non-empty, without spaces.')
  })

  it('refuses models and files that are not lists of ids, naming the first bad one unless it holds a key', async () => {
    const models = 'Failed to check the service: "models" must be an array of model ids such as "openai/gpt-4o", got'
    expect(await refusal({ models: 'openai/gpt-4o' })).toBe(`${models} "openai/gpt-4o".`)
    expect(await refusal({ models: ['openai/gpt-4o', 'a/b/c', 'gpt-4o'] })).toBe(`${models} "a/b/c".`)
    expect(await refusal({ models: ['openai/gpt 4o'] })).toBe(`${models} "openai/gpt 4o".`)
    expect(await refusal({ models: [7] })).toBe(`${models} 7.`)
    expect(await refusal({ models: [`openai/gpt-4o`, KEY] })).toBe(`${models} a string that holds an API key.`)
    // A key without the sk-or- prefix is recognised as the one given; one shorter than 8 characters is not.
    expect(await refusal({ managementKey: 'mgmt-0123456789', models: ['x-mgmt-0123456789'] })).toBe(`${models} a string that holds an API key.`)
    expect(await refusal({ managementKey: 'mgmt-01', models: ['mgmt-01'] })).toBe(`${models} "mgmt-01".`)
    expect(await refusal({ regularKey: 'user-12345678', models: ['user-12345678'] })).toBe(`${models} a string that holds an API key.`)
    expect(await refusal({ models: 'SK-OR-xyz' })).toBe(`${models} a string that holds an API key.`)
    const files = 'Failed to check the service: "files" must be an array of file ids, got'
    expect(await refusal({ files: 'file_1' })).toBe(`${files} "file_1".`)
    expect(await refusal({ files: ['file_1', ''] })).toBe(`${files} "".`)
    expect(await refusal({ files: ['file_1', 'a/b'] })).toBe(`${files} "a/b".`)
    expect(await refusal({ files: [null] })).toBe(`${files} null.`)
    expect(await refusal({ files: [`${KEY}/x`] })).toBe(`${files} a string that holds an API key.`)
  })

  it('refuses a fetch that is not a function, a timeout that is not positive, and flags that are not booleans', async () => {
    expect(await refusal({ fetch: 'fetch' })).toBe('Failed to check the service: "fetch" must be a function such as globalThis.fetch.')
    for (const timeoutMs of [0, -5, Number.POSITIVE_INFINITY, Number.NaN, '100']) {
      expect(await refusal({ timeoutMs })).toMatch(/^Failed to check the service: "timeoutMs" must be a positive number of milliseconds, got /)
    }
    expect(await refusal({ timeoutMs: 0 })).toBe('Failed to check the service: "timeoutMs" must be a positive number of milliseconds, got 0.')
    expect(await refusal({ allowExtraFields: 'yes' })).toBe('Failed to check the service: "allowExtraFields" must be a boolean, got "yes".')
    expect(await refusal({ allowWrites: 1 })).toBe('Failed to check the service: "allowWrites" must be a boolean, got 1.')
  })

  it('accepts each option it knows', async () => {
    const names: string[] = []
    const failing: typeof fetch = async (input) => {
      names.push(String(input))
      throw new TypeError('fetch failed')
    }
    const report = await checkService({
      baseUrl: BASE,
      managementKey: KEY,
      regularKey: undefined,
      models: ['openai/gpt-4o'],
      files: ['file_1'],
      fetch: failing,
      timeoutMs: 0.5,
      allowExtraFields: true,
      allowWrites: false,
    })
    expect(report.drift).toBeGreaterThan(0)
    expect(names.every((url) => url.startsWith(`${BASE}/`))).toBe(true)
  })
})

const row = (rule: string, verdict: CheckReport['results'][number]['verdict'], simulator = 'sim', live = 'live'): CheckReport['results'][number] => ({ rule, simulator, live, verdict })

function report(results: CheckReport['results'], regular: string | null = null): CheckReport {
  const count = (verdict: string) => results.filter((r) => r.verdict === verdict).length
  return { baseUrl: BASE, keys: { management: 'sk-or-v1-012...89ab', regular }, requests: [], results, same: count('same'), drift: count('drift'), skipped: count('skipped') }
}

describe('formatReport', () => {
  it('lays the table out in columns as wide as their widest cell, never narrower than their titles', () => {
    expect(formatReport(report([row('r', 'same', 's', 'l')])).split('\n')).toEqual([
      `${BASE} (management key sk-or-v1-012...89ab)`,
      '',
      'rule  simulator  live  verdict',
      '----  ---------  ----  -------',
      'r     s          l     same',
      '',
      '1 rule: 1 same, 0 drift, 0 skipped',
    ])
    expect(formatReport(report([row('shape GET /keys', 'same', '200 json, fits', '200 json, fitting')])).split('\n').slice(2, 5)).toEqual([
      'rule             simulator       live               verdict',
      '---------------  --------------  -----------------  -------',
      'shape GET /keys  200 json, fits  200 json, fitting  same',
    ])
  })

  it('shortens a long cell to its column, on one line, and names the regular key', () => {
    const long = row('r'.repeat(80), 'same', `first line\n  ${'s'.repeat(60)}`, 'l'.repeat(47))
    const lines = formatReport(report([long], 'sk-or-v1-abc...wxyz')).split('\n')
    expect(lines[0]).toBe(`${BASE} (management key sk-or-v1-012...89ab, regular key sk-or-v1-abc...wxyz)`)
    expect(lines[2]).toBe(`${'rule'.padEnd(72)}  ${'simulator'.padEnd(46)}  ${'live'.padEnd(46)}  verdict`)
    expect(lines[4]).toBe(`${'r'.repeat(69)}...  first line ${'s'.repeat(32)}...  ${'l'.repeat(43)}...  same`)
    const fits = formatReport(report([row('r'.repeat(72), 'same', 's'.repeat(46), 'l'.repeat(46))])).split('\n')
    expect(fits[4]).toBe(`${'r'.repeat(72)}  ${'s'.repeat(46)}  ${'l'.repeat(46)}  same`)
  })

  it('lists each drift with its details, then each skip with its reason, then the counts', () => {
    const text = formatReport(
      report([
        row('a', 'drift', '200 json, fits', '200 json, 1 shape problem'),
        { ...row('b', 'drift', '404', '403'), details: ['data.x: missing', 'data.y: missing'] },
        row('c', 'skipped', '-', 'skipped: no regular key given (--regular-key)'),
        row('d', 'same'),
        row('e', 'skipped', '200 json', 'skipped: GET /presets listed no preset to read'),
      ]),
    )
    expect(text.split('\n').slice(9)).toEqual([
      '',
      'drift: a',
      '  simulator: 200 json, fits',
      '  live:      200 json, 1 shape problem',
      '',
      'drift: b',
      '  simulator: 404',
      '  live:      403',
      '  data.x: missing',
      '  data.y: missing',
      '',
      'skipped: c: no regular key given (--regular-key)',
      'skipped: e: GET /presets listed no preset to read',
      '',
      '5 rules: 1 same, 2 drift, 2 skipped',
    ])
  })

  it('says an empty report in a line', () => {
    expect(formatReport(report([])).split('\n').slice(2)).toEqual(['rule  simulator  live  verdict', '----  ---------  ----  -------', '', '0 rules: 0 same, 0 drift, 0 skipped'])
  })
})
