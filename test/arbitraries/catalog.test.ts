import fc from 'fast-check'
import { ModelResponse$inboundSchema } from '@openrouter/sdk/models/modelresponse.js'
import { ModelsListResponse$inboundSchema } from '@openrouter/sdk/models/modelslistresponse.js'
import { ListProvidersResponse$inboundSchema } from '@openrouter/sdk/models/operations/listproviders.js'
import { describe, expect, it } from 'vitest'
import { catalogModel, provider } from '../../src/arbitraries/index.js'
import { PROVIDERS } from '../../src/core/store/defaults.js'
import { SUPPORTED_PARAMETERS, SimulatorError } from '../../src/index.js'
import { expectSdkParses, sampleOf, settings } from './support.js'

describe('catalogModel', () => {
  it('every catalog model is one the SDK parses in GET /models and GET /model/{author}/{slug}', () => {
    fc.assert(
      fc.property(catalogModel(), (model) => {
        expectSdkParses(ModelsListResponse$inboundSchema, { data: [model], links: { next: null }, total_count: 1 })
        expectSdkParses(ModelResponse$inboundSchema, { data: model })
      }),
      settings,
    )
  })

  it('holds the derivation: canonical slug without the variant, parameters in order, the longest window at least the top provider’s', () => {
    fc.assert(
      fc.property(catalogModel({ maxEndpoints: 3 }), (model) => {
        expect(model.canonical_slug).toBe(model.id.split(':')[0])
        expect(model.supported_parameters).toEqual(SUPPORTED_PARAMETERS.filter((p) => model.supported_parameters.includes(p)))
        expect(model.context_length).toBeGreaterThanOrEqual(model.top_provider.context_length ?? 0)
        expect(model.links.details).toBe(`/api/v1/models/${model.id}/endpoints`)
      }),
      settings,
    )
  })

  it('varies the fields the service may leave out or null', () => {
    const models = sampleOf(catalogModel())
    for (const key of ['description', 'hugging_face_id', 'knowledge_cutoff', 'expiration_date'] as const) {
      expect(models.some((m) => !(key in m)), `${key} absent`).toBe(true)
      expect(models.some((m) => key in m), `${key} present`).toBe(true)
    }
    for (const key of ['hugging_face_id', 'knowledge_cutoff', 'expiration_date', 'default_parameters', 'per_request_limits'] as const) {
      expect(models.some((m) => m[key] === null), `${key} null`).toBe(true)
    }
    expect(models.some((m) => m.per_request_limits !== null)).toBe(true)
  })

  it('refuses maxEndpoints below 1 and unknown constraints', () => {
    expect(() => catalogModel({ maxEndpoints: 0 })).toThrow(SimulatorError)
    expect(() => catalogModel({ minEndpoints: 2 } as never)).toThrow(SimulatorError)
  })
})

describe('provider', () => {
  it('every provider is one the SDK parses in GET /providers', () => {
    fc.assert(
      fc.property(provider(), (p) => expectSdkParses(ListProvidersResponse$inboundSchema, { data: [p] })),
      settings,
    )
  })

  it('names a known provider with its endpoints’ slug when asked for known names', () => {
    fc.assert(
      fc.property(provider({ names: 'known' }), (p) => {
        expect(PROVIDERS.find((known) => known.name === p.name)?.tag).toBe(p.slug)
      }),
      settings,
    )
  })

  it('varies names and the optional fields, and gives every name a non-empty slug', () => {
    const providers = sampleOf(provider())
    expect(providers.every((p) => /^[a-z0-9-]+$/.test(p.slug))).toBe(true)
    expect(providers.some((p) => !PROVIDERS.some((known) => known.name === p.name))).toBe(true)
    for (const key of ['terms_of_service_url', 'status_page_url', 'headquarters', 'datacenters'] as const) {
      expect(providers.some((p) => !(key in p)), `${key} absent`).toBe(true)
      expect(providers.some((p) => p[key] === null), `${key} null`).toBe(true)
      expect(providers.some((p) => typeof p[key] === 'string' || Array.isArray(p[key])), `${key} set`).toBe(true)
    }
    expect(providers.some((p) => p.privacy_policy_url === null)).toBe(true)
  })

  it('refuses an unknown constraint', () => {
    expect(() => provider({ name: 'x' } as never)).toThrow(SimulatorError)
  })
})

describe('replaying a seed', () => {
  const makers: [string, () => fc.Arbitrary<unknown>][] = [
    ['catalogModel', () => catalogModel()],
    ['provider', () => provider()],
  ]
  it.each(makers)('the same seed gives the same %s values, faker text included', (_, make) => {
    const first = fc.sample(make(), { seed: 7, numRuns: 30 })
    expect(fc.sample(make(), { seed: 7, numRuns: 30 })).toEqual(first)
    expect(fc.sample(make(), { seed: 8, numRuns: 30 })).not.toEqual(first)
  })
})
