// An option given as `undefined` behaves exactly as if it were left out: same result, same state, no
// error. A caller without `exactOptionalPropertyTypes` writes `sim.keys.create({ userId, limit:
// opts.limit })` and passes `limit: undefined` whenever its own option is unset; a spread over the
// defaults, an `'x' in options` test or a validator that reads `undefined` as a value turns that
// into a refusal, or into a record that differs from the one made without the field
// (`sim.users.create({ defaultWorkspace: { name: undefined } })` was refused that way).
//
// The table names each public API that takes an options object and the runtime set of field names
// the API checks its options against (the same set that refuses a misspelt field), so that a field
// added later is covered here without an edit. For each optional field, the call with the minimal
// arguments and the same call plus `{ [field]: undefined }` must give deep-equal results (strictly:
// a stored or returned `field: undefined` counts as a difference) and leave deep-equal state, read
// from `exportWorld()` or what the API changes; so must the call with every optional field
// undefined at once. Update-style calls start from records whose every field has a value other than
// its default, so that `undefined` meaning anything but "unchanged" shows.
//
// The public entry points (createHandlers, startServer, createSimTest) keep their sets private, as
// must generateWorld's in src/fixtures: an export there would be public API. Their fields are read
// off the refusal of an unknown field, which lists the known ones. Not here: the live-service tools
// (src/live: they need a network service), and the fixtures' overrides, where `undefined` drops a
// field on purpose (test/fixtures).
import fc from 'fast-check'
import { getResponse } from 'msw'
import { type TestAPI, describe, expect, it } from 'vitest'
import {
  apiKey,
  byokKey,
  catalogModel,
  chatChunk,
  chatCompletion,
  createdKey,
  credits,
  currentKey,
  endpoint,
  generation,
  guardrail,
  member,
  modelWithEndpoints,
  preset,
  pricing,
  pricingOverride,
  provider,
  requestContext,
  videoModel,
  workspace,
  workspaceBudget,
  workspaceList,
  world,
} from '../../src/arbitraries/index.js'
import { API_KEY_CONSTRAINT_NAMES } from '../../src/arbitraries/api-key.js'
import { BYOK_CONSTRAINT_NAMES } from '../../src/arbitraries/byok-key.js'
import { CATALOG_MODEL_CONSTRAINT_NAMES } from '../../src/arbitraries/catalog-model.js'
import { CHUNK_CONSTRAINT_NAMES, COMPLETION_CONSTRAINT_NAMES, GENERATION_CONSTRAINT_NAMES } from '../../src/arbitraries/chat.js'
import { CREDITS_CONSTRAINT_NAMES } from '../../src/arbitraries/credits.js'
import { CREATED_KEY_CONSTRAINT_NAMES, CURRENT_KEY_CONSTRAINT_NAMES } from '../../src/arbitraries/current-key.js'
import { ENDPOINT_CONSTRAINT_NAMES } from '../../src/arbitraries/endpoint.js'
import { GUARDRAIL_CONSTRAINT_NAMES } from '../../src/arbitraries/guardrail.js'
import { MEMBER_CONSTRAINT_NAMES } from '../../src/arbitraries/member.js'
import { MODEL_WITH_ENDPOINTS_CONSTRAINT_NAMES } from '../../src/arbitraries/model-with-endpoints.js'
import { PRESET_CONSTRAINT_NAMES } from '../../src/arbitraries/preset.js'
import { PRICING_OVERRIDE_CONSTRAINT_NAMES } from '../../src/arbitraries/pricing-override.js'
import { PRICING_CONSTRAINT_NAMES } from '../../src/arbitraries/pricing.js'
import { PROVIDER_CONSTRAINT_NAMES } from '../../src/arbitraries/provider.js'
import { REQUEST_CONTEXT_CONSTRAINT_NAMES } from '../../src/arbitraries/request-context.js'
import { VIDEO_MODEL_CONSTRAINT_NAMES } from '../../src/arbitraries/video-model.js'
import { BUDGET_CONSTRAINT_NAMES } from '../../src/arbitraries/workspace-budget.js'
import { WORKSPACE_CONSTRAINT_NAMES, WORKSPACE_LIST_CONSTRAINT_NAMES } from '../../src/arbitraries/workspace.js'
import { WORLD_CONSTRAINT_NAMES } from '../../src/arbitraries/world.js'
import { FAULT_RULE_FIELDS, LATENCY_RULE_FIELDS, PRESET_FIELDS, RESPONSE_FIELDS, SERVICE_UNAVAILABLE_FIELDS } from '../../src/core/faults.js'
import { PRESET_CONFIG_FIELDS } from '../../src/core/inference/presets.js'
import {
  ERROR_FIELDS as RESPONDER_ERROR_FIELDS,
  MATCH_FIELDS as RESPONDER_MATCH_FIELDS,
  REPLY_FIELDS as RESPONDER_REPLY_FIELDS,
  RULE_FIELDS as RESPONDER_RULE_FIELDS,
  TOOL_CALL_FIELDS as RESPONDER_TOOL_CALL_FIELDS,
  USAGE_FIELDS as RESPONDER_USAGE_FIELDS,
} from '../../src/core/inference/responders.js'
import { JOURNAL_FILTER_FIELDS } from '../../src/core/journal.js'
import { USAGE_FIELDS as COST_USAGE_FIELDS } from '../../src/core/pricing/cost.js'
import { REPLY_OPTION_FIELDS, SIMULATOR_OPTION_FIELDS } from '../../src/core/simulator.js'
import { ACTIVITY_ENTRY_FIELDS } from '../../src/core/store/activity.js'
import { SET_FIELDS as BUDGET_SET_FIELDS } from '../../src/core/store/budgets.js'
import { CREATE_FIELDS as BYOK_CREATE_FIELDS, UPDATE_FIELDS as BYOK_UPDATE_FIELDS } from '../../src/core/store/byok.js'
import { FILE_FIELDS } from '../../src/core/store/files.js'
import { CREATE_OPTIONS as GUARDRAIL_CREATE_OPTIONS, GUARDRAIL_BOOLEANS, GUARDRAIL_UPDATE_FIELDS } from '../../src/core/store/guardrails.js'
import { LOAD_FIELDS as KEY_LOAD_FIELDS } from '../../src/core/store/key-records.js'
import { KEY_FIELDS, UPDATABLE as KEY_UPDATE_FIELDS, USAGE_FIELDS as KEY_USAGE_FIELDS } from '../../src/core/store/keys.js'
import { CREATE_FIELDS as MEMBER_FIELDS, WORKSPACE_FIELDS as MEMBER_WORKSPACE_FIELDS } from '../../src/core/store/members.js'
import { ARCHITECTURE_FIELDS, ENDPOINT_FIELDS, MODEL_FIELDS, WORKLOAD_FIELDS } from '../../src/core/store/models.js'
import { CODE_FIELDS as OAUTH_CODE_FIELDS } from '../../src/core/store/oauth.js'
import { CREATE_FIELDS as PRESET_FIELDS_OF_CREATE, UPDATE_FIELDS as PRESET_UPDATE_FIELDS } from '../../src/core/store/presets.js'
import { USAGE_FIELDS as RECORD_USAGE_FIELDS } from '../../src/core/store/usage.js'
import { CREDIT_FIELDS, USER_FIELDS } from '../../src/core/store/users.js'
import { UPSCALE_FIELDS, VIDEO_MODEL_FIELDS } from '../../src/core/store/video-models.js'
import { DEFAULT_WORKSPACE_FIELDS, DELETE_FIELDS as WORKSPACE_DELETE_FIELDS, UPDATABLE as WORKSPACE_UPDATE_FIELDS, WORKSPACE_FIELDS } from '../../src/core/store/workspaces.js'
import { FILE_FIELDS as WORLD_FILE_FIELDS, SPEC_FIELDS, USAGE_RECORD_FIELDS, WORLD_KEY_FIELDS } from '../../src/core/worlds/spec.js'
import { generateWorld } from '../../src/fixtures/index.js'
import { type Pricing, type SimResponse, type Simulator, WORLD_FORMAT, createSimulator, estimateCost, validateWorld } from '../../src/index.js'
import { createHandlers } from '../../src/msw/index.js'
import { startServer } from '../../src/server/index.js'
import { type SimTestContext, createSimTest } from '../../src/vitest/index.js'
import { simulatorErrorOf } from '../support/server.js'

type Options = Record<string, unknown>
// biome-ignore lint/suspicious/noExplicitAny: every world's simulator, called with loose options.
type Sim = Simulator<any>

/** What one call did: its result or its error, and the state it left. */
interface Observation {
  result?: unknown
  error?: string
  state?: unknown
}

/** One API: the field set it checks its options against, which of them the minimal call gives, and how to call it with more. */
interface Row {
  api: string
  fields: Iterable<string>
  /** Fields the minimal call gives (required ones, or ones the call needs set): not tested. */
  required?: readonly string[]
  /** Runs the minimal call with `extra` merged where the fields belong, in a fresh simulator, and reads what it did. */
  observe(extra: Options): Observation | Promise<Observation>
}

/** A field name no options object has, for reading the known fields off the refusal it gets. */
const PROBE = 'zzNotAnOption'

/** The known fields an unknown-field refusal lists (`... (known fields: a, b, c).`). */
function listedFields(error: unknown): string[] {
  const message = error instanceof Error ? error.message : String(error)
  const listed = /\(known fields: ([^)]*)\)/.exec(message)?.[1]
  if (listed === undefined || !message.includes(PROBE)) throw new Error(`expected a refusal of "${PROBE}" that lists the known fields, got: ${message}`)
  return listed.split(', ')
}

const messageOf = (error: unknown): string => (error instanceof Error ? `${error.name}: ${error.message}` : String(error))

async function observed(call: () => unknown, state: () => unknown): Promise<Observation> {
  let result: unknown
  try {
    result = await call()
  } catch (error) {
    return { error: messageOf(error), state: state() }
  }
  return { result, state: state() }
}

// ---- a small world every store call starts from ----------------------------------------------------

const CHAT_MODEL = 'acme/chat-1'
const EMBED_MODEL = 'acme/embed-1'
const PRICES: Pricing = { prompt: '0.000001', completion: '0.000002' }

interface Acme {
  userId: string
  defaultWorkspaceId: string
  labId: string
  key: string
  keyHash: string
  managementKey: string
}

const emptySim = (): Sim => createSimulator({ seed: 1, world: 'empty' })

/** An organisation with a second workspace, a regular and a management key, a chat model and an embeddings model. */
function acme(sim: Sim): Acme {
  const user = sim.users.create({ id: 'user_acme', name: 'Acme', credits: { total: 100 } })
  const lab = sim.workspaces.create({ userId: user.id, name: 'Lab' })
  const key = sim.keys.create({ userId: user.id, name: 'Backend' })
  const management = sim.keys.create({ userId: user.id, management: true })
  sim.models.create({ id: CHAT_MODEL, endpoints: [{ provider_name: 'Alpha', pricing: PRICES, supported_parameters: ['max_tokens', 'temperature', 'tools', 'tool_choice'] }] })
  sim.models.create({ id: EMBED_MODEL, architecture: { input_modalities: ['text'], output_modalities: ['embeddings'] }, endpoints: [{ provider_name: 'Alpha', pricing: PRICES }] })
  return { userId: user.id, defaultWorkspaceId: user.defaultWorkspaceId as string, labId: lab.id, key: key.key, keyHash: key.record.hash, managementKey: management.key }
}

/** A response as plain data. */
function plain(response: SimResponse): unknown {
  return { status: response.status, type: response.type, delayMs: response.delayMs, headers: response.headers, body: response.body }
}

const TOOLS = [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } } }]

/** Requests a fault, latency or responder rule may change the answers to, and what the simulator's controls then say. */
function answers(sim: Sim, org: Acme): unknown {
  const send = (method: string, path: string, body?: object): unknown => plain(sim.handle({ method, path, authorization: `Bearer ${org.key}`, ...(body !== undefined && { body: JSON.stringify(body) }) }))
  const messages = [{ role: 'user', content: 'hello' }]
  return {
    answers: [
      send('GET', '/videos/models'),
      send('GET', '/videos/models'),
      send('POST', '/chat/completions', { model: CHAT_MODEL, messages }),
      send('POST', '/chat/completions', { model: CHAT_MODEL, messages, tools: TOOLS }),
      send('POST', '/chat/completions', { model: CHAT_MODEL, messages, stream: true }),
      send('POST', '/embeddings', { model: EMBED_MODEL, input: 'hello' }),
    ],
    faults: sim.faults.list().map((f) => ({ name: f.name, matched: f.matched, fired: f.fired })),
    responders: sim.inference.responders.list(),
    journal: sim.journal.list(),
    now: sim.clock.now().toISOString(),
  }
}

/**
 * A row of a store call: `call` runs in an empty simulator with {@link acme} in it, after `setup`
 * (which makes what an update changes, and returns what the call needs); the state read after is
 * the world the simulator exports, and `state` when given.
 */
function storeRow<T = undefined>(
  api: string,
  fields: Iterable<string>,
  required: readonly string[],
  call: (sim: Sim, org: Acme, extra: Options, made: T) => unknown,
  more: { setup?: (sim: Sim, org: Acme) => T; state?: (sim: Sim, org: Acme) => unknown } = {},
): Row {
  return {
    api,
    fields,
    required,
    observe: (extra) => {
      const sim = emptySim()
      const org = acme(sim)
      const made = more.setup?.(sim, org) as T
      return observed(
        () => call(sim, org, extra, made),
        () => ({ world: sim.exportWorld(), ...(more.state && { more: more.state(sim, org) }) }),
      )
    },
  }
}

/** A row of a rule the simulator's controls keep: read through the answers to requests after it. */
function controlRow(api: string, fields: Iterable<string>, required: readonly string[], call: (sim: Sim, org: Acme, extra: Options) => unknown): Row {
  return {
    api,
    fields,
    required,
    observe: (extra) => {
      const sim = emptySim()
      const org = acme(sim)
      return observed(
        () => {
          const made = call(sim, org, extra) as { name?: unknown } | undefined
          // A fault is a live view: what it says is its name (its counts are read after the requests).
          return made !== undefined && typeof made === 'object' && 'remove' in made ? { name: made.name } : made
        },
        () => answers(sim, org),
      )
    },
  }
}

/** What a simulator is, as far as its options decide it. */
function simulatorSummary(sim: Sim): unknown {
  const world = sim.world as { managementKey?: string; apiKey?: string; models?: { paid?: string } }
  const send = (method: string, path: string, key: string | undefined, body?: object): unknown =>
    plain(sim.handle({ method, path, ...(key !== undefined && { authorization: `Bearer ${key}` }), ...(body !== undefined && { body: JSON.stringify(body) }) }))
  const model = world.models?.paid
  const chats =
    model === undefined
      ? []
      : [
          // A field no client sends (refused only with strictRequests), and tools (what `replies` decides).
          send('POST', '/chat/completions', world.apiKey, { model, messages: [{ role: 'user', content: 'hi' }], temprature: 1 }),
          send('POST', '/chat/completions', world.apiKey, { model, messages: [{ role: 'user', content: 'look it up' }], tools: TOOLS }),
        ]
  const responses = [send('GET', '/keys', world.managementKey), send('GET', '/keys', world.managementKey), ...chats]
  return { seed: sim.seed, world: sim.world, now: sim.clock.now().toISOString(), answers: responses, journal: sim.journal.list(), bytes: sim.journal.bytes(), exported: sim.exportWorld() }
}

/** A row of a world spec: loaded by createSimulator, and checked by validateWorld. */
function worldRow(api: string, fields: Iterable<string>, required: readonly string[], spec: (extra: Options) => object): Row {
  return {
    api,
    fields,
    required,
    observe: (extra) => {
      const given = { format: WORLD_FORMAT, ...spec(extra) }
      let sim: Sim | undefined
      return observed(
        () => {
          sim = createSimulator({ seed: 1, world: given as never })
          return validateWorld(given)
        },
        () => sim && { world: sim.world, now: sim.clock.now().toISOString(), exported: sim.exportWorld() },
      )
    },
  }
}

/** A row of a fast-check arbitrary: the same 20 values from the same seed. */
function arbitraryRow(api: string, fields: Iterable<string>, make: (constraints: Options) => fc.Arbitrary<unknown>): Row {
  return { api, fields, observe: (extra) => observed(() => fc.sample(make(extra), { seed: 7, numRuns: 20 }), () => undefined) }
}

// ---- the table --------------------------------------------------------------------------------------

const SIMULATOR_REPLY = 'createSimulator replies'
const USER = 'user_acme'
const WORLD_USER = { id: USER, name: 'Acme' }
const LATER = '2026-03-01T09:00:00.000Z'

const rows: Row[] = [
  // The simulator and its world.
  { api: 'createSimulator', fields: SIMULATOR_OPTION_FIELDS, observe: (extra) => observed(() => simulatorSummary(createSimulator(extra as never)), () => undefined) },
  { api: SIMULATOR_REPLY, fields: REPLY_OPTION_FIELDS, observe: (extra) => observed(() => simulatorSummary(createSimulator({ replies: extra } as never)), () => undefined) },
  worldRow('createSimulator({ world }) spec', SPEC_FIELDS, ['format'], (extra) => extra),
  worldRow('world spec users[0]', USER_FIELDS, ['id'], (extra) => ({ users: [{ id: USER, ...extra }] })),
  worldRow('world spec workspaces[0]', WORKSPACE_FIELDS, ['userId', 'name', 'id'], (extra) => ({ users: [WORLD_USER], workspaces: [{ userId: USER, name: 'Lab', id: '5d0c8a5e-3b0e-4c9a-9f1e-2a7b6c5d4e3f', ...extra }] })),
  worldRow('world spec keys[0]', WORLD_KEY_FIELDS, ['userId', 'secret'], (extra) => ({ users: [WORLD_USER], keys: [{ userId: USER, secret: 'sk-or-v1-world-key-1', ...extra }] })),
  worldRow('world spec keys[0].usage[0]', USAGE_RECORD_FIELDS, ['at', 'cost'], (extra) => ({ now: LATER, users: [WORLD_USER], keys: [{ userId: USER, secret: 'sk-or-v1-world-key-1', usage: [{ at: '2026-03-01T08:00:00.000Z', cost: 0.25, ...extra }] }] })),
  worldRow('world spec files[0]', WORLD_FILE_FIELDS, ['userId', 'origin', 'text'], (extra) => ({ users: [WORLD_USER], files: [{ userId: USER, origin: 'server', text: 'hello', ...extra }] })),

  // The store.
  storeRow('sim.users.create', USER_FIELDS, [], (sim, _, extra) => sim.users.create(extra as never)),
  storeRow('sim.users.create defaultWorkspace', DEFAULT_WORKSPACE_FIELDS, [], (sim, _, extra) => sim.users.create({ defaultWorkspace: extra } as never)),
  storeRow('sim.users.create credits', CREDIT_FIELDS, [], (sim, _, extra) => sim.users.create({ credits: extra } as never)),
  storeRow('sim.workspaces.create', WORKSPACE_FIELDS, ['userId', 'name'], (sim, org, extra) => sim.workspaces.create({ userId: org.userId, name: 'Research', ...extra } as never)),
  storeRow(
    'sim.workspaces.update',
    WORKSPACE_UPDATE_FIELDS,
    [],
    (sim, org, extra) => sim.workspaces.update({ userId: org.userId, slug: 'ops' }, extra as never),
    {
      setup: (sim, org) => {
        sim.workspaces.create({
          userId: org.userId,
          name: 'Ops',
          slug: 'ops',
          description: 'Operations',
          defaultTextModel: CHAT_MODEL,
          defaultImageModel: 'acme/image-1',
          defaultProviderSort: 'price',
          includeByokInBudgets: true,
          ioLoggingApiKeyIds: [1, 2],
          ioLoggingSamplingRate: 0.5,
          isDataDiscountLoggingEnabled: false,
          isObservabilityBroadcastEnabled: true,
          isObservabilityIoLoggingEnabled: true,
        })
        sim.clock.advance(60_000)
      },
    },
  ),
  storeRow('sim.workspaces.delete', WORKSPACE_DELETE_FIELDS, [], (sim, org, extra) => sim.workspaces.delete(org.labId, extra as never)),
  storeRow('sim.keys.create', KEY_FIELDS, ['userId'], (sim, org, extra) => sim.keys.create({ userId: org.userId, ...extra } as never)),
  storeRow('sim.keys.create usage', KEY_USAGE_FIELDS, [], (sim, org, extra) => sim.keys.create({ userId: org.userId, usage: extra } as never)),
  storeRow('sim.keys.create byokUsage', KEY_USAGE_FIELDS, [], (sim, org, extra) => sim.keys.create({ userId: org.userId, byokUsage: extra } as never)),
  storeRow<string>('sim.keys.update', KEY_UPDATE_FIELDS, [], (sim, _, extra, hash) => sim.keys.update(hash, extra as never), {
    setup: (sim, org) => {
      const { record } = sim.keys.create({
        userId: org.userId,
        name: 'Old name',
        disabled: true,
        limit: 5,
        limitReset: 'daily',
        includeByokInLimit: true,
        expiresAt: '2027-01-01T00:00:00Z',
        rateLimit: { requests: 5, intervalMs: 1000 },
      })
      sim.clock.advance(60_000)
      return record.hash
    },
  }),
  storeRow<object>('sim.keys.load', KEY_LOAD_FIELDS, ['userId'], (sim, org, extra, record) => sim.keys.load(record as never, { userId: org.userId, ...extra } as never), {
    setup: (sim, org) => {
      const { record } = sim.keys.create({ userId: org.userId, name: 'Imported', limit: 3 })
      sim.keys.delete(record.hash)
      return record
    },
  }),
  storeRow('sim.models.create', MODEL_FIELDS, ['id'], (sim, _, extra) => sim.models.create({ id: 'acme/new-1', ...extra } as never)),
  storeRow('sim.models.create architecture', ARCHITECTURE_FIELDS, [], (sim, _, extra) => sim.models.create({ id: 'acme/new-1', architecture: extra } as never)),
  storeRow('sim.models.create endpoints[0]', ENDPOINT_FIELDS, [], (sim, _, extra) => sim.models.create({ id: 'acme/new-1', endpoints: [extra] } as never)),
  storeRow('sim.models.create endpoints[0].perf_last_30m_by_workload.text_generation', WORKLOAD_FIELDS, [], (sim, _, extra) =>
    sim.models.create({ id: 'acme/new-1', endpoints: [{ perf_last_30m_by_workload: { text_generation: extra } }] } as never),
  ),
  storeRow('sim.videoModels.create', VIDEO_MODEL_FIELDS, ['id'], (sim, _, extra) => sim.videoModels.create({ id: 'acme/clip-1', ...extra } as never)),
  storeRow('sim.videoModels.create upscale_factor', UPSCALE_FIELDS, [], (sim, _, extra) => sim.videoModels.create({ id: 'acme/clip-1', upscale_factor: extra } as never)),
  storeRow('sim.files.create', FILE_FIELDS, ['userId', 'origin', 'bytes'], (sim, org, extra) =>
    sim.files.create({ userId: org.userId, origin: 'server', bytes: new TextEncoder().encode('hello'), ...extra } as never),
  ),
  storeRow('sim.usage.record', RECORD_USAGE_FIELDS, ['keyHash', 'cost'], (sim, org, extra) => sim.usage.record({ keyHash: org.keyHash, cost: 0.5, ...extra } as never)),
  storeRow(
    'sim.activity.record',
    ACTIVITY_ENTRY_FIELDS,
    ['userId', 'date', 'keyHash', 'model', 'provider', 'requests', 'usage', 'promptTokens', 'completionTokens'],
    (sim, org, extra) =>
      sim.activity.record({ userId: org.userId, date: '2026-03-01', keyHash: org.keyHash, model: CHAT_MODEL, provider: 'Alpha', requests: 2, usage: 0.5, promptTokens: 10, completionTokens: 5, ...extra } as never),
  ),
  storeRow('sim.members.add', MEMBER_FIELDS, ['userId'], (sim, org, extra) => sim.members.add({ userId: org.userId, ...extra } as never)),
  storeRow('sim.members.add workspaces[0]', MEMBER_WORKSPACE_FIELDS, ['workspaceId'], (sim, org, extra) =>
    sim.members.add({ userId: org.userId, id: 'user_ada', workspaces: [{ workspaceId: org.labId, ...extra }] } as never),
  ),
  storeRow('sim.guardrails.create', GUARDRAIL_CREATE_OPTIONS, ['userId', 'rules'], (sim, org, extra) => sim.guardrails.create({ userId: org.userId, rules: { name: 'Cheap' }, ...extra } as never)),
  storeRow('sim.guardrails.create rules', GUARDRAIL_UPDATE_FIELDS, ['name'], (sim, org, extra) => sim.guardrails.create({ userId: org.userId, rules: { name: 'Cheap', ...extra } } as never)),
  storeRow<string>('sim.guardrails.update', GUARDRAIL_UPDATE_FIELDS, [], (sim, _, extra, id) => sim.guardrails.update(id, extra as never), {
    setup: (sim, org) => {
      const made = sim.guardrails.create({
        userId: org.userId,
        rules: {
          name: 'Strict',
          description: 'Only Alpha',
          allowed_models: [CHAT_MODEL],
          ignored_models: [EMBED_MODEL],
          allowed_providers: ['Alpha'],
          ignored_providers: [],
          allowed_data_regions: ['europe'],
          content_filters: [{ action: 'block', pattern: 'secret', label: 'Secrets' }],
          content_filter_builtins: [{ action: 'redact', slug: 'email' }],
          ...Object.fromEntries(GUARDRAIL_BOOLEANS.map((name) => [name, true])),
          include_byok_in_budgets: true,
          limit_usd: 5,
          reset_interval: 'daily',
        } as never,
      })
      sim.clock.advance(60_000)
      return made.id
    },
  }),
  storeRow('sim.presets.create', PRESET_FIELDS_OF_CREATE, ['userId', 'slug'], (sim, org, extra) => sim.presets.create({ userId: org.userId, slug: 'writer', ...extra } as never)),
  storeRow('sim.presets.create config', PRESET_CONFIG_FIELDS, [], (sim, org, extra) => sim.presets.create({ userId: org.userId, slug: 'writer', config: extra })),
  storeRow('sim.presets.update', PRESET_UPDATE_FIELDS, [], (sim, org, extra) => sim.presets.update({ userId: org.userId, slug: 'writer' }, extra as never), {
    setup: (sim, org) => {
      sim.presets.create({ userId: org.userId, slug: 'writer', name: 'Writer', description: 'Writes', config: { model: CHAT_MODEL, temperature: 0.5 }, systemPrompt: 'Be brief.' })
      sim.clock.advance(60_000)
    },
  }),
  storeRow('sim.budgets.set', BUDGET_SET_FIELDS, ['workspace', 'interval', 'limitUsd'], (sim, org, extra) => sim.budgets.set({ workspace: org.labId, interval: 'monthly', limitUsd: 50, ...extra } as never)),
  storeRow('sim.budgets.set of a budget already set', BUDGET_SET_FIELDS, ['workspace', 'interval', 'limitUsd'], (sim, org, extra) => sim.budgets.set({ workspace: org.labId, interval: 'monthly', limitUsd: 60, ...extra } as never), {
    setup: (sim, org) => {
      sim.budgets.set({ workspace: org.labId, interval: 'monthly', limitUsd: 50, includeByokInBudgets: true })
      sim.clock.advance(60_000)
    },
  }),
  storeRow('sim.byok.create', BYOK_CREATE_FIELDS, ['userId', 'provider', 'key'], (sim, org, extra) => sim.byok.create({ userId: org.userId, provider: 'openai', key: 'sk-provider-secret-1', ...extra } as never)),
  storeRow<string>('sim.byok.update', BYOK_UPDATE_FIELDS, [], (sim, _, extra, id) => sim.byok.update(id, extra as never), {
    setup: (sim, org) =>
      sim.byok.create({
        userId: org.userId,
        provider: 'openai',
        key: 'sk-provider-secret-1',
        workspace: org.labId,
        name: 'Team key',
        allowedApiKeyHashes: [org.keyHash],
        allowedModels: [CHAT_MODEL],
        allowedUserIds: [org.userId],
        declaredZdr: true,
        disabled: true,
        isByokOnly: true,
        isFallback: true,
        isRequired: true,
        sortOrder: 3,
      }).id,
  }),
  storeRow('sim.oauth.codes.create', OAUTH_CODE_FIELDS, ['userId'], (sim, org, extra) => sim.oauth.codes.create({ userId: org.userId, ...extra } as never), { state: (sim) => sim.oauth.codes.list() }),
  storeRow('sim.journal.list', JOURNAL_FILTER_FIELDS, [], (sim, _, extra) => sim.journal.list(extra as never), { setup: (sim, org) => void answers(sim, org) }),

  // The simulator's controls: faults, latency, responders.
  controlRow('sim.faults.add', FAULT_RULE_FIELDS, ['respond'], (sim, _, extra) => sim.faults.add({ respond: { status: 500 }, ...extra } as never)),
  controlRow('sim.faults.add respond', RESPONSE_FIELDS, ['status'], (sim, _, extra) => sim.faults.add({ respond: { status: 500, ...extra } } as never)),
  controlRow('sim.faults.providerDown', PRESET_FIELDS, [], (sim, _, extra) => sim.faults.providerDown(extra as never)),
  controlRow('sim.faults.internalError', PRESET_FIELDS, [], (sim, _, extra) => sim.faults.internalError(extra as never)),
  controlRow('sim.faults.serviceUnavailable', SERVICE_UNAVAILABLE_FIELDS, [], (sim, _, extra) => sim.faults.serviceUnavailable(extra as never)),
  controlRow('sim.latency.set', LATENCY_RULE_FIELDS, ['ms'], (sim, _, extra) => sim.latency.set({ ms: 250, ...extra } as never)),
  controlRow('sim.inference.respond', RESPONDER_RULE_FIELDS, ['reply'], (sim, _, extra) => sim.inference.respond({ reply: { content: 'Canned.' }, ...extra } as never)),
  controlRow('sim.inference.respond match', RESPONDER_MATCH_FIELDS, [], (sim, _, extra) => sim.inference.respond({ match: extra, reply: { content: 'Canned.' } } as never)),
  controlRow('sim.inference.respond reply', RESPONDER_REPLY_FIELDS, [], (sim, _, extra) => sim.inference.respond({ reply: extra } as never)),
  controlRow('sim.inference.respond error', RESPONDER_ERROR_FIELDS, ['status'], (sim, _, extra) => sim.inference.respond({ error: { status: 502, ...extra } } as never)),
  controlRow('sim.inference.respond reply.toolCalls[0]', RESPONDER_TOOL_CALL_FIELDS, ['name'], (sim, _, extra) => sim.inference.respond({ reply: { toolCalls: [{ name: 'lookup', ...extra }] } } as never)),
  controlRow('sim.inference.respond reply.usage', RESPONDER_USAGE_FIELDS, [], (sim, _, extra) => sim.inference.respond({ reply: { content: 'Canned.', usage: extra } } as never)),
  controlRow('sim.inference.respond reply.usage of an embeddings rule', RESPONDER_USAGE_FIELDS, ['promptTokens'], (sim, _, extra) =>
    sim.inference.respond({ match: { operation: 'createEmbeddings' }, reply: { usage: { promptTokens: 3, ...extra } } } as never),
  ),

  // The pricing engine.
  {
    api: 'estimateCost usage',
    fields: COST_USAGE_FIELDS,
    observe: (extra) => observed(() => estimateCost({ ...PRICES, request: '0.001', image: '0.01', web_search: '0.004' }, extra as never, { at: Date.parse(LATER) }), () => undefined),
  },

  // The fast-check arbitraries.
  arbitraryRow('apiKey', API_KEY_CONSTRAINT_NAMES, (c) => apiKey(c as never)),
  arbitraryRow('byokKey', BYOK_CONSTRAINT_NAMES, (c) => byokKey(c as never)),
  arbitraryRow('catalogModel', CATALOG_MODEL_CONSTRAINT_NAMES, (c) => catalogModel(c as never)),
  arbitraryRow('catalogModel endpoint', ENDPOINT_CONSTRAINT_NAMES, (c) => catalogModel({ endpoint: c } as never)),
  arbitraryRow('chatCompletion', COMPLETION_CONSTRAINT_NAMES, (c) => chatCompletion(c as never)),
  arbitraryRow('chatChunk', CHUNK_CONSTRAINT_NAMES, (c) => chatChunk(c as never)),
  arbitraryRow('generation', GENERATION_CONSTRAINT_NAMES, (c) => generation(c as never)),
  arbitraryRow('credits', CREDITS_CONSTRAINT_NAMES, (c) => credits(c as never)),
  arbitraryRow('createdKey', CREATED_KEY_CONSTRAINT_NAMES, (c) => createdKey(c as never)),
  arbitraryRow('currentKey', CURRENT_KEY_CONSTRAINT_NAMES, (c) => currentKey(c as never)),
  arbitraryRow('endpoint', ENDPOINT_CONSTRAINT_NAMES, (c) => endpoint(c as never)),
  arbitraryRow('endpoint pricing', PRICING_CONSTRAINT_NAMES, (c) => endpoint({ pricing: c } as never)),
  arbitraryRow('guardrail', GUARDRAIL_CONSTRAINT_NAMES, (c) => guardrail(c as never)),
  arbitraryRow('member', MEMBER_CONSTRAINT_NAMES, (c) => member(c as never)),
  arbitraryRow('modelWithEndpoints', MODEL_WITH_ENDPOINTS_CONSTRAINT_NAMES, (c) => modelWithEndpoints(c as never)),
  arbitraryRow('modelWithEndpoints endpoint', ENDPOINT_CONSTRAINT_NAMES, (c) => modelWithEndpoints({ endpoint: c } as never)),
  arbitraryRow('preset', PRESET_CONSTRAINT_NAMES, (c) => preset(c as never)),
  arbitraryRow('pricing', PRICING_CONSTRAINT_NAMES, (c) => pricing(c as never)),
  arbitraryRow('pricingOverride', PRICING_OVERRIDE_CONSTRAINT_NAMES, (c) => pricingOverride(c as never)),
  arbitraryRow('provider', PROVIDER_CONSTRAINT_NAMES, (c) => provider(c as never)),
  arbitraryRow('requestContext', REQUEST_CONTEXT_CONSTRAINT_NAMES, (c) => requestContext(c as never)),
  arbitraryRow('videoModel', VIDEO_MODEL_CONSTRAINT_NAMES, (c) => videoModel(c as never)),
  arbitraryRow('workspace', WORKSPACE_CONSTRAINT_NAMES, (c) => workspace(c as never)),
  arbitraryRow('workspaceBudget', BUDGET_CONSTRAINT_NAMES, (c) => workspaceBudget(c as never)),
  arbitraryRow('workspaceList', WORKSPACE_LIST_CONSTRAINT_NAMES, (c) => workspaceList(c as never)),
  arbitraryRow('world', WORLD_CONSTRAINT_NAMES, (c) => world(c as never)),
]

// ---- the entry points whose sets are private ---------------------------------------------------------

const HANDLERS_FIELDS = listedFields(simulatorErrorOf(() => createHandlers(emptySim(), { [PROBE]: 1 } as never)))
const GENERATE_WORLD_FIELDS = listedFields(simulatorErrorOf(() => generateWorld({ seed: 1, [PROBE]: 1 } as never)))
const SERVER_FIELDS = listedFields(
  await startServer(emptySim(), { port: 0, host: '127.0.0.1', [PROBE]: 1 } as never).then(
    async (server) => {
      await server.close()
      throw new Error('startServer accepted an unknown option')
    },
    (error: unknown) => error,
  ),
)
const SIM_TEST_FIELDS = listedFields(simulatorErrorOf(() => createSimTest({ [PROBE]: 1 } as never)))

rows.push(
  {
    api: 'createHandlers',
    fields: HANDLERS_FIELDS,
    observe: (extra) => {
      const sim = emptySim()
      return observed(async () => {
        const handlers = createHandlers(sim, extra as never)
        const response = await getResponse(handlers, new Request('https://openrouter.ai/api/v1/videos/models'))
        return { paths: handlers.map((h) => String(h.info.path)), status: response?.status, body: await response?.json() }
      }, () => sim.journal.list())
    },
  },
  {
    api: 'generateWorld',
    fields: GENERATE_WORLD_FIELDS,
    required: ['seed'],
    observe: (extra) => observed(() => generateWorld({ seed: 1, ...extra } as never), () => undefined),
  },
  {
    api: 'startServer',
    fields: SERVER_FIELDS,
    // Port 0 (a free one): left out, it would be 4010, which another server may hold.
    required: ['port'],
    observe: (extra) => {
      const sim = emptySim()
      acme(sim)
      return observed(async () => {
        const server = await startServer(sim, { port: 0, ...extra } as never)
        try {
          const page = await fetch(`${server.url}/videos/models`, { headers: { origin: 'http://page.example' } })
          const control = await fetch(`${server.controlUrl}/journal`)
          const port = String(server.port)
          return {
            url: server.url.replace(port, 'PORT'),
            controlUrl: server.controlUrl.replace(port, 'PORT'),
            page: { status: page.status, cors: page.headers.get('access-control-allow-origin'), body: await page.json() },
            control: { status: control.status },
          }
        } finally {
          await server.close()
        }
      }, () => sim.journal.list().map(({ at: _at, ...entry }) => entry))
    },
  },
)

// ---- the tests ----------------------------------------------------------------------------------------

/** The fields of a row its minimal call leaves out: those the tests give as undefined. */
function optionalFields(row: Row): string[] {
  return [...row.fields].filter((field) => !(row.required ?? []).includes(field))
}

describe('an option given as undefined is the same as one left out', () => {
  it('names only fields of the sets in the table as given by the minimal calls', () => {
    for (const row of rows) expect((row.required ?? []).filter((field) => ![...row.fields].includes(field)), row.api).toEqual([])
  })

  for (const row of rows) {
    const optional = optionalFields(row)
    // An API whose options are all required, or which has none (`member`), has nothing to leave out.
    if (optional.length === 0) continue
    describe(row.api, () => {
      it.each(optional)('%s: undefined gives the same result and state as leaving it out', async (field) => {
        const absent = await row.observe({})
        expect(absent.error, 'the minimal call itself must succeed').toBeUndefined()
        expect(await row.observe({ [field]: undefined })).toStrictEqual(absent)
      })

      if (optional.length > 1) {
        it('every optional field undefined at once gives the same result and state as none given', async () => {
          const absent = await row.observe({})
          expect(await row.observe(Object.fromEntries(optional.map((field) => [field, undefined])))).toStrictEqual(absent)
        })
      }
    })
  }
})

describe('createSimTest: an option given as undefined is the same as one left out', () => {
  // Each variant is a test API of its own; its one test records what its simulator is, and the
  // comparisons after it (vitest runs a file's tests in order) compare the records.
  const seen = new Map<string, Observation>()
  const variants: [string, Options][] = [['(none)', {}], ...SIM_TEST_FIELDS.map((field): [string, Options] => [field, { [field]: undefined }]), ['(all)', Object.fromEntries(SIM_TEST_FIELDS.map((f) => [f, undefined]))]]
  for (const [name, options] of variants) {
    let simTest: TestAPI<SimTestContext>
    try {
      simTest = createSimTest(options as never)
    } catch (error) {
      seen.set(name, { error: messageOf(error) })
      continue
    }
    simTest(`runs a test with ${name === '(none)' ? 'no option' : name === '(all)' ? 'every option undefined' : `${name} undefined`}`, async ({ sim }) => {
      const res = await fetch('https://openrouter.ai/api/v1/keys', { headers: { authorization: `Bearer ${sim.world.managementKey}` } })
      seen.set(name, { result: { status: res.status, body: await res.json() }, state: { seed: sim.seed, world: sim.world, now: sim.clock.now().toISOString(), journal: sim.journal.list() } })
    })
  }

  it('the test with no option ran', () => {
    expect(seen.get('(none)')?.error).toBeUndefined()
    expect(seen.get('(none)')?.result).toMatchObject({ status: 200 })
  })

  it.each([...SIM_TEST_FIELDS, '(all)'])('%s: undefined gives a test the same simulator as leaving it out', (name) => {
    expect(seen.get(name)).toStrictEqual(seen.get('(none)'))
  })
})
