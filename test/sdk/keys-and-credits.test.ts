// Keys and credits through the official SDK over MSW: sdk.apiKeys.create, update, delete,
// getCurrentKeyMetadata and sdk.credits.getCredits, each answer parsed by the SDK, the state
// transitions as a client sees them, and the errors as the SDK's typed errors.
import { OpenRouter } from '@openrouter/sdk'
import { BadRequestResponseError, ForbiddenResponseError, NotFoundResponseError, UnauthorizedResponseError } from '@openrouter/sdk/models/errors'
import { unrecognized } from '@openrouter/sdk/types'
import { beforeEach, describe, expect, it } from 'vitest'
import { createSimulator, maskSecret } from '../../src/index.js'
import { failureOf, sdkClient, useSimulatorServer } from '../support/server.js'

const sim = createSimulator()
const server = useSimulatorServer()
const world = sim.world

beforeEach(() => {
  sim.reset()
  server.serve(sim)
})

const client = (secret: string): OpenRouter => sdkClient(secret)

const management = (): OpenRouter => client(world.managementKey)
const GLOBEX_KEY = sim.keys.list().find((key) => key.creator_user_id === world.otherTenant.userId && key.name !== 'Globex admin')

describe('sdk.apiKeys.create', () => {
  it('returns the secret and the new key, which the SDK parses, and which reads back the same', async () => {
    const expiresAt = new Date('2026-06-01T00:00:00Z')
    const created = await management().apiKeys.create({
      requestBody: { name: 'Customer 42', limit: 25, limitReset: 'weekly', includeByokInLimit: true, expiresAt, workspaceId: world.workspaces.production },
    })

    expect(created.key).toMatch(/^sk-or-v1-[0-9a-f]{64}$/)
    expect(created.data).toMatchObject({
      name: 'Customer 42',
      label: maskSecret(created.key),
      limit: 25,
      limitRemaining: 25,
      limitReset: 'weekly',
      includeByokInLimit: true,
      expiresAt,
      workspaceId: world.workspaces.production,
      disabled: false,
      usage: 0,
      updatedAt: null,
      externalUser: null,
    })
    const read = await management().apiKeys.get({ hash: created.data.hash })
    expect(read.data).toEqual(created.data)
  })

  it('accepts the external user and creator fields the SDK sends', async () => {
    const created = await management().apiKeys.create({ requestBody: { name: 'Partner user', external: { user: 'partner-7', apiKey: 'lookup' }, creatorUserId: null } })
    expect(created.data).toMatchObject({ creatorUserId: null, externalUser: 'partner-7' })
    expect((await management().apiKeys.get({ hash: created.data.hash })).data.externalUser).toBe('partner-7')
  })

  it('refuses a negative limit as BadRequestResponseError naming limit, and creates nothing', async () => {
    const before = sim.keys.list().length
    const error = await failureOf(management().apiKeys.create({ requestBody: { name: 'Bad', limit: -1 } }))
    expect(error).toBeInstanceOf(BadRequestResponseError)
    expect((error as BadRequestResponseError).data$.error.metadata).toMatchObject({ parameter: 'limit' })
    expect(sim.keys.list().length).toBe(before)
  })

  it('refuses a regular key as ForbiddenResponseError', async () => {
    expect(await failureOf(client(world.apiKey).apiKeys.create({ requestBody: { name: 'Escalation' } }))).toBeInstanceOf(ForbiddenResponseError)
  })
})

describe('sdk.apiKeys.update', () => {
  it('disables a key, whose secret is then refused, and enables it again', async () => {
    const { key, data } = await management().apiKeys.create({ requestBody: { name: 'Toggle' } })
    sim.clock.advance(30_000)

    const disabled = await management().apiKeys.update({ hash: data.hash, requestBody: { disabled: true } })
    expect(disabled.data).toMatchObject({ disabled: true, updatedAt: '2026-03-02T10:00:30.000000+00:00' })
    const refused = await failureOf(client(key).apiKeys.getCurrentKeyMetadata())
    expect(refused).toBeInstanceOf(UnauthorizedResponseError)
    expect((refused as UnauthorizedResponseError).data$.error.metadata).toEqual({ reason: 'disabled' })
    const listed = await management().apiKeys.list()
    expect(listed.data.map((k) => k.hash)).not.toContain(data.hash)

    await management().apiKeys.update({ hash: data.hash, requestBody: { disabled: false } })
    expect((await client(key).apiKeys.getCurrentKeyMetadata()).data.label).toBe(data.label)
    expect((await management().apiKeys.list()).data[0]?.hash).toBe(data.hash)
  })

  it('gives limit_remaining of a new limit at once', async () => {
    const { data } = await management().apiKeys.create({ requestBody: { name: 'Budget', limit: 10 } })
    sim.usage.record({ keyHash: data.hash, cost: 4 })
    const updated = await management().apiKeys.update({ hash: data.hash, requestBody: { limit: 5, limitReset: 'daily' } })
    expect(updated.data).toMatchObject({ limit: 5, limitRemaining: 1, limitReset: 'daily' })
    expect((await management().apiKeys.get({ hash: data.hash })).data.limitRemaining).toBe(1)
  })

  it('answers an empty update with the key as it is', async () => {
    const before = await management().apiKeys.get({ hash: world.apiKeyHash })
    const after = await management().apiKeys.update({ hash: world.apiKeyHash, requestBody: {} })
    expect(after.data).toEqual(before.data)
  })

  it('refuses an unknown limit reset as BadRequestResponseError, and another tenant\'s key as NotFoundResponseError', async () => {
    const bad = await failureOf(management().apiKeys.update({ hash: world.apiKeyHash, requestBody: { limitReset: unrecognized('hourly') } }))
    expect(bad).toBeInstanceOf(BadRequestResponseError)
    expect((bad as BadRequestResponseError).data$.error.metadata).toMatchObject({ parameter: 'limit_reset' })
    expect(await failureOf(management().apiKeys.update({ hash: GLOBEX_KEY?.hash ?? '', requestBody: { disabled: true } }))).toBeInstanceOf(NotFoundResponseError)
    expect(sim.keys.get(GLOBEX_KEY?.hash ?? '')?.disabled).toBe(GLOBEX_KEY?.disabled)
  })
})

describe('sdk.apiKeys.delete', () => {
  it('deletes a key: deleted true, its secret unknown, its hash not found, its spending still counted', async () => {
    const { key, data } = await management().apiKeys.create({ requestBody: { name: 'Short-lived' } })
    sim.usage.record({ keyHash: data.hash, cost: 3.3 })
    const before = await management().credits.getCredits()

    expect(await management().apiKeys.delete({ hash: data.hash })).toEqual({ deleted: true })

    const unknown = await failureOf(client(key).apiKeys.getCurrentKeyMetadata())
    expect(unknown).toBeInstanceOf(UnauthorizedResponseError)
    expect((unknown as UnauthorizedResponseError).data$.error.metadata).toEqual({ reason: 'unknown' })
    expect(await failureOf(management().apiKeys.get({ hash: data.hash }))).toBeInstanceOf(NotFoundResponseError)
    expect(await failureOf(management().apiKeys.update({ hash: data.hash, requestBody: { name: 'x' } }))).toBeInstanceOf(NotFoundResponseError)
    expect(await failureOf(management().apiKeys.delete({ hash: data.hash }))).toBeInstanceOf(NotFoundResponseError)
    expect(await management().credits.getCredits()).toEqual(before)
  })

  it("answers another tenant's key as NotFoundResponseError and leaves it in place", async () => {
    expect(await failureOf(management().apiKeys.delete({ hash: GLOBEX_KEY?.hash ?? '' }))).toBeInstanceOf(NotFoundResponseError)
    expect(sim.keys.get(GLOBEX_KEY?.hash ?? '')).toBeDefined()
  })
})

describe('sdk.apiKeys.getCurrentKeyMetadata', () => {
  it("parses the regular key's figures", async () => {
    const { data } = await client(world.apiKey).apiKeys.getCurrentKeyMetadata()
    const record = sim.keys.get(world.apiKeyHash)
    expect(data).toMatchObject({
      label: record?.label,
      limit: record?.limit,
      limitRemaining: record?.limit_remaining,
      usage: record?.usage,
      usageDaily: record?.usage_daily,
      byokUsage: record?.byok_usage,
      isManagementKey: false,
      isProvisioningKey: false,
      isFreeTier: false,
      workspaceId: record?.workspace_id,
      rateLimit: { interval: '10s', requests: -1, note: 'This field is deprecated and safe to ignore.' },
      freeModelDailyRequests: { limit: 1000, remaining: 1000, used: 0 },
      allowedDataRegions: ['global'],
      organizationId: null,
    })
  })

  it('parses a management key as one', async () => {
    expect((await management().apiKeys.getCurrentKeyMetadata()).data.isManagementKey).toBe(true)
  })
})

describe('sdk.credits.getCredits', () => {
  it("parses the organisation's credits, which follow purchases and spending exactly", async () => {
    const before = (await management().credits.getCredits()).data
    expect(before).toEqual({ totalCredits: sim.credits.get(world.userId).total_credits, totalUsage: sim.credits.get(world.userId).total_usage })
    sim.credits.add({ userId: world.userId, amount: 50 })
    const { data: key } = await management().apiKeys.create({ requestBody: { name: 'Spender' } })
    sim.usage.record({ keyHash: key.hash, cost: 0.25 })
    const after = (await management().credits.getCredits()).data
    expect(after.totalCredits).toBe(before.totalCredits + 50)
    expect(after.totalUsage).toBeCloseTo(before.totalUsage + 0.25, 9)
  })

  it('refuses a regular key as ForbiddenResponseError', async () => {
    expect(await failureOf(client(world.apiKey).credits.getCredits())).toBeInstanceOf(ForbiddenResponseError)
  })
})
