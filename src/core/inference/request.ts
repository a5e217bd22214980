// Step 1 of the money path: the body of `POST /chat/completions`, read field by field with
// BodyReader. Every field of the SDK's ChatRequest and every field real clients send
// (client-fields.ts) is known; the ones the simulator acts on are read into a ChatInput, the rest
// are type-checked and ignored (decisions/0024 lists which). A field outside both is accepted and
// listed for the journal, or refused under `strictRequests` (decisions/0036).
import { BodyReader, isSharedBody, type ReadMemo, readOnce, REFUSE_UNKNOWN, type UnknownFields } from '../body.js'
import { QUANTIZATIONS, type Quantization, type SupportedParameter } from '../types.js'
import { CACHE_CONTROL_FIELDS, readCacheControl, readClientFields, readPlugins, readReasoning, withClientFields } from './client-fields.js'
import { type DeclaredTool, type OutputFormat, type ReplyDemands, type ToolChoice, NO_DEMANDS, checkToolChoice, declaredTool, demandsOf, readReasoningAsk, schemaAt, stopSequences } from './demands.js'

/** One message as the pipeline reads it: its role, its text, and how many non-text parts it has. */
export interface InputMessage {
  role: 'system' | 'developer' | 'user' | 'assistant' | 'tool'
  /** The text of the message: a string content, or its text parts joined with newlines. */
  text: string
  /** Parts that are not text (images, audio, files, video). */
  mediaParts: number
  /** Characters of the assistant's tool calls (name and arguments), which are prompt tokens too. */
  toolCallChars: number
}

/** How endpoints are ordered: `exacto` is quality first (decisions/0038). */
export type ProviderSort = 'price' | 'throughput' | 'latency' | 'exacto'

/** `provider` preferences, as the router applies them. */
export interface ProviderPreferences {
  allowFallbacks: boolean
  only: readonly string[] | null
  ignore: readonly string[] | null
  order: readonly string[] | null
  quantizations: readonly Quantization[] | null
  requireParameters: boolean
  dataCollection: 'allow' | 'deny'
  /** USD per million tokens (per request, per image) the caller will pay at most. */
  maxPrice: { prompt?: number; completion?: number; request?: number; image?: number; audio?: number }
  sort: ProviderSort | null
}

/** A chat request as the pipeline reads it. */
export interface ChatInput {
  /** `model`, then each of `models`, in order, without repeats. */
  models: string[]
  /** The field each of `models` came from (`model`, `models[2]`), for the 400 that names an unknown one. */
  modelFields: string[]
  messages: InputMessage[]
  /** Characters of the `tools` definitions as JSON (they count as prompt tokens). */
  toolChars: number
  hasTools: boolean
  /** The completion cap: `max_completion_tokens`, else `max_tokens`; null without either. */
  maxTokens: number | null
  stream: boolean
  provider: ProviderPreferences
  /** The parameters the request uses, as `supported_parameters` names them (for `require_parameters`). */
  parameters: SupportedParameter[]
  user: string | null
  sessionId: string | null
  /** What the reply must follow besides the messages: tools, format, reasoning, stop, logprobs, seed (decisions/0048). */
  demands: ReplyDemands
  /** The preset the request named, for its generation's `preset_id` (decisions/0050); absent: none. */
  presetId?: string | undefined
}

/** Every top-level field of the SDK's ChatRequest. */
export const CHAT_REQUEST_FIELDS: ReadonlySet<string> = new Set([
  'cache_control', 'debug', 'frequency_penalty', 'image_config', 'logit_bias', 'logprobs', 'max_completion_tokens',
  'max_tokens', 'messages', 'metadata', 'min_p', 'modalities', 'model', 'models', 'parallel_tool_calls', 'plugins',
  'prediction', 'presence_penalty', 'prompt_cache_key', 'prompt_cache_options', 'provider', 'reasoning',
  'reasoning_effort', 'repetition_penalty', 'response_format', 'seed', 'service_tier', 'session_id', 'stop',
  'stop_server_tools_when', 'stream', 'stream_options', 'temperature', 'tool_choice', 'tools', 'top_a', 'top_k',
  'top_logprobs', 'top_p', 'trace', 'user',
])

/** The known top-level fields of a chat request: the SDK's ChatRequest's, and those real clients send. */
const CHAT_KNOWN_FIELDS = withClientFields(CHAT_REQUEST_FIELDS)

const PROVIDER_FIELDS: ReadonlySet<string> = new Set([
  'allow_fallbacks', 'data_collection', 'enforce_distillable_text', 'ignore', 'max_price', 'only', 'order',
  'preferred_max_latency', 'preferred_min_throughput', 'quantizations', 'require_parameters', 'sort', 'zdr',
])
const MAX_PRICE_FIELDS: ReadonlySet<string> = new Set(['prompt', 'completion', 'image', 'audio', 'request'])
const SORT_CONFIG_FIELDS: ReadonlySet<string> = new Set(['by', 'partition'])
const PERCENTILE_FIELDS: ReadonlySet<string> = new Set(['p50', 'p75', 'p90', 'p99'])
const SORTS = ['price', 'throughput', 'latency', 'exacto'] as const

/** The fields of a message by role: the SDK's, and `name` and `cache_control` on every role, `function_call` on an assistant's (legacy functions). */
const MESSAGE_FIELDS: Record<InputMessage['role'], ReadonlySet<string>> = {
  system: new Set(['role', 'content', 'name', 'configuration_update', 'cache_control']),
  developer: new Set(['role', 'content', 'name', 'configuration_update', 'cache_control']),
  user: new Set(['role', 'content', 'name', 'cache_control']),
  assistant: new Set(['role', 'content', 'name', 'tool_calls', 'refusal', 'reasoning', 'reasoning_details', 'images', 'audio', 'model', 'cache_control', 'function_call']),
  tool: new Set(['role', 'content', 'tool_call_id', 'name', 'cache_control']),
}
const ROLES = Object.keys(MESSAGE_FIELDS) as InputMessage['role'][]

/** Content part types and the field each must carry. */
const PART_FIELD: Record<string, string> = {
  text: 'text',
  image_url: 'image_url',
  input_audio: 'input_audio',
  file: 'file',
  video_url: 'video_url',
  input_video: 'video_url',
}

/** The fields of a content part by type (`cache_control` on every type), and of the object a media part carries. */
const PART_FIELDS: Record<string, ReadonlySet<string>> = {
  text: new Set(['type', 'text', 'cache_control', 'prompt_cache_breakpoint']),
  image_url: new Set(['type', 'image_url', 'cache_control']),
  input_audio: new Set(['type', 'input_audio', 'cache_control']),
  file: new Set(['type', 'file', 'cache_control']),
  video_url: new Set(['type', 'video_url', 'cache_control']),
  input_video: new Set(['type', 'video_url', 'cache_control']),
}
const MEDIA_FIELDS: Record<string, ReadonlySet<string>> = {
  image_url: new Set(['url', 'detail']),
  input_audio: new Set(['data', 'format']),
  file: new Set(['filename', 'file_data', 'file_id']),
  video_url: new Set(['url', 'processing']),
}
/** A tool call an assistant message carries; `index` is in the answers (decisions/0039), and clients send the message back as it came. */
const TOOL_CALL_FIELDS: ReadonlySet<string> = new Set(['id', 'type', 'function', 'index'])
const CALLED_FUNCTION_FIELDS: ReadonlySet<string> = new Set(['name', 'arguments'])
const TOOL_FIELDS: ReadonlySet<string> = new Set(['type', 'function', 'cache_control'])
const FUNCTION_FIELDS: ReadonlySet<string> = new Set(['name', 'description', 'parameters', 'strict'])
const TOOL_CHOICE_FIELDS: ReadonlySet<string> = new Set(['type', 'function'])
const CHOSEN_FUNCTION_FIELDS: ReadonlySet<string> = new Set(['name'])
const PREDICTION_FIELDS: ReadonlySet<string> = new Set(['type', 'content'])
const PROMPT_CACHE_OPTIONS_FIELDS: ReadonlySet<string> = new Set(['mode', 'ttl'])
const DEBUG_FIELDS: ReadonlySet<string> = new Set(['echo_upstream_body'])
const RESPONSE_FORMATS = ['text', 'json_object', 'json_schema', 'grammar', 'python'] as const
/** The fields of `response_format` by its type. */
const RESPONSE_FORMAT_FIELDS: Record<string, ReadonlySet<string>> = {
  text: new Set(['type']),
  json_object: new Set(['type']),
  json_schema: new Set(['type', 'json_schema']),
  grammar: new Set(['type', 'grammar']),
  python: new Set(['type']),
}
const JSON_SCHEMA_FIELDS: ReadonlySet<string> = new Set(['name', 'description', 'schema', 'strict'])

/**
 * The request fields that are sampling parameters, each with its range and its `supported_parameters`
 * name. Each rule says `nullable: true` itself: spreading one into a new rule for every field of
 * every request showed in profiles.
 */
export const NUMBER_FIELDS: readonly [string, { integer?: boolean; min?: number; max?: number; exclusiveMin?: boolean; nullable: true }, SupportedParameter][] = [
  ['temperature', { min: 0, max: 2, nullable: true }, 'temperature'],
  ['top_p', { min: 0, max: 1, exclusiveMin: true, nullable: true }, 'top_p'],
  ['top_k', { integer: true, min: 0, nullable: true }, 'top_k'],
  ['min_p', { min: 0, max: 1, nullable: true }, 'min_p'],
  ['top_a', { min: 0, max: 1, nullable: true }, 'top_a'],
  ['frequency_penalty', { min: -2, max: 2, nullable: true }, 'frequency_penalty'],
  ['presence_penalty', { min: -2, max: 2, nullable: true }, 'presence_penalty'],
  ['repetition_penalty', { min: 0, max: 2, exclusiveMin: true, nullable: true }, 'repetition_penalty'],
  ['top_logprobs', { integer: true, min: 0, max: 20, nullable: true }, 'top_logprobs'],
  ['seed', { integer: true, nullable: true }, 'seed'],
]

/** Rules of fields read on every request, made once. */
const ANY_STRING = {} as const
const NULLABLE_STRING = { nullable: true } as const
const SESSION_ID = { maxLength: 256 } as const
const NON_EMPTY = { minLength: 1 } as const

/** A non-negative token cap as the SDK sends it (an integer of at least 1). */
const TOKEN_CAP = { integer: true, min: 1, nullable: true } as const

function readContent(reader: BodyReader, message: BodyReader, role: InputMessage['role'], required: boolean): { text: string; mediaParts: number } {
  const raw = message.raw('content')
  const path = message.at('content')
  if (raw === undefined || raw === null) {
    if (required) reader.fail(path, raw === null ? 'must not be null for this role' : 'is required')
    return { text: '', mediaParts: 0 }
  }
  if (typeof raw === 'string') return { text: raw, mediaParts: 0 }
  if (!Array.isArray(raw)) reader.fail(path, 'must be a string or an array of content parts', raw)
  const texts: string[] = []
  let mediaParts = 0
  raw.forEach((part, i) => {
    const at = `${path}[${i}]`
    if (typeof part !== 'object' || part === null || Array.isArray(part)) reader.fail(at, 'must be a content part object', part)
    const p: BodyReader = reader.child(part as Record<string, unknown>, at)
    const type = p.string('type')
    // Own entries only: a part of type `constructor` is an unknown type, not Object's.
    const field = Object.hasOwn(PART_FIELD, type) ? PART_FIELD[type] : undefined
    const textOnly = role === 'system' || role === 'developer'
    if (field === undefined || (textOnly && type !== 'text')) {
      p.fail(p.at('type'), `must be ${textOnly ? '"text" in a system or developer message' : `one of ${Object.keys(PART_FIELD).join(', ')}`}`, type)
    }
    p.known(PART_FIELDS[type] as ReadonlySet<string>)
    readCacheControl(p)
    if (type === 'text') {
      texts.push(p.string('text'))
    } else {
      const media = p.raw(field)
      if (media === undefined || media === null) p.fail(p.at(field), 'is required')
      // The object a media part carries has its fields checked; a bare string (a URL) is taken as it is.
      if (typeof media === 'object' && !Array.isArray(media)) p.child(media as Record<string, unknown>, p.at(field)).known(MEDIA_FIELDS[field] as ReadonlySet<string>)
      mediaParts++
    }
  })
  return { text: texts.join('\n'), mediaParts }
}

function readMessages(body: BodyReader): InputMessage[] {
  const list = body.optionalArray('messages', { minLength: 1 })
  if (list === undefined || list === null) body.fail('messages', 'is required: an array of at least one message')
  return list.map((item, i) => {
    const at = body.at('messages') + `[${i}]`
    if (typeof item !== 'object' || item === null || Array.isArray(item)) body.fail(at, 'must be a message object', item)
    const message: BodyReader = body.child(item as Record<string, unknown>, at)
    const role = message.optionalEnum('role', ROLES)
    if (role === undefined) message.fail(message.at('role'), `is required: one of ${ROLES.join(', ')}`)
    message.known(MESSAGE_FIELDS[role])
    message.optionalString('name', ANY_STRING)
    readCacheControl(message)
    const { text, mediaParts } = readContent(body, message, role, role !== 'assistant')
    let toolCallChars = 0
    if (role === 'tool') message.string('tool_call_id', { minLength: 1 })
    if (role === 'assistant') {
      const calls = message.optionalArray('tool_calls') ?? []
      calls.forEach((call, j) => {
        const callAt = `${message.at('tool_calls')}[${j}]`
        if (typeof call !== 'object' || call === null || Array.isArray(call)) message.fail(callAt, 'must be a tool call object', call)
        const c: BodyReader = message.child(call as Record<string, unknown>, callAt)
        c.known(TOOL_CALL_FIELDS)
        c.string('id')
        c.optionalEnum('type', ['function'])
        c.optionalNumber('index', { integer: true, min: 0, nullable: true })
        const fn = c.optionalObject('function')
        if (fn === undefined || fn === null) c.fail(c.at('function'), 'is required')
        fn.known(CALLED_FUNCTION_FIELDS)
        toolCallChars += fn.string('name', { minLength: 1 }).length + fn.string('arguments').length
      })
      message.optionalString('refusal', { nullable: true })
      message.optionalString('reasoning', { nullable: true })
    }
    return { role, text, mediaParts, toolCallChars }
  })
}

export function readNames(reader: BodyReader, name: string): string[] | null {
  const list = reader.optionalArray(name, { nullable: true })
  if (list === undefined || list === null) return null
  return list.map((item, i) => {
    if (typeof item !== 'string' || item === '') reader.fail(`${reader.at(name)}[${i}]`, 'must be a non-empty string', item)
    return item
  })
}

/**
 * A list of providers (`only`, `ignore`, `order`): names (`Google Vertex`) or slugs, a slug with at
 * most one `/` before a region or a quantization (`google-vertex/europe`, `deepinfra/fp8`), neither
 * part empty (decisions/0038).
 */
function readProviderNames(reader: BodyReader, name: string): string[] | null {
  const list = readNames(reader, name)
  list?.forEach((item, i) => {
    const parts = item.split('/')
    if (parts.length > 2 || parts.some((part) => part.trim() === '')) {
      reader.fail(`${reader.at(name)}[${i}]`, 'must be a provider name or slug, a slug with at most one region or quantization after a "/" (google-vertex, google-vertex/europe, deepinfra/fp8)', item)
    }
  })
  return list
}

/** Reads `provider` (the SDK's ProviderPreferences, shared by chat, Responses and embeddings requests). */
export function readProvider(body: BodyReader): ProviderPreferences {
  const preferences = defaultPreferences()
  const provider = body.optionalObject('provider', true)
  if (provider === undefined || provider === null) return preferences
  provider.known(PROVIDER_FIELDS)
  preferences.allowFallbacks = nullableBoolean(provider, 'allow_fallbacks') ?? true
  preferences.requireParameters = nullableBoolean(provider, 'require_parameters') ?? false
  nullableBoolean(provider, 'zdr')
  nullableBoolean(provider, 'enforce_distillable_text')
  preferences.dataCollection = provider.optionalEnum('data_collection', ['allow', 'deny'], true) ?? 'allow'
  preferences.only = readProviderNames(provider, 'only')
  preferences.ignore = readProviderNames(provider, 'ignore')
  preferences.order = readProviderNames(provider, 'order')
  const quantizations = provider.optionalArray('quantizations', { nullable: true })
  if (quantizations !== undefined && quantizations !== null) {
    preferences.quantizations = quantizations.map((q, i) => {
      if (!QUANTIZATIONS.includes(q as Quantization)) provider.fail(`${provider.at('quantizations')}[${i}]`, `must be one of ${QUANTIZATIONS.join(', ')}`, q)
      return q as Quantization
    })
  }
  const maxPrice = provider.optionalObject('max_price')
  if (maxPrice !== undefined && maxPrice !== null) {
    maxPrice.known(MAX_PRICE_FIELDS)
    for (const key of MAX_PRICE_FIELDS) {
      const value = maxPrice.raw(key)
      if (value === undefined) continue
      // The SDK sends prices as strings; plain JSON clients send numbers. Both are USD per million tokens.
      const number = typeof value === 'string' && /^\d+(\.\d+)?$/.test(value) ? Number(value) : value
      preferences.maxPrice[key as keyof ProviderPreferences['maxPrice']] = maxPrice.checkNumber(maxPrice.at(key), number, { min: 0 })
    }
  }
  const sort = provider.raw('sort')
  if (sort !== undefined && sort !== null) {
    let by: unknown = sort
    if (typeof sort === 'object' && !Array.isArray(sort)) {
      const config = provider.optionalObject('sort') as BodyReader
      config.known(SORT_CONFIG_FIELDS)
      config.optionalString('partition', { nullable: true })
      by = config.raw('by') ?? null
      if (by !== null && !SORTS.includes(by as (typeof SORTS)[number])) config.fail(config.at('by'), `must be one of ${SORTS.join(', ')}`, by)
    } else if (!SORTS.includes(sort as (typeof SORTS)[number])) {
      provider.fail(provider.at('sort'), `must be one of ${SORTS.join(', ')}, or { by, partition }`, sort)
    }
    preferences.sort = by === null ? null : (by as ProviderSort)
  }
  for (const name of ['preferred_max_latency', 'preferred_min_throughput']) {
    const value = provider.raw(name)
    if (value === undefined || value === null) continue
    if (typeof value === 'number') provider.checkNumber(provider.at(name), value, { min: 0 })
    else if (typeof value !== 'object' || Array.isArray(value)) provider.fail(provider.at(name), 'must be a number or an object of percentile cutoffs', value)
    else (provider.optionalObject(name) as BodyReader).known(PERCENTILE_FIELDS)
  }
  return preferences
}

/** The preferences of a request without `provider`: a new object each time (routing reads it, and nothing may share it). */
function defaultPreferences(): ProviderPreferences {
  return {
    allowFallbacks: true,
    only: null,
    ignore: null,
    order: null,
    quantizations: null,
    requireParameters: false,
    dataCollection: 'allow',
    maxPrice: {},
    sort: null,
  }
}

/** A boolean field that may be null (null: as absent). */
export function nullableBoolean(reader: BodyReader, name: string): boolean | undefined {
  if (reader.raw(name) === null) return undefined
  return reader.optionalBoolean(name)
}

/**
 * `response_format` (chat's, and a text completion's): checked by its type, the fields of its
 * `json_schema` too, the schema compiled (a structural fault is the 400 naming its keyword's path).
 * The parameter it uses is pushed on `parameters`. Absent (or null, where `nullable`): free text.
 */
export function readResponseFormat(body: BodyReader, parameters: SupportedParameter[], nullable = false): OutputFormat {
  const given = body.optionalObject('response_format', nullable)
  if (given === undefined || given === null) return null
  // Typed, so that its `fail` (which never returns) narrows what follows it.
  const format: BodyReader = given
  const type = format.optionalEnum('type', RESPONSE_FORMATS)
  if (type === undefined) format.fail(format.at('type'), 'is required')
  format.known(RESPONSE_FORMAT_FIELDS[type] as ReadonlySet<string>)
  parameters.push(type === 'json_schema' ? 'structured_outputs' : 'response_format')
  if (type === 'json_object') return { type: 'json_object' }
  if (type !== 'json_schema') return null
  const spec = format.optionalObject('json_schema')
  if (spec === undefined || spec === null) format.fail(format.at('json_schema'), 'is required: { "name", "schema", "strict"? }')
  spec.known(JSON_SCHEMA_FIELDS)
  spec.optionalString('name', NON_EMPTY)
  nullableBoolean(spec, 'strict')
  const schema = spec.raw('schema')
  // Without a schema, the answer is any JSON object.
  const text = schema === undefined || schema === null ? '' : JSON.stringify(schema)
  return text === '' ? { type: 'json_object' } : { type: 'json_schema', schema: schemaAt(spec, spec.at('schema'), schema, text), text }
}

/** Checks that a field is an object (or null when `nullable`); absent is fine. */
function objectField(body: BodyReader, name: string, nullable = false): void {
  body.optionalObject(name, nullable)
}

/** Checks that a field is an array; absent is fine. */
function arrayField(body: BodyReader, name: string): unknown[] | undefined {
  return body.optionalArray(name) ?? undefined
}

/**
 * `model`, then each of `models`, in order and without repeats, with the field each came from
 * (`model`, `models[2]`) for the 400 that names an unknown one. One of them is required.
 */
export function readModels(body: BodyReader): Pick<ChatInput, 'models' | 'modelFields'> {
  const model = body.optionalString('model', NON_EMPTY)
  const models = readNames(body, 'models') ?? []
  if (model === undefined && models.length === 0) body.fail('model', 'is required: give `model`, or a non-empty `models` list')
  if (models.length === 0) return { models: [model as string], modelFields: ['model'] }
  const sources = new Map<string, string>()
  if (model !== undefined) sources.set(model, 'model')
  models.forEach((id, i) => {
    if (!sources.has(id)) sources.set(id, `models[${i}]`)
  })
  return { models: [...sources.keys()], modelFields: [...sources.values()] }
}

/**
 * Reads and checks a chat request body. Throws the 400 of the first field that is wrong, naming
 * its path (`messages[2].content`, `provider.order[1]`). A field neither the SDK's ChatRequest nor
 * real clients have is refused or listed as `unknownFields` says (by default refused).
 */
export function readChatRequest(value: Record<string, unknown>, unknownFields: UnknownFields = REFUSE_UNKNOWN): ChatInput {
  return readOnce(readInputs, value, unknownFields, readChatInput)
}

/** Inputs read from shared bodies (decisions/0063): a request that repeats a body skips the reading. */
const readInputs = new WeakMap<object, ReadMemo<ChatInput>>()

/** The reading itself: a body in one of the plain shapes in one pass, any other field by field. Frozen for a shared body. */
function readChatInput(value: Record<string, unknown>, unknownFields: UnknownFields): ChatInput {
  const input = readPlainChatRequest(value) ?? readAnyChatRequest(value, unknownFields)
  return isSharedBody(value) ? freezeChatInput(input) : input
}

/**
 * Freezes what a ChatInput holds, but not the compiled schemas (each keeps the values it made,
 * decisions/0048): an input shared by many requests that one of them changed would change the
 * others' replies; frozen, the change throws where it is made.
 */
export function freezeChatInput(input: ChatInput): ChatInput {
  for (let i = 0; i < input.messages.length; i++) Object.freeze(input.messages[i])
  Object.freeze(input.messages)
  Object.freeze(input.models)
  Object.freeze(input.modelFields)
  Object.freeze(input.parameters)
  const provider = input.provider
  Object.freeze(provider.only)
  Object.freeze(provider.ignore)
  Object.freeze(provider.order)
  Object.freeze(provider.quantizations)
  Object.freeze(provider.maxPrice)
  Object.freeze(provider)
  const demands = input.demands
  for (let i = 0; i < demands.tools.length; i++) Object.freeze(demands.tools[i])
  Object.freeze(demands.tools)
  Object.freeze(demands.stop)
  Object.freeze(demands.reasoning)
  if (typeof demands.toolChoice === 'object') Object.freeze(demands.toolChoice)
  if (demands.format !== null) Object.freeze(demands.format)
  Object.freeze(demands)
  return Object.freeze(input)
}

/** The roles whose `{ role, content }` message with text content the plain reader takes as it is. */
const PLAIN_ROLES: ReadonlySet<string> = new Set(['system', 'developer', 'user', 'assistant'])

/**
 * The most common request, read in one pass over the fields it has: `model`, `messages` whose every
 * message is `{ role, content }` with text content (a tool message needs more), and optionally
 * `stream` and `max_tokens`; nothing else. Undefined for any other body, and for any value the
 * general reader would refuse, which then reads it again and names the field. It gives what the
 * general reader gives (test/inference/chat-request-plain.test.ts compares the two over random
 * bodies): that reader looks for each of the forty-odd fields a request may have, one at a time,
 * and a request's code mostly runs before the JIT compiles it, where each look costs (decisions/0033).
 */
function readPlainChatRequest(value: Record<string, unknown>): ChatInput | undefined {
  let model: unknown
  let messages: unknown
  let stream: unknown
  let maxTokens: unknown
  for (const name in value) {
    if (!Object.hasOwn(value, name)) return undefined
    if (name === 'model') model = value[name]
    else if (name === 'messages') messages = value[name]
    else if (name === 'stream') stream = value[name]
    else if (name === 'max_tokens') maxTokens = value[name]
    else return undefined
  }
  if (typeof model !== 'string' || model === '' || !Array.isArray(messages) || messages.length === 0) return undefined
  if (stream !== undefined && typeof stream !== 'boolean') return undefined
  if (maxTokens !== undefined && maxTokens !== null && !(typeof maxTokens === 'number' && Number.isSafeInteger(maxTokens) && maxTokens >= 1)) return undefined
  const read: InputMessage[] = []
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i] as Record<string, unknown> | null
    if (typeof message !== 'object' || message === null || Array.isArray(message)) return undefined
    let role: unknown
    let content: unknown
    let fields = 0
    for (const name in message) {
      if (!Object.hasOwn(message, name)) return undefined
      if (name === 'role') role = message[name]
      else if (name === 'content') content = message[name]
      else return undefined
      fields++
    }
    if (fields !== 2 || typeof role !== 'string' || !PLAIN_ROLES.has(role) || typeof content !== 'string') return undefined
    read.push({ role: role as InputMessage['role'], text: content, mediaParts: 0, toolCallChars: 0 })
  }
  const cap = maxTokens === undefined ? null : (maxTokens as number | null)
  return {
    models: [model],
    modelFields: ['model'],
    messages: read,
    toolChars: 0,
    hasTools: false,
    maxTokens: cap,
    stream: stream === true,
    provider: defaultPreferences(),
    parameters: cap === null ? [] : ['max_tokens'],
    user: null,
    sessionId: null,
    demands: NO_DEMANDS,
  }
}

/** Any chat request body, field by field (see readChatRequest); exported for the tests that compare the two readers. */
export function readAnyChatRequest(value: Record<string, unknown>, unknownFields: UnknownFields = REFUSE_UNKNOWN): ChatInput {
  const body: BodyReader = new BodyReader(value, '', unknownFields)
  body.known(CHAT_KNOWN_FIELDS)
  // The fields read below are known ones, which no object inherits, and a parsed body has no
  // undefined: `value[name] !== undefined` says a field is present. Absent fields (most of them,
  // in most requests) are then passed over without a call.
  const parameters: SupportedParameter[] = []
  const uses = (name: string, parameter: SupportedParameter): void => {
    const given = value[name]
    if (given !== undefined && given !== null) parameters.push(parameter)
  }
  const { models, modelFields } = readModels(body)
  const messages = readMessages(body)
  // Indexed loops over the field tables: a request's code mostly runs before the JIT compiles it,
  // where `for...of` with destructuring costs an iterator and its results per field (decisions/0033).
  for (let i = 0; i < NUMBER_FIELDS.length; i++) {
    const field = NUMBER_FIELDS[i] as (typeof NUMBER_FIELDS)[number]
    const name = field[0]
    if (value[name] === undefined) continue
    body.optionalNumber(name, field[1])
    uses(name, field[2])
  }
  const maxTokens = value['max_tokens'] === undefined ? null : (body.optionalNumber('max_tokens', TOKEN_CAP) ?? null)
  const maxCompletionTokens = value['max_completion_tokens'] === undefined ? null : (body.optionalNumber('max_completion_tokens', TOKEN_CAP) ?? null)
  uses('max_tokens', 'max_tokens')
  // Routing reads `max_completion_tokens` as `max_tokens`, which is what endpoints list.
  if (maxCompletionTokens !== null) parameters.push('max_tokens')
  const stream = value['stream'] === undefined ? false : (body.optionalBoolean('stream') ?? false)
  // Every field of `stream_options` is known (clients send more than the SDK's `include_usage`).
  if (value['stream_options'] !== undefined) {
    const streamOptions = body.optionalObject('stream_options', true)
    if (streamOptions && streamOptions.raw('include_usage') !== null) streamOptions.optionalBoolean('include_usage')
  }
  const stop = value['stop']
  if (stop !== undefined && stop !== null && typeof stop !== 'string') {
    if (!Array.isArray(stop) || stop.some((s) => typeof s !== 'string')) body.fail('stop', 'must be a string or an array of strings', stop)
  }
  uses('stop', 'stop')
  if (value['logit_bias'] !== undefined) {
    const logitBias = body.optionalObject('logit_bias', true)
    if (logitBias) for (const key of Object.keys(logitBias.value)) logitBias.checkNumber(logitBias.at(key), logitBias.raw(key), { min: -100, max: 100 })
    uses('logit_bias', 'logit_bias')
  }
  if (value['logprobs'] !== undefined) {
    nullableBoolean(body, 'logprobs')
    uses('logprobs', 'logprobs')
  }
  if (value['parallel_tool_calls'] !== undefined) {
    nullableBoolean(body, 'parallel_tool_calls')
    uses('parallel_tool_calls', 'parallel_tool_calls')
  }
  const tools = value['tools'] === undefined ? undefined : arrayField(body, 'tools')
  const declared: DeclaredTool[] = []
  tools?.forEach((tool, i) => {
    if (typeof tool !== 'object' || tool === null || Array.isArray(tool)) body.fail(`tools[${i}]`, 'must be a tool object', tool)
    const t: BodyReader = body.child(tool as Record<string, unknown>, `tools[${i}]`)
    const type = t.string('type')
    // A server tool (`openrouter:web_search`, ...) is taken as it is: its `parameters` are the service's.
    if (type === 'function') {
      t.known(TOOL_FIELDS)
      readCacheControl(t)
      const fn = t.optionalObject('function')
      if (fn === undefined || fn === null) t.fail(t.at('function'), 'is required for a function tool')
      fn.known(FUNCTION_FIELDS)
      const name = fn.string('name', NON_EMPTY)
      fn.optionalString('description', NULLABLE_STRING)
      fn.optionalObject('parameters', true)
      declared.push(declaredTool(fn, name, fn.raw('parameters'), fn.at('parameters')))
    }
  })
  uses('tools', 'tools')
  const toolChoice = value['tool_choice']
  let choice: ToolChoice | null = null
  if (toolChoice !== undefined && toolChoice !== null) {
    if (typeof toolChoice !== 'string' && (typeof toolChoice !== 'object' || toolChoice === null || Array.isArray(toolChoice))) {
      body.fail('tool_choice', 'must be "none", "auto", "required" or a tool choice object', toolChoice)
    }
    if (typeof toolChoice === 'string' && !['none', 'auto', 'required'].includes(toolChoice)) body.fail('tool_choice', 'must be "none", "auto", "required" or a tool choice object', toolChoice)
    if (typeof toolChoice === 'string') choice = toolChoice as ToolChoice
    else if ((toolChoice as Record<string, unknown>)['type'] === 'function') {
      const chosen: BodyReader = body.optionalObject('tool_choice') as BodyReader
      chosen.known(TOOL_CHOICE_FIELDS)
      const fn = chosen.optionalObject('function')
      if (fn === undefined || fn === null) chosen.fail(chosen.at('function'), 'is required: { "name": "<a declared tool>" }')
      fn.known(CHOSEN_FUNCTION_FIELDS)
      choice = { name: fn.string('name', NON_EMPTY) }
    }
    checkToolChoice(body, choice, declared, 'tool_choice', 'tool_choice.function.name')
    uses('tool_choice', 'tool_choice')
  }
  const outputFormat = value['response_format'] === undefined ? null : readResponseFormat(body, parameters)
  if (value['reasoning'] !== undefined) {
    readReasoning(body)
    uses('reasoning', 'reasoning')
  }
  if (value['reasoning_effort'] !== undefined) {
    body.optionalString('reasoning_effort', NULLABLE_STRING)
    uses('reasoning_effort', 'reasoning_effort')
  }
  if (value['prediction'] !== undefined) {
    body.optionalObject('prediction', true)?.known(PREDICTION_FIELDS)
    uses('prediction', 'prediction')
  }
  for (let i = 0; i < OTHER_OBJECT_FIELDS.length; i++) {
    const name = OTHER_OBJECT_FIELDS[i] as (typeof OTHER_OBJECT_FIELDS)[number]
    if (value[name] !== undefined) objectField(body, name)
  }
  if (value['cache_control'] !== undefined) readCacheControl(body)
  if (value['debug'] !== undefined) body.optionalObject('debug')?.known(DEBUG_FIELDS)
  if (value['prompt_cache_options'] !== undefined) body.optionalObject('prompt_cache_options', true)?.known(PROMPT_CACHE_OPTIONS_FIELDS)
  if (value['plugins'] !== undefined) readPlugins(body)
  for (let i = 0; i < OTHER_ARRAY_FIELDS.length; i++) {
    const name = OTHER_ARRAY_FIELDS[i] as (typeof OTHER_ARRAY_FIELDS)[number]
    if (value[name] !== undefined) arrayField(body, name)
  }
  if (value['prompt_cache_key'] !== undefined) body.optionalString('prompt_cache_key', NULLABLE_STRING)
  if (value['service_tier'] !== undefined) body.optionalString('service_tier', NULLABLE_STRING)
  const sessionId = value['session_id'] === undefined ? null : (body.optionalString('session_id', SESSION_ID) ?? null)
  const user = value['user'] === undefined ? null : (body.optionalString('user', ANY_STRING) ?? null)
  const provider = readProvider(body)
  readClientFields(body, CHAT_REQUEST_FIELDS, parameters)
  const logprobs = value['logprobs'] === true ? ((value['top_logprobs'] as number | null | undefined) ?? 0) : null
  const seed = typeof value['seed'] === 'number' ? value['seed'] : null
  const demands = demandsOf({
    tools: declared,
    toolChoice: choice,
    parallelToolCalls: value['parallel_tool_calls'] !== false,
    format: outputFormat,
    reasoning: readReasoningAsk(body, value),
    stop: stopSequences(stop),
    logprobs,
    seed,
  })
  return {
    models,
    modelFields,
    messages,
    toolChars: tools === undefined ? 0 : JSON.stringify(tools).length,
    hasTools: tools !== undefined && tools.length > 0,
    maxTokens: maxCompletionTokens ?? maxTokens,
    stream,
    provider,
    parameters,
    user,
    sessionId,
    demands,
  }
}

/** Fields only type-checked: objects, and arrays. */
const OTHER_OBJECT_FIELDS = ['image_config', 'metadata', 'trace'] as const
const OTHER_ARRAY_FIELDS = ['modalities', 'stop_server_tools_when'] as const
