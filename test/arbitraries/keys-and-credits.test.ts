// The arbitraries of the keys-and-credits wire entities, each parsed by the official SDK.
import fc from 'fast-check'
import { CreateKeysResponse$inboundSchema } from '@openrouter/sdk/models/operations/createkeys.js'
import { GetCreditsResponse$inboundSchema } from '@openrouter/sdk/models/operations/getcredits.js'
import { GetCurrentKeyResponse$inboundSchema } from '@openrouter/sdk/models/operations/getcurrentkey.js'
import { describe, expect, it } from 'vitest'
import { createdKey, credits, currentKey } from '../../src/arbitraries/index.js'
import { maskSecret } from '../../src/index.js'
import { simulatorErrorOf } from '../support/server.js'
import { HEX64, SERVICE_TIMESTAMP, expectSdkParses, sampleOf, settings } from './support.js'

describe('createdKey', () => {
  it('every answer is one the SDK parses', () => {
    fc.assert(fc.property(createdKey(), (answer) => expectSdkParses(CreateKeysResponse$inboundSchema, answer)), settings)
  })

  it('is a fresh key labelled from its secret, with nothing spent and the whole limit remaining', () => {
    fc.assert(
      fc.property(createdKey(), ({ data, key }) => {
        expect(key.slice('sk-or-v1-'.length)).toMatch(HEX64)
        expect(data.label).toBe(maskSecret(key))
        expect(data.disabled).toBe(false)
        expect(data.usage + data.byok_usage).toBe(0)
        expect(data.limit_remaining).toBe(data.limit)
        expect(data.updated_at).toBeNull()
        expect(data.created_at).toMatch(SERVICE_TIMESTAMP)
      }),
      settings,
    )
  })

  it('honours its constraints and refuses unknown ones', () => {
    const workspaceId = '6f1d9b0e-8a3c-4c51-9e2f-1a2b3c4d5e6f'
    for (const { data } of sampleOf(createdKey({ workspaceId, hasLimit: true }), 200)) {
      expect(data.workspace_id).toBe(workspaceId)
      expect(data.limit).not.toBeNull()
    }
    expect(simulatorErrorOf(() => createdKey({ limit: 5 } as never)).argument).toBe('limit')
  })
})

describe('currentKey', () => {
  it('every key is one the SDK parses', () => {
    fc.assert(fc.property(currentKey(), (key) => expectSdkParses(GetCurrentKeyResponse$inboundSchema, { data: key })), settings)
  })

  it('agrees with itself: management flags, the free-model allowance of its tier, regions', () => {
    fc.assert(
      fc.property(currentKey(), (key) => {
        expect(key.is_provisioning_key).toBe(key.is_management_key)
        const daily = key.free_model_daily_requests
        expect(daily.limit).toBe(key.is_free_tier ? 50 : 1000)
        expect(daily.remaining + daily.used).toBe(daily.limit)
        expect(daily.remaining).toBeGreaterThanOrEqual(0)
        expect(key.allowed_data_regions.length).toBeGreaterThan(0)
        expect(Number.isInteger(key.rate_limit.requests)).toBe(true)
      }),
      settings,
    )
  })

  it('honours its constraints, and reaches both ends of the allowance', () => {
    const keys = sampleOf(currentKey({ management: false, freeTier: true }), 300)
    expect(keys.every((key) => !key.is_management_key && key.is_free_tier)).toBe(true)
    expect(keys.some((key) => key.free_model_daily_requests.remaining === 0)).toBe(true)
    expect(keys.some((key) => key.free_model_daily_requests.used === 0)).toBe(true)
    expect(simulatorErrorOf(() => currentKey({ managment: true } as never)).argument).toBe('managment')
  })
})

describe('credits', () => {
  it('every answer is one the SDK parses, usage at most what was bought', () => {
    fc.assert(
      fc.property(credits(), (c) => {
        expectSdkParses(GetCreditsResponse$inboundSchema, { data: c })
        expect(c.total_usage).toBeLessThanOrEqual(c.total_credits)
        expect(c.total_usage).toBeGreaterThanOrEqual(0)
        expect(Math.round(c.total_credits * 100) / 100).toBe(c.total_credits)
      }),
      settings,
    )
  })

  it('may overspend only when asked, and reaches a new account', () => {
    const samples = sampleOf(credits({ overspent: true }), 500)
    expect(samples.some((c) => c.total_usage > c.total_credits)).toBe(true)
    expect(sampleOf(credits(), 500).some((c) => c.total_credits === 0 && c.total_usage === 0)).toBe(true)
  })
})
