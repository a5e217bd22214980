import { SimulatorError, SimulatorErrorCode } from '../errors.js'
import { type InstantInput, toEpochMs, toUnixSeconds } from '../time.js'
import { VIDEO_ASPECT_RATIOS, VIDEO_FRAME_IMAGES, VIDEO_RESOLUTIONS, type SomeFields, type VideoModel } from '../types.js'
import { ArgumentChecker, fieldsOf } from './check.js'
import { describe } from '../describe.js'
import { type StoreContext, atomically } from './context.js'
import { put } from './versions.js'
import { MODEL_ID, titleCase } from './models.js'

export type CreateVideoModelOptions = { id: string; created?: InstantInput | undefined } & SomeFields<Omit<VideoModel, 'id' | 'created'>>

export interface VideoModelCollection {
  /**
   * Creates a video model and returns it. A field that is not one of {@link CreateVideoModelOptions}
   * (or, in `upscale_factor`, not `min` or `max`) throws an INVALID_ARGUMENT SimulatorError naming
   * it, and stores nothing.
   */
  create(options: CreateVideoModelOptions): VideoModel
  list(): VideoModel[]
}

const SIZE = /^\d{2,5}x\d{2,5}$/
export const VIDEO_MODEL_FIELDS = fieldsOf<CreateVideoModelOptions>({
  id: true,
  canonical_slug: true,
  name: true,
  created: true,
  description: true,
  generate_audio: true,
  allowed_passthrough_parameters: true,
  pricing_skus: true,
  seed: true,
  supported_aspect_ratios: true,
  supported_durations: true,
  supported_frame_images: true,
  supported_resolutions: true,
  supported_sizes: true,
  creativity: true,
  upscale_factor: true,
  hugging_face_id: true,
})
export const UPSCALE_FIELDS = fieldsOf<NonNullable<VideoModel['upscale_factor']>>({ min: true, max: true })

export function createVideoModelCollection(ctx: StoreContext): VideoModelCollection {
  const operation = 'create video model'
  return {
    create: (options) =>
      atomically(ctx, () => {
        const check: ArgumentChecker = new ArgumentChecker(operation)
        const given = check.object(options, 'options')
        check.knownFields(given, VIDEO_MODEL_FIELDS, '', 'a video model')
        const id = check.string(given['id'], 'id', MODEL_ID, '"author/slug"')
        if (ctx.data.videoModels.has(id)) {
          throw new SimulatorError(SimulatorErrorCode.DuplicateId, `Failed to ${operation}: a video model with id "${id}" already exists.`, { argument: 'id' })
        }
        const has = (field: string): boolean => given[field] !== undefined
        const nullableList = <T>(field: string, readItem: (item: unknown, argument: string) => T, fallback: T[] | null): T[] | null => {
          if (!has(field)) return fallback
          if (given[field] === null) return null
          if (!Array.isArray(given[field])) check.fail(field, `must be an array or null, got ${describe(given[field])}`)
          // Array.from, not map, so that a hole in a sparse array is refused like any other bad item.
          return Array.from(given[field] as unknown[], (item, i) => readItem(item, `${field}[${i}]`))
        }
        const nullableBoolean = (field: string, fallback: boolean | null): boolean | null =>
          !has(field) ? fallback : given[field] === null ? null : check.boolean(given[field], field)
        const integer = (item: unknown, argument: string): number => check.positiveInteger(item, argument)
        let pricing_skus: Record<string, string> | null = { 'per-video-second': '0.10' }
        if (has('pricing_skus')) {
          if (given['pricing_skus'] === null) pricing_skus = null
          else {
            const skus = check.object(given['pricing_skus'], 'pricing_skus')
            for (const [sku, price] of Object.entries(skus)) check.string(price, `pricing_skus.${sku}`, /^\d+(\.\d+)?$/, 'a decimal string such as "0.50"')
            pricing_skus = { ...(skus as Record<string, string>) }
          }
        }
        let upscale_factor: VideoModel['upscale_factor'] = null
        if (has('upscale_factor') && given['upscale_factor'] !== null) {
          const range = check.object(given['upscale_factor'], 'upscale_factor')
          check.knownFields(range, UPSCALE_FIELDS, 'upscale_factor', 'an upscale factor range')
          upscale_factor = {}
          for (const bound of ['min', 'max'] as const) {
            if (range[bound] === null) upscale_factor[bound] = null
            else if (range[bound] !== undefined) upscale_factor[bound] = check.nonNegative(range[bound], `upscale_factor.${bound}`)
          }
        }
        const slug = id.split('/')[1] ?? id
        const name = has('name') ? check.string(given['name'], 'name') : titleCase(slug)
        const created = has('created') ? toEpochMs(given['created'] as InstantInput, operation, 'created') : ctx.clock.nowMs()
        const model: VideoModel = {
          id,
          canonical_slug: has('canonical_slug') ? check.string(given['canonical_slug'], 'canonical_slug') : id,
          name,
          created: toUnixSeconds(created),
          description: has('description') ? check.string(given['description'], 'description') : `${name} video generation.`,
          generate_audio: nullableBoolean('generate_audio', false),
          allowed_passthrough_parameters:
            nullableList('allowed_passthrough_parameters', (item, a) => check.string(item, a), []) ??
            check.fail('allowed_passthrough_parameters', 'must be an array, never null'),
          pricing_skus,
          seed: nullableBoolean('seed', null),
          supported_aspect_ratios: nullableList('supported_aspect_ratios', (item, a) => check.oneOf(item, VIDEO_ASPECT_RATIOS, a), ['16:9', '9:16']),
          supported_durations: nullableList('supported_durations', integer, [5, 10]),
          supported_frame_images: nullableList('supported_frame_images', (item, a) => check.oneOf(item, VIDEO_FRAME_IMAGES, a), ['first_frame']),
          supported_resolutions: nullableList('supported_resolutions', (item, a) => check.oneOf(item, VIDEO_RESOLUTIONS, a), ['720p', '1080p']),
          supported_sizes: nullableList('supported_sizes', (item, a) => check.string(item, a, SIZE, 'WIDTHxHEIGHT such as "1280x720"'), null),
          creativity: nullableList('creativity', integer, null),
          upscale_factor,
        }
        if (has('hugging_face_id')) model.hugging_face_id = given['hugging_face_id'] === null ? null : check.string(given['hugging_face_id'], 'hugging_face_id')
        put(ctx, 'videoModels', id, model)
        return structuredClone(model)
      }),
    list: () => [...ctx.data.videoModels.values()].map((m) => structuredClone(m)),
  }
}
