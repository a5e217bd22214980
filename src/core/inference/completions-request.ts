// The body of `POST /completions`, the legacy text completions route (decisions/0039), read field
// by field with BodyReader into the ChatInput the chat pipeline runs on: the prompt is one user
// message, for pricing, routing and the default reply alike. The fields are the service's
// completion request (its API reference) and the openai clients' `completions.create`; the ones
// the simulator acts on are read, the rest type-checked and without effect, as on the service.
import { NO_DEMANDS, demandsOf, stopSequences } from './demands.js'
import { BodyReader, REFUSE_UNKNOWN, type UnknownFields } from '../body.js'
import { readClientFields, withClientFields } from './client-fields.js'
import type { SupportedParameter } from '../types.js'
import { type ChatInput, NUMBER_FIELDS, nullableBoolean, readModels, readNames, readProvider } from './request.js'

/** Every top-level field of a text completion request. */
export const COMPLETIONS_REQUEST_FIELDS: ReadonlySet<string> = new Set([
  // The service's completion request.
  'model', 'models', 'prompt', 'stream', 'max_tokens', 'temperature', 'seed', 'top_p', 'top_k', 'frequency_penalty',
  'presence_penalty', 'repetition_penalty', 'logit_bias', 'top_logprobs', 'min_p', 'top_a', 'transforms', 'route',
  'provider', 'reasoning', 'usage', 'user',
  // What the openai clients' completions.create send besides.
  'best_of', 'echo', 'logprobs', 'n', 'stop', 'stream_options', 'suffix',
  // What the service reads on every inference route.
  'include_reasoning', 'metadata', 'plugins', 'response_format', 'service_tier', 'session_id', 'trace',
])

const TOKEN_CAP = { integer: true, min: 1, nullable: true } as const
/** `n` and `best_of`: how many completions to make (the simulator makes one). */
const COUNT = { integer: true, min: 1, nullable: true } as const
/** `logprobs` of a text completion: how many most likely tokens to list, 0 to 5. */
const LOGPROBS = { integer: true, min: 0, max: 5, nullable: true } as const

/**
 * `prompt`: a string, or a non-empty list of strings read as one prompt, its strings joined with
 * newlines (decisions/0039: the service takes a string; one request is one generation). Token-id
 * lists are refused, naming the element.
 */
function readPrompt(body: BodyReader): string {
  const prompt = body.raw('prompt')
  if (prompt === undefined || prompt === null) body.fail('prompt', 'is required: the text to complete, a string or a list of strings')
  if (typeof prompt === 'string') return prompt
  if (!Array.isArray(prompt)) body.fail('prompt', 'must be a string or an array of strings', prompt)
  if (prompt.length === 0) body.fail('prompt', 'must not be an empty array: give the text to complete')
  prompt.forEach((piece, i) => {
    if (typeof piece !== 'string') body.fail(`prompt[${i}]`, 'must be a string (token-id prompts are not simulated)', piece)
  })
  return prompt.join('\n')
}

/**
 * Reads and checks a text completion body. Throws the 400 of the first field that is wrong,
 * naming its path (`prompt[1]`, `provider.order[0]`).
 */
export function readCompletionsRequest(value: Record<string, unknown>, unknownFields: UnknownFields = REFUSE_UNKNOWN): ChatInput {
  const body: BodyReader = new BodyReader(value, '', unknownFields)
  // Known: this route's fields and what real clients send to every inference route (decisions/0036).
  body.known(withClientFields(COMPLETIONS_REQUEST_FIELDS))
  const parameters: SupportedParameter[] = []
  const uses = (name: string, parameter: SupportedParameter): void => {
    if (body.has(name) && body.raw(name) !== null) parameters.push(parameter)
  }
  const { models, modelFields } = readModels(body)
  const prompt = readPrompt(body)
  for (const [name, rule, parameter] of NUMBER_FIELDS) {
    body.optionalNumber(name, rule)
    uses(name, parameter)
  }
  const maxTokens = body.optionalNumber('max_tokens', TOKEN_CAP) ?? null
  uses('max_tokens', 'max_tokens')
  const stream = body.optionalBoolean('stream') ?? false
  // Every field of stream_options is known (decisions/0036): include_usage is checked.
  const streamOptions = body.optionalObject('stream_options', true)
  if (streamOptions && streamOptions.raw('include_usage') !== null) streamOptions.optionalBoolean('include_usage')
  const stop = body.raw('stop')
  if (stop !== undefined && stop !== null && typeof stop !== 'string' && (!Array.isArray(stop) || stop.some((s) => typeof s !== 'string'))) {
    body.fail('stop', 'must be a string or an array of strings', stop)
  }
  uses('stop', 'stop')
  const logitBias = body.optionalObject('logit_bias', true)
  if (logitBias) for (const key of Object.keys(logitBias.value)) logitBias.checkNumber(logitBias.at(key), logitBias.raw(key), { min: -100, max: 100 })
  uses('logit_bias', 'logit_bias')
  body.optionalNumber('logprobs', LOGPROBS)
  uses('logprobs', 'logprobs')
  body.optionalNumber('n', COUNT)
  body.optionalNumber('best_of', COUNT)
  nullableBoolean(body, 'echo')
  body.optionalString('suffix', { nullable: true })
  const usage = body.optionalObject('usage', true)
  if (usage) {
    usage.known(new Set(['include']))
    usage.optionalBoolean('include')
  }
  readNames(body, 'transforms')
  body.optionalString('route', { nullable: true })
  body.optionalObject('reasoning', true)
  uses('reasoning', 'reasoning')
  nullableBoolean(body, 'include_reasoning')
  uses('include_reasoning', 'include_reasoning')
  const responseFormat = body.optionalObject('response_format', true)
  if (responseFormat) {
    const type = responseFormat.optionalEnum('type', ['text', 'json_object', 'json_schema', 'grammar', 'python'])
    if (type === undefined) responseFormat.fail(responseFormat.at('type'), 'is required')
    parameters.push(type === 'json_schema' ? 'structured_outputs' : 'response_format')
  }
  for (const name of ['metadata', 'trace']) body.optionalObject(name)
  body.optionalArray('plugins')
  body.optionalString('service_tier', { nullable: true })
  const sessionId = body.optionalString('session_id', { maxLength: 256 }) ?? null
  const user = body.optionalString('user', {}) ?? null
  const provider = readProvider(body)
  readClientFields(body, COMPLETIONS_REQUEST_FIELDS, parameters)
  return {
    models,
    modelFields,
    messages: [{ role: 'user', text: prompt, mediaParts: 0, toolCallChars: 0 }],
    toolChars: 0,
    hasTools: false,
    maxTokens,
    stream,
    provider,
    parameters,
    user,
    sessionId,
    // A text completion is text: its stop sequences cut it and its seed varies it (decisions/0048).
    demands: demandsOf({ ...NO_DEMANDS, stop: stopSequences(stop), seed: typeof value['seed'] === 'number' ? value['seed'] : null }),
  }
}
