// Body fuzzing: hostile requests to every operation that takes a body (every row of the router's
// table whose method is not GET), with hostile bodies, content types, path parameters and callers,
// in sequences over the default world. Every answer must be a documented success or an error
// envelope (`error.code` equal to the status, a message, metadata an object when present), nothing
// throws, and a refused write changes nothing: not the world (`sim.exportWorld()`), not the random
// stream new ids come from (the next key made has the same secret as if the request had not come).
//
// Seeded: FUZZ_SEED=<n> replays a run; fast-check prints the seed and path of any failure.
import fc from 'fast-check'
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { OPERATIONS } from '../../src/core/operations/index.js'
import { MAX_BODY_BYTES } from '../../src/core/body.js'
import { generateWorld } from '../../src/fixtures/index.js'
import { createSimulator, type SimRequest, type SimResponse } from '../../src/index.js'
import { createHandlers } from '../../src/msw/index.js'
import { startServer } from '../../src/server/index.js'
import { runs, scaled } from '../support/runs.js'

const seed = Number(process.env['FUZZ_SEED'] ?? 20_261_125)
const WRITES = OPERATIONS.filter((operation) => operation.method !== 'GET')
/**
 * The writes whose ids the generator fills (keys' and workspaces'): half the draws go to them, so
 * that their successes are reached however many routes join the list; the other half go to any
 * write, the routes of other resources reached with ids that name nothing of theirs.
 */
const CORE_WRITES = WRITES.filter((operation) => /^\/(keys|workspaces)(\/\{[a-z_]+\})?$/.test(operation.template))

type Sim = ReturnType<typeof createSimulator>

/** Field names the write operations know, misspelt ones, and others: what a body is built from. */
const FIELD_NAMES = [
  'name', 'limit', 'limit_reset', 'include_byok_in_limit', 'expires_at', 'workspace_id', 'disabled', 'slug', 'description',
  'default_text_model', 'default_image_model', 'default_provider_sort', 'io_logging_sampling_rate', 'is_data_discount_logging_enabled',
  'external', 'creator_user_id', 'limt', 'Name', 'limit_rest', '__proto__', 'constructor', '', ' name', 'name\u0000',
]

/** JSON values as hostile as JSON can carry: wrong types, huge and tiny numbers, long and odd strings. */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, 0, -0, -1, 1, 0.1, 1e308, -1e308, 2 ** 53, 1e-320, '', ' ', 'daily', 'weekly', 'monthly', 'hourly', 'production', 'a-b', 'A B', '2026-03-02T10:00:00Z', '2020-01-01T00:00:00Z', 'not a date', '\u0000', '\ud800', 'é'.repeat(300), 'x'.repeat(5000)),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.string({ maxLength: 40 }),
  fc.constant([]),
  fc.constant({}),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
  fc.dictionary(fc.constantFrom('id', 'user', 'name', 'x'), fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.constant(null)), { maxKeys: 3 }),
)

/** A JSON object of fields from {@link FIELD_NAMES}, most of them plausible. */
const fieldsBody = fc.dictionary(fc.constantFrom(...FIELD_NAMES), hostileValue, { maxKeys: 5 }).map((fields) => JSON.stringify(fields))

type BodyDraw = { kind: 'text'; text: string } | { kind: 'bytes'; bytes: number[] } | { kind: 'none' }

/** Bodies some write takes as they are, so that the sequences hold successes as well as refusals. */
const plausible = fc
  .tuple(fc.constantFrom('alpha', 'beta', 'Gamma team'), fc.nat({ max: 99 }))
  .chain(([name, n]) =>
    fc.constantFrom(
      { name },
      { name, limit: n, limit_reset: 'monthly' },
      { name, slug: `ws-${n}` },
      { disabled: n % 2 === 0 },
      { description: `about ${name}` },
      {},
      { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: name }] },
      { model: 'openai/text-embedding-3-small', input: [name, `n${n}`], dimensions: 1 + n },
      { model: 'openai/gpt-4o-mini', input: [{ role: 'user', content: name }, { type: 'function_call_output', call_id: `call_${n}`, output: name }], instructions: 'Be brief.' },
    ),
  )
  .map((fields) => JSON.stringify(fields))

const body: fc.Arbitrary<BodyDraw> = fc.oneof(
  { weight: 4, arbitrary: plausible.map((text) => ({ kind: 'text' as const, text })) },
  { weight: 6, arbitrary: fieldsBody.map((text) => ({ kind: 'text' as const, text })) },
  { weight: 1, arbitrary: fc.json({ maxDepth: 3 }).map((text) => ({ kind: 'text' as const, text })) },
  { weight: 1, arbitrary: fc.string({ maxLength: 30 }).map((text) => ({ kind: 'text' as const, text })) },
  { weight: 1, arbitrary: fc.constantFrom('{', '{"name":}', '[{"name":"a"}]', '{"name":"a"}{"name":"b"}', '{"name":"a",}', '\ufeff{"name":"a"}').map((text) => ({ kind: 'text' as const, text })) },
  { weight: 1, arbitrary: fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 20 }).map((bytes) => ({ kind: 'bytes' as const, bytes: [0x7b, ...bytes, 0x7d] })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'none' as const }) },
)

const CONTENT_TYPES = [undefined, 'application/json', 'application/json; charset=utf-8', 'text/plain;charset=UTF-8', 'application/x-www-form-urlencoded', 'application/vnd.api+json', 'multipart/form-data; boundary=x', '', 'json'] as const

/** Who calls: the organisation's management key, its regular key, another organisation's management key, nobody, or a bad bearer. */
const CALLERS = ['management', 'regular', 'other', 'none', 'unknown', 'malformed'] as const
/** What fills a path parameter. */
const PARAMS = ['own-key', 'other-key', 'own-workspace', 'own-workspace-slug', 'other-workspace', 'default-workspace', 'random', 'encoded', 'empty'] as const

interface Draw {
  operation: number
  caller: (typeof CALLERS)[number]
  param: (typeof PARAMS)[number]
  body: BodyDraw
  contentType: (typeof CONTENT_TYPES)[number]
  query: string
}

const draw: fc.Arbitrary<Draw> = fc.record({
  operation: fc.nat(),
  // The organisation's management key and a JSON content type most of the time, so that bodies are read.
  caller: fc.oneof({ weight: 5, arbitrary: fc.constant('management' as const) }, { weight: 3, arbitrary: fc.constantFrom(...CALLERS) }),
  param: fc.oneof({ weight: 2, arbitrary: fc.constantFrom('own-key' as const, 'own-workspace-slug' as const) }, { weight: 3, arbitrary: fc.constantFrom(...PARAMS) }),
  body,
  contentType: fc.oneof({ weight: 4, arbitrary: fc.constant('application/json' as const) }, { weight: 3, arbitrary: fc.constantFrom(...CONTENT_TYPES) }),
  query: fc.constantFrom('', 'confirm_default_workspace_deletion=true', 'confirm_default_workspace_deletion=yes', 'x=1'),
})

/** The request a draw makes, with the simulator's ids filled in. */
function requestOf(sim: Sim, d: Draw, other: { managementKey: string; keyHash: string; workspaceId: string }): SimRequest {
  const pool = d.operation % 2 === 0 ? CORE_WRITES : WRITES
  const operation = pool[Math.floor(d.operation / 2) % pool.length] as (typeof WRITES)[number]
  const world = sim.world
  const spec = sim.exportWorld()
  const ownKeys = (spec.keys ?? []).filter((key) => key.userId === world.userId && !key.management)
  const ownWorkspaces = (spec.workspaces ?? []).filter((w) => w.userId === world.userId)
  const pick = <T,>(list: readonly T[], fallback: T): T => list[d.operation % Math.max(list.length, 1)] ?? fallback
  const value = (): string => {
    switch (d.param) {
      case 'own-key':
        return pick(ownKeys.map((key) => key.hash as string), 'f'.repeat(64))
      case 'other-key':
        return other.keyHash
      case 'own-workspace':
        return pick(ownWorkspaces.map((w) => w.id as string), 'none')
      case 'own-workspace-slug':
        return pick(ownWorkspaces.map((w) => w.slug as string), 'none')
      case 'other-workspace':
        return other.workspaceId
      case 'default-workspace':
        return world.workspaces.default
      case 'random':
        return 'a'.repeat(d.operation % 70)
      case 'encoded':
        return '%2F..%zz'
      case 'empty':
        return ''
    }
  }
  const path = operation.template.replace(/\{[^}]+\}/g, () => value())
  const authorization = {
    management: `Bearer ${world.managementKey}`,
    regular: `Bearer ${world.apiKey}`,
    other: `Bearer ${other.managementKey}`,
    none: undefined,
    unknown: 'Bearer sk-or-v1-nobody',
    malformed: 'Basic abc',
  }[d.caller]
  const request: SimRequest = { method: operation.method, path, query: d.query }
  if (authorization !== undefined) request.authorization = authorization
  if (d.body.kind === 'text') request.body = d.body.text
  else if (d.body.kind === 'bytes') request.body = new Uint8Array(d.body.bytes)
  if (d.contentType !== undefined) request.headers = { 'content-type': d.contentType }
  return request
}

/**
 * What is wrong with an answer, if anything: the wire contract for a write's answer. `POST
 * /oauth/token` answers errors in RFC 6749's shape, `{ error, error_description }`, which its
 * clients read (decisions/0049): for its `path`, that shape is the contract.
 */
function problemsOf(response: SimResponse, path = ''): string[] {
  const problems: string[] = []
  if (response.type !== 'json') return [`answered type ${response.type}`]
  if (response.headers['content-type'] !== 'application/json') problems.push(`content-type ${response.headers['content-type']}`)
  const body = response.body as Record<string, unknown>
  if (response.status >= 200 && response.status < 300) {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) problems.push('a success whose body is not an object')
    return problems
  }
  if (![400, 401, 403, 404, 409, 413].includes(response.status)) problems.push(`status ${response.status} is not one a write answers`)
  if (path.endsWith('/oauth/token')) {
    if (typeof body['error'] !== 'string' || typeof body['error_description'] !== 'string' || Object.keys(body).length !== 2) problems.push(`not an RFC 6749 error: ${JSON.stringify(body)}`)
    return problems
  }
  const error = (body as { error?: Record<string, unknown> }).error
  if (typeof error !== 'object' || error === null) return [...problems, 'an error without an error envelope']
  if (error['code'] !== response.status) problems.push(`error.code ${String(error['code'])} is not the status ${response.status}`)
  if (typeof error['message'] !== 'string' || error['message'] === '') problems.push('an error without a message')
  const metadata = error['metadata']
  if (metadata !== undefined && (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata))) problems.push('metadata that is not an object')
  const keys = Object.keys(body)
  if (keys.some((key) => key !== 'error' && key !== 'user_id')) problems.push(`envelope fields ${keys.join(', ')}`)
  // A 400 names what it refused.
  if (response.status === 400 && typeof (metadata as Record<string, unknown> | undefined)?.['parameter'] !== 'string' && (metadata as Record<string, unknown> | undefined)?.['reason'] === undefined) {
    problems.push('a 400 that names no parameter')
  }
  return problems
}

/** The next secret the simulator would draw, learnt without keeping the key. */
function nextSecret(sim: Sim): string {
  const saved = sim.snapshot()
  const { key } = sim.keys.create({ userId: sim.world.userId })
  sim.restore(saved)
  return key
}

/** A second organisation with a management key, a key and a workspace of its own. */
function otherOrganisation(sim: Sim) {
  const user = sim.users.create({ name: 'Other tenant' })
  const admin = sim.keys.create({ userId: user.id, management: true })
  const key = sim.keys.create({ userId: user.id, name: 'other' })
  const workspace = sim.workspaces.create({ userId: user.id, name: 'Other work', slug: 'other-work' })
  return { managementKey: admin.key, keyHash: key.record.hash, workspaceId: workspace.id }
}

const SMALL_WORLD = generateWorld({ seed: 42, size: 'small' })

describe('write operations under hostile bodies', () => {
  it('has write operations to fuzz', () => {
    expect(WRITES.length).toBeGreaterThan(0)
  })

  it('answer every request with a success or an error envelope, never throw, and a refused write changes nothing', () => {
    let refused = 0
    let succeeded = 0
    fc.assert(
      fc.property(fc.array(draw, { minLength: 5, maxLength: 25 }), (draws) => {
        // A small world: each request exports the whole world twice, and the default one holds the real catalog.
        const sim = createSimulator({ world: SMALL_WORLD })
        const other = otherOrganisation(sim)
        for (const d of draws) {
          const request = requestOf(sim, d, other)
          const before = JSON.stringify(sim.exportWorld())
          const secret = nextSecret(sim)
          let response: SimResponse
          try {
            response = sim.handle(request)
          } catch (error) {
            throw new Error(`sim.handle threw for ${JSON.stringify({ ...request, body: String(request.body) })}: ${String(error)}`)
          }
          const problems = problemsOf(response, request.path)
          expect(problems, `${request.method} ${request.path} -> ${response.status} ${JSON.stringify(response.body)}`).toEqual([])
          if (response.status >= 400) {
            refused++
            expect(JSON.stringify(sim.exportWorld()), `a refused ${request.method} ${request.path} (${response.status}) changed the world`).toBe(before)
            expect(nextSecret(sim), `a refused ${request.method} ${request.path} (${response.status}) moved the random stream`).toBe(secret)
          } else succeeded++
        }
      }),
      { seed, numRuns: runs(60) },
    )
    // The generator reaches both sides of the writes: refusals and successes.
    expect(refused).toBeGreaterThan(scaled(100, 60))
    expect(succeeded).toBeGreaterThan(scaled(10, 60))
  })

  it('answers a body over the cap with a 413 envelope on every write operation, and changes nothing', () => {
    const sim = createSimulator()
    const credential = sim.byok.create({ userId: sim.world.userId, provider: 'openai', key: 'sk-fuzz-0123456789' }).id
    const before = JSON.stringify(sim.exportWorld())
    const huge = `{"name":"${'x'.repeat(MAX_BODY_BYTES)}"}`
    // A DELETE reads no body: it is answered as if it had none, so it is not sent here.
    for (const operation of WRITES.filter((write) => write.method !== 'DELETE')) {
      const path = operation.template.replace('/byok/{id}', `/byok/${credential}`).replace('{hash}', sim.world.apiKeyHash).replace('{id}', sim.world.workspaces.default).replace('{workspace_ref}', sim.world.workspaces.default).replace('{interval}', 'daily')
      const response = sim.handle({ method: operation.method, path, authorization: `Bearer ${sim.world.managementKey}`, body: huge, headers: { 'content-type': 'application/json' } })
      expect(response.status, `${operation.method} ${operation.template}`).toBe(413)
      expect(problemsOf(response, path)).toEqual([])
    }
    expect(JSON.stringify(sim.exportWorld())).toBe(before)
  })
})

describe('write operations under hostile bodies, through MSW and the server', () => {
  const sim = createSimulator()
  const other = otherOrganisation(sim)
  const server = setupServer(...createHandlers(sim, { baseUrl: 'http://bodies.test/api/v1' }))
  beforeAll(() => server.listen({ onUnhandledRequest: 'bypass' }))
  afterAll(() => server.close())

  /** Sends a draw over HTTP to `base`: every answer is JSON and keeps the contract, the server's and MSW's alike. */
  async function exchange(base: string, d: Draw): Promise<string[]> {
    const request = requestOf(sim, d, other)
    const headers: Record<string, string> = {}
    if (request.authorization) headers['authorization'] = request.authorization
    if (request.headers?.['content-type'] !== undefined) headers['content-type'] = request.headers['content-type']
    const res = await fetch(`${base}${request.path}${request.query ? `?${String(request.query)}` : ''}`, {
      method: request.method,
      headers,
      ...(request.body !== undefined && request.body !== null && { body: request.body as BodyInit }),
    })
    const text = await res.text()
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch {
      return [`${request.method} ${request.path}: ${res.status} with a body that is not JSON: ${text.slice(0, 100)}`]
    }
    const response = { status: res.status, headers: { 'content-type': res.headers.get('content-type') ?? '' }, type: 'json', body: parsed } as SimResponse
    return problemsOf(response, request.path).map((p) => `${request.method} ${request.path}: ${p}`)
  }

  it('keeps the contract over MSW and over a real socket', async () => {
    const served = await startServer(sim, { port: 0 })
    try {
      const draws = fc.sample(draw, { seed, numRuns: runs(150) })
      const problems: string[] = []
      for (const d of draws) {
        problems.push(...(await exchange('http://bodies.test/api/v1', d)))
        problems.push(...(await exchange(served.url, d)))
      }
      expect(problems).toEqual([])
    } finally {
      await served.close()
    }
  })
})
