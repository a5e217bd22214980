import fc from 'fast-check'
import { fieldsOf } from '../core/store/check.js'
import { checkConstraints } from './internal/constraints.js'
import { VIDEO_ASPECT_RATIOS, VIDEO_FRAME_IMAGES, VIDEO_RESOLUTIONS, type VideoModel } from '../core/types.js'
import { fakerText, slugify } from './internal/faker.js'
import { instantMs, instantRange } from './internal/instant.js'
import { videoModelRef } from './internal/model-ids.js'
import { price } from './internal/prices.js'
import { nullable } from './internal/stats.js'

/** The constraints this arbitrary takes; any other is refused. */
export const VIDEO_MODEL_CONSTRAINT_NAMES = fieldsOf<VideoModelConstraints>({ minCreatedAt: true, maxCreatedAt: true })

/** Options of {@link videoModel}. */
export interface VideoModelConstraints {
  /** Earliest `created`; default four years before 2026-03-02. */
  minCreatedAt?: Date | number | undefined
  /** Latest `created`; default four years after 2026-03-02. */
  maxCreatedAt?: Date | number | undefined
}

const PASSTHROUGH_PARAMETERS = ['negative_prompt', 'enhance_prompt', 'person_generation', 'camera_fixed', 'watermark', 'cfg_scale'] as const
const SIZES = ['1280x720', '720x1280', '1920x1080', '1080x1920', '1024x1024', '854x480', '480x854'] as const
const SKUS = ['per-video-second', 'per-video-second-audio', 'per-video-second-1080p', 'per-video', 'per-image'] as const

/** Prices of some SKUs; often none at all, which a record of five optional keys seldom gives. */
const skus: fc.Arbitrary<Record<string, string>> = fc.oneof(
  { arbitrary: fc.record(Object.fromEntries(SKUS.map((sku) => [sku, price])) as Record<(typeof SKUS)[number], fc.Arbitrary<string>>, { requiredKeys: [], noNullPrototype: true }), weight: 4 },
  // A fresh object per value: a test that mutates one value must not change the next.
  { arbitrary: fc.constant(null).map(() => ({})), weight: 1 },
)

/** Some of the listed values, in list order, possibly none; or null. */
const nullableSubset = <T>(values: readonly T[]): fc.Arbitrary<T[] | null> => nullable(fc.subarray([...values]))

/** Distinct positive integers in ascending order, possibly none; or null. */
const nullableLevels = (max: number): fc.Arbitrary<number[] | null> =>
  nullable(fc.uniqueArray(fc.integer({ min: 1, max }), { maxLength: 5 }).map((levels) => [...levels].sort((a, b) => a - b)))

/** `{ min?, max? }`, each bound absent, null or a number, with min <= max when both are numbers. */
const upscaleFactor: fc.Arbitrary<VideoModel['upscale_factor']> = nullable(
  fc
    .record({ min: nullable(fc.integer({ min: 1, max: 4 })), extra: fc.nat({ max: 4 }), hasMin: fc.boolean(), hasMax: fc.boolean(), maxIsNull: fc.boolean() })
    .map(({ min, extra, hasMin, hasMax, maxIsNull }) => ({
      ...(hasMin ? { min } : {}),
      ...(hasMax ? { max: maxIsNull ? null : (min ?? 1) + extra } : {}),
    })),
)

/**
 * Arbitrary video generation model as `GET /videos/models` lists it, one the
 * official SDK parses: an id such as `google/veo-3.1`, its canonical slug (the id, or the id and a
 * date), `created` in whole Unix seconds, lists drawn from the wire's values (`16:9`, `720p`,
 * `first_frame`, `1280x720`), durations and creativity levels as ascending positive integers, and
 * `pricing_skus` absent, null or decimal-string prices. Biased toward null and empty lists, an
 * empty `pricing_skus`, prices "0", and absent optional keys.
 *
 * @example
 * import fc from 'fast-check'
 * import { videoModel } from 'model-access-sim/arbitraries'
 * const models = fc.sample(videoModel(), { seed: 1, numRuns: 100 })
 * console.log(models.every((m) => m.canonical_slug.startsWith(m.id) && Number.isInteger(m.created)))
 * //=> true
 */
export function videoModel(constraints: VideoModelConstraints = {}): fc.Arbitrary<VideoModel> {
  checkConstraints('videoModel', constraints, VIDEO_MODEL_CONSTRAINT_NAMES)
  const created = instantMs(instantRange('videoModel', ['minCreatedAt', 'maxCreatedAt'], constraints.minCreatedAt, constraints.maxCreatedAt))
  const optional = fc.record(
    {
      description: fakerText((f) => `${f.company.catchPhrase()}, for video.`),
      pricing_skus: nullable(skus),
      hugging_face_id: nullable(fakerText((f) => `${slugify(f.company.name()) || 'org'}/${f.word.noun()}-video`)),
    },
    { requiredKeys: [] },
  )
  return fc
    .record({
      model: videoModelRef(),
      dated: fc.boolean(),
      created,
      generate_audio: nullable(fc.boolean()),
      allowed_passthrough_parameters: fc.subarray([...PASSTHROUGH_PARAMETERS]),
      seed: nullable(fc.boolean()),
      supported_aspect_ratios: nullableSubset(VIDEO_ASPECT_RATIOS),
      supported_durations: nullableLevels(20),
      supported_frame_images: nullableSubset(VIDEO_FRAME_IMAGES),
      supported_resolutions: nullableSubset(VIDEO_RESOLUTIONS),
      supported_sizes: nullableSubset(SIZES),
      creativity: nullableLevels(10),
      upscale_factor: upscaleFactor,
      optional,
    })
    .map((v): VideoModel => {
      const { description, pricing_skus, hugging_face_id } = v.optional
      return {
        id: v.model.id,
        canonical_slug: v.dated ? `${v.model.id}-${new Date(v.created).toISOString().slice(0, 10).replaceAll('-', '')}` : v.model.id,
        name: v.model.name,
        created: Math.floor(v.created / 1000),
        ...(description === undefined ? {} : { description }),
        generate_audio: v.generate_audio,
        allowed_passthrough_parameters: v.allowed_passthrough_parameters,
        ...(pricing_skus === undefined ? {} : { pricing_skus }),
        seed: v.seed,
        supported_aspect_ratios: v.supported_aspect_ratios,
        supported_durations: v.supported_durations,
        supported_frame_images: v.supported_frame_images,
        supported_resolutions: v.supported_resolutions,
        supported_sizes: v.supported_sizes,
        creativity: v.creativity,
        upscale_factor: v.upscale_factor,
        ...(hugging_face_id === undefined ? {} : { hugging_face_id }),
      }
    })
}
