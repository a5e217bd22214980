// Presets on the money path (decisions/0050): what a preset's config may hold, checked as a chat
// request's fields are; a request that names a preset (`model: "@preset/<slug>"`,
// `"<model>@preset/<slug>"` or `preset: "<slug>"`) filled from it, request fields first; and the
// config a preset route (`POST /presets/{slug}/chat/completions`, `/responses`, `/messages`) keeps
// of an inference body.
import { fieldError } from '../body.js'
import { describe } from '../describe.js'
import { ApiError, invalidArgument, SimulatorError } from '../errors.js'
import { isJsonData, withoutUndefinedFields } from '../json-data.js'
import type { StoreContext } from '../store/context.js'
import { currentVersion, findPreset } from '../store/presets.js'
import { readChatRequest } from './request.js'

/**
 * The request fields a preset's config may hold, as a chat completion names them: the model and
 * routing, and the generation settings. Not the conversation (`messages`), nor what belongs to one
 * request (`stream`, `user`, `session_id`, `metadata`, `trace`...).
 */
export const PRESET_CONFIG_FIELDS: ReadonlySet<string> = new Set([
  'model', 'models', 'provider', 'plugins',
  'temperature', 'top_p', 'top_k', 'top_a', 'min_p', 'frequency_penalty', 'presence_penalty', 'repetition_penalty', 'seed',
  'max_tokens', 'max_completion_tokens', 'stop', 'reasoning', 'response_format', 'tools', 'tool_choice', 'parallel_tool_calls',
  'logit_bias', 'logprobs', 'top_logprobs',
])

/**
 * The config fields a Responses request takes under the same name. `max_tokens` (or
 * `max_completion_tokens`) becomes `max_output_tokens`; the others (`stop`, `seed`, `tools`,
 * `response_format`...) are shaped differently there and are not applied to `/responses`.
 */
const RESPONSES_SAME: readonly string[] = ['model', 'models', 'provider', 'plugins', 'temperature', 'top_p', 'top_k', 'frequency_penalty', 'presence_penalty', 'reasoning', 'parallel_tool_calls', 'top_logprobs']

/** A stand-in conversation, for checking a config with the chat request's reader. */
const PROBE_MESSAGES = [{ role: 'user', content: 'probe' }]

/**
 * A preset's config, checked: an object of {@link PRESET_CONFIG_FIELDS}, each value as
 * `POST /chat/completions` takes it. Throws an INVALID_ARGUMENT SimulatorError naming
 * `<argument>.<field>`; returns a copy.
 */
export function checkPresetConfig(config: unknown, operation: string, argument: string): Record<string, unknown> {
  if (typeof config !== 'object' || config === null || Array.isArray(config)) throw invalidArgument(operation, argument, `must be an object of request fields, got ${describe(config)}`)
  for (const field of Object.keys(config)) {
    if (!PRESET_CONFIG_FIELDS.has(field)) throw invalidArgument(operation, `${argument}.${field}`, `is not a field a preset's config holds (known fields: ${[...PRESET_CONFIG_FIELDS].join(', ')})`)
  }
  // A field given as undefined, at any depth, is left out as if absent (JSON.stringify would drop it
  // too), not refused as no JSON data. A class instance is kept as it is, and refused.
  const given = withoutUndefinedFields(config) as Record<string, unknown>
  if (!isJsonData(given)) throw invalidArgument(operation, argument, 'must be JSON data (no functions, BigInts, cycles or class instances)')
  // A config need not name a model (a request may give it); the reader wants one, so the probe has one.
  const probe = { ...(given['model'] === undefined && given['models'] === undefined && { model: 'openrouter/auto' }), ...given, messages: PROBE_MESSAGES }
  try {
    readChatRequest(probe)
  } catch (error) {
    if (!(error instanceof ApiError)) throw error
    const parameter = typeof error.metadata?.['parameter'] === 'string' ? error.metadata['parameter'] : 'body'
    const reason = typeof error.metadata?.['reason'] === 'string' ? error.metadata['reason'] : error.message
    throw invalidArgument(operation, parameter === 'body' ? argument : `${argument}.${parameter}`, reason)
  }
  return structuredClone(given)
}

/** The prefix of a model id that names a preset. */
const PRESET_MODEL = '@preset/'

/** A request with its preset applied, and the preset's id (null: the request names none). */
export interface PresetUse {
  body: Record<string, unknown>
  presetId: string | null
}

/** The 404 of a preset the caller's organisation does not have (another organisation's included). */
function unknownPreset(slug: string): ApiError {
  return new ApiError(404, { message: `Preset "${slug}" not found`, metadata: { resource: 'preset', slug } })
}

/**
 * The request `body` asks for, with the preset it names applied (decisions/0050): the preset's
 * config fills every field the request does not give (a field the request gives wins, whole), and
 * its system prompt comes first: a system message before the request's messages, or the start of
 * a Responses request's `instructions`. The body itself is left as it is; one that names no preset
 * is returned as it is.
 */
export function withPreset(ctx: StoreContext, userId: string, body: Record<string, unknown>, api: 'chat' | 'responses'): PresetUse {
  const model = body['model']
  const named = typeof model === 'string' ? model.indexOf(PRESET_MODEL) : -1
  if (named < 0 && body['preset'] === undefined) return { body, presetId: null }
  const request: Record<string, unknown> = { ...body }
  delete request['preset']
  let slug: string
  if (named >= 0) {
    slug = (model as string).slice(named + PRESET_MODEL.length)
    // `@preset/<slug>` names no model of its own; `<model>@preset/<slug>` names one, which wins.
    if (named === 0) delete request['model']
    else request['model'] = (model as string).slice(0, named)
  } else {
    const given = body['preset']
    if (typeof given !== 'string' || given === '') throw fieldError('preset', 'must be the slug of a preset of the organisation', JSON.stringify(given))
    slug = given
  }
  const preset = findPreset(ctx, userId, slug)
  if (preset === undefined) throw unknownPreset(slug)
  const version = currentVersion(preset)
  const config = api === 'chat' ? version.config : responsesConfig(version.config)
  // A request naming a model explicitly asks for that one: the preset's fallbacks do not come with it.
  const merged: Record<string, unknown> = { ...structuredClone(config) }
  if (request['model'] !== undefined) delete merged['models']
  Object.assign(merged, request)
  const prompt = version.systemPrompt
  if (prompt !== null) {
    if (api === 'chat' && Array.isArray(request['messages'])) merged['messages'] = [{ role: 'system', content: prompt }, ...request['messages']]
    if (api === 'responses') {
      const instructions = request['instructions']
      merged['instructions'] = typeof instructions === 'string' && instructions !== '' ? `${prompt}\n\n${instructions}` : prompt
    }
  }
  return { body: merged, presetId: preset.id }
}

/** A config as a Responses request names its fields: those it takes alike, and the output cap as `max_output_tokens`. */
function responsesConfig(config: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const field of RESPONSES_SAME) if (config[field] !== undefined) out[field] = config[field]
  const cap = config['max_completion_tokens'] ?? config['max_tokens']
  if (cap !== undefined) out['max_output_tokens'] = cap
  return out
}

/** What a preset route keeps of an inference body: the config fields, and the system prompt. */
export interface PresetDraft {
  config: Record<string, unknown>
  systemPrompt: string | null
}

/** The text of a system message's content: a string, or its text parts joined. */
function textOf(content: unknown): string | null {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return null
  const texts = content.flatMap((part) => (typeof part === 'object' && part !== null && typeof (part as { text?: unknown }).text === 'string' ? [(part as { text: string }).text] : []))
  return texts.length === 0 ? null : texts.join('\n')
}

/**
 * The config and system prompt of a chat completion body (read already by the chat route's reader):
 * its {@link PRESET_CONFIG_FIELDS}, and its system (and developer) messages' text, joined by a blank line.
 */
export function draftOfChat(body: Record<string, unknown>): PresetDraft {
  const config: Record<string, unknown> = {}
  for (const field of PRESET_CONFIG_FIELDS) if (body[field] !== undefined) config[field] = body[field]
  const prompts: string[] = []
  for (const message of Array.isArray(body['messages']) ? body['messages'] : []) {
    const role = (message as { role?: unknown })?.role
    const text = role === 'system' || role === 'developer' ? textOf((message as { content?: unknown }).content) : null
    if (text !== null) prompts.push(text)
  }
  return { config, systemPrompt: prompts.length === 0 ? null : prompts.join('\n\n') }
}

/** The config and system prompt of a Responses body (read already): the fields it shares with a chat request, `max_output_tokens` as `max_tokens`, `instructions` as the prompt. */
export function draftOfResponses(body: Record<string, unknown>): PresetDraft {
  const config: Record<string, unknown> = {}
  for (const field of RESPONSES_SAME) if (body[field] !== undefined) config[field] = body[field]
  if (body['max_output_tokens'] !== undefined && body['max_output_tokens'] !== null) config['max_tokens'] = body['max_output_tokens']
  const instructions = body['instructions']
  return { config, systemPrompt: typeof instructions === 'string' && instructions !== '' ? instructions : null }
}

/** The fields of an Anthropic Messages body a preset keeps under the chat name: `stop_sequences` becomes `stop`. */
const MESSAGES_SAME: readonly string[] = ['model', 'models', 'provider', 'plugins', 'temperature', 'top_p', 'top_k', 'max_tokens']

/**
 * The config and system prompt of an Anthropic Messages body: its fields shared with a chat
 * request, checked as the chat route checks them (a 400 naming the body's field), and `system`
 * (a string or text blocks) as the prompt.
 */
export function draftOfMessages(body: Record<string, unknown>): PresetDraft {
  const model = body['model']
  if (typeof model !== 'string' || model === '') throw fieldError('model', 'is required: a model id such as "anthropic/claude-sonnet-4.5"', JSON.stringify(model ?? null))
  if (!Array.isArray(body['messages']) && body['messages'] !== null) throw fieldError('messages', 'is required: an array of messages', JSON.stringify(body['messages'] ?? null))
  const config: Record<string, unknown> = {}
  for (const field of MESSAGES_SAME) if (body[field] !== undefined) config[field] = body[field]
  const stop = body['stop_sequences']
  if (stop !== undefined && (!Array.isArray(stop) || !stop.every((s) => typeof s === 'string'))) throw fieldError('stop_sequences', 'must be an array of strings', JSON.stringify(stop))
  if (stop !== undefined) config['stop'] = stop
  try {
    checkPresetConfig(config, 'read the body', 'config')
  } catch (error) {
    if (!(error instanceof SimulatorError)) throw error
    const field = (error.argument ?? 'body').replace(/^config\.?/, '').replace(/^stop(?=$|\[)/, 'stop_sequences') || 'body'
    throw fieldError(field, error.message.replace(/^Failed to [^:]+: "[^"]*" /, '').replace(/\.$/, ''), undefined)
  }
  const system = body['system']
  if (system !== undefined && typeof system !== 'string' && !Array.isArray(system)) throw fieldError('system', 'must be a string or an array of text blocks', JSON.stringify(system))
  const prompt = system === undefined ? null : textOf(system)
  return { config, systemPrompt: prompt === '' ? null : prompt }
}
