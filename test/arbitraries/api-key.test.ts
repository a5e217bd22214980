import fc from 'fast-check'
import { GetKeyResponse$inboundSchema } from '@openrouter/sdk/models/operations/getkey.js'
import { ListResponse$inboundSchema } from '@openrouter/sdk/models/operations/list.js'
import { describe, expect, it } from 'vitest'
import { apiKey } from '../../src/arbitraries/index.js'
import type { ApiKey } from '../../src/arbitraries/index.js'
import { HEX64, SERVICE_TIMESTAMP, UUID_V4, expectSdkParses, sampleOf, settings, shrunk } from './support.js'

/** The usage the limit counts: that of the reset period (all time without one), BYOK when the key says so. */
function spentInPeriod(key: ApiKey): number {
  const [used, byok] =
    key.limit_reset === 'daily'
      ? [key.usage_daily, key.byok_usage_daily]
      : key.limit_reset === 'weekly'
        ? [key.usage_weekly, key.byok_usage_weekly]
        : key.limit_reset === 'monthly'
          ? [key.usage_monthly, key.byok_usage_monthly]
          : [key.usage, key.byok_usage]
  return used + (key.include_byok_in_limit ? byok : 0)
}

describe('apiKey', () => {
  it('every key is one the SDK parses, as a list item and as a single read', () => {
    fc.assert(
      fc.property(apiKey(), (key) => {
        expectSdkParses(ListResponse$inboundSchema, { data: [key] })
        expectSdkParses(GetKeyResponse$inboundSchema, { data: key })
      }),
      settings,
    )
  })

  it('usage figures nest: daily <= weekly <= usage and daily <= monthly <= usage, for BYOK too', () => {
    fc.assert(
      fc.property(apiKey(), (key) => {
        for (const [daily, weekly, monthly, total] of [
          [key.usage_daily, key.usage_weekly, key.usage_monthly, key.usage],
          [key.byok_usage_daily, key.byok_usage_weekly, key.byok_usage_monthly, key.byok_usage],
        ] as const) {
          expect(daily).toBeGreaterThanOrEqual(0)
          expect(daily).toBeLessThanOrEqual(weekly)
          expect(daily).toBeLessThanOrEqual(monthly)
          expect(weekly).toBeLessThanOrEqual(total)
          expect(monthly).toBeLessThanOrEqual(total)
        }
      }),
      settings,
    )
  })

  it('limit_remaining is null without a limit, else the limit less the period usage and never below 0', () => {
    fc.assert(
      fc.property(apiKey(), (key) => {
        if (key.limit === null) {
          expect(key.limit_remaining).toBeNull()
          return
        }
        expect(key.limit_remaining).not.toBeNull()
        expect(key.limit_remaining).toBeGreaterThanOrEqual(0)
        expect(key.limit_remaining).toBeCloseTo(Math.max(0, key.limit - spentInPeriod(key)), 6)
      }),
      settings,
    )
  })

  it('hashes are 64 hex, labels masked secrets, timestamps in the service format and never before created_at', () => {
    fc.assert(
      fc.property(apiKey(), (key) => {
        expect(key.hash).toMatch(HEX64)
        expect(key.label).toMatch(/^sk-or-v1-[0-9a-f]{3}\.\.\.[0-9a-f]{4}$/)
        expect(key.workspace_id).toMatch(UUID_V4)
        expect(key.creator_user_id ?? 'user_x').toMatch(/^user_[A-Za-z0-9]+$/)
        for (const at of [key.created_at, key.updated_at, key.expires_at]) if (at !== null) expect(at).toMatch(SERVICE_TIMESTAMP)
        for (const later of [key.updated_at, key.expires_at]) if (later !== null) expect(Date.parse(later)).toBeGreaterThanOrEqual(Date.parse(key.created_at))
        expect(key.external_user).toBeNull()
      }),
      settings,
    )
  })

  it('honours workspaceId, disabled, hasLimit and the created_at bounds', () => {
    const workspaceId = '6f1d9b0e-8a3c-4c51-9e2f-1a2b3c4d5e6f'
    const minCreatedAt = Date.UTC(2026, 0, 1)
    const maxCreatedAt = new Date('2026-01-31T23:59:59.999Z')
    fc.assert(
      fc.property(apiKey({ workspaceId, disabled: true, hasLimit: true, minCreatedAt, maxCreatedAt }), apiKey({ hasLimit: false, disabled: false }), (limited, unlimited) => {
        expect(limited.workspace_id).toBe(workspaceId)
        expect(limited.disabled).toBe(true)
        expect(limited.limit).not.toBeNull()
        expect(limited.created_at.startsWith('2026-01-')).toBe(true)
        expect([unlimited.limit, unlimited.limit_remaining, unlimited.disabled]).toEqual([null, null, false])
      }),
      settings,
    )
  })

  it('is biased toward used-up limits, limits of 0, no usage, equal figures and null fields', () => {
    const keys = sampleOf(apiKey())
    expect(keys.some((k) => k.limit !== null && k.limit > 0 && k.limit_remaining === 0)).toBe(true)
    expect(keys.some((k) => k.limit === 0)).toBe(true)
    expect(keys.some((k) => k.usage === 0 && k.byok_usage === 0)).toBe(true)
    expect(keys.some((k) => k.usage > 0 && k.usage_daily === k.usage_weekly && k.usage_weekly === k.usage)).toBe(true)
    for (const field of ['limit', 'limit_reset', 'updated_at', 'expires_at', 'creator_user_id'] as const) {
      expect(keys.some((k) => k[field] === null), field).toBe(true)
    }
  })

  it('is biased toward timestamps a millisecond either side of midnight', () => {
    const created = sampleOf(apiKey()).map((k) => k.created_at.slice(11, 26))
    expect(created).toContain('23:59:59.999000')
    expect(created).toContain('00:00:00.000000')
  })

  it('shrinks a key with nothing left to spend to a limit of 0 with no usage', () => {
    const minimal = shrunk(apiKey(), (k) => k.limit_remaining !== 0)
    expect(minimal).toMatchObject({ limit: 0, limit_remaining: 0, limit_reset: null, usage: 0, byok_usage: 0, updated_at: null, expires_at: null })
    expect(minimal.hash).toBe('0'.repeat(64))
  })
})
