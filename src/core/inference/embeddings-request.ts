// Step 1 of `POST /embeddings`: the body, read field by field with BodyReader (decisions/0030).
// Every field of the SDK's CreateEmbeddingsRequest body and every field real clients send to an
// inference route (client-fields.ts) is known; any other is accepted and listed for the journal,
// or refused under `strictRequests` (decisions/0036). `input` takes every form the SDK sends.
import { BodyReader, REFUSE_UNKNOWN, type UnknownFields } from '../body.js'
import { readClientFields, withClientFields } from './client-fields.js'
import { type ProviderPreferences, readProvider } from './request.js'
import { MEDIA_PART_TOKENS, textTokens } from './tokens.js'

/** One input as the pipeline reads it. */
export interface EmbeddingInput {
  /** What the vector is made from: the text (text parts joined with newlines, media parts' data after it), or the tokens. */
  key: string
  /** The text a responder's `match.input` is tested against; null for a token array. */
  text: string | null
  /** Its tokens by the estimator: a token per 4 characters, rounded up; a token array's length; 85 per media part. */
  tokens: number
  /** Parts that are not text (images, audio, video, files). */
  mediaParts: number
}

/** An embeddings request as the pipeline reads it. */
export interface EmbeddingsInput {
  model: string
  inputs: EmbeddingInput[]
  /** `dimensions`; null: the model's own. */
  dimensions: number | null
  encodingFormat: 'float' | 'base64'
  provider: ProviderPreferences
  user: string | null
  sessionId: string | null
}

/** Every field of the SDK's CreateEmbeddingsRequest body. */
export const EMBEDDINGS_REQUEST_FIELDS: ReadonlySet<string> = new Set(['dimensions', 'encoding_format', 'input', 'input_type', 'model', 'provider', 'session_id', 'trace', 'user'])

/** The known top-level fields of an embeddings request: the SDK's, and those real clients send to every inference route. */
const EMBEDDINGS_KNOWN_FIELDS = withClientFields(EMBEDDINGS_REQUEST_FIELDS)

/** Most inputs one request may carry (OpenAI's documented limit for an input array). */
export const MAX_EMBEDDING_INPUTS = 2048

/** Content part types of a multimodal input, and the field each carries. */
const PART_FIELD: Record<string, string> = { text: 'text', image_url: 'image_url', input_audio: 'input_audio', input_video: 'input_video', input_file: 'input_file' }

const isTokenId = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0

function tokenInput(reader: BodyReader, path: string, list: unknown[]): EmbeddingInput {
  if (list.length === 0) reader.fail(path, 'must not be an empty token array')
  list.forEach((token, i) => {
    if (!isTokenId(token)) reader.fail(`${path}[${i}]`, 'must be a token id, a non-negative integer', token)
  })
  return { key: `\u0001tokens\u0001${list.join(',')}`, text: null, tokens: list.length, mediaParts: 0 }
}

function textInput(reader: BodyReader, path: string, text: string): EmbeddingInput {
  if (text === '') reader.fail(path, 'must not be an empty string')
  return { key: text, text, tokens: textTokens(text), mediaParts: 0 }
}

/** `{ content: [parts] }`: text parts count as text, every other part as 85 tokens. */
function contentInput(reader: BodyReader, path: string, item: unknown): EmbeddingInput {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) reader.fail(path, 'must be a string, a token id, a token array or { content: [parts] }, as the first input is', item)
  const input: BodyReader = reader.child(item as Record<string, unknown>, path)
  input.known(new Set(['content']))
  const parts = input.optionalArray('content', { minLength: 1 })
  if (parts === undefined || parts === null) input.fail(input.at('content'), 'is required: an array of content parts')
  const texts: string[] = []
  const media: string[] = []
  parts.forEach((part, i) => {
    const at = `${input.at('content')}[${i}]`
    if (typeof part !== 'object' || part === null || Array.isArray(part)) input.fail(at, 'must be a content part object', part)
    const p: BodyReader = input.child(part as Record<string, unknown>, at)
    const type = p.string('type')
    const field = Object.hasOwn(PART_FIELD, type) ? PART_FIELD[type] : undefined
    if (field === undefined) p.fail(p.at('type'), `must be one of ${Object.keys(PART_FIELD).join(', ')}`, type)
    p.known(new Set(['type', field]))
    if (type === 'text') {
      texts.push(p.string('text'))
      return
    }
    const value = p.optionalObject(field)
    if (value === undefined || value === null) p.fail(p.at(field), 'is required')
    if (type === 'image_url') {
      value.known(new Set(['url']))
      media.push(`image_url\u0001${value.string('url', { minLength: 1 })}`)
    } else {
      value.known(new Set(['data', 'format']))
      value.optionalString('format', {})
      media.push(`${type}\u0001${value.string('data', { minLength: 1 })}`)
    }
  })
  const text = texts.join('\n')
  return { key: media.length === 0 ? text : [text, ...media].join('\u0000'), text, tokens: textTokens(text) + media.length * MEDIA_PART_TOKENS, mediaParts: media.length }
}

function readInputs(body: BodyReader): EmbeddingInput[] {
  const raw = body.raw('input')
  const path = body.at('input')
  if (raw === undefined || raw === null) body.fail(path, 'is required: a string, an array of strings, a token array, an array of token arrays, or an array of { content: [parts] }')
  if (typeof raw === 'string') return [textInput(body, path, raw)]
  if (!Array.isArray(raw)) body.fail(path, 'must be a string, an array of strings, a token array, an array of token arrays, or an array of { content: [parts] }', raw)
  if (raw.length === 0) body.fail(path, 'must not be an empty array')
  const first = raw[0]
  // An array of token ids is one input; every other array is one input per item.
  if (typeof first === 'number') return [tokenInput(body, path, raw)]
  if (raw.length > MAX_EMBEDDING_INPUTS) body.fail(path, `must hold at most ${MAX_EMBEDDING_INPUTS} inputs`, raw.length)
  return raw.map((item, i) => {
    const at = `${path}[${i}]`
    if (typeof first === 'string') {
      if (typeof item !== 'string') body.fail(at, 'must be a string, as the first input is', item)
      return textInput(body, at, item)
    }
    if (Array.isArray(first)) {
      if (!Array.isArray(item)) body.fail(at, 'must be a token array, as the first input is', item)
      return tokenInput(body, at, item)
    }
    return contentInput(body, at, item)
  })
}

/**
 * Reads and checks an embeddings request body. Throws the 400 of the first field that is wrong,
 * naming its path (`input[3]`, `input[0].content[1].image_url.url`, `provider.order[1]`). A field
 * neither the SDK's request nor real clients have is refused or listed as `unknownFields` says (by
 * default refused).
 */
export function readEmbeddingsRequest(value: Record<string, unknown>, unknownFields: UnknownFields = REFUSE_UNKNOWN): EmbeddingsInput {
  const body: BodyReader = new BodyReader(value, '', unknownFields)
  body.known(EMBEDDINGS_KNOWN_FIELDS)
  const model = body.optionalString('model', { minLength: 1 })
  if (model === undefined) body.fail('model', 'is required: the id of an embeddings model')
  const inputs = readInputs(body)
  const dimensions = body.optionalNumber('dimensions', { integer: true, min: 1 }) ?? null
  const encodingFormat = body.optionalEnum('encoding_format', ['float', 'base64']) ?? 'float'
  body.optionalString('input_type', {})
  body.optionalObject('trace')
  const sessionId = body.optionalString('session_id', { maxLength: 256 }) ?? null
  const user = body.optionalString('user', {}) ?? null
  const provider = readProvider(body)
  readClientFields(body, EMBEDDINGS_REQUEST_FIELDS)
  return { model, inputs, dimensions, encodingFormat, provider, user, sessionId }
}
