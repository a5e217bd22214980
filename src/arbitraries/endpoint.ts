import fc from 'fast-check'
import { fieldsOf } from '../core/store/check.js'
import { checkConstraints } from './internal/constraints.js'
import { PROVIDERS } from '../core/store/defaults.js'
import {
  ENDPOINT_STATUSES,
  type Endpoint,
  QUANTIZATIONS,
  SUPPORTED_PARAMETERS,
  type SupportedParameter,
  type SupportsToolChoice,
  WORKLOADS,
  type Workload,
  type WorkloadPerformance,
} from '../core/types.js'
import { endpointName, textModelRef } from './internal/model-ids.js'
import { nullable, percentiles, uptime } from './internal/stats.js'
import { type PricingConstraints, pricing } from './pricing.js'

/** The constraints this arbitrary takes; any other is refused. */
export const ENDPOINT_CONSTRAINT_NAMES = fieldsOf<EndpointConstraints>({ pricing: true, anonymous: true })

/** Options of {@link endpoint}. */
export interface EndpointConstraints {
  /** Options of the endpoint's {@link pricing}; default: its defaults. */
  pricing?: PricingConstraints | undefined
  /**
   * `true`: what an unauthenticated caller sees, `latency_last_30m` and `throughput_last_30m`
   * null and no `perf_last_30m_by_workload`; default `false`.
   */
  anonymous?: boolean | undefined
}

const CONTEXT_LENGTHS = [4096, 8192, 32768, 128000, 131072, 200000, 1048576, 1] as const
const contextLength: fc.Arbitrary<number> = fc.oneof(fc.constantFrom(...CONTEXT_LENGTHS), fc.integer({ min: 1, max: 2_097_152 }))

/** Per mille of the context length, 1000 (all of it) and 0 (one token) often. */
const shareOfContext: fc.Arbitrary<number | null> = nullable(fc.oneof(fc.constant(1000), fc.integer({ min: 0, max: 1000 })))
const tokensWithin = (contextLength: number, perMille: number | null): number | null =>
  perMille === null ? null : Math.max(1, Math.round((contextLength * perMille) / 1000))

/** Milliseconds to first token (up to 5 s at p50), and output tokens per second (up to 500 at p99). */
const latency = percentiles(50_000, 'rising')
const throughput = percentiles(5_000, 'falling')

// noNullPrototype: fast-check may otherwise build records without a prototype, and users get plain objects.
const workloadPerformance: fc.Arbitrary<WorkloadPerformance> = fc.record(
  { latency: nullable(latency), throughput: nullable(throughput), request_count: nullable(fc.nat({ max: 1_000_000 })) },
  { noNullPrototype: true },
)

/** Any subset of the workloads the SDK knows; often none at all, which a record of nine optional keys seldom gives. */
const perfByWorkload: fc.Arbitrary<Partial<Record<Workload, WorkloadPerformance>>> = fc.oneof(
  { arbitrary: fc.record(Object.fromEntries(WORKLOADS.map((w) => [w, workloadPerformance])) as Record<Workload, fc.Arbitrary<WorkloadPerformance>>, { requiredKeys: [], noNullPrototype: true }), weight: 4 },
  // A fresh object per value: a test that mutates one value must not change the next.
  { arbitrary: fc.constant(null).map(() => ({})), weight: 1 },
)

/**
 * Supported parameters, in the wire's order, possibly none. `tool_choice` brings `tools` with it:
 * choosing a tool means nothing without tools to choose from.
 */
const supportedParameters: fc.Arbitrary<SupportedParameter[]> = fc.subarray([...SUPPORTED_PARAMETERS]).map((params) =>
  params.includes('tool_choice') && !params.includes('tools') ? SUPPORTED_PARAMETERS.filter((p) => p === 'tools' || params.includes(p)) : params,
)

const toolChoiceFlags: fc.Arbitrary<SupportsToolChoice> = fc.record({ none: fc.boolean(), auto: fc.boolean(), required: fc.boolean(), function: fc.boolean() })

/**
 * Arbitrary provider endpoint of a model, one the official SDK parses and
 * whose pricing `validatePricing` accepts. Invariants: `max_completion_tokens` and
 * `max_prompt_tokens` null or within `context_length`; `supports_tool_choice` flags true only when
 * `supported_parameters` has `tool_choice` (which brings `tools`); uptimes null or in [0, 100];
 * latency percentiles rising (p50 <= p75 <= p90 <= p99) and throughput percentiles falling
 * (p50 >= p75 >= p90 >= p99: the slow tail). Biased toward null fields,
 * no supported parameters, limits equal to the context length, percentiles all equal, uptime 0
 * and 100, an empty `perf_last_30m_by_workload`, and the pricing edges of {@link pricing}.
 * A lone endpoint names a model of its own; {@link modelWithEndpoints} makes endpoints share one.
 *
 * @example
 * import fc from 'fast-check'
 * import { endpoint } from 'model-access-sim/arbitraries'
 * const result = fc.check(
 *   fc.property(endpoint({ anonymous: true }), (e) => e.latency_last_30m === null && (e.max_completion_tokens ?? 0) <= e.context_length),
 * )
 * console.log(result.failed)
 * //=> false
 */
export function endpoint(constraints: EndpointConstraints = {}): fc.Arbitrary<Endpoint> {
  checkConstraints('endpoint', constraints, ENDPOINT_CONSTRAINT_NAMES)
  const anonymous = constraints.anonymous === true
  const optional = fc.record(
    {
      status: fc.constantFrom(...ENDPOINT_STATUSES),
      supports_voice_cloning: fc.boolean(),
      perf_last_30m_by_workload: perfByWorkload,
    },
    { requiredKeys: [] },
  )
  return fc
    .record({
      model: textModelRef(),
      provider: fc.constantFrom(...PROVIDERS),
      tagged: fc.boolean(),
      context_length: contextLength,
      pricing: pricing(constraints.pricing),
      quantization: nullable(fc.constantFrom(...QUANTIZATIONS)),
      completionShare: shareOfContext,
      promptShare: shareOfContext,
      supported_parameters: supportedParameters,
      supports_implicit_caching: fc.boolean(),
      toolChoice: toolChoiceFlags,
      uptime_last_5m: nullable(uptime),
      uptime_last_30m: nullable(uptime),
      uptime_last_1d: nullable(uptime),
      latency_last_30m: anonymous ? fc.constant(null) : nullable(latency),
      throughput_last_30m: anonymous ? fc.constant(null) : nullable(throughput),
      optional,
    })
    .map((e): Endpoint => {
      const accepted = e.supported_parameters.includes('tool_choice')
      const { perf_last_30m_by_workload, ...rest } = e.optional
      return {
        name: endpointName(e.provider.name, e.model.name),
        model_id: e.model.id,
        model_name: e.model.name,
        context_length: e.context_length,
        pricing: e.pricing,
        provider_name: e.provider.name,
        // Real tags name a quantized deployment of a provider as `deepinfra/fp8`.
        tag: e.tagged && e.quantization !== null ? `${e.provider.tag}/${e.quantization}` : e.provider.tag,
        quantization: e.quantization,
        max_completion_tokens: tokensWithin(e.context_length, e.completionShare),
        max_prompt_tokens: tokensWithin(e.context_length, e.promptShare),
        supported_parameters: e.supported_parameters,
        supports_implicit_caching: e.supports_implicit_caching,
        supports_tool_choice: {
          none: accepted && e.toolChoice.none,
          auto: accepted && e.toolChoice.auto,
          required: accepted && e.toolChoice.required,
          function: accepted && e.toolChoice.function,
        },
        uptime_last_5m: e.uptime_last_5m,
        uptime_last_30m: e.uptime_last_30m,
        uptime_last_1d: e.uptime_last_1d,
        latency_last_30m: e.latency_last_30m,
        throughput_last_30m: e.throughput_last_30m,
        ...rest,
        ...(anonymous || perf_last_30m_by_workload === undefined ? {} : { perf_last_30m_by_workload }),
      }
    })
}
