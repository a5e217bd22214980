// POST /keys reads its body with a one-pass reader when the fields are the plain ones, and the
// field-by-field reader otherwise (decisions/0033). The two must give the same draft or the same 400
// for any body; and the key drawn from the draft must be the key sim.keys.create makes of the same
// request, from the same seed.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Principal } from '../../src/core/auth.js'
import { readAnyCreateKeyBody, readCreateKeyBody, readPlainCreateKeyBody } from '../../src/core/operations/keys.js'
import type { StoreContext } from '../../src/core/store/context.js'
import { StoreIndices, type UserState, type WorkspaceState, emptyStoreData } from '../../src/core/store/state.js'
import { createSimulator } from '../../src/index.js'
import { anyValue, outcome } from '../support/readers.js'
import { runs } from '../support/runs.js'

const SEED = 20261127
const NOW = Date.parse('2026-03-10T12:00:00Z')

const OWN = '0b6c7a52-8f3e-4c1d-9a2b-5e6f7a8b9c0d'
const DEFAULT = '1c7d8b63-9a4f-4d2e-8b3c-6f7a8b9c0d1e'
const OTHERS = '2d8e9c74-ab50-4e3f-9c4d-7a8b9c0d1e2f'

/** A store of two organisations: `user_a` with a default and a second workspace, `user_b` whose default is deleted. */
function context(): StoreContext {
  const data = emptyStoreData()
  const user = (id: string, defaultWorkspaceId: string | null) => ({ id, name: id, defaultWorkspaceId, createdAt: 0, creditUnits: 0n, retiredUnits: 0n }) as unknown as UserState
  data.users.set('user_a', user('user_a', DEFAULT))
  data.users.set('user_b', user('user_b', null))
  const workspace = (id: string, userId: string) => ({ userId, record: { id } }) as unknown as WorkspaceState
  data.workspaces.set(OWN, workspace(OWN, 'user_a'))
  data.workspaces.set(DEFAULT, workspace(DEFAULT, 'user_a'))
  data.workspaces.set(OTHERS, workspace(OTHERS, 'user_b'))
  return { data, indices: new StoreIndices(), clock: { nowMs: () => NOW } } as unknown as StoreContext
}

/** Mostly right, sometimes wrong, for each field of the request. */
const body = fc
  .record(
    {
      name: fc.oneof({ weight: 6, arbitrary: fc.string({ minLength: 0, maxLength: 8 }) }, fc.constant('n'.repeat(256)), fc.constant('n'.repeat(257)), anyValue),
      limit: fc.oneof({ weight: 3, arbitrary: fc.double({ min: 0, max: 1e6, noNaN: true }) }, fc.constant(1e20), anyValue),
      limit_reset: fc.oneof({ weight: 3, arbitrary: fc.constantFrom('daily', 'weekly', 'monthly', 'yearly', 'Daily') }, anyValue),
      include_byok_in_limit: anyValue,
      expires_at: fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom('2026-12-31T23:59:59Z', '2026-03-10T12:00:00Z', '2026-03-10T12:00:00.001Z', '2025-01-01T00:00:00+02:00', '2026-12-31', 'soon') },
        anyValue,
      ),
      workspace_id: fc.oneof({ weight: 3, arbitrary: fc.constantFrom(OWN, OWN.toUpperCase(), DEFAULT, OTHERS, '3e9fad85-bc61-4f40-8d5e-8b9c0d1e2f30', 'not-a-uuid') }, anyValue),
      creator_user_id: fc.oneof({ weight: 3, arbitrary: fc.string({ maxLength: 6 }) }, fc.constant('c'.repeat(257)), anyValue),
      external: fc.oneof(fc.record({ user: fc.string({ maxLength: 4 }) }), fc.record({ user: fc.string({ maxLength: 4 }), api_key: fc.string({ maxLength: 4 }) }), anyValue),
      limit_rest: fc.constant(1),
    },
    { requiredKeys: [] },
  )
  // As the wire delivers it: JSON, without the undefined fields.
  .map((b) => JSON.parse(JSON.stringify(b)) as Record<string, unknown>)

const principal = (userId: string): Principal => ({ userId, keyHash: 'f'.repeat(64), management: true })

describe('the POST /keys body readers', () => {
  it('give the same draft, or the same 400, for any body near the request', () => {
    const ctx = context()
    fc.assert(
      fc.property(body, fc.constantFrom('user_a', 'user_b'), (b, userId) => {
        expect(outcome(() => readCreateKeyBody(ctx, principal(userId), b))).toStrictEqual(outcome(() => readAnyCreateKeyBody(ctx, principal(userId), b)))
      }),
      { seed: SEED, numRuns: runs(4000) },
    )
  })

  it('read a number too large for a double (Infinity once parsed) and a JSON __proto__ field as the wire sends them', () => {
    const ctx = context()
    for (const text of ['{"name":"k","limit":1e400}', '{"name":"k","__proto__":{"limit":1}}', '{"name":"k","limit":-0}']) {
      const b = JSON.parse(text) as Record<string, unknown>
      expect(outcome(() => readCreateKeyBody(ctx, principal('user_a'), b))).toStrictEqual(outcome(() => readAnyCreateKeyBody(ctx, principal('user_a'), b)))
    }
    expect(outcome(() => readCreateKeyBody(ctx, principal('user_a'), JSON.parse('{"name":"k","limit":1e400}')))).toMatchObject({ status: 400, metadata: { parameter: 'limit' } })
  })

  it('make a draft of its own each time: nothing is shared between two creates', () => {
    const ctx = context()
    const b = { name: 'k', limit: 5, workspace_id: OWN }
    const first = readCreateKeyBody(ctx, principal('user_a'), b)
    expect(first).toMatchObject({ name: 'k', limit: 5, workspaceId: OWN, userId: 'user_a', creatorUserId: 'user_a', createdAt: NOW, expiresAt: null })
    expect(readCreateKeyBody(ctx, principal('user_a'), b).usage).not.toBe(first.usage)
  })
})

/** A valid create body, and the sim.keys.create options that ask for the same key. */
const validRequest = (workspaces: readonly string[]) =>
  fc
    .record(
      {
        name: fc.string({ minLength: 1, maxLength: 12 }),
        limit: fc.oneof(fc.constant(null), fc.double({ min: 0, max: 1e4, noNaN: true })),
        limit_reset: fc.constantFrom(null, 'daily', 'weekly', 'monthly'),
        include_byok_in_limit: fc.boolean(),
        expires_at: fc.constantFrom(null, '2030-01-01T00:00:00Z', '2031-06-15T08:30:00.250+02:00'),
        workspace_id: fc.constantFrom(...workspaces),
        creator_user_id: fc.oneof(fc.constant(null), fc.string({ minLength: 1, maxLength: 8 })),
        external: fc.record({ user: fc.string({ minLength: 1, maxLength: 8 }) }),
      },
      { requiredKeys: ['name'] },
    )
    .map((b) => JSON.parse(JSON.stringify(b)) as Record<string, unknown>)

describe('the one-pass reader', () => {
  it('reads every valid body of the plain fields itself (external, or anything wrong, is left to the other)', () => {
    const ctx = context()
    const plain = validRequest([OWN, DEFAULT, OWN.toUpperCase()]).map(({ external: _, ...b }) => b)
    fc.assert(
      fc.property(plain, (b) => {
        expect(readPlainCreateKeyBody(ctx, principal('user_a'), b)).toStrictEqual(readAnyCreateKeyBody(ctx, principal('user_a'), b))
      }),
      { seed: SEED, numRuns: runs(500) },
    )
    expect(readPlainCreateKeyBody(ctx, principal('user_a'), { name: 'k', external: { user: 'u' } })).toBeUndefined()
    expect(readPlainCreateKeyBody(ctx, principal('user_a'), { name: 'k', limit: -1 })).toBeUndefined()
  })
})

describe('a key made by POST /keys', () => {
  it('is the key sim.keys.create makes of the same request from the same seed: secret, hash, label and record', () => {
    const wire = createSimulator({ seed: 7 })
    const api = createSimulator({ seed: 7 })
    const workspaces = [wire.world.workspaces.default, wire.world.workspaces.research]
    fc.assert(
      fc.property(validRequest(workspaces), (b) => {
        const res = wire.handle({ method: 'POST', path: '/keys', authorization: `Bearer ${wire.world.managementKey}`, body: JSON.stringify(b) })
        expect(res.status).toBe(201)
        const made = JSON.parse(JSON.stringify(res.body)) as { key: string; data: unknown }
        const options = {
          userId: api.world.userId,
          name: b['name'] as string,
          ...(b['limit'] !== undefined && { limit: b['limit'] as number | null }),
          ...(b['limit_reset'] !== undefined && { limitReset: b['limit_reset'] as 'daily' | null }),
          ...(b['include_byok_in_limit'] !== undefined && { includeByokInLimit: b['include_byok_in_limit'] as boolean }),
          ...(b['expires_at'] !== undefined && { expiresAt: b['expires_at'] as string | null }),
          ...(b['workspace_id'] !== undefined && { workspaceId: b['workspace_id'] as string }),
          ...(b['creator_user_id'] !== undefined && { creatorUserId: b['creator_user_id'] as string | null }),
          ...(b['external'] !== undefined && { externalUser: (b['external'] as { user: string }).user }),
        }
        const created = api.keys.create(options)
        expect(made).toStrictEqual({ key: created.key, data: created.record })
      }),
      { seed: SEED, numRuns: runs(150) },
    )
  })
})
