import fc from 'fast-check'
import { GetGuardrailResponse$inboundSchema } from '@openrouter/sdk/models/getguardrailresponse.js'
import { describe, expect, it } from 'vitest'
import { guardrail } from '../../src/arbitraries/index.js'
import { guardrailReadBack } from '../support/governance.js'
import { SERVICE_TIMESTAMP, UUID_V4, expectSdkParses, sampleOf, settings, shrunk } from './support.js'

describe('guardrail', () => {
  it('every guardrail is one the SDK parses, with a UUID and ordered timestamps', () => {
    fc.assert(
      fc.property(guardrail(), (g) => {
        expectSdkParses(GetGuardrailResponse$inboundSchema, { data: g })
        expect(g.id).toMatch(UUID_V4)
        expect(g.created_at).toMatch(SERVICE_TIMESTAMP)
        if (g.updated_at !== null) expect(Date.parse(g.updated_at)).toBeGreaterThanOrEqual(Date.parse(g.created_at))
      }),
      settings,
    )
  })

  it('every guardrail loads through a world spec and reads back the same', () => {
    fc.assert(fc.property(guardrail(), (g) => void expect(guardrailReadBack(g)).toEqual({ data: g })), { ...settings, numRuns: Math.min(settings.numRuns, 60) })
  })

  it('is deterministic by seed, honours the created_at bounds and refuses an unknown constraint', () => {
    expect(fc.sample(guardrail(), { seed: 5, numRuns: 5 })).toEqual(fc.sample(guardrail(), { seed: 5, numRuns: 5 }))
    fc.assert(
      fc.property(guardrail({ minCreatedAt: Date.UTC(2025, 11, 31, 23, 59), maxCreatedAt: Date.UTC(2026, 0, 1) }), (g) => {
        expect(Date.parse(g.created_at)).toBeGreaterThanOrEqual(Date.UTC(2025, 11, 31, 23, 59))
        expect(Date.parse(g.created_at)).toBeLessThanOrEqual(Date.UTC(2026, 0, 1))
      }),
      settings,
    )
    expect(() => guardrail({ minCreated: 1 } as never)).toThrow(/minCreated/)
  })

  it('comes up with empty allow lists, limits of 0, lifetime limits and guardrails outside a workspace', () => {
    const guardrails = sampleOf(guardrail())
    expect(guardrails.some((g) => g.allowed_models?.length === 0)).toBe(true)
    expect(guardrails.some((g) => g.limit_usd === 0)).toBe(true)
    expect(guardrails.some((g) => g.limit_usd !== null && g.reset_interval === null)).toBe(true)
    expect(guardrails.some((g) => g.workspace_id === null)).toBe(true)
    expect(guardrails.some((g) => (g.content_filters?.length ?? 0) > 0)).toBe(true)
  })

  it('shrinks a guardrail with a limit to the bare one with a limit of 0', () => {
    const minimal = shrunk(guardrail(), (g) => g.limit_usd === null)
    expect(minimal).toMatchObject({ limit_usd: 0, reset_interval: null, allowed_models: null, content_filters: null, enforce_zdr: null, workspace_id: null, updated_at: null, description: null })
  })
})
