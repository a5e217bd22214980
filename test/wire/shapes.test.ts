// The wire description of src/core/wire-shapes.ts against the simulator's own responses: every
// committed fixture, and everything `sim.handle` answers over generated worlds. The same description
// is what `checkService` holds a live service to, so a pass here means the simulator and the rules
// it checks others by agree. A field the schema declares but no response ever carries would be an
// untested promise: the coverage test at the end fails on any (generated worlds leave some rarer
// nulls and optional fields out; a hand-built world supplies them).
import { readFileSync, readdirSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { type Fixture, HAND_WRITTEN } from '../../fixtures/generate.js'
import { type SimRequest, type SimResponse, type Simulator, createSimulator } from '../../src/index.js'
import { generateWorld } from '../../src/fixtures/index.js'
import { type Shape, RESPONSE_SHAPES, errorEnvelopeProblems, fileContentProblems, validateShape } from '../../src/core/wire-shapes.js'
import { OPERATIONS, operationOf } from '../support/operations.js'

const FIXTURES_DIR = resolve(import.meta.dirname, '..', '..', 'fixtures')


/** Every body validated, with the shape it was held to: the coverage test walks them afterwards. */
const validated: { shape: Shape; body: unknown }[] = []

/** What is wrong with one response, by the schema: a 200's shape, a download's headers, an error's envelope. */
function problemsOf(path: string, status: number, header: (name: string) => string | null, body: unknown, byteLength: number): string[] {
  const operation = operationOf(path)
  if (status === 200 && operation === 'getFileContent') return fileContentProblems(status, header, byteLength)
  if (status === 200 && operation !== null && operation !== 'getFileContent') {
    validated.push({ shape: RESPONSE_SHAPES[operation], body })
    return validateShape(RESPONSE_SHAPES[operation], body)
  }
  return errorEnvelopeProblems(status, body)
}

function fixtureFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return fixtureFiles(path)
    // The catalog snapshot is the world's source, not an answer.
    return entry.name.endsWith('.json') && !HAND_WRITTEN.some((file) => path === join(FIXTURES_DIR, ...file.split('/'))) ? [path] : []
  })
}

describe('the committed fixtures fit the wire description', () => {
  const files = fixtureFiles(FIXTURES_DIR)

  it('finds fixtures of every operation, and error envelopes', () => {
    const fixtures = files.map((file) => JSON.parse(readFileSync(file, 'utf8')) as Fixture)
    const seen = new Set(fixtures.filter((f) => f.status === 200).map((f) => operationOf(f.request.path)))
    expect([...seen].sort()).toEqual(OPERATIONS.map(([name]) => name).sort())
    expect(fixtures.some((f) => f.status >= 400)).toBe(true)
  })

  it.each(files.map((file) => [relative(FIXTURES_DIR, file), file]))('%s', (_, file) => {
    expect(fixtureProblems(file)).toEqual([])
  })
})

function fixtureProblems(file: string): string[] {
  const fixture = JSON.parse(readFileSync(file, 'utf8')) as Fixture
  const headers = fixture.headers as Record<string, string>
  const body = fixture.body as unknown
  const bytes = typeof body === 'object' && body !== null && 'base64' in body ? Buffer.from(String((body as { base64: string }).base64), 'base64').byteLength : 0
  return problemsOf(fixture.request.path, fixture.status, (name) => headers[name] ?? null, body, bytes)
}

/** Sends a request through `sim.handle` and returns the problems the schema finds in the answer. */
function handled(sim: Simulator<unknown>, request: SimRequest): { response: SimResponse; problems: string[] } {
  const response = sim.handle(request)
  const header = (name: string): string | null => response.headers[name] ?? null
  if (response.type === 'bytes') return { response, problems: problemsOf(request.path, response.status, header, undefined, response.body.byteLength) }
  // What the wire carries: JSON text, read back.
  const body: unknown = JSON.parse(JSON.stringify(response.body))
  return { response, problems: problemsOf(request.path, response.status, header, body, 0) }
}

/** Every read of every operation a generated world answers, errors included, through `sim.handle`. */
function requestsOf(sim: ReturnType<typeof createSimulator>): SimRequest[] {
  const { world } = sim
  const management = `Bearer ${world.managementKey}`
  const regular = `Bearer ${world.apiKey}`
  const requests: SimRequest[] = []
  const get = (path: string, authorization: string | null, query = ''): void => void requests.push({ method: 'GET', path, query, authorization })
  for (const key of [management, `Bearer ${world.otherTenant.managementKey}`]) {
    get('/keys', key, 'include_disabled=true')
    get('/keys', key)
    for (const workspace of sim.workspaces.list()) get('/keys', key, `include_disabled=true&workspace_id=${workspace.id}`)
  }
  for (const key of sim.keys.list()) get(`/keys/${key.hash}`, management)
  for (const model of sim.models.list()) {
    const path = `/models/${model.id.split('/').map(encodeURIComponent).join('/')}/endpoints`
    get(path, regular)
    get(path, null)
  }
  for (const workspace of sim.workspaces.list()) {
    get(`/workspaces/${workspace.id}`, management)
    get(`/workspaces/${workspace.slug}`, management)
  }
  get('/videos/models', null)
  for (const file of sim.files.list()) {
    const query = new URLSearchParams({ workspace_id: file.workspaceId, ...(file.provider === null ? {} : { provider: file.provider }) }).toString()
    get(`/files/${file.id}/content`, management, query)
  }
  // The errors: no key, a regular key where a management one is needed, unknown ids, bad parameters.
  get('/keys', null)
  get('/keys', regular)
  get('/keys', 'Bearer sk-or-v1-unknown')
  get('/keys', management, 'offset=-1')
  get('/keys', management, 'offset=abc')
  get('/keys', management, 'include_disabled=yes')
  get(`/keys/${'0'.repeat(64)}`, management)
  get('/workspaces/00000000-0000-4000-8000-000000000000', management)
  get('/models/acme/nothing/endpoints', null)
  get('/files/file_nothing/content', management)
  get('/files/a.b/content', management)
  get('/chat/completions', management)
  return requests
}

const WORLDS: [string, Parameters<typeof generateWorld>[0]][] = [
  ['seed 1, small', { seed: 1, size: 'small' }],
  ['seed 7, small', { seed: 7, size: 'small' }],
  ['seed 2024, small', { seed: 2024, size: 'small' }],
  ['seed 3, default size', { seed: 3 }],
]

/** Every request of `requestsOf` through a generated world: the problems found, and the statuses answered. */
function generatedWorldProblems(options: Parameters<typeof generateWorld>[0]): { failures: string[]; statuses: number[] } {
  const sim = createSimulator({ world: generateWorld(options) })
  const statuses = new Set<number>()
  const failures: string[] = []
  for (const request of requestsOf(sim)) {
    const { response, problems } = handled(sim, request)
    statuses.add(response.status)
    for (const problem of problems) failures.push(`GET ${request.path}?${String(request.query)}: ${problem}`)
  }
  return { failures, statuses: [...statuses].sort() }
}

describe('sim.handle over generated worlds fits the wire description', () => {
  it.each(WORLDS)('%s', (_, options) => {
    const { failures, statuses } = generatedWorldProblems(options)
    expect(failures).toEqual([])
    // Both successes and each kind of error were answered, so both halves of the schema were used.
    expect(statuses).toEqual([200, 400, 401, 403, 404])
  })
})

/**
 * Which fields of the schema the validated bodies carried, and whether a nullable one was seen both
 * null and not: `Endpoint.status` present, `ApiKey.limit` null and non-null.
 */
function coverage(): { declared: Set<string>; seen: Set<string> } {
  const declared = new Set<string>()
  const seen = new Set<string>()
  const walk = (shape: Shape, value: unknown): void => {
    if (shape.kind === 'nullable') {
      if (value !== null) walk(shape.of, value)
      return
    }
    if (shape.kind === 'array' && Array.isArray(value)) for (const item of value) walk(shape.of, item)
    if (shape.kind === 'record' && typeof value === 'object' && value !== null) for (const item of Object.values(value)) walk(shape.of, item)
    if (shape.kind !== 'object' || typeof value !== 'object' || value === null) return
    const record = value as Record<string, unknown>
    for (const [name, field] of Object.entries(shape.fields)) {
      const inner = field.kind === 'optional' ? field.of : field
      const label = `${shape.name}.${name}`
      if (field.kind === 'optional') declared.add(`${label} present`)
      if (inner.kind === 'nullable') declared.add(`${label} null`).add(`${label} not null`)
      if (!Object.hasOwn(record, name)) continue
      seen.add(`${label} present`)
      seen.add(`${label} ${record[name] === null ? 'null' : 'not null'}`)
      walk(inner, record[name])
    }
  }
  for (const { shape, body } of validated) walk(shape, body)
  return { declared, seen }
}

/** What no generated world holds: the rarer nulls and optional fields, each built through the API. */
function handBuiltWorldProblems(): string[] {
  const sim = createSimulator({ world: 'empty' })
  const org = sim.users.create({ name: 'Edge Co' })
  const admin = sim.keys.create({ userId: org.id, management: true })
  const regular = sim.keys.create({ userId: org.id, name: 'nobody made me', creatorUserId: null, externalUser: 'partner-user-1', expiresAt: '2027-01-01T00:00:00Z' })
  const workspace = sim.workspaces.create({ userId: org.id, name: 'Edges', slug: 'edges', createdBy: null, ioLoggingApiKeyIds: [1, 2], updatedAt: '2026-03-01T00:00:00Z' })
  sim.models.create({
    id: 'acme/edge-1',
    // The real catalog of the default world has no instruct type, prompt cap or these prices: they are here.
    architecture: { tokenizer: null, modality: null, instruct_type: 'chatml' },
    endpoints: [
      {
        provider_name: 'Together',
        supports_voice_cloning: true,
        max_prompt_tokens: 100000,
        pricing: {
          prompt: '0.000001',
          completion: '0.000002',
          request: '0',
          image: '0.001',
          web_search: '0.01',
          audio: '0.000002',
          audio_output: '0.00001',
          image_output: '0.00002',
          image_token: '0.00003',
          input_audio_cache: '0.0000001',
          input_cache_write_1h: '0.000002',
          discount: 0,
          overrides: [{ input_audio_cache: '0.00000005', audio: '0.000001', input_cache_write_1h: '0.000001', utc_days: ['saturday', 'sunday'] }],
        },
        perf_last_30m_by_workload: { text_generation: { latency: null, throughput: null, request_count: null } },
      },
    ],
  })
  sim.videoModels.create({ id: 'acme/clip-1', creativity: [1, 2], hugging_face_id: null, pricing_skus: null, supported_resolutions: null, upscale_factor: { min: 1, max: null } })
  sim.videoModels.create({ id: 'acme/clip-2', upscale_factor: { min: null, max: 4 }, supported_durations: null, supported_frame_images: null })
  const management = `Bearer ${admin.key}`
  const failures: string[] = []
  for (const [path, authorization] of [
    [`/keys/${regular.record.hash}`, management],
    [`/workspaces/${workspace.id}`, management],
    ['/models/acme/edge-1/endpoints', `Bearer ${regular.key}`],
    ['/videos/models', null],
    ['/key', `Bearer ${regular.key}`],
  ] as const) {
    const { response, problems } = handled(sim, { method: 'GET', path, authorization })
    if (response.status !== 200) failures.push(`${path}: status ${response.status}`)
    failures.push(...problems.map((problem) => `${path}: ${problem}`))
  }
  return failures
}

describe('sim.handle over a hand-built world fits the wire description', () => {
  it('answers every rarer field in the shape the schema declares', () => {
    expect(handBuiltWorldProblems()).toEqual([])
  })
})

describe('coverage of the wire description', () => {
  it('sees every optional field present and every nullable field both null and not', () => {
    // Every source again, so that this test stands alone (filtered or shuffled).
    validated.length = 0
    for (const file of fixtureFiles(FIXTURES_DIR)) fixtureProblems(file)
    for (const [, options] of WORLDS) generatedWorldProblems(options)
    handBuiltWorldProblems()
    expect(validated.length).toBeGreaterThan(100)
    const { declared, seen } = coverage()
    const unexercised = [...declared].filter((item) => !seen.has(item)).sort()
    expect(unexercised).toEqual([])
  })
})
