import fc from 'fast-check'
import { GetWorkspaceResponse$inboundSchema } from '@openrouter/sdk/models/getworkspaceresponse.js'
import { describe, expect, it } from 'vitest'
import { workspace } from '../../src/arbitraries/index.js'
import { SERVICE_TIMESTAMP, UUID_V4, expectSdkParses, sampleOf, settings, shrunk } from './support.js'

const MODEL_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*\/[A-Za-z0-9][A-Za-z0-9._-]*(:[A-Za-z0-9._-]+)?$/

describe('workspace', () => {
  it('every workspace is one the SDK parses', () => {
    fc.assert(
      fc.property(workspace(), (w) => expectSdkParses(GetWorkspaceResponse$inboundSchema, { data: w })),
      settings,
    )
  })

  it('ids are UUIDs, slugs lower-case words, models real ids, the sampling rate in [0, 1], and timestamps ordered', () => {
    fc.assert(
      fc.property(workspace(), (w) => {
        expect(w.id).toMatch(UUID_V4)
        expect(w.default_guardrail_id).toMatch(UUID_V4)
        expect(w.slug).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/)
        for (const model of [w.default_text_model, w.default_image_model]) if (model !== null) expect(model).toMatch(MODEL_ID)
        expect(w.io_logging_sampling_rate).toBeGreaterThanOrEqual(0)
        expect(w.io_logging_sampling_rate).toBeLessThanOrEqual(1)
        expect(w.created_at).toMatch(SERVICE_TIMESTAMP)
        if (w.updated_at !== null) {
          expect(w.updated_at).toMatch(SERVICE_TIMESTAMP)
          expect(Date.parse(w.updated_at)).toBeGreaterThanOrEqual(Date.parse(w.created_at))
        }
        for (const id of w.io_logging_api_key_ids ?? []) expect(Number.isInteger(id)).toBe(true)
      }),
      settings,
    )
  })

  it('honours the created_at bounds', () => {
    fc.assert(
      fc.property(workspace({ minCreatedAt: Date.UTC(2025, 11, 31, 23, 59), maxCreatedAt: Date.UTC(2026, 0, 1) }), (w) => {
        expect(Date.parse(w.created_at)).toBeGreaterThanOrEqual(Date.UTC(2025, 11, 31, 23, 59))
        expect(Date.parse(w.created_at)).toBeLessThanOrEqual(Date.UTC(2026, 0, 1))
      }),
      settings,
    )
  })

  it('is biased toward null fields, empty key-id lists and sampling rates 0 and 1', () => {
    const workspaces = sampleOf(workspace())
    for (const field of ['description', 'updated_at', 'created_by', 'default_image_model', 'default_text_model', 'default_provider_sort', 'io_logging_api_key_ids'] as const) {
      expect(workspaces.some((w) => w[field] === null), field).toBe(true)
    }
    expect(workspaces.some((w) => w.io_logging_api_key_ids?.length === 0)).toBe(true)
    expect(workspaces.some((w) => w.io_logging_sampling_rate === 0)).toBe(true)
    expect(workspaces.some((w) => w.io_logging_sampling_rate === 1)).toBe(true)
  })

  it('shrinks a workspace with logged keys to a single key id of 1', () => {
    const minimal = shrunk(workspace(), (w) => (w.io_logging_api_key_ids ?? []).length === 0)
    expect(minimal.io_logging_api_key_ids).toEqual([1])
    expect(minimal).toMatchObject({ description: null, updated_at: null, created_by: null, created_at: '2026-03-02T00:00:00.000000+00:00' })
  })
})
