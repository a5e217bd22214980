// Any JSON body sent to POST /workspaces or PATCH /workspaces/{id} gets a success or a 400/413
// envelope naming a field, never a 500; a refused one changes nothing (decisions/0022). Bodies are
// drawn over the request's own field names (and a few others) with values of every JSON type.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { type SimResponse, WORLD_FORMAT, type WorldSpec, createSimulator } from '../../src/index.js'
import { runs } from '../support/runs.js'

const FIELDS = [
  'name',
  'slug',
  'description',
  'default_text_model',
  'default_image_model',
  'default_provider_sort',
  'disabled_server_tools',
  'io_logging_api_key_ids',
  'io_logging_sampling_rate',
  'is_data_discount_logging_enabled',
  'is_observability_broadcast_enabled',
  'is_observability_io_logging_enabled',
] as const

const value: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom('', 'Lab', 'lab', 'production', 'Lab Two', 'a--b', '-a', '550e8400-e29b-41d4-a716-446655440000', 'openrouter:web_search', 'price'),
  fc.constantFrom(null, true, false, 0, 1, -1, 0.5, 0.00001, 2, 1e308, 1.5),
  fc.array(fc.oneof(fc.integer(), fc.double(), fc.string(), fc.constant(null)), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 2 }),
  fc.string({ maxLength: 8 }),
)
const fields = fc.dictionary(fc.oneof({ arbitrary: fc.constantFrom(...FIELDS), weight: 8 }, { arbitrary: fc.constantFrom('id', 'slugg', 'userId'), weight: 1 }), value, { maxKeys: 4 })
/** Mostly a valid name and a free slug and a few drawn fields (which may replace them), so the drawn values are what gets judged. */
const body = fc.tuple(fc.boolean(), fields).map(([valid, drawn]) => (valid ? { name: 'Fresh', slug: 'fresh', ...drawn } : drawn))

/**
 * An organisation with the workspace PATCH changes, a key of it and a model: the world is exported
 * twice for each refused body, and the default world's 323 models made that most of the test's time.
 */
const WORLD: WorldSpec = {
  format: WORLD_FORMAT,
  users: [{ id: 'user_acme' }],
  workspaces: [{ id: '0b7f6c1e-4c1a-4d2e-9f3b-2a1c5d6e7f80', userId: 'user_acme', name: 'Staging', slug: 'staging' }],
  keys: [{ userId: 'user_acme', secret: 'sk-or-v1-admin', management: true }, { userId: 'user_acme', secret: 'sk-or-v1-inference', name: 'inference' }],
  models: [{ id: 'acme/chat', endpoints: [{ provider_name: 'Alpha', pricing: { prompt: '0.000001', completion: '0.000002' } }] }],
}

describe('workspace bodies of every shape', () => {
  it('POST and PATCH answer a success or a 400 naming a field, and a 400 changes nothing', () => {
    fc.assert(
      fc.property(fc.constantFrom('POST' as const, 'PATCH' as const), body, (method, sent) => {
        const sim = createSimulator({ world: WORLD })
        const before = sim.exportWorld()
        const response: SimResponse = sim.handle({
          method,
          path: method === 'POST' ? '/workspaces' : '/workspaces/staging',
          authorization: 'Bearer sk-or-v1-admin',
          body: JSON.stringify(sent),
        })
        const ok = method === 'POST' ? 201 : 200
        expect([ok, 400]).toContain(response.status)
        if (response.status === 400) {
          const parameter = (response.body as { error: { metadata: { parameter: unknown } } }).error.metadata.parameter
          expect(typeof parameter).toBe('string')
          expect(Object.keys(sent).some((field) => (parameter as string).startsWith(field)) || ['name', 'slug'].includes(parameter as string)).toBe(true)
          expect(sim.exportWorld()).toEqual(before)
        }
      }),
      { numRuns: runs(300) },
    )
  })
})
