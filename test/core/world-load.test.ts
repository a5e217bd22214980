// Loading a world spec's keys: the indices built in one pass after the keys are read (page order,
// ties on created_at by hash), the records of a key, and the spec paths of problems.
import { describe, expect, it } from 'vitest'
import { type ApiKey, type Simulator, type WorldSpec, WORLD_FORMAT, createSimulator, validateWorld } from '../../src/index.js'

const USER = 'user_acme'
const ADMIN = 'sk-or-v1-admin-secret'
const ADMIN_HASH = 'f'.repeat(64)
const hashOf = (i: number): string => i.toString(16).padStart(64, '0')

/** 40 keys out of created_at order, a quarter of them disabled, with ties on created_at. */
function spec(): WorldSpec {
  const keys = Array.from({ length: 40 }, (_, i) => ({
    userId: USER,
    secret: `sk-or-v1-key-${i}`,
    hash: hashOf((i * 17) % 41),
    name: `key ${i}`,
    createdAt: new Date(Date.UTC(2026, 0, 1 + ((i * 7) % 5))).toISOString(),
    ...(i % 4 === 0 && { disabled: true }),
    ...(i % 3 === 0 && { usage: [{ at: '2026-01-20T00:00:00.000Z', cost: 1.5 }, { at: '2026-01-10T00:00:00Z', cost: 0.25, byok: true }] }),
  }))
  return {
    format: WORLD_FORMAT,
    now: '2026-02-01T00:00:00Z',
    users: [{ id: USER, name: 'Acme' }],
    keys: [{ userId: USER, management: true, secret: ADMIN, hash: ADMIN_HASH, createdAt: '2025-12-01T00:00:00Z' }, ...keys],
  }
}

type Sim = Simulator<Record<string, unknown>>
const page = (sim: Sim, includeDisabled: boolean, offset = 0): string[] => {
  const res = sim.handle({ method: 'GET', path: '/keys', query: `include_disabled=${includeDisabled}&offset=${offset}`, authorization: `Bearer ${ADMIN}` })
  expect(res.status).toBe(200)
  return (res.body as { data: ApiKey[] }).data.map((k) => k.hash)
}

/** Page order as the service has it: created_at desc, then hash asc. */
const expected = (sim: Sim, includeDisabled: boolean): string[] =>
  sim.keys
    .list()
    .filter((k) => k.hash !== ADMIN_HASH && (includeDisabled || !k.disabled))
    .sort((a, b) => (a.created_at !== b.created_at ? (a.created_at < b.created_at ? 1 : -1) : a.hash < b.hash ? -1 : 1))
    .map((k) => k.hash)

describe('loading a world spec', () => {
  it('lists loaded keys in page order, created_at desc then hash asc, disabled ones only when asked', () => {
    const sim = createSimulator({ world: spec() })
    expect(page(sim, true)).toEqual(expected(sim, true))
    expect(page(sim, false)).toEqual(expected(sim, false))
    expect(page(sim, true)).toHaveLength(40)
    expect(page(sim, false)).toHaveLength(30)
    expect(page(sim, true, 35)).toEqual(expected(sim, true).slice(35))
  })

  it('keeps the pages right through a disable, an enable, an update and a reset', () => {
    const sim = createSimulator({ world: spec() })
    const before = { all: page(sim, true), enabled: page(sim, false) }
    const [first, second] = before.enabled as [string, string]
    sim.keys.update(first, { disabled: true })
    expect(page(sim, false)).toEqual(before.enabled.filter((h) => h !== first))
    const disabled = before.all.find((h) => !before.enabled.includes(h)) as string
    sim.keys.update(disabled, { disabled: false, name: 'back' })
    expect(page(sim, false)).toEqual(expected(sim, false))
    sim.keys.update(second, { name: 'renamed', limit: 5 })
    expect(page(sim, true)).toEqual(before.all)
    sim.reset()
    expect(page(sim, true)).toEqual(before.all)
    expect(page(sim, false)).toEqual(before.enabled)
  })

  it('keeps every record of a key, with updated_at the latest record', () => {
    const world = spec()
    const key = world.keys?.[1] as NonNullable<WorldSpec['keys']>[number]
    const sim = createSimulator({ world })
    const record = sim.keys.get(key.hash as string) as ApiKey
    expect(record.usage).toBe(1.5)
    expect(record.byok_usage).toBe(0.25)
    expect(record.updated_at).toBe('2026-01-20T00:00:00.000000+00:00')
    expect(sim.exportWorld().keys?.find((k) => k.hash === key.hash)?.usage?.reduce((sum, r) => sum + r.cost, 0)).toBe(1.75)
  })

  it('refuses byokUsage figures on a key: a world key carries its usage as records', () => {
    const world = spec()
    const key = world.keys?.[1] as NonNullable<WorldSpec['keys']>[number] & { byokUsage?: unknown }
    key.byokUsage = { total: 2 }
    expect(validateWorld(world).map((p) => p.path)).toEqual(['world.keys[1].byokUsage'])
    expect(() => createSimulator({ world })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT', argument: 'world.keys[1].byokUsage' }))
  })

  it('names the path of every bad key, field and record, the key index included', () => {
    const world = spec()
    const keys = world.keys as unknown[] as Record<string, unknown>[]
    ;(keys[3] as Record<string, unknown>)['limit'] = -1
    ;(keys[7] as Record<string, unknown>)['createdAt'] = 'soon'
    ;(keys[10] as Record<string, unknown>)['usage'] = [{ at: '2026-01-01T00:00:00Z', cost: 1 }, { at: 'later', cost: 1 }]
    ;(keys[13] as Record<string, unknown>)['usage'] = [{ at: '2026-01-01T00:00:00Z', cost: 'one' }]
    ;(keys[16] as Record<string, unknown>)['hash'] = hashOf(999).toUpperCase()
    ;(keys[19] as Record<string, unknown>)['secret'] = ADMIN
    keys[22] = 'a key' as unknown as Record<string, unknown>
    ;(keys[25] as Record<string, unknown>)['userId'] = 'user_nobody'
    expect(validateWorld(world).map((p) => p.path)).toEqual([
      'world.keys[3].limit',
      'world.keys[7].createdAt',
      'world.keys[10].usage[1].at',
      'world.keys[13].usage[0].cost',
      'world.keys[16].hash',
      'world.keys[19].secret',
      'world.keys[22]',
      'world.keys[25].userId',
    ])
    expect(() => createSimulator({ world })).toThrow(expect.objectContaining({ argument: 'world.keys[3].limit', message: expect.stringMatching(/^Failed to load world: world\.keys\[3\]: Failed to create API key: "limit" must be a non-negative finite number, got -1/) }))
  })
})
