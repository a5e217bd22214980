// Fields a loaded or imported account carries that the creators used to derive: a key's label and
// creator, a workspace's update time, creator and settings, an organisation's own default
// workspace. They are options now, and a world export carries them.
import { describe, expect, it } from 'vitest'
import { createSimulator, SimulatorError } from '../../src/index.js'

function world() {
  const sim = createSimulator({ world: 'empty' })
  const user = sim.users.create({
    id: 'user_acme',
    createdAt: '2025-06-01T00:00:00Z',
    defaultWorkspace: { name: 'Main', slug: 'main', description: 'Everything', createdAt: '2025-06-02T00:00:00Z', updatedAt: '2025-07-01T00:00:00Z', ioLoggingSamplingRate: 0.5 },
  })
  const other = sim.workspaces.create({
    userId: user.id,
    name: 'Research',
    createdBy: 'user_someone_else',
    updatedAt: '2025-08-01T00:00:00Z',
    includeByokInBudgets: true,
    ioLoggingApiKeyIds: [3, 5],
    isDataDiscountLoggingEnabled: false,
    isObservabilityBroadcastEnabled: true,
    isObservabilityIoLoggingEnabled: true,
  })
  const key = sim.keys.create({ userId: user.id, workspaceId: other.id, label: 'sk-or-v1-abc...wxyz', creatorUserId: 'user_someone_else' })
  const plain = sim.keys.create({ userId: user.id })
  return { sim, user, other, key, plain }
}

describe('record fields as options', () => {
  it('shows them on the wire', () => {
    const { sim, user, other, key } = world()
    expect(sim.workspaces.get(user.defaultWorkspaceId)).toMatchObject({ name: 'Main', slug: 'main', description: 'Everything', created_at: '2025-06-02T00:00:00.000000+00:00', updated_at: '2025-07-01T00:00:00.000000+00:00', io_logging_sampling_rate: 0.5 })
    expect(other).toMatchObject({
      created_by: 'user_someone_else',
      updated_at: '2025-08-01T00:00:00.000000+00:00',
      include_byok_in_budgets: true,
      io_logging_api_key_ids: [3, 5],
      is_data_discount_logging_enabled: false,
      is_observability_broadcast_enabled: true,
      is_observability_io_logging_enabled: true,
    })
    expect(key.record).toMatchObject({ label: 'sk-or-v1-abc...wxyz', creator_user_id: 'user_someone_else' })
  })

  it('keeps them through exportWorld, and writes only what differs from the defaults', () => {
    const { sim, plain } = world()
    const spec = sim.exportWorld()
    const again = createSimulator({ world: spec })
    expect(again.workspaces.list()).toEqual(sim.workspaces.list())
    expect(again.keys.list()).toEqual(sim.keys.list())
    const plainKey = spec.keys?.find((k) => k.hash === plain.record.hash)
    expect(plainKey && 'label' in plainKey).toBe(false)
    expect(plainKey && 'creatorUserId' in plainKey).toBe(false)
    // A default world's export carries none of the new fields.
    const text = JSON.stringify(createSimulator().exportWorld())
    for (const field of ['"label"', '"creatorUserId"', '"createdBy"', '"defaultWorkspace"', '"ioLoggingSamplingRate"']) expect(text).not.toContain(field)
  })

  it.each([
    ['a sampling rate above 1', (s: ReturnType<typeof world>['sim'], u: string) => s.workspaces.create({ userId: u, name: 'X', ioLoggingSamplingRate: 2 }), 'ioLoggingSamplingRate'],
    ['key ids that are not integers', (s: ReturnType<typeof world>['sim'], u: string) => s.workspaces.create({ userId: u, name: 'X', ioLoggingApiKeyIds: ['a'] as never }), 'ioLoggingApiKeyIds'],
    ['a flag that is not a boolean', (s: ReturnType<typeof world>['sim'], u: string) => s.workspaces.create({ userId: u, name: 'X', includeByokInBudgets: 'yes' as never }), 'includeByokInBudgets'],
    ['an empty label', (s: ReturnType<typeof world>['sim'], u: string) => s.keys.create({ userId: u, label: '' }), 'label'],
    ['a creator that is not a string', (s: ReturnType<typeof world>['sim'], u: string) => s.keys.create({ userId: u, creatorUserId: 7 as never }), 'creatorUserId'],
    ['a default workspace that is not an object', (s: ReturnType<typeof world>['sim']) => s.users.create({ defaultWorkspace: 'main' as never }), 'defaultWorkspace'],
  ])('refuses %s, naming it', (_, call, argument) => {
    const { sim, user } = world()
    const before = JSON.stringify(sim.exportWorld())
    let error: unknown
    try {
      call(sim, user.id)
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(SimulatorError)
    expect((error as SimulatorError).argument).toBe(argument)
    expect(JSON.stringify(sim.exportWorld())).toBe(before)
  })
})
