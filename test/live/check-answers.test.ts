// checkService against odd live answers: a status the rule does not expect, a body that is not
// JSON, no content type, a request that fails or times out, keys in an order the rule refuses, an
// error body that is not an envelope, a write that goes wrong. The live service is a simulator in
// process (fake-service.ts), altered one answer at a time; each test reads the findings a user reads.
import { describe, expect, it } from 'vitest'
import { createSimulator, maskSecret } from '../../src/index.js'
import { type CheckReport, type CheckServiceOptions, checkService } from '../../src/live/check.js'
import { type Alter, LIVE_BASE, type Sent, fakeService, jsonAnswer } from './fake-service.js'

const sim = createSimulator()
const { world } = sim
sim.presets.create({ userId: world.userId, slug: 'support-replies', config: { model: world.models.paid }, systemPrompt: 'You answer support tickets.' })

async function check(alter?: Alter, extra: Partial<CheckServiceOptions> = {}): Promise<{ report: CheckReport; sent: Sent[] }> {
  const service = fakeService(sim, alter)
  const report = await checkService({
    baseUrl: LIVE_BASE,
    managementKey: world.managementKey,
    regularKey: world.apiKey,
    models: [world.models.paid],
    files: [world.files.report],
    fetch: service.fetch,
    ...extra,
  })
  return { report, sent: service.sent }
}

const result = (report: CheckReport, rule: string) => report.results.find((r) => r.rule === rule)
const KEY_LIST_QUERY = 'include_disabled=true'
const isKeyList = (sent: Sent): boolean => sent.method === 'GET' && sent.path === '/keys' && sent.query.toString() === KEY_LIST_QUERY
/** A body without a content type: a Response made from bytes gets none. */
const untyped = (status: number, text: string): Response => new Response(new TextEncoder().encode(text), { status })

describe('the requests checkService sends', () => {
  it('sends each request with the key of its rule, asks for JSON, and leaves redirects to the caller', async () => {
    const { report, sent } = await check()
    const keyList = sent.find(isKeyList)
    expect(keyList?.headers.get('authorization')).toBe(`Bearer ${world.managementKey}`)
    expect(keyList?.headers.get('accept')).toBe('application/json, */*')
    expect(keyList?.headers.get('content-type')).toBeNull()
    expect(keyList?.redirect).toBe('manual')
    const regular = sent.find((s) => s.path === '/credits' && s.headers.get('authorization') === `Bearer ${world.apiKey}`)
    expect(regular).toBeDefined()
    const anonymous = sent.filter((s) => s.path === '/keys' && s.query.toString() === '')
    expect(anonymous.map((s) => s.headers.get('authorization')).sort()).toEqual([`Bearer ${world.apiKey}`, null])
    expect(report.requests).toEqual(
      expect.arrayContaining([
        'GET /keys?include_disabled=true (management key)',
        'GET /keys (no Authorization)',
        'GET /keys (regular key)',
        'GET /keys?offset=-1 (management key)',
        `GET /models/${encodeURIComponent(world.models.paid.split('/')[0] as string)}/${encodeURIComponent(world.models.paid.split('/')[1] as string)}/endpoints (regular key)`,
      ]),
    )
    expect(sent.every((s) => s.method === 'GET')).toBe(true)
  })

  it('sends one GET per request its rules read, in the order of the rules, each path as the service spells it', async () => {
    const { report } = await check(undefined, { models: [world.models.free] })
    const management = `Bearer ${world.managementKey}`
    const first = (path: string, field: string) => (sim.handle({ method: 'GET', path, query: 'include_disabled=true', authorization: management }).body as { data: Record<string, string>[] }).data[0]?.[field]
    const [author, slug] = world.models.free.split('/') as [string, string]
    const endpoints = `/models/${author}/${slug.replace(':', '%3A')}/endpoints`
    const workspace = first('/keys', 'workspace_id')
    expect(report.requests).toEqual([
      'GET /keys?include_disabled=true (management key)',
      `GET /keys/${first('/keys', 'hash')} (management key)`,
      `GET ${endpoints} (regular key)`,
      `GET ${endpoints} (no Authorization)`,
      `GET /files/${world.files.report}/content (management key)`,
      `GET /workspaces/${workspace} (management key)`,
      'GET /workspaces (management key)',
      'GET /videos/models (no Authorization)',
      'GET /key (management key)',
      'GET /credits (management key)',
      'GET /models (no Authorization)',
      'GET /providers (no Authorization)',
      'GET /presets (management key)',
      'GET /presets/support-replies (management key)',
      'GET /oauth/jwks (no Authorization)',
      'GET /guardrails (management key)',
      `GET /guardrails/${first('/guardrails', 'id')} (management key)`,
      'GET /guardrails/assignments/keys (management key)',
      'GET /guardrails/assignments/members (management key)',
      `GET /workspaces/${workspace}/budgets (management key)`,
      'GET /byok (management key)',
      'GET /organization/members (management key)',
      'GET /activity (management key)',
      'GET /models/user (regular key)',
      'GET /endpoints/zdr (no Authorization)',
      'GET /keys (no Authorization)',
      'GET /keys (regular key)',
      `GET /keys/${'0'.repeat(64)} (management key)`,
      'GET /workspaces/00000000-0000-4000-8000-000000000000 (management key)',
      'GET /models/model-access-sim/no-such-model-0/endpoints (no Authorization)',
      'GET /files/file_model_access_sim_check_0/content (management key)',
      'GET /keys?offset=-1 (management key)',
      'GET /keys?offset=abc (management key)',
      'GET /key (no Authorization)',
      'GET /credits (no Authorization)',
      'GET /credits (regular key)',
      'GET /model/model-access-sim/no-such-model-0 (no Authorization)',
      'GET /presets/model-access-sim-check-0 (management key)',
      'GET /guardrails/00000000-0000-4000-8000-000000000000 (management key)',
    ])
    // Without a regular key, the keyed endpoint listings are read with the management key.
    const { report: keyless } = await check(undefined, { models: [world.models.free], regularKey: undefined })
    expect(keyless.requests.filter((r) => r.includes('/endpoints') || r.includes('/models/user'))).toEqual([
      `GET ${endpoints} (management key)`,
      `GET ${endpoints} (no Authorization)`,
      'GET /models/user (management key)',
      'GET /endpoints/zdr (no Authorization)',
      'GET /models/model-access-sim/no-such-model-0/endpoints (no Authorization)',
    ])
  })

  it('with allowWrites, makes one throwaway key with a zero limit, disables it and deletes it, each write a JSON body', async () => {
    const { report, sent } = await check(undefined, { allowWrites: true })
    const writes = sent.filter((s) => s.method !== 'GET')
    const hash = writes[1]?.path.slice('/keys/'.length) ?? ''
    expect(hash).toMatch(/^[0-9a-f]{64}$/)
    expect(writes.map((s) => [s.method, s.path, s.body === null ? null : JSON.parse(s.body), s.headers.get('content-type'), s.headers.get('authorization')])).toEqual([
      ['POST', '/keys', { name: 'model-access-sim check', limit: 0 }, 'application/json', `Bearer ${world.managementKey}`],
      ['PATCH', `/keys/${hash}`, { name: 'model-access-sim check (disabled)', disabled: true }, 'application/json', `Bearer ${world.managementKey}`],
      ['DELETE', `/keys/${hash}`, null, null, `Bearer ${world.managementKey}`],
    ])
    expect(report.requests.filter((r) => !r.startsWith('GET '))).toEqual(['POST /keys (management key)', `PATCH /keys/${hash} (management key)`, `DELETE /keys/${hash} (management key)`])
    expect(report.requests).toContain(`GET /keys/${hash} (management key)`)
    expect(result(report, '404 GET /keys/{hash} after DELETE')).toEqual({ rule: '404 GET /keys/{hash} after DELETE', simulator: '404', live: '404', verdict: 'same' })
    expect(sim.keys.get(hash)).toBeUndefined()
  })

  it('drops the slashes after the base URL, and checks a model or file given twice once', async () => {
    const { report, sent } = await check(undefined, { baseUrl: `${LIVE_BASE}//`, models: [world.models.paid, world.models.paid], files: [world.files.report, world.files.report] })
    expect(report.baseUrl).toBe(LIVE_BASE)
    expect(sent.some(isKeyList)).toBe(true)
    expect(report.results.filter((r) => r.rule === `shape GET /models/${world.models.paid}/endpoints`)).toHaveLength(1)
    expect(report.results.filter((r) => r.rule === `shape GET /files/${world.files.report}/content`)).toHaveLength(1)
  })
})

describe('checkService on odd answers', () => {
  it('names a status it did not expect, a body that is not JSON, and a missing content type', async () => {
    const { report } = await check(async (sent, answer) => {
      if (sent.path === '/credits' && sent.headers.get('authorization') === `Bearer ${world.managementKey}`) return new Response('<h1>Down</h1>', { status: 500, headers: { 'content-type': 'text/html; charset=utf-8' } })
      if (sent.path === '/providers') return new Response('{"data": [', { status: 200, headers: { 'content-type': 'application/json' } })
      if (sent.path === '/oauth/jwks') return new Response('', { status: 200, headers: { 'content-type': 'application/json' } })
      if (sent.path === '/videos/models') return untyped(200, await (await answer()).text())
      return undefined
    })
    expect(result(report, 'shape GET /credits')).toMatchObject({ simulator: expect.stringMatching(/^200 json, fits /), live: '500 text/html', verdict: 'drift' })
    expect(result(report, 'shape GET /providers')).toMatchObject({ live: '200 json, the body is not JSON', verdict: 'drift' })
    expect(result(report, 'shape GET /oauth/jwks')).toMatchObject({ live: '200 json, the body is not JSON', verdict: 'drift' })
    expect(result(report, 'shape GET /videos/models')).toMatchObject({ simulator: '200 json, fits { data: VideoModel[] }', live: '200 (no content-type), fits { data: VideoModel[] }', verdict: 'drift' })
    expect(result(report, 'shape GET /credits')?.details).toBeUndefined()
  })

  it('shows twenty kinds of shape problem and counts the rest, and one problem in the singular', async () => {
    const { report } = await check(async (sent, answer) => {
      if (sent.path === '/key') {
        const body = (await (await answer()).json()) as { data: Record<string, unknown> }
        for (let i = 0; i < 25; i++) body.data[`extra_${i}`] = i
        return jsonAnswer(200, body)
      }
      if (sent.path === '/workspaces' && sent.query.toString() === '') {
        const body = (await (await answer()).json()) as { data: Record<string, unknown>[] }
        delete body.data[0]?.['slug']
        return jsonAnswer(200, body)
      }
      return undefined
    })
    const key = result(report, 'shape GET /key')
    expect(key).toMatchObject({ live: '200 json, 25 shape problems', verdict: 'drift' })
    expect(key?.details).toHaveLength(21)
    expect(key?.details?.[0]).toMatch(/^data\.extra_0: unexpected field/)
    expect(key?.details?.[19]).toMatch(/^data\.extra_19: unexpected field/)
    expect(key?.details?.[20]).toBe('... and 5 more kinds of problem')
    expect(result(report, 'shape GET /workspaces')).toMatchObject({ live: '200 json, 1 shape problem', details: [expect.stringMatching(/^data\[0\]\.slug: missing/)] })
  })

  it('reports a request that fails, naming why: the error, its code, a timeout', async () => {
    const { report } = await check(
      async (sent) => {
        if (sent.path === '/credits' && sent.headers.get('authorization') === `Bearer ${world.managementKey}`) throw new TypeError('fetch failed', { cause: { code: 'ECONNRESET' } })
        if (sent.path === '/providers') throw 'socket hang up'
        if (sent.path === '/models' && sent.query.toString() === '') throw new DOMException('The operation was aborted due to timeout', 'TimeoutError')
        if (sent.path === '/videos/models') throw new DOMException('This operation was aborted', 'AbortError')
        if (sent.path === '/key' && sent.headers.get('authorization') !== null) throw new Error('bad gateway', { cause: 'upstream' })
        if (sent.path === '/oauth/jwks') throw new Error('refused', { cause: { code: 61 } })
        return undefined
      },
      { timeoutMs: 1234 },
    )
    expect(result(report, 'shape GET /credits')?.live).toBe('request failed: fetch failed (ECONNRESET)')
    expect(result(report, 'shape GET /providers')?.live).toBe('request failed: socket hang up')
    expect(result(report, 'shape GET /models')?.live).toBe('request failed: timed out after 1234 ms')
    expect(result(report, 'shape GET /videos/models')?.live).toBe('request failed: timed out after 1234 ms')
    expect(result(report, 'shape GET /key')?.live).toBe('request failed: bad gateway')
    expect(result(report, 'shape GET /oauth/jwks')?.live).toBe('request failed: refused')
  })

  it('gives up on a request after timeoutMs, 30 seconds unless told', async () => {
    const hanging: Alter = (sent) =>
      sent.path === '/providers'
        ? new Promise((_, fail) => {
            sent.signal?.addEventListener('abort', () => fail(sent.signal?.reason))
          })
        : undefined
    const { report } = await check(hanging, { timeoutMs: 20 })
    expect(result(report, 'shape GET /providers')?.live).toBe('request failed: timed out after 20 ms')
    const failing = await check((sent) => {
      if (sent.path === '/providers') throw new DOMException('The operation was aborted due to timeout', 'TimeoutError')
      return undefined
    })
    expect(result(failing.report, 'shape GET /providers')?.live).toBe('request failed: timed out after 30000 ms')
  })

  it('skips the reads of a key or workspace when GET /keys lists none, and says so', async () => {
    const { report } = await check((sent) => (isKeyList(sent) ? jsonAnswer(200, { data: [] }) : undefined))
    expect(result(report, 'shape GET /keys/{hash}')).toEqual({
      rule: 'shape GET /keys/{hash}',
      simulator: '200 json, fits { data: ApiKey }',
      live: 'skipped: GET /keys listed no key with a hash to read',
      verdict: 'skipped',
    })
    expect(result(report, 'shape GET /workspaces/{id}')?.live).toBe('skipped: GET /keys listed no key with a workspace_id to read')
    expect(result(report, 'shape GET /workspaces/{id}/budgets')?.live).toBe('skipped: GET /keys listed no key with a workspace_id to read')
    expect(result(report, 'order of GET /keys: newest first')).toEqual({
      rule: 'order of GET /keys: newest first',
      simulator: 'newest first',
      live: 'skipped: 0 keys with a readable created_at listed: no order to see',
      verdict: 'skipped',
    })
  })

  it('skips the read of a key whose hash is empty, and of a preset whose slug is not a string', async () => {
    const { report } = await check((sent) => {
      if (isKeyList(sent)) return jsonAnswer(200, { data: [{ hash: '', workspace_id: 7 }, { hash: 'f'.repeat(64) }] })
      if (sent.path === '/presets') return jsonAnswer(200, { data: [{ slug: 12 }], total_count: 1 })
      return undefined
    })
    expect(result(report, 'shape GET /keys/{hash}')?.live).toBe('skipped: GET /keys listed no key with a hash to read')
    expect(result(report, 'shape GET /workspaces/{id}')?.live).toBe('skipped: GET /keys listed no key with a workspace_id to read')
    expect(result(report, 'shape GET /presets/{slug}')?.live).toBe('skipped: GET /presets listed no preset to read')
  })

  it('reads the first listed key, preset and guardrail by their ids, percent-encoded', async () => {
    const { sent } = await check((sent) => {
      if (isKeyList(sent)) return jsonAnswer(200, { data: [{ hash: 'a/b c', workspace_id: 'w/1' }] })
      if (sent.path === '/presets') return jsonAnswer(200, { data: [{ slug: 'my preset' }], total_count: 1 })
      return undefined
    })
    const paths = sent.map((s) => s.path)
    expect(paths).toEqual(expect.arrayContaining(['/keys/a%2Fb%20c', '/workspaces/w%2F1', '/workspaces/w%2F1/budgets', '/presets/my%20preset']))
  })
})

/** A key list of these created_at values (and hashes), in this order. */
const listing = (...keys: [unknown, string?][]): Alter => (sent) => (isKeyList(sent) ? jsonAnswer(200, { data: keys.map(([created_at, hash]) => ({ created_at, hash })) }) : undefined)

describe('the order rule', () => {
  const OUT_OF_ORDER: [string, [unknown, string?][], string, string[]][] = [
    [
      'names a newer key listed after an older one, to the nanosecond',
      [['2026-01-01T00:00:00.000000001Z'], ['2026-01-01T00:00:00.000000002Z'], ['2025-12-31T23:59:59Z']],
      'not newest first: 1 pair out of order',
      ['data[1] (created_at "2026-01-01T00:00:00.000000002Z") is newer than data[0] (created_at "2026-01-01T00:00:00.000000001Z") before it'],
    ],
    [
      'names a later second after an earlier one, and counts the pairs',
      [['2026-01-01T00:00:01Z'], ['2026-01-01T00:00:02Z'], ['2026-01-01T00:00:01.5Z'], ['2026-01-01T00:00:03.25Z']],
      'not newest first: 2 pairs out of order',
      [
        'data[1] (created_at "2026-01-01T00:00:02Z") is newer than data[0] (created_at "2026-01-01T00:00:01Z") before it',
        'data[3] (created_at "2026-01-01T00:00:03.25Z") is newer than data[2] (created_at "2026-01-01T00:00:01.5Z") before it',
      ],
    ],
    [
      'orders keys of one instant by hash, and skips a created_at it cannot read',
      [['2026-01-01T00:00:00.000000001Z', 'b'], ['yesterday', 'a'], ['2026-01-01T00:00:00.000000001Z', 'a'], ['2026-01-01T00:00:00Z', '1'], ['2026-01-01T00:00:00Z', '0']],
      'not newest first: 2 pairs out of order',
      [
        'data[2] and data[0] share created_at "2026-01-01T00:00:00.000000001Z", but their hashes are not in ascending order',
        'data[4] and data[3] share created_at "2026-01-01T00:00:00Z", but their hashes are not in ascending order',
      ],
    ],
  ]

  it.each(OUT_OF_ORDER)('%s', async (_, keys, live, details) => {
    const { report } = await check(listing(...keys))
    expect(result(report, 'order of GET /keys: newest first')).toMatchObject({ simulator: 'newest first', live, verdict: 'drift', details })
  })

  it('takes keys of one instant in ascending hash order, or without hashes, as newest first', async () => {
    const { report } = await check(listing(['2026-01-02T00:00:00Z', 'a'], ['2026-01-02T00:00:00Z', 'b'], ['2026-01-01T00:00:00Z'], ['2026-01-01T00:00:00Z', 'a'], [12, 'z']))
    expect(result(report, 'order of GET /keys: newest first')).toMatchObject({ live: 'newest first', verdict: 'same' })
  })

  it('skips a list with one readable date, and says there is no list when there is none', async () => {
    const one = await check(listing(['2026-01-01T00:00:00Z'], [null]))
    expect(result(one.report, 'order of GET /keys: newest first')?.live).toBe('skipped: 1 key with a readable created_at listed: no order to see')
    const notAList = await check((sent) => (isKeyList(sent) ? jsonAnswer(200, { data: { keys: [] } }) : undefined))
    expect(result(notAList.report, 'order of GET /keys: newest first')).toMatchObject({ live: '200 json, no key list', verdict: 'drift' })
    const refused = await check((sent) => (isKeyList(sent) ? jsonAnswer(503, { data: [] }) : undefined))
    expect(result(refused.report, 'order of GET /keys: newest first')).toMatchObject({ live: '503 json, no key list', verdict: 'drift' })
    const failed = await check((sent) => {
      if (isKeyList(sent)) throw new TypeError('fetch failed')
      return undefined
    })
    expect(result(failed.report, 'order of GET /keys: newest first')).toMatchObject({ live: 'request failed: fetch failed', verdict: 'drift' })
  })
})

describe('the anonymous performance rule', () => {
  const anonymousEndpoints = (sent: Sent): boolean => sent.path.endsWith('/endpoints') && sent.path.startsWith('/models/') && sent.headers.get('authorization') === null && sent.path !== '/models/model-access-sim/no-such-model-0/endpoints'
  const rule = `anonymous hides performance: ${world.models.paid}`

  it('names each performance field an anonymous caller sees, by endpoint', async () => {
    const { report } = await check(async (sent, answer) => {
      if (!anonymousEndpoints(sent)) return undefined
      const body = (await (await answer()).json()) as { data: { endpoints: unknown[] } }
      const first = body.data.endpoints[0] as Record<string, unknown>
      body.data.endpoints = [null, { ...first, throughput_last_30m: { p50: 12 } }, { ...first, perf_last_30m_by_workload: {} }, { ...first, latency_last_30m: 'fast' }]
      return jsonAnswer(200, body)
    })
    expect(result(report, rule)).toMatchObject({
      simulator: 'latency, throughput null; no per-workload',
      live: 'shows performance without a key: 3 fields',
      verdict: 'drift',
      details: [
        'data.endpoints[1].throughput_last_30m: expected null without a key, got an object',
        'data.endpoints[2].perf_last_30m_by_workload: expected absent without a key, but it is there',
        'data.endpoints[3].latency_last_30m: expected null without a key, got "fast"',
      ],
    })
  })

  it('skips a model without endpoints, and names an answer without a list', async () => {
    const none = await check((sent) => (anonymousEndpoints(sent) ? jsonAnswer(200, { data: { id: world.models.paid, endpoints: [] } }) : undefined))
    expect(result(none.report, rule)).toMatchObject({ simulator: 'latency, throughput null; no per-workload', live: 'skipped: the model lists no endpoint', verdict: 'skipped' })
    const notAList = await check((sent) => (anonymousEndpoints(sent) ? jsonAnswer(200, { data: { endpoints: {} } }) : undefined))
    expect(result(notAList.report, rule)).toMatchObject({ live: '200 json, no endpoint list', verdict: 'drift' })
    const noData = await check((sent) => (anonymousEndpoints(sent) ? jsonAnswer(200, { endpoints: [] }) : undefined))
    expect(result(noData.report, rule)?.live).toBe('200 json, no endpoint list')
    const missing = await check((sent) => (anonymousEndpoints(sent) ? jsonAnswer(404, { error: { code: 404, message: 'Not found' } }) : undefined))
    expect(result(missing.report, rule)?.live).toBe('404 json, no endpoint list')
    const failed = await check((sent) => {
      if (anonymousEndpoints(sent)) throw new TypeError('fetch failed')
      return undefined
    })
    expect(result(failed.report, rule)?.live).toBe('request failed: fetch failed')
  })
})

describe('the file rule', () => {
  const rule = `shape GET /files/${world.files.report}/content`
  const isFile = (sent: Sent): boolean => sent.path === `/files/${world.files.report}/content`

  it('names each header problem of a download, and a status other than 200', async () => {
    const { report } = await check((sent) => (isFile(sent) ? new Response(new Uint8Array([1, 2, 3]), { status: 200, headers: { 'content-type': 'application/octet-stream', 'content-length': '4' } }) : undefined))
    expect(result(report, rule)).toMatchObject({
      simulator: '200 octet-stream, length and attachment headers',
      live: '200 octet-stream, 2 problems',
      verdict: 'drift',
      details: ['content-length: expected 3 (the byte count), got "4"', 'content-disposition: missing, expected attachment; filename="..."'],
    })
    const missing = await check((sent) => (isFile(sent) ? jsonAnswer(404, { error: { code: 404, message: 'Not found' } }) : undefined))
    expect(result(missing.report, rule)).toMatchObject({ live: '404 json', verdict: 'drift' })
    const failed = await check((sent) => {
      if (isFile(sent)) throw new TypeError('fetch failed')
      return undefined
    })
    expect(result(failed.report, rule)?.live).toBe('request failed: fetch failed')
  })
})

describe('the error envelope rule', () => {
  const rule = 'error envelope, code = status'

  it('names each error body that is not a JSON envelope, with its request', async () => {
    const { report } = await check(async (sent, answer) => {
      if (sent.path === '/keys' && sent.query.toString() === '' && sent.headers.get('authorization') === null) return new Response('<h1>401</h1>', { status: 401, headers: { 'content-type': 'text/html' } })
      if (sent.path === '/keys' && sent.query.toString() === 'offset=-1') return untyped(400, await (await answer()).text())
      return undefined
    })
    expect(result(report, rule)).toMatchObject({
      simulator: 'every error body fits, code = status',
      live: '3 problems in error bodies',
      verdict: 'drift',
      details: [
        'GET /keys (no Authorization) -> 401: content-type "text/html", expected application/json',
        'GET /keys (no Authorization) -> 401: the body is not JSON',
        'GET /keys?offset=-1 (management key) -> 400: content-type missing, expected application/json',
      ],
    })
  })

  it('names an envelope whose code is not the status', async () => {
    const { report } = await check((sent) => (sent.path === '/credits' && sent.headers.get('authorization') === null ? jsonAnswer(401, { error: { code: 403, message: 'No' } }) : undefined))
    expect(result(report, rule)).toMatchObject({ live: '1 problem in error bodies', details: [expect.stringMatching(/^GET \/credits \(no Authorization\) -> 401: /)] })
  })

  it('is skipped when no probe got an error answer', async () => {
    const { report } = await check(async (sent, answer) => {
      const res = await answer()
      if (res.status < 400) return res
      if (sent.path === '/keys' && sent.query.toString() === 'offset=abc') return jsonAnswer(200, { data: [] })
      throw new TypeError('fetch failed')
    })
    expect(result(report, rule)).toEqual({ rule, simulator: 'every error body fits, code = status', live: 'skipped: no error response to inspect', verdict: 'skipped' })
    expect(result(report, '404 unknown key hash')).toMatchObject({ simulator: '404', live: 'request failed: fetch failed', verdict: 'drift' })
    expect(result(report, '400 offset=abc on GET /keys')).toMatchObject({ simulator: '400', live: '200', verdict: 'drift' })
  })
})

describe('the write rules', () => {
  const writes = (sent: Sent[]): string[] => sent.filter((s) => s.method !== 'GET').map((s) => `${s.method} ${s.path}`)

  it('skip what needs the throwaway key when POST /keys made none', async () => {
    const { report, sent } = await check((s) => (s.method === 'POST' ? jsonAnswer(500, { error: { code: 500, message: 'Internal error' } }) : undefined), { allowWrites: true })
    expect(result(report, 'shape POST /keys (throwaway key)')).toMatchObject({ simulator: expect.stringMatching(/^201 json, fits /), live: '500 json', verdict: 'drift' })
    for (const rule of ['shape PATCH /keys/{hash} (throwaway key)', 'shape DELETE /keys/{hash} (throwaway key)', '404 GET /keys/{hash} after DELETE']) {
      expect(result(report, rule)).toMatchObject({ live: 'skipped: POST /keys made no throwaway key', verdict: 'skipped' })
    }
    expect(result(report, '404 GET /keys/{hash} after DELETE')?.simulator).toBe('404')
    expect(writes(sent)).toEqual(['POST /keys'])
  })

  it('take no throwaway key from a POST that answered 200, or a hash that is not 64 hex digits', async () => {
    for (const [status, hash] of [
      [200, 'a'.repeat(64)],
      [201, 'A'.repeat(64)],
      [201, `${'a'.repeat(64)}0`],
      [201, 42],
    ] as const) {
      const { report, sent } = await check((s) => (s.method === 'POST' ? jsonAnswer(status, { data: { hash }, key: 'sk-or-v1-x' }) : undefined), { allowWrites: true })
      expect(result(report, 'shape PATCH /keys/{hash} (throwaway key)')?.live, `${status} ${hash}`).toBe('skipped: POST /keys made no throwaway key')
      expect(writes(sent)).toEqual(['POST /keys'])
    }
  })

  it('delete the throwaway key at the end when its DELETE drifted, and skip the read after it', async () => {
    let deletes = 0
    const { report, sent } = await check((s) => (s.method === 'DELETE' && deletes++ === 0 ? jsonAnswer(500, { error: { code: 500, message: 'Try again' } }) : undefined), { allowWrites: true })
    const hash = sent.find((s) => s.method === 'PATCH')?.path.slice('/keys/'.length) ?? ''
    expect(result(report, 'shape DELETE /keys/{hash} (throwaway key)')).toMatchObject({ live: '500 json', verdict: 'drift' })
    expect(result(report, '404 GET /keys/{hash} after DELETE')).toMatchObject({ simulator: '404', live: 'skipped: the throwaway key was not deleted', verdict: 'skipped' })
    expect(writes(sent)).toEqual(['POST /keys', `PATCH /keys/${hash}`, `DELETE /keys/${hash}`, `DELETE /keys/${hash}`])
    expect(report.requests.at(-1)).toBe(`DELETE /keys/${hash} (management key)`)
    expect(sim.keys.get(hash)).toBeUndefined()
  })

  it('mask the throwaway key\'s secret wherever the service echoes it', async () => {
    let secret = ''
    const { report } = await check(
      async (s, answer) => {
        if (s.method === 'POST') {
          const res = await answer()
          secret = ((await res.clone().json()) as { key: string }).key
          return res
        }
        if (s.method !== 'PATCH') return undefined
        const body = (await (await answer()).json()) as { data: Record<string, unknown> }
        body.data[secret] = true
        return jsonAnswer(200, body)
      },
      { allowWrites: true },
    )
    expect(secret).toMatch(/^sk-or-v1-/)
    expect(result(report, 'shape PATCH /keys/{hash} (throwaway key)')?.details).toEqual([`data[${JSON.stringify(maskSecret(secret))}]: unexpected field (ApiKey has no such field)`])
    expect(JSON.stringify(report)).not.toContain(secret)
  })
})

describe('checkService keeps keys out of the report', () => {
  it('masks a key echoed without its sk-or-v1- prefix, eight characters after it being enough', async () => {
    const managementKey = 'sk-or-v1-abcdefgh'
    const { report } = await check((sent) => (isKeyList(sent) ? jsonAnswer(200, { data: [{ hash: 'f'.repeat(64), usage: 'abcdefgh' }] }) : undefined), { managementKey })
    const details = result(report, 'shape GET /keys')?.details ?? []
    expect(details.join('\n')).not.toContain('abcdefgh')
    expect(JSON.stringify(report)).not.toContain('abcdefgh')
    expect(report.keys.management).toBe(maskSecret(managementKey))
  })

  it('masks the regular key where the service echoes it, even where a long value is cut short', async () => {
    const { report } = await check((sent) => (sent.path === '/models/user' ? jsonAnswer(200, { data: sent.headers.get('authorization') }) : undefined))
    const details = result(report, 'shape GET /models/user')?.details ?? []
    expect(details[0]).toBe(`data: expected an array of CatalogModel, got "Bearer ${maskSecret(world.apiKey)}"`)
    expect(JSON.stringify(report)).not.toContain(world.apiKey.slice('sk-or-v1-'.length, 'sk-or-v1-'.length + 16))
  })

  it('leaves the report\'s words alone for a key too short to tell from them', async () => {
    const { report } = await check(undefined, { managementKey: 'keys', regularKey: 'key' })
    expect(report.results[0]?.rule).toBe('shape GET /keys')
    expect(report.requests[0]).toBe('GET /keys?include_disabled=true (management key)')
  })
})
