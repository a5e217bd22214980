import fc from 'fast-check'
import { fieldsOf } from '../core/store/check.js'
import { checkConstraints, invalidConstraint } from './internal/constraints.js'
import { formatTimestamp, parseInstant } from '../core/time.js'
import type { Workspace, WorkspaceList } from '../core/types.js'
import { fakerText, slugify } from './internal/faker.js'
import { userId, uuid } from './internal/ids.js'
import { after, instantMs, instantRange, laterBy } from './internal/instant.js'
import { textModelRef } from './internal/model-ids.js'
import { nullable } from './internal/stats.js'

/** The constraints this arbitrary takes; any other is refused. */
export const WORKSPACE_CONSTRAINT_NAMES = fieldsOf<WorkspaceConstraints>({ minCreatedAt: true, maxCreatedAt: true })

/** Options of {@link workspace}. */
export interface WorkspaceConstraints {
  /** Earliest `created_at`; default four years before 2026-03-02. */
  minCreatedAt?: Date | number | undefined
  /** Latest `created_at`; default four years after 2026-03-02. */
  maxCreatedAt?: Date | number | undefined
}

const TEAM_NAMES = ['Default Workspace', 'Production', 'Staging', 'Research', 'Data Science'] as const

/** A sampling rate in [0, 1], often all or nothing. */
const samplingRate: fc.Arbitrary<number> = fc.oneof(fc.constantFrom(1, 0), fc.integer({ min: 0, max: 100 }).map((n) => n / 100))

/**
 * Arbitrary workspace record as `GET /workspaces/{id}` returns it, one the
 * official SDK parses: a version 4 UUID, a faker-made name and the slug derived from it (lower-case
 * words joined by `-`), service-format timestamps with `updated_at` null or not before
 * `created_at`. Biased toward null fields, an empty `io_logging_api_key_ids`, sampling rates 0 and 1,
 * and timestamps at 23:59 and 00:00.
 *
 * @example
 * import fc from 'fast-check'
 * import { workspace } from 'model-access-sim/arbitraries'
 * const workspaces = fc.sample(workspace(), { seed: 1, numRuns: 100 })
 * console.log(workspaces.every((w) => /^[a-z0-9]+(-[a-z0-9]+)*$/.test(w.slug) && w.io_logging_sampling_rate <= 1))
 * //=> true
 */
export function workspace(constraints: WorkspaceConstraints = {}): fc.Arbitrary<Workspace> {
  checkConstraints('workspace', constraints, WORKSPACE_CONSTRAINT_NAMES)
  const created = instantMs(instantRange('workspace', ['minCreatedAt', 'maxCreatedAt'], constraints.minCreatedAt, constraints.maxCreatedAt))
  const name = fc.oneof(
    fc.constantFrom(...TEAM_NAMES),
    fakerText((f) => `${f.commerce.department()} ${f.helpers.arrayElement(['Team', 'Lab', 'Apps', 'Platform', 'Sandbox'])}`),
  )
  const modelId = textModelRef().map((ref) => ref.id)
  return fc
    .record({
      id: uuid,
      name,
      description: nullable(fakerText((f) => f.company.catchPhrase())),
      createdAt: created,
      updatedAfter: nullable(laterBy),
      createdBy: nullable(userId),
      guardrailId: uuid,
      imageModel: nullable(modelId),
      textModel: nullable(modelId),
      providerSort: nullable(fc.constantFrom('price', 'throughput', 'latency')),
      includeByok: fc.boolean(),
      ioLoggingKeyIds: nullable(fc.uniqueArray(fc.integer({ min: 1, max: 1_000_000 }), { maxLength: 5 })),
      samplingRate,
      dataDiscountLogging: fc.boolean(),
      broadcast: fc.boolean(),
      ioLogging: fc.boolean(),
    })
    .map(
      (w): Workspace => ({
        id: w.id,
        name: w.name,
        slug: slugify(w.name) || 'workspace',
        description: w.description,
        created_at: formatTimestamp(w.createdAt),
        updated_at: w.updatedAfter === null ? null : formatTimestamp(after(w.createdAt, w.updatedAfter)),
        created_by: w.createdBy,
        default_guardrail_id: w.guardrailId,
        default_image_model: w.imageModel,
        default_text_model: w.textModel,
        default_provider_sort: w.providerSort,
        include_byok_in_budgets: w.includeByok,
        io_logging_api_key_ids: w.ioLoggingKeyIds,
        io_logging_sampling_rate: w.samplingRate,
        is_data_discount_logging_enabled: w.dataDiscountLogging,
        is_observability_broadcast_enabled: w.broadcast,
        is_observability_io_logging_enabled: w.ioLogging,
      }),
    )
}

/** The constraints {@link workspaceList} takes; any other is refused. */
export const WORKSPACE_LIST_CONSTRAINT_NAMES = fieldsOf<WorkspaceListConstraints>({ maxLength: true })

/** Options of {@link workspaceList}. */
export interface WorkspaceListConstraints {
  /** Most workspaces on the page; default 10, at most 100 (the largest `limit`). */
  maxLength?: number | undefined
}

/**
 * Arbitrary answer of `GET /workspaces`, one the official SDK parses: a page of {@link workspace}
 * records with distinct ids and slugs, oldest first (by `created_at`, then id), and a
 * `total_count` of at least the page's length: often exactly it (the whole list), sometimes more (a
 * page of a longer list). Empty pages included.
 *
 * @example
 * import fc from 'fast-check'
 * import { workspaceList } from 'model-access-sim/arbitraries'
 * const pages = fc.sample(workspaceList({ maxLength: 5 }), { seed: 1, numRuns: 100 })
 * console.log(pages.every((p) => p.data.length <= 5 && p.total_count >= p.data.length))
 * //=> true
 */
export function workspaceList(constraints: WorkspaceListConstraints = {}): fc.Arbitrary<WorkspaceList> {
  checkConstraints('workspaceList', constraints, WORKSPACE_LIST_CONSTRAINT_NAMES)
  const maxLength = constraints.maxLength ?? 10
  if (!Number.isSafeInteger(maxLength) || maxLength < 0 || maxLength > 100) {
    throw invalidConstraint('workspaceList', 'maxLength', `maxLength must be an integer from 0 to 100, got ${String(maxLength)}`, 'pass a whole number such as 10')
  }
  const page = fc.uniqueArray(workspace(), { maxLength, selector: (w) => w.slug, comparator: 'SameValue' }).filter((ws) => new Set(ws.map((w) => w.id)).size === ws.length)
  const beyond = fc.oneof({ arbitrary: fc.constant(0), weight: 3 }, { arbitrary: fc.integer({ min: 1, max: 1_000 }), weight: 1 })
  return fc.record({ page, beyond }).map(({ page, beyond }): WorkspaceList => {
    const ms = (w: Workspace): number => parseInstant(w.created_at) ?? 0
    const data = [...page].sort((a, b) => ms(a) - ms(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    return { data, total_count: data.length + beyond }
  })
}
