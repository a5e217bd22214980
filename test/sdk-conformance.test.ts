// Conformance with the official client: every success the simulator produces must parse through
// `@openrouter/sdk`, and every error status the SDK declares for an operation must arrive as that
// operation's typed error class, built from the simulator's own envelope.
import { OpenRouter } from '@openrouter/sdk'
import {
  BadGatewayResponseError,
  BadRequestResponseError,
  ConflictResponseError,
  RequestTimeoutResponseError,
  ForbiddenResponseError,
  InternalServerResponseError,
  NotFoundResponseError,
  OAuthErrorResponse,
  OpenRouterDefaultError,
  OpenRouterError,
  PaymentRequiredResponseError,
  ServiceUnavailableResponseError,
  TooManyRequestsResponseError,
  UnauthorizedResponseError,
} from '@openrouter/sdk/models/errors'
import { unrecognized } from '@openrouter/sdk/types'
import { http } from 'msw'
import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  AUTH_MESSAGES,
  ERROR_MESSAGES,
  createSimulator,
  errorEnvelope,
  maskSecret,
  MODEL_CATEGORIES,
  OUTPUT_MODALITIES,
  SUPPORTED_PARAMETERS,
  type ApiKey,
  type ErrorStatus,
  type ModelWithEndpoints,
  type OperationName,
  type WorkloadPerformance,
} from '../src/index.js'
import { creditsMessage } from '../src/core/inference/ledger.js'
import { PRESET_SLUG_RULE } from '../src/core/store/presets.js'
import { DEFAULT_BASE_URL, createHandlers, toResponse } from '../src/msw/index.js'
import { failureOf } from './support/server.js'

const sim = createSimulator()
const server = setupServer(...createHandlers(sim))
const world = sim.world

beforeAll(() => {
  // The SDK falls back to OPENROUTER_API_KEY when no apiKey is given; anonymous calls must stay anonymous.
  vi.stubEnv('OPENROUTER_API_KEY', undefined)
  vi.stubEnv('OPENROUTER_BASE_URL', undefined)
  server.listen({ onUnhandledRequest: 'error' })
})
beforeEach(() => sim.reset())
afterEach(() => server.resetHandlers())
afterAll(() => {
  server.close()
  vi.unstubAllEnvs()
})

/** An SDK client against the simulator; no secret means no Authorization header at all. */
function client(secret?: string): OpenRouter {
  return new OpenRouter({
    serverURL: DEFAULT_BASE_URL,
    retryConfig: { strategy: 'none' },
    ...(secret === undefined ? {} : { apiKey: secret }),
  })
}

const management = (): OpenRouter => client(world.managementKey)

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer())
}


/** The wire's snake_case keys as the SDK hands them back (`input_cache_write_1h` -> `inputCacheWrite1h`). */
function camelCase(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camelCase)
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()),
      // SKU names are data, not field names: the SDK keeps them verbatim.
      key === 'pricing_skus' ? structuredClone(inner) : camelCase(inner),
    ]),
  )
}

/** What the SDK returns for a key record: camelCase, and `expires_at` parsed into a Date. */
function expectedKey(key: ApiKey): unknown {
  return { ...(camelCase(key) as object), expiresAt: key.expires_at === null ? null : new Date(key.expires_at) }
}

const acmeWorkspaceIds = new Set(Object.values(world.workspaces))
const managementLabels = new Set([maskSecret(world.managementKey), maskSecret(world.otherTenant.managementKey)])

/** GET /keys as DESIGN.md section 3 defines it, computed from the store: newest first, then hash ascending. */
function listedKeys(workspaceId: string, includeDisabled: boolean): ApiKey[] {
  return sim.keys
    .list()
    .filter((key) => key.workspace_id === workspaceId && !managementLabels.has(key.label) && (includeDisabled || !key.disabled))
    .sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at) || (a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : 0))
}

/** Workload classes the SDK's `perf_last_30m_by_workload` schema knows; it strips any other key. */
const SDK_WORKLOADS = ['decisions', 'embeddings', 'image_generation', 'rerank', 'stt', 'text_generation', 'tts', 'unknown', 'video_generation']

function expectedModel(model: ModelWithEndpoints, anonymous: boolean): unknown {
  return {
    ...(camelCase({ ...model, endpoints: [] }) as object),
    endpoints: model.endpoints.map(({ perf_last_30m_by_workload: perf, ...endpoint }) => {
      const known: Record<string, WorkloadPerformance> = {}
      for (const [workload, figures] of Object.entries(perf ?? {})) if (SDK_WORKLOADS.includes(workload)) known[workload] = figures
      return {
        ...(camelCase(endpoint) as object),
        supportsVoiceCloning: endpoint.supports_voice_cloning ?? false,
        ...(anonymous
          ? { latencyLast30m: null, throughputLast30m: null }
          : perf === undefined
            ? {}
            : { perfLast30mByWorkload: camelCase(known) }),
      }
    }),
  }
}

function splitModelId(id: string): { author: string; slug: string } {
  const slash = id.indexOf('/')
  return { author: id.slice(0, slash), slug: id.slice(slash + 1) }
}

const MODEL_IDS = sim.models.list().map((model) => model.id)
const ACME_KEYS = sim.keys.list().filter((key) => key.creator_user_id === world.userId)
const GLOBEX_KEY = sim.keys.list().find((key) => key.creator_user_id === world.otherTenant.userId && !managementLabels.has(key.label))
const GLOBEX_FILE = sim.files.list().find((file) => file.userId === world.otherTenant.userId)
const DOWNLOADABLE_FILES = sim.files.list().filter((file) => file.userId === world.userId && file.origin === 'server')
const WORKSPACE_SLUGS = Object.keys(world.workspaces) as (keyof typeof world.workspaces)[]
/** Every key of the production workspace, management keys and disabled ones included: each blocks its deletion. */
const KEYS_IN_PRODUCTION = sim.keys.list().filter((key) => key.workspace_id === world.workspaces.production).length

describe('successful answers parse through the SDK', () => {
  describe('sdk.apiKeys.list', () => {
    it('lists the enabled keys of the default workspace, newest first, when no parameter is given', async () => {
      const { data } = await management().apiKeys.list()

      const expected = listedKeys(world.workspaces.default, false)
      expect(expected.length).toBeGreaterThan(0)
      expect(data.map((key) => key.hash)).toEqual(expected.map((key) => key.hash))
      expect(data).toEqual(expected.map(expectedKey))
      expect(data.every((key) => !key.disabled)).toBe(true)
    })

    it('includes disabled keys when includeDisabled is true and leaves them out when it is false', async () => {
      const sdk = management()
      const withDisabled = await sdk.apiKeys.list({ includeDisabled: true })
      const withoutDisabled = await sdk.apiKeys.list({ includeDisabled: false })

      const all = listedKeys(world.workspaces.default, true)
      expect(all.some((key) => key.disabled)).toBe(true)
      expect(withDisabled.data).toEqual(all.map(expectedKey))
      expect(withoutDisabled.data).toEqual(listedKeys(world.workspaces.default, false).map(expectedKey))
    })

    it('skips the first records when an offset is given', async () => {
      const { data } = await management().apiKeys.list({ offset: 3 })

      expect(data.map((key) => key.hash)).toEqual(listedKeys(world.workspaces.default, false).slice(3).map((key) => key.hash))
    })

    it.each(WORKSPACE_SLUGS)('lists the keys of the %s workspace when its workspaceId is given', async (slug) => {
      const workspaceId = world.workspaces[slug]
      const { data } = await management().apiKeys.list({ workspaceId })

      expect(data).toEqual(listedKeys(workspaceId, false).map(expectedKey))
      expect(data.every((key) => key.workspaceId === workspaceId)).toBe(true)
    })

    it('combines includeDisabled, offset and workspaceId', async () => {
      const workspaceId = world.workspaces.production
      sim.keys.create({ userId: world.userId, workspaceId, name: 'Disabled in production', disabled: true, createdAt: '2025-01-01T00:00:00Z' })
      const { data } = await management().apiKeys.list({ includeDisabled: true, offset: 1, workspaceId })

      const expected = listedKeys(workspaceId, true).slice(1)
      expect(expected.some((key) => key.disabled)).toBe(true)
      expect(data).toEqual(expected.map(expectedKey))
    })

    it('pages 100 keys at a time and lists the next keys after offset 100', async () => {
      for (let i = 0; i < 130; i++) sim.keys.create({ userId: world.userId, workspaceId: world.workspaces.staging, name: `Bulk ${i}` })
      const sdk = management()

      const first = await sdk.apiKeys.list({ workspaceId: world.workspaces.staging })
      const second = await sdk.apiKeys.list({ workspaceId: world.workspaces.staging, offset: 100 })

      const expected = listedKeys(world.workspaces.staging, false)
      expect(expected.length).toBeGreaterThan(130)
      expect(first.data.map((key) => key.hash)).toEqual(expected.slice(0, 100).map((key) => key.hash))
      expect(second.data.map((key) => key.hash)).toEqual(expected.slice(100, 200).map((key) => key.hash))
    })

    it('never lists a management key', async () => {
      const sdk = management()
      for (const workspaceId of acmeWorkspaceIds) {
        const { data } = await sdk.apiKeys.list({ workspaceId, includeDisabled: true })
        expect(data.some((key) => managementLabels.has(key.label))).toBe(false)
      }
    })
  })

  describe('sdk.apiKeys.get', () => {
    it('reads the documented regular key by its hash', async () => {
      const { data } = await management().apiKeys.get({ hash: world.apiKeyHash })

      expect(data.hash).toBe(world.apiKeyHash)
      expect(data.name).toBe('Production backend')
      expect(data).toEqual(expectedKey(sim.keys.get(world.apiKeyHash) as ApiKey))
    })

    it.each(ACME_KEYS.map((key) => [key.name, key] as const))('reads the key "%s", in whatever workspace and state, by its hash', async (_, key) => {
      const { data } = await management().apiKeys.get({ hash: key.hash })

      expect(data).toEqual(expectedKey(key))
    })

    it('parses a future expires_at into a Date', async () => {
      const key = ACME_KEYS.find((k) => k.expires_at !== null && Date.parse(k.expires_at) > sim.clock.nowMs())
      expect(key).toBeDefined()
      const { data } = await management().apiKeys.get({ hash: (key as ApiKey).hash })

      expect(data.expiresAt).toBeInstanceOf(Date)
      expect(data.expiresAt?.getTime()).toBe(Date.parse((key as ApiKey).expires_at as string))
    })
  })

  describe('sdk.endpoints.list', () => {
    it.each(MODEL_IDS)('lists the endpoints of %s to an anonymous caller, without performance figures', async (id) => {
      const { data } = await client().endpoints.list(splitModelId(id))

      const model = sim.models.get(id) as ModelWithEndpoints
      expect(data.id).toBe(id)
      expect(data.endpoints).toHaveLength(model.endpoints.length)
      for (const endpoint of data.endpoints) {
        expect(endpoint.latencyLast30m).toBeNull()
        expect(endpoint.throughputLast30m).toBeNull()
        expect(endpoint.perfLast30mByWorkload).toBeUndefined()
      }
      expect(data).toEqual(expectedModel(model, true))
    })

    it.each(MODEL_IDS)('lists the endpoints of %s with latency and throughput to a caller with a regular key', async (id) => {
      const { data } = await client(world.apiKey).endpoints.list(splitModelId(id))

      const model = sim.models.get(id) as ModelWithEndpoints
      expect(data.endpoints.some((endpoint) => endpoint.latencyLast30m !== null)).toBe(true)
      expect(data.endpoints.some((endpoint) => endpoint.throughputLast30m !== null)).toBe(true)
      data.endpoints.forEach((endpoint, i) => {
        expect(endpoint.latencyLast30m).toEqual(model.endpoints[i]?.latency_last_30m)
        expect(endpoint.throughputLast30m).toEqual(model.endpoints[i]?.throughput_last_30m)
      })
      expect(data).toEqual(expectedModel(model, false))
    })

    it('shows performance figures to a management key too', async () => {
      const { data } = await management().endpoints.list({ author: 'anthropic', slug: 'claude-sonnet-4.5' })

      expect(data).toEqual(expectedModel(sim.models.get('anthropic/claude-sonnet-4.5') as ModelWithEndpoints, false))
      expect(data.endpoints[0]?.latencyLast30m).not.toBeNull()
    })

    it('sends a :free variant percent-encoded and the simulator resolves it', async () => {
      const urls: string[] = []
      const record = ({ request }: { request: Request }): void => void urls.push(request.url)
      server.events.on('request:start', record)
      try {
        const { data } = await client().endpoints.list({ author: 'meta-llama', slug: 'llama-3.3-70b-instruct:free' })

        expect(data.id).toBe('meta-llama/llama-3.3-70b-instruct:free')
        expect(urls).toEqual([`${DEFAULT_BASE_URL}/models/meta-llama/llama-3.3-70b-instruct%3Afree/endpoints`])
      } finally {
        server.events.removeListener('request:start', record)
      }
    })
  })

  describe('sdk.files.download', () => {
    it.each(DOWNLOADABLE_FILES.map((file) => [file.id, file.provider ?? 'own storage', file] as const))(
      'downloads the exact bytes of %s (%s) in its scope',
      async (_, __, file) => {
        const stream = await management().files.download({
          fileId: file.id,
          ...(file.workspaceId === world.workspaces.default ? {} : { workspaceId: file.workspaceId }),
          ...(file.provider === null ? {} : { provider: file.provider }),
        })

        const bytes = await readAll(stream)
        expect(bytes).toEqual(file.bytes)
        expect(bytes.byteLength).toBe(file.size)
      },
    )

    it('downloads from the default workspace when its workspaceId is given explicitly', async () => {
      const report = DOWNLOADABLE_FILES.find((file) => file.id === world.files.report)
      const stream = await management().files.download({ fileId: world.files.report, workspaceId: world.workspaces.default })

      expect(await readAll(stream)).toEqual(report?.bytes)
    })

    it('keeps non-UTF-8 bytes intact', async () => {
      const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0xff, 0x00, 0x80])
      sim.files.create({ userId: world.userId, id: 'file_thumbnail_png', provider: 'anthropic', origin: 'server', bytes: png })
      const stream = await management().files.download({ fileId: 'file_thumbnail_png', provider: 'anthropic' })

      const bytes = await readAll(stream)
      expect(Array.from(bytes)).toEqual(Array.from(png))
      expect(bytes.at(-2)).toBe(0x00)
      expect(bytes.at(-3)).toBe(0xff)
    })
  })

  describe('sdk.workspaces.get', () => {
    it.each(WORKSPACE_SLUGS)('reads the %s workspace by its UUID', async (slug) => {
      const { data } = await management().workspaces.get({ id: world.workspaces[slug] })

      expect(data.id).toBe(world.workspaces[slug])
      expect(data.slug).toBe(slug)
      expect(data).toEqual(camelCase(sim.workspaces.get(world.workspaces[slug])))
    })

    it.each(WORKSPACE_SLUGS)('reads the %s workspace by its slug', async (slug) => {
      const { data } = await management().workspaces.get({ id: slug })

      expect(data.id).toBe(world.workspaces[slug])
      expect(data).toEqual(camelCase(sim.workspaces.get(world.workspaces[slug])))
    })

    it('reads a workspace by its UUID written in upper case', async () => {
      const { data } = await management().workspaces.get({ id: world.workspaces.research.toUpperCase() })

      expect(data.id).toBe(world.workspaces.research)
    })
  })

  describe('sdk.videoGeneration.listVideosModels', () => {
    it('lists every video model to an anonymous caller', async () => {
      const { data } = await client().videoGeneration.listVideosModels()

      const expected = sim.videoModels.list()
      expect(data).toHaveLength(expected.length)
      expect(data.map((model) => model.id)).toEqual(expected.map((model) => model.id))
      expect(data).toEqual(camelCase(expected))
    })

    it('lists the same video models to a caller with a key', async () => {
      const { data } = await client(world.apiKey).videoGeneration.listVideosModels()

      expect(data).toEqual(camelCase(sim.videoModels.list()))
    })
  })
})

type Sdk = OpenRouter
type ErrorClass = abstract new (...args: never[]) => OpenRouterError
type DeclaredStatus = Extract<ErrorStatus, 400 | 401 | 402 | 403 | 404 | 429 | 500 | 502 | 503> | 408 | 409

const ERROR_CLASSES: Record<DeclaredStatus, { type: ErrorClass; name: string }> = {
  400: { type: BadRequestResponseError, name: 'BadRequestResponseError' },
  401: { type: UnauthorizedResponseError, name: 'UnauthorizedResponseError' },
  402: { type: PaymentRequiredResponseError, name: 'PaymentRequiredResponseError' },
  403: { type: ForbiddenResponseError, name: 'ForbiddenResponseError' },
  404: { type: NotFoundResponseError, name: 'NotFoundResponseError' },
  408: { type: RequestTimeoutResponseError, name: 'RequestTimeoutResponseError' },
  409: { type: ConflictResponseError, name: 'ConflictResponseError' },
  429: { type: TooManyRequestsResponseError, name: 'TooManyRequestsResponseError' },
  500: { type: InternalServerResponseError, name: 'InternalServerResponseError' },
  502: { type: BadGatewayResponseError, name: 'BadGatewayResponseError' },
  503: { type: ServiceUnavailableResponseError, name: 'ServiceUnavailableResponseError' },
}

/**
 * The operations the SDK has a method for: `GET /auth/key` and `POST /completions` are older routes
 * it does not call (decisions/0039); their tests are in test/inference/legacy-routes.test.ts.
 * `POST /oauth/token` answers RFC 6749 errors, not the envelope: its statuses are tested on their own below.
 */
type SdkOperation = Exclude<OperationName, 'getCurrentKeyLegacy' | 'createCompletion' | 'createOauthToken'>

/** The statuses the SDK declares a typed error for, per operation (its funcs/*.js matchers). */
const DECLARED: Record<SdkOperation, readonly DeclaredStatus[]> = {
  listKeys: [400, 401, 429, 500],
  getKey: [401, 404, 429, 500],
  listEndpoints: [403, 404, 500],
  getFileContent: [400, 401, 403, 404, 429, 500, 502, 503],
  getWorkspace: [401, 404, 500],
  listVideoModels: [400, 500],
  listModels: [400, 403, 500],
  countModels: [400, 403, 500],
  getModel: [403, 404, 500],
  listProviders: [500],
  listEmbeddingsModels: [400, 500],
  listWorkspaces: [401, 500],
  createWorkspace: [400, 401, 403, 500],
  updateWorkspace: [400, 401, 403, 404, 500],
  deleteWorkspace: [400, 401, 403, 404, 500],
  createChatCompletion: [400, 401, 402, 403, 404, 429, 500, 502, 503],
  getGeneration: [401, 402, 404, 429, 500, 502],
  createResponses: [400, 401, 402, 403, 404, 429, 500, 502, 503],
  createKey: [400, 401, 403, 429, 500],
  updateKey: [400, 401, 404, 429, 500],
  deleteKey: [401, 404, 429, 500],
  getCurrentKey: [401, 500],
  getCredits: [401, 403, 500],
  createEmbeddings: [400, 401, 402, 403, 404, 429, 500, 502, 503],
  createAuthKeysCode: [400, 401, 403, 409, 500],
  exchangeAuthCodeForAPIKey: [400, 403, 500],
  listOauthJwks: [500],
  listPresets: [400, 401, 500],
  getPreset: [400, 401, 404, 500],
  listPresetVersions: [400, 401, 404, 500],
  getPresetVersion: [400, 401, 404, 500],
  // The SDK also declares 409 for the three routes that write a preset; the simulator never answers
  // it (a write to a slug the organisation has is its next version), and errorEnvelope has no 409.
  createPresetsChatCompletions: [400, 401, 403, 404, 500],
  createPresetsResponses: [400, 401, 403, 404, 500],
  createPresetsMessages: [400, 401, 403, 404, 500],
  listWorkspaceBudgets: [401, 404, 500],
  getWorkspaceBudget: [400, 401, 404, 500],
  upsertWorkspaceBudget: [400, 401, 404, 500],
  deleteWorkspaceBudget: [400, 401, 404, 500],
  listOrganizationMembers: [401, 404, 500],
  listWorkspaceMembers: [401, 403, 404, 500],
  bulkAddWorkspaceMembers: [400, 401, 403, 404, 500],
  bulkRemoveWorkspaceMembers: [400, 401, 403, 404, 500],
  listGuardrails: [400, 401, 500],
  createGuardrail: [400, 401, 403, 500],
  getGuardrail: [401, 404, 500],
  updateGuardrail: [400, 401, 403, 404, 409, 500],
  deleteGuardrail: [401, 404, 500],
  listKeyAssignments: [401, 500],
  listMemberAssignments: [401, 500],
  listGuardrailKeyAssignments: [401, 404, 500],
  listGuardrailMemberAssignments: [401, 404, 500],
  bulkAssignKeysToGuardrail: [400, 401, 403, 404, 500],
  bulkUnassignKeysFromGuardrail: [400, 401, 404, 500],
  bulkAssignMembersToGuardrail: [400, 401, 404, 500],
  bulkUnassignMembersFromGuardrail: [400, 401, 404, 500],
  getUserActivity: [400, 401, 403, 404, 500],
  getAnalyticsMeta: [401, 403, 500],
  queryAnalytics: [400, 401, 403, 408, 500],
  // 524 and 529 are declared too, as for getGeneration: edge and provider statuses no rule of the simulator answers here.
  listGenerationContent: [401, 403, 404, 429, 500, 502],
  submitGenerationFeedback: [400, 401, 404, 429, 500],
  listModelsUser: [401, 403, 404, 500],
  listEndpointsZdr: [403, 500],
  createBYOKKey: [400, 401, 403, 500],
  listBYOKKeys: [400, 401, 500],
  getBYOKKey: [401, 404, 500],
  updateBYOKKey: [400, 401, 403, 404, 500],
  deleteBYOKKey: [401, 404, 500],
}

const SDK_METHOD: Record<SdkOperation, string> = {
  listKeys: 'sdk.apiKeys.list',
  getKey: 'sdk.apiKeys.get',
  listEndpoints: 'sdk.endpoints.list',
  getFileContent: 'sdk.files.download',
  getWorkspace: 'sdk.workspaces.get',
  listVideoModels: 'sdk.videoGeneration.listVideosModels',
  listModels: 'sdk.models.list',
  countModels: 'sdk.models.count',
  getModel: 'sdk.models.get',
  listProviders: 'sdk.providers.list',
  listEmbeddingsModels: 'sdk.embeddings.listModels',
  listWorkspaces: 'sdk.workspaces.list',
  createWorkspace: 'sdk.workspaces.create',
  updateWorkspace: 'sdk.workspaces.update',
  deleteWorkspace: 'sdk.workspaces.delete',
  createChatCompletion: 'sdk.chat.send',
  getGeneration: 'sdk.generations.getGeneration',
  createResponses: 'sdk.responses.send',
  createKey: 'sdk.apiKeys.create',
  updateKey: 'sdk.apiKeys.update',
  deleteKey: 'sdk.apiKeys.delete',
  getCurrentKey: 'sdk.apiKeys.getCurrentKeyMetadata',
  getCredits: 'sdk.credits.getCredits',
  createEmbeddings: 'sdk.embeddings.generate',
  createAuthKeysCode: 'sdk.oAuth.createAuthCode',
  exchangeAuthCodeForAPIKey: 'sdk.oAuth.exchangeAuthCodeForAPIKey',
  listOauthJwks: 'sdk.oAuth.listOauthJwks',
  listPresets: 'sdk.presets.list',
  getPreset: 'sdk.presets.get',
  listPresetVersions: 'sdk.presets.listVersions',
  getPresetVersion: 'sdk.presets.getVersion',
  createPresetsChatCompletions: 'sdk.presets.createPresetsChatCompletions',
  createPresetsResponses: 'sdk.presets.createPresetsResponses',
  createPresetsMessages: 'sdk.presets.createPresetsMessages',
  listWorkspaceBudgets: 'sdk.workspaces.listBudgets',
  getWorkspaceBudget: 'sdk.workspaces.getBudget',
  upsertWorkspaceBudget: 'sdk.workspaces.setBudget',
  deleteWorkspaceBudget: 'sdk.workspaces.deleteBudget',
  listOrganizationMembers: 'sdk.organization.listMembers',
  listWorkspaceMembers: 'sdk.workspaces.listMembers',
  bulkAddWorkspaceMembers: 'sdk.workspaces.bulkAddMembers',
  bulkRemoveWorkspaceMembers: 'sdk.workspaces.bulkRemoveMembers',
  listGuardrails: 'sdk.guardrails.list',
  createGuardrail: 'sdk.guardrails.create',
  getGuardrail: 'sdk.guardrails.get',
  updateGuardrail: 'sdk.guardrails.update',
  deleteGuardrail: 'sdk.guardrails.delete',
  listKeyAssignments: 'sdk.guardrails.listKeyAssignments',
  listMemberAssignments: 'sdk.guardrails.listMemberAssignments',
  listGuardrailKeyAssignments: 'sdk.guardrails.listGuardrailKeyAssignments',
  listGuardrailMemberAssignments: 'sdk.guardrails.listGuardrailMemberAssignments',
  bulkAssignKeysToGuardrail: 'sdk.guardrails.bulkAssignKeys',
  bulkUnassignKeysFromGuardrail: 'sdk.guardrails.bulkUnassignKeys',
  bulkAssignMembersToGuardrail: 'sdk.guardrails.bulkAssignMembers',
  bulkUnassignMembersFromGuardrail: 'sdk.guardrails.bulkUnassignMembers',
  getUserActivity: 'sdk.analytics.getUserActivity',
  getAnalyticsMeta: 'sdk.analytics.getAnalyticsMeta',
  queryAnalytics: 'sdk.analytics.queryAnalytics',
  listGenerationContent: 'sdk.generations.listGenerationContent',
  submitGenerationFeedback: 'sdk.generations.submitFeedback',
  listModelsUser: 'sdk.models.listForUser',
  listEndpointsZdr: 'sdk.endpoints.listZdrEndpoints',
  createBYOKKey: 'sdk.byok.create',
  listBYOKKeys: 'sdk.byok.list',
  getBYOKKey: 'sdk.byok.get',
  updateBYOKKey: 'sdk.byok.update',
  deleteBYOKKey: 'sdk.byok.delete',
}

/** MSW path patterns of each operation, for one-off overrides. */
const ROUTE: Record<SdkOperation, string> = {
  listKeys: `${DEFAULT_BASE_URL}/keys`,
  getKey: `${DEFAULT_BASE_URL}/keys/:hash`,
  listEndpoints: `${DEFAULT_BASE_URL}/models/:author/:slug/endpoints`,
  getFileContent: `${DEFAULT_BASE_URL}/files/:fileId/content`,
  getWorkspace: `${DEFAULT_BASE_URL}/workspaces/:id`,
  listVideoModels: `${DEFAULT_BASE_URL}/videos/models`,
  listModels: `${DEFAULT_BASE_URL}/models`,
  countModels: `${DEFAULT_BASE_URL}/models/count`,
  getModel: `${DEFAULT_BASE_URL}/model/:author/:slug`,
  listProviders: `${DEFAULT_BASE_URL}/providers`,
  listEmbeddingsModels: `${DEFAULT_BASE_URL}/embeddings/models`,
  listWorkspaces: `${DEFAULT_BASE_URL}/workspaces`,
  createWorkspace: `${DEFAULT_BASE_URL}/workspaces`,
  updateWorkspace: `${DEFAULT_BASE_URL}/workspaces/:id`,
  deleteWorkspace: `${DEFAULT_BASE_URL}/workspaces/:id`,
  createChatCompletion: `${DEFAULT_BASE_URL}/chat/completions`,
  getGeneration: `${DEFAULT_BASE_URL}/generation`,
  createResponses: `${DEFAULT_BASE_URL}/responses`,
  createKey: `${DEFAULT_BASE_URL}/keys`,
  updateKey: `${DEFAULT_BASE_URL}/keys/:hash`,
  deleteKey: `${DEFAULT_BASE_URL}/keys/:hash`,
  getCurrentKey: `${DEFAULT_BASE_URL}/key`,
  getCredits: `${DEFAULT_BASE_URL}/credits`,
  createEmbeddings: `${DEFAULT_BASE_URL}/embeddings`,
  createAuthKeysCode: `${DEFAULT_BASE_URL}/auth/keys/code`,
  exchangeAuthCodeForAPIKey: `${DEFAULT_BASE_URL}/auth/keys`,
  listOauthJwks: `${DEFAULT_BASE_URL}/oauth/jwks`,
  listPresets: `${DEFAULT_BASE_URL}/presets`,
  getPreset: `${DEFAULT_BASE_URL}/presets/:slug`,
  listPresetVersions: `${DEFAULT_BASE_URL}/presets/:slug/versions`,
  getPresetVersion: `${DEFAULT_BASE_URL}/presets/:slug/versions/:version`,
  createPresetsChatCompletions: `${DEFAULT_BASE_URL}/presets/:slug/chat/completions`,
  createPresetsResponses: `${DEFAULT_BASE_URL}/presets/:slug/responses`,
  createPresetsMessages: `${DEFAULT_BASE_URL}/presets/:slug/messages`,
  listWorkspaceBudgets: `${DEFAULT_BASE_URL}/workspaces/:workspace_ref/budgets`,
  getWorkspaceBudget: `${DEFAULT_BASE_URL}/workspaces/:workspace_ref/budgets/:interval`,
  upsertWorkspaceBudget: `${DEFAULT_BASE_URL}/workspaces/:workspace_ref/budgets/:interval`,
  deleteWorkspaceBudget: `${DEFAULT_BASE_URL}/workspaces/:workspace_ref/budgets/:interval`,
  listOrganizationMembers: `${DEFAULT_BASE_URL}/organization/members`,
  listWorkspaceMembers: `${DEFAULT_BASE_URL}/workspaces/:id/members`,
  bulkAddWorkspaceMembers: `${DEFAULT_BASE_URL}/workspaces/:id/members/add`,
  bulkRemoveWorkspaceMembers: `${DEFAULT_BASE_URL}/workspaces/:id/members/remove`,
  listGuardrails: `${DEFAULT_BASE_URL}/guardrails`,
  createGuardrail: `${DEFAULT_BASE_URL}/guardrails`,
  getGuardrail: `${DEFAULT_BASE_URL}/guardrails/:id`,
  updateGuardrail: `${DEFAULT_BASE_URL}/guardrails/:id`,
  deleteGuardrail: `${DEFAULT_BASE_URL}/guardrails/:id`,
  listKeyAssignments: `${DEFAULT_BASE_URL}/guardrails/assignments/keys`,
  listMemberAssignments: `${DEFAULT_BASE_URL}/guardrails/assignments/members`,
  listGuardrailKeyAssignments: `${DEFAULT_BASE_URL}/guardrails/:id/assignments/keys`,
  listGuardrailMemberAssignments: `${DEFAULT_BASE_URL}/guardrails/:id/assignments/members`,
  bulkAssignKeysToGuardrail: `${DEFAULT_BASE_URL}/guardrails/:id/assignments/keys`,
  bulkUnassignKeysFromGuardrail: `${DEFAULT_BASE_URL}/guardrails/:id/assignments/keys/remove`,
  bulkAssignMembersToGuardrail: `${DEFAULT_BASE_URL}/guardrails/:id/assignments/members`,
  bulkUnassignMembersFromGuardrail: `${DEFAULT_BASE_URL}/guardrails/:id/assignments/members/remove`,
  getUserActivity: `${DEFAULT_BASE_URL}/activity`,
  getAnalyticsMeta: `${DEFAULT_BASE_URL}/analytics/meta`,
  queryAnalytics: `${DEFAULT_BASE_URL}/analytics/query`,
  listGenerationContent: `${DEFAULT_BASE_URL}/generation/content`,
  submitGenerationFeedback: `${DEFAULT_BASE_URL}/generation/feedback`,
  listModelsUser: `${DEFAULT_BASE_URL}/models/user`,
  listEndpointsZdr: `${DEFAULT_BASE_URL}/endpoints/zdr`,
  createBYOKKey: `${DEFAULT_BASE_URL}/byok`,
  listBYOKKeys: `${DEFAULT_BASE_URL}/byok`,
  getBYOKKey: `${DEFAULT_BASE_URL}/byok/:id`,
  updateBYOKKey: `${DEFAULT_BASE_URL}/byok/:id`,
  deleteBYOKKey: `${DEFAULT_BASE_URL}/byok/:id`,
}

/** One valid request per operation, made with the management key, for the overridden statuses. */
const VALID_CALL: Record<SdkOperation, (sdk: Sdk) => Promise<unknown>> = {
  listKeys: (sdk) => sdk.apiKeys.list(),
  getKey: (sdk) => sdk.apiKeys.get({ hash: world.apiKeyHash }),
  listEndpoints: (sdk) => sdk.endpoints.list({ author: 'anthropic', slug: 'claude-sonnet-4.5' }),
  getFileContent: (sdk) => sdk.files.download({ fileId: world.files.report }),
  getWorkspace: (sdk) => sdk.workspaces.get({ id: world.workspaces.production }),
  listVideoModels: (sdk) => sdk.videoGeneration.listVideosModels(),
  listModels: (sdk) => sdk.models.list(),
  countModels: (sdk) => sdk.models.count(),
  getModel: (sdk) => sdk.models.get({ author: 'anthropic', slug: 'claude-sonnet-4.5' }),
  listProviders: (sdk) => sdk.providers.list(),
  listEmbeddingsModels: (sdk) => sdk.embeddings.listModels(),
  listWorkspaces: (sdk) => sdk.workspaces.list(),
  createWorkspace: (sdk) => sdk.workspaces.create({ createWorkspaceRequest: { name: 'Lab', slug: 'lab' } }),
  updateWorkspace: (sdk) => sdk.workspaces.update({ id: world.workspaces.staging, updateWorkspaceRequest: { name: 'Staging 2' } }),
  deleteWorkspace: (sdk) => sdk.workspaces.delete({ id: 'empty-workspace' }),
  createChatCompletion: (sdk) => sdk.chat.send({ chatRequest: { model: 'openai/gpt-4.1-mini', messages: [{ role: 'user', content: 'Hello' }] } }),
  getGeneration: (sdk) => sdk.generations.getGeneration({ id: 'gen-0-none' }),
  createResponses: (sdk) => sdk.responses.send({ responsesRequest: { model: 'openai/gpt-4.1-mini', input: 'Hello' } }),
  createKey: (sdk) => sdk.apiKeys.create({ requestBody: { name: 'Conformance' } }),
  updateKey: (sdk) => sdk.apiKeys.update({ hash: world.apiKeyHash, requestBody: { name: 'Renamed' } }),
  deleteKey: (sdk) => sdk.apiKeys.delete({ hash: world.apiKeyHash }),
  getCurrentKey: (sdk) => sdk.apiKeys.getCurrentKeyMetadata(),
  getCredits: (sdk) => sdk.credits.getCredits(),
  createEmbeddings: (sdk) => sdk.embeddings.generate({ requestBody: { model: world.models.embedding, input: 'Hello' } }),
  createAuthKeysCode: (sdk) => sdk.oAuth.createAuthCode({ requestBody: { callbackUrl: 'https://app.example.com/callback' } }),
  exchangeAuthCodeForAPIKey: (sdk) => sdk.oAuth.exchangeAuthCodeForAPIKey({ requestBody: { code: sim.oauth.codes.create({ userId: world.userId }).code } }),
  listOauthJwks: (sdk) => sdk.oAuth.listOauthJwks(),
  listPresets: (sdk) => sdk.presets.list(),
  getPreset: (sdk) => sdk.presets.get({ slug: 'support' }),
  listPresetVersions: (sdk) => sdk.presets.listVersions({ slug: 'support' }),
  getPresetVersion: (sdk) => sdk.presets.getVersion({ slug: 'support', version: '1' }),
  createPresetsChatCompletions: (sdk) => sdk.presets.createPresetsChatCompletions({ slug: 'support', chatRequest: { model: 'openai/gpt-4.1-mini', messages: [{ role: 'user', content: 'Hello' }] } }),
  createPresetsResponses: (sdk) => sdk.presets.createPresetsResponses({ slug: 'support', responsesRequest: { model: 'openai/gpt-4.1-mini', input: 'Hello' } } as Parameters<Sdk['presets']['createPresetsResponses']>[0]),
  createPresetsMessages: (sdk) => sdk.presets.createPresetsMessages({ slug: 'support', messagesRequest: { model: 'anthropic/claude-sonnet-4.5', maxTokens: 100, messages: [{ role: 'user', content: 'Hello' }] } }),
  listWorkspaceBudgets: (sdk) => sdk.workspaces.listBudgets({ workspaceRef: 'production' }),
  getWorkspaceBudget: (sdk) => sdk.workspaces.getBudget({ workspaceRef: 'production', interval: 'daily' }),
  upsertWorkspaceBudget: (sdk) => sdk.workspaces.setBudget({ workspaceRef: 'production', interval: 'daily', upsertWorkspaceBudgetRequest: { limitUsd: 5 } }),
  deleteWorkspaceBudget: (sdk) => sdk.workspaces.deleteBudget({ workspaceRef: 'production', interval: 'daily' }),
  listOrganizationMembers: (sdk) => sdk.organization.listMembers(),
  listWorkspaceMembers: (sdk) => sdk.workspaces.listMembers({ id: world.workspaces.production }),
  bulkAddWorkspaceMembers: (sdk) => sdk.workspaces.bulkAddMembers({ id: world.workspaces.production, bulkAddWorkspaceMembersRequest: { userIds: [world.userId] } }),
  bulkRemoveWorkspaceMembers: (sdk) => sdk.workspaces.bulkRemoveMembers({ id: world.workspaces.production, bulkRemoveWorkspaceMembersRequest: { userIds: [world.userId] } }),
  listGuardrails: (sdk) => sdk.guardrails.list(),
  createGuardrail: (sdk) => sdk.guardrails.create({ createGuardrailRequest: { name: 'Cheap' } }),
  getGuardrail: (sdk) => sdk.guardrails.get({ id: guardrailId() }),
  updateGuardrail: (sdk) => sdk.guardrails.update({ id: guardrailId(), updateGuardrailRequest: { name: 'Renamed' } }),
  deleteGuardrail: (sdk) => sdk.guardrails.delete({ id: guardrailId() }),
  listKeyAssignments: (sdk) => sdk.guardrails.listKeyAssignments(),
  listMemberAssignments: (sdk) => sdk.guardrails.listMemberAssignments(),
  listGuardrailKeyAssignments: (sdk) => sdk.guardrails.listGuardrailKeyAssignments({ id: guardrailId() }),
  listGuardrailMemberAssignments: (sdk) => sdk.guardrails.listGuardrailMemberAssignments({ id: guardrailId() }),
  bulkAssignKeysToGuardrail: (sdk) => sdk.guardrails.bulkAssignKeys({ id: guardrailId(), bulkAssignKeysRequest: { keyHashes: [ACME_KEYS.find((k) => !managementLabels.has(k.label))!.hash] } }),
  bulkUnassignKeysFromGuardrail: (sdk) => sdk.guardrails.bulkUnassignKeys({ id: guardrailId(), bulkUnassignKeysRequest: { keyHashes: [ACME_KEYS.find((k) => !managementLabels.has(k.label))!.hash] } }),
  bulkAssignMembersToGuardrail: (sdk) => sdk.guardrails.bulkAssignMembers({ id: guardrailId(), bulkAssignMembersRequest: { memberUserIds: [world.userId] } }),
  bulkUnassignMembersFromGuardrail: (sdk) => sdk.guardrails.bulkUnassignMembers({ id: guardrailId(), bulkUnassignMembersRequest: { memberUserIds: [world.userId] } }),
  getUserActivity: (sdk) => sdk.analytics.getUserActivity(),
  getAnalyticsMeta: (sdk) => sdk.analytics.getAnalyticsMeta(),
  queryAnalytics: (sdk) => sdk.analytics.queryAnalytics({ requestBody: { metrics: ['usage'] } }),
  listGenerationContent: (sdk) => sdk.generations.listGenerationContent({ id: 'gen-0-none' }),
  submitGenerationFeedback: (sdk) => sdk.generations.submitFeedback({ submitGenerationFeedbackRequest: { generationId: 'gen-0-none', category: 'other' } }),
  listModelsUser: (sdk) => sdk.models.listForUser({ bearer: world.apiKey }),
  listEndpointsZdr: (sdk) => sdk.endpoints.listZdrEndpoints(),
  createBYOKKey: (sdk) => sdk.byok.create({ createBYOKKeyRequest: { provider: 'openai', key: 'sk-proj-0123456789' } }),
  listBYOKKeys: (sdk) => sdk.byok.list(),
  getBYOKKey: (sdk) => sdk.byok.get({ id: NO_CREDENTIAL }),
  updateBYOKKey: (sdk) => sdk.byok.update({ id: NO_CREDENTIAL, updateBYOKKeyRequest: { isFallback: true } }),
  deleteBYOKKey: (sdk) => sdk.byok.delete({ id: NO_CREDENTIAL }),
}

const UNKNOWN_SECRET = `sk-or-v1-${'0'.repeat(64)}`

interface ErrorCase {
  name: string
  operation: SdkOperation
  status: DeclaredStatus
  /** The bearer secret to call with; undefined: no credentials. Runs after the reset, so it may create keys. */
  secret: () => string | undefined
  call: (sdk: Sdk) => Promise<unknown>
  /** Set when the simulator has no rule for this status yet: the answer comes from a one-off override. */
  overridden: boolean
  message: string
  metadata?: Record<string, unknown>
  /** Whether the envelope names the calling organisation in `user_id`. */
  identifiesCaller: boolean
  /** The calling organisation, when it is not the world's (asked after `secret()` made it). */
  caller?: () => string
}

/** The canonical message of a status, as errorEnvelope writes it ('Error' for one without, such as 409). */
const statusMessage = (status: DeclaredStatus): string => (ERROR_MESSAGES as Record<number, string>)[status] ?? 'Error'

/** A status the simulator produces by its own rules, through a real request. */
function produced(
  operation: SdkOperation,
  status: DeclaredStatus,
  when: string,
  secret: () => string | undefined,
  call: (sdk: Sdk) => Promise<unknown>,
  extra: { message?: string; metadata?: Record<string, unknown>; identifiesCaller?: boolean; caller?: () => string } = {},
): ErrorCase {
  return {
    name: `${SDK_METHOD[operation]} answers ${status} as ${ERROR_CLASSES[status].name} when ${when}`,
    operation,
    status,
    secret,
    call,
    overridden: false,
    message: extra.message ?? statusMessage(status),
    ...(extra.metadata === undefined ? {} : { metadata: extra.metadata }),
    identifiesCaller: extra.identifiesCaller ?? true,
    ...(extra.caller === undefined ? {} : { caller: extra.caller }),
  }
}

/** A status the simulator has no rule for: its own envelope builder, served by a one-off handler. */
function overridden(operation: SdkOperation, status: DeclaredStatus): ErrorCase {
  return {
    name: `${SDK_METHOD[operation]} surfaces a ${status} envelope from errorEnvelope as ${ERROR_CLASSES[status].name}`,
    operation,
    status,
    secret: () => world.managementKey,
    call: VALID_CALL[operation],
    overridden: true,
    message: statusMessage(status),
    identifiesCaller: false,
  }
}

/** A 400 about a request body's field: its message names the path and the reason after the service's wording (decisions/0036). */
const bodyField = (metadata: { parameter: string; reason: string; value?: string }) => ({ message: `${ERROR_MESSAGES[400]}: ${metadata.parameter} ${metadata.reason}`, metadata })

const asManagement = (): string => world.managementKey
const asRegular = (): string => world.apiKey
const anonymous = (): undefined => undefined
const withUnknownKey = (): string => UNKNOWN_SECRET
const withDisabledKey = (): string => sim.keys.create({ userId: world.userId, disabled: true }).key
const withExpiredKey = (): string => sim.keys.create({ userId: world.userId, expiresAt: sim.clock.nowMs() - 60_000 }).key
const notCaller = { identifiesCaller: false }

/** 401 for no credentials and for an unknown secret, on one management operation. */
function unauthorized(operation: SdkOperation, call: (sdk: Sdk) => Promise<unknown>): ErrorCase[] {
  return [
    produced(operation, 401, 'the SDK is constructed without an apiKey', anonymous, call, { message: AUTH_MESSAGES.missing, ...notCaller }),
    produced(operation, 401, 'the bearer secret matches no key', withUnknownKey, call, { message: AUTH_MESSAGES.unknown, metadata: { reason: 'unknown' }, ...notCaller }),
  ]
}

/** A new organisation has no credits (decisions/0021), so it can pay for nothing but free endpoints. */
let brokeUserId = ''
const withoutCredits = (): string => {
  brokeUserId = sim.users.create({ name: 'No credits' }).id
  return sim.keys.create({ userId: brokeUserId }).key
}
const broke = (): string => brokeUserId

/** The inference operations' cases: each status produced by a rule, a fault or a responder (decisions/0024). */
function INFERENCE_ERROR_CASES(): ErrorCase[] {
  const chat = (request: Record<string, unknown> = {}) => (sdk: Sdk) =>
    sdk.chat.send({ chatRequest: { model: 'openai/gpt-4.1-mini', messages: [{ role: 'user', content: 'Hello' }], ...request } })
  const generation = (id: string) => (sdk: Sdk) => sdk.generations.getGeneration({ id })
  const respond = (request: Record<string, unknown> = {}) => (sdk: Sdk) =>
    sdk.responses.send({ responsesRequest: { model: 'openai/gpt-4.1-mini', input: 'Hello', ...request } } as Parameters<Sdk['responses']['send']>[0])
  const withFault = (operation: SdkOperation, respond: { status: number; headers?: Record<string, string> }) => (): string => {
    sim.faults.add({ operation, respond })
    return world.apiKey
  }
  const spentKey = (): string => sim.keys.create({ userId: world.userId, limit: 1, usage: { total: 1 } }).key
  const failingProviders = (): string => {
    sim.inference.respond({ error: { status: 502 } })
    return world.apiKey
  }
  const globexGeneration = (): string => {
    const globex = sim.keys.create({ userId: world.otherTenant.userId }).key
    const res = sim.handle({ method: 'POST', path: '/chat/completions', authorization: `Bearer ${globex}`, body: JSON.stringify({ model: 'openai/gpt-4.1-mini', messages: [{ role: 'user', content: 'Hi' }] }) })
    return (res.body as { id: string }).id
  }
  return [
    produced('createChatCompletion', 400, 'the model is not in the catalog', asRegular, chat({ model: 'openai/gpt-does-not-exist' }), {
      message: 'openai/gpt-does-not-exist is not a valid model ID',
      metadata: { parameter: 'model', reason: 'is not a valid model ID', value: 'openai/gpt-does-not-exist' },
    }),
    produced('createChatCompletion', 400, 'temperature is out of range', asRegular, chat({ temperature: 3 }), bodyField({ parameter: 'temperature', reason: 'must be at most 2', value: '3' })),
    ...unauthorized('createChatCompletion', chat()),
    produced('createChatCompletion', 402, 'the organisation has no credits', withoutCredits, chat({ maxTokens: 100 }), {
      message: creditsMessage(100, 0),
      metadata: { provider_name: null },
      caller: broke,
    }),
    produced('createChatCompletion', 403, "the key's limit is used up", spentKey, chat(), {
      message: 'Key limit exceeded (total limit). Manage it using https://openrouter.ai/settings/keys',
    }),
    produced('createChatCompletion', 403, 'the key is a management key', asManagement, chat(), {
      message: 'Management keys cannot be used for inference requests; use a regular API key',
      metadata: { reason: 'management_key' },
    }),
    produced('createChatCompletion', 404, 'no endpoint is left by provider.only', asRegular, chat({ provider: { only: ['NoSuchProvider'] } }), {
      message: 'No endpoints found matching your provider preferences',
      metadata: { reason: 'no_endpoint_provider', model: 'openai/gpt-4.1-mini' },
    }),
    produced('createChatCompletion', 429, 'a fault answers 429', withFault('createChatCompletion', { status: 429, headers: { 'retry-after': '7' } }), chat()),
    produced('createChatCompletion', 500, 'a fault answers 500', withFault('createChatCompletion', { status: 500 }), chat()),
    produced('createChatCompletion', 502, 'every provider fails', failingProviders, chat()),
    produced('createChatCompletion', 503, 'a fault answers 503', withFault('createChatCompletion', { status: 503 }), chat()),
    produced('createResponses', 400, 'it continues a stored response, and responses are not stored', asRegular, respond({ previousResponseId: 'resp_123' }), bodyField({ parameter: 'previous_response_id', reason: 'is not supported: responses are not stored; send the whole conversation as `input`', value: '"resp_123"' })),
    ...unauthorized('createResponses', respond()),
    produced('createResponses', 402, 'the organisation has no credits', withoutCredits, respond({ maxOutputTokens: 100 }), {
      message: creditsMessage(100, 0),
      metadata: { provider_name: null },
      caller: broke,
    }),
    produced('createResponses', 403, "the key's limit is used up", spentKey, respond(), {
      message: 'Key limit exceeded (total limit). Manage it using https://openrouter.ai/settings/keys',
    }),
    produced('createResponses', 403, 'the key is a management key', asManagement, respond(), {
      message: 'Management keys cannot be used for inference requests; use a regular API key',
      metadata: { reason: 'management_key' },
    }),
    produced('createResponses', 404, 'no endpoint is left by provider.ignore', asRegular, respond({ provider: { ignore: ['OpenAI', 'Azure', 'openai', 'azure'] } }), {
      message: 'No endpoints found matching your provider preferences',
    }),
    produced('createResponses', 429, 'a fault answers 429', withFault('createResponses', { status: 429, headers: { 'retry-after': '7' } }), respond()),
    produced('createResponses', 500, 'a fault answers 500', withFault('createResponses', { status: 500 }), respond()),
    produced('createResponses', 502, 'every provider fails', failingProviders, respond()),
    produced('createResponses', 503, 'a fault answers 503', withFault('createResponses', { status: 503 }), respond()),
    ...unauthorized('getGeneration', generation('gen-0-none')),
    // Reading a generation spends nothing: the simulator has no 402 of its own here.
    overridden('getGeneration', 402),
    produced('getGeneration', 404, 'no generation has the id', asRegular, generation('gen-0-none'), { metadata: { resource: 'generation' } }),
    produced('getGeneration', 404, "the id is another organisation's generation", asRegular, (sdk) => generation(globexGeneration())(sdk), { metadata: { resource: 'generation' } }),
    produced('getGeneration', 429, 'a fault answers 429', withFault('getGeneration', { status: 429, headers: { 'retry-after': '7' } }), generation('gen-0-none')),
    produced('getGeneration', 500, 'a fault answers 500', withFault('getGeneration', { status: 500 }), generation('gen-0-none')),
    produced('getGeneration', 502, 'a fault answers 502', withFault('getGeneration', { status: 502 }), generation('gen-0-none')),
  ]
}

/** The cases of `POST /embeddings`: each status produced by a rule, a fault or a responder (decisions/0030). */
function EMBEDDINGS_ERROR_CASES(): ErrorCase[] {
  const embed = (request: Record<string, unknown> = {}) => (sdk: Sdk) => sdk.embeddings.generate({ requestBody: { model: world.models.embedding, input: 'Hello', ...request } })
  const withFault = (respond: { status: number; headers?: Record<string, string> }) => (): string => {
    sim.faults.add({ operation: 'createEmbeddings', respond })
    return world.apiKey
  }
  const failingProviders = (): string => {
    sim.inference.respond({ match: { operation: 'createEmbeddings' }, error: { status: 502 } })
    return world.apiKey
  }
  return [
    produced('createEmbeddings', 400, 'dimensions is above the model\'s output size', asRegular, embed({ dimensions: 4096 }), bodyField({ parameter: 'dimensions', reason: 'must be at most 1536, the output size of openai/text-embedding-3-small', value: '4096' })),
    ...unauthorized('createEmbeddings', embed()),
    produced('createEmbeddings', 402, 'the organisation has no credits', withoutCredits, embed(), {
      metadata: { provider_name: null },
      caller: broke,
    }),
    produced('createEmbeddings', 403, 'the key is a management key', asManagement, embed(), {
      message: 'Management keys cannot be used for inference requests; use a regular API key',
      metadata: { reason: 'management_key' },
    }),
    produced('createEmbeddings', 404, 'no endpoint is left by provider.only', asRegular, embed({ provider: { only: ['NoSuchProvider'] } }), {
      message: 'No endpoints found matching your provider preferences',
      metadata: { reason: 'no_endpoint_provider', model: 'openai/text-embedding-3-small' },
    }),
    produced('createEmbeddings', 429, 'a fault answers 429', withFault({ status: 429, headers: { 'retry-after': '7' } }), embed()),
    produced('createEmbeddings', 500, 'a fault answers 500', withFault({ status: 500 }), embed()),
    produced('createEmbeddings', 502, 'every provider fails', failingProviders, embed()),
    produced('createEmbeddings', 503, 'a fault answers 503', withFault({ status: 503 }), embed()),
  ]
}

/** The cases of the preset operations (decisions/0050): each status produced by a rule, or overridden where the simulator has none. */
function PRESET_ERROR_CASES(): ErrorCase[] {
  const withSupport = (): string => {
    sim.presets.create({ userId: world.userId, slug: 'support', config: { model: 'openai/gpt-4.1-mini' } })
    return world.apiKey
  }
  const withGlobexPreset = (): string => {
    sim.presets.create({ userId: world.otherTenant.userId, slug: 'support', config: { model: 'openai/gpt-4.1-mini' } })
    return world.apiKey
  }
  const badSlug = bodyField({ parameter: 'slug', reason: `must be ${PRESET_SLUG_RULE}`, value: 'Not A Slug' })
  const notFound = { metadata: { resource: 'preset' } }
  return [
    produced('listPresets', 400, 'limit is above 100', asRegular, (sdk) => sdk.presets.list({ limit: 101 }), { metadata: { parameter: 'limit', reason: 'must be an integer from 1 to 100', value: '101' } }),
    ...unauthorized('listPresets', (sdk) => sdk.presets.list()),
    overridden('listPresets', 500),
    produced('getPreset', 400, 'the slug cannot be a slug', asRegular, (sdk) => sdk.presets.get({ slug: 'Not A Slug' }), { metadata: badSlug.metadata }),
    ...unauthorized('getPreset', (sdk) => sdk.presets.get({ slug: 'support' })),
    produced('getPreset', 404, 'the organisation has no preset of that slug', asRegular, (sdk) => sdk.presets.get({ slug: 'support' }), notFound),
    produced('getPreset', 404, "the slug is another organisation's preset", withGlobexPreset, (sdk) => sdk.presets.get({ slug: 'support' }), notFound),
    overridden('getPreset', 500),
    produced('listPresetVersions', 400, 'offset is negative', withSupport, (sdk) => sdk.presets.listVersions({ slug: 'support', offset: -1 }), { metadata: { parameter: 'offset', reason: 'must be a non-negative integer', value: '-1' } }),
    ...unauthorized('listPresetVersions', (sdk) => sdk.presets.listVersions({ slug: 'support' })),
    produced('listPresetVersions', 404, 'the organisation has no preset of that slug', asRegular, (sdk) => sdk.presets.listVersions({ slug: 'support' }), notFound),
    overridden('listPresetVersions', 500),
    produced('getPresetVersion', 400, 'the version is not a number', withSupport, (sdk) => sdk.presets.getVersion({ slug: 'support', version: 'latest' }), {
      metadata: { parameter: 'version', reason: 'must be a version number: a positive integer such as 1', value: 'latest' },
    }),
    ...unauthorized('getPresetVersion', (sdk) => sdk.presets.getVersion({ slug: 'support', version: '1' })),
    produced('getPresetVersion', 404, 'the preset has no such version', withSupport, (sdk) => sdk.presets.getVersion({ slug: 'support', version: '2' }), { metadata: { resource: 'preset_version' } }),
    overridden('getPresetVersion', 500),
    produced('createPresetsChatCompletions', 400, 'temperature is out of range', asRegular, (sdk) => sdk.presets.createPresetsChatCompletions({ slug: 'support', chatRequest: { model: 'openai/gpt-4.1-mini', temperature: 3, messages: [{ role: 'user', content: 'Hi' }] } }), bodyField({ parameter: 'temperature', reason: 'must be at most 2', value: '3' })),
    ...unauthorized('createPresetsChatCompletions', VALID_CALL.createPresetsChatCompletions),
    overridden('createPresetsChatCompletions', 403),
    overridden('createPresetsChatCompletions', 404),
    overridden('createPresetsChatCompletions', 500),
    produced('createPresetsResponses', 400, 'the slug cannot be a slug', asRegular, (sdk) => sdk.presets.createPresetsResponses({ slug: 'Not A Slug', responsesRequest: { model: 'openai/gpt-4.1-mini', input: 'Hi' } } as Parameters<Sdk['presets']['createPresetsResponses']>[0]), { metadata: badSlug.metadata }),
    ...unauthorized('createPresetsResponses', VALID_CALL.createPresetsResponses),
    overridden('createPresetsResponses', 403),
    overridden('createPresetsResponses', 404),
    overridden('createPresetsResponses', 500),
    produced('createPresetsMessages', 400, 'temperature is out of range', asRegular, (sdk) => sdk.presets.createPresetsMessages({ slug: 'support', messagesRequest: { model: 'anthropic/claude-sonnet-4.5', temperature: 3, messages: [{ role: 'user', content: 'Hi' }] } }), {
      metadata: { parameter: 'temperature', reason: 'must be at most 2' },
      message: `${ERROR_MESSAGES[400]}: temperature must be at most 2`,
    }),
    ...unauthorized('createPresetsMessages', VALID_CALL.createPresetsMessages),
    overridden('createPresetsMessages', 403),
    overridden('createPresetsMessages', 404),
    overridden('createPresetsMessages', 500),
  ]
}

/** The BYOK credential routes' cases (decisions/0054). */
function BYOK_ERROR_CASES(): ErrorCase[] {
  const noCredential = { metadata: { resource: 'byok_key' } }
  const globexCredential = (): string => {
    globexCredentialId = sim.byok.create({ userId: world.otherTenant.userId, provider: 'openai', key: 'sk-globex-0123456789' }).id
    return world.managementKey
  }
  return [
    produced('createBYOKKey', 400, 'provider is not a slug', asManagement, (sdk) => sdk.byok.create({ createBYOKKeyRequest: { provider: 'Open AI' as 'openai', key: 'sk-1234567890' } }), bodyField({ parameter: 'provider', reason: 'must be a lowercase provider slug such as "openai"', value: '"Open AI"' })),
    produced('createBYOKKey', 400, "workspace_id is another organisation's workspace", asManagement, (sdk) => sdk.byok.create({ createBYOKKeyRequest: { provider: 'openai', key: 'sk-1234567890', workspaceId: world.otherTenant.workspaceId } }), bodyField({ parameter: 'workspace_id', reason: 'is not a workspace of the caller', value: `"${world.otherTenant.workspaceId}"` })),
    ...unauthorized('createBYOKKey', VALID_CALL.createBYOKKey),
    produced('createBYOKKey', 403, 'the key is a regular key', asRegular, VALID_CALL.createBYOKKey),
    overridden('createBYOKKey', 500),
    produced('listBYOKKeys', 400, 'limit is over 100', asManagement, (sdk) => sdk.byok.list({ limit: 101 }), { metadata: { parameter: 'limit', reason: 'must be between 1 and 100', value: '101' } }),
    ...unauthorized('listBYOKKeys', VALID_CALL.listBYOKKeys),
    overridden('listBYOKKeys', 500),
    ...unauthorized('getBYOKKey', VALID_CALL.getBYOKKey),
    produced('getBYOKKey', 404, 'no credential has the id', asManagement, VALID_CALL.getBYOKKey, noCredential),
    produced('getBYOKKey', 404, "the credential is another organisation's", globexCredential, (sdk) => sdk.byok.get({ id: globexCredentialId }), noCredential),
    overridden('getBYOKKey', 500),
    produced('updateBYOKKey', 400, 'key is empty', withCredential, (sdk) => sdk.byok.update({ id: credentialId, updateBYOKKeyRequest: { key: '' } }), bodyField({ parameter: 'key', reason: 'must not be empty', value: '""' })),
    ...unauthorized('updateBYOKKey', VALID_CALL.updateBYOKKey),
    produced('updateBYOKKey', 403, 'the key is a regular key', asRegular, VALID_CALL.updateBYOKKey),
    produced('updateBYOKKey', 404, 'no credential has the id', asManagement, VALID_CALL.updateBYOKKey, noCredential),
    overridden('updateBYOKKey', 500),
    ...unauthorized('deleteBYOKKey', VALID_CALL.deleteBYOKKey),
    produced('deleteBYOKKey', 404, 'no credential has the id', asManagement, VALID_CALL.deleteBYOKKey, noCredential),
    overridden('deleteBYOKKey', 500),
  ]
}
const NO_CREDENTIAL = '00000000-0000-4000-8000-000000000000'
let globexCredentialId = ''
let credentialId = ''
const withCredential = (): string => {
  credentialId = sim.byok.create({ userId: world.userId, provider: 'openai', key: 'sk-proj-0123456789' }).id
  return world.managementKey
}

/** The workspace budget routes' cases (decisions/0052). */
function BUDGET_ERROR_CASES(): ErrorCase[] {
  const withDailyBudget = (): string => {
    sim.budgets.set({ workspace: world.workspaces.production, interval: 'daily', limitUsd: 5 })
    return world.managementKey
  }
  const noWorkspace = { metadata: { resource: 'workspace' } }
  const noBudget = { metadata: { resource: 'budget' } }
  const badInterval = { metadata: { parameter: 'interval', reason: 'must be one of daily, weekly, monthly, lifetime', value: 'hourly' } }
  const hourly = 'hourly' as 'daily'
  const spentWorkspace = (): string => {
    const workspace = sim.workspaces.create({ userId: world.userId, name: 'Capped', slug: 'capped' })
    const key = sim.keys.create({ userId: world.userId, workspaceId: workspace.id, usage: { daily: 1 } })
    sim.budgets.set({ workspace: workspace.id, interval: 'daily', limitUsd: 1 })
    return key.key
  }
  return [
    ...unauthorized('listWorkspaceBudgets', VALID_CALL.listWorkspaceBudgets),
    produced('listWorkspaceBudgets', 404, "the workspace is another organisation's", asManagement, (sdk) => sdk.workspaces.listBudgets({ workspaceRef: world.otherTenant.workspaceId }), noWorkspace),
    overridden('listWorkspaceBudgets', 500),
    produced('getWorkspaceBudget', 400, 'the interval is not one', asManagement, (sdk) => sdk.workspaces.getBudget({ workspaceRef: 'production', interval: hourly }), badInterval),
    ...unauthorized('getWorkspaceBudget', VALID_CALL.getWorkspaceBudget),
    produced('getWorkspaceBudget', 404, 'the workspace has no budget for the interval', asManagement, VALID_CALL.getWorkspaceBudget, noBudget),
    overridden('getWorkspaceBudget', 500),
    produced('upsertWorkspaceBudget', 400, 'limit_usd is not above 0', asManagement, (sdk) => sdk.workspaces.setBudget({ workspaceRef: 'production', interval: 'daily', upsertWorkspaceBudgetRequest: { limitUsd: 0 } }), bodyField({ parameter: 'limit_usd', reason: 'must be greater than 0', value: '0' })),
    produced('upsertWorkspaceBudget', 400, 'limit_usd breaks the order of the intervals', withDailyBudget, (sdk) => sdk.workspaces.setBudget({ workspaceRef: 'production', interval: 'weekly', upsertWorkspaceBudgetRequest: { limitUsd: 5 } }), bodyField({ parameter: 'limit_usd', reason: "must be more than the daily budget's 5: limits must strictly decrease as the interval narrows (lifetime > monthly > weekly > daily)", value: '5' })),
    ...unauthorized('upsertWorkspaceBudget', VALID_CALL.upsertWorkspaceBudget),
    produced('upsertWorkspaceBudget', 404, 'no workspace has the slug', asManagement, (sdk) => sdk.workspaces.setBudget({ workspaceRef: 'marketing', interval: 'daily', upsertWorkspaceBudgetRequest: { limitUsd: 5 } }), noWorkspace),
    overridden('upsertWorkspaceBudget', 500),
    produced('deleteWorkspaceBudget', 400, 'the interval is not one', asManagement, (sdk) => sdk.workspaces.deleteBudget({ workspaceRef: 'production', interval: hourly }), badInterval),
    ...unauthorized('deleteWorkspaceBudget', VALID_CALL.deleteWorkspaceBudget),
    produced('deleteWorkspaceBudget', 404, 'the workspace has no budget for the interval', asManagement, VALID_CALL.deleteWorkspaceBudget, noBudget),
    overridden('deleteWorkspaceBudget', 500),
    produced('createChatCompletion', 403, "the key's workspace budget is spent", spentWorkspace, (sdk) => sdk.chat.send({ chatRequest: { model: 'openai/gpt-4.1-mini', messages: [{ role: 'user', content: 'Hello' }] } }), {
      message: 'Workspace budget exceeded (daily limit). Manage it using https://openrouter.ai/settings/workspaces',
    }),
  ]
}

/** A guardrail of the world's organisation, made on first use after each reset: the valid calls' target. */
const guardrailId = (): string => (sim.guardrails.list().find((g) => g.name === 'Conformance') ?? sim.guardrails.create({ userId: world.userId, rules: { name: 'Conformance' } })).id

/** The cases of the guardrail operations (decisions/0051). */
function GUARDRAIL_ERROR_CASES(): ErrorCase[] {
  const noGuardrail = { metadata: { resource: 'guardrail' } }
  const globex = (): string => sim.guardrails.create({ userId: world.otherTenant.userId, rules: { name: 'Globex' } }).id
  let globexId = ''
  const withGlobex = (): string => {
    globexId = globex()
    return world.managementKey
  }
  const withOwn = (): string => {
    guardrailId()
    return world.managementKey
  }
  return [
    produced('listGuardrails', 400, 'workspace_id is not a UUID', asManagement, (sdk) => sdk.guardrails.list({ workspaceId: 'production' }), { metadata: { parameter: 'workspace_id', reason: 'must be a UUID', value: 'production' } }),
    ...unauthorized('listGuardrails', VALID_CALL.listGuardrails),
    overridden('listGuardrails', 500),
    produced('createGuardrail', 400, 'a model is unknown', asManagement, (sdk) => sdk.guardrails.create({ createGuardrailRequest: { name: 'x', allowedModels: ['openai/gpt-9'] } }), bodyField({ parameter: 'allowed_models[0]', reason: 'names no model of this simulator', value: '"openai/gpt-9"' })),
    ...unauthorized('createGuardrail', VALID_CALL.createGuardrail),
    produced('createGuardrail', 403, 'the key is a regular key', asRegular, VALID_CALL.createGuardrail),
    overridden('createGuardrail', 500),
    ...unauthorized('getGuardrail', VALID_CALL.getGuardrail),
    produced('getGuardrail', 404, "the id is another organisation's guardrail", withGlobex, (sdk) => sdk.guardrails.get({ id: globexId }), noGuardrail),
    overridden('getGuardrail', 500),
    produced('updateGuardrail', 400, 'limit_usd is negative', withOwn, (sdk) => sdk.guardrails.update({ id: guardrailId(), updateGuardrailRequest: { limitUsd: -1 } }), bodyField({ parameter: 'limit_usd', reason: 'must be at least 0', value: '-1' })),
    ...unauthorized('updateGuardrail', VALID_CALL.updateGuardrail),
    produced('updateGuardrail', 403, 'the key is a regular key', asRegular, VALID_CALL.updateGuardrail),
    produced('updateGuardrail', 404, 'no guardrail has the id', asManagement, (sdk) => sdk.guardrails.update({ id: '00000000-0000-4000-8000-000000000000', updateGuardrailRequest: { name: 'x' } }), noGuardrail),
    overridden('updateGuardrail', 409),
    overridden('updateGuardrail', 500),
    ...unauthorized('deleteGuardrail', VALID_CALL.deleteGuardrail),
    produced('deleteGuardrail', 404, 'no guardrail has the id', asManagement, (sdk) => sdk.guardrails.delete({ id: '00000000-0000-4000-8000-000000000000' }), noGuardrail),
    overridden('deleteGuardrail', 500),
    ...unauthorized('listKeyAssignments', VALID_CALL.listKeyAssignments),
    overridden('listKeyAssignments', 500),
    ...unauthorized('listMemberAssignments', VALID_CALL.listMemberAssignments),
    overridden('listMemberAssignments', 500),
    ...unauthorized('listGuardrailKeyAssignments', VALID_CALL.listGuardrailKeyAssignments),
    produced('listGuardrailKeyAssignments', 404, "the id is another organisation's guardrail", withGlobex, (sdk) => sdk.guardrails.listGuardrailKeyAssignments({ id: globexId }), noGuardrail),
    overridden('listGuardrailKeyAssignments', 500),
    ...unauthorized('listGuardrailMemberAssignments', VALID_CALL.listGuardrailMemberAssignments),
    produced('listGuardrailMemberAssignments', 404, "the id is another organisation's guardrail", withGlobex, (sdk) => sdk.guardrails.listGuardrailMemberAssignments({ id: globexId }), noGuardrail),
    overridden('listGuardrailMemberAssignments', 500),
    produced('bulkAssignKeysToGuardrail', 400, "a hash is another organisation's key", withOwn, (sdk) => sdk.guardrails.bulkAssignKeys({ id: guardrailId(), bulkAssignKeysRequest: { keyHashes: [GLOBEX_KEY!.hash] } }), bodyField({ parameter: 'key_hashes[0]', reason: 'is not a key of the organisation', value: `${JSON.stringify(GLOBEX_KEY!.hash).slice(0, 57)}...` })),
    ...unauthorized('bulkAssignKeysToGuardrail', VALID_CALL.bulkAssignKeysToGuardrail),
    produced('bulkAssignKeysToGuardrail', 403, 'the key is a regular key', asRegular, VALID_CALL.bulkAssignKeysToGuardrail),
    produced('bulkAssignKeysToGuardrail', 404, 'no guardrail has the id', asManagement, (sdk) => sdk.guardrails.bulkAssignKeys({ id: '00000000-0000-4000-8000-000000000000', bulkAssignKeysRequest: { keyHashes: [ACME_KEYS.find((k) => !managementLabels.has(k.label))!.hash] } }), noGuardrail),
    overridden('bulkAssignKeysToGuardrail', 500),
    produced('bulkUnassignKeysFromGuardrail', 400, 'key_hashes is empty', withOwn, (sdk) => sdk.guardrails.bulkUnassignKeys({ id: guardrailId(), bulkUnassignKeysRequest: { keyHashes: [] } }), bodyField({ parameter: 'key_hashes', reason: 'must have at least 1 element' })),
    ...unauthorized('bulkUnassignKeysFromGuardrail', VALID_CALL.bulkUnassignKeysFromGuardrail),
    produced('bulkUnassignKeysFromGuardrail', 404, 'no guardrail has the id', asManagement, (sdk) => sdk.guardrails.bulkUnassignKeys({ id: '00000000-0000-4000-8000-000000000000', bulkUnassignKeysRequest: { keyHashes: [ACME_KEYS.find((k) => !managementLabels.has(k.label))!.hash] } }), noGuardrail),
    overridden('bulkUnassignKeysFromGuardrail', 500),
    produced('bulkAssignMembersToGuardrail', 400, 'a user id is no member', withOwn, (sdk) => sdk.guardrails.bulkAssignMembers({ id: guardrailId(), bulkAssignMembersRequest: { memberUserIds: ['user_nobody'] } }), bodyField({ parameter: 'member_user_ids[0]', reason: 'is not a member of the organisation', value: '"user_nobody"' })),
    ...unauthorized('bulkAssignMembersToGuardrail', VALID_CALL.bulkAssignMembersToGuardrail),
    produced('bulkAssignMembersToGuardrail', 404, "the id is another organisation's guardrail", withGlobex, (sdk) => sdk.guardrails.bulkAssignMembers({ id: globexId, bulkAssignMembersRequest: { memberUserIds: [world.userId] } }), noGuardrail),
    overridden('bulkAssignMembersToGuardrail', 500),
    produced('bulkUnassignMembersFromGuardrail', 400, 'a user id is no member', withOwn, (sdk) => sdk.guardrails.bulkUnassignMembers({ id: guardrailId(), bulkUnassignMembersRequest: { memberUserIds: ['user_nobody'] } }), bodyField({ parameter: 'member_user_ids[0]', reason: 'is not a member of the organisation', value: '"user_nobody"' })),
    ...unauthorized('bulkUnassignMembersFromGuardrail', VALID_CALL.bulkUnassignMembersFromGuardrail),
    produced('bulkUnassignMembersFromGuardrail', 404, 'no guardrail has the id', asManagement, (sdk) => sdk.guardrails.bulkUnassignMembers({ id: '00000000-0000-4000-8000-000000000000', bulkUnassignMembersRequest: { memberUserIds: [world.userId] } }), noGuardrail),
    overridden('bulkUnassignMembersFromGuardrail', 500),
  ]
}

/** The cases of the member operations (decisions/0051). */
function MEMBER_ERROR_CASES(): ErrorCase[] {
  const noWorkspace = { metadata: { resource: 'workspace' } }
  const notMember = bodyField({ parameter: 'user_ids[0]', reason: 'is not a member of the organisation', value: '"user_nobody"' })
  const withMemberKey = (): string => {
    sim.members.add({ userId: world.userId, id: 'user_ada', workspaces: [{ workspaceId: world.workspaces.production }] })
    sim.keys.create({ userId: world.userId, workspaceId: world.workspaces.production, creatorUserId: 'user_ada' })
    return world.managementKey
  }
  return [
    ...unauthorized('listOrganizationMembers', VALID_CALL.listOrganizationMembers),
    overridden('listOrganizationMembers', 404),
    overridden('listOrganizationMembers', 500),
    ...unauthorized('listWorkspaceMembers', VALID_CALL.listWorkspaceMembers),
    produced('listWorkspaceMembers', 403, 'the key is a regular key', asRegular, VALID_CALL.listWorkspaceMembers),
    produced('listWorkspaceMembers', 404, "the UUID is another organisation's workspace", asManagement, (sdk) => sdk.workspaces.listMembers({ id: world.otherTenant.workspaceId }), noWorkspace),
    overridden('listWorkspaceMembers', 500),
    produced('bulkAddWorkspaceMembers', 400, 'a user id is no member', asManagement, (sdk) => sdk.workspaces.bulkAddMembers({ id: world.workspaces.production, bulkAddWorkspaceMembersRequest: { userIds: ['user_nobody'] } }), notMember),
    ...unauthorized('bulkAddWorkspaceMembers', VALID_CALL.bulkAddWorkspaceMembers),
    produced('bulkAddWorkspaceMembers', 403, 'the key is a regular key', asRegular, VALID_CALL.bulkAddWorkspaceMembers),
    produced('bulkAddWorkspaceMembers', 404, 'no workspace has the slug', asManagement, (sdk) => sdk.workspaces.bulkAddMembers({ id: 'marketing', bulkAddWorkspaceMembersRequest: { userIds: [world.userId] } }), noWorkspace),
    overridden('bulkAddWorkspaceMembers', 500),
    produced('bulkRemoveWorkspaceMembers', 400, 'the member has active keys in the workspace', withMemberKey, (sdk) => sdk.workspaces.bulkRemoveMembers({ id: world.workspaces.production, bulkRemoveWorkspaceMembersRequest: { userIds: ['user_ada'] } }), bodyField({ parameter: 'user_ids', reason: 'names "user_ada", who has active API keys in this workspace (disable or delete them first)', value: '"user_ada"' })),
    ...unauthorized('bulkRemoveWorkspaceMembers', VALID_CALL.bulkRemoveWorkspaceMembers),
    produced('bulkRemoveWorkspaceMembers', 403, 'the key is a regular key', asRegular, VALID_CALL.bulkRemoveWorkspaceMembers),
    produced('bulkRemoveWorkspaceMembers', 404, "the UUID is another organisation's workspace", asManagement, (sdk) => sdk.workspaces.bulkRemoveMembers({ id: world.otherTenant.workspaceId, bulkRemoveWorkspaceMembersRequest: { userIds: [world.userId] } }), noWorkspace),
    overridden('bulkRemoveWorkspaceMembers', 500),
  ]
}

const ERROR_CASES: ErrorCase[] = [
  // GET /keys
  produced('listKeys', 400, 'workspaceId is not a UUID', asManagement, (sdk) => sdk.apiKeys.list({ workspaceId: 'production' }), {
    metadata: { parameter: 'workspace_id', reason: 'must be a UUID', value: 'production' },
  }),
  produced('listKeys', 400, "workspaceId is another organisation's workspace", asManagement, (sdk) => sdk.apiKeys.list({ workspaceId: world.otherTenant.workspaceId }), {
    metadata: { parameter: 'workspace_id', reason: 'is not a workspace of the caller', value: world.otherTenant.workspaceId },
  }),
  produced('listKeys', 400, 'offset is negative', asManagement, (sdk) => sdk.apiKeys.list({ offset: -1 }), {
    metadata: { parameter: 'offset', reason: 'must be a non-negative integer', value: '-1' },
  }),
  ...unauthorized('listKeys', (sdk) => sdk.apiKeys.list()),
  produced('listKeys', 401, "the Authorization header is not 'Bearer <key>'", () => 'Bearer two words', (sdk) => sdk.apiKeys.list(), {
    message: AUTH_MESSAGES.malformed, metadata: { reason: 'malformed' }, ...notCaller,
  }),
  produced('listKeys', 401, 'the key is disabled', withDisabledKey, (sdk) => sdk.apiKeys.list(), {
    message: AUTH_MESSAGES.disabled, metadata: { reason: 'disabled' }, ...notCaller,
  }),
  produced('listKeys', 401, 'the key has expired', withExpiredKey, (sdk) => sdk.apiKeys.list(), {
    message: AUTH_MESSAGES.expired, metadata: { reason: 'expired' }, ...notCaller,
  }),
  overridden('listKeys', 429),
  overridden('listKeys', 500),

  // GET /keys/{hash}
  ...unauthorized('getKey', (sdk) => sdk.apiKeys.get({ hash: world.apiKeyHash })),
  produced('getKey', 404, 'no key has the hash', asManagement, (sdk) => sdk.apiKeys.get({ hash: 'f'.repeat(64) }), { metadata: { resource: 'key' } }),
  produced('getKey', 404, "the hash is another organisation's key", asManagement, (sdk) => sdk.apiKeys.get({ hash: GLOBEX_KEY?.hash ?? '' }), {
    metadata: { resource: 'key' },
  }),
  overridden('getKey', 429),
  overridden('getKey', 500),

  // GET /models/{author}/{slug}/endpoints
  overridden('listEndpoints', 403),
  produced('listEndpoints', 404, 'no model has the id', anonymous, (sdk) => sdk.endpoints.list({ author: 'openai', slug: 'gpt-does-not-exist' }), {
    metadata: { resource: 'model', model: 'openai/gpt-does-not-exist' }, ...notCaller,
  }),
  produced('listEndpoints', 404, 'a known model is asked for with a variant it does not have', asRegular, (sdk) => sdk.endpoints.list({ author: 'anthropic', slug: 'claude-sonnet-4.5:free' }), {
    metadata: { resource: 'model', model: 'anthropic/claude-sonnet-4.5:free' },
  }),
  overridden('listEndpoints', 500),

  // GET /files/{file_id}/content
  produced('getFileContent', 400, 'the file was uploaded, not created by the service', asManagement, (sdk) => sdk.files.download({ fileId: world.files.upload }), {
    metadata: { parameter: 'file_id', reason: 'the file was uploaded; only server-created files can be downloaded', value: world.files.upload },
  }),
  produced('getFileContent', 400, 'the file id has characters outside [A-Za-z0-9_-]', asManagement, (sdk) => sdk.files.download({ fileId: 'report.final' }), {
    metadata: { parameter: 'file_id', reason: 'must be 1 to 256 characters of [A-Za-z0-9_-]', value: 'report.final' },
  }),
  produced('getFileContent', 400, 'workspaceId is not a UUID', asManagement, (sdk) => sdk.files.download({ fileId: world.files.report, workspaceId: 'default' }), {
    metadata: { parameter: 'workspace_id', reason: 'must be a UUID', value: 'default' },
  }),
  produced('getFileContent', 400, 'the provider is neither openai nor anthropic', asManagement, (sdk) => sdk.files.download({ fileId: world.files.report, provider: unrecognized('azure') }), {
    metadata: { parameter: 'provider', reason: 'must be one of openai, anthropic', value: 'azure' },
  }),
  ...unauthorized('getFileContent', (sdk) => sdk.files.download({ fileId: world.files.report })),
  produced('getFileContent', 403, 'the key is a regular key', asRegular, (sdk) => sdk.files.download({ fileId: world.files.report })),
  produced('getFileContent', 404, 'no file has the id', asManagement, (sdk) => sdk.files.download({ fileId: 'file_does_not_exist' }), { metadata: { resource: 'file' } }),
  produced('getFileContent', 404, 'the file lives in another workspace than the one asked', asManagement, (sdk) => sdk.files.download({ fileId: 'file_eval_report_q1' }), {
    metadata: { resource: 'file' },
  }),
  produced('getFileContent', 404, 'the file is kept by a provider but none is asked for', asManagement, (sdk) => sdk.files.download({ fileId: 'file_openai_batch_output' }), {
    metadata: { resource: 'file' },
  }),
  produced('getFileContent', 404, "the file is another organisation's, even named with its workspace", asManagement, (sdk) => sdk.files.download({ fileId: GLOBEX_FILE?.id ?? '', workspaceId: GLOBEX_FILE?.workspaceId ?? '' }), {
    metadata: { resource: 'file' },
  }),
  overridden('getFileContent', 429),
  overridden('getFileContent', 500),
  overridden('getFileContent', 502),
  overridden('getFileContent', 503),

  // GET /workspaces/{id}
  ...unauthorized('getWorkspace', (sdk) => sdk.workspaces.get({ id: world.workspaces.production })),
  produced('getWorkspace', 404, 'no workspace has the UUID', asManagement, (sdk) => sdk.workspaces.get({ id: '00000000-0000-4000-8000-000000000000' }), { metadata: { resource: 'workspace' } }),
  produced('getWorkspace', 404, 'no workspace has the slug', asManagement, (sdk) => sdk.workspaces.get({ id: 'marketing' }), { metadata: { resource: 'workspace' } }),
  produced('getWorkspace', 404, "the UUID is another organisation's workspace", asManagement, (sdk) => sdk.workspaces.get({ id: world.otherTenant.workspaceId }), {
    metadata: { resource: 'workspace' },
  }),
  overridden('getWorkspace', 500),

  // GET /videos/models
  overridden('listVideoModels', 400),
  overridden('listVideoModels', 500),

  // GET /models, /models/count, /model/{author}/{slug}, /providers, /embeddings/models (the catalog)
  produced('listModels', 400, 'an output modality is unknown', anonymous, (sdk) => sdk.models.list({ outputModalities: 'text,smell' }), {
    metadata: { parameter: 'output_modalities', reason: `must be a comma-separated list of ${[...OUTPUT_MODALITIES, 'all'].join(', ')}`, value: 'text,smell' }, ...notCaller,
  }),
  produced('listModels', 400, 'a supported parameter is unknown', asRegular, (sdk) => sdk.models.list({ supportedParameters: 'tools,telepathy' }), {
    metadata: { parameter: 'supported_parameters', reason: `must be a comma-separated list of ${SUPPORTED_PARAMETERS.join(', ')}`, value: 'tools,telepathy' },
  }),
  produced('listModels', 400, 'the category is unknown', anonymous, (sdk) => sdk.models.list({ category: unrecognized('cooking') }), {
    metadata: { parameter: 'category', reason: `must be one of ${MODEL_CATEGORIES.join(', ')}`, value: 'cooking' }, ...notCaller,
  }),
  produced('listModels', 400, 'the limit is over 1000', anonymous, (sdk) => sdk.models.list({ limit: 1001 }), {
    metadata: { parameter: 'limit', reason: 'must be an integer from 1 to 1000', value: '1001' }, ...notCaller,
  }),
  overridden('listModels', 403),
  overridden('listModels', 500),
  produced('countModels', 400, 'an output modality is unknown', anonymous, (sdk) => sdk.models.count({ outputModalities: 'pictures' }), {
    metadata: { parameter: 'output_modalities', reason: `must be a comma-separated list of ${[...OUTPUT_MODALITIES, 'all'].join(', ')}`, value: 'pictures' }, ...notCaller,
  }),
  overridden('countModels', 403),
  overridden('countModels', 500),
  overridden('getModel', 403),
  produced('getModel', 404, 'no model has the id', anonymous, (sdk) => sdk.models.get({ author: 'openai', slug: 'gpt-does-not-exist' }), {
    metadata: { resource: 'model', model: 'openai/gpt-does-not-exist' }, ...notCaller,
  }),
  produced('getModel', 404, 'a known model is asked for with a variant it does not have', asRegular, (sdk) => sdk.models.get({ author: 'anthropic', slug: 'claude-sonnet-4.5:free' }), {
    metadata: { resource: 'model', model: 'anthropic/claude-sonnet-4.5:free' },
  }),
  overridden('getModel', 500),
  overridden('listProviders', 500),
  produced('listEmbeddingsModels', 400, 'the limit is 0', anonymous, (sdk) => sdk.embeddings.listModels({ limit: 0 }), {
    metadata: { parameter: 'limit', reason: 'must be an integer from 1 to 1000', value: '0' }, ...notCaller,
  }),
  overridden('listEmbeddingsModels', 500),
  // GET /workspaces
  ...unauthorized('listWorkspaces', (sdk) => sdk.workspaces.list()),
  overridden('listWorkspaces', 500),

  // POST /workspaces
  produced('createWorkspace', 400, 'the slug is already one of the organisation', asManagement, (sdk) => sdk.workspaces.create({ createWorkspaceRequest: { name: 'Prod', slug: 'production' } }), bodyField({ parameter: 'slug', reason: 'is already the slug of another workspace of this organisation', value: '"production"' })),
  produced('createWorkspace', 400, 'the slug is not lower-case words joined by "-"', asManagement, (sdk) => sdk.workspaces.create({ createWorkspaceRequest: { name: 'Lab', slug: 'My Lab' } }), bodyField({ parameter: 'slug', reason: 'must be lower-case letters and digits in words joined by single "-" (such as "production")', value: '"My Lab"' })),
  ...unauthorized('createWorkspace', (sdk) => sdk.workspaces.create({ createWorkspaceRequest: { name: 'Lab', slug: 'lab' } })),
  produced('createWorkspace', 403, 'the key is a regular key', asRegular, (sdk) => sdk.workspaces.create({ createWorkspaceRequest: { name: 'Lab', slug: 'lab' } })),
  overridden('createWorkspace', 500),

  // PATCH /workspaces/{id}
  produced('updateWorkspace', 400, 'the new slug is another workspace of the organisation', asManagement, (sdk) => sdk.workspaces.update({ id: 'staging', updateWorkspaceRequest: { slug: 'production' } }), bodyField({ parameter: 'slug', reason: 'is already the slug of another workspace of this organisation', value: '"production"' })),
  produced('updateWorkspace', 400, 'the sampling rate is above 1', asManagement, (sdk) => sdk.workspaces.update({ id: 'staging', updateWorkspaceRequest: { ioLoggingSamplingRate: 2 } }), bodyField({ parameter: 'io_logging_sampling_rate', reason: 'must be at most 1', value: '2' })),
  ...unauthorized('updateWorkspace', (sdk) => sdk.workspaces.update({ id: 'staging', updateWorkspaceRequest: { name: 'Staging 2' } })),
  produced('updateWorkspace', 403, 'the key is a regular key', asRegular, (sdk) => sdk.workspaces.update({ id: 'staging', updateWorkspaceRequest: { name: 'Staging 2' } })),
  produced('updateWorkspace', 404, 'no workspace has the slug', asManagement, (sdk) => sdk.workspaces.update({ id: 'marketing', updateWorkspaceRequest: { name: 'M' } }), { metadata: { resource: 'workspace' } }),
  produced('updateWorkspace', 404, "the UUID is another organisation's workspace", asManagement, (sdk) => sdk.workspaces.update({ id: world.otherTenant.workspaceId, updateWorkspaceRequest: { name: 'Mine now' } }), {
    metadata: { resource: 'workspace' },
  }),
  overridden('updateWorkspace', 500),

  // DELETE /workspaces/{id}
  produced('deleteWorkspace', 400, 'the workspace still holds keys', asManagement, (sdk) => sdk.workspaces.delete({ id: 'production' }), {
    message: `Invalid request parameters: the workspace holds ${KEYS_IN_PRODUCTION} API key${KEYS_IN_PRODUCTION === 1 ? '' : 's'}; delete them first (DELETE /keys/{hash})`,
    metadata: { parameter: 'id', reason: `the workspace holds ${KEYS_IN_PRODUCTION} API key${KEYS_IN_PRODUCTION === 1 ? '' : 's'}; delete them first (DELETE /keys/{hash})`, key_count: KEYS_IN_PRODUCTION },
  }),
  produced('deleteWorkspace', 400, 'the default workspace is deleted without confirm_default_workspace_deletion', asManagement, (sdk) => sdk.workspaces.delete({ id: 'default' }), {
    metadata: { parameter: 'confirm_default_workspace_deletion', reason: 'must be true to delete the default workspace' },
  }),
  ...unauthorized('deleteWorkspace', (sdk) => sdk.workspaces.delete({ id: 'staging' })),
  produced('deleteWorkspace', 403, 'the key is a regular key', asRegular, (sdk) => sdk.workspaces.delete({ id: 'staging' })),
  produced('deleteWorkspace', 404, 'no workspace has the UUID', asManagement, (sdk) => sdk.workspaces.delete({ id: '00000000-0000-4000-8000-000000000000' }), { metadata: { resource: 'workspace' } }),
  produced('deleteWorkspace', 404, "the slug is only another organisation's", asManagement, (sdk) => {
    sim.workspaces.create({ userId: world.otherTenant.userId, name: 'Globex only', slug: 'globex-only' })
    return sdk.workspaces.delete({ id: 'globex-only' })
  }, { metadata: { resource: 'workspace' } }),
  overridden('deleteWorkspace', 500),
  // POST /chat/completions and GET /generation: every declared status by the simulator's own rules.
  ...INFERENCE_ERROR_CASES(),
  // POST /embeddings: the same rules as chat completions (decisions/0030).
  ...EMBEDDINGS_ERROR_CASES(),
  // POST /keys
  produced('createKey', 400, 'the limit is negative', asManagement, (sdk) => sdk.apiKeys.create({ requestBody: { name: 'Negative', limit: -1 } }), bodyField({ parameter: 'limit', reason: 'must be at least 0', value: '-1' })),
  produced('createKey', 400, "workspaceId is another organisation's workspace", asManagement, (sdk) => sdk.apiKeys.create({ requestBody: { name: 'Elsewhere', workspaceId: world.otherTenant.workspaceId } }), bodyField({ parameter: 'workspace_id', reason: 'is not a workspace of the caller', value: JSON.stringify(world.otherTenant.workspaceId) })),
  ...unauthorized('createKey', (sdk) => sdk.apiKeys.create({ requestBody: { name: 'Anyone' } })),
  produced('createKey', 403, 'the key is a regular key', asRegular, (sdk) => sdk.apiKeys.create({ requestBody: { name: 'Escalation' } })),
  overridden('createKey', 429),
  overridden('createKey', 500),

  // PATCH /keys/{hash}
  produced('updateKey', 400, 'limitReset is not daily, weekly or monthly', asManagement, (sdk) => sdk.apiKeys.update({ hash: world.apiKeyHash, requestBody: { limitReset: unrecognized('yearly') } }), bodyField({ parameter: 'limit_reset', reason: 'must be one of daily, weekly, monthly', value: '"yearly"' })),
  ...unauthorized('updateKey', (sdk) => sdk.apiKeys.update({ hash: world.apiKeyHash, requestBody: { disabled: true } })),
  produced('updateKey', 404, 'no key has the hash', asManagement, (sdk) => sdk.apiKeys.update({ hash: 'f'.repeat(64), requestBody: { disabled: true } }), { metadata: { resource: 'key' } }),
  produced('updateKey', 404, "the hash is another organisation's key", asManagement, (sdk) => sdk.apiKeys.update({ hash: GLOBEX_KEY?.hash ?? '', requestBody: { disabled: true } }), {
    metadata: { resource: 'key' },
  }),
  overridden('updateKey', 429),
  overridden('updateKey', 500),

  // DELETE /keys/{hash}
  ...unauthorized('deleteKey', (sdk) => sdk.apiKeys.delete({ hash: world.apiKeyHash })),
  produced('deleteKey', 404, 'no key has the hash', asManagement, (sdk) => sdk.apiKeys.delete({ hash: 'f'.repeat(64) }), { metadata: { resource: 'key' } }),
  produced('deleteKey', 404, "the hash is another organisation's key", asManagement, (sdk) => sdk.apiKeys.delete({ hash: GLOBEX_KEY?.hash ?? '' }), { metadata: { resource: 'key' } }),
  overridden('deleteKey', 429),
  overridden('deleteKey', 500),

  // GET /key
  ...unauthorized('getCurrentKey', (sdk) => sdk.apiKeys.getCurrentKeyMetadata()),
  produced('getCurrentKey', 401, 'the key is disabled', withDisabledKey, (sdk) => sdk.apiKeys.getCurrentKeyMetadata(), {
    message: AUTH_MESSAGES.disabled, metadata: { reason: 'disabled' }, ...notCaller,
  }),
  overridden('getCurrentKey', 500),

  // GET /credits
  ...unauthorized('getCredits', (sdk) => sdk.credits.getCredits()),
  produced('getCredits', 403, 'the key is a regular key', asRegular, (sdk) => sdk.credits.getCredits()),
  overridden('getCredits', 500),

  // POST /auth/keys/code, POST /auth/keys, GET /oauth/jwks (decisions/0049)
  produced('createAuthKeysCode', 400, 'the callback is plain http off localhost', asRegular, (sdk) => sdk.oAuth.createAuthCode({ requestBody: { callbackUrl: 'http://myapp.example.com/cb' } }), bodyField({ parameter: 'callback_url', reason: 'must be an https URL, or an http URL on localhost or 127.0.0.1', value: '"http://myapp.example.com/cb"' })),
  ...unauthorized('createAuthKeysCode', (sdk) => sdk.oAuth.createAuthCode({ requestBody: { callbackUrl: 'https://app.example.com/callback' } })),
  produced('createAuthKeysCode', 403, 'a regular key asks for a key in another workspace', asRegular, (sdk) => sdk.oAuth.createAuthCode({ requestBody: { callbackUrl: 'https://app.example.com/callback', workspaceId: world.workspaces.research } }), {
    message: 'A regular API key can ask for keys only in its own workspace; use a management key for another',
    metadata: { reason: 'other_workspace' },
  }),
  // The simulator draws codes unique: it has no conflict of its own.
  overridden('createAuthKeysCode', 409),
  overridden('createAuthKeysCode', 500),
  produced('exchangeAuthCodeForAPIKey', 400, 'the verifier is shorter than RFC 7636 allows', anonymous, (sdk) => sdk.oAuth.exchangeAuthCodeForAPIKey({ requestBody: { code: 'c', codeVerifier: 'short' } }), {
    ...bodyField({ parameter: 'code_verifier', reason: 'must be 43 to 128 characters of A-Z, a-z, 0-9, "-", ".", "_", "~" (RFC 7636)', value: '"short"' }),
    ...notCaller,
  }),
  produced('exchangeAuthCodeForAPIKey', 403, 'no code matches', anonymous, (sdk) => sdk.oAuth.exchangeAuthCodeForAPIKey({ requestBody: { code: 'no-such-code' } }), {
    message: 'Invalid code: no authorization code matches it',
    metadata: { reason: 'unknown_code' },
    ...notCaller,
  }),
  overridden('exchangeAuthCodeForAPIKey', 500),
  overridden('listOauthJwks', 500),
  ...PRESET_ERROR_CASES(),
  ...BUDGET_ERROR_CASES(),
  ...MEMBER_ERROR_CASES(),
  ...GUARDRAIL_ERROR_CASES(),

  // GET /activity (decisions/0053)
  produced('getUserActivity', 400, 'the date is outside the last 30 completed days', asManagement, (sdk) => sdk.analytics.getUserActivity({ date: '2001-01-01' }), {
    metadata: { parameter: 'date', reason: 'must be one of the last 30 completed UTC days', value: '2001-01-01' },
  }),
  ...unauthorized('getUserActivity', (sdk) => sdk.analytics.getUserActivity()),
  produced('getUserActivity', 403, 'the key is a regular key', asRegular, (sdk) => sdk.analytics.getUserActivity()),
  produced('getUserActivity', 404, "workspaceId is another organisation's workspace", asManagement, (sdk) => sdk.analytics.getUserActivity({ workspaceId: world.otherTenant.workspaceId }), { metadata: { resource: 'workspace' } }),
  overridden('getUserActivity', 500),
  ...unauthorized('getAnalyticsMeta', (sdk) => sdk.analytics.getAnalyticsMeta()),
  produced('getAnalyticsMeta', 403, 'the key is a regular key', asRegular, (sdk) => sdk.analytics.getAnalyticsMeta()),
  overridden('getAnalyticsMeta', 500),
  produced('queryAnalytics', 400, 'a metric is unknown', asManagement, (sdk) => sdk.analytics.queryAnalytics({ requestBody: { metrics: ['spend'] } }), bodyField({
    parameter: 'metrics[0]',
    reason: 'must be a metric: one of request_count, usage, byok_usage, prompt_tokens, completion_tokens, reasoning_tokens, total_tokens',
    value: '"spend"',
  })),
  ...unauthorized('queryAnalytics', VALID_CALL.queryAnalytics),
  produced('queryAnalytics', 403, 'the key is a regular key', asRegular, VALID_CALL.queryAnalytics),
  // A query of daily rows in memory never runs out of time.
  overridden('queryAnalytics', 408),
  overridden('queryAnalytics', 500),

  // GET /generation/content, POST /generation/feedback (decisions/0053)
  ...unauthorized('listGenerationContent', VALID_CALL.listGenerationContent),
  produced('listGenerationContent', 404, 'no generation has the id', asRegular, VALID_CALL.listGenerationContent, { metadata: { resource: 'generation' } }),
  overridden('listGenerationContent', 403),
  overridden('listGenerationContent', 429),
  overridden('listGenerationContent', 500),
  overridden('listGenerationContent', 502),
  produced('submitGenerationFeedback', 400, 'the category is unknown', asManagement, (sdk) => sdk.generations.submitFeedback({ submitGenerationFeedbackRequest: { generationId: 'gen-0-none', category: 'rude' as 'other' } }), bodyField({
    parameter: 'category',
    reason: 'must be one of latency, incoherence, incorrect_response, formatting, billing, api_error, other',
    value: '"rude"',
  })),
  ...unauthorized('submitGenerationFeedback', VALID_CALL.submitGenerationFeedback),
  produced('submitGenerationFeedback', 404, 'no generation has the id', asManagement, VALID_CALL.submitGenerationFeedback, { metadata: { resource: 'generation' } }),
  overridden('submitGenerationFeedback', 429),
  overridden('submitGenerationFeedback', 500),

  // GET /models/user, GET /endpoints/zdr (decisions/0053)
  // The method takes its bearer as an argument, not from the client's apiKey.
  produced('listModelsUser', 401, 'the bearer secret matches no key', anonymous, (sdk) => sdk.models.listForUser({ bearer: UNKNOWN_SECRET }), { message: AUTH_MESSAGES.unknown, metadata: { reason: 'unknown' }, ...notCaller }),
  overridden('listModelsUser', 403),
  overridden('listModelsUser', 404),
  overridden('listModelsUser', 500),
  overridden('listEndpointsZdr', 403),
  overridden('listEndpointsZdr', 500),
  ...BYOK_ERROR_CASES(),
]

describe('declared error statuses arrive as the SDK typed errors', () => {
  it('covers every (operation, status) pair the SDK declares a typed error for', () => {
    const covered = new Set(ERROR_CASES.map((c) => `${c.operation} ${c.status}`))
    const declared = Object.entries(DECLARED).flatMap(([operation, statuses]) => statuses.map((status) => `${operation} ${status}`))

    expect([...covered].sort()).toEqual([...declared].sort())
  })

  it.each(ERROR_CASES)('$name', async (errorCase) => {
    const { operation, status } = errorCase
    if (errorCase.overridden) {
      server.use(
        http.all(ROUTE[operation], () =>
          toResponse({
            status,
            headers: { 'content-type': 'application/json', ...(status === 429 ? { 'retry-after': '7' } : {}) },
            type: 'json',
            body: errorEnvelope(status),
          }),
        ),
      )
    }

    const error = await failureOf(errorCase.call(client(errorCase.secret())))

    expect(error).toBeInstanceOf(ERROR_CLASSES[status].type)
    expect(error).toBeInstanceOf(OpenRouterError)
    const typed = error as OpenRouterError & {
      data$: { error: { code: number; message: string; metadata?: Record<string, unknown> | null }; userId?: string | null }
    }
    expect(typed.name).toBe(ERROR_CLASSES[status].name)
    expect(typed.statusCode).toBe(status)
    expect(typed.message).toBe(errorCase.message)
    expect(typed.data$.error.code).toBe(status)
    expect(typed.data$.error.message).toBe(errorCase.message)
    if (errorCase.metadata !== undefined) expect(typed.data$.error.metadata).toEqual(errorCase.metadata)
    expect(typed.data$.userId).toBe(errorCase.identifiesCaller ? (errorCase.caller?.() ?? world.userId) : undefined)
    expect(typed.contentType).toBe('application/json')
    if (status === 429) expect(typed.headers.get('retry-after')).toBe('7')
  })

  it('surfaces the 403 of a regular key on a file download with the canonical message and the caller', async () => {
    const error = await failureOf(client(world.apiKey).files.download({ fileId: world.files.report }))

    expect(error).toBeInstanceOf(ForbiddenResponseError)
    const { data$ } = error as ForbiddenResponseError
    expect(data$.error).toEqual({ code: 403, message: 'Only management keys can perform this operation' })
    expect(data$.userId).toBe(world.userId)
  })
})

describe('the token exchange answers its declared statuses as OAuthErrorResponse (RFC 6749)', () => {
  const exchange = (sdk: Sdk) =>
    sdk.oAuth.createOauthToken({
      tokenExchangeRequest: { federationPolicyId: 'policy_1', grantType: 'urn:ietf:params:oauth:grant-type:token-exchange', subjectToken: 'eyJ.e30.sig', subjectTokenType: 'urn:ietf:params:oauth:token-type:jwt' },
    })
  it.each([
    [400, undefined, 'invalid_grant'],
    [429, 429, 'temporarily_unavailable'],
    [500, 500, 'server_error'],
    [503, 503, 'temporarily_unavailable'],
  ] as const)('%i, as error %s', async (status, fault, code) => {
    if (fault !== undefined) sim.faults.add({ operation: 'createOauthToken', respond: { status: fault } })
    const error = await failureOf(exchange(client()))
    expect(error).toBeInstanceOf(OAuthErrorResponse)
    expect(error).toMatchObject({ statusCode: status, error: code, errorDescription: expect.any(String) })
  })
})

describe('statuses the SDK declares no class for still reach the caller', () => {
  const undeclared: { name: string; status: number; secret: () => string | undefined; call: (sdk: Sdk) => Promise<unknown>; message: string }[] = [
    { name: 'sdk.apiKeys.list answers 403 to a regular key', status: 403, secret: asRegular, call: (sdk) => sdk.apiKeys.list(), message: ERROR_MESSAGES[403] },
    { name: 'sdk.apiKeys.get answers 403 to a regular key', status: 403, secret: asRegular, call: (sdk) => sdk.apiKeys.get({ hash: world.apiKeyHash }), message: ERROR_MESSAGES[403] },
    { name: 'sdk.workspaces.get answers 403 to a regular key', status: 403, secret: asRegular, call: (sdk) => sdk.workspaces.get({ id: 'default' }), message: ERROR_MESSAGES[403] },
    { name: 'sdk.endpoints.list answers 401 to an unknown key', status: 401, secret: withUnknownKey, call: (sdk) => sdk.endpoints.list({ author: 'anthropic', slug: 'claude-sonnet-4.5' }), message: AUTH_MESSAGES.unknown },
    { name: 'sdk.videoGeneration.listVideosModels answers 401 to a disabled key', status: 401, secret: withDisabledKey, call: (sdk) => sdk.videoGeneration.listVideosModels(), message: AUTH_MESSAGES.disabled },
    { name: 'sdk.workspaces.list answers 403 to a regular key', status: 403, secret: asRegular, call: (sdk) => sdk.workspaces.list(), message: ERROR_MESSAGES[403] },
    { name: 'sdk.workspaces.list answers 400 to a limit above 100', status: 400, secret: asManagement, call: (sdk) => sdk.workspaces.list({ limit: 101 }), message: ERROR_MESSAGES[400] },
    { name: 'sdk.workspaces.list answers 400 to a negative offset', status: 400, secret: asManagement, call: (sdk) => sdk.workspaces.list({ offset: -1 }), message: ERROR_MESSAGES[400] },
  ]

  it.each(undeclared)('$name as OpenRouterDefaultError carrying the envelope', async ({ status, secret, call, message }) => {
    const error = await failureOf(call(client(secret())))

    expect(error).toBeInstanceOf(OpenRouterDefaultError)
    const fallback = error as OpenRouterDefaultError
    expect(fallback.statusCode).toBe(status)
    expect(JSON.parse(fallback.body)).toMatchObject({ error: { code: status, message } })
  })
})
