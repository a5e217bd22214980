// The body of `POST /responses` (the Responses API, what the official SDK's `callModel` sends),
// read into the same ChatInput the chat pipeline runs on (decisions/0031). Its input items become
// messages: a message item is a message, a function call is an assistant turn with a tool call, a
// function call's output is a tool message, a reasoning item is assistant text. What the result
// echoes back (instructions, sampling figures, function tools, tool choice) is read beside it.
import { BodyReader, isSharedBody, type ReadMemo, readOnce, REFUSE_UNKNOWN, type UnknownFields } from '../body.js'
import type { SupportedParameter } from '../types.js'
import { readClientFields, readPlugins, readVerbosity, withClientFields } from './client-fields.js'
import { type ChatInput, freezeChatInput, type InputMessage, nullableBoolean, readModels, readProvider } from './request.js'
import { type DeclaredTool, type OutputFormat, type ToolChoice, checkToolChoice, declaredTool, demandsOf, readReasoningAsk, schemaAt } from './demands.js'

/** Every top-level field of the SDK's ResponsesRequest. */
export const RESPONSES_REQUEST_FIELDS: ReadonlySet<string> = new Set([
  'background', 'cache_control', 'debug', 'frequency_penalty', 'image_config', 'include', 'input', 'instructions',
  'max_output_tokens', 'max_tool_calls', 'metadata', 'modalities', 'model', 'models', 'parallel_tool_calls', 'plugins',
  'presence_penalty', 'previous_response_id', 'prompt', 'prompt_cache_key', 'prompt_cache_options', 'provider',
  'reasoning', 'safety_identifier', 'service_tier', 'session_id', 'stop_server_tools_when', 'store', 'stream',
  'temperature', 'text', 'tool_choice', 'tools', 'top_k', 'top_logprobs', 'top_p', 'trace', 'truncation', 'user',
])

/** The known top-level fields of a Responses request: the SDK's, and those real clients send (decisions/0036). */
const RESPONSES_KNOWN_FIELDS = withClientFields(RESPONSES_REQUEST_FIELDS)

/**
 * The item types of the SDK's input union that the simulator reads. Every other type of that union
 * (server-tool calls and their outputs, compaction and reference items...) is accepted as it is and
 * counted as prompt text by its JSON; a type outside the union is refused, naming it.
 */
const READ_ITEMS = ['message', 'function_call', 'function_call_output', 'reasoning'] as const
const OPAQUE_ITEMS: ReadonlySet<string> = new Set([
  'additional_tools', 'agent_message', 'apply_patch_call', 'apply_patch_call_output', 'code_interpreter_call', 'compaction',
  'computer_call', 'configuration_update', 'context_compaction', 'custom_tool_call', 'custom_tool_call_output',
  'file_search_call', 'image_generation_call', 'item_reference', 'local_shell_call', 'local_shell_call_output',
  'mcp_approval_request', 'mcp_approval_response', 'mcp_call', 'mcp_list_tools', 'shell_call', 'shell_call_output',
  'web_search_call', 'openrouter:advisor', 'openrouter:apply_patch', 'openrouter:bash', 'openrouter:browser_use',
  'openrouter:code_interpreter', 'openrouter:datetime', 'openrouter:experimental__search_models', 'openrouter:file_search',
  'openrouter:files', 'openrouter:fusion', 'openrouter:image_generation', 'openrouter:mcp', 'openrouter:memory',
  'openrouter:shell', 'openrouter:subagent', 'openrouter:text_editor', 'openrouter:tool_search', 'openrouter:web_fetch',
  'openrouter:web_search',
])

const MESSAGE_ROLES = ['user', 'system', 'developer', 'assistant'] as const
/** A message item's fields: the SDK's, and `name` and `cache_control`, which clients put on every message. */
const MESSAGE_FIELDS: ReadonlySet<string> = new Set(['type', 'role', 'content', 'id', 'status', 'phase', 'name', 'cache_control'])
const FUNCTION_CALL_FIELDS: ReadonlySet<string> = new Set(['type', 'call_id', 'name', 'arguments', 'id', 'status', 'namespace', 'async', 'subagent_id', 'subagent_items'])
const FUNCTION_OUTPUT_FIELDS: ReadonlySet<string> = new Set(['type', 'call_id', 'output', 'id', 'status'])
const REASONING_FIELDS: ReadonlySet<string> = new Set(['type', 'id', 'summary', 'content', 'encrypted_content', 'status', 'format', 'signature'])

/** Content part types of an input message, and the text field of those that are text. */
const TEXT_PARTS: Record<string, string> = { input_text: 'text', output_text: 'text', refusal: 'refusal' }
const MEDIA_PARTS: ReadonlySet<string> = new Set(['input_image', 'input_file', 'input_audio', 'input_video'])
/** The fields of a content part by type: the SDK's, and `cache_control` on every type (decisions/0036). */
const PART_FIELDS: Record<string, ReadonlySet<string>> = {
  input_text: new Set(['type', 'text', 'prompt_cache_breakpoint', 'cache_control']),
  output_text: new Set(['type', 'text', 'annotations', 'logprobs', 'cache_control']),
  refusal: new Set(['type', 'refusal', 'cache_control']),
  input_image: new Set(['type', 'detail', 'file_id', 'image_url', 'cache_control']),
  input_file: new Set(['type', 'file_data', 'file_id', 'file_url', 'filename', 'cache_control']),
  input_audio: new Set(['type', 'input_audio', 'cache_control']),
  input_video: new Set(['type', 'video_url', 'processing', 'cache_control']),
}
/** The request's `reasoning`: the SDK's fields, and `exclude`, which the service documents. */
const REASONING_CONFIG_FIELDS: ReadonlySet<string> = new Set(['context', 'effort', 'mode', 'summary', 'enabled', 'max_tokens', 'exclude'])

/** A function tool as the result echoes it. */
export interface ResponsesFunctionTool {
  type: 'function'
  name: string
  description?: string | null
  parameters: Record<string, unknown> | null
  strict?: boolean | null
}

/** The request's figures a Responses result repeats back, as given (null when absent). */
export interface ResponsesEcho {
  instructions: string | null
  metadata: Record<string, string> | null
  temperature: number | null
  topP: number | null
  presencePenalty: number | null
  frequencyPenalty: number | null
  maxOutputTokens: number | null
  maxToolCalls: number | null
  topLogprobs: number | null
  parallelToolCalls: boolean
  /** `tool_choice` when it is "auto", "none", "required" or a function choice; "auto" otherwise. */
  toolChoice: string | { type: 'function'; name: string }
  /** The function tools; server tools are not echoed. */
  tools: ResponsesFunctionTool[]
  user: string | null
  safetyIdentifier: string | null
  promptCacheKey: string | null
}

/** A Responses request as the pipeline reads it. */
export interface ResponsesInput {
  chat: ChatInput
  echo: ResponsesEcho
}

const NUMBER_FIELDS: readonly [string, { integer?: boolean; min?: number; max?: number; exclusiveMin?: boolean; nullable: true }, SupportedParameter][] = [
  ['temperature', { min: 0, max: 2, nullable: true }, 'temperature'],
  ['top_p', { min: 0, max: 1, exclusiveMin: true, nullable: true }, 'top_p'],
  ['top_k', { integer: true, min: 0, nullable: true }, 'top_k'],
  ['frequency_penalty', { min: -2, max: 2, nullable: true }, 'frequency_penalty'],
  ['presence_penalty', { min: -2, max: 2, nullable: true }, 'presence_penalty'],
  ['top_logprobs', { integer: true, min: 0, max: 20, nullable: true }, 'top_logprobs'],
]

const objectAt = (reader: BodyReader, at: string, item: unknown, what: string): BodyReader => {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) reader.fail(at, `must be ${what}`, item)
  return reader.child(item as Record<string, unknown>, at)
}

/** The text and media parts of a message's `content` (a string, or an array of content parts). */
function readContent(message: BodyReader, required: boolean, field = 'content'): { text: string; mediaParts: number } {
  const raw = message.raw(field)
  const path = message.at(field)
  if (raw === undefined || raw === null) {
    if (required) message.fail(path, 'is required: a string or an array of content parts')
    return { text: '', mediaParts: 0 }
  }
  if (typeof raw === 'string') return { text: raw, mediaParts: 0 }
  if (!Array.isArray(raw)) message.fail(path, 'must be a string or an array of content parts', raw)
  const texts: string[] = []
  let mediaParts = 0
  raw.forEach((part, i) => {
    const p: BodyReader = objectAt(message, `${path}[${i}]`, part, 'a content part object')
    const type = p.string('type')
    const field = Object.hasOwn(TEXT_PARTS, type) ? TEXT_PARTS[type] : undefined
    if (field === undefined && !MEDIA_PARTS.has(type)) p.fail(p.at('type'), `must be one of ${[...Object.keys(TEXT_PARTS), ...MEDIA_PARTS].join(', ')}`, type)
    p.known(PART_FIELDS[type] as ReadonlySet<string>)
    if (field !== undefined) texts.push(p.string(field))
    else mediaParts++
  })
  return { text: texts.join('\n'), mediaParts }
}

/** A function call output's `output`: a string, or content parts. */
function readOutput(item: BodyReader): { text: string; mediaParts: number } {
  return readContent(item, true, 'output')
}

function readItem(body: BodyReader, item: unknown, at: string): InputMessage {
  const reader: BodyReader = objectAt(body, at, item, 'an input item object')
  const type = reader.raw('type') ?? 'message'
  if (type === 'message') {
    reader.known(MESSAGE_FIELDS)
    const role = reader.optionalEnum('role', MESSAGE_ROLES)
    if (role === undefined) reader.fail(reader.at('role'), `is required: one of ${MESSAGE_ROLES.join(', ')}`)
    reader.optionalString('id', {})
    reader.optionalString('status', {})
    reader.optionalEnum('phase', ['commentary', 'final_answer'], true)
    return { role, ...readContent(reader, role !== 'assistant'), toolCallChars: 0 }
  }
  if (type === 'function_call') {
    reader.known(FUNCTION_CALL_FIELDS)
    reader.string('call_id', { minLength: 1 })
    const name = reader.string('name', { minLength: 1 })
    const args = reader.string('arguments')
    reader.optionalString('id', {})
    reader.optionalString('status', {})
    reader.optionalString('namespace', {})
    reader.optionalBoolean('async')
    return { role: 'assistant', text: '', mediaParts: 0, toolCallChars: name.length + args.length }
  }
  if (type === 'function_call_output') {
    reader.known(FUNCTION_OUTPUT_FIELDS)
    reader.string('call_id', { minLength: 1 })
    reader.optionalString('id', { nullable: true })
    reader.optionalString('status', { nullable: true })
    return { role: 'tool', ...readOutput(reader), toolCallChars: 0 }
  }
  if (type === 'reasoning') {
    reader.known(REASONING_FIELDS)
    const texts: string[] = []
    for (const name of ['summary', 'content']) {
      const list = name === 'summary' ? reader.optionalArray(name) : reader.optionalArray(name, { nullable: true })
      if (name === 'summary' && list === undefined) reader.fail(reader.at('summary'), 'is required: an array of summary texts')
      list?.forEach((part, i) => texts.push(objectAt(reader, `${reader.at(name)}[${i}]`, part, 'a text part object').string('text')))
    }
    return { role: 'assistant', text: texts.join('\n'), mediaParts: 0, toolCallChars: 0 }
  }
  if (typeof type === 'string' && OPAQUE_ITEMS.has(type)) {
    // Read as a whole: its JSON is prompt text, in a turn that is nobody's last user message.
    return { role: 'tool', text: JSON.stringify(item), mediaParts: 0, toolCallChars: 0 }
  }
  return reader.fail(reader.at('type'), `must be an input item type: ${READ_ITEMS.join(', ')}, or another of the Responses API's item types`, type)
}

function readInput(body: BodyReader): InputMessage[] {
  const raw = body.raw('input')
  if (raw === undefined || raw === null) body.fail('input', 'is required: a string, or an array of input items')
  if (typeof raw === 'string') return [{ role: 'user', text: raw, mediaParts: 0, toolCallChars: 0 }]
  if (!Array.isArray(raw) || raw.length === 0) body.fail('input', 'must be a string, or a non-empty array of input items', raw)
  return raw.map((item, i) => readItem(body, item, `input[${i}]`))
}

/** The function tools of `tools`, checked; other tool types are checked for a `type` only. */
function readTools(body: BodyReader): { tools: ResponsesFunctionTool[]; declared: DeclaredTool[]; count: number; chars: number } {
  const list = body.optionalArray('tools') ?? []
  const tools: ResponsesFunctionTool[] = []
  const declared: DeclaredTool[] = []
  list.forEach((tool, i) => {
    const t: BodyReader = objectAt(body, `tools[${i}]`, tool, 'a tool object')
    const type = t.string('type')
    if (type !== 'function') return
    t.known(new Set(['type', 'name', 'description', 'parameters', 'strict', 'async', 'defer_loading']))
    const name = t.string('name', { minLength: 1 })
    const description = t.optionalString('description', { nullable: true })
    const parameters = t.optionalObject('parameters', true)
    const strict = nullableBoolean(t, 'strict')
    declared.push(declaredTool(t, name, parameters?.value, t.at('parameters')))
    tools.push({
      type: 'function',
      name,
      ...(description !== undefined && { description }),
      parameters: parameters === undefined || parameters === null ? null : parameters.value,
      ...(strict !== undefined && { strict }),
    })
  })
  return { tools, declared, count: list.length, chars: list.length === 0 ? 0 : JSON.stringify(list).length }
}

function readToolChoice(body: BodyReader): ResponsesEcho['toolChoice'] {
  const raw = body.raw('tool_choice')
  if (raw === undefined || raw === null) return 'auto'
  if (typeof raw === 'string') {
    if (!['auto', 'none', 'required'].includes(raw)) body.fail('tool_choice', 'must be "auto", "none", "required" or a tool choice object', raw)
    return raw
  }
  const choice = body.optionalObject('tool_choice') as BodyReader
  const type = choice.string('type')
  if (type === 'function') return { type: 'function', name: choice.string('name', { minLength: 1 }) }
  return 'auto'
}

const TEXT_FIELDS: ReadonlySet<string> = new Set(['format', 'verbosity'])
const TEXT_FORMAT_FIELDS: Record<string, ReadonlySet<string>> = {
  text: new Set(['type']),
  json_object: new Set(['type']),
  json_schema: new Set(['type', 'name', 'description', 'schema', 'strict']),
}

/**
 * `text.format`: free text, any JSON object, or JSON valid against `schema` (decisions/0048). The
 * parameter it uses is pushed on `parameters`, as chat's `response_format` pushes it:
 * `structured_outputs` for a schema, `response_format` for the others.
 */
function readTextFormat(text: BodyReader, parameters: SupportedParameter[]): OutputFormat {
  const given = text.optionalObject('format', true)
  if (given === undefined || given === null) return null
  const format: BodyReader = given
  const type = format.optionalEnum('type', Object.keys(TEXT_FORMAT_FIELDS))
  if (type === undefined) format.fail(format.at('type'), `is required: one of ${Object.keys(TEXT_FORMAT_FIELDS).join(', ')}`)
  format.known(TEXT_FORMAT_FIELDS[type] as ReadonlySet<string>)
  parameters.push(type === 'json_schema' ? 'structured_outputs' : 'response_format')
  if (type === 'text') return null
  if (type === 'json_object') return { type: 'json_object' }
  format.optionalString('name', { minLength: 1 })
  format.optionalString('description', { nullable: true })
  nullableBoolean(format, 'strict')
  const schema = format.raw('schema')
  if (schema === undefined || schema === null) format.fail(format.at('schema'), 'is required for a json_schema format')
  const json = JSON.stringify(schema)
  return { type: 'json_schema', schema: schemaAt(format, format.at('schema'), schema, json), text: json }
}

/** `metadata`: string values only, as the service stores them. */
function readMetadata(body: BodyReader): Record<string, string> | null {
  const metadata = body.optionalObject('metadata', true)
  if (metadata === undefined || metadata === null) return null
  const out: Record<string, string> = {}
  for (const key of Object.keys(metadata.value)) out[key] = metadata.string(key)
  return out
}

/**
 * Reads and checks a Responses request body. Throws the 400 of the first field that is wrong,
 * naming its path (`input[2].call_id`, `tools[0].name`). A field neither the SDK's
 * ResponsesRequest nor real clients have is refused or listed as `unknownFields` says (by default
 * refused).
 */
export function readResponsesRequest(value: Record<string, unknown>, unknownFields: UnknownFields = REFUSE_UNKNOWN): ResponsesInput {
  return readOnce(readInputs, value, unknownFields, readResponsesInput)
}

/** Inputs read from shared bodies (decisions/0063): a request that repeats a body skips the reading. */
const readInputs = new WeakMap<object, ReadMemo<ResponsesInput>>()

/** The reading itself ({@link readResponsesRequest}); frozen for a shared body, as a chat input is ({@link freezeChatInput}). */
function readResponsesInput(value: Record<string, unknown>, unknownFields: UnknownFields): ResponsesInput {
  const read = readAnyResponsesRequest(value, unknownFields)
  if (!isSharedBody(value)) return read
  const { echo } = read
  for (let i = 0; i < echo.tools.length; i++) Object.freeze(echo.tools[i])
  Object.freeze(echo.tools)
  Object.freeze(echo.metadata)
  if (typeof echo.toolChoice === 'object') Object.freeze(echo.toolChoice)
  return Object.freeze({ chat: freezeChatInput(read.chat), echo: Object.freeze(echo) })
}

function readAnyResponsesRequest(value: Record<string, unknown>, unknownFields: UnknownFields): ResponsesInput {
  const body: BodyReader = new BodyReader(value, '', unknownFields)
  body.known(RESPONSES_KNOWN_FIELDS)
  const parameters: SupportedParameter[] = []
  const uses = (name: string, parameter: SupportedParameter): void => {
    if (body.has(name) && body.raw(name) !== null) parameters.push(parameter)
  }
  const { models, modelFields } = readModels(body)
  const instructions = body.optionalString('instructions', { nullable: true }) ?? null
  const messages = readInput(body)
  if (instructions !== null && instructions !== '') messages.unshift({ role: 'system', text: instructions, mediaParts: 0, toolCallChars: 0 })
  const figures = new Map<string, number | null>()
  for (const [name, rule, parameter] of NUMBER_FIELDS) {
    figures.set(name, body.optionalNumber(name, rule) ?? null)
    uses(name, parameter)
  }
  const maxOutputTokens = body.optionalNumber('max_output_tokens', { integer: true, min: 1, nullable: true }) ?? null
  if (maxOutputTokens !== null) parameters.push('max_tokens')
  const maxToolCalls = body.optionalNumber('max_tool_calls', { integer: true, min: 0, nullable: true }) ?? null
  const stream = body.optionalBoolean('stream') ?? false
  const { tools, declared, count, chars } = readTools(body)
  uses('tools', 'tools')
  const toolChoice = readToolChoice(body)
  uses('tool_choice', 'tool_choice')
  const parallel = nullableBoolean(body, 'parallel_tool_calls')
  uses('parallel_tool_calls', 'parallel_tool_calls')
  const reasoning = body.optionalObject('reasoning', true)
  if (reasoning) {
    reasoning.known(REASONING_CONFIG_FIELDS)
    parameters.push('reasoning')
  }
  const text = body.optionalObject('text')
  let format: OutputFormat = null
  if (text) {
    text.known(TEXT_FIELDS)
    format = readTextFormat(text, parameters)
    // The Responses spelling of chat's `verbosity`, checked as that is, and a parameter as that is.
    if (readVerbosity(text)) parameters.push('verbosity')
  }
  // The service keeps no responses: `store` can only be false, and there is no earlier response to continue.
  if (body.raw('store') !== undefined && body.raw('store') !== false) body.fail('store', 'must be false: responses are not stored', body.raw('store'))
  if (body.raw('previous_response_id') !== undefined && body.raw('previous_response_id') !== null) {
    body.fail('previous_response_id', 'is not supported: responses are not stored; send the whole conversation as `input`', body.raw('previous_response_id'))
  }
  nullableBoolean(body, 'background')
  const include = body.optionalArray('include', { nullable: true })
  include?.forEach((item, i) => {
    if (typeof item !== 'string') body.fail(`include[${i}]`, 'must be a string', item)
  })
  for (const name of ['cache_control', 'debug', 'image_config', 'trace']) body.optionalObject(name)
  for (const name of ['prompt', 'prompt_cache_options']) body.optionalObject(name, true)
  for (const name of ['modalities', 'stop_server_tools_when']) body.optionalArray(name)
  readPlugins(body)
  for (const name of ['service_tier', 'truncation']) body.optionalString(name, { nullable: true })
  const promptCacheKey = body.optionalString('prompt_cache_key', { nullable: true }) ?? null
  const safetyIdentifier = body.optionalString('safety_identifier', { nullable: true }) ?? null
  const sessionId = body.optionalString('session_id', { maxLength: 256 }) ?? null
  const user = body.optionalString('user', {}) ?? null
  const metadata = readMetadata(body)
  const provider = readProvider(body)
  readClientFields(body, RESPONSES_REQUEST_FIELDS, parameters)
  // The echo's choice is "auto" for a type the reply cannot follow (a server tool's); the reply's is the same.
  const choice: ToolChoice | null = body.raw('tool_choice') === undefined || body.raw('tool_choice') === null ? null : typeof toolChoice === 'string' ? (toolChoice as ToolChoice) : { name: toolChoice.name }
  checkToolChoice(body, choice, declared, 'tool_choice', 'tool_choice.name')
  const demands = demandsOf({
    tools: declared,
    toolChoice: choice,
    parallelToolCalls: parallel ?? true,
    format,
    reasoning: readReasoningAsk(body, value),
    // Log probabilities are answered on chat completions only (decisions/0048).
    stop: [],
    logprobs: null,
    seed: null,
  })
  return {
    chat: {
      models,
      modelFields,
      messages,
      toolChars: chars,
      hasTools: count > 0,
      maxTokens: maxOutputTokens,
      stream,
      provider,
      parameters,
      user,
      sessionId,
      demands,
    },
    echo: {
      instructions,
      metadata,
      temperature: figures.get('temperature') ?? null,
      topP: figures.get('top_p') ?? null,
      presencePenalty: figures.get('presence_penalty') ?? null,
      frequencyPenalty: figures.get('frequency_penalty') ?? null,
      maxOutputTokens,
      maxToolCalls,
      topLogprobs: figures.get('top_logprobs') ?? null,
      parallelToolCalls: parallel ?? true,
      toolChoice,
      tools,
      user,
      safetyIdentifier,
      promptCacheKey,
    },
  }
}
