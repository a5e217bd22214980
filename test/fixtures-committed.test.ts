// The committed fixtures under fixtures/: current, accepted by the official SDK, and reproducible.
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import {
  BadGatewayResponseError$inboundSchema,
  BadRequestResponseError$inboundSchema,
  ForbiddenResponseError$inboundSchema,
  InternalServerResponseError$inboundSchema,
  NotFoundResponseError$inboundSchema,
  ServiceUnavailableResponseError$inboundSchema,
  TooManyRequestsResponseError$inboundSchema,
  UnauthorizedResponseError$inboundSchema,
} from '@openrouter/sdk/models/errors'
import { ActivityResponse$inboundSchema } from '@openrouter/sdk/models/activityresponse.js'
import { ListEndpointsZdrResponse$inboundSchema } from '@openrouter/sdk/models/operations/listendpointszdr.js'
import { GenerationContentResponse$inboundSchema } from '@openrouter/sdk/models/generationcontentresponse.js'
import { SubmitGenerationFeedbackResponse$inboundSchema } from '@openrouter/sdk/models/submitgenerationfeedbackresponse.js'
import { GetAnalyticsMetaResponse$inboundSchema } from '@openrouter/sdk/models/operations/getanalyticsmeta.js'
import { QueryAnalyticsResponse$inboundSchema } from '@openrouter/sdk/models/operations/queryanalytics.js'
import { GetWorkspaceResponse$inboundSchema } from '@openrouter/sdk/models/getworkspaceresponse.js'
import { DeleteWorkspaceBudgetResponse$inboundSchema } from '@openrouter/sdk/models/deleteworkspacebudgetresponse.js'
import { GetWorkspaceBudgetResponse$inboundSchema } from '@openrouter/sdk/models/getworkspacebudgetresponse.js'
import { ListWorkspaceBudgetsResponse$inboundSchema } from '@openrouter/sdk/models/listworkspacebudgetsresponse.js'
import { UpsertWorkspaceBudgetResponse$inboundSchema } from '@openrouter/sdk/models/upsertworkspacebudgetresponse.js'
import { CreateBYOKKeyResponse$inboundSchema } from '@openrouter/sdk/models/createbyokkeyresponse.js'
import { DeleteBYOKKeyResponse$inboundSchema } from '@openrouter/sdk/models/deletebyokkeyresponse.js'
import { GetBYOKKeyResponse$inboundSchema } from '@openrouter/sdk/models/getbyokkeyresponse.js'
import { UpdateBYOKKeyResponse$inboundSchema } from '@openrouter/sdk/models/updatebyokkeyresponse.js'
import { ListBYOKKeysResponse$inboundSchema } from '@openrouter/sdk/models/listbyokkeysresponse.js'
import { GetKeyResponse$inboundSchema } from '@openrouter/sdk/models/operations/getkey.js'
import { ListResponse$inboundSchema } from '@openrouter/sdk/models/operations/list.js'
import { ListEndpointsResponse$inboundSchema } from '@openrouter/sdk/models/operations/listendpoints.js'
import { VideoModelsListResponse$inboundSchema } from '@openrouter/sdk/models/videomodelslistresponse.js'
import { ModelResponse$inboundSchema } from '@openrouter/sdk/models/modelresponse.js'
import { ModelsCountResponse$inboundSchema } from '@openrouter/sdk/models/modelscountresponse.js'
import { ModelsListResponse$inboundSchema } from '@openrouter/sdk/models/modelslistresponse.js'
import { ListProvidersResponse$inboundSchema } from '@openrouter/sdk/models/operations/listproviders.js'
import { CreateWorkspaceResponse$inboundSchema } from '@openrouter/sdk/models/createworkspaceresponse.js'
import { DeleteWorkspaceResponse$inboundSchema } from '@openrouter/sdk/models/deleteworkspaceresponse.js'
import { ListWorkspacesResponse$inboundSchema } from '@openrouter/sdk/models/listworkspacesresponse.js'
import { UpdateWorkspaceResponse$inboundSchema } from '@openrouter/sdk/models/updateworkspaceresponse.js'
import { ChatResult$inboundSchema } from '@openrouter/sdk/models/chatresult.js'
import { GenerationResponse$inboundSchema } from '@openrouter/sdk/models/generationresponse.js'
import { OpenResponsesResult$inboundSchema } from '@openrouter/sdk/models/openresponsesresult.js'
import { CreateEmbeddingsResponseBody$inboundSchema } from '@openrouter/sdk/models/operations/createembeddings.js'
import { CreateKeysResponse$inboundSchema } from '@openrouter/sdk/models/operations/createkeys.js'
import { DeleteKeysResponse$inboundSchema } from '@openrouter/sdk/models/operations/deletekeys.js'
import { GetCreditsResponse$inboundSchema } from '@openrouter/sdk/models/operations/getcredits.js'
import { GetCurrentKeyResponse$inboundSchema } from '@openrouter/sdk/models/operations/getcurrentkey.js'
import { UpdateKeysResponse$inboundSchema } from '@openrouter/sdk/models/operations/updatekeys.js'
import { CreateAuthKeysCodeResponse$inboundSchema } from '@openrouter/sdk/models/operations/createauthkeyscode.js'
import { ExchangeAuthCodeForAPIKeyResponse$inboundSchema } from '@openrouter/sdk/models/operations/exchangeauthcodeforapikey.js'
import { OAuthJwks$inboundSchema } from '@openrouter/sdk/models/oauthjwks.js'
import { TokenExchangeResponse$inboundSchema } from '@openrouter/sdk/models/tokenexchangeresponse.js'
import { CreatePresetFromInferenceResponse$inboundSchema } from '@openrouter/sdk/models/createpresetfrominferenceresponse.js'
import { GetPresetResponse$inboundSchema } from '@openrouter/sdk/models/getpresetresponse.js'
import { GetPresetVersionResponse$inboundSchema } from '@openrouter/sdk/models/getpresetversionresponse.js'
import { ListPresetsResponse$inboundSchema } from '@openrouter/sdk/models/listpresetsresponse.js'
import { ListPresetVersionsResponse$inboundSchema } from '@openrouter/sdk/models/listpresetversionsresponse.js'
import { ListOrganizationMembersResponseBody$inboundSchema } from '@openrouter/sdk/models/operations/listorganizationmembers.js'
import { ListWorkspaceMembersResponse$inboundSchema } from '@openrouter/sdk/models/listworkspacemembersresponse.js'
import { BulkAddWorkspaceMembersResponse$inboundSchema } from '@openrouter/sdk/models/bulkaddworkspacemembersresponse.js'
import { BulkRemoveWorkspaceMembersResponse$inboundSchema } from '@openrouter/sdk/models/bulkremoveworkspacemembersresponse.js'
import { ListGuardrailsResponse$inboundSchema } from '@openrouter/sdk/models/listguardrailsresponse.js'
import { CreateGuardrailResponse$inboundSchema } from '@openrouter/sdk/models/createguardrailresponse.js'
import { GetGuardrailResponse$inboundSchema } from '@openrouter/sdk/models/getguardrailresponse.js'
import { UpdateGuardrailResponse$inboundSchema } from '@openrouter/sdk/models/updateguardrailresponse.js'
import { DeleteGuardrailResponse$inboundSchema } from '@openrouter/sdk/models/deleteguardrailresponse.js'
import { ListKeyAssignmentsResponse$inboundSchema } from '@openrouter/sdk/models/listkeyassignmentsresponse.js'
import { ListMemberAssignmentsResponse$inboundSchema } from '@openrouter/sdk/models/listmemberassignmentsresponse.js'
import { BulkAssignKeysResponse$inboundSchema } from '@openrouter/sdk/models/bulkassignkeysresponse.js'
import { BulkUnassignKeysResponse$inboundSchema } from '@openrouter/sdk/models/bulkunassignkeysresponse.js'
import { BulkAssignMembersResponse$inboundSchema } from '@openrouter/sdk/models/bulkassignmembersresponse.js'
import { BulkUnassignMembersResponse$inboundSchema } from '@openrouter/sdk/models/bulkunassignmembersresponse.js'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { DEFAULT_WORLD_PATH, type Fixture, HAND_WRITTEN, defaultWorldText, generateFixtures, listFiles } from '../fixtures/generate.js'
import { generateWorld } from '../src/fixtures/index.js'
import { type OperationName, createSimulator } from '../src/index.js'
import { type JsonOperationName, RESPONSE_SHAPES, validateShape } from '../src/core/wire-shapes.js'
import { OPERATIONS, operationOf } from './support/operations.js'

const FIXTURES_DIR = resolve(import.meta.dirname, '..', 'fixtures')
const STALE = 'fixtures/ is stale: run `npm run fixtures` and commit the result'

const handWritten = new Set<string>(HAND_WRITTEN)
const committedPaths = listFiles(FIXTURES_DIR).filter((path) => !handWritten.has(path))
const committedText = (path: string): string => readFileSync(join(FIXTURES_DIR, ...path.split('/')), 'utf8')
const committed: [string, Fixture][] = committedPaths
  .filter((path) => path.endsWith('.json'))
  .map((path) => [path, JSON.parse(committedText(path)) as Fixture])

/** Anything that parses like a zod schema; the SDK's own are zod v4 objects. */
interface Schema {
  safeParse(value: unknown): { success: true } | { success: false; error: unknown }
}



/** The schema the SDK applies to a 200 of each JSON operation (see its funcs/*.js `M.json(200, ...)`). */
/** The simulator's own description of an answer as a Schema, for an operation the SDK does not call. */
const shapeSchema = (operation: JsonOperationName): Schema => ({
  safeParse(value) {
    const problems = validateShape(RESPONSE_SHAPES[operation], value)
    return problems.length === 0 ? { success: true } : { success: false, error: problems.join('; ') }
  },
})

const SUCCESS_SCHEMAS: Record<Exclude<OperationName, 'getFileContent'>, Schema> = {
  listKeys: ListResponse$inboundSchema,
  getKey: GetKeyResponse$inboundSchema,
  listEndpoints: ListEndpointsResponse$inboundSchema,
  getWorkspace: GetWorkspaceResponse$inboundSchema,
  listVideoModels: VideoModelsListResponse$inboundSchema,
  listModels: ModelsListResponse$inboundSchema,
  countModels: ModelsCountResponse$inboundSchema,
  getModel: ModelResponse$inboundSchema,
  listProviders: ListProvidersResponse$inboundSchema,
  listEmbeddingsModels: ModelsListResponse$inboundSchema,
  // The body of GET /workspaces; the SDK's operation wraps it as `Result`.
  listWorkspaces: ListWorkspacesResponse$inboundSchema,
  createWorkspace: CreateWorkspaceResponse$inboundSchema,
  updateWorkspace: UpdateWorkspaceResponse$inboundSchema,
  deleteWorkspace: DeleteWorkspaceResponse$inboundSchema,
  createChatCompletion: ChatResult$inboundSchema,
  getGeneration: GenerationResponse$inboundSchema,
  createResponses: OpenResponsesResult$inboundSchema,
  createKey: CreateKeysResponse$inboundSchema,
  updateKey: UpdateKeysResponse$inboundSchema,
  deleteKey: DeleteKeysResponse$inboundSchema,
  getCurrentKey: GetCurrentKeyResponse$inboundSchema,
  // `GET /auth/key` answers as `GET /key` does; the SDK calls only the latter.
  getCurrentKeyLegacy: GetCurrentKeyResponse$inboundSchema,
  // `POST /completions`: the SDK has no such operation.
  createCompletion: shapeSchema('createCompletion'),
  getCredits: GetCreditsResponse$inboundSchema,
  createEmbeddings: CreateEmbeddingsResponseBody$inboundSchema,
  createAuthKeysCode: CreateAuthKeysCodeResponse$inboundSchema,
  exchangeAuthCodeForAPIKey: ExchangeAuthCodeForAPIKeyResponse$inboundSchema,
  createOauthToken: TokenExchangeResponse$inboundSchema,
  listOauthJwks: OAuthJwks$inboundSchema,
  listPresets: ListPresetsResponse$inboundSchema,
  getPreset: GetPresetResponse$inboundSchema,
  listPresetVersions: ListPresetVersionsResponse$inboundSchema,
  getPresetVersion: GetPresetVersionResponse$inboundSchema,
  createPresetsChatCompletions: CreatePresetFromInferenceResponse$inboundSchema,
  createPresetsResponses: CreatePresetFromInferenceResponse$inboundSchema,
  createPresetsMessages: CreatePresetFromInferenceResponse$inboundSchema,
  listWorkspaceBudgets: ListWorkspaceBudgetsResponse$inboundSchema,
  getWorkspaceBudget: GetWorkspaceBudgetResponse$inboundSchema,
  upsertWorkspaceBudget: UpsertWorkspaceBudgetResponse$inboundSchema,
  deleteWorkspaceBudget: DeleteWorkspaceBudgetResponse$inboundSchema,
  listOrganizationMembers: ListOrganizationMembersResponseBody$inboundSchema,
  listWorkspaceMembers: ListWorkspaceMembersResponse$inboundSchema,
  bulkAddWorkspaceMembers: BulkAddWorkspaceMembersResponse$inboundSchema,
  bulkRemoveWorkspaceMembers: BulkRemoveWorkspaceMembersResponse$inboundSchema,
  listGuardrails: ListGuardrailsResponse$inboundSchema,
  createGuardrail: CreateGuardrailResponse$inboundSchema,
  getGuardrail: GetGuardrailResponse$inboundSchema,
  updateGuardrail: UpdateGuardrailResponse$inboundSchema,
  deleteGuardrail: DeleteGuardrailResponse$inboundSchema,
  listKeyAssignments: ListKeyAssignmentsResponse$inboundSchema,
  listMemberAssignments: ListMemberAssignmentsResponse$inboundSchema,
  listGuardrailKeyAssignments: ListKeyAssignmentsResponse$inboundSchema,
  listGuardrailMemberAssignments: ListMemberAssignmentsResponse$inboundSchema,
  bulkAssignKeysToGuardrail: BulkAssignKeysResponse$inboundSchema,
  bulkUnassignKeysFromGuardrail: BulkUnassignKeysResponse$inboundSchema,
  bulkAssignMembersToGuardrail: BulkAssignMembersResponse$inboundSchema,
  bulkUnassignMembersFromGuardrail: BulkUnassignMembersResponse$inboundSchema,
  getUserActivity: ActivityResponse$inboundSchema,
  getAnalyticsMeta: GetAnalyticsMetaResponse$inboundSchema,
  queryAnalytics: QueryAnalyticsResponse$inboundSchema,
  listGenerationContent: GenerationContentResponse$inboundSchema,
  submitGenerationFeedback: SubmitGenerationFeedbackResponse$inboundSchema,
  // The body of GET /models/user; the SDK's operation wraps it as `Result`.
  listModelsUser: ModelsListResponse$inboundSchema,
  listEndpointsZdr: ListEndpointsZdrResponse$inboundSchema,
  createBYOKKey: CreateBYOKKeyResponse$inboundSchema,
  listBYOKKeys: ListBYOKKeysResponse$inboundSchema,
  getBYOKKey: GetBYOKKeyResponse$inboundSchema,
  updateBYOKKey: UpdateBYOKKeyResponse$inboundSchema,
  deleteBYOKKey: DeleteBYOKKeyResponse$inboundSchema,
}

/** The SDK's typed error for each status the simulator answers with; all share the envelope shape. */
const ERROR_SCHEMAS: Record<number, Schema> = {
  400: BadRequestResponseError$inboundSchema,
  401: UnauthorizedResponseError$inboundSchema,
  403: ForbiddenResponseError$inboundSchema,
  404: NotFoundResponseError$inboundSchema,
  429: TooManyRequestsResponseError$inboundSchema,
  500: InternalServerResponseError$inboundSchema,
  502: BadGatewayResponseError$inboundSchema,
  503: ServiceUnavailableResponseError$inboundSchema,
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** What is wrong with an error body, measured against SDK-COMPAT.md's envelope; empty when nothing. */
function envelopeProblems(status: number, body: unknown): string[] {
  if (!isRecord(body)) return ['the body is not an object']
  const problems: string[] = []
  const extra = Object.keys(body).filter((key) => !['error', 'user_id', 'openrouter_metadata'].includes(key))
  if (extra.length > 0) problems.push(`unexpected top-level keys ${extra.join(', ')}`)
  const { error } = body
  if (!isRecord(error)) return [...problems, '`error` is not an object']
  if (error['code'] !== status) problems.push(`error.code is ${JSON.stringify(error['code'])}, not the status ${status}`)
  if (typeof error['message'] !== 'string' || error['message'] === '') problems.push('error.message is not a non-empty string')
  if ('metadata' in error && error['metadata'] !== null && !isRecord(error['metadata'])) problems.push('error.metadata is not an object or null')
  const errorExtra = Object.keys(error).filter((key) => !['code', 'message', 'metadata'].includes(key))
  if (errorExtra.length > 0) problems.push(`unexpected keys in error: ${errorExtra.join(', ')}`)
  if ('user_id' in body && body['user_id'] !== null && typeof body['user_id'] !== 'string') problems.push('user_id is not a string or null')
  // The SDK builds its typed error from the envelope plus the raw request, response and body text.
  const schema = ERROR_SCHEMAS[status]
  if (schema === undefined) return [...problems, `no SDK error class for status ${status}`]
  const text = JSON.stringify(body)
  const parsed = schema.safeParse({
    ...body,
    request$: new Request('https://openrouter.ai/api/v1/'),
    response$: new Response(text, { status, headers: { 'content-type': 'application/json' } }),
    body$: text,
  })
  if (!parsed.success) problems.push(`the SDK's ${status} error schema rejects it: ${String(parsed.error)}`)
  return problems
}

describe('the embedded default world', () => {
  it('is generateWorld({ seed: 42 }) exactly, as the committed JSON the core loads', () => {
    const committedWorld = readFileSync(resolve(import.meta.dirname, '..', ...DEFAULT_WORLD_PATH.split('/')), 'utf8')
    expect(committedWorld === defaultWorldText(), `${DEFAULT_WORLD_PATH} is stale: run \`npm run fixtures\` and commit the result`).toBe(true)
    expect(createSimulator().world).toEqual(generateWorld({ seed: 42 }).handles)
  })
})

describe('committed fixtures', () => {
  it('are exactly the files the generator produces now, with none missing and none extra', () => {
    const generated = generateFixtures()
    const missing = [...generated.keys()].filter((path) => !committedPaths.includes(path))
    const extra = committedPaths.filter((path) => !generated.has(path))
    const changed = [...generated].filter(([path, text]) => committedPaths.includes(path) && committedText(path) !== text).map(([path]) => path)
    expect({ missing, extra, changed }, STALE).toEqual({ missing: [], extra: [], changed: [] })
  })

  it('are pretty-printed JSON with two-space indentation, the four top-level keys in order and a trailing newline', () => {
    expect(committed.length).toBeGreaterThan(0)
    for (const [path, fixture] of committed) {
      expect(committedText(path), path).toBe(`${JSON.stringify(fixture, null, 2)}\n`)
      expect(Object.keys(fixture), path).toEqual(['request', 'status', 'headers', 'body'])
      expect(Object.keys(fixture.request), path).toEqual(['method', 'path', 'query', 'auth'])
      expect(['management', 'regular', 'anonymous'], path).toContain(fixture.request.auth)
    }
  })

  it('cover a successful response of each of the six operations', () => {
    const succeeded = new Set(committed.filter(([, fixture]) => fixture.status === 200).map(([, fixture]) => operationOf(fixture.request.path)))
    expect([...succeeded].sort()).toEqual(OPERATIONS.map(([name]) => name).sort())
  })

  it('have 200 JSON bodies that parse with the official SDK response schema of their operation', () => {
    const failures: string[] = []
    let checked = 0
    for (const [path, fixture] of committed) {
      const operation = operationOf(fixture.request.path)
      if (fixture.status !== 200 || operation === null || operation === 'getFileContent') continue
      checked += 1
      if (fixture.headers['content-type'] !== 'application/json') failures.push(`${path}: content-type is not application/json`)
      const parsed = SUCCESS_SCHEMAS[operation].safeParse(fixture.body)
      if (!parsed.success) failures.push(`${path}: ${String(parsed.error)}`)
    }
    expect(checked).toBeGreaterThan(0)
    expect(failures).toEqual([])
  })

  it('have file downloads whose base64 bytes are octet-stream with a matching content-length and a filename', () => {
    const downloads = committed.filter(([, fixture]) => fixture.status === 200 && operationOf(fixture.request.path) === 'getFileContent')
    expect(downloads.length).toBeGreaterThan(0)
    for (const [path, fixture] of downloads) {
      const body = fixture.body as { base64?: unknown }
      expect(Object.keys(body), path).toEqual(['base64'])
      expect(typeof body.base64, path).toBe('string')
      const bytes = Buffer.from(body.base64 as string, 'base64')
      expect(bytes.toString('base64'), `${path}: canonical base64`).toBe(body.base64)
      expect(fixture.headers, path).toMatchObject({ 'content-type': 'application/octet-stream', 'content-length': String(bytes.byteLength) })
      expect(fixture.headers['content-disposition'], path).toMatch(/^attachment; filename="[^"]+"/)
    }
  })

  it('have error bodies in the error envelope the SDK-COMPAT notes describe, which the SDK turns into its typed error', () => {
    const errors = committed.filter(([, fixture]) => fixture.status !== 200)
    expect(errors.map(([, fixture]) => fixture.status)).toEqual(expect.arrayContaining([400, 401, 403, 404]))
    const failures: string[] = []
    for (const [path, fixture] of errors) {
      if (fixture.headers['content-type'] !== 'application/json') failures.push(`${path}: content-type is not application/json`)
      for (const problem of envelopeProblems(fixture.status, fixture.body)) failures.push(`${path}: ${problem}`)
    }
    expect(failures).toEqual([])
  })
})

describe('the fixture generator', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('produces byte-identical files on two runs, whatever the machine clock says', () => {
    const first = generateFixtures()
    vi.useFakeTimers({ now: new Date('2031-07-15T23:59:59Z'), toFake: ['Date'] })
    const second = generateFixtures()
    expect([...second.keys()]).toEqual([...first.keys()])
    for (const [path, text] of first) expect(second.get(path), path).toBe(text)
  })
})
