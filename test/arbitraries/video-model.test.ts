import fc from 'fast-check'
import { VideoModelsListResponse$inboundSchema } from '@openrouter/sdk/models/videomodelslistresponse.js'
import { describe, expect, it } from 'vitest'
import { videoModel } from '../../src/arbitraries/index.js'
import { VIDEO_ASPECT_RATIOS, VIDEO_RESOLUTIONS } from '../../src/index.js'
import { expectSdkParses, sampleOf, settings, shrunk } from './support.js'

const ascendingPositive = (list: number[] | null): boolean => list === null || list.every((n, i) => Number.isInteger(n) && n >= 1 && (i === 0 || (list[i - 1] as number) < n))

describe('videoModel', () => {
  it('every video model is one the SDK parses in the video model listing', () => {
    fc.assert(
      fc.property(videoModel(), (model) => expectSdkParses(VideoModelsListResponse$inboundSchema, { data: [model] })),
      settings,
    )
  })

  it('lists hold wire values, durations and creativity ascend, prices are decimal strings and upscale bounds are ordered', () => {
    fc.assert(
      fc.property(videoModel(), (model) => {
        expect(model.canonical_slug.startsWith(model.id)).toBe(true)
        expect(Number.isInteger(model.created)).toBe(true)
        for (const ratio of model.supported_aspect_ratios ?? []) expect(VIDEO_ASPECT_RATIOS).toContain(ratio)
        for (const resolution of model.supported_resolutions ?? []) expect(VIDEO_RESOLUTIONS).toContain(resolution)
        for (const size of model.supported_sizes ?? []) expect(size).toMatch(/^\d{2,5}x\d{2,5}$/)
        expect(ascendingPositive(model.supported_durations) && ascendingPositive(model.creativity)).toBe(true)
        for (const price of Object.values(model.pricing_skus ?? {})) expect(price).toMatch(/^\d+(\.\d+)?$/)
        const { min, max } = model.upscale_factor ?? {}
        if (typeof min === 'number' && typeof max === 'number') expect(min).toBeLessThanOrEqual(max)
      }),
      settings,
    )
  })

  it('honours the created bounds', () => {
    fc.assert(
      fc.property(videoModel({ minCreatedAt: Date.UTC(2025, 0, 1), maxCreatedAt: Date.UTC(2025, 0, 2) }), (model) => {
        expect(model.created).toBeGreaterThanOrEqual(Date.UTC(2025, 0, 1) / 1000)
        expect(model.created).toBeLessThanOrEqual(Date.UTC(2025, 0, 2) / 1000)
      }),
      settings,
    )
  })

  it('is biased toward null and empty lists, empty or null SKU prices, and absent optional keys', () => {
    const models = sampleOf(videoModel())
    for (const field of ['supported_aspect_ratios', 'supported_durations', 'supported_frame_images', 'supported_resolutions', 'supported_sizes', 'creativity'] as const) {
      expect(models.some((m) => m[field] === null), `${field} null`).toBe(true)
      expect(models.some((m) => m[field]?.length === 0), `${field} empty`).toBe(true)
    }
    expect(models.some((m) => m.allowed_passthrough_parameters.length === 0)).toBe(true)
    expect(models.some((m) => m.pricing_skus === null)).toBe(true)
    expect(models.some((m) => m.pricing_skus !== null && m.pricing_skus !== undefined && Object.keys(m.pricing_skus).length === 0)).toBe(true)
    expect(models.some((m) => Object.values(m.pricing_skus ?? {}).includes('0'))).toBe(true)
    for (const key of ['description', 'pricing_skus', 'hugging_face_id'] as const) expect(models.some((m) => !(key in m)), key).toBe(true)
    for (const field of ['generate_audio', 'seed', 'upscale_factor'] as const) expect(models.some((m) => m[field] === null), field).toBe(true)
  })

  it('shrinks a model with several durations to exactly 1 and 2 seconds and nothing optional', () => {
    const minimal = shrunk(videoModel(), (m) => (m.supported_durations ?? []).length < 2)
    expect(minimal.supported_durations).toEqual([1, 2])
    expect(Object.keys(minimal)).not.toContain('description')
    expect(Object.keys(minimal)).not.toContain('pricing_skus')
    expect(minimal.canonical_slug).toBe(minimal.id)
  })
})
