import fc from 'fast-check'
import { ListEndpointsResponse$inboundSchema } from '@openrouter/sdk/models/operations/listendpoints.js'
import { describe, expect, it } from 'vitest'
import { endpoint } from '../../src/arbitraries/index.js'
import type { Endpoint } from '../../src/arbitraries/index.js'
import type { PercentileStats } from '../../src/index.js'
import { validatePricing } from '../../src/pricing/index.js'
import { expectSdkParses, sampleOf, settings, shrunk } from './support.js'

/** The smallest model-with-endpoints envelope the SDK accepts around one endpoint. */
const envelope = (e: Endpoint) => ({
  data: {
    id: e.model_id,
    name: e.model_name,
    created: 0,
    description: '',
    architecture: { tokenizer: null, instruct_type: null, modality: null, input_modalities: [], output_modalities: [] },
    endpoints: [e],
  },
})

const rising = (stats: PercentileStats | null): boolean => stats === null || (stats.p50 <= stats.p75 && stats.p75 <= stats.p90 && stats.p90 <= stats.p99)
const falling = (stats: PercentileStats | null): boolean => stats === null || (stats.p50 >= stats.p75 && stats.p75 >= stats.p90 && stats.p90 >= stats.p99)
const flat = (stats: PercentileStats | null): boolean => stats !== null && stats.p50 === stats.p99

describe('endpoint', () => {
  it('every endpoint is one the SDK parses inside a model-with-endpoints envelope', () => {
    fc.assert(
      fc.property(endpoint(), (e) => expectSdkParses(ListEndpointsResponse$inboundSchema, envelope(e))),
      settings,
    )
  })

  it('every endpoint pricing is one validatePricing accepts', () => {
    fc.assert(
      fc.property(endpoint(), (e) => {
        expect(validatePricing(e.pricing)).toEqual([])
      }),
      settings,
    )
  })

  it('token limits fit the context, uptimes are percentages, latency percentiles rise and throughput percentiles fall', () => {
    fc.assert(
      fc.property(endpoint(), (e) => {
        expect(Number.isInteger(e.context_length) && e.context_length >= 1).toBe(true)
        for (const limit of [e.max_completion_tokens, e.max_prompt_tokens]) {
          if (limit !== null) expect(Number.isInteger(limit) && limit >= 1 && limit <= e.context_length).toBe(true)
        }
        for (const uptime of [e.uptime_last_5m, e.uptime_last_30m, e.uptime_last_1d]) {
          if (uptime !== null) expect(uptime >= 0 && uptime <= 100).toBe(true)
        }
        const workloads = Object.values(e.perf_last_30m_by_workload ?? {})
        expect([e.latency_last_30m, ...workloads.map((p) => p.latency)].every(rising)).toBe(true)
        expect([e.throughput_last_30m, ...workloads.map((p) => p.throughput)].every(falling)).toBe(true)
      }),
      settings,
    )
  })

  it('supports_tool_choice flags are true only when tool_choice is supported, and tool_choice brings tools', () => {
    fc.assert(
      fc.property(endpoint(), (e) => {
        const accepted = e.supported_parameters.includes('tool_choice')
        if (!accepted) expect(Object.values(e.supports_tool_choice)).toEqual([false, false, false, false])
        else expect(e.supported_parameters).toContain('tools')
        expect(new Set(e.supported_parameters).size).toBe(e.supported_parameters.length)
      }),
      settings,
    )
  })

  it('an anonymous endpoint has no latency, throughput or workload figures, and pricing constraints pass through', () => {
    fc.assert(
      fc.property(endpoint({ anonymous: true, pricing: { kind: 'tiers', minOverrides: 1, maxOverrides: 2 } }), (e) => {
        expect([e.latency_last_30m, e.throughput_last_30m]).toEqual([null, null])
        expect(e.perf_last_30m_by_workload).toBeUndefined()
        expect(e.pricing.overrides?.length).toBeGreaterThanOrEqual(1)
        expect(e.pricing.overrides?.every((o) => o.min_prompt_tokens !== undefined && o.utc_start === undefined)).toBe(true)
      }),
      settings,
    )
  })

  it('is biased toward flat percentiles, no supported parameters, limits equal to the context and null fields', () => {
    const endpoints = sampleOf(endpoint())
    expect(endpoints.some((e) => flat(e.latency_last_30m))).toBe(true)
    expect(endpoints.some((e) => flat(e.throughput_last_30m))).toBe(true)
    expect(endpoints.some((e) => e.supported_parameters.length === 0)).toBe(true)
    expect(endpoints.some((e) => e.max_completion_tokens === e.context_length)).toBe(true)
    expect(endpoints.some((e) => e.uptime_last_1d === 100)).toBe(true)
    expect(endpoints.some((e) => e.uptime_last_1d === 0)).toBe(true)
    expect(endpoints.some((e) => e.perf_last_30m_by_workload !== undefined && Object.keys(e.perf_last_30m_by_workload).length === 0)).toBe(true)
    expect(endpoints.some((e) => e.status === undefined)).toBe(true)
    for (const field of ['quantization', 'max_completion_tokens', 'max_prompt_tokens', 'uptime_last_5m', 'uptime_last_30m', 'uptime_last_1d', 'latency_last_30m', 'throughput_last_30m'] as const) {
      expect(endpoints.some((e) => e[field] === null), field).toBe(true)
    }
  })

  it('shrinks an endpoint with supported parameters to exactly one and nothing optional', () => {
    const minimal = shrunk(endpoint(), (e) => e.supported_parameters.length === 0)
    expect(minimal.supported_parameters).toHaveLength(1)
    expect(minimal.pricing).toEqual({ prompt: '0', completion: '0' })
    expect(Object.keys(minimal)).not.toContain('status')
    expect(Object.keys(minimal)).not.toContain('perf_last_30m_by_workload')
  })
})
