import fc from 'fast-check'
import { fieldsOf } from '../core/store/check.js'
import type { Guardrail } from '../core/store/guardrails.js'
import { formatTimestamp } from '../core/time.js'
import { BUILTIN_FILTERS, CONTENT_FILTERS, GOVERNED_MODELS, GOVERNED_PROVIDERS, GUARDRAIL_NAMES } from '../fixtures/internal/governance.js'
import { uuid } from './internal/ids.js'
import { type CreatedAtConstraints, after, createdAtMs, laterBy } from './internal/instant.js'
import { nullable } from './internal/stats.js'

/** Options of {@link guardrail}. */
export type GuardrailConstraints = CreatedAtConstraints
export const GUARDRAIL_CONSTRAINT_NAMES = fieldsOf<GuardrailConstraints>({ minCreatedAt: true, maxCreatedAt: true })

const flag = nullable(fc.boolean())
const limitUsd = fc.oneof(fc.constantFrom(0, 0.01, 25, 100), fc.integer({ min: 0, max: 100_000_000 }).map((cents) => cents / 100))

/**
 * Arbitrary guardrail as `GET /guardrails/{id}` returns it (decisions/0051), one the official SDK
 * parses and the simulator would answer: a name teams give ("Production guardrail"), model and
 * provider lists drawn from the default world's catalog (empty lists included: nothing allowed),
 * data regions, content filters the simulator accepts, builtin filters, every switch true, false
 * or null, a limit of 0, a cent, round or any number of cents with or without a reset interval,
 * a version 4 UUID, a workspace or none, and `updated_at` null or at or after `created_at`.
 * Shrinks toward the bare guardrail: every rule null, no limit, no workspace, never updated.
 *
 * @example
 * import fc from 'fast-check'
 * import { guardrail } from 'model-access-sim/arbitraries'
 * const guardrails = fc.sample(guardrail(), { seed: 1, numRuns: 100 })
 * console.log(guardrails.every((g) => g.name !== '' && (g.updated_at === null || g.updated_at >= g.created_at)))
 * //=> true
 */
export function guardrail(constraints: GuardrailConstraints = {}): fc.Arbitrary<Guardrail> {
  const created = createdAtMs('guardrail', constraints, GUARDRAIL_CONSTRAINT_NAMES)
  return fc
    .record({
      id: uuid,
      named: fc.constantFrom(...GUARDRAIL_NAMES),
      described: fc.boolean(),
      allowed_models: nullable(fc.subarray([...GOVERNED_MODELS])),
      ignored_models: nullable(fc.subarray([...GOVERNED_MODELS])),
      allowed_providers: nullable(fc.subarray([...GOVERNED_PROVIDERS])),
      ignored_providers: nullable(fc.subarray([...GOVERNED_PROVIDERS])),
      allowed_data_regions: nullable(fc.subarray<'global' | 'europe' | 'us'>(['global', 'europe', 'us'])),
      content_filters: nullable(fc.subarray([...CONTENT_FILTERS])),
      content_filter_builtins: nullable(fc.subarray([...BUILTIN_FILTERS])),
      enable_free_model_publication: flag,
      enable_free_model_training: flag,
      enable_paid_model_training: flag,
      enforce_zdr: flag,
      enforce_zdr_anthropic: flag,
      enforce_zdr_google: flag,
      enforce_zdr_openai: flag,
      enforce_zdr_other: flag,
      enforce_zdr_xai: flag,
      include_byok_in_budgets: fc.boolean(),
      limit_usd: nullable(limitUsd),
      reset_interval: nullable(fc.constantFrom('daily', 'weekly', 'monthly') as fc.Arbitrary<'daily' | 'weekly' | 'monthly'>),
      workspace_id: nullable(uuid),
      createdAt: created,
      updatedAfter: nullable(laterBy),
    })
    .map(({ named, described, createdAt, updatedAfter, content_filters, content_filter_builtins, ...rules }): Guardrail => ({
      ...rules,
      name: named[0],
      description: described ? named[1] : null,
      content_filters: content_filters === null ? null : structuredClone(content_filters),
      content_filter_builtins: content_filter_builtins === null ? null : structuredClone(content_filter_builtins),
      created_at: formatTimestamp(createdAt),
      updated_at: updatedAfter === null ? null : formatTimestamp(after(createdAt, updatedAfter)),
    }))
}
