import fc from 'fast-check'
import { catalogModelOf } from '../core/store/catalog.js'
import { fieldsOf } from '../core/store/check.js'
import type { CatalogModel, DefaultParameters } from '../core/types.js'
import { checkConstraints, invalidConstraint } from './internal/constraints.js'
import { nullable } from './internal/stats.js'
import type { EndpointConstraints } from './endpoint.js'
import { modelWithEndpoints } from './model-with-endpoints.js'

/** The constraints this arbitrary takes; any other is refused. */
export const CATALOG_MODEL_CONSTRAINT_NAMES = fieldsOf<CatalogModelConstraints>({ maxEndpoints: true, endpoint: true, minCreatedAt: true, maxCreatedAt: true })

/** Options of {@link catalogModel}. */
export interface CatalogModelConstraints {
  /** Most endpoints the entry is derived from (at least 1, the catalog lists no model without one); default 4. */
  maxEndpoints?: number | undefined
  /** Options of each endpoint. */
  endpoint?: EndpointConstraints | undefined
  /** Earliest `created`; default four years before 2026-03-02. */
  minCreatedAt?: Date | number | undefined
  /** Latest `created`; default four years after 2026-03-02. */
  maxCreatedAt?: Date | number | undefined
}

const day = fc.date({ min: new Date(Date.UTC(2022, 0, 1)), max: new Date(Date.UTC(2028, 11, 31)), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10))

const defaultParameters: fc.Arbitrary<DefaultParameters> = fc.record(
  {
    temperature: nullable(fc.double({ min: 0, max: 2, noNaN: true })),
    top_p: nullable(fc.double({ min: 0, max: 1, noNaN: true })),
    top_k: nullable(fc.integer({ min: 0, max: 200 })),
    frequency_penalty: nullable(fc.double({ min: -2, max: 2, noNaN: true })),
    presence_penalty: nullable(fc.double({ min: -2, max: 2, noNaN: true })),
    repetition_penalty: nullable(fc.double({ min: 0, max: 2, noNaN: true })),
  },
  { requiredKeys: [], noNullPrototype: true },
)

/**
 * Arbitrary model of `GET /models`, `GET /model/{author}/{slug}` and `GET /embeddings/models`, one the
 * official SDK parses: the catalog entry the simulator derives from a {@link modelWithEndpoints}
 * with at least one endpoint (decisions/0023 in the repository), varied where the service's entries
 * vary and the simulator's do not: `description` sometimes absent, `hugging_face_id`,
 * `knowledge_cutoff` and `expiration_date` absent, null or set, `default_parameters` and
 * `per_request_limits` null or set.
 *
 * @example
 * import fc from 'fast-check'
 * import { catalogModel } from 'model-access-sim/arbitraries'
 * const models = fc.sample(catalogModel({ maxEndpoints: 2 }), { seed: 1, numRuns: 50 })
 * console.log(models.every((m) => m.canonical_slug === m.id.split(':')[0] && typeof m.pricing.prompt === 'string'))
 * //=> true
 */
export function catalogModel(constraints: CatalogModelConstraints = {}): fc.Arbitrary<CatalogModel> {
  checkConstraints('catalogModel', constraints, CATALOG_MODEL_CONSTRAINT_NAMES)
  if (constraints.maxEndpoints !== undefined && !(Number.isSafeInteger(constraints.maxEndpoints) && constraints.maxEndpoints >= 1)) {
    throw invalidConstraint('catalogModel', 'maxEndpoints', `maxEndpoints must be an integer of at least 1, got ${String(constraints.maxEndpoints)}`, 'pass 1 or more: the catalog lists no model without an endpoint')
  }
  return fc
    .record({
      model: modelWithEndpoints({ ...constraints, minEndpoints: 1 }),
      description: fc.boolean(),
      hugging_face_id: fc.option(nullable(fc.constantFrom('meta-llama/Llama-3.3-70B-Instruct', 'Qwen/Qwen3-32B', 'mistralai/Mistral-Small-3.2-24B-Instruct-2506')), { nil: undefined }),
      knowledge_cutoff: fc.option(nullable(day), { nil: undefined }),
      expiration_date: fc.option(nullable(day), { nil: undefined }),
      default_parameters: nullable(defaultParameters),
      per_request_limits: nullable(fc.record({ prompt_tokens: fc.integer({ min: 1, max: 2_000_000 }), completion_tokens: fc.integer({ min: 1, max: 200_000 }) })),
    })
    .map((drawn): CatalogModel => {
      const { description, hugging_face_id: _null, ...derived } = catalogModelOf(drawn.model) as CatalogModel
      const entry: CatalogModel = { ...derived, default_parameters: drawn.default_parameters, per_request_limits: drawn.per_request_limits }
      if (drawn.description && description !== undefined) entry.description = description
      if (drawn.hugging_face_id !== undefined) entry.hugging_face_id = drawn.hugging_face_id
      if (drawn.knowledge_cutoff !== undefined) entry.knowledge_cutoff = drawn.knowledge_cutoff
      if (drawn.expiration_date !== undefined) entry.expiration_date = drawn.expiration_date
      return entry
    })
}
