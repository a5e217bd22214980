// sim.keys.load: a key record as GET /keys shows it, or as the official SDK parsed it, loads as it is.
import { OpenRouter } from '@openrouter/sdk'
import { describe, expect, it } from 'vitest'
import { fakeApiKey } from '../../src/fixtures/index.js'
import { type ApiKey, createSimulator, SimulatorError } from '../../src/index.js'
import { simTest } from '../../src/vitest/index.js'

const BASE = 'https://openrouter.ai/api/v1'

/** A simulator whose first user owns `workspaceId` (the record's). */
function simFor(workspaceId: string, options: { world?: 'empty' } = {}) {
  const sim = createSimulator({ world: 'empty', ...options })
  const user = sim.users.create({})
  sim.workspaces.create({ userId: user.id, id: workspaceId, name: 'Imported' })
  return { sim, userId: user.id }
}

function refusal(call: () => unknown): SimulatorError {
  try {
    call()
  } catch (error) {
    expect(error).toBeInstanceOf(SimulatorError)
    return error as SimulatorError
  }
  throw new Error('expected a SimulatorError')
}

describe('sim.keys.load', () => {
  it('loads a fakeApiKey record as it is, and shows that very record, for 200 seeds', () => {
    for (let seed = 0; seed < 200; seed++) {
      const record = fakeApiKey({ seed })
      const { sim, userId } = simFor(record.workspace_id)
      const loaded = sim.keys.load(record, { userId })
      expect(loaded.record, `seed ${seed}`).toEqual(record)
      expect(sim.keys.get(record.hash), `seed ${seed}`).toEqual(record)
      // The secret is that key's: a regular key that is live is refused GET /keys as not a management key.
      const live = !record.disabled && (record.expires_at === null || Date.parse(record.expires_at) > sim.clock.now().getTime())
      const res = sim.handle({ method: 'GET', path: '/keys', authorization: `Bearer ${loaded.key}` })
      expect(res.status, `seed ${seed}`).toBe(live ? 403 : 401)
    }
  })

  it('takes the secret to accept, and keeps the record’s label', () => {
    const record = fakeApiKey({ seed: 3 }, { disabled: false, expires_at: null })
    const { sim, userId } = simFor(record.workspace_id)
    const secret = 'sk-or-v1-imported-from-a-real-account-0001'
    const loaded = sim.keys.load(record, { userId, secret, management: true })
    expect(loaded.key).toBe(secret)
    expect(loaded.record.label).toBe(record.label)
    const res = sim.handle({ method: 'GET', path: `/keys/${record.hash}`, authorization: `Bearer ${secret}` })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ data: record })
  })

  simTest('loads the records the official SDK parsed (camelCase, expiresAt a Date), which then read back the same', async ({ sim }) => {
    const sdk = new OpenRouter({ apiKey: sim.world.managementKey, serverURL: BASE, retryConfig: { strategy: 'none' } })
    const listed = await sdk.apiKeys.list({ includeDisabled: true })
    expect(listed.data.length).toBeGreaterThan(3)
    const withExpiry = listed.data.find((k) => k.expiresAt instanceof Date)
    expect(withExpiry, 'the default world has a key that expires').toBeDefined()
    const target = createSimulator({ world: 'empty' })
    const owner = target.users.create({})
    for (const workspaceId of new Set(listed.data.map((k) => k.workspaceId))) target.workspaces.create({ userId: owner.id, id: workspaceId, name: workspaceId })
    for (const key of listed.data) {
      const { record } = target.keys.load(key, { userId: owner.id })
      expect(record).toEqual(sim.keys.get(key.hash))
    }
    const one = await sdk.apiKeys.get({ hash: listed.data[0]!.hash })
    const again = createSimulator({ world: 'empty' })
    const user = again.users.create({})
    again.workspaces.create({ userId: user.id, id: one.data.workspaceId, name: 'One' })
    expect(again.keys.load(one.data, { userId: user.id }).record).toEqual(sim.keys.get(one.data.hash))
  })

  describe('refuses, naming the field, and stores nothing', () => {
    const record = fakeApiKey({ seed: 11 })
    const cases: [string, (r: ApiKey) => unknown, Record<string, unknown>, string, string, RegExp][] = [
      ['a workspace the user does not have', (r) => ({ ...r, workspace_id: '00000000-0000-4000-8000-000000000000' }), {}, 'UNKNOWN_WORKSPACE', 'record.workspace_id', /is not a workspace of user/],
      ['a field no key record has', (r) => ({ ...r, owner: 'me' }), {}, 'INVALID_ARGUMENT', 'record.owner', /is not a field of a key record/],
      ['a missing field', (r) => ({ ...r, usage_daily: undefined }), {}, 'INVALID_ARGUMENT', 'record.usage_daily', /is missing/],
      ['an external user that is not a string', (r) => ({ ...r, external_user: 7 }), {}, 'INVALID_ARGUMENT', 'record.external_user', /must be a non-empty string/],
      ['a negative limit', (r) => ({ ...r, limit: -5 }), {}, 'INVALID_ARGUMENT', 'record.limit', /non-negative/],
      ['weekly usage beyond today’s on a Monday', (r) => ({ ...r, usage: 10, usage_daily: 1, usage_weekly: 2, usage_monthly: 3 }), {}, 'INVALID_ARGUMENT', 'record.usage_weekly', /cannot exceed daily \(1\) here: this week so far is today/],
      ['BYOK usage below today’s', (r) => ({ ...r, byok_usage: 10, byok_usage_daily: 5, byok_usage_weekly: 5, byok_usage_monthly: 4 }), {}, 'INVALID_ARGUMENT', 'record.byok_usage_monthly', /must be at least daily/],
      ['an unknown reset period', (r) => ({ ...r, limit: 5, limit_reset: 'yearly' }), {}, 'INVALID_ARGUMENT', 'record.limit_reset', /must be one of/],
      ['a date-only creation date', (r) => ({ ...r, created_at: '2025-01-01' }), {}, 'INVALID_ARGUMENT', 'record.created_at', /./],
      ['an unknown user', (r) => r, { userId: 'user_nobody' }, 'UNKNOWN_USER', 'options.userId', /"options.userId" names an unknown user/],
      ['a secret with white space', (r) => r, { secret: 'not a secret' }, 'INVALID_ARGUMENT', 'options.secret', /without white space/],
    ]
    it.each(cases)('%s', (_, edit, options, code, argument, message) => {
      const { sim, userId } = simFor(record.workspace_id)
      const before = sim.keys.list().length
      const error = refusal(() => sim.keys.load(edit(record) as ApiKey, { userId, ...options } as never))
      expect(error.code).toBe(code)
      expect(error.argument).toBe(argument)
      expect(error.message).toMatch(/^Failed to load API key: /)
      expect(error.message).toContain(`"${argument}"`)
      expect(error.message).toMatch(message)
      expect(sim.keys.list()).toHaveLength(before)
    })

    it('a hash already in the simulator', () => {
      const { sim, userId } = simFor(record.workspace_id)
      sim.keys.load(record, { userId })
      const error = refusal(() => sim.keys.load(record, { userId }))
      expect([error.code, error.argument]).toEqual(['DUPLICATE_ID', 'record.hash'])
      expect(sim.keys.list()).toHaveLength(1)
    })

    it('an SDK record is named by the SDK’s field names', () => {
      const { sim, userId } = simFor(record.workspace_id)
      const sdkShaped = { ...toSdk(record), usageWeekly: record.usage_monthly + 1 }
      expect(refusal(() => sim.keys.load(sdkShaped as never, { userId })).argument).toBe('record.usageWeekly')
    })

    it('what is not a record at all', () => {
      const { sim, userId } = simFor(record.workspace_id)
      expect(refusal(() => sim.keys.load('sk-or-v1-abc' as never, { userId })).argument).toBe('record')
      expect(refusal(() => sim.keys.load(record, undefined as never)).argument).toBe('options')
    })
  })
})

/** The SDK's shape of a wire record: camelCase, `expiresAt` a Date or absent. */
function toSdk(r: ApiKey): Record<string, unknown> {
  const { expires_at, ...rest } = r
  const camel = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()), v]))
  return { ...camel, ...(expires_at === null ? {} : { expiresAt: new Date(expires_at) }) }
}
