import fc from 'fast-check'
import { ListEndpointsResponse$inboundSchema } from '@openrouter/sdk/models/operations/listendpoints.js'
import { describe, expect, it } from 'vitest'
import { SimulatorError } from '../../src/index.js'
import { modelWithEndpoints } from '../../src/arbitraries/index.js'
import { validatePricing } from '../../src/pricing/index.js'
import { expectSdkParses, sampleOf, settings, shrunk } from './support.js'

const MODEL_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*\/[A-Za-z0-9][A-Za-z0-9._-]*(:[A-Za-z0-9._-]+)?$/

describe('modelWithEndpoints', () => {
  it('every model is one the SDK parses as the endpoint listing', () => {
    fc.assert(
      fc.property(modelWithEndpoints(), (model) => {
        expectSdkParses(ListEndpointsResponse$inboundSchema, { data: model })
        for (const e of model.endpoints) expect(validatePricing(e.pricing)).toEqual([])
      }),
      settings,
    )
  })

  it('endpoints all name the model and have distinct tags; created is whole seconds; modality reads inputs->outputs', () => {
    fc.assert(
      fc.property(modelWithEndpoints(), (model) => {
        expect(model.id).toMatch(MODEL_ID)
        expect(Number.isInteger(model.created)).toBe(true)
        // Endpoint names drop the author prefix of the model name: "Together: Llama 3.3", not "Together: Meta: Llama 3.3".
        const shortName = model.name.replace(/^[^:]+: /, '')
        for (const e of model.endpoints) expect([e.model_id, e.model_name, e.name]).toEqual([model.id, model.name, `${e.provider_name}: ${shortName}`])
        expect(new Set(model.endpoints.map((e) => e.tag)).size).toBe(model.endpoints.length)
        const { modality, input_modalities, output_modalities } = model.architecture
        if (modality !== null) expect(modality).toBe(`${input_modalities.join('+')}->${output_modalities.join('+')}`)
      }),
      settings,
    )
  })

  it('honours minEndpoints, maxEndpoints and the endpoint constraints', () => {
    fc.assert(
      fc.property(modelWithEndpoints({ minEndpoints: 2, maxEndpoints: 3, endpoint: { anonymous: true } }), (model) => {
        expect(model.endpoints.length).toBeGreaterThanOrEqual(2)
        expect(model.endpoints.length).toBeLessThanOrEqual(3)
        expect(model.endpoints.every((e) => e.latency_last_30m === null && e.throughput_last_30m === null)).toBe(true)
      }),
      settings,
    )
    expect(() => modelWithEndpoints({ minEndpoints: 2, maxEndpoints: 1 })).toThrow(SimulatorError)
    expect(() => modelWithEndpoints({ minEndpoints: 1000 })).toThrow(/Please pass minEndpoints <= 260/)
  })

  it('is biased toward no endpoints, empty modality lists, empty descriptions and null architecture fields', () => {
    const models = sampleOf(modelWithEndpoints())
    expect(models.some((m) => m.endpoints.length === 0)).toBe(true)
    expect(models.some((m) => m.architecture.input_modalities.length === 0)).toBe(true)
    expect(models.some((m) => m.architecture.output_modalities.length === 0)).toBe(true)
    expect(models.some((m) => m.description === '')).toBe(true)
    for (const field of ['tokenizer', 'instruct_type', 'modality'] as const) expect(models.some((m) => m.architecture[field] === null), field).toBe(true)
  })

  it('shrinks a model with too many endpoints to exactly two bare ones', () => {
    const minimal = shrunk(modelWithEndpoints(), (m) => m.endpoints.length < 2)
    expect(minimal.endpoints).toHaveLength(2)
    expect(minimal.description).toBe('')
    expect(minimal.architecture).toEqual({ tokenizer: null, instruct_type: null, modality: null, input_modalities: [], output_modalities: [] })
    for (const e of minimal.endpoints) {
      expect(e.pricing).toEqual({ prompt: '0', completion: '0' })
      expect(e.supported_parameters).toEqual([])
    }
  })
})
