// Presets on the wire (decisions/0050): an organisation's presets and their versions, read with any
// of its keys; and the preset routes, which write a preset (or its next version) from an inference
// body. Another organisation's preset is as absent as one that never existed: 404.
import { fieldError } from '../body.js'
import { ApiError, SimulatorError } from '../errors.js'
import { checkPresetConfig, draftOfChat, draftOfMessages, draftOfResponses, type PresetDraft } from '../inference/presets.js'
import { readChatRequest } from '../inference/request.js'
import { readResponsesRequest } from '../inference/responses-request.js'
import { offsetParam } from '../params.js'
import { atomically, type StoreContext } from '../store/context.js'
import { PRESET_SLUG, PRESET_SLUG_RULE, findPreset, newPreset, presetWire, presetWithVersion, presetsOf, versionWire, withNewVersion, writePreset } from '../store/presets.js'
import type { PresetState } from '../store/state.js'
import type { PresetPage, PresetVersion, Preset } from '../types.js'
import { type Operation, jsonAnswer } from './operation.js'
import { limitParam } from './workspaces.js'

/** The caller's preset named by the path's slug: 400 for what cannot be a slug, 404 for a slug the organisation has not. */
function ownPreset(ctx: StoreContext, userId: string, slug: string): PresetState {
  checkSlug(slug)
  const preset = findPreset(ctx, userId, slug)
  if (preset === undefined) throw ApiError.notFound({ resource: 'preset' })
  return preset
}

/** The path's slug, or a 400 naming `slug`. */
function checkSlug(slug: string): void {
  if (!PRESET_SLUG.test(slug)) throw ApiError.badParameter('slug', `must be ${PRESET_SLUG_RULE}`, slug)
}

/** A page of `items` by the query's `offset` and `limit` (1 to 100, default 50, as the SDK pages), with the count of all. */
function page<T>(query: URLSearchParams, items: readonly T[]): PresetPage<T> {
  const offset = offsetParam(query, 'offset') ?? 0
  const limit = limitParam(query)
  return { data: items.slice(offset, offset + limit), total_count: items.length }
}

/** A version number from the path: a positive integer, or 400 naming `version`. */
function versionParam(text: string): number {
  const n = Number(text)
  if (!/^[1-9]\d{0,8}$/.test(text)) throw ApiError.badParameter('version', 'must be a version number: a positive integer such as 1', text)
  return n
}

/** A body's model fields, or a stand-in when it has none: a preset need not name a model, the readers want one. */
const withSomeModel = (body: Record<string, unknown>): Record<string, unknown> =>
  body['model'] === undefined && body['models'] === undefined ? { ...body, model: 'openrouter/auto' } : body

/**
 * The preset `slug` of the caller after a preset route: made with `draft` as its first version, or
 * given it as its next. A config the preset could not hold is a 400 naming the body's field.
 */
function writeFromBody(ctx: StoreContext, userId: string, slug: string, draft: PresetDraft): PresetState {
  checkSlug(slug)
  let config: Record<string, unknown>
  try {
    config = checkPresetConfig(draft.config, 'read the body', 'config')
  } catch (error) {
    if (!(error instanceof SimulatorError)) throw error
    throw fieldError((error.argument ?? 'body').replace(/^config\.?/, '') || 'body', 'is not a value a preset keeps')
  }
  return atomically(ctx, () => {
    const existing = findPreset(ctx, userId, slug)
    const preset =
      existing === undefined
        ? newPreset(ctx, { userId, slug, name: slug, description: null, config, systemPrompt: draft.systemPrompt, createdAt: ctx.clock.nowMs() })
        : withNewVersion(ctx, existing, config, draft.systemPrompt)
    return writePreset(ctx, preset)
  })
}

/** What a row of a `'key'` operation is handed. */
type KeyCall = Parameters<Extract<Operation, { auth: 'key' }>['run']>[0]

/** A preset route's row: its body read as `read` reads it, then kept as the preset's next version. */
const writeRow = (name: 'createPresetsChatCompletions' | 'createPresetsResponses' | 'createPresetsMessages', template: string, read: (body: Record<string, unknown>, call: KeyCall) => PresetDraft): Operation => ({
  name,
  method: 'POST',
  template,
  auth: 'key',
  run: (call) => {
    const draft = read(call.json(), call)
    const preset = writeFromBody(call.ctx, call.principal.userId, call.params['slug'] as string, draft)
    return jsonAnswer(200, { data: presetWithVersion(preset) })
  },
})

/** A read of the caller's presets: `GET` with any of the organisation's keys, `answer` the 200's body. */
const readRow = (name: 'listPresets' | 'getPreset' | 'listPresetVersions' | 'getPresetVersion', template: string, answer: (call: KeyCall) => unknown): Operation => ({
  name,
  method: 'GET',
  template,
  auth: 'key',
  run: (call) => jsonAnswer(200, answer(call)),
})

export const PRESET_OPERATIONS: readonly Operation[] = [
  readRow('listPresets', '/presets', ({ ctx, query, principal }): PresetPage<Preset> => page(query, presetsOf(ctx, principal.userId).map(presetWire))),
  readRow('getPreset', '/presets/{slug}', ({ ctx, params, principal }) => ({ data: presetWithVersion(ownPreset(ctx, principal.userId, params['slug'] as string)) })),
  readRow('listPresetVersions', '/presets/{slug}/versions', ({ ctx, params, query, principal }): PresetPage<PresetVersion> => {
    const preset = ownPreset(ctx, principal.userId, params['slug'] as string)
    return page(query, preset.versions.map((version) => versionWire(preset, version)))
  }),
  readRow('getPresetVersion', '/presets/{slug}/versions/{version}', ({ ctx, params, principal }) => {
    const preset = ownPreset(ctx, principal.userId, params['slug'] as string)
    const wanted = versionParam(params['version'] as string)
    const version = preset.versions.find((v) => v.version === wanted)
    if (version === undefined) throw ApiError.notFound({ resource: 'preset_version' })
    return { data: versionWire(preset, version) }
  }),
  writeRow('createPresetsChatCompletions', '/presets/{slug}/chat/completions', (body, call) => {
    // Read as POST /chat/completions reads it: a bad field is the same 400 there and here.
    readChatRequest(withSomeModel(body), call.unknownFields)
    return draftOfChat(body)
  }),
  writeRow('createPresetsResponses', '/presets/{slug}/responses', (body, call) => {
    readResponsesRequest(withSomeModel(body), call.unknownFields)
    return draftOfResponses(body)
  }),
  writeRow('createPresetsMessages', '/presets/{slug}/messages', (body) => draftOfMessages(body)),
]
