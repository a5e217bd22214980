import { memoByRecord } from '../memo.js'
import { SimulatorError, SimulatorErrorCode } from '../errors.js'
import { validatePricing } from '../pricing/validate.js'
import { withoutUndefinedFields } from '../json-data.js'
import { type InstantInput, toEpochMs, toUnixSeconds } from '../time.js'
import {
  type Architecture,
  ENDPOINT_STATUSES,
  type Endpoint,
  INPUT_MODALITIES,
  INSTRUCT_TYPES,
  type ModelWithEndpoints,
  OUTPUT_MODALITIES,
  type PercentileStats,
  type SupportsToolChoice,
  type WorkloadPerformance,
  type Pricing,
  type SomeFields,
  QUANTIZATIONS,
  SUPPORTED_PARAMETERS,
  TOKENIZERS,
  WORKLOADS,
} from '../types.js'
import { ArgumentChecker, fieldsOf } from './check.js'
import { describe } from '../describe.js'
import { type StoreContext, atomically } from './context.js'
import { put } from './versions.js'
import { type CachedJson, cachedJson } from '../json-text.js'
import { DEFAULT_SUPPORTED_PARAMETERS, PROVIDERS } from './defaults.js'

export interface CreateModelOptions {
  /** `author/slug`, the slug optionally carrying a variant: `meta-llama/llama-3.3-70b-instruct:free`. */
  id: string
  name?: string | undefined
  /**
   * The model's canonical slug, `author/slug` without a variant: the catalog's `canonical_slug`
   * and what inference answers report in `model` (the real catalog's are dated,
   * `openai/gpt-5-2025-08-07`). Default: the id without its variant.
   */
  canonicalSlug?: string | undefined
  /** When the model was created; default: the simulator clock's now. */
  created?: InstantInput | undefined
  description?: string | undefined
  architecture?: SomeFields<Architecture> | undefined
  /** Each given field is validated; fields left out get realistic values. */
  endpoints?: SomeFields<Endpoint>[] | undefined
}

export interface ModelCollection {
  /**
   * Creates a model with its endpoints and returns it as an authenticated caller sees it. A field
   * that is not one of {@link CreateModelOptions} (of its `architecture`, of an endpoint) throws an
   * INVALID_ARGUMENT SimulatorError naming it (`nmae`, `endpoints[0].nmae`), and stores nothing.
   */
  create(options: CreateModelOptions): ModelWithEndpoints
  list(): ModelWithEndpoints[]
  get(id: string): ModelWithEndpoints | undefined
}

export const MODEL_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*\/[A-Za-z0-9][A-Za-z0-9._-]*(:[A-Za-z0-9._-]+)?$/
/** A canonical slug: an id without a variant. */
const CANONICAL_SLUG = /^[A-Za-z0-9][A-Za-z0-9._-]*\/[A-Za-z0-9][A-Za-z0-9._-]*$/

const CANONICAL = Symbol('canonical slug')

/**
 * The canonical slug a model was created with, or undefined when it was left to the default. It is
 * kept beside the record, not in it: the record is the wire's model of
 * `GET /models/{author}/{slug}/endpoints`, which has no such field (decisions/0037).
 */
export function givenCanonicalSlug(model: object): string | undefined {
  return (model as { [CANONICAL]?: string })[CANONICAL]
}

/**
 * A model's canonical slug: the one it was created with, else its id without the variant
 * (`acme/fast-1:free` -> `acme/fast-1`). The catalog reports it as `canonical_slug`, and inference
 * answers in `model`.
 */
export function canonicalSlugOf(model: ModelWithEndpoints): string {
  const given = givenCanonicalSlug(model)
  if (given !== undefined) return given
  const colon = model.id.indexOf(':')
  return colon < 0 ? model.id : model.id.slice(0, colon)
}

export const MODEL_FIELDS = fieldsOf<CreateModelOptions>({ id: true, name: true, canonicalSlug: true, created: true, description: true, architecture: true, endpoints: true })
const PERCENTILE_FIELDS = fieldsOf<PercentileStats>({ p50: true, p75: true, p90: true, p99: true })
const TOOL_CHOICE_FIELDS = fieldsOf<SupportsToolChoice>({ none: true, auto: true, required: true, function: true })
export const WORKLOAD_FIELDS = fieldsOf<WorkloadPerformance>({ latency: true, throughput: true, request_count: true })
export const ARCHITECTURE_FIELDS = fieldsOf<Architecture>({ tokenizer: true, instruct_type: true, modality: true, input_modalities: true, output_modalities: true })

/** The fields of an endpoint: what `models.create` takes (`Partial<Endpoint>`) and what `fakeEndpoint` overrides. */
export const ENDPOINT_FIELDS = fieldsOf<Endpoint>({
  name: true,
  model_id: true,
  model_name: true,
  context_length: true,
  pricing: true,
  provider_name: true,
  tag: true,
  quantization: true,
  max_completion_tokens: true,
  max_prompt_tokens: true,
  supported_parameters: true,
  supports_implicit_caching: true,
  supports_tool_choice: true,
  uptime_last_5m: true,
  uptime_last_30m: true,
  uptime_last_1d: true,
  latency_last_30m: true,
  throughput_last_30m: true,
  status: true,
  supports_voice_cloning: true,
  perf_last_30m_by_workload: true,
})

const DEFAULT_PRICES: readonly Pick<Pricing, 'prompt' | 'completion'>[] = [
  { prompt: '0.00000015', completion: '0.0000006' },
  { prompt: '0.0000004', completion: '0.0000016' },
  { prompt: '0.00000059', completion: '0.00000079' },
  { prompt: '0.0000012', completion: '0.0000012' },
  { prompt: '0.000003', completion: '0.000015' },
]

export function titleCase(slug: string): string {
  return slug
    .split(/[-_.]/)
    .filter(Boolean)
    .map((word) => (/^\d/.test(word) ? word : word.charAt(0).toUpperCase() + word.slice(1)))
    .join(' ')
}

/** Display name from an id: `acme/fast-1:free` -> `Acme: Fast 1 (free)`. */
export function nameFromId(id: string): string {
  const [author = '', rest = ''] = id.split('/')
  const [slug = '', variant] = rest.split(':')
  return `${titleCase(author)}: ${titleCase(slug)}${variant ? ` (${variant})` : ''}`
}

function rounded(value: number, digits: number): number {
  const f = 10 ** digits
  return Math.round(value * f) / f
}

/** Latency percentiles rise from p50 to p99: the slow tail takes longer. */
function percentiles(ctx: StoreContext, p50: number): PercentileStats {
  const p75 = rounded(p50 * (1.1 + ctx.random.float() * 0.3), 1)
  const p90 = rounded(p75 * (1.1 + ctx.random.float() * 0.4), 1)
  const p99 = rounded(p90 * (1.2 + ctx.random.float() * 0.8), 1)
  return { p50: rounded(p50, 1), p75, p90, p99 }
}

/**
 * Throughput percentiles fall from p50 to p99: the service's routing cutoffs read "minimum p90
 * throughput", so a higher percentile is the slower tail (decisions/0011 in the repository).
 */
function throughputPercentiles(ctx: StoreContext, p50: number): PercentileStats {
  const p75 = rounded(p50 / (1.1 + ctx.random.float() * 0.3), 1)
  const p90 = rounded(p75 / (1.1 + ctx.random.float() * 0.4), 1)
  const p99 = rounded(p90 / (1.2 + ctx.random.float() * 0.8), 1)
  return { p50: rounded(p50, 1), p75, p90, p99 }
}

function checkPercentiles(check: ArgumentChecker, value: unknown, argument: string): PercentileStats | null {
  if (value === null) return null
  const stats = check.object(value, argument)
  check.knownFields(stats, PERCENTILE_FIELDS, argument, 'percentiles')
  for (const p of ['p50', 'p75', 'p90', 'p99'] as const) {
    if (typeof stats[p] !== 'number' || !Number.isFinite(stats[p])) check.fail(`${argument}.${p}`, `must be a finite number, got ${describe(stats[p])}`)
  }
  // A copy: the caller's object stays theirs to change.
  return { p50: stats['p50'] as number, p75: stats['p75'] as number, p90: stats['p90'] as number, p99: stats['p99'] as number }
}

/** A string, empty allowed (the wire allows an empty description). */
function plainString(check: ArgumentChecker, value: unknown, argument: string): string {
  if (typeof value !== 'string') check.fail(argument, `must be a string, got ${describe(value)}`)
  return value
}

function checkNullableInteger(check: ArgumentChecker, value: unknown, argument: string): number | null {
  return value === null ? null : check.positiveInteger(value, argument)
}

function checkUptime(check: ArgumentChecker, value: unknown, argument: string): number | null {
  if (value === null) return null
  const uptime = check.nonNegative(value, argument)
  if (uptime > 100) check.fail(argument, `must be a percentage in [0, 100] or null, got ${uptime}`)
  return uptime
}

function checkList<T extends string>(check: ArgumentChecker, value: unknown, allowed: readonly T[], argument: string): T[] {
  if (!Array.isArray(value)) check.fail(argument, `must be an array, got ${describe(value)}`)
  // Array.from, not map, so that a hole in a sparse array is refused like any other bad item.
  return Array.from(value as unknown[], (item, i) => check.oneOf(item, allowed, `${argument}[${i}]`))
}

function buildArchitecture(check: ArgumentChecker, input: unknown): Architecture {
  const given = input === undefined ? {} : check.object(input, 'architecture')
  check.knownFields(given, ARCHITECTURE_FIELDS, 'architecture', 'an architecture')
  const nullableOneOf = <T extends string>(value: unknown, allowed: readonly T[], argument: string, fallback: T | null): T | null =>
    value === undefined ? fallback : value === null ? null : check.oneOf(value, allowed, argument)
  const input_modalities =
    given['input_modalities'] === undefined ? ['text' as const] : checkList(check, given['input_modalities'], INPUT_MODALITIES, 'architecture.input_modalities')
  const output_modalities =
    given['output_modalities'] === undefined ? ['text' as const] : checkList(check, given['output_modalities'], OUTPUT_MODALITIES, 'architecture.output_modalities')
  const modality = given['modality']
  return {
    tokenizer: nullableOneOf(given['tokenizer'], TOKENIZERS, 'architecture.tokenizer', 'Other'),
    instruct_type: nullableOneOf(given['instruct_type'], INSTRUCT_TYPES, 'architecture.instruct_type', null),
    modality:
      modality === undefined
        ? `${input_modalities.join('+')}->${output_modalities.join('+')}`
        : modality === null
          ? null
          : check.string(modality, 'architecture.modality'),
    input_modalities,
    output_modalities,
  }
}

function buildEndpoint(ctx: StoreContext, check: ArgumentChecker, input: unknown, at: string, model: { id: string; name: string }, usedTags: Set<string>): Endpoint {
  const given = check.object(input, at)
  check.knownFields(given, ENDPOINT_FIELDS, at, 'an endpoint')
  const has = (field: string): boolean => given[field] !== undefined
  const str = (field: string): string => check.string(given[field], `${at}.${field}`)

  if (has('pricing')) {
    const issues = validatePricing(given['pricing'])
    if (issues.length > 0) {
      throw new SimulatorError(
        SimulatorErrorCode.InvalidPricing,
        `Failed to create model: ${at}.pricing is invalid: ${issues.map((i) => `${i.path || 'pricing'} ${i.message}`).join('; ')}.`,
        { argument: `${at}.pricing`, details: issues },
      )
    }
  }
  const context_length = has('context_length') ? check.positiveInteger(given['context_length'], `${at}.context_length`) : 131072
  const supported_parameters = has('supported_parameters')
    ? checkList(check, given['supported_parameters'], SUPPORTED_PARAMETERS, `${at}.supported_parameters`)
    : [...DEFAULT_SUPPORTED_PARAMETERS]
  let supports_tool_choice
  if (has('supports_tool_choice')) {
    const flags = check.object(given['supports_tool_choice'], `${at}.supports_tool_choice`)
    check.knownFields(flags, TOOL_CHOICE_FIELDS, `${at}.supports_tool_choice`, 'the tool choices')
    for (const flag of ['none', 'auto', 'required', 'function'] as const) check.boolean(flags[flag], `${at}.supports_tool_choice.${flag}`)
    supports_tool_choice = { none: flags['none'], auto: flags['auto'], required: flags['required'], function: flags['function'] } as Endpoint['supports_tool_choice']
  } else {
    const accepted = supported_parameters.includes('tool_choice')
    supports_tool_choice = { none: accepted, auto: accepted, required: accepted, function: accepted }
  }
  const nullable = <T>(field: string, read: (value: unknown, argument: string) => T, fallback: () => T | null): T | null =>
    given[field] === undefined ? fallback() : given[field] === null ? null : read(given[field], `${at}.${field}`)

  // Defaults that draw on the random source come after every check above, in a fixed order.
  let provider_name: string
  let tag: string
  if (has('provider_name')) {
    provider_name = str('provider_name')
    // A name with no ASCII letter or digit (`深度求索`) still gets a tag an endpoint may carry.
    tag = has('tag') ? str('tag') : provider_name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'provider'
  } else {
    const free = PROVIDERS.filter((p) => !usedTags.has(p.tag))
    const provider = ctx.random.pick(free.length > 0 ? free : PROVIDERS)
    provider_name = provider.name
    tag = has('tag') ? str('tag') : provider.tag
  }
  usedTags.add(tag)
  const endpoint: Endpoint = {
    // "Provider: Model", without the author prefix the model's own name carries ("Meta: Llama 3.3").
    name: has('name') ? str('name') : `${provider_name}: ${model.name.replace(/^[^:]+: /, '')}`,
    model_id: has('model_id') ? str('model_id') : model.id,
    model_name: has('model_name') ? str('model_name') : model.name,
    context_length,
    pricing: has('pricing') ? (withoutUndefinedFields(given['pricing']) as Pricing) : { ...ctx.random.pick(DEFAULT_PRICES) },
    provider_name,
    tag,
    quantization: nullable('quantization', (v, a) => check.oneOf(v, QUANTIZATIONS, a), () => ctx.random.pick([null, 'fp8', 'bf16', 'fp16'] as const)),
    max_completion_tokens: nullable('max_completion_tokens', (v, a) => checkNullableInteger(check, v, a), () => Math.min(16384, context_length)),
    max_prompt_tokens: nullable('max_prompt_tokens', (v, a) => checkNullableInteger(check, v, a), () => null),
    supported_parameters,
    supports_implicit_caching: has('supports_implicit_caching') ? check.boolean(given['supports_implicit_caching'], `${at}.supports_implicit_caching`) : false,
    supports_tool_choice,
    uptime_last_5m: nullable('uptime_last_5m', (v, a) => checkUptime(check, v, a), () => rounded(97 + ctx.random.float() * 3, 2)),
    uptime_last_30m: nullable('uptime_last_30m', (v, a) => checkUptime(check, v, a), () => rounded(98 + ctx.random.float() * 2, 2)),
    uptime_last_1d: nullable('uptime_last_1d', (v, a) => checkUptime(check, v, a), () => rounded(99 + ctx.random.float(), 2)),
    latency_last_30m: nullable('latency_last_30m', (v, a) => checkPercentiles(check, v, a), () => percentiles(ctx, 250 + ctx.random.float() * 900)),
    throughput_last_30m: nullable('throughput_last_30m', (v, a) => checkPercentiles(check, v, a), () => throughputPercentiles(ctx, 20 + ctx.random.float() * 180)),
    status: has('status') ? check.oneOf(given['status'], ENDPOINT_STATUSES, `${at}.status`) : 0,
  }
  if (has('supports_voice_cloning')) endpoint.supports_voice_cloning = check.boolean(given['supports_voice_cloning'], `${at}.supports_voice_cloning`)
  if (has('perf_last_30m_by_workload')) {
    const field = `${at}.perf_last_30m_by_workload`
    const byWorkload = check.object(given['perf_last_30m_by_workload'], field)
    const perf: NonNullable<Endpoint['perf_last_30m_by_workload']> = {}
    for (const [workload, value] of Object.entries(byWorkload)) {
      // The SDK strips workload names it does not know without a word: refuse them here instead.
      const name = check.oneOf(workload, WORKLOADS, `${field} key`)
      const entry = check.object(value, `${field}.${name}`)
      check.knownFields(entry, WORKLOAD_FIELDS, `${field}.${name}`, 'a workload\'s performance')
      const count = entry['request_count']
      perf[name] = {
        latency: checkPercentiles(check, entry['latency'] ?? null, `${field}.${name}.latency`),
        throughput: checkPercentiles(check, entry['throughput'] ?? null, `${field}.${name}.throughput`),
        request_count: count === null || count === undefined ? null : check.nonNegative(count, `${field}.${name}.request_count`),
      }
    }
    endpoint.perf_last_30m_by_workload = perf
  }
  return endpoint
}

/** The cached JSON of what an anonymous caller sees of a model (made once per model record, which never changes). */
export const anonymousJson: (model: ModelWithEndpoints) => CachedJson<ModelWithEndpoints> = memoByRecord((model) => cachedJson(anonymousView(model)))

/** What an anonymous caller sees: no performance figures. */
export function anonymousView(model: ModelWithEndpoints): ModelWithEndpoints {
  return {
    ...model,
    endpoints: model.endpoints.map(({ perf_last_30m_by_workload: _dropped, ...endpoint }) => ({
      ...endpoint,
      latency_last_30m: null,
      throughput_last_30m: null,
    })),
  }
}

/** Validates and stores a model; returns the stored model itself (the loader's way: no copy to throw away). */
export function insertModel(ctx: StoreContext, options: CreateModelOptions): ModelWithEndpoints {
  const operation = 'create model'
  return atomically(ctx, () => {
    const check: ArgumentChecker = new ArgumentChecker(operation)
    check.knownFields(check.object(options, 'options'), MODEL_FIELDS, '', 'a model')
    const id = check.string(options.id, 'id', MODEL_ID, '"author/slug" with an optional ":variant"')
    if (ctx.data.models.has(id)) {
      throw new SimulatorError(SimulatorErrorCode.DuplicateId, `Failed to ${operation}: a model with id "${id}" already exists.`, { argument: 'id' })
    }
    const name = options.name === undefined ? nameFromId(id) : check.string(options.name, 'name')
    const canonicalSlug = options.canonicalSlug === undefined ? undefined : check.string(options.canonicalSlug, 'canonicalSlug', CANONICAL_SLUG, '"author/slug" without a variant')
    const description = options.description === undefined ? `${name}, served by the model-access simulator.` : plainString(check, options.description, 'description')
    const created = options.created === undefined ? ctx.clock.nowMs() : toEpochMs(options.created, operation, 'created')
    const architecture = buildArchitecture(check, options.architecture)
    const inputs: unknown = options.endpoints ?? [{}]
    if (!Array.isArray(inputs)) check.fail('endpoints', `must be an array of endpoint objects, got ${describe(inputs)}`)
    const usedTags = new Set<string>()
    const endpoints = Array.from(inputs as unknown[], (input, i) => buildEndpoint(ctx, check, input, `endpoints[${i}]`, { id, name }, usedTags))
    const model: ModelWithEndpoints = { id, name, created: toUnixSeconds(created), description, architecture, endpoints }
    if (canonicalSlug !== undefined) Object.defineProperty(model, CANONICAL, { value: canonicalSlug, enumerable: false })
    put(ctx, 'models', id, model)
    return model
  })
}

/**
 * A model of the embedded default world as the store keeps it, made without the checks and defaults
 * of {@link insertModel}: `generateWorld` wrote that world with every field, in the order
 * `insertModel` writes them, and `test/core/shared-world.test.ts` checks that this record and
 * `insertModel`'s are the same, byte for byte, for every model of it (decisions/0041). Checking 800
 * endpoints was most of the first `createSimulator()` of a process.
 */
export function trustedModel(options: CreateModelOptions & { created: number }): ModelWithEndpoints {
  const model = {
    id: options.id,
    name: options.name,
    created: toUnixSeconds(options.created),
    description: options.description,
    architecture: options.architecture,
    // In the order insertModel writes an endpoint's fields, whatever order the spec has them in.
    endpoints: (options.endpoints ?? []).map((given) => {
      const endpoint: Record<string, unknown> = {}
      for (const field of ENDPOINT_FIELDS) if (field in given) endpoint[field] = given[field as keyof Endpoint]
      return endpoint
    }),
  } as unknown as ModelWithEndpoints
  if (options.canonicalSlug !== undefined) Object.defineProperty(model, CANONICAL, { value: options.canonicalSlug, enumerable: false })
  return model
}

/**
 * What a fault, latency or responder rule may name (decisions/0042): the store's model ids and the
 * providers of its endpoints, read when the rule is added, so that a misspelt name is refused
 * instead of making a rule that never fires.
 */
export interface CatalogNames {
  /** The provider's name as the endpoints write it, for a name given in any case; undefined when no endpoint has it. */
  provider(name: string): string | undefined
  /** Every provider name of the store's endpoints, sorted. */
  providers(): string[]
  hasModel(id: string): boolean
}

export function catalogNames(ctx: StoreContext): CatalogNames {
  const providers = (): Map<string, string> => {
    const names = new Map<string, string>()
    for (const model of ctx.data.models.values()) for (const endpoint of model.endpoints) names.set(endpoint.provider_name.toLowerCase(), endpoint.provider_name)
    return names
  }
  return {
    provider: (name) => providers().get(name.toLowerCase()),
    providers: () => [...providers().values()].sort(),
    hasModel: (id) => ctx.data.models.has(id),
  }
}

/** The refusal of a rule naming a provider no endpoint has: the argument, and the names it could have meant. */
export function unknownProvider(names: CatalogNames, given: string): string {
  const known = names.providers()
  return `names no provider of this simulator's endpoints, got ${JSON.stringify(given)} (${known.length === 0 ? 'it has no models yet: create them first' : `its providers: ${known.join(', ')}`})`
}

export function createModelCollection(ctx: StoreContext): ModelCollection {
  return {
    create: (options) => structuredClone(insertModel(ctx, options)),
    list: () => [...ctx.data.models.values()].map((m) => structuredClone(m)),
    get: (id) => {
      const model = ctx.data.models.get(id)
      return model && structuredClone(model)
    },
  }
}
