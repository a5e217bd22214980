// The body of `POST /completions`, the legacy text completions route (decisions/0039), read field
// by field with BodyReader into the ChatInput the chat pipeline runs on: the prompt is one user
// message, for pricing, routing and the default reply alike. The fields are the service's
// completion request (its API reference) and the openai clients' `completions.create`; the ones
// the simulator acts on are read, the rest type-checked and without effect, as on the service.
import { NO_DEMANDS, demandsOf, readEffort, stopSequences } from './demands.js'
import { BodyReader, REFUSE_UNKNOWN, type UnknownFields } from '../body.js'
import { readClientFields, withClientFields } from './client-fields.js'
import type { SupportedParameter } from '../types.js'
import { type ChatInput, NUMBER_FIELDS, nullableBoolean, readModels, readProvider, readResponseFormat } from './request.js'

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

/**
 * The client fields (client-fields.ts) this reader reads itself, because the simulator acts on them.
 * Every other one (`reasoning`, `plugins`, `usage`, `metadata`...) is left to readClientFields, as on
 * every inference route: one reader per field, so it is checked here as chat checks it.
 */
const READ_HERE: ReadonlySet<string> = new Set(['models', 'provider', 'session_id', 'user'])

const TOKEN_CAP = { integer: true, min: 1, nullable: true } as const
/** `best_of`: how many completions to make (the simulator makes one). */
const COUNT = { integer: true, min: 1, nullable: true } as const
/** The SDK has no `/completions` operation, so no schema says a field cannot be null: null is absent (decisions/0036). */
const NULLABLE = { nullable: true } as const
const SESSION_ID = { maxLength: 256, nullable: true } as const
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
 * `reasoning.effort`, one of the service's efforts, as chat's reading of what the reply must do
 * checks it (readReasoningAsk); the rest of `reasoning` is readClientFields'. The text completion's
 * reply does not follow it (decisions/0039), so only the check is made.
 */
function checkEffort(body: BodyReader): void {
  const reasoning = body.raw('reasoning')
  if (typeof reasoning !== 'object' || reasoning === null || Array.isArray(reasoning)) return
  readEffort(body, (reasoning as Record<string, unknown>)['effort'], `${body.at('reasoning')}.effort`)
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
  const stream = nullableBoolean(body, 'stream') ?? false
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
  body.optionalNumber('best_of', COUNT)
  nullableBoolean(body, 'echo')
  body.optionalString('suffix', NULLABLE)
  // Chat's reader; the format is not followed: a text completion is text (decisions/0039).
  readResponseFormat(body, parameters, true)
  const sessionId = body.optionalString('session_id', SESSION_ID) ?? null
  const user = body.optionalString('user', NULLABLE) ?? null
  const provider = readProvider(body)
  readClientFields(body, READ_HERE, parameters)
  checkEffort(body)
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
