import fc from 'fast-check'
import { fieldsOf } from '../core/store/check.js'
import { formatTimestamp } from '../core/time.js'
import type { PresetWithVersion } from '../core/types.js'
import { checkConstraints } from './internal/constraints.js'
import { fakerText } from './internal/faker.js'
import { userId, uuid } from './internal/ids.js'
import { after, instantMs, instantRange, laterBy } from './internal/instant.js'
import { textModelRef } from './internal/model-ids.js'
import { nullable } from './internal/stats.js'

/** The constraints this arbitrary takes; any other is refused. */
export const PRESET_CONSTRAINT_NAMES = fieldsOf<PresetConstraints>({ minCreatedAt: true, maxCreatedAt: true })

/** Options of {@link preset}. */
export interface PresetConstraints {
  /** Earliest `created_at`; default four years before 2026-03-02. */
  minCreatedAt?: Date | number | undefined
  /** Latest `created_at`; default four years after 2026-03-02. */
  maxCreatedAt?: Date | number | undefined
}

const SLUG_CHARACTERS = [...'abcdefghijklmnopqrstuvwxyz0123456789']

/** A slug in the service's form: 1 to 5 words of 1 to 10 letters and digits, joined by `-` or `_` (at most 54 characters). */
const slug: fc.Arbitrary<string> = fc
  .array(fc.tuple(fc.string({ unit: fc.constantFrom(...SLUG_CHARACTERS), minLength: 1, maxLength: 10 }), fc.constantFrom('-', '_')), { minLength: 1, maxLength: 5 })
  .map((words) => words.map(([word, joint], i) => (i === 0 ? word : `${joint}${word}`)).join(''))

const someFields: fc.Arbitrary<Record<string, unknown>> = fc.record(
  {
    model: textModelRef().map((ref) => ref.id),
    temperature: fc.integer({ min: 0, max: 200 }).map((n) => n / 100),
    top_p: fc.integer({ min: 1, max: 100 }).map((n) => n / 100),
    max_tokens: fc.integer({ min: 1, max: 200_000 }),
    seed: fc.integer(),
    stop: fc.array(fc.string({ minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 4 }),
    provider: fc.record({ sort: fc.constantFrom('price', 'throughput', 'latency') }),
  },
  { requiredKeys: [] },
)
/**
 * A config the chat route accepts (decisions/0050): each field optional, so a config shrinks to
 * `{}` (often drawn), and each value inside the range the chat request's reader allows.
 */
const config: fc.Arbitrary<Record<string, unknown>> = fc.oneof({ arbitrary: fc.constant({}), weight: 1 }, { arbitrary: someFields, weight: 4 })

/**
 * Arbitrary preset as `GET /presets/{slug}` returns it (decisions/0050), one the official SDK
 * parses and the simulator would answer: a slug in the service's form (words of letters and digits
 * joined by single `-` or `_`), version 4 UUIDs with `designated_version_id` the inline version's id
 * and its `preset_id` the preset's, the organisation as `creator_user_id` and the version's
 * `creator_id`, an `active` status, a config of chat request fields within their ranges, and
 * service timestamps: the version made between `created_at` and `updated_at` (version 1 at
 * `created_at`). Shrinks toward version 1 with an empty config, no system prompt and no
 * description.
 *
 * @example
 * import fc from 'fast-check'
 * import { preset } from 'model-access-sim/arbitraries'
 * const presets = fc.sample(preset(), { seed: 1, numRuns: 100 })
 * console.log(presets.every((p) => p.designated_version?.preset_id === p.id && p.updated_at >= p.created_at))
 * //=> true
 */
export function preset(constraints: PresetConstraints = {}): fc.Arbitrary<PresetWithVersion> {
  checkConstraints('preset', constraints, PRESET_CONSTRAINT_NAMES)
  const created = instantMs(instantRange('preset', ['minCreatedAt', 'maxCreatedAt'], constraints.minCreatedAt, constraints.maxCreatedAt))
  return fc
    .record({
      id: uuid,
      versionId: uuid,
      slug,
      name: nullable(fakerText((f) => `${f.hacker.adjective()} ${f.hacker.noun()}`)),
      description: nullable(fakerText((f) => f.company.catchPhrase())),
      createdAt: created,
      updatedAfter: laterBy,
      versionShare: fc.integer({ min: 0, max: 100 }),
      version: fc.integer({ min: 1, max: 20 }),
      organisation: userId,
      workspaceId: nullable(uuid),
      config,
      systemPrompt: nullable(fakerText((f) => f.lorem.sentence())),
    })
    .filter((p) => p.id !== p.versionId)
    .map((p): PresetWithVersion => {
      const updatedAt = after(p.createdAt, p.updatedAfter)
      const versionAt = p.version === 1 ? p.createdAt : p.createdAt + Math.floor(((updatedAt - p.createdAt) * p.versionShare) / 100)
      return {
        id: p.id,
        // A preset made without a name is named by its slug, as the simulator names it.
        name: p.name ?? p.slug,
        slug: p.slug,
        description: p.description,
        status: 'active',
        status_updated_at: null,
        created_at: formatTimestamp(p.createdAt),
        updated_at: formatTimestamp(updatedAt),
        creator_user_id: p.organisation,
        workspace_id: p.workspaceId,
        designated_version_id: p.versionId,
        designated_version: {
          id: p.versionId,
          preset_id: p.id,
          version: p.version,
          config: p.config,
          system_prompt: p.systemPrompt,
          creator_id: p.organisation,
          created_at: formatTimestamp(versionAt),
          updated_at: formatTimestamp(versionAt),
        },
      }
    })
}
