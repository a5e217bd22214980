// checkService at the edges of its rules: a body that is JSON null, exactly as many kinds of shape
// problem as are shown, two keys out of order, fractions of a second of different lengths, keys
// that share an instant and a hash, an endpoint without performance fields, a POST /keys answer
// whose secret is not a string. The live service is a simulator in process (fake-service.ts).
import { describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { type CheckReport, type CheckServiceOptions, checkService } from '../../src/live/check.js'
import { type Alter, LIVE_BASE, type Sent, fakeService, jsonAnswer } from './fake-service.js'

const sim = createSimulator()
const { world } = sim

async function check(alter: Alter, extra: Partial<CheckServiceOptions> = {}): Promise<{ report: CheckReport; sent: Sent[] }> {
  const service = fakeService(sim, alter)
  const report = await checkService({ baseUrl: LIVE_BASE, managementKey: world.managementKey, models: [world.models.paid], fetch: service.fetch, ...extra })
  return { report, sent: service.sent }
}

const result = (report: CheckReport, rule: string) => report.results.find((r) => r.rule === rule)
const isKeyList = (sent: Sent): boolean => sent.method === 'GET' && sent.path === '/keys' && sent.query.toString() === 'include_disabled=true'
const ORDER = 'order of GET /keys: newest first'
/** A key list of these created_at values and hashes, in this order. */
const listing =
  (...keys: [string, unknown?][]): Alter =>
  (sent) =>
    isKeyList(sent) ? jsonAnswer(200, { data: keys.map(([created_at, hash]) => ({ created_at, hash })) }) : undefined

describe('checkService at the edges of its rules', () => {
  it('reads a body of JSON null as no list, without failing', async () => {
    const { report } = await check((sent) => (isKeyList(sent) ? jsonAnswer(200, null) : undefined))
    expect(result(report, ORDER)).toMatchObject({ live: '200 json, no key list', verdict: 'drift' })
    expect(result(report, 'shape GET /keys/{hash}')?.live).toBe('skipped: GET /keys listed no key with a hash to read')
  })

  it('shows twenty kinds of shape problem whole', async () => {
    const { report } = await check(async (sent, answer) => {
      if (sent.path !== '/key') return undefined
      const body = (await (await answer()).json()) as { data: Record<string, unknown> }
      for (let i = 0; i < 20; i++) body.data[`extra_${i}`] = i
      return jsonAnswer(200, body)
    })
    const details = result(report, 'shape GET /key')?.details ?? []
    expect(details).toHaveLength(20)
    expect(details.at(-1)).toMatch(/^data\.extra_19: unexpected field/)
  })

  it('names two keys out of order', async () => {
    const { report } = await check(listing(['2026-01-01T00:00:00Z', 'a'], ['2026-01-02T00:00:00Z', 'b']))
    expect(result(report, ORDER)).toMatchObject({ live: 'not newest first: 1 pair out of order', verdict: 'drift' })
  })

  it('compares fractions of a second of different lengths by their value', async () => {
    const { report } = await check(listing(['2026-01-01T00:00:01.5Z'], ['2026-01-01T00:00:01.25Z'], ['2026-01-01T00:00:01.125Z']))
    expect(result(report, ORDER)).toMatchObject({ live: 'newest first', verdict: 'same' })
  })

  it('takes keys of one instant with one hash, or hashes that are not strings, as in order', async () => {
    const { report } = await check(listing(['2026-01-01T00:00:01Z', 'b'], ['2026-01-01T00:00:01Z', 'b'], ['2026-01-01T00:00:00Z', 5], ['2026-01-01T00:00:00Z', 3]))
    expect(result(report, ORDER)).toMatchObject({ live: 'newest first', verdict: 'same' })
  })

  it('takes an endpoint without performance fields as hiding them', async () => {
    const anonymous = (sent: Sent): boolean => sent.path.startsWith('/models/') && sent.path.endsWith('/endpoints') && sent.headers.get('authorization') === null
    const { report } = await check((sent) => (anonymous(sent) ? jsonAnswer(200, { data: { id: world.models.paid, endpoints: [{ name: 'bare' }] } }) : undefined))
    expect(result(report, `anonymous hides performance: ${world.models.paid}`)).toMatchObject({ live: 'latency, throughput null; no per-workload', verdict: 'same' })
  })

  it('skips the read of a preset whose slug is empty, and shows a media type that only ends in application/... whole', async () => {
    const { report } = await check((sent) => {
      if (sent.path === '/presets') return jsonAnswer(200, { data: [{ slug: '' }], total_count: 1 })
      if (sent.path === '/providers') return jsonAnswer(200, { data: [] }, { 'content-type': 'x-application/json' })
      return undefined
    })
    expect(result(report, 'shape GET /presets/{slug}')?.live).toBe('skipped: GET /presets listed no preset to read')
    expect(result(report, 'shape GET /providers')?.live).toMatch(/^200 x-application\/json, /)
  })

  it('compares hashes of one instant only when both are strings', async () => {
    const { report } = await check(listing(['2026-01-01T00:00:01Z', 5], ['2026-01-01T00:00:01Z', '3'], ['2026-01-01T00:00:00Z', '5'], ['2026-01-01T00:00:00Z', 3]))
    expect(result(report, ORDER)).toMatchObject({ live: 'newest first', verdict: 'same' })
  })

  it('reads no endpoint list from an answer other than 200, and no throwaway hash that is not a string', async () => {
    const anonymous = (sent: Sent): boolean => sent.path.startsWith('/models/') && sent.path.endsWith('/endpoints') && sent.headers.get('authorization') === null
    const { report, sent } = await check(
      (s) => {
        if (anonymous(s)) return jsonAnswer(503, { data: { id: world.models.paid, endpoints: [{ name: 'bare' }] } })
        if (s.method === 'POST') return jsonAnswer(201, { data: { hash: ['a'.repeat(64)] }, key: 'sk-or-v1-x' })
        return undefined
      },
      { allowWrites: true },
    )
    expect(result(report, `anonymous hides performance: ${world.models.paid}`)?.live).toBe('503 json, no endpoint list')
    expect(sent.filter((s) => s.method !== 'GET').map((s) => s.method)).toEqual(['POST'])
  })

  it('inspects no error body of a probe that cannot run', async () => {
    const { report } = await check(
      (s) => (s.path === '/keys' && s.query.size === 0 && s.headers.get('authorization') === null ? new Response('denied', { status: 401, headers: { 'content-type': 'text/plain' } }) : undefined),
      { regularKey: undefined },
    )
    expect(result(report, 'error envelope, code = status')?.details).toEqual([
      'GET /keys (no Authorization) -> 401: content-type "text/plain", expected application/json',
      'GET /keys (no Authorization) -> 401: the body is not JSON',
    ])
  })

  it('goes on with the throwaway key when POST /keys answers a secret that is not a string', async () => {
    const { report, sent } = await check(
      async (s, answer) => {
        if (s.method !== 'POST') return undefined
        const body = (await (await answer()).json()) as { key: unknown }
        body.key = 42
        return jsonAnswer(201, body)
      },
      { allowWrites: true },
    )
    expect(sent.filter((s) => s.method !== 'GET').map((s) => s.method)).toEqual(['POST', 'PATCH', 'DELETE'])
    expect(result(report, '404 GET /keys/{hash} after DELETE')).toMatchObject({ live: '404', verdict: 'same' })
  })
})
