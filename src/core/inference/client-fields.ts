// The fields real clients send to every inference route beside those of the official SDK's
// request schemas (decisions/0036): the openai clients, the Vercel AI SDK's OpenRouter provider,
// LangChain, LiteLLM and Go's clients send them, and the real service takes them. Each route's
// reader knows its SDK schema's fields and these; what it does not read itself, this file checks
// loosely (the type, where it is clear) and then ignores, as the service ignores what it does not
// act on. A field outside both is an unknown field (src/core/body.ts: listed, or refused when strict).
import type { BodyReader } from '../body.js'
import type { SupportedParameter } from '../types.js'

/**
 * Request fields known on every inference route (`/chat/completions`, `/responses`,
 * `/embeddings`, and any other reader that uses this table), whatever the SDK's schema for the
 * route says: what the real service documents and its common clients send.
 */
export const CLIENT_FIELDS: ReadonlySet<string> = new Set([
  'cache_control', 'function_call', 'functions', 'include_reasoning', 'metadata', 'models', 'n', 'plugins', 'prediction',
  'prompt_cache_retention', 'provider', 'reasoning', 'route', 'safety_identifier', 'service_tier', 'session_id', 'store',
  'stream_options', 'trace', 'transforms', 'usage', 'user', 'verbosity', 'web_search_options',
])

/** The known top-level fields of a route: its SDK schema's, and {@link CLIENT_FIELDS}. */
export function withClientFields(sdkFields: Iterable<string>): ReadonlySet<string> {
  return new Set([...sdkFields, ...CLIENT_FIELDS])
}

/** `cache_control` wherever it may appear: the request, a message, a content part, a tool. */
export const CACHE_CONTROL_FIELDS: ReadonlySet<string> = new Set(['type', 'ttl'])

/** `reasoning` as the SDK and the service's documentation describe it. */
const REASONING_FIELDS: ReadonlySet<string> = new Set(['effort', 'summary', 'max_tokens', 'exclude', 'enabled'])

/** The fields of each plugin the SDK describes, by `id`; a plugin of another id is taken as it is. */
const PLUGIN_FIELDS: Record<string, ReadonlySet<string>> = {
  'auto-beta-router': new Set(['id', 'allowed_models', 'cost_quality_tradeoff', 'cost_tier', 'enabled', 'excluded_models']),
  'auto-router': new Set(['id', 'allowed_models', 'cost_quality_tradeoff', 'cost_tier', 'enabled', 'excluded_models', 'pin_model']),
  'context-compression': new Set(['id', 'enabled', 'engine']),
  'file-parser': new Set(['id', 'enabled', 'pdf']),
  fusion: new Set(['id', 'analysis_models', 'enabled', 'max_tool_calls', 'model', 'preset', 'tools']),
  moderation: new Set(['id']),
  'pareto-router': new Set(['id', 'enabled', 'max_price', 'min_coding_score', 'price_source']),
  'response-healing': new Set(['id', 'enabled']),
  'switchyard-router': new Set(['id', 'algorithm']),
  web: new Set(['id', 'enabled', 'engine', 'exclude_domains', 'include_domains', 'max_results', 'max_uses', 'mode', 'search_prompt', 'user_location', 'x_search']),
  'web-fetch': new Set(['id', 'allowed_domains', 'blocked_domains', 'max_content_tokens', 'max_uses']),
}

const USAGE_FIELDS: ReadonlySet<string> = new Set(['include'])
const FUNCTION_FIELDS: ReadonlySet<string> = new Set(['name', 'description', 'parameters', 'strict'])
const FUNCTION_CALL_FIELDS: ReadonlySet<string> = new Set(['name'])
const NAME = { minLength: 1 } as const
const NULLABLE = { nullable: true } as const
const SESSION_ID = { maxLength: 256 } as const
const COUNT = { integer: true, min: 1, nullable: true } as const

/** Checks `cache_control` of `reader` (absent is fine): an object of `type` and `ttl`. */
export function readCacheControl(reader: BodyReader): void {
  const control = reader.optionalObject('cache_control')
  if (control === undefined || control === null) return
  control.known(CACHE_CONTROL_FIELDS)
  control.optionalString('type', {})
  control.optionalString('ttl', NULLABLE)
}

/** Checks `reasoning`: an object of the documented fields (or null). */
export function readReasoning(body: BodyReader): void {
  const reasoning = body.optionalObject('reasoning', true)
  if (reasoning === undefined || reasoning === null) return
  reasoning.known(REASONING_FIELDS)
  reasoning.optionalString('effort', NULLABLE)
  reasoning.optionalString('summary', NULLABLE)
  reasoning.optionalNumber('max_tokens', { integer: true, min: 0, nullable: true })
  for (const name of ['exclude', 'enabled']) if (reasoning.raw(name) !== null) reasoning.optionalBoolean(name)
}

/** Checks `plugins`: an array of objects, each with a string `id`; a plugin the SDK describes has its fields checked too. */
export function readPlugins(body: BodyReader): void {
  const plugins = body.optionalArray('plugins', { nullable: true })
  plugins?.forEach((item, i) => {
    const at = `${body.at('plugins')}[${i}]`
    if (typeof item !== 'object' || item === null || Array.isArray(item)) body.fail(at, 'must be a plugin object, such as { "id": "web" }', item)
    const plugin = body.child(item as Record<string, unknown>, at)
    const id = plugin.string('id', NAME)
    // Own entries only: a plugin called `constructor` is one of tomorrow's, not Object's.
    const fields = Object.hasOwn(PLUGIN_FIELDS, id) ? PLUGIN_FIELDS[id] : undefined
    if (fields !== undefined) plugin.known(fields)
    if (plugin.raw('enabled') !== null) plugin.optionalBoolean('enabled')
  })
}

/**
 * Checks `verbosity` of `reader` (the request, or a Responses request's `text`): a string, or null.
 * Whether it is given (neither absent nor null): then it is a parameter the request uses.
 */
export function readVerbosity(reader: BodyReader): boolean {
  return (reader.optionalString('verbosity', NULLABLE) ?? null) !== null
}

/** Checks the legacy `functions`: an array of function definitions. */
function readFunctions(body: BodyReader): void {
  const functions = body.optionalArray('functions', { nullable: true })
  functions?.forEach((item, i) => {
    const at = `${body.at('functions')}[${i}]`
    if (typeof item !== 'object' || item === null || Array.isArray(item)) body.fail(at, 'must be a function definition object', item)
    const fn = body.child(item as Record<string, unknown>, at)
    fn.known(FUNCTION_FIELDS)
    fn.string('name', NAME)
    fn.optionalString('description', NULLABLE)
    fn.optionalObject('parameters', true)
  })
}

/** Checks the legacy `function_call`: "none", "auto" or `{ name }`. */
function readFunctionCall(body: BodyReader): void {
  const call = body.raw('function_call')
  if (call === undefined || call === null || call === 'none' || call === 'auto') return
  if (typeof call !== 'object' || Array.isArray(call)) body.fail(body.at('function_call'), 'must be "none", "auto" or { "name": ... }', call)
  const named = body.optionalObject('function_call') as BodyReader
  named.known(FUNCTION_CALL_FIELDS)
  named.string('name', NAME)
}

/** Each field of {@link CLIENT_FIELDS} and its loose check. */
const CHECKS: Record<string, (body: BodyReader, name: string) => void> = {
  cache_control: (body) => readCacheControl(body),
  function_call: (body) => readFunctionCall(body),
  functions: (body) => readFunctions(body),
  include_reasoning: (body, name) => body.raw(name) === null || body.optionalBoolean(name),
  metadata: (body, name) => body.optionalObject(name, true),
  models: (body, name) => {
    const list = body.optionalArray(name, NULLABLE)
    list?.forEach((item, i) => {
      if (typeof item !== 'string' || item === '') body.fail(`${body.at(name)}[${i}]`, 'must be a non-empty string', item)
    })
  },
  n: (body, name) => body.optionalNumber(name, COUNT),
  plugins: (body) => readPlugins(body),
  prediction: (body, name) => body.optionalObject(name, true),
  // The openai clients' own (`prompt_cache_retention: "24h"`, a hashed user id), typed parameters of their create calls.
  prompt_cache_retention: (body, name) => body.optionalString(name, NULLABLE),
  provider: (body, name) => body.optionalObject(name, true),
  reasoning: (body) => readReasoning(body),
  route: (body, name) => body.optionalString(name, NULLABLE),
  safety_identifier: (body, name) => body.optionalString(name, NULLABLE),
  service_tier: (body, name) => body.optionalString(name, NULLABLE),
  session_id: (body, name) => body.optionalString(name, SESSION_ID),
  store: (body, name) => body.raw(name) === null || body.optionalBoolean(name),
  stream_options: (body, name) => {
    const options = body.optionalObject(name, true)
    if (options && options.raw('include_usage') !== null) options.optionalBoolean('include_usage')
  },
  trace: (body, name) => body.optionalObject(name, true),
  transforms: (body, name) => {
    const list = body.optionalArray(name, NULLABLE)
    list?.forEach((item, i) => {
      if (typeof item !== 'string') body.fail(`${body.at(name)}[${i}]`, 'must be a string, such as "middle-out"', item)
    })
  },
  usage: (body, name) => {
    const usage = body.optionalObject(name, true)
    if (usage === undefined || usage === null) return
    usage.known(USAGE_FIELDS)
    if (usage.raw('include') !== null) usage.optionalBoolean('include')
  },
  user: (body, name) => body.optionalString(name, {}),
  verbosity: (body) => readVerbosity(body),
  web_search_options: (body, name) => body.optionalObject(name, true),
}

/** The parameters of `supported_parameters` the fields of {@link CLIENT_FIELDS} are, for `require_parameters`. */
const PARAMETERS: Record<string, SupportedParameter> = {
  include_reasoning: 'include_reasoning',
  reasoning: 'reasoning',
  prediction: 'prediction',
  verbosity: 'verbosity',
  web_search_options: 'web_search_options',
}

/**
 * Checks the fields of {@link CLIENT_FIELDS} that the route's reader does not read itself, loosely:
 * the type where it is clear, the fields of a nested object where the SDK or the service's
 * documentation lists them. `read` is the set of fields the route reads (its SDK schema's); a
 * client field among them is left to the route. A null is absent: the SDK's schema for the route
 * does not have the field, so nothing says it cannot be null (decisions/0036). A wrong value is a
 * 400 naming it; a right one has no effect, but counts as a parameter the request uses
 * (`parameters`) where `supported_parameters` names it.
 */
export function readClientFields(body: BodyReader, read: ReadonlySet<string>, parameters?: SupportedParameter[]): void {
  const value = body.value
  for (const name of CLIENT_FIELDS) {
    if (read.has(name) || value[name] === undefined || value[name] === null) continue
    ;(CHECKS[name] as (body: BodyReader, name: string) => void)(body, name)
    const parameter = PARAMETERS[name]
    if (parameters !== undefined && parameter !== undefined) parameters.push(parameter)
  }
}
