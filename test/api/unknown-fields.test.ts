// Unknown option fields are refused, not dropped (decisions/0005): a typo in a fixture
// (`disabeld: true`) fails loudly instead of making an enabled key. Each entry point of the store,
// and each entity of a world spec, names the field's path and lists the fields it knows.
import { describe, expect, it } from 'vitest'
import { type ApiKey, type Simulator, type WorldSpec, WORLD_FORMAT, createSimulator, validateWorld } from '../../src/index.js'
import { simulatorErrorOf } from '../support/server.js'

// The known fields as each message lists them, written out: a field added to an options type must
// show up here too.
const USER = 'name, id, createdAt, defaultWorkspaceId, defaultWorkspaceGuardrailId, defaultWorkspace, credits'
const WORKSPACE_TAIL =
  'description, defaultTextModel, defaultImageModel, defaultProviderSort, defaultGuardrailId, createdAt, updatedAt, createdBy, ' +
  'includeByokInBudgets, ioLoggingApiKeyIds, ioLoggingSamplingRate, isDataDiscountLoggingEnabled, isObservabilityBroadcastEnabled, isObservabilityIoLoggingEnabled'
const WORKSPACE = `userId, name, slug, id, ${WORKSPACE_TAIL}`
const DEFAULT_WORKSPACE =
  'name, slug, description, defaultTextModel, defaultImageModel, defaultProviderSort, createdAt, updatedAt, createdBy, ' +
  'includeByokInBudgets, ioLoggingApiKeyIds, ioLoggingSamplingRate, isDataDiscountLoggingEnabled, isObservabilityBroadcastEnabled, isObservabilityIoLoggingEnabled'
const KEY_HEAD = 'userId, management, name, workspaceId, disabled, limit, limitReset, expiresAt, includeByokInLimit, createdAt, updatedAt, usage'
const KEY_TAIL = 'secret, hash, rateLimit, label, creatorUserId, externalUser'
const KEY = `${KEY_HEAD}, byokUsage, ${KEY_TAIL}`
const WORLD_KEY = `${KEY_HEAD}, ${KEY_TAIL}`
const KEY_UPDATE = 'name, disabled, limit, limitReset, includeByokInLimit, expiresAt, rateLimit'
const FIGURES = 'total, daily, weekly, monthly'
const LOAD = 'userId, secret, management, rateLimit'
const FILE = 'userId, id, workspaceId, origin, bytes, filename, provider, createdAt'
const WORLD_FILE = 'userId, id, workspaceId, origin, text, base64, filename, provider, createdAt'
const USAGE = 'keyHash, cost, byok, at'
const MODEL = 'id, name, canonicalSlug, created, description, architecture, endpoints'
const ARCHITECTURE = 'tokenizer, instruct_type, modality, input_modalities, output_modalities'
const ENDPOINT =
  'name, model_id, model_name, context_length, pricing, provider_name, tag, quantization, max_completion_tokens, max_prompt_tokens, ' +
  'supported_parameters, supports_implicit_caching, supports_tool_choice, uptime_last_5m, uptime_last_30m, uptime_last_1d, latency_last_30m, ' +
  'throughput_last_30m, status, supports_voice_cloning, perf_last_30m_by_workload'
const VIDEO_MODEL =
  'id, canonical_slug, name, created, description, generate_audio, allowed_passthrough_parameters, pricing_skus, seed, supported_aspect_ratios, ' +
  'supported_durations, supported_frame_images, supported_resolutions, supported_sizes, creativity, upscale_factor, hugging_face_id'
const SPEC = 'format, now, users, workspaces, keys, files, models, videoModels, presets, budgets, members, guardrails, byok, activity, responders, handles'
const RECORD = 'at, cost, byok'
const ACTIVITY = 'userId, date, keyHash, model, provider, endpointId, permaslug, workspaceId, creatorUserId, requests, usage, byokUsage, promptTokens, completionTokens, reasoningTokens'

const ORG = 'user_acme'
const NOW = '2026-03-02T10:00:00Z'

function fresh(): { sim: Simulator<Record<string, unknown>>; hash: string } {
  const sim = createSimulator({ world: 'empty', now: NOW })
  sim.users.create({ id: ORG, name: 'Acme' })
  const { record } = sim.keys.create({ userId: ORG, name: 'existing' })
  return { sim, hash: record.hash }
}

/** Everything the store holds, as its lists show it. */
function contents(sim: Simulator<Record<string, unknown>>): unknown {
  return {
    users: sim.users.list(),
    workspaces: sim.workspaces.list(),
    keys: sim.keys.list(),
    files: sim.files.list(),
    models: sim.models.list(),
    videoModels: sim.videoModels.list(),
  }
}

type Sim = Simulator<Record<string, unknown>>

/** Each case: what is typo'd, the call, the error's argument, and its whole message. */
const typos: [string, (sim: Sim, hash: string) => unknown, string, string][] = [
  ['sim.users.create', (s) => s.users.create({ name: 'x', nmae: 'y' } as never), 'nmae', `Failed to create user: "nmae" is not a field of a user (known fields: ${USER}).`],
  [
    'sim.users.create defaultWorkspace',
    (s) => s.users.create({ defaultWorkspace: { name: 'Main', slgu: 'main' } as never }),
    'defaultWorkspace.slgu',
    `Failed to create user: "defaultWorkspace.slgu" is not a field of a default workspace (known fields: ${DEFAULT_WORKSPACE}).`,
  ],
  [
    'sim.users.create defaultWorkspace with a field only a workspace has',
    (s) => s.users.create({ defaultWorkspace: { userId: ORG } as never }),
    'defaultWorkspace.userId',
    `Failed to create user: "defaultWorkspace.userId" is not a field of a default workspace (known fields: ${DEFAULT_WORKSPACE}).`,
  ],
  [
    'sim.workspaces.create',
    (s) => s.workspaces.create({ userId: ORG, name: 'Prod', sulg: 'prod' } as never),
    'sulg',
    `Failed to create workspace: "sulg" is not a field of a workspace (known fields: ${WORKSPACE}).`,
  ],
  [
    'sim.keys.create',
    (s) => s.keys.create({ userId: ORG, disabeld: true } as never),
    'disabeld',
    `Failed to create API key: "disabeld" is not a field of a key (known fields: ${KEY}).`,
  ],
  [
    'sim.keys.create usage',
    (s) => s.keys.create({ userId: ORG, usage: { totl: 5 } as never }),
    'usage.totl',
    `Failed to create API key: "usage.totl" is not a field of usage figures (known fields: ${FIGURES}).`,
  ],
  [
    'sim.keys.create byokUsage',
    (s) => s.keys.create({ userId: ORG, byokUsage: { total: 1, dialy: 1 } as never }),
    'byokUsage.dialy',
    `Failed to create API key: "byokUsage.dialy" is not a field of usage figures (known fields: ${FIGURES}).`,
  ],
  [
    'sim.keys.update',
    (s, hash) => s.keys.update(hash, { disabeld: true } as never),
    'disabeld',
    `Failed to update API key: "disabeld" is not a field of a key update (known fields: ${KEY_UPDATE}).`,
  ],
  [
    'sim.keys.update with a field only create takes',
    (s, hash) => s.keys.update(hash, { secret: 'sk-or-v1-another' } as never),
    'secret',
    `Failed to update API key: "secret" is not a field of a key update (known fields: ${KEY_UPDATE}).`,
  ],
  [
    'sim.keys.update with a field with an empty name',
    (s, hash) => s.keys.update(hash, { '': true } as never),
    'changes',
    `Failed to update API key: "changes" has a field with an empty name, which is not a field of a key update (known fields: ${KEY_UPDATE}).`,
  ],
  [
    'sim.keys.load options',
    (s, hash) => s.keys.load({ ...(s.keys.get(hash) as ApiKey), hash: 'a'.repeat(64) }, { userId: ORG, secrte: 'sk-or-v1-loaded' } as never),
    'options.secrte',
    `Failed to load API key: "options.secrte" is not a field of the options of load (known fields: ${LOAD}).`,
  ],
  [
    'sim.files.create',
    (s) => s.files.create({ userId: ORG, origin: 'server', bytes: new Uint8Array([1]), filname: 'a.txt' } as never),
    'filname',
    `Failed to create file: "filname" is not a field of a file (known fields: ${FILE}).`,
  ],
  [
    'sim.usage.record',
    (s, hash) => s.usage.record({ keyHash: hash, cost: 1, byOk: true } as never),
    'byOk',
    `Failed to record usage: "byOk" is not a field of a usage record (known fields: ${USAGE}).`,
  ],
  [
    'sim.activity.record',
    (s, hash) => s.activity.record({ userId: ORG, date: '2026-03-01', keyHash: hash, model: 'openai/gpt-4.1-mini', provider: 'OpenAI', requests: 1, usage: 1, promptTokens: 1, completionTokens: 1, usd: 1 } as never),
    'usd',
    `Failed to record activity: "usd" is not a field of an activity entry (known fields: ${ACTIVITY}).`,
  ],
  [
    'sim.models.create',
    (s) => s.models.create({ id: 'acme/fast', nmae: 'Fast' } as never),
    'nmae',
    `Failed to create model: "nmae" is not a field of a model (known fields: ${MODEL}).`,
  ],
  [
    'sim.models.create architecture',
    (s) => s.models.create({ id: 'acme/fast', architecture: { tokeniser: 'GPT' } as never }),
    'architecture.tokeniser',
    `Failed to create model: "architecture.tokeniser" is not a field of an architecture (known fields: ${ARCHITECTURE}).`,
  ],
  [
    'sim.models.create endpoint',
    (s) => s.models.create({ id: 'acme/fast', endpoints: [{}, { provider: 'x' } as never] }),
    'endpoints[1].provider',
    `Failed to create model: "endpoints[1].provider" is not a field of an endpoint (known fields: ${ENDPOINT}).`,
  ],
  [
    'sim.models.create endpoint percentiles',
    (s) => s.models.create({ id: 'acme/fast', endpoints: [{ latency_last_30m: { p50: 1, p75: 2, p90: 3, p99: 4, p95: 3.5 } as never }] }),
    'endpoints[0].latency_last_30m.p95',
    `Failed to create model: "endpoints[0].latency_last_30m.p95" is not a field of percentiles (known fields: p50, p75, p90, p99).`,
  ],
  [
    'sim.models.create endpoint supports_tool_choice',
    (s) => s.models.create({ id: 'acme/fast', endpoints: [{ supports_tool_choice: { none: true, auto: true, required: false, function: true, any: true } as never }] }),
    'endpoints[0].supports_tool_choice.any',
    `Failed to create model: "endpoints[0].supports_tool_choice.any" is not a field of the tool choices (known fields: none, auto, required, function).`,
  ],
  [
    'sim.models.create endpoint perf_last_30m_by_workload entry',
    (s) => s.models.create({ id: 'acme/fast', endpoints: [{ perf_last_30m_by_workload: { embeddings: { latency: null, throughput: null, requests: 5 } as never } }] }),
    'endpoints[0].perf_last_30m_by_workload.embeddings.requests',
    `Failed to create model: "endpoints[0].perf_last_30m_by_workload.embeddings.requests" is not a field of a workload's performance (known fields: latency, throughput, request_count).`,
  ],
  [
    'sim.videoModels.create',
    (s) => s.videoModels.create({ id: 'acme/clip', supported_duration: [5] } as never),
    'supported_duration',
    `Failed to create video model: "supported_duration" is not a field of a video model (known fields: ${VIDEO_MODEL}).`,
  ],
  [
    'sim.videoModels.create upscale_factor',
    (s) => s.videoModels.create({ id: 'acme/clip', upscale_factor: { min: 1, maximum: 4 } as never }),
    'upscale_factor.maximum',
    `Failed to create video model: "upscale_factor.maximum" is not a field of an upscale factor range (known fields: min, max).`,
  ],
]

describe('an unknown field of the options of a store entry point', () => {
  it.each(typos)('%s: is refused, naming its path and the known fields, and changes nothing', (_, call, argument, message) => {
    const { sim, hash } = fresh()
    const before = contents(sim)
    const error = simulatorErrorOf(() => call(sim, hash))
    expect(error.code).toBe('INVALID_ARGUMENT')
    expect(error.argument).toBe(argument)
    expect(error.message).toBe(message)
    expect(contents(sim)).toEqual(before)
  })

  it('is refused even when its value is undefined: a typo is a typo', () => {
    const { sim, hash } = fresh()
    const before = contents(sim)
    expect(simulatorErrorOf(() => sim.keys.create({ userId: ORG, disabeld: undefined } as never)).argument).toBe('disabeld')
    expect(simulatorErrorOf(() => sim.keys.update(hash, { nmae: undefined } as never)).argument).toBe('nmae')
    expect(simulatorErrorOf(() => sim.users.create({ nmae: undefined } as never)).argument).toBe('nmae')
    expect(contents(sim)).toEqual(before)
  })

  it('names a field with an empty name by its options object', () => {
    const { sim } = fresh()
    const error = simulatorErrorOf(() => sim.users.create({ '': 'x' } as never))
    expect(error.argument).toBe('options')
    expect(error.message).toBe(`Failed to create user: "options" has a field with an empty name, which is not a field of a user (known fields: ${USER}).`)
  })

  it('refuses the typo of a key that a test would otherwise find enabled', () => {
    const { sim } = fresh()
    expect(() => sim.keys.create({ userId: ORG, disabeld: true } as never)).toThrow('"disabeld" is not a field of a key')
    expect(sim.keys.list()).toHaveLength(1)
  })

  it('ignores inherited fields: only the options object’s own fields are its fields', () => {
    const { sim } = fresh()
    const options = Object.assign(Object.create({ disabeld: true }) as object, { userId: ORG, name: 'inherits' })
    expect(sim.keys.create(options as never).record.name).toBe('inherits')
  })
})

describe('a known field whose value is undefined', () => {
  it('is accepted by every entry point, as left out', () => {
    const { sim, hash } = fresh()
    const user = sim.users.create({ name: undefined, id: 'user_two', createdAt: undefined, defaultWorkspaceId: undefined, defaultWorkspaceGuardrailId: undefined, defaultWorkspace: { slug: undefined, description: undefined } } as never)
    expect(user.name).toBe('Acme Inc.')
    expect(sim.users.create({ defaultWorkspace: undefined } as never).id).toMatch(/^user_/)
    expect(sim.workspaces.create({ userId: ORG, name: 'Prod', slug: undefined, id: undefined, description: undefined, createdBy: undefined } as never).slug).toBe('prod')
    const created = sim.keys.create({ userId: ORG, disabled: undefined, limit: undefined, usage: { total: 2, daily: undefined }, byokUsage: undefined, secret: undefined } as never)
    expect(created.record.disabled).toBe(false)
    expect(created.record.usage).toBe(2)
    expect(sim.keys.update(hash, { name: 'renamed', disabled: undefined, limit: undefined } as never).name).toBe('renamed')
    expect(sim.usage.record({ keyHash: hash, cost: 1, byok: undefined, at: undefined } as never).usage).toBe(1)
    expect(sim.files.create({ userId: ORG, origin: 'server', bytes: new Uint8Array([1]), id: undefined, provider: undefined, filename: undefined } as never).size).toBe(1)
    expect(sim.models.create({ id: 'acme/fast', name: undefined, architecture: { tokenizer: undefined } } as never).architecture.tokenizer).toBe('Other')
    expect(sim.videoModels.create({ id: 'acme/clip', name: undefined, upscale_factor: { min: undefined, max: 2 } } as never).upscale_factor).toEqual({ max: 2 })
    const loaded = sim.keys.load({ ...(sim.keys.get(hash) as ApiKey), hash: 'b'.repeat(64) }, { userId: ORG, secret: undefined, management: undefined } as never)
    expect(loaded.record.hash).toBe('b'.repeat(64))
  })
})

/** A small valid world with one entity of each kind. */
function world(): WorldSpec & Record<string, unknown> {
  return {
    format: WORLD_FORMAT,
    now: NOW,
    users: [{ id: ORG, name: 'Acme', defaultWorkspace: { name: 'Main' } }],
    workspaces: [{ userId: ORG, id: '550e8400-e29b-41d4-a716-446655440000', name: 'Prod' }],
    keys: [{ userId: ORG, secret: 'sk-or-v1-world-key', usage: [{ at: '2026-03-01T00:00:00Z', cost: 1 }] }],
    files: [{ userId: ORG, origin: 'server', text: 'hello' }],
    models: [{ id: 'acme/fast' }],
    videoModels: [{ id: 'acme/clip' }],
    handles: { anything: { goes: ['here'] } },
  }
}

/** Each case: the entity typo'd in a world spec, the change, the error's argument, and its whole message. */
const worldTypos: [string, (w: Record<string, any>) => void, string, string][] = [
  ['the spec itself', (w) => (w['handels'] = {}), 'world.handels', `Failed to load world: "world.handels" is not a field of a world spec (known fields: ${SPEC}).`],
  [
    'a user',
    (w) => (w['users'][0].nmae = 'Acme'),
    'world.users[0].nmae',
    `Failed to load world: world.users[0]: Failed to create user: "nmae" is not a field of a user (known fields: ${USER}).`,
  ],
  [
    "a user's default workspace",
    (w) => (w['users'][0].defaultWorkspace.slgu = 'main'),
    'world.users[0].defaultWorkspace.slgu',
    `Failed to load world: world.users[0]: Failed to create user: "defaultWorkspace.slgu" is not a field of a default workspace (known fields: ${DEFAULT_WORKSPACE}).`,
  ],
  [
    'a workspace',
    (w) => (w['workspaces'][0].sulg = 'prod'),
    'world.workspaces[0].sulg',
    `Failed to load world: world.workspaces[0]: Failed to create workspace: "sulg" is not a field of a workspace (known fields: ${WORKSPACE}).`,
  ],
  [
    'a key',
    (w) => (w['keys'][0].disabeld = true),
    'world.keys[0].disabeld',
    `Failed to load world: "world.keys[0].disabeld" is not a field of a key of a world spec (known fields: ${WORLD_KEY}).`,
  ],
  [
    'a key, with byokUsage figures (a world key carries its usage as records)',
    (w) => (w['keys'][0].byokUsage = { total: 2 }),
    'world.keys[0].byokUsage',
    `Failed to load world: "world.keys[0].byokUsage" is not a field of a key of a world spec (known fields: ${WORLD_KEY}).`,
  ],
  [
    "a key's usage record",
    (w) => (w['keys'][0].usage[0].byko = true),
    'world.keys[0].usage[0].byko',
    `Failed to load world: "world.keys[0].usage[0].byko" is not a field of a usage record of a world key (known fields: ${RECORD}).`,
  ],
  [
    'a file',
    (w) => (w['files'][0].filname = 'a.txt'),
    'world.files[0].filname',
    `Failed to load world: "world.files[0].filname" is not a field of a file (known fields: ${WORLD_FILE}).`,
  ],
  [
    'a file, with bytes (a world file gives text or base64)',
    (w) => (w['files'][0].bytes = [104]),
    'world.files[0].bytes',
    `Failed to load world: "world.files[0].bytes" is not a field of a file (known fields: ${WORLD_FILE}).`,
  ],
  [
    'a model',
    (w) => (w['models'][0].nmae = 'Fast'),
    'world.models[0].nmae',
    `Failed to load world: world.models[0]: Failed to create model: "nmae" is not a field of a model (known fields: ${MODEL}).`,
  ],
  [
    'a video model',
    (w) => (w['videoModels'][0].seeds = true),
    'world.videoModels[0].seeds',
    `Failed to load world: world.videoModels[0]: Failed to create video model: "seeds" is not a field of a video model (known fields: ${VIDEO_MODEL}).`,
  ],
]

describe('an unknown field of a world spec', () => {
  it('the base world loads, handles holding anything', () => {
    expect(validateWorld(world())).toEqual([])
    expect(createSimulator({ world: world() }).world).toEqual({ anything: { goes: ['here'] } })
  })

  it.each(worldTypos)('%s: is refused at its path, by the load and by validateWorld alike', (_, change, argument, message) => {
    const spec = world()
    change(spec)
    const error = simulatorErrorOf(() => createSimulator({ world: spec }))
    expect(error.code).toBe('INVALID_ARGUMENT')
    expect(error.argument).toBe(argument)
    expect(error.message).toBe(message)
    const problems = validateWorld(spec)
    expect(problems).toHaveLength(1)
    expect(problems[0]).toMatchObject({ path: argument, code: 'INVALID_ARGUMENT' })
    expect(problems[0]?.message).toContain('is not a field of')
  })

  it('is refused even when its value is undefined, and a known field that is undefined is fine', () => {
    const typo = world()
    ;(typo['keys'] as Record<string, unknown>[])[0] = { ...(typo['keys'] as object[])[0], disabeld: undefined }
    expect(validateWorld(typo).map((p) => p.path)).toEqual(['world.keys[0].disabeld'])
    const known = world()
    ;(known['keys'] as Record<string, unknown>[])[0] = { ...(known['keys'] as object[])[0], disabled: undefined, hash: undefined }
    delete known['handles']
    ;(known as Record<string, unknown>)['now'] = undefined
    expect(validateWorld(known)).toEqual([])
    expect(createSimulator({ world: known }).keys.list()[0]?.disabled).toBe(false)
  })

  it('reports every unknown field of a spec in one pass, and loads the rest', () => {
    const spec = world()
    spec['extra'] = 1
    ;(spec['keys'] as Record<string, unknown>[]).push({ userId: ORG, secret: 'sk-or-v1-second', disabeld: true })
    ;(spec['models'] as Record<string, unknown>[])[0] = { id: 'acme/fast', descripton: 'x' }
    expect(validateWorld(spec).map((p) => p.path)).toEqual(['world.extra', 'world.keys[1].disabeld', 'world.models[0].descripton'])
  })
})
