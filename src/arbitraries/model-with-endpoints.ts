import fc from 'fast-check'
import { fieldsOf } from '../core/store/check.js'
import { PROVIDERS } from '../core/store/defaults.js'
import { INPUT_MODALITIES, INSTRUCT_TYPES, type ModelWithEndpoints, OUTPUT_MODALITIES, QUANTIZATIONS, TOKENIZERS } from '../core/types.js'
import { countRange, invalidConstraint, checkConstraints } from './internal/constraints.js'
import { fakerText } from './internal/faker.js'
import { instantMs, instantRange } from './internal/instant.js'
import { endpointName, textModelRef } from './internal/model-ids.js'
import { nullable } from './internal/stats.js'
import { type EndpointConstraints, endpoint } from './endpoint.js'

/** The constraints this arbitrary takes; any other is refused. */
export const MODEL_WITH_ENDPOINTS_CONSTRAINT_NAMES = fieldsOf<ModelWithEndpointsConstraints>({ minEndpoints: true, maxEndpoints: true, endpoint: true, minCreatedAt: true, maxCreatedAt: true })

/** Options of {@link modelWithEndpoints}. */
export interface ModelWithEndpointsConstraints {
  /** Fewest endpoints; default 0. */
  minEndpoints?: number | undefined
  /** Most endpoints; default 4 (or `minEndpoints`, when that is larger). */
  maxEndpoints?: number | undefined
  /** Options of each {@link endpoint}. */
  endpoint?: EndpointConstraints | undefined
  /** Earliest `created`; default four years before 2026-03-02. */
  minCreatedAt?: Date | number | undefined
  /** Latest `created`; default four years after 2026-03-02. */
  maxCreatedAt?: Date | number | undefined
}

/** Endpoints of one model have distinct tags: a provider's own, or one per quantization (`deepinfra/fp8`). */
const DISTINCT_TAGS = PROVIDERS.length * (QUANTIZATIONS.length + 1)

/**
 * Arbitrary `data` of `GET /models/{author}/{slug}/endpoints`, one the
 * official SDK parses: an `author/slug` id (sometimes with a `:variant`) and the display name the
 * simulator derives from it, `created` in whole Unix seconds, a faker-made description (sometimes
 * empty), an architecture whose `modality` (when not null) reads `inputs->outputs`, and endpoints
 * that all name this model, with distinct tags. Biased toward no endpoints, empty modality lists,
 * null architecture fields, and the edges of {@link endpoint}.
 *
 * @example
 * import fc from 'fast-check'
 * import { modelWithEndpoints } from 'model-access-sim/arbitraries'
 * const models = fc.sample(modelWithEndpoints({ minEndpoints: 1, maxEndpoints: 3 }), { seed: 1, numRuns: 50 })
 * console.log(models.every((m) => m.endpoints.length >= 1 && m.endpoints.length <= 3 && m.endpoints.every((e) => e.model_id === m.id)))
 * //=> true
 */
export function modelWithEndpoints(constraints: ModelWithEndpointsConstraints = {}): fc.Arbitrary<ModelWithEndpoints> {
  checkConstraints('modelWithEndpoints', constraints, MODEL_WITH_ENDPOINTS_CONSTRAINT_NAMES)
  const [minEndpoints, maxEndpoints] = countRange('modelWithEndpoints', ['minEndpoints', 'maxEndpoints'], [constraints.minEndpoints, constraints.maxEndpoints], [0, 4])
  if (minEndpoints > DISTINCT_TAGS) {
    throw invalidConstraint('modelWithEndpoints', 'minEndpoints', `minEndpoints (${minEndpoints}) exceeds the ${DISTINCT_TAGS} distinct endpoint tags there are`, `pass minEndpoints <= ${DISTINCT_TAGS}`)
  }
  const created = instantMs(instantRange('modelWithEndpoints', ['minCreatedAt', 'maxCreatedAt'], constraints.minCreatedAt, constraints.maxCreatedAt))
  return fc
    .record({
      model: textModelRef(),
      created,
      description: fc.oneof(fc.constant(''), fakerText((f) => `${f.company.catchPhrase()}. ${f.hacker.phrase()}`)),
      tokenizer: nullable(fc.constantFrom(...TOKENIZERS)),
      instruct_type: nullable(fc.constantFrom(...INSTRUCT_TYPES)),
      withModality: fc.boolean(),
      input_modalities: fc.subarray([...INPUT_MODALITIES]),
      output_modalities: fc.subarray([...OUTPUT_MODALITIES]),
      endpoints: fc.uniqueArray(endpoint(constraints.endpoint), { minLength: minEndpoints, maxLength: maxEndpoints, selector: (e) => e.tag }),
    })
    .map(
      (m): ModelWithEndpoints => ({
        id: m.model.id,
        name: m.model.name,
        created: Math.floor(m.created / 1000),
        description: m.description,
        architecture: {
          tokenizer: m.tokenizer,
          instruct_type: m.instruct_type,
          modality: m.withModality ? `${m.input_modalities.join('+')}->${m.output_modalities.join('+')}` : null,
          input_modalities: m.input_modalities,
          output_modalities: m.output_modalities,
        },
        endpoints: m.endpoints.map((e) => ({ ...e, name: endpointName(e.provider_name, m.model.name), model_id: m.model.id, model_name: m.model.name })),
      }),
    )
}
